//! `.ptn` support in `info`, `dump`, `verify`, `extract` and `rewrite`.

// serde_json::Value indexing yields Null for a missing key and never panics.
#![allow(clippy::indexing_slicing)]

use std::path::Path;

use serde_json::{json, Value};

use pte_ptn::PtnFile;

use crate::failure::{at, CmdResult, Failure};
use crate::files::sha;

pub(crate) fn read_ptn<'a>(path: &Path, bytes: &'a [u8]) -> Result<PtnFile<'a>, Failure> {
    PtnFile::from_bytes(bytes).map_err(at(path))
}

pub(crate) fn info_json(ptn: &PtnFile<'_>, bytes: &[u8]) -> Value {
    let program = ptn.native_program(&Default::default()).ok();
    let methods: Vec<Value> = program
        .iter()
        .flat_map(|p| p.methods.iter())
        .map(|m| {
            json!({
                "name": m.name,
                "nodes": m.graph.nodes.len(),
                "inputs": m.graph.inputs.as_ref().map(Vec::len),
                "outputs": m.graph.outputs.as_ref().map(Vec::len),
                "constants": m.constants.as_ref().map(Vec::len),
                "mutable_buffers": m.mutable_buffers.as_ref().map(Vec::len),
            })
        })
        .collect();
    let constants: Vec<Value> = ptn
        .constants()
        .map(|(key, t)| {
            json!({
                "key": key,
                "dtype": pte_ptn::dtype_code(t.dtype),
                "shape": t.shape,
                "size": t.data.len(),
                "sha256": sha(&t.data),
                "alias_of": ptn.aliases.get(key),
            })
        })
        .collect();
    json!({
        "format": "ptn",
        "file_size": bytes.len(),
        "program_size": ptn.program.len(),
        "version": program.as_ref().map(|p| p.version.clone()),
        "methods": methods,
        "constants": constants,
        "aliases": ptn.aliases,
        "metadata": ptn.metadata,
        // streamed by the caller (`member_json`): 65,536 members must not be a tree
        "other_members": null,
    })
}

pub(crate) fn info_text(v: &Value) -> String {
    let mut out = format!(
        "ptn package, {} bytes; program.ptg {} bytes, version {}\n",
        v["file_size"], v["program_size"], v["version"]
    );
    for m in v["methods"].as_array().into_iter().flatten() {
        let n = |k: &str, noun: &str| crate::style::count(m[k].as_u64().unwrap_or(0), noun);
        out.push_str(&format!(
            "method {}: {}, {}, {}, {}\n",
            crate::style::quoted_of(&m["name"]),
            n("nodes", "node"),
            n("inputs", "input"),
            n("outputs", "output"),
            n("constants", "constant")
        ));
        out.push_str(&crate::formats::inspect::signature_text(&m["signature"]));
    }
    let consts = v["constants"].as_array().map_or(0, Vec::len);
    out.push_str(&format!("constants: {consts}\n"));
    for c in v["constants"].as_array().into_iter().flatten() {
        let alias =
            c["alias_of"].as_str().map(|o| format!(" (alias of {})", crate::style::quoted(o))).unwrap_or_default();
        out.push_str(&format!(
            "  {} {} {} ({} bytes){alias}\n",
            crate::style::quoted_of(&c["key"]),
            crate::style::dtype_of(&c["dtype"]),
            crate::style::shape(c["shape"].as_array().into_iter().flatten()),
            c["size"]
        ));
    }
    out
}

/// One entry of `other_members`.
pub(crate) fn member_json(m: &pte_ptn::Member) -> Value {
    json!({"name": m.name, "size": m.data.len()})
}

/// The text line of one `other_members` entry.
pub(crate) fn member_line(m: &Value) -> String {
    format!("member {} ({} bytes)\n", crate::style::quoted_of(&m["name"]), m["size"])
}

pub(crate) fn dump(path: &Path, bytes: &[u8]) -> CmdResult {
    // Only the container must be sound: a program whose references are
    // broken still dumps.
    let ptn = PtnFile::from_bytes_unchecked(bytes).map_err(at(path))?;
    let program = ptn.native_program(&Default::default()).map_err(at(path))?;
    let v = pte_schema::native::native_program_to_json(&program);
    println!("{}", serde_json::to_string_pretty(&v)?);
    Ok(())
}
