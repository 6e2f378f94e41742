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

/// Lower-case hex SHA-256, as the manifests record it.
pub(crate) fn sha(b: &[u8]) -> String {
    pte_pack::sha256_hex(b)
}

/// A writer that passes bytes on and digests them (SHA-256) on the way.
pub(crate) struct Digesting<W> {
    inner: W,
    hasher: Sha256,
}

impl<W: std::io::Write> Digesting<W> {
    pub(crate) fn new(inner: W) -> Self {
        Digesting { inner, hasher: Sha256::new() }
    }

    /// The digest of everything written, as [`sha`] spells it.
    pub(crate) fn digest(self) -> String {
        self.hasher.finalize().iter().map(|x| format!("{x:02x}")).collect()
    }
}

impl<W: std::io::Write> std::io::Write for Digesting<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(buf.get(..n).unwrap_or_default());
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}
