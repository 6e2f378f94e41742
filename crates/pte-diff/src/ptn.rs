//! `.ptn` against `.ptn`: the native program (structurally), the constants
//! (keys, dtype, shape, data element-wise), aliases, and every other member
//! (such as the samples sidecar) by bytes.

use std::collections::BTreeMap;

use pte_ptn::{Dtype, PtnFile};
use pte_schema::{Limits, Result};

use crate::elements::{compare, Elem};
use crate::{jsondiff, side, Category, Difference, Options};

fn elem(d: Dtype) -> Elem {
    match d {
        Dtype::F64 => Elem::F64,
        Dtype::F32 => Elem::F32,
        Dtype::F16 => Elem::F16,
        Dtype::BF16 => Elem::BF16,
        Dtype::I64 => Elem::I64,
        Dtype::I32 => Elem::I32,
        Dtype::I16 => Elem::I16,
        Dtype::I8 => Elem::I8,
        Dtype::U8 => Elem::U8,
        Dtype::BOOL => Elem::Bool,
        Dtype::U16 => Elem::U16,
        Dtype::U32 => Elem::U32,
        Dtype::U64 => Elem::U64,
        _ => Elem::Bytes,
    }
}

pub(crate) fn diff(a: &[u8], b: &[u8], o: &Options, out: &mut Vec<Difference>) -> Result<()> {
    let fa = PtnFile::from_bytes(a).map_err(side("A"))?;
    let fb = PtnFile::from_bytes(b).map_err(side("B"))?;
    let before = out.len();
    if fa.program != fb.program {
        let limits = Limits::default();
        let pa = fa.native_program(&limits).map_err(side("A"))?;
        let pb = fb.native_program(&limits).map_err(side("B"))?;
        let (ja, jb) =
            (pte_schema::native::native_program_to_json(&pa), pte_schema::native::native_program_to_json(&pb));
        jsondiff::diff(Category::Program, "program", &ja, &jb, out);
    }
    for (k, ta) in fa.constants() {
        let path = format!("constants[{k:?}]");
        let Some(tb) = fb.constant(k) else {
            out.push(Difference::new(Category::Program, path, "only in A"));
            continue;
        };
        if ta.dtype != tb.dtype || ta.shape != tb.shape {
            out.push(Difference::new(
                Category::Program,
                path.clone(),
                format!("{:?}{:?} vs {:?}{:?}", ta.dtype, ta.shape, tb.dtype, tb.shape),
            ));
        }
        if ta.data != tb.data {
            let numel = ta.shape.iter().try_fold(1u64, |x, &d| x.checked_mul(d));
            let stats = compare(&ta.data, &tb.data, elem(ta.dtype), &ta.shape, numel, o);
            if stats.num_differing > 0 || ta.data.len() != tb.data.len() {
                let msg = format!(
                    "{:?}{:?}: {} / {} elements differ",
                    ta.dtype, ta.shape, stats.num_differing, stats.num_elements
                );
                out.push(Difference { category: Category::Data, path, message: msg, tensor: Some(stats) });
            }
        }
    }
    for (k, _) in fb.constants().filter(|(k, _)| fa.constant(k).is_none()) {
        out.push(Difference::new(Category::Program, format!("constants[{k:?}]"), "only in B"));
    }
    if fa.aliases != fb.aliases {
        let j = |m: &BTreeMap<String, String>| serde_json::to_value(m).unwrap_or_default();
        jsondiff::diff(Category::Program, "aliases", &j(&fa.aliases), &j(&fb.aliases), out);
    }
    let ma: BTreeMap<&str, &[u8]> = fa.members.iter().map(|m| (m.name.as_str(), m.data.as_ref())).collect();
    let mb: BTreeMap<&str, &[u8]> = fb.members.iter().map(|m| (m.name.as_str(), m.data.as_ref())).collect();
    for (k, da) in &ma {
        match mb.get(k) {
            None => out.push(Difference::new(Category::Program, format!("members[{k:?}]"), "only in A")),
            Some(db) if db != da => out.push(Difference::new(
                Category::Data,
                format!("members[{k:?}]"),
                format!("bytes differ, sizes {} vs {}", da.len(), db.len()),
            )),
            Some(_) => {}
        }
    }
    for k in mb.keys().filter(|k| !ma.contains_key(*k)) {
        out.push(Difference::new(Category::Program, format!("members[{k:?}]"), "only in B"));
    }
    if out.len() == before {
        out.push(Difference::new(Category::Layout, "package", "zip bytes differ, same content"));
    }
    Ok(())
}
