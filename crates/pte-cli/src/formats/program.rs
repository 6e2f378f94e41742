//! `pte info`'s text of a `.pte`, drawn from its summary (`pte::Summary`,
//! the JSON `info --json` prints; docs/cli.md).

use serde_json::Value;

use crate::style;

/// `info`'s text of a program whose summary holds its segment list.
pub(crate) fn text(v: &Value) -> String {
    let segs = v["segments"].as_array().cloned().unwrap_or_default();
    let mut s = text_head(v);
    s.push_str(&segments_title(segs.len()));
    for g in &segs {
        let used: Vec<&str> = g["used_by"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
        s.push_str(&segment_line(&g["index"], &g["offset"], &g["size"], &used));
    }
    s.push_str(&text_tail(v));
    s
}

/// The line that opens the segment list.
pub(crate) fn segments_title(n: usize) -> String {
    format!("segments ({n}):\n")
}

/// One segment's line: its index, offset, size and users.
pub(crate) fn segment_line(
    index: &dyn std::fmt::Display,
    offset: &dyn std::fmt::Display,
    size: &dyn std::fmt::Display,
    used: &[impl AsRef<str>],
) -> String {
    let used: Vec<&str> = used.iter().map(AsRef::as_ref).collect();
    format!("  [{index}] offset {offset} size {size} {}\n", used.join(" "))
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
    for (mi, m) in v["methods"].as_array().into_iter().flatten().enumerate() {
        line(
            &mut s,
            format!(
                "method {}: {}, {}",
                style::quoted_of(&m["name"]),
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
        let ops: Vec<_> =
            m["operators"].as_array().into_iter().flatten().filter_map(Value::as_str).map(style::text).collect();
        let ops = if ops.is_empty() { no_operators(v, mi) } else { ops.join(", ") };
        line(&mut s, format!("  operators ({}): {ops}", m["operators"].as_array().map_or(0, Vec::len)));
        s.push_str(&crate::formats::inspect::devices_text(&m["buffer_devices"]));
    }
    for d in v["delegates"].as_array().into_iter().flatten() {
        let text = style::text_of;
        line(
            &mut s,
            format!("delegate {} ({}[{}], {} bytes)", text(&d["id"]), text(&d["location"]), d["index"], d["size"]),
        );
        crate::formats::payload::summary_text(&d["payload"]).into_iter().for_each(|l| line(&mut s, l));
    }
    s
}

/// What runs a method that calls no operator: its delegates (`none; the
/// work is delegated to XnnpackBackend`), each with how many calls of it
/// when more than one, or nothing.
fn no_operators(v: &Value, method: usize) -> String {
    let mut ids: Vec<(String, u64)> = vec![];
    let of_method =
        v["delegates"].as_array().into_iter().flatten().filter(|d| d["method"].as_u64() == Some(method as u64));
    for d in of_method {
        let id = style::text_of(&d["id"]);
        match ids.iter_mut().find(|(known, _)| *known == id) {
            Some((_, n)) => *n = n.saturating_add(1),
            None => ids.push((id, 1)),
        }
    }
    if ids.is_empty() {
        return "none".into();
    }
    let named: Vec<String> = ids.into_iter().map(|(id, n)| if n > 1 { format!("{id} ×{n}") } else { id }).collect();
    format!("none; the work is delegated to {}", named.join(", "))
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
        s.push_str(&named_line(&style::quoted_of(&n["key"]), &n["segment_index"], &n["size"]));
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

/// One named blob's line: its key (quoted already), segment and size.
pub(crate) fn named_line(key: &str, segment: &dyn std::fmt::Display, size: &dyn std::fmt::Display) -> String {
    format!("  {key} -> segment {segment} ({size} bytes)\n")
}
