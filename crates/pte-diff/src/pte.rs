//! `.pte` against `.pte`: layout (header, segment table, sub-segment
//! offsets, blob placement), program (what `diff_pte.py` reports, then
//! everything else structurally) and data (constants, mutable buffers,
//! named blobs, delegate blobs).

use std::collections::BTreeMap;

use pte_file::{tensor_label, ConstantRef, PteFile, Unnamed};
use pte_schema::{
    program_to_json, ExecutionPlan, InstructionArguments, JsonBytes, KernelTypes, Program, Result, Tensor,
};
use pte_segments::ExtendedHeader;
use serde_json::{json, Value};

use crate::elements::{compare, Elem};
use crate::{jsondiff, side, Category, Difference, Options};

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
    let fa = PteFile::from_bytes(a).map_err(side("A"))?;
    let fb = PteFile::from_bytes(b).map_err(side("B"))?;
    let before = out.len();
    header(a, b, prefix, out)?;
    segment_table(&fa.program, &fb.program, prefix, out);
    program(&fa.program, &fb.program, prefix, out);
    constants(&fa, &fb, o, prefix, out)?;
    named(&fa, &fb, prefix, out)?;
    delegates(&fa, &fb, prefix, out)?;
    // the same content stored another way (inline alignment, placement) changes
    // the flatbuffer bytes only
    if out.len() == before {
        let ra = pte_file::verify::program_region(a).map(|(_, r)| r).unwrap_or(a);
        let rb = pte_file::verify::program_region(b).map(|(_, r)| r).unwrap_or(b);
        if ra != rb {
            layout(out, format!("{prefix}program"), "flatbuffer bytes differ, same content".into());
        }
    }
    if a.len() != b.len() {
        layout(out, format!("{prefix}file"), format!("size {} vs {}", a.len(), b.len()));
    }
    Ok(())
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

fn segment_table(a: &Program<'_>, b: &Program<'_>, prefix: &str, out: &mut Vec<Difference>) {
    let (ta, tb) = (a.segment_table(), b.segment_table());
    if ta.len() != tb.len() {
        layout(out, format!("{prefix}segments"), format!("{} segments vs {}", ta.len(), tb.len()));
    }
    for (i, (x, y)) in ta.iter().zip(tb).enumerate() {
        if x.offset != y.offset {
            layout(out, format!("{prefix}segments[{i}].offset"), format!("{} vs {}", x.offset, y.offset));
        }
        if x.size != y.size {
            layout(out, format!("{prefix}segments[{i}].size"), format!("{} vs {}", x.size, y.size));
        }
    }
    let sub = |s: &Option<pte_schema::SubsegmentOffsets>| {
        s.as_ref().map(|s| json!({"segment_index": s.segment_index, "offsets": s.offsets}))
    };
    if sub(&a.constant_segment) != sub(&b.constant_segment) {
        jsondiff::diff(
            Category::Layout,
            &format!("{prefix}constant_segment"),
            &json!(sub(&a.constant_segment)),
            &json!(sub(&b.constant_segment)),
            out,
        );
    }
    let muts = |p: &Program<'_>| {
        p.mutable_data_segments.as_ref().map(|v| {
            v.iter().map(|s| json!({"segment_index": s.segment_index, "offsets": s.offsets})).collect::<Vec<_>>()
        })
    };
    if muts(a) != muts(b) {
        jsondiff::diff(
            Category::Layout,
            &format!("{prefix}mutable_data_segments"),
            &json!(muts(a)),
            &json!(muts(b)),
            out,
        );
    }
}

fn op_name(p: &ExecutionPlan, i: i32) -> String {
    let op = usize::try_from(i).ok().and_then(|i| p.operators.as_ref()?.get(i));
    match op {
        Some(op) => match op.overload.as_deref() {
            Some(o) if !o.is_empty() => format!("{}.{o}", op.name.as_deref().unwrap_or("")),
            _ => op.name.clone().unwrap_or_default(),
        },
        None => format!("operator {i}"),
    }
}

