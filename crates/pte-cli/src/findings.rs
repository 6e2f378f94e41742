//! One verifier finding as `pte verify` shows it, in text and in JSON, with
//! what the stock runtime answers a file that breaks its rule.

use pte_core::Violation;
use serde_json::{json, Value as Json};

/// `{rule, path, offset, message}`, plus `runtime_error: {code, hex, name,
/// stage}` when the runtime enforces the rule.
pub(crate) fn finding_json(v: &Violation) -> Json {
    let mut j = json!({"rule": v.rule.name(), "path": v.path, "offset": v.offset, "message": v.message});
    if let (Some(r), Json::Object(map)) = (v.rule.refusal(), &mut j) {
        map.insert(
            "runtime_error".into(),
            json!({"code": r.error.code, "hex": format!("0x{:02x}", r.error.code), "name": r.error.name, "stage": r.stage.name()}),
        );
    }
    j
}

/// The finding's line, ending with the runtime's answer when it has one.
pub(crate) fn finding_line(v: &Violation) -> String {
    match v.rule.refusal() {
        Some(r) => format!("{v}; the runtime refuses it with {r}"),
        None => v.to_string(),
    }
}
