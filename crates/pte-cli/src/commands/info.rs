//! `pte info`: a summary of any ExecuTorch file, as text or JSON. The JSON
//! object is built first and the text is drawn from it, so both say the
//! same and a batch (`info_many`) can build either on its workers.

// serde_json::Value indexing yields Null for a missing key and never panics.
#![allow(clippy::indexing_slicing)]

use std::path::Path;

use serde_json::Value;

use pte_core::FileKind;

use crate::failure::{CmdResult, Failure};
use crate::formats::{self, inspect};
use crate::input::{read_pte, Input};

pub(crate) fn run(file: &Path, json: bool, tensors: bool) -> CmdResult {
    let v = value(file, tensors)?;
    if json {
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        print!("{}", text(&v));
    }
    Ok(())
}

/// The `info --json` object of one file (with the tensor table when `tensors`).
pub(crate) fn value(file: &Path, tensors: bool) -> Result<Value, Failure> {
    let input = Input::open(file)?;
    input.require("info", &[FileKind::Pte, FileKind::Ptd, FileKind::Ptn, FileKind::Bpte])?;
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
            let mut v = formats::ptn::info_json(&ptn, bytes);
            if let Ok(program) = ptn.native_program(&Default::default()) {
                for (m, sig) in v["methods"].as_array_mut().into_iter().flatten().zip(inspect::ptn_signatures(&program))
                {
                    m["signature"] = sig;
                }
            }
            if tensors {
                v["tensors"] = inspect::ptn_tensors(&ptn, bytes);
            }
            v
        }
        _ => {
            let pte = read_pte(file, bytes)?;
            let mut v = formats::pte::info_json(&pte, bytes);
            for (m, d) in v["methods"].as_array_mut().into_iter().flatten().zip(inspect::buffer_devices(&pte.program)) {
                m["buffer_devices"] = d;
            }
            v["external_data"] = inspect::external_groups(&pte, file);
            if tensors {
                v["tensors"] = inspect::pte_tensors(&pte, bytes);
            }
            v
        }
    };
    Ok(v)
}

/// The text of an `info` object, by its `format`.
pub(crate) fn text(v: &Value) -> String {
    let mut out = match v["format"].as_str() {
        Some("ptd") => formats::ptd::info_text(v),
        Some("ptn") => formats::ptn::info_text(v),
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
