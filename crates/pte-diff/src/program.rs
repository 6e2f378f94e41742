//! `.pte` against `.pte`: layout (header, segment table, sub-segment
//! offsets, blob placement), program (what `diff_pte.py` reports, then
//! everything else structurally) and data (constants, mutable buffers,
//! named blobs, delegate blobs).
//!
//! Both files are read in place ([`PteView`]): a program of a million
//! values costs its two mapped files and little more.

use std::collections::BTreeMap;

use pte_file::view::{PteView, SegmentTable, SubBuffers};
use pte_file::{tensor_label, PteFile, Unnamed};
use pte_schema::{Error, ErrorKind, KernelTypes, List, ProgramView, Result, Tensor, TensorView, ValueRef};
use pte_segments::ExtendedHeader;
use serde_json::json;

use crate::elements::{compare, Elem};
use crate::jsondiff::{self, Found};
use crate::{plan, side, Category, Difference, Options};

fn layout(out: &mut Vec<Difference>, path: String, msg: String) {
    out.push(Difference::new(Category::Layout, path, msg));
}

fn prog(out: &mut Vec<Difference>, path: String, msg: String) {
    out.push(Difference::new(Category::Program, path, msg));
}

fn data(out: &mut Vec<Difference>, path: String, msg: String) {
    out.push(Difference::new(Category::Data, path, msg));
}

/// Compares two `.pte` files; `prefix` goes before every path (a bundle's
/// embedded program is `program.`).
pub(crate) fn diff(a: &[u8], b: &[u8], o: &Options, prefix: &str, out: &mut Vec<Difference>) -> Result<()> {
    // refused where `PteFile::from_bytes` refuses, with its error
    let fa = PteView::read(a, SegmentTable::Whole).map_err(side("A"))?;
    let fb = PteView::read(b, SegmentTable::Whole).map_err(side("B"))?;
    let before = out.len();
    let methods = Methods::pair(&fa.program(), &fb.program(), prefix);
    header(a, b, prefix, out)?;
    segment_table(&fa.program(), &fb.program(), prefix, out);
    program(&fa.program(), &fb.program(), &methods, out)?;
    constants(&fa, &fb, &methods, o, out)?;
    named(&fa, &fb, prefix, out)?;
    delegates(&fa, &fb, &methods, out)?;
    // the same content stored another way (inline alignment, placement) changes
    // the flatbuffer bytes only
    if out.len() == before {
        let ra = pte_file::program_region(a).map(|(_, r)| r).unwrap_or(a);
        let rb = pte_file::program_region(b).map(|(_, r)| r).unwrap_or(b);
        if ra != rb {
            layout(out, format!("{prefix}program"), "flatbuffer bytes differ, same content".into());
        }
    }
    if a.len() != b.len() {
        layout(out, format!("{prefix}file"), format!("size {} vs {}", a.len(), b.len()));
    }
    Ok(())
}

