//! `pte info`: a summary of any ExecuTorch file, as text or JSON.

// serde_json::Value indexing yields Null for a missing key and never panics.
#![allow(clippy::indexing_slicing)]

use std::path::Path;

use pte_core::FileKind;

use crate::failure::CmdResult;
use crate::formats::{self, inspect};
use crate::input::Input;

pub(crate) fn run(file: &Path, json: bool, tensors: bool) -> CmdResult {
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
            if !json {
                print!("{}", formats::ptd::info_text(&v));
                if tensors {
                    print!("{}", inspect::tensors_text(&v["tensors"]));
                }
                return Ok(());
            }
            v
        }
        FileKind::Bpte => return formats::bpte::info(file, bytes, json),
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
            if !json {
                print!("{}", formats::ptn::info_text(&v));
                if tensors {
                    print!("{}", inspect::tensors_text(&v["tensors"]));
                }
                return Ok(());
            }
            v
        }
        _ => return formats::pte_info::run(file, bytes, json, tensors),
    };
    println!("{}", serde_json::to_string_pretty(&v)?);
    Ok(())
}
