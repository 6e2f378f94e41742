//! Delegate payloads in brief, read with the payload reader registered for
//! the delegate's backend id (`pte_file::delegate_payload`): what `pte info`
//! lists under a delegate and the report shows.

use serde_json::{json, Value};

use pte_file::delegate_payload::builtin_registry;

/// The `payload` entry of a delegate in `pte info --json`: `null` when no
/// reader knows the backend, `{"error"}` when the payload does not parse,
/// else `{format, nodes, tensors, named_keys}`.
///
/// ```
/// assert!(pte_report::payload::summary_json("NoSuchBackend", b"").is_null());
/// let bad = pte_report::payload::summary_json("XnnpackBackend", b"nonsense");
/// assert!(bad["error"].is_string());
/// ```
pub fn summary_json(id: &str, bytes: &[u8]) -> Value {
    let Some(reader) = builtin_registry().get(id) else { return Value::Null };
    match reader.summary(bytes, &Default::default()) {
        Err(e) => json!({ "error": e.to_string() }),
        Ok(s) => json!({
            "format": s.format,
            "nodes": s.nodes,
            "tensors": s.tensors,
            "named_keys": s.named_keys,
        }),
    }
}
