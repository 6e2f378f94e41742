//! `.ptn` support in `info`, `dump`, `verify`, `extract` and `rewrite`: the
//! text of the door's [`pte::PtnSummary`].

// serde_json::Value indexing yields Null for a missing key and never panics.
#![allow(clippy::indexing_slicing)]

use std::path::Path;

use serde_json::Value;

use pte_ptn::PtnFile;

use crate::failure::{at, Failure};

pub(crate) fn read_ptn<'a>(path: &Path, bytes: &'a [u8]) -> Result<PtnFile<'a>, Failure> {
    PtnFile::from_bytes(bytes).map_err(at(path))
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

/// The text line of one `other_members` entry.
pub(crate) fn member_line(m: &Value) -> String {
    format!("member {} ({} bytes)\n", crate::style::quoted_of(&m["name"]), m["size"])
}

/// The text line of one member, typed (a package may hold 65,536).
pub(crate) fn member_text(m: &pte::PtnMember) -> String {
    format!("member {} ({} bytes)\n", crate::style::quoted(&m.name), m.size)
}
