//! The loose files commands write beside the formats (`extract`'s
//! `program.json`, a sample set, an unbundled program, a graph): each
//! written atomically, so a reader never sees half of one; and how such
//! files are named and fingerprinted. `extract`'s blobs go through
//! `crate::extract_out`, which syncs a whole folder once instead.

use std::path::Path;

use sha2::{Digest, Sha256};

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

/// Writes `text` and a final newline to `path` atomically.
pub(crate) fn write_text(path: &Path, text: &str) -> CmdResult {
    pte_file::write_atomically(path, |w| {
        w.write_all(text.as_bytes())?;
        w.write_all(b"\n")?;
        Ok(())
    })
    .map_err(at(path))
    .map(drop)
}

/// Lower-case hex SHA-256, as the manifests record it.
pub(crate) fn sha(b: &[u8]) -> String {
    Sha256::digest(b).iter().map(|x| format!("{x:02x}")).collect()
}