/// The error of a decoded accessor where the view's answers `None` (the two
/// fail on the same files): the file decoded, asked again.
fn refusal(view: &PteView<'_>, which: &'static str, ask: impl FnOnce(&PteFile<'_>) -> Result<()>) -> Error {
    let e = match PteFile::from_bytes(view.bytes()) {
        Ok(f) => ask(&f).err(),
        Err(e) => Some(e),
    };
    side(which)(e.unwrap_or_else(|| Error::new(ErrorKind::Malformed, "the file reads in place but not decoded")))
}

fn header(a: &[u8], b: &[u8], prefix: &str, out: &mut Vec<Difference>) -> Result<()> {
    let ha = ExtendedHeader::parse(a).map_err(side("A"))?;
    let hb = ExtendedHeader::parse(b).map_err(side("B"))?;
    match (ha, hb) {
        (Some(x), Some(y)) => {
            for (name, p, q) in [
                ("program_size", x.program_size, y.program_size),
                ("segment_base_offset", x.segment_base_offset, y.segment_base_offset),
                ("segment_data_size", x.segment_data_size, y.segment_data_size),
            ] {
                if p != q {
                    layout(out, format!("{prefix}eh00.{name}"), format!("{p} vs {q}"));
                }
            }
        }
        (None, None) => {}
        (x, y) => layout(
            out,
            format!("{prefix}eh00"),
            format!(
                "extended header {} vs {}",
                if x.is_some() { "present" } else { "absent" },
                if y.is_some() { "present" } else { "absent" }
            ),
        ),
    }
    Ok(())
}

fn offsets_equal(a: Option<List<'_, u64>>, b: Option<List<'_, u64>>) -> bool {
    match (a, b) {
        (Some(x), Some(y)) => x.iter().eq(y.iter()),
        (x, y) => x.is_none() && y.is_none(),
    }
}

fn segment_table(a: &ProgramView<'_>, b: &ProgramView<'_>, prefix: &str, out: &mut Vec<Difference>) {
    let (na, nb) = (a.segment_count(), b.segment_count());
    if na != nb {
        layout(out, format!("{prefix}segments"), format!("{na} segments vs {nb}"));
    }
    for (i, (x, y)) in a.segments().zip(b.segments()).enumerate() {
        if x.offset != y.offset {
            layout(out, format!("{prefix}segments[{i}].offset"), format!("{} vs {}", x.offset, y.offset));
        }
        if x.size != y.size {
            layout(out, format!("{prefix}segments[{i}].size"), format!("{} vs {}", x.size, y.size));
        }
    }
    let sub = |s: Option<pte_schema::SubsegmentOffsets>| {
        s.map(|s| json!({"segment_index": s.segment_index, "offsets": s.offsets}))
    };
    let path = format!("{prefix}constant_segment");
    match (a.constant_offsets(), b.constant_offsets()) {
        (Some((ia, oa)), Some((ib, ob))) if ia == ib && offsets_equal(oa, ob) => {}
        (None, None) => {}
        // the keys in order, the offsets one pair at a time
        (Some((ia, oa)), Some((ib, ob))) => {
            let mut found = Found::default();
            found.walk_list(&format!("{path}.offsets"), oa.map(|o| o.iter()), ob.map(|o| o.iter()), |x| json!(x));
            found.walk(&format!("{path}.segment_index"), &json!(ia), &json!(ib));
            found.report(Category::Layout, &path, out);
        }
        _ => jsondiff::diff(
            Category::Layout,
            &path,
            &json!(sub(a.constant_segment())),
            &json!(sub(b.constant_segment())),
            out,
        ),
    }
    let muts = |p: &ProgramView<'_>| {
        p.mutable_offsets().map(|v| {
            v.map(|(i, o)| json!({"segment_index": i, "offsets": o.map(|o| o.iter().collect::<Vec<_>>())}))
                .collect::<Vec<_>>()
        })
    };
    let same_muts = match (a.mutable_offsets(), b.mutable_offsets()) {
        (Some(x), Some(y)) => {
            x.len() == y.len() && x.zip(y).all(|((ia, oa), (ib, ob))| ia == ib && offsets_equal(oa, ob))
        }
        (x, y) => x.is_none() && y.is_none(),
    };
    if !same_muts {
        jsondiff::diff(
            Category::Layout,
            &format!("{prefix}mutable_data_segments"),
            &json!(muts(a)),
            &json!(muts(b)),
            out,
        );
    }
}

fn program(a: &ProgramView<'_>, b: &ProgramView<'_>, methods: &Methods, out: &mut Vec<Difference>) -> Result<()> {
    let prefix = &methods.prefix;
    if a.version() != b.version() {
        prog(out, format!("{prefix}version"), format!("{} vs {}", a.version(), b.version()));
    }
    for &(i, j) in &methods.pairs {
        if let (Some(x), Some(y)) = (a.plan(i), b.plan(j)) {
            plan::plan(&x, &y, &methods.path(i, j), out)?;
        }
    }
    for (side, p, only) in [("A", a, &methods.only_a), ("B", b, &methods.only_b)] {
        for &i in only {
            let name = p.plan(i).and_then(|p| p.name()).unwrap_or("");
            prog(out, format!("{prefix}execution_plan"), format!("method {name:?} only in {side}"));
        }
    }
    Ok(())
}

/// A's methods paired with B's by name, as the runtime finds a method by
/// name, not by place; methods of one name (none, or repeated) pair in
/// order. Every per-method comparison walks these pairs.
struct Methods {
    /// `(index in A, index in B)`, in A's order.
    pairs: Vec<(usize, usize)>,
    /// A's methods B lacks.
    only_a: Vec<usize>,
    /// B's methods A lacks.
    only_b: Vec<usize>,
    /// What goes before every path.
    prefix: String,
}

impl Methods {
    fn pair(a: &ProgramView<'_>, b: &ProgramView<'_>, prefix: &str) -> Methods {
        let name = |p: &ProgramView<'_>, i: usize| p.plan(i).and_then(|p| p.name().map(str::to_string));
        let mut unpaired: Vec<(usize, Option<String>)> = (0..b.plan_count()).map(|j| (j, name(b, j))).collect();
        let (mut pairs, mut only_a) = (vec![], vec![]);
        for i in 0..a.plan_count() {
            let wanted = name(a, i);
            match unpaired.iter().position(|(_, n)| *n == wanted) {
                Some(k) => pairs.push((i, unpaired.remove(k).0)),
                None => only_a.push(i),
            }
        }
        let only_b = unpaired.into_iter().map(|(j, _)| j).collect();
        Methods { pairs, only_a, only_b, prefix: prefix.to_string() }
    }

