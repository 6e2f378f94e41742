//! `pte info`: a summary of any ExecuTorch file, as text or JSON.

// serde_json::Value indexing yields Null for a missing key and never panics.
#![allow(clippy::indexing_slicing)]

use std::io::Write;
use std::path::Path;

use serde::ser::{Serialize, SerializeSeq, Serializer};

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
            // the members are printed one by one: a package may hold 65,536
            let members = Members(&ptn.members);
            return formats::pte_info::write_stdout(|w| {
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
            });
        }
        _ => return formats::pte_info::run(file, bytes, json, tensors),
    };
    println!("{}", serde_json::to_string_pretty(&v)?);
    Ok(())
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
