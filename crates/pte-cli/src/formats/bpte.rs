//! `.bpte` support: `info`, `dump` and `verify`, and `pte bpte
//! unbundle|export-samples|bundle`.

// serde_json::Value indexing yields Null for a missing key and never panics.
#![allow(clippy::indexing_slicing)]

use std::path::Path;

use serde_json::{json, Value as Json};

use pte_file::bpte::BundledFile;
use pte_file::view::SegmentTable;
use pte_schema::bundled::BundledValue;

use pte_core::FileKind;

use crate::failure::{at, CmdResult, Failure};
use crate::input::require_kind;

pub(crate) fn read<'a>(path: &Path, bytes: &'a [u8]) -> Result<BundledFile<'a>, Failure> {
    require_kind(path, bytes, FileKind::Bpte)?;
    BundledFile::from_bytes(bytes).map_err(at(path))
}

fn value_json(v: &BundledValue<'_>) -> Json {
    match v {
        BundledValue::Tensor(t) => {
            let preview = pte_samples::dtype_of(t.scalar_type).and_then(|d| {
                let shape = t.sizes.as_ref()?.iter().map(|&s| u64::try_from(s).ok()).collect::<Option<Vec<_>>>()?;
                let pt = pte_ptn::PtnTensor::new(d, shape, t.data.as_deref().unwrap_or(&[])).ok()?;
                Some(pte_samples::tensor_preview(&pt, 8))
            });
            json!({
                "kind": "tensor",
                "dtype": t.scalar_type.name().map_or_else(|| format!("ScalarType({})", t.scalar_type.0), str::to_string),
                "sizes": t.sizes,
                "dim_order": t.dim_order,
                "nbytes": t.data.as_ref().map(|d| d.len()),
                "preview": preview,
            })
        }
        BundledValue::Int(i) => json!({"kind": "int", "value": i}),
        BundledValue::Bool(b) => json!({"kind": "bool", "value": b}),
        BundledValue::Double(d) => json!({"kind": "double", "value": d.to_string()}),
        BundledValue::None => json!({"kind": "none"}),
    }
}

/// The `info --json` object of a bundled program.
pub(crate) fn info_json(file: &Path, bytes: &[u8]) -> Result<Json, Failure> {
    let b = read(file, bytes)?;
    // the embedded program's summary is the one `pte info` gives a `.pte`
    let options = ::pte::SummaryOptions { table: SegmentTable::Whole, tensors: false, path: Some(file) };
    let program = ::pte::Summary::read(&b.program, &options).map_err(|e| e.within("program")).map_err(at(file))?;
    let offset = (b.program.as_ptr() as usize).checked_sub(bytes.as_ptr() as usize);
    let suites: Vec<Json> = b
        .suites()
        .iter()
        .map(|s| {
            json!({
                "method": s.method_name,
                "cases": s.test_cases.iter().flatten().map(|c| json!({
                    "inputs": c.inputs.iter().flatten().map(value_json).collect::<Vec<_>>(),
                    "expected_outputs": c.expected_outputs.iter().flatten().map(value_json).collect::<Vec<_>>(),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    Ok(json!({
        "format": "bpte",
        "file_size": bytes.len(),
        "version": b.version,
        "program_offset": offset,
        "program_size": b.program.len(),
        "program": program.to_value(),
        "test_suites": suites,
    }))
}

/// The `info` text of a bundled program, from its JSON object.
pub(crate) fn info_text(v: &Json) -> String {
    let mut out = format!(
        "bundled program, {} bytes, version {}; embedded .pte of {} bytes at offset {}\n",
        v["file_size"], v["version"], v["program_size"], v["program_offset"]
    );
    for s in v["test_suites"].as_array().into_iter().flatten() {
        let cases = s["cases"].as_array().map_or(0, Vec::len);
        out.push_str(&format!("suite {}: {}\n", s["method"], crate::style::count(cases as u64, "case")));
        for (j, c) in s["cases"].as_array().into_iter().flatten().enumerate() {
            out.push_str(&format!("  case {j}\n"));
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
        }
    }
    out.push_str("embedded program:\n");
    out.push_str(&crate::formats::pte::text(&v["program"]));
    out
}

pub(crate) fn dump(file: &Path, bytes: &[u8]) -> CmdResult {
    require_kind(file, bytes, FileKind::Bpte)?;
    let b = pte_schema::bundled::decode_bundled_program(bytes, &Default::default()).map_err(at(file))?;
    println!("{}", serde_json::to_string_pretty(&pte_schema::bundled::bundled_program_to_json(&b))?);
    Ok(())
}
