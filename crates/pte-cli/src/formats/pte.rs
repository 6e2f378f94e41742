//! `pte info`: a readable summary, or stable JSON (docs/cli.md).

use serde_json::{json, Value};

use pte_file::PteFile;
use std::collections::BTreeMap;

use pte_schema::{DataSegment, ExecutionPlan, InstructionArguments, KernelTypes, Tensor};
use pte_segments::ExtendedHeader;

use crate::style;

fn tensor_json(t: &Tensor) -> Value {
    json!({
        "dtype": t.scalar_type.name().map_or_else(|| format!("ScalarType({})", t.scalar_type.0), str::to_string),
        "sizes": t.sizes,
        "dim_order": t.dim_order,
        "dynamism": t.shape_dynamism.name().map_or_else(|| t.shape_dynamism.0.to_string(), str::to_string),
        "nbytes": t.nbytes(),
        "fqn": t.fqn(),
        "external": t.is_external(),
    })
}

fn io_json(plan: &ExecutionPlan, list: &Option<Vec<i32>>) -> Vec<Value> {
    list.iter()
        .flatten()
        .map(|&i| {
            let v = usize::try_from(i).ok().and_then(|i| plan.value_list().get(i)).and_then(|v| v.val.as_ref());
            match v {
                Some(KernelTypes::Tensor(t)) => json!({"index": i, "kind": "Tensor", "tensor": tensor_json(t)}),
                Some(k) => json!({"index": i, "kind": k.type_name()}),
                None => json!({"index": i, "kind": null}),
            }
        })
        .collect()
}

/// What uses each segment, by its index in the stored table (`index_of`
/// maps the file's own indices there): only referenced segments appear.
pub(crate) fn segment_kinds(
    pte: &PteFile<'_>,
    count: usize,
    index_of: &dyn Fn(u32) -> u32,
) -> BTreeMap<u32, Vec<String>> {
    let mut kinds: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    let mut mark = |i: u32, what: String| {
        let i = index_of(i);
        if usize::try_from(i).is_ok_and(|i| i < count) {
            kinds.entry(i).or_default().push(what);
        }
    };
    let p = &pte.program;
    if let Some(c) = &p.constant_segment {
        mark(c.segment_index, "constant".into());
    }
    for (k, m) in p.mutable_data_segments.iter().flatten().enumerate() {
        mark(m.segment_index, format!("mutable[{k}]"));
    }
    for n in p.named_data.iter().flatten() {
        mark(n.segment_index, format!("named:{}", n.key.as_deref().unwrap_or("")));
    }
    for (pi, plan) in p.plans().iter().enumerate() {
        for (d, del) in plan.delegates.iter().flatten().enumerate() {
            if let Some(r) = del.processed.filter(|r| r.location == pte_schema::DataLocation::SEGMENT) {
                mark(r.index, format!("delegate:{}[{pi}.{d}]", del.id.as_deref().unwrap_or("")));
            }
        }
    }
    kinds
}

/// One entry of `info`'s segment list.
pub(crate) fn segment_json(i: usize, s: &DataSegment, used_by: Option<&Vec<String>>) -> Value {
    json!({"index": i, "offset": s.offset, "size": s.size, "used_by": used_by.cloned().unwrap_or_default()})
}

/// `info --json` of a program whose segment table `pte` holds whole.
pub(crate) fn info_json(pte: &PteFile<'_>, bytes: &[u8]) -> Value {
    let mut v = summary_json(pte, bytes, &|i| i);
    let kinds = segment_kinds(pte, pte.program.segment_table().len(), &|i| i);
    let segments: Vec<Value> = pte
        .program
        .segment_table()
        .iter()
        .enumerate()
        .map(|(i, s)| segment_json(i, s, u32::try_from(i).ok().and_then(|i| kinds.get(&i))))
        .collect();
    if let Some(fields) = v.as_object_mut() {
        fields.insert("segments".into(), Value::Array(segments));
    }
    v
}

