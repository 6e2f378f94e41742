//! `pte dump --exir`: the program as exir's `deserialize_pte_binary`
//! returns it (constants and delegate blobs folded back into the program).

use std::path::Path;

use pte_core::FileKind;

use crate::failure::{at, CmdResult};

pub(crate) fn dump(file: &Path, bytes: &[u8]) -> CmdResult {
    crate::input::require_kind(file, bytes, FileKind::Pte)?;
    // Written from the file's views as it is walked, the folding applied on
    // the way: the document is many times the size of the model, and the
    // decoded model (or a JSON tree of it) many times the file.
    let json = pte_file::ExirJson::new(bytes).map_err(at(file))?;
    crate::stream::to_stdout(|w| json.write_pretty(w))
}
