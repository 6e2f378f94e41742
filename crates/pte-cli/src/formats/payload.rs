//! Delegate payloads in `info` and `dump --delegate`: read with the payload
//! reader registered for the delegate's backend id.

use std::path::Path;

use serde_json::Value;

use crate::failure::{at, CmdResult, Failure};
use crate::input::{open, read_pte};
use pte_analysis::delegate_payload::builtin_registry;

/// The text `info` prints under a delegate for its `payload` entry.
pub(crate) fn summary_text(payload: &Value) -> Vec<String> {
    if payload.is_null() {
        return vec![];
    }
    if let Some(e) = payload["error"].as_str() {
        return vec![format!("  payload: unreadable: {}", crate::style::text(e))];
    }
    let mut out = vec![format!("  payload: {}", payload["format"].as_str().unwrap_or(""))];
    let nodes: Vec<String> =
        payload["nodes"].as_object().into_iter().flatten().map(|(k, n)| format!("{k} ×{n}")).collect();
    out.push(format!("  nodes: {}", nodes.join(", ")));
    let tensors = payload["tensors"].as_array().cloned().unwrap_or_default();
    out.push(format!("  tensors ({}):", tensors.len()));
    out.extend(tensors.iter().filter_map(Value::as_str).map(|t| format!("    {t}")));
    let keys = payload["named_keys"].as_array().cloned().unwrap_or_default();
    out.push(format!("  named keys ({}):", keys.len()));
    out.extend(keys.iter().filter_map(Value::as_str).map(|k| format!("    {k}")));
    out
}

/// `pte dump FILE --delegate N`: delegate N (counted across methods, in the
/// order `info` lists them) as its backend's JSON.
pub(crate) fn dump(file: &Path, n: usize) -> CmdResult {
    let map = open(file)?;
    let pte = read_pte(file, map.bytes())?;
    let blobs = pte.delegate_blobs().map_err(at(file))?;
    let Some(blob) = blobs.get(n) else {
        return Err(Failure::bad_input(format!("{}: no delegate {n} ({} delegates)", file.display(), blobs.len())));
    };
    let Some(reader) = builtin_registry().get(blob.id) else {
        return Err(Failure::bad_input(format!(
            "{}: delegate {n} is {:?}, a backend without a payload reader",
            file.display(),
            blob.id
        )));
    };
    let v = reader.to_json(blob.bytes, &Default::default()).map_err(at(file))?;
    println!("{}", serde_json::to_string_pretty(&v)?);
    Ok(())
}