    /// The path of the pair `(i, j)`: `execution_plan[i]`, or
    /// `execution_plan[i vs j]` for a method at other places in the two files.
    fn path(&self, i: usize, j: usize) -> String {
        let prefix = &self.prefix;
        if i == j {
            format!("{prefix}execution_plan[{i}]")
        } else {
            format!("{prefix}execution_plan[{i} vs {j}]")
        }
    }
}

/// Sizes as unsigned, negative ones as 0.
fn dims(t: &Tensor) -> Vec<u64> {
    t.sizes.iter().flatten().map(|&s| u64::try_from(s).unwrap_or(0)).collect()
}

/// Compares two tensors' data; records nothing when equal.
pub(crate) fn tensor_data(
    path: String,
    what: &str,
    ta: &Tensor,
    da: &[u8],
    db: &[u8],
    o: &Options,
    out: &mut Vec<Difference>,
) {
    if da == db {
        return;
    }
    let stats = compare(da, db, Elem::of(ta.scalar_type), &dims(ta), ta.numel(), o);
    if stats.num_differing == 0 && da.len() == db.len() {
        return;
    }
    // a label that is the fqn already names the tensor
    let name = ta.fqn().filter(|f| *f != what).map(|f| format!(" \"{f}\"")).unwrap_or_default();
    // the text conventions: `float32 [32, 16]`
    let dtype = pte_core::style::dtype(&ta.scalar_type.to_string());
    let mut msg = format!(
        "{what} {dtype} {}{name}: {} / {} elements differ",
        pte_core::style::shape(dims(ta)),
        stats.num_differing,
        stats.num_elements
    );
    if da.len() != db.len() {
        msg.push_str(&format!(" (byte sizes {} vs {})", da.len(), db.len()));
    }
    out.push(Difference { category: Category::Data, path, message: msg, tensor: Some(stats) });
}

/// The stored data of a tensor: a constant (no memory plan) or a mutable
/// buffer's initial state (planned, with an index into mutable segment 0).
fn stored<'s>(
    v: &PteView<'s>,
    t: &TensorView<'_>,
    c: &SubBuffers<'s>,
    m: &[SubBuffers<'s>],
) -> Option<(&'static str, &'s [u8])> {
    let i = usize::try_from(t.data_buffer_idx()).ok().filter(|&i| i > 0)?;
    if t.allocation_info().is_none() {
        v.sub_buffer_bytes(c, i).map(|b| ("constant", b))
    } else {
        v.sub_buffer_bytes(m.first()?, i).map(|b| ("mutable buffer", b))
    }
}

fn constants(
    fa: &PteView<'_>,
    fb: &PteView<'_>,
    methods: &Methods,
    o: &Options,
    out: &mut Vec<Difference>,
) -> Result<()> {
    let ca = fa.constants().ok_or_else(|| refusal(fa, "A", |f| f.constants().map(drop)))?;
    let cb = fb.constants().ok_or_else(|| refusal(fb, "B", |f| f.constants().map(drop)))?;
    let ma = fa.mutable_segments().ok_or_else(|| refusal(fa, "A", |f| f.mutable_segments().map(drop)))?;
    let mb = fb.mutable_segments().ok_or_else(|| refusal(fb, "B", |f| f.mutable_segments().map(drop)))?;
    for &(i, j) in &methods.pairs {
        let (Some(pa), Some(pb)) = (fa.program().plan(i), fb.program().plan(j)) else { continue };
        for vi in 0..pa.value_count().min(pb.value_count()) {
            let (Some(ValueRef::Tensor(ta)), Some(ValueRef::Tensor(tb))) = (pa.value_ref(vi), pb.value_ref(vi)) else {
                continue;
            };
            let path = format!("{}.values[{vi}]", methods.path(i, j));
            match (stored(fa, &ta, &ca, &ma), stored(fb, &tb, &cb, &mb)) {
                // equal data is no difference: the tensor is decoded only when it differs
                (Some((_, da)), Some((_, db))) if da == db => {}
                (Some((what, da)), Some((_, db))) => {
                    let Some(KernelTypes::Tensor(t)) = plan::value(&pa, vi, "A")?.val else { continue };
                    // the name `pte info --tensors` gives it: its fqn, else constant[i] / mutable[i]
                    let i = t.data_buffer_idx;
                    let unnamed = if what == "constant" { Unnamed::Constant(i) } else { Unnamed::Mutable(i) };
                    tensor_data(path, &tensor_label(t.fqn(), unnamed), &t, da, db, o, out)
                }
                (None, None) => {}
                (x, _) => data(
                    out,
                    path,
                    format!(
                        "stored data {} vs {}",
                        if x.is_some() { "present" } else { "absent" },
                        if x.is_some() { "absent" } else { "present" }
                    ),
                ),
            }
        }
    }
    Ok(())
}

