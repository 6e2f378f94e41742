//! `pte info`: a summary of any ExecuTorch file, as text or JSON.
//!
//! A `.pte` and a `.ptn` are printed as they are walked (a segment table may
//! hold a million entries, a package 65,536 members); the other kinds, and
//! every kind in a batch (`info_many`), build the JSON object first and draw
//! the text from it, so both say the same.

// serde_json::Value indexing yields Null for a missing key and never panics.
#![allow(clippy::indexing_slicing)]

use std::io::Write;
use std::path::Path;

use serde_json::Value;

use ::pte::{FileSummary, PtnSummary, SummaryOptions};
use pte_file::view::SegmentTable;

use crate::failure::{at, CmdResult, Failure};
use crate::formats::{self, inspect};
use crate::input::Input;

pub(crate) fn run(file: &Path, json: bool, tensors: bool) -> CmdResult {
    let input = Input::open(file)?;
    input.require("info", &pte::KINDS)?;
    let bytes = input.bytes();
    if input.kind.is_pte() {
        // verified once: the summary reads the program through the
        // verifier's view
        let (report, view) = pte::verify_as_viewed(input.kind, bytes, &[])
            .map_err(|e| Failure::bad_input(format!("{}: {e}", file.display())))?;
        formats::pte_info::run(file, bytes, json, tensors, view.as_ref())?;
        return verdict(&report, json);
    }
    if input.kind.is_ptn() {
        ptn_streamed(file, bytes, json, tensors)?;
    } else if input.kind.is_bpte() {
        formats::bpte::info_streamed(file, bytes, json)?;
    } else {
        let v = value_of(&input, file, tensors)?;
        if json {
            println!("{}", serde_json::to_string_pretty(&v)?);
        } else {
            print!("{}", text(&v));
        }
    }
    // the kind the input was recognised as: a package's zip directory is read once
    let report =
        pte::verify_as(input.kind, bytes, &[]).map_err(|e| Failure::bad_input(format!("{}: {e}", file.display())))?;
    verdict(&report, json)
}

/// The verifier's verdict in one line after the summary (`pte verify` has
/// the findings): a summary alone would look clean on a file the runtime
/// refuses. An invalid file exits 1, as `pte verify` does.
fn verdict(report: &pte_core::Report, json: bool) -> CmdResult {
    let line = match (report.violations.first(), report.warnings.len()) {
        (None, 0) => "verdict: valid".to_string(),
        (None, w) => format!("verdict: valid, {} (pte verify lists them)", crate::style::count(w as u64, "warning")),
        (Some(first), _) => format!(
            "verdict: invalid, {} (pte verify lists them); first: {first}",
            crate::style::count(report.violations.len() as u64, "violation")
        ),
    };
    if !json {
        println!("{line}");
    }
    if report.is_ok() {
        return Ok(());
    }
    Err(Failure::invalid(if json { line } else { String::new() }))
}

/// The `info --json` object of one file (with the tensor table when `tensors`).
pub(crate) fn value(file: &Path, tensors: bool) -> Result<Value, Failure> {
    let input = Input::open(file)?;
    input.require("info", &pte::KINDS)?;
    value_of(&input, file, tensors)
}

fn value_of(input: &Input, file: &Path, tensors: bool) -> Result<Value, Failure> {
    // a batch reads a program's whole segment table
    let options = SummaryOptions { table: SegmentTable::Whole, tensors, path: Some(file) };
    let summary = FileSummary::read(input.kind, input.bytes(), &options).map_err(at(file))?;
    Ok(serde_json::to_value(&summary)?)
}

/// A package's `info`, its members written one by one: a package may hold 65,536.
fn ptn_streamed(file: &Path, bytes: &[u8], json: bool, tensors: bool) -> CmdResult {
    let mut summary = PtnSummary::read(bytes, tensors).map_err(at(file))?;
    formats::pte_info::write_stdout(|w| {
        if json {
            serde_json::to_writer_pretty(&mut *w, &summary)?;
            return w.write_all(b"\n");
        }
        // the head drawn from a tree without the members
        let members = std::mem::take(&mut summary.other_members);
        let v = serde_json::to_value(&summary)?;
        w.write_all(formats::ptn::info_text(&v).as_bytes())?;
        for m in &members {
            w.write_all(formats::ptn::member_text(m).as_bytes())?;
        }
        if tensors {
            w.write_all(inspect::tensors_text(&v["tensors"]).as_bytes())?;
        }
        Ok(())
    })
}

/// The text of an `info` object, by its `format`.
pub(crate) fn text(v: &Value) -> String {
    let mut out = match v["format"].as_str() {
        Some("ptd") => formats::ptd::info_text(v),
        Some("ptn") => {
            let mut s = formats::ptn::info_text(v);
            for m in v["other_members"].as_array().into_iter().flatten() {
                s.push_str(&formats::ptn::member_line(m));
            }
            s
        }
        Some("bpte") => return formats::bpte::info_text(v),
        _ => {
            let mut s = formats::program::text(v);
            s.push_str(&inspect::external_text(&v["external_data"]));
            s
        }
    };
    if let Some(rows) = v.get("tensors") {
        out.push_str(&inspect::tensors_text(rows));
    }
    out
}
