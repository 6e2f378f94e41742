//! Delegate payloads in brief, read with the payload reader registered for
//! the delegate's backend id (`pte_analysis::delegate_payload`): what `pte info`
//! lists under a delegate and the report shows.

use serde_json::Value;

/// The `payload` entry of a delegate in `pte info --json`
/// ([`pte::summary::payload_json`], which the summary uses): `null` when no
/// reader knows the backend, `{"error"}` when the payload does not parse,
/// else `{format, nodes, tensors, named_keys}`.
///
/// ```
/// assert!(pte_report::payload::summary_json("NoSuchBackend", b"").is_null());
/// let bad = pte_report::payload::summary_json("XnnpackBackend", b"nonsense");
/// assert!(bad["error"].is_string());
/// ```
pub fn summary_json(id: &str, bytes: &[u8]) -> Value {
    pte::summary::payload_json(id, bytes)
}