/// Multiset difference: entries of `a` not matched in `b`.
fn only_in(a: &[String], b: &[String]) -> Vec<String> {
    let mut count: BTreeMap<&str, i64> = BTreeMap::new();
    for x in b {
        *count.entry(x).or_default() = count.get(x.as_str()).copied().unwrap_or(0).saturating_add(1);
    }
    let mut out = vec![];
    for x in a {
        let c = count.entry(x).or_default();
        if *c > 0 {
            *c = c.saturating_sub(1);
        } else {
            out.push(x.clone());
        }
    }
    out.sort();
    out
}

/// Where each value is used, by value index.
type Usages = BTreeMap<i32, Vec<String>>;

/// Where each value is used: `arg N of OP` for kernel and delegate calls.
fn usages(p: &ExecutionPlan) -> Usages {
    let mut m: BTreeMap<i32, Vec<String>> = BTreeMap::new();
    for c in p.chains.iter().flatten() {
        for ins in c.instructions.iter().flatten() {
            let (name, args) = match &ins.instr_args {
                Some(InstructionArguments::KernelCall { op_index, args }) => (op_name(p, *op_index), args),
                Some(InstructionArguments::DelegateCall { delegate_index, args }) => {
                    let d = usize::try_from(*delegate_index).ok().and_then(|i| p.delegates.as_ref()?.get(i));
                    (format!("delegate:{}", d.and_then(|d| d.id.as_deref()).unwrap_or("?")), args)
                }
                _ => continue,
            };
            for (k, v) in args.iter().flatten().enumerate() {
                m.entry(*v).or_default().push(format!("arg {k} of {name}"));
            }
        }
    }
    m
}

fn tensor_fields(t: &Tensor) -> Value {
    json!({
        "scalar_type": t.scalar_type.to_string(),
        "storage_offset": t.storage_offset,
        "sizes": t.sizes,
        "dim_order": t.dim_order,
        "requires_grad": t.requires_grad,
        "layout": t.layout,
        "data_buffer_idx": t.data_buffer_idx,
        "allocation_info": t.allocation_info.map(|a| json!([a.memory_id, a.offset()])),
        "shape_dynamism": t.shape_dynamism.to_string(),
        "extra_tensor_info": t.extra_tensor_info.as_ref().map(|e| json!({
            "mutable_data_segments_idx": e.mutable_data_segments_idx,
            "fully_qualified_name": e.fully_qualified_name,
            "location": e.location.to_string(),
        })),
    })
}

fn program(a: &Program<'_>, b: &Program<'_>, prefix: &str, out: &mut Vec<Difference>) {
    if a.version != b.version {
        prog(out, format!("{prefix}version"), format!("{} vs {}", a.version, b.version));
    }
    let (pa, pb) = (a.plans(), b.plans());
    for (i, (x, y)) in pa.iter().zip(pb).enumerate() {
        plan(x, y, &format!("{prefix}execution_plan[{i}]"), out);
    }
    for p in pa.get(pb.len()..).unwrap_or(&[]) {
        prog(out, format!("{prefix}execution_plan"), format!("method {:?} only in A", p.name.as_deref().unwrap_or("")));
    }
    for p in pb.get(pa.len()..).unwrap_or(&[]) {
        prog(out, format!("{prefix}execution_plan"), format!("method {:?} only in B", p.name.as_deref().unwrap_or("")));
    }
}

