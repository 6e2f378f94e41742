//! One verifier finding as `pte verify` and the report show it: its rule,
//! field path, byte offset and message, and what the stock runtime answers
//! a file that breaks the rule (`pte_core::Rule::refusal`).

use pte_core::Violation;
use serde_json::{json, Value as Json};

/// `{code, hex, name, stage}` of the runtime's answer to a file breaking
/// the finding's rule; `None` when the runtime does not enforce it.
///
/// ```
/// let bytes = b"tiny";
/// let r = pte_file::verify::verify_bytes(bytes, &Default::default());
/// let v = &r.violations[0];
/// let e = pte_report::findings::runtime_error(v).unwrap();
/// assert_eq!(e["hex"], format!("0x{:02x}", e["code"].as_u64().unwrap()));
/// ```
pub fn runtime_error(v: &Violation) -> Option<Json> {
    let r = v.rule.refusal()?;
    Some(
        json!({"code": r.error.code, "hex": format!("0x{:02x}", r.error.code), "name": r.error.name, "stage": r.stage.name()}),
    )
}

/// `{rule, path, offset, message}`, plus `runtime_error` when the runtime
/// enforces the rule: one entry of `pte verify --json`.
///
/// ```
/// let r = pte_file::verify::verify_bytes(b"tiny", &Default::default());
/// let j = pte_report::findings::finding_json(&r.violations[0]);
/// assert_eq!(j["rule"], r.violations[0].rule.name());
/// assert!(j["runtime_error"].is_object());
/// ```
pub fn finding_json(v: &Violation) -> Json {
    let mut j = json!({"rule": v.rule.name(), "path": v.path, "offset": v.offset, "message": v.message});
    if let (Some(r), Json::Object(map)) = (runtime_error(v), &mut j) {
        map.insert("runtime_error".into(), r);
    }
    j
}

/// The finding's line, ending with the runtime's answer when it has one.
///
/// ```
/// let r = pte_file::verify::verify_bytes(b"tiny", &Default::default());
/// assert!(pte_report::findings::finding_line(&r.violations[0]).contains("the runtime refuses it with"));
/// ```
pub fn finding_line(v: &Violation) -> String {
    match v.rule.refusal() {
        Some(r) => format!("{v}; the runtime refuses it with {r}"),
        None => v.to_string(),
    }
}
