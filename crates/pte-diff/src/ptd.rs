//! `.ptd` against `.ptd`: header and segment placement (layout), keys and
//! tensor layouts (program), blob data element-wise (data).

use std::collections::BTreeMap;

use pte_file::ptd::PtdFile;
use pte_schema::ptd::TensorLayout;
use pte_schema::{Result, Tensor};
use pte_segments::FlatTensorHeader;

use crate::{program, side, Category, Difference, Options};

pub(crate) fn diff(a: &[u8], b: &[u8], o: &Options, out: &mut Vec<Difference>) -> Result<()> {
    let fa = PtdFile::from_bytes(a).map_err(side("A"))?;
    let fb = PtdFile::from_bytes(b).map_err(side("B"))?;
    let ha = FlatTensorHeader::parse(a).map_err(side("A"))?;
    let hb = FlatTensorHeader::parse(b).map_err(side("B"))?;
    for (name, p, q) in [
        ("length", u64::from(ha.length), u64::from(hb.length)),
        ("flatbuffer_offset", ha.flatbuffer_offset, hb.flatbuffer_offset),
        ("flatbuffer_size", ha.flatbuffer_size, hb.flatbuffer_size),
        ("segment_base_offset", ha.segment_base_offset, hb.segment_base_offset),
        ("segment_data_size", ha.segment_data_size, hb.segment_data_size),
    ] {
        if p != q {
            out.push(Difference::new(Category::Layout, format!("FH01.{name}"), format!("{p} vs {q}")));
        }
    }
    let ta = fa.flat_tensor.segments.as_deref().unwrap_or(&[]);
    let tb = fb.flat_tensor.segments.as_deref().unwrap_or(&[]);
    if ta.len() != tb.len() {
        out.push(Difference::new(Category::Layout, "segments", format!("{} segments vs {}", ta.len(), tb.len())));
    }
    for (i, (x, y)) in ta.iter().zip(tb).enumerate() {
        if (x.offset, x.size) != (y.offset, y.size) {
            out.push(Difference::new(
                Category::Layout,
                format!("segments[{i}]"),
                format!("offset {} size {} vs offset {} size {}", x.offset, x.size, y.offset, y.size),
            ));
        }
    }
    if fa.flat_tensor.version != fb.flat_tensor.version {
        out.push(Difference::new(
            Category::Program,
            "version",
            format!("{} vs {}", fa.flat_tensor.version, fb.flat_tensor.version),
        ));
    }
    let keys = |f: &PtdFile<'_>| -> BTreeMap<String, u32> {
        f.flat_tensor
            .named_data
            .iter()
            .flatten()
            .map(|n| (n.key.clone().unwrap_or_default(), n.segment_index))
            .collect()
    };
    let (ka, kb) = (keys(&fa), keys(&fb));
    for (k, sa) in &ka {
        let path = format!("named_data[{k:?}]");
        let Some(sb) = kb.get(k) else {
            out.push(Difference::new(Category::Program, path, "only in A"));
            continue;
        };
        if sa != sb {
            out.push(Difference::new(Category::Layout, format!("{path}.segment_index"), format!("{sa} vs {sb}")));
        }
        let (Some((la, da)), Some((lb, db))) = (fa.get(k).map_err(side("A"))?, fb.get(k).map_err(side("B"))?) else {
            continue;
        };
        if la != lb {
            out.push(Difference::new(
                Category::Program,
                format!("{path}.tensor_layout"),
                format!("{} vs {}", show(la), show(lb)),
            ));
        }
        match la {
            Some(l) => {
                let t = Tensor { scalar_type: l.scalar_type, sizes: l.sizes.clone(), ..Tensor::default() };
                program::tensor_data(path, "tensor", &t, da, db, o, out);
            }
            None if da != db => {
                let n = da.iter().zip(db).filter(|(x, y)| x != y).count();
                out.push(Difference::new(
                    Category::Data,
                    path,
                    format!(
                        "bytes differ: {n} of {} bytes, sizes {} vs {}",
                        da.len().min(db.len()),
                        da.len(),
                        db.len()
                    ),
                ));
            }
            None => {}
        }
    }
    for k in kb.keys().filter(|k| !ka.contains_key(*k)) {
        out.push(Difference::new(Category::Program, format!("named_data[{k:?}]"), "only in B"));
    }
    if a.len() != b.len() {
        out.push(Difference::new(Category::Layout, "file", format!("size {} vs {}", a.len(), b.len())));
    }
    Ok(())
}

fn show(l: Option<&TensorLayout>) -> String {
    l.map_or("none".into(), |l| {
        format!(
            "{}{:?} dim_order {:?}",
            l.scalar_type,
            l.sizes.as_deref().unwrap_or(&[]),
            l.dim_order.as_deref().unwrap_or(&[])
        )
    })
}
