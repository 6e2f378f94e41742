//! `.ptd` support in `info`, `dump` and `verify`: the text of the door's
//! [`::pte::PtdSummary`].

// serde_json::Value indexing yields Null for a missing key and never panics.
#![allow(clippy::indexing_slicing)]

use serde_json::Value;

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
