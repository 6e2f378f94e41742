//! Opening the files an extract folder's manifest names, with the checks an
//! untrusted folder needs (the policy of `pte_core::folder`): names stay
//! inside the folder, links are refused unless the caller allows them (and
//! even then never lead outside), and only regular files are read.

use std::fs::Metadata;
use std::io::Read;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use pte_core::FileId;
use pte_schema::{Error, ErrorKind, Result};

use super::PackOptions;

fn bad(msg: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidUse, msg)
}

/// The path of `name` in `dir`, checked ([`pte_core::folder::member_path`]:
/// the manifest is untrusted).
pub(crate) fn path_in(dir: &Path, name: &str) -> Result<PathBuf> {
    pte_core::folder::member_path(dir, name)
}

/// The metadata of the file `name` names, under the folder policy every
/// reader of a folder shares ([`pte_core::folder::folder_file`]): links
/// only when `options.allow_links`, and only regular files.
pub(crate) fn checked(dir: &Path, name: &str, options: &PackOptions) -> Result<(PathBuf, Metadata)> {
    pte_core::folder::folder_file(dir, name, options.allow_links)
}

/// Reads the file `name` names after [`checked`], refusing one larger than
/// `limit` bytes before anything is read.
pub(crate) fn read(dir: &Path, name: &str, options: &PackOptions, limit: u64) -> Result<Vec<u8>> {
    let (path, meta) = checked(dir, name, options)?;
    if meta.len() > limit {
        return Err(bad(format!("{}: {} bytes, over the {limit} this file can hold", path.display(), meta.len())));
    }
    let mut out = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    let file = pte_core::folder::open_checked(&path, FileId::from_metadata(&meta))?;
    file.take(limit).read_to_end(&mut out).map_err(|e| Error::io("reading", &path, e))?;
    Ok(out)
}

/// Reads the file `name` of the extract folder `dir` with the checks every
/// file of an untrusted folder gets: the name stays inside the folder, a
/// link is refused unless `options.allow_links` (and never leads outside),
/// only a regular file is read.
///
/// ```
/// use pte_pack::{read_folder_file, PackOptions};
/// let dir = tempfile::tempdir()?;
/// std::fs::write(dir.path().join("a.bin"), [1, 2])?;
/// assert_eq!(read_folder_file(dir.path(), "a.bin", &PackOptions::default())?, [1, 2]);
/// assert!(read_folder_file(dir.path(), "../a.bin", &PackOptions::default()).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_folder_file(dir: &Path, name: &str, options: &PackOptions) -> Result<Vec<u8>> {
    read(dir, name, options, u64::MAX)
}

fn hex(d: &[u8]) -> String {
    d.iter().map(|x| format!("{x:02x}")).collect()
}

/// SHA-256 of `bytes` in lower-case hex: how manifests and summaries spell a digest.
///
/// ```
/// assert_eq!(&pte_pack::sha256_hex(b"")[..8], "e3b0c442");
/// ```
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// SHA-256 of the file at `path` (already checked: `id` is what was
/// checked), read in chunks: a digest never holds the file in memory.
pub(crate) fn sha_of_file(path: &Path, id: FileId) -> Result<String> {
    let mut f = pte_core::folder::open_checked(path, id)?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = f.read(&mut buf).map_err(|e| Error::io("reading", path, e))?;
        let Some(chunk) = buf.get(..n) else { break };
        if chunk.is_empty() {
            break;
        }
        h.update(chunk);
    }
    Ok(hex(&h.finalize()))
}
