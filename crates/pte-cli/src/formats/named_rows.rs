//! The tensor-table rows of named data (`pte info --tensors`): one per key,
//! with the dtype and shape the delegate payloads that read the key give it
//! (`pte_file::delegate_payload::named_tensors_of`), so weights an XNNPACK
//! delegate keeps as named data are listed beside the program's tensors.

use serde_json::{json, Value};

use pte_file::delegate_payload::{builtin_registry, named_tensors_of};

use crate::formats::pte_view::PteView;

/// One row per named-data key, in table order; none when the named table
/// does not resolve.
pub(crate) fn named_tensor_rows(p: &PteView<'_>) -> Vec<Value> {
    if !p.named_ok() {
        return vec![];
    }
    let delegates = p.delegates().unwrap_or_default();
    let described =
        named_tensors_of(delegates.iter().map(|d| (d.id, d.bytes)), builtin_registry(), &Default::default());
    p.named()
        .map(|(key, segment, bytes)| {
            let t = described.get(key);
            let size = bytes.len() as u64;
            let start = usize::try_from(segment).ok().and_then(|i| p.view.segment(i)).map(|s| s.offset);
            let file_range = start.and_then(|s| p.base.checked_add(s)).and_then(|s| Some([s, s.checked_add(size)?]));
            json!({
                "name": key,
                "named": true,
                "storage": "named",
                "dtype": t.map(|t| &t.dtype),
                "sizes": t.map(|t| &t.shape),
                "segment": segment,
                "file_range": file_range,
                "stored": size,
                "users": [],
            })
        })
        .collect()
}
