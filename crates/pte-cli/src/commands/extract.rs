//! `pte extract`: every stored blob as its own file (a range several
//! entries share is written once), plus a manifest, `program.json` and the
//! layout that make the folder packable again (`pte pack`), through the
//! door (`pte::extract`).

use std::path::Path;

use crate::failure::CmdResult;
use crate::input::Input;

pub(crate) fn run(file: &Path, target: pte::ExtractTarget<'_>) -> CmdResult {
    let _progress = crate::progress::Progress::spinner("extract");
    let input = Input::open(file)?;
    let done = pte::extract(input.bytes(), file, &target)?;
    println!("extracted {} entries ({} files) into {}", done.entries, done.files, target.dir.display());
    Ok(())
}
