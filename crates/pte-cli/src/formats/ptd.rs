//! `.ptd` support in `info`, `dump` and `verify`.

// serde_json::Value indexing yields Null for a missing key and never panics.
#![allow(clippy::indexing_slicing)]

use std::path::Path;

use serde_json::{json, Value};

use pte_file::ptd::PtdFile;
use pte_segments::FlatTensorHeader;

use crate::failure::{at, CmdResult, Failure};
use crate::files::sha;

pub(crate) fn read_ptd<'a>(path: &Path, bytes: &'a [u8]) -> Result<PtdFile<'a>, Failure> {
    PtdFile::from_bytes(bytes).map_err(at(path))
}

pub(crate) fn info_json(ptd: &PtdFile<'_>, bytes: &[u8]) -> Value {
    let h = FlatTensorHeader::parse(bytes).ok();
    let keys: Vec<Value> = ptd
        .flat_tensor
        .named_data
        .iter()
        .flatten()
        .map(|n| {
            let blob = usize::try_from(n.segment_index).ok().and_then(|i| ptd.segments.get(i));
            json!({
                "key": n.key,
                "segment_index": n.segment_index,
                "size": blob.map(|b| b.len()),
                "sha256": blob.map(|b| sha(b)),
                "layout": n.tensor_layout.as_ref().map(|l| json!({
                    "dtype": l.scalar_type.name().map_or_else(|| format!("ScalarType({})", l.scalar_type.0), str::to_string),
                    "sizes": l.sizes,
                    "dim_order": l.dim_order,
                    "nbytes": l.nbytes(),
                })),
            })
        })
        .collect();
    json!({
        "format": "ptd",
        "file_size": bytes.len(),
        "version": ptd.flat_tensor.version,
        "header": h.map(|h| json!({
            "length": h.length,
            "flatbuffer_offset": h.flatbuffer_offset,
            "flatbuffer_size": h.flatbuffer_size,
            "segment_base_offset": h.segment_base_offset,
            "segment_data_size": h.segment_data_size,
        })),
        "segments": ptd.flat_tensor.segments.iter().flatten().enumerate()
            .map(|(i, s)| json!({"index": i, "offset": s.offset, "size": s.size})).collect::<Vec<_>>(),
        "keys": keys,
    })
}

pub(crate) fn info(file: &Path, bytes: &[u8], json_out: bool) -> CmdResult {
    let ptd = read_ptd(file, bytes)?;
    let v = info_json(&ptd, bytes);
    if json_out {
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(());
    }
    println!("format: ExecuTorch tensor data (.ptd), {} bytes, schema version {}", v["file_size"], v["version"]);
    println!("segments: {}", v["segments"].as_array().map_or(0, Vec::len));
    let keys = v["keys"].as_array().cloned().unwrap_or_default();
    println!("keys ({}):", keys.len());
    for k in keys {
        let l = &k["layout"];
        let layout = if l.is_null() {
            "opaque".to_string()
        } else {
            format!("{} {} dim_order {}", l["dtype"].as_str().unwrap_or(""), l["sizes"], l["dim_order"])
        };
        println!("  {} -> segment {} ({} bytes) {layout}", k["key"], k["segment_index"], k["size"]);
    }
    Ok(())
}