fn named(fa: &PteView<'_>, fb: &PteView<'_>, prefix: &str, out: &mut Vec<Difference>) -> Result<()> {
    let na = fa.named_data().ok_or_else(|| refusal(fa, "A", |f| f.named_data().map(drop)))?;
    let ma: BTreeMap<&str, (u32, &[u8])> = na.map(|(k, s, d)| (k, (s, d))).collect();
    let nb = fb.named_data().ok_or_else(|| refusal(fb, "B", |f| f.named_data().map(drop)))?;
    let mb: BTreeMap<&str, (u32, &[u8])> = nb.map(|(k, s, d)| (k, (s, d))).collect();
    for (k, (sa, da)) in &ma {
        match mb.get(k) {
            None => prog(out, format!("{prefix}named_data[{k:?}]"), "only in A".into()),
            Some((sb, db)) => {
                if sa != sb {
                    layout(out, format!("{prefix}named_data[{k:?}].segment_index"), format!("{sa} vs {sb}"));
                }
                blob(out, format!("{prefix}named_data[{k:?}]"), da, db);
            }
        }
    }
    for k in mb.keys().filter(|k| !ma.contains_key(*k)) {
        prog(out, format!("{prefix}named_data[{k:?}]"), "only in B".into());
    }
    Ok(())
}

fn blob(out: &mut Vec<Difference>, path: String, a: &[u8], b: &[u8]) {
    if a == b {
        return;
    }
    let n = a.iter().zip(b).filter(|(x, y)| x != y).count();
    data(out, path, format!("bytes differ: {n} of {} bytes, sizes {} vs {}", a.len().min(b.len()), a.len(), b.len()));
}

fn delegates(fa: &PteView<'_>, fb: &PteView<'_>, methods: &Methods, out: &mut Vec<Difference>) -> Result<()> {
    let da = fa.delegates().ok_or_else(|| refusal(fa, "A", |f| f.delegate_blobs().map(drop)))?;
    let db = fb.delegates().ok_or_else(|| refusal(fb, "B", |f| f.delegate_blobs().map(drop)))?;
    for x in &da {
        let Some(&(i, j)) = methods.pairs.iter().find(|(i, _)| *i == x.plan) else { continue };
        let Some(y) = db.iter().find(|y| y.plan == j && y.delegate == x.delegate) else { continue };
        let path = format!("{}.delegates[{}]", methods.path(i, j), x.delegate);
        if x.location != y.location || x.index != y.index {
            layout(
                out,
                format!("{path}.processed"),
                format!("{} {} vs {} {}", x.location, x.index, y.location, y.index),
            );
        }
        blob(out, format!("{path} blob"), x.bytes, y.bytes);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::{diff_files, Category, Options};

    use pte_testkit::corpus;

    #[test]
    fn methods_pair_by_name_not_by_place() {
        // linear: forward; multi_method: encode, then forward
        let (a, b) = (corpus("linear/model.pte"), corpus("multi_method/model.pte"));
        let r = diff_files(&a, &b, &Options::default()).unwrap();
        let lines: Vec<String> = r.differences.iter().map(|d| format!("{}: {}", d.path, d.message)).collect();
        assert!(lines.contains(&"execution_plan: method \"encode\" only in B".to_string()), "{lines:#?}");
        assert!(!lines.iter().any(|l| l.contains("\"forward\" only in")), "{lines:#?}");
        // A's forward meets B's forward (at 1), in the program and in the data
        for d in r.differences.iter().filter(|d| d.path.starts_with("execution_plan[")) {
            assert!(d.path.starts_with("execution_plan[0 vs 1]."), "{}: {}", d.path, d.message);
        }
        assert!(r.of(Category::Data).any(|d| d.path == "execution_plan[0 vs 1].values[0]"), "{lines:#?}");
        assert!(!lines.iter().any(|l| l.contains("Some(") || l.contains("None")), "{lines:#?}");
        // the other way round, the places swap
        let r = diff_files(&b, &a, &Options::default()).unwrap();
        assert!(r.differences.iter().any(|d| d.message == "method \"encode\" only in A"));
        assert!(r
            .differences
            .iter()
            .filter(|d| d.path.starts_with("execution_plan["))
            .all(|d| d.path.starts_with("execution_plan[1 vs 0].")));
    }

    #[test]
    fn optional_fields_read_as_values() {
        let r = diff_files(&corpus("add/model.pte"), &corpus("linear/model.pte"), &Options::default()).unwrap();
        let sizes = r.differences.iter().find(|d| d.path == "execution_plan[0].non_const_buffer_sizes").unwrap();
        assert_eq!(sizes.message, "[0, 192] vs [0, 112]");
        assert!(r.differences.iter().all(|d| !d.message.contains("Some(") && !d.message.contains("None")));
    }
}