/// `info --json` without its `segments` entry (null), which the caller
/// fills or streams; `index_of` maps the file's segment indices to the
/// stored table's.
pub(crate) fn summary_json(pte: &PteFile<'_>, bytes: &[u8], index_of: &dyn Fn(u32) -> u32) -> Value {
    let header = ExtendedHeader::parse(bytes).ok().flatten();
    let p = &pte.program;
    let methods: Vec<Value> = p
        .plans()
        .iter()
        .map(|plan| {
            let instructions: usize =
                plan.chains.iter().flatten().map(|c| c.instructions.as_ref().map_or(0, Vec::len)).sum();
            let kernel_calls = plan
                .chains
                .iter()
                .flatten()
                .flat_map(|c| c.instructions.iter().flatten())
                .filter(|i| matches!(i.instr_args, Some(InstructionArguments::KernelCall { .. })))
                .count();
            json!({
                "name": plan.name,
                "inputs": io_json(plan, &plan.inputs),
                "outputs": io_json(plan, &plan.outputs),
                "values": plan.value_list().len(),
                "instructions": instructions,
                "kernel_calls": kernel_calls,
                "operators": plan.operators.iter().flatten().map(|o| {
                    match o.overload.as_deref() {
                        Some(ov) if !ov.is_empty() => format!("{}.{ov}", o.name.as_deref().unwrap_or("")),
                        _ => o.name.clone().unwrap_or_default(),
                    }
                }).collect::<Vec<_>>(),
                "planned_buffers": plan.non_const_buffer_sizes.iter().flatten().skip(1).collect::<Vec<_>>(),
            })
        })
        .collect();
    let constants: Vec<Value> = pte
        .constants()
        .map(|c| {
            c.iter()
                .map(|c| json!({"index": c.index, "offset": c.offset, "size": c.bytes.len(), "span": c.span}))
                .collect()
        })
        .unwrap_or_default();
    let mutable: Vec<Value> = pte
        .mutable_segments()
        .map(|m| {
            m.iter()
                .map(|bufs| {
                    Value::Array(
                        bufs.iter()
                            .map(|c| json!({"index": c.index, "offset": c.offset, "size": c.bytes.len()}))
                            .collect(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let named: Vec<Value> = pte
        .named_data()
        .map(|n| {
            n.iter()
                .map(|n| json!({"key": n.key, "segment_index": index_of(n.segment_index), "size": n.bytes.len()}))
                .collect()
        })
        .unwrap_or_default();
    let delegates: Vec<Value> = pte
        .delegate_blobs()
        .map(|d| {
            d.iter()
                .map(|d| {
                    let index =
                        if d.location == pte_schema::DataLocation::SEGMENT { index_of(d.index) } else { d.index };
                    json!({"method": d.plan, "delegate": d.delegate, "id": d.id,
                    "location": d.location.name().unwrap_or("unknown"), "index": index, "size": d.bytes.len(),
                    "payload": crate::formats::payload::summary_json(d.id, d.bytes)})
                })
                .collect()
        })
        .unwrap_or_default();
    json!({
        "format": "pte",
        "file_size": bytes.len(),
        "version": p.version,
        "extended_header": header_json(header.as_ref()),
        "methods": methods,
        "delegates": delegates,
        "segments": null,
        "constants": constants,
        "mutable_segments": mutable,
        "named_data": named,
        "inline_delegate_data": p.backend_delegate_data.as_ref().map_or(0, Vec::len),
        "legacy_constant_buffer": p.constant_buffer.as_ref().map_or(0, Vec::len),
    })
}

/// `info`'s text of a program whose summary holds its segment list.
pub(crate) fn text(v: &Value) -> String {
    let segs = v["segments"].as_array().cloned().unwrap_or_default();
    let mut s = text_head(v);
    s.push_str(&segments_title(segs.len()));
    for g in &segs {
        s.push_str(&segment_line(g));
    }
    s.push_str(&text_tail(v));
    s
}

/// The line that opens the segment list.
pub(crate) fn segments_title(n: usize) -> String {
    format!("segments ({n}):\n")
}

/// One segment's line, from its `info --json` entry.
pub(crate) fn segment_line(g: &Value) -> String {
    let used: Vec<&str> = g["used_by"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    format!("  [{}] offset {} size {} {}\n", g["index"], g["offset"], g["size"], used.join(" "))
}

/// `info`'s text down to the segment list.
pub(crate) fn text_head(v: &Value) -> String {
    let mut s = String::new();
    let line = |s: &mut String, l: String| {
        s.push_str(&l);
        s.push('\n');
    };
    line(
        &mut s,
        format!("format: ExecuTorch program (.pte), {} bytes, schema version {}", v["file_size"], v["version"]),
    );
    match v["extended_header"].as_object() {
        Some(h) => line(
            &mut s,
            format!(
                "extended header: program_size {} segment_base_offset {} segment_data_size {}",
                h["program_size"], h["segment_base_offset"], h["segment_data_size"]
            ),
        ),
        None => line(&mut s, "extended header: none".into()),
    }
    for m in v["methods"].as_array().into_iter().flatten() {
        line(
            &mut s,
            format!(
                "method {}: {}, {}",
                m["name"],
                style::count(m["values"].as_u64().unwrap_or(0), "value"),
                style::count(m["instructions"].as_u64().unwrap_or(0), "instruction")
            ),
        );
        for (dir, key) in [("in ", "inputs"), ("out", "outputs")] {
            for io in m[key].as_array().into_iter().flatten() {
                let t = &io["tensor"];
                if t.is_null() {
                    line(&mut s, format!("  {dir} #{}: {}", io["index"], io["kind"]));
                } else {
                    line(
                        &mut s,
                        format!(
                            "  {dir} #{}: {} {}",
                            io["index"],
                            style::dtype_of(&t["dtype"]),
                            style::pte_shape(&t["sizes"], t["dynamism"].as_str().unwrap_or(""))
                        ),
                    );
                }
            }
        }
        let ops: Vec<&str> = m["operators"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
        line(&mut s, format!("  operators ({}): {}", ops.len(), ops.join(", ")));
        s.push_str(&crate::formats::inspect::devices_text(&m["buffer_devices"]));
    }
    for d in v["delegates"].as_array().into_iter().flatten() {
        let text = |v: &Value| v.as_str().map_or_else(|| v.to_string(), str::to_string);
        line(
            &mut s,
            format!("delegate {} ({}[{}], {} bytes)", text(&d["id"]), text(&d["location"]), d["index"], d["size"]),
        );
        crate::formats::payload::summary_text(&d["payload"]).into_iter().for_each(|l| line(&mut s, l));
    }
    s
}

/// `info`'s text after the segment list.
pub(crate) fn text_tail(v: &Value) -> String {
    let consts = v["constants"].as_array().cloned().unwrap_or_default();
    let total: u64 = consts.iter().filter_map(|c| c["size"].as_u64()).sum();
    let mut s = constants_line(consts.len() as u64, total);
    for (k, m) in v["mutable_segments"].as_array().into_iter().flatten().enumerate() {
        s.push_str(&mutable_line(k, m.as_array().map_or(0, Vec::len) as u64));
    }
    let named = v["named_data"].as_array().cloned().unwrap_or_default();
    s.push_str(&named_title(named.len()));
    for n in &named {
        s.push_str(&named_line(n));
    }
    s
}

/// The constants' line: how many, and their bytes.
pub(crate) fn constants_line(n: u64, total: u64) -> String {
    format!("constants: {n} (placeholder included), {total} bytes\n")
}

/// Mutable segment `k`'s line.
pub(crate) fn mutable_line(k: usize, buffers: u64) -> String {
    format!("mutable segment {k}: {}\n", style::count(buffers, "buffer"))
}

/// The line that opens the named data.
pub(crate) fn named_title(n: usize) -> String {
    format!("named data: {n}\n")
}

/// One named blob's line, from its `info --json` entry.
pub(crate) fn named_line(n: &Value) -> String {
    format!("  {} -> segment {} ({} bytes)\n", n["key"], n["segment_index"], n["size"])
}

/// The `extended_header` member of `info --json`.
pub(crate) fn header_json(header: Option<&ExtendedHeader>) -> Value {
    header.map_or(Value::Null, |h| {
        json!({
            "length": h.length,
            "program_size": h.program_size,
            "segment_base_offset": h.segment_base_offset,
            "segment_data_size": h.segment_data_size,
        })
    })
}
