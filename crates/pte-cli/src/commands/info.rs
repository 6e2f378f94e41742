//! `pte info`: a summary of any ExecuTorch file, as text or JSON.

use std::path::Path;

use pte_core::FileKind;

use crate::failure::CmdResult;
use crate::formats;
use crate::input::{read_pte, Input};

pub(crate) fn run(file: &Path, json: bool) -> CmdResult {
    let input = Input::open(file)?;
    input.require("info", &[FileKind::Pte, FileKind::Ptd, FileKind::Ptn, FileKind::Bpte])?;
    let bytes = input.bytes();
    let v = match input.kind {
        FileKind::Ptd => return formats::ptd::info(file, bytes, json),
        FileKind::Bpte => return formats::bpte::info(file, bytes, json),
        FileKind::Ptn => {
            let ptn = formats::ptn::read_ptn(file, bytes)?;
            let v = formats::ptn::info_json(&ptn, bytes);
            if !json {
                print!("{}", formats::ptn::info_text(&v));
                return Ok(());
            }
            v
        }
        _ => {
            let v = formats::pte::info_json(&read_pte(file, bytes)?, bytes);
            if !json {
                print!("{}", formats::pte::text(&v));
                return Ok(());
            }
            v
        }
    };
    println!("{}", serde_json::to_string_pretty(&v)?);
    Ok(())
}
