//! `pte internalize`: move EXTERNAL tensors and `.ptd` blobs back into the program.

use std::path::{Path, PathBuf};

use crate::failure::{CmdResult, Failure};

pub(crate) fn run(files: &[PathBuf]) -> CmdResult {
    let (Some(input), Some(output)) = (files.first(), files.last()) else {
        return Err(Failure::bad_input("usage: pte internalize IN.pte DATA.ptd... OUT.pte"));
    };
    let data: Vec<&Path> =
        files.get(1..files.len().saturating_sub(1)).unwrap_or(&[]).iter().map(PathBuf::as_path).collect();
    pte::internalize(input, &data, output, crate::paths::lock_wait())?;
    println!("wrote {}", output.display());
    Ok(())
}
