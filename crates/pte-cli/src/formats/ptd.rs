//! `.ptd` support in `info`, `dump` and `verify`.

// serde_json::Value indexing yields Null for a missing key and never panics.
#![allow(clippy::indexing_slicing)]

use std::path::Path;

use serde_json::{json, Value};

use pte_file::ptd::PtdFile;
use pte_segments::FlatTensorHeader;

use crate::failure::{at, Failure};
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

pub(crate) fn info_text(v: &Value) -> String {
    let mut out =
        format!("format: ExecuTorch tensor data (.ptd), {} bytes, schema version {}\n", v["file_size"], v["version"]);
    out.push_str(&format!("segments: {}\n", v["segments"].as_array().map_or(0, Vec::len)));
    let keys = v["keys"].as_array().cloned().unwrap_or_default();
    out.push_str(&format!("keys ({}):\n", keys.len()));
    for k in keys {
        let l = &k["layout"];
        let layout = if l.is_null() {
            "opaque".to_string()
        } else {
            format!(
                "{} {} dim_order {}",
                crate::style::dtype_of(&l["dtype"]),
                crate::style::shape(l["sizes"].as_array().into_iter().flatten()),
                crate::style::shape(l["dim_order"].as_array().into_iter().flatten())
            )
        };
        out.push_str(&format!(
            "  {} -> segment {} ({} bytes) {layout}\n",
            crate::style::quoted_of(&k["key"]),
            k["segment_index"],
            k["size"]
        ));
    }
    out
}
