//! `pte dump --exir`: the program as exir's `deserialize_pte_binary`
//! returns it (constants and delegate blobs folded back into the program).

use std::path::Path;

use pte_core::FileKind;

use crate::failure::{at, CmdResult};

pub(crate) fn dump(file: &Path, bytes: &[u8]) -> CmdResult {
    crate::input::require_kind(file, bytes, FileKind::Pte)?;
    let program = pte_file::exir_program(bytes).map_err(at(file))?;
    let v = pte_schema::program_to_json(&program, pte_schema::JsonBytes::Integers);
    println!("{}", serde_json::to_string_pretty(&v)?);
    Ok(())
}
