//! `.bpte` support: `info`, `dump` and `verify`, and `pte bpte
//! unbundle|export-samples|bundle`.

// serde_json::Value indexing yields Null for a missing key and never panics.
#![allow(clippy::indexing_slicing)]

use std::path::Path;

use std::io::Write;

use serde_json::{json, Value as Json};

use pte::{BpteSummary, CaseValue};
use pte_file::bpte::BundledFile;
use pte_schema::bundled::Side;

use pte_core::FileKind;

use crate::failure::{at, CmdResult, Failure};
use crate::input::require_kind;

pub(crate) fn read<'a>(path: &Path, bytes: &'a [u8]) -> Result<BundledFile<'a>, Failure> {
    require_kind(path, bytes, FileKind::Bpte)?;
    BundledFile::from_bytes(bytes).map_err(at(path))
}

/// The embedded program of a bundled program checked as [`read`] checks
/// it, its cases not decoded.
pub(crate) fn program<'a>(path: &Path, bytes: &'a [u8]) -> Result<&'a [u8], Failure> {
    require_kind(path, bytes, FileKind::Bpte)?;
    BundledFile::program_in(bytes).map_err(at(path))
}

/// `tensor float32 [2, 4] [1, 2, ...]`, `int 3`, `none null`.
fn value_text(v: &CaseValue<'_>) -> String {
    let body = match v {
        CaseValue::Tensor { dtype, sizes, preview, .. } => format!(
            "tensor {} {} {}",
            crate::style::dtype(dtype),
            crate::style::shape(sizes.unwrap_or_default()),
            preview.as_deref().unwrap_or("")
        ),
        CaseValue::Int(i) => format!("int {i}"),
        CaseValue::Bool(b) => format!("bool {b}"),
        CaseValue::Double(d) => format!("double {}", Json::from(d.as_str())),
        _ => "none null".into(),
    };
    body.trim_end().to_string()
}

/// `pte info` of a bundled program, written as it is walked: a bundle may
/// hold hundreds of thousands of cases, and the output grows with them.
pub(crate) fn info_streamed(file: &Path, bytes: &[u8], json: bool) -> CmdResult {
    require_kind(file, bytes, FileKind::Bpte)?;
    let summary = BpteSummary::read(bytes, Some(file)).map_err(at(file))?;
    crate::formats::pte_info::write_stdout(|w| {
        if json {
            serde_json::to_writer_pretty(&mut *w, &summary)?;
            return w.write_all(b"\n");
        }
        let head = json!({
            "file_size": summary.file_size(),
            "version": summary.version(),
            "program_size": summary.program_size(),
            "program_offset": summary.program_offset(),
        });
        w.write_all(head_line(&head).as_bytes())?;
        for s in summary.view().suites() {
            w.write_all(suite_line(&json!(s.method_name()), s.case_count().unwrap_or(0)).as_bytes())?;
            for (j, c) in s.cases().enumerate() {
                w.write_all(format!("  case {j}\n").as_bytes())?;
                for (side, label) in [(Side::Inputs, "in"), (Side::ExpectedOutputs, "out")] {
                    for (k, x) in c.values(side).into_iter().flatten().enumerate() {
                        let x = x.map_err(std::io::Error::other)?;
                        w.write_all(format!("    {label}[{k}] {}\n", value_text(&CaseValue::of(&x))).as_bytes())?;
                    }
                }
            }
        }
        let program = json!({ "program": serde_json::to_value(summary.program())? });
        w.write_all(tail_text(&program).as_bytes())
    })
}

fn head_line(v: &Json) -> String {
    format!(
        "bundled program, {} bytes, version {}; embedded .pte of {} bytes at offset {}\n",
        v["file_size"], v["version"], v["program_size"], v["program_offset"]
    )
}

fn suite_line(method: &Json, cases: usize) -> String {
    format!("suite {}: {}\n", method, crate::style::count(cases as u64, "case"))
}

/// The lines of case `j` from its JSON object.
fn case_text(j: usize, c: &Json) -> String {
    let mut out = format!("  case {j}\n");
    for (side, label) in [("inputs", "in"), ("expected_outputs", "out")] {
        for (k, x) in c[side].as_array().into_iter().flatten().enumerate() {
            let body = match x["kind"].as_str() {
                Some("tensor") => format!(
                    "tensor {} {} {}",
                    crate::style::dtype_of(&x["dtype"]),
                    crate::style::shape(x["sizes"].as_array().into_iter().flatten()),
                    x["preview"].as_str().unwrap_or("")
                ),
                Some(kind) => format!("{kind} {}", x["value"]),
                None => String::new(),
            };
            out.push_str(&format!("    {label}[{k}] {}\n", body.trim_end()));
        }
    }
    out
}

fn tail_text(v: &Json) -> String {
    format!("embedded program:\n{}", crate::formats::program::text(&v["program"]))
}

/// The `info` text of a bundled program, from its JSON object.
pub(crate) fn info_text(v: &Json) -> String {
    let mut out = head_line(v);
    for s in v["test_suites"].as_array().into_iter().flatten() {
        let cases = s["cases"].as_array().map_or(&[][..], Vec::as_slice);
        out.push_str(&suite_line(&s["method"], cases.len()));
        for (j, c) in cases.iter().enumerate() {
            out.push_str(&case_text(j, c));
        }
    }
    out.push_str(&tail_text(v));
    out
}
