//! What `info` draws beyond the summary's head: the text of the tensor
//! table (`--tensors`), of the EXTERNAL keys grouped by data file, of device
//! placement of planned buffers, and of `.ptn` method signatures.

// serde_json::Value indexing yields Null for a missing key and never panics.
#![allow(clippy::indexing_slicing)]

use serde_json::Value;

use crate::style::{count, dim_range, dtype, dtype_of, pte_shape, shape};

/// The tensor table as text, any kind.
pub(crate) fn tensors_text(rows: &Value) -> String {
    let rows = rows.as_array().map(Vec::as_slice).unwrap_or_default();
    let mut out = vec![];
    // writing to a Vec cannot fail
    let _ = write_tensor_table(&mut out, || rows.iter().map(tensor_cells));
    String::from_utf8_lossy(&out).into_owned()
}

/// Writes the tensor table from its rows' cells, which `rows` yields afresh
/// for each of the two passes (column widths, then lines): a table of a
/// million rows is never held.
pub(crate) fn write_tensor_table<I: Iterator<Item = [String; 6]>>(
    w: &mut impl std::io::Write,
    rows: impl Fn() -> I,
) -> std::io::Result<()> {
    let header = || ["name", "where", "dtype", "shape", "dim order", "bytes"].map(String::from);
    let mut widths = [0usize; 6];
    let mut n = 0usize;
    for row in std::iter::once(header()).chain(rows()) {
        for (w, c) in widths.iter_mut().zip(&row) {
            *w = (*w).max(c.chars().count());
        }
        n = n.saturating_add(1);
    }
    let n = n.saturating_sub(1);
    if n == 0 {
        return w.write_all(b"tensors (0)\n");
    }
    writeln!(w, "tensors ({n}):")?;
    for row in std::iter::once(header()).chain(rows()) {
        let cells: Vec<String> = row.iter().zip(widths).map(|(c, w)| format!("{c:<w$}")).collect();
        writeln!(w, "  {}", cells.join("  ").trim_end())?;
    }
    Ok(())
}

/// The cells of one program tensor-table row, as [`tensor_cells`] makes
/// them of its JSON.
pub(crate) fn pte_tensor_cells(r: &pte::TensorRow) -> [String; 6] {
    let storage = r.storage;
    let place = match r.file_range {
        _ if storage == "external" => "external".to_string(),
        Some([start, end]) => format!("{storage} {start}..{end}"),
        None if r.stored.is_none() => format!("{storage} (planned)"),
        None => format!("{storage} (inline)"),
    };
    let facts = r.facts.as_ref();
    let device =
        facts.map(|f| f.device.as_str()).filter(|d| *d != "CPU").map(|d| format!(" on {d}")).unwrap_or_default();
    let dynamism = facts.map_or("STATIC", |f| f.dynamism.as_str());
    [
        r.name.clone(),
        format!("{place}{device}"),
        r.dtype.as_deref().map_or_else(|| "opaque".into(), dtype),
        r.sizes.as_ref().map_or_else(|| "-".into(), |s| pte_core::style::dynamic_shape(s.iter(), dynamism)),
        facts.map_or_else(|| "-".into(), |f| shape(f.dim_order.iter())),
        facts.and_then(|f| f.nbytes).or(r.stored).map_or_else(|| "?".into(), |n| n.to_string()),
    ]
}

/// The cells of one tensor-table row.
fn tensor_cells(r: &Value) -> [String; 6] {
    let dynamism = r["dynamism"].as_str().unwrap_or("STATIC");
    let place = match (r["storage"].as_str(), r["file_range"].as_array()) {
        (Some("external"), _) => "external".to_string(),
        (s, Some(range)) => format!(
            "{}{}..{}",
            s.map(|s| format!("{s} ")).unwrap_or_default(),
            range.first().unwrap_or(&Value::Null),
            range.get(1).unwrap_or(&Value::Null)
        ),
        (Some(s), None) if r["stored"].is_null() => format!("{s} (planned)"),
        (Some(s), None) => format!("{s} (inline)"),
        (None, None) => String::new(),
    };
    let alias = r["alias_of"].as_str().map(|a| format!(" = {a}")).unwrap_or_default();
    let device = r["device"].as_str().filter(|d| *d != "CPU").map(|d| format!(" on {d}")).unwrap_or_default();
    [
        format!("{}{alias}", crate::style::text(r["name"].as_str().unwrap_or(""))),
        format!("{place}{device}"),
        if r["dtype"].is_null() { "opaque".into() } else { dtype_of(&r["dtype"]) },
        if r["sizes"].is_null() { "-".into() } else { pte_shape(&r["sizes"], dynamism) },
        if r["dim_order"].is_null() { "-".into() } else { shape(r["dim_order"].as_array().into_iter().flatten()) },
        r["nbytes"].as_u64().or(r["stored"].as_u64()).map_or_else(|| "?".into(), |n| n.to_string()),
    ]
}

/// Text of the EXTERNAL groups.
pub(crate) fn external_text(groups: &Value) -> String {
    let mut out = String::new();
    for g in groups.as_array().into_iter().flatten() {
        let keys: Vec<&str> = g["keys"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
        let head = match g["tag"].as_str() {
            Some(tag) => format!(
                "external data {} ({}):",
                crate::style::quoted(tag),
                crate::style::text(g["file"].as_str().unwrap_or(""))
            ),
            None => "external data, no .ptd beside the program holds:".to_string(),
        };
        out.push_str(&format!("{head} {}\n", count(keys.len() as u64, "key")));
        for k in keys {
            out.push_str(&format!("  {k}\n"));
        }
    }
    out
}

/// Text of one method's buffer placement.
pub(crate) fn devices_text(devices: &Value) -> String {
    let mut out = String::new();
    for d in devices.as_array().into_iter().flatten() {
        out.push_str(&format!(
            "  planned buffer {} ({} bytes) on {}:{}\n",
            d["buffer"],
            d["size"],
            d["device"].as_str().unwrap_or(""),
            d["device_index"]
        ));
    }
    out
}

/// Text of one `.ptn` method signature.
pub(crate) fn signature_text(sig: &Value) -> String {
    let mut out = String::new();
    for (dir, key) in [("in ", "inputs"), ("out", "outputs")] {
        for io in sig[key].as_array().into_iter().flatten() {
            let dims = io["sizes"].as_array().map(|d| {
                shape(d.iter().map(|x| dim_range(x["min"].as_i64().unwrap_or(0), x["max"].as_i64().unwrap_or(-1))))
            });
            out.push_str(&format!(
                "  {dir} {}: {} {}\n",
                crate::style::text(io["name"].as_str().unwrap_or("")),
                io["dtype"].as_str().map_or_else(|| "?".into(), dtype),
                dims.unwrap_or_else(|| "?".into())
            ));
        }
    }
    out
}