fn plan(a: &ExecutionPlan, b: &ExecutionPlan, path: &str, out: &mut Vec<Difference>) {
    if a.name != b.name {
        prog(out, format!("{path}.name"), format!("{:?} vs {:?}", a.name, b.name));
    }
    let ops = |p: &ExecutionPlan| -> Vec<String> {
        (0..p.operators.as_ref().map_or(0, Vec::len))
            .map(|i| op_name(p, i32::try_from(i).unwrap_or(i32::MAX)))
            .collect()
    };
    let (oa, ob) = (ops(a), ops(b));
    for (side, list) in [("A", only_in(&oa, &ob)), ("B", only_in(&ob, &oa))] {
        if !list.is_empty() {
            prog(out, format!("{path}.operators"), format!("only in {side}: {}", list.join(", ")));
        }
    }
    let dels = |p: &ExecutionPlan| -> Vec<String> {
        p.delegates.iter().flatten().map(|d| d.id.clone().unwrap_or_default()).collect()
    };
    let (da, db) = (dels(a), dels(b));
    for (side, list) in [("A", only_in(&da, &db)), ("B", only_in(&db, &da))] {
        if !list.is_empty() {
            prog(out, format!("{path}.delegates"), format!("only in {side}: {}", list.join(", ")));
        }
    }
    if a.non_const_buffer_sizes != b.non_const_buffer_sizes {
        prog(
            out,
            format!("{path}.non_const_buffer_sizes"),
            format!("{:?} vs {:?}", a.non_const_buffer_sizes, b.non_const_buffer_sizes),
        );
    }
    let (va, vb) = (a.value_list(), b.value_list());
    if va.len() != vb.len() {
        prog(out, format!("{path}.values"), format!("value count {} vs {}", va.len(), vb.len()));
    }
    let count = |p: &ExecutionPlan| {
        p.chains.iter().flatten().map(|c| c.instructions.as_ref().map_or(0, Vec::len)).sum::<usize>()
    };
    if count(a) != count(b) {
        prog(out, format!("{path}.chains"), format!("instruction count {} vs {}", count(a), count(b)));
    }
    // where values are used is told for differing values only: built when the first one is met
    let mut uses: Option<(Usages, Usages)> = None;
    for (i, (x, y)) in va.iter().zip(vb).enumerate() {
        if x == y {
            continue;
        }
        let p = format!("{path}.values[{i}]");
        let (ua, ub) = uses.get_or_insert_with(|| (usages(a), usages(b)));
        let used = ua.get(&i32::try_from(i).unwrap_or(-1)).or_else(|| ub.get(&i32::try_from(i).unwrap_or(-1)));
        let used = used.map(|u| format!(" (used as {})", u.join(", "))).unwrap_or_default();
        match (&x.val, &y.val) {
            (Some(KernelTypes::Tensor(ta)), Some(KernelTypes::Tensor(tb))) => {
                let mut found = vec![];
                jsondiff::diff(Category::Program, &p, &tensor_fields(ta), &tensor_fields(tb), &mut found);
                for mut d in found {
                    d.message = format!("tensor {}{used}", d.message);
                    out.push(d);
                }
            }
            (xa, xb) => {
                let name = |k: &Option<KernelTypes>| k.as_ref().map_or("None", KernelTypes::type_name);
                if name(xa) != name(xb) {
                    prog(out, p, format!("type {} vs {}{used}", name(xa), name(xb)));
                } else {
                    let ja = program_to_json(&one_value(x), JsonBytes::Integers);
                    let jb = program_to_json(&one_value(y), JsonBytes::Integers);
                    let mut found = vec![];
                    jsondiff::diff(
                        Category::Program,
                        &p,
                        ja.pointer("/execution_plan/0/values/0/val").unwrap_or(&Value::Null),
                        jb.pointer("/execution_plan/0/values/0/val").unwrap_or(&Value::Null),
                        &mut found,
                    );
                    for mut d in found {
                        d.message = format!("{} {}{used}", name(xa), d.message);
                        out.push(d);
                    }
                }
            }
        }
    }
    let start = va.len().min(vb.len());
    for (side, extra, first) in [("A", va.get(vb.len()..), true), ("B", vb.get(va.len()..), false)] {
        for (k, v) in extra.unwrap_or(&[]).iter().enumerate() {
            if let Some(KernelTypes::Tensor(t)) = &v.val {
                let (ua, ub) = uses.get_or_insert_with(|| (usages(a), usages(b)));
                let u = if first { &*ua } else { &*ub };
                let i = start.saturating_add(k);
                let used = u
                    .get(&i32::try_from(i).unwrap_or(-1))
                    .map(|u| format!(" (used as {})", u.join(", ")))
                    .unwrap_or_default();
                prog(
                    out,
                    format!("{path}.values[{i}]"),
                    format!("tensor only in {side}: {} {:?}{used}", t.scalar_type, t.sizes.as_deref().unwrap_or(&[])),
                );
            }
        }
    }
    // everything else in the method, structurally
    let rest = |p: &ExecutionPlan| {
        // everything but the values (compared above), without copying them
        let mut q = ExecutionPlan {
            name: None,
            container_meta_type: p.container_meta_type.clone(),
            values: None,
            inputs: p.inputs.clone(),
            outputs: p.outputs.clone(),
            chains: p.chains.clone(),
            operators: p.operators.clone(),
            delegates: p.delegates.clone(),
            non_const_buffer_sizes: None,
            non_const_buffer_device: p.non_const_buffer_device.clone(),
        };
        // where delegate blobs are is layout, compared with the blobs
        for d in q.delegates.iter_mut().flatten() {
            d.processed = None;
        }
        let prog = Program { execution_plan: Some(vec![q]), ..Program::default() };
        program_to_json(&prog, JsonBytes::Integers).pointer("/execution_plan/0").cloned().unwrap_or(Value::Null)
    };
    jsondiff::diff(Category::Program, path, &rest(a), &rest(b), out);
}

