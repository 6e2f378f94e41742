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

use serde::ser::{Serialize, SerializeSeq, Serializer};
use serde_json::Value;

use pte_core::FileKind;
use pte_ptn::PtnFile;

use crate::failure::{CmdResult, Failure};
use crate::formats::{self, inspect};
use crate::input::Input;

const KINDS: &[FileKind] = &[FileKind::Pte, FileKind::Ptd, FileKind::Ptn, FileKind::Bpte];

pub(crate) fn run(file: &Path, json: bool, tensors: bool) -> CmdResult {
    let input = Input::open(file)?;
    input.require("info", KINDS)?;
    let bytes = input.bytes();
    if input.kind == FileKind::Pte {
        // verified once: the summary reads the program through the
        // verifier's view
        let (report, view) = pte::verify_as_viewed(input.kind, bytes, &[])
            .map_err(|e| Failure::bad_input(format!("{}: {e}", file.display())))?;
        formats::pte_info::run(file, bytes, json, tensors, view)?;
        return verdict(&report, json);
    }
    match input.kind {
        FileKind::Ptn => ptn_streamed(file, bytes, json, tensors)?,
        FileKind::Bpte => formats::bpte::info_streamed(file, bytes, json)?,
        _ => {
            let v = value_of(&input, file, tensors)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&v)?);
            } else {
                print!("{}", text(&v));
            }
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
    input.require("info", KINDS)?;
    value_of(&input, file, tensors)
}

fn value_of(input: &Input, file: &Path, tensors: bool) -> Result<Value, Failure> {
    let bytes = input.bytes();
    let v = match input.kind {
        FileKind::Ptd => {
            let ptd = formats::ptd::read_ptd(file, bytes)?;
            let mut v = formats::ptd::info_json(&ptd, bytes);
            if tensors {
                v["tensors"] = inspect::ptd_tensors(&ptd, bytes);
            }
            v
        }
        FileKind::Bpte => formats::bpte::info_json(file, bytes)?,
        FileKind::Ptn => {
            let ptn = formats::ptn::read_ptn(file, bytes)?;
            let mut v = ptn_summary(&ptn, bytes, tensors);
            v["other_members"] = ptn.members.iter().map(formats::ptn::member_json).collect();
            v
        }
        _ => formats::pte_info::value(file, bytes, tensors)?,
    };
    Ok(v)
}

/// A package's summary without its other members (`other_members` null).
fn ptn_summary(ptn: &PtnFile<'_>, bytes: &[u8], tensors: bool) -> Value {
    let mut v = formats::ptn::info_json(ptn, bytes);
    if let Ok(program) = ptn.native_program(&Default::default()) {
        for (m, sig) in v["methods"].as_array_mut().into_iter().flatten().zip(inspect::ptn_signatures(&program)) {
            m["signature"] = sig;
        }
    }
    if tensors {
        v["tensors"] = inspect::ptn_tensors(ptn, bytes);
    }
    v
}

/// A package's `info`, its members printed one by one: a package may hold 65,536.
fn ptn_streamed(file: &Path, bytes: &[u8], json: bool, tensors: bool) -> CmdResult {
    let ptn = formats::ptn::read_ptn(file, bytes)?;
    let v = ptn_summary(&ptn, bytes, tensors);
    let members = Members(&ptn.members);
    formats::pte_info::write_stdout(|w| {
        if json {
            let whole = formats::pte_info::WithRows { summary: &v, key: "other_members", rows: members };
            serde_json::to_writer_pretty(&mut *w, &whole)?;
            return w.write_all(b"\n");
        }
        w.write_all(formats::ptn::info_text(&v).as_bytes())?;
        for m in &ptn.members {
            w.write_all(formats::ptn::member_line(&formats::ptn::member_json(m)).as_bytes())?;
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
            let mut s = formats::pte::text(v);
            s.push_str(&inspect::external_text(&v["external_data"]));
            s
        }
    };
    if let Some(rows) = v.get("tensors") {
        out.push_str(&inspect::tensors_text(rows));
    }
    out
}

/// A package's other members as `info --json` lists them, one at a time.
#[derive(Clone, Copy)]
struct Members<'m, 'a>(&'m [pte_ptn::Member<'a>]);

impl Serialize for Members<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for m in self.0 {
            seq.serialize_element(&formats::ptn::member_json(m))?;
        }
        seq.end()
    }
}
