//! The loose files commands write beside the formats (a sample set, an
//! unbundled program, a graph): each written atomically, so a reader never
//! sees half of one. An extraction's folder is the library's
//! (`pte::extract`), which syncs a whole folder once instead.

use std::path::Path;

use crate::failure::{at, CmdResult};

/// Writes `bytes` to `path` atomically.
pub(crate) fn write_file(path: &Path, bytes: &[u8]) -> CmdResult {
    pte_file::write_atomically(path, |w| {
        w.write_all(bytes)?;
        Ok(())
    })
    .map_err(at(path))
    .map(drop)
}