fn one_value(v: &pte_schema::EValue) -> Program<'static> {
    Program {
        execution_plan: Some(vec![ExecutionPlan { values: Some(vec![v.clone()]), ..ExecutionPlan::default() }]),
        ..Program::default()
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
fn stored<'s>(t: &Tensor, c: &[ConstantRef<'s>], m: &[Vec<ConstantRef<'s>>]) -> Option<(&'static str, &'s [u8])> {
    let i = usize::try_from(t.data_buffer_idx).ok().filter(|&i| i > 0)?;
    if t.allocation_info.is_none() {
        c.get(i).map(|r| ("constant", r.bytes))
    } else {
        m.first()?.get(i).map(|r| ("mutable buffer", r.bytes))
    }
}

fn constants(fa: &PteFile<'_>, fb: &PteFile<'_>, o: &Options, prefix: &str, out: &mut Vec<Difference>) -> Result<()> {
    let ca = fa.constants().map_err(side("A"))?;
    let cb = fb.constants().map_err(side("B"))?;
    let ma = fa.mutable_segments().map_err(side("A"))?;
    let mb = fb.mutable_segments().map_err(side("B"))?;
    for (pi, (pa, pb)) in fa.program.plans().iter().zip(fb.program.plans()).enumerate() {
        for (vi, (x, y)) in pa.value_list().iter().zip(pb.value_list()).enumerate() {
            let (Some(KernelTypes::Tensor(ta)), Some(KernelTypes::Tensor(tb))) = (&x.val, &y.val) else { continue };
            let path = format!("{prefix}execution_plan[{pi}].values[{vi}]");
            match (stored(ta, &ca, &ma), stored(tb, &cb, &mb)) {
                (Some((what, da)), Some((_, db))) => {
                    // the name `pte info --tensors` gives it: its fqn, else constant[i] / mutable[i]
                    let i = ta.data_buffer_idx;
                    let unnamed = if what == "constant" { Unnamed::Constant(i) } else { Unnamed::Mutable(i) };
                    tensor_data(path, &tensor_label(ta.fqn(), unnamed), ta, da, db, o, out)
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

fn named(fa: &PteFile<'_>, fb: &PteFile<'_>, prefix: &str, out: &mut Vec<Difference>) -> Result<()> {
    let na = fa.named_data().map_err(side("A"))?;
    let nb = fb.named_data().map_err(side("B"))?;
    let ma: BTreeMap<&str, (u32, &[u8])> = na.iter().map(|n| (n.key, (n.segment_index, n.bytes))).collect();
    let mb: BTreeMap<&str, (u32, &[u8])> = nb.iter().map(|n| (n.key, (n.segment_index, n.bytes))).collect();
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

fn delegates(fa: &PteFile<'_>, fb: &PteFile<'_>, prefix: &str, out: &mut Vec<Difference>) -> Result<()> {
    let da = fa.delegate_blobs().map_err(side("A"))?;
    let db = fb.delegate_blobs().map_err(side("B"))?;
    for x in &da {
        let Some(y) = db.iter().find(|y| y.plan == x.plan && y.delegate == x.delegate) else { continue };
        let path = format!("{prefix}execution_plan[{}].delegates[{}]", x.plan, x.delegate);
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
