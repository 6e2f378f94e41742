//! Opening the files an extract folder's manifest names, with the checks an
//! untrusted folder needs: names stay inside the folder, links are refused
//! unless the caller allows them (and even then never lead outside), and
//! only regular files are read.

use std::fs::{File, Metadata};
use std::io::Read;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use pte_schema::{Error, ErrorKind, Result};

use super::PackOptions;

fn bad(msg: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidUse, msg)
}

/// The path of `name` in `dir`, checked: a relative `/`-separated name with
/// no `..`, `.`-led or empty component (the manifest is untrusted).
pub(crate) fn path_in(dir: &Path, name: &str) -> Result<PathBuf> {
    let ok = !name.is_empty()
        && !name.contains('\\')
        && !name.starts_with('/')
        && name.split('/').all(|c| !c.is_empty() && !c.starts_with('.'));
    if !ok {
        return Err(bad(format!("the manifest names a file outside the folder: {name:?}")));
    }
    Ok(dir.join(name))
}

/// The metadata of the file `name` names, after the folder checks: a
/// symbolic link anywhere on the path, or a file with several hard links,
/// is refused unless `options.allow_links`; an allowed link must still
/// resolve inside the folder. Only regular files pass.
pub(crate) fn checked(dir: &Path, name: &str, options: &PackOptions) -> Result<(PathBuf, Metadata)> {
    let path = path_in(dir, name)?;
    let io = |e: std::io::Error| Error::io("reading", &path, e);
    // every component below the folder, not just the last, could be a link
    let mut walked = dir.to_path_buf();
    for c in name.split('/') {
        walked.push(c);
        let meta = std::fs::symlink_metadata(&walked).map_err(io)?;
        if meta.file_type().is_symlink() && !options.allow_links {
            return Err(bad(format!(
                "{}: a symbolic link; packing follows links only when allowed (--allow-links), and never out of the folder",
                walked.display()
            )));
        }
    }
    if options.allow_links {
        let root = std::fs::canonicalize(dir).map_err(|e| Error::io("reading", dir, e))?;
        let real = std::fs::canonicalize(&path).map_err(io)?;
        if !real.starts_with(&root) {
            return Err(bad(format!("{}: links to {}, outside the folder", path.display(), real.display())));
        }
    }
    let meta = std::fs::metadata(&path).map_err(io)?;
    if !meta.is_file() {
        return Err(bad(format!("{}: not a regular file", path.display())));
    }
    if hard_linked(&meta) && !options.allow_links {
        return Err(bad(format!(
            "{}: has other hard links, which may be a file from outside the folder; --allow-links accepts it",
            path.display()
        )));
    }
    Ok((path, meta))
}

#[cfg(unix)]
fn hard_linked(meta: &Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    meta.nlink() > 1
}

#[cfg(not(unix))]
fn hard_linked(_meta: &Metadata) -> bool {
    false
}

/// Reads the file `name` names after [`checked`], refusing one larger than
/// `limit` bytes before anything is read.
pub(crate) fn read(dir: &Path, name: &str, options: &PackOptions, limit: u64) -> Result<Vec<u8>> {
    let (path, meta) = checked(dir, name, options)?;
    if meta.len() > limit {
        return Err(bad(format!("{}: {} bytes, over the {limit} this file can hold", path.display(), meta.len())));
    }
    let mut out = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    File::open(&path).and_then(|f| f.take(limit).read_to_end(&mut out)).map_err(|e| Error::io("reading", &path, e))?;
    Ok(out)
}

/// Reads the file `name` of the extract folder `dir` with the checks every
/// file of an untrusted folder gets: the name stays inside the folder, a
/// link is refused unless `options.allow_links` (and never leads outside),
/// only a regular file is read.
///
/// ```
/// use pte_file::pack::{read_folder_file, PackOptions};
/// let dir = tempfile::tempdir()?;
/// std::fs::write(dir.path().join("a.bin"), [1, 2])?;
/// assert_eq!(read_folder_file(dir.path(), "a.bin", &PackOptions::default())?, [1, 2]);
/// assert!(read_folder_file(dir.path(), "../a.bin", &PackOptions::default()).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_folder_file(dir: &Path, name: &str, options: &PackOptions) -> Result<Vec<u8>> {
    read(dir, name, options, u64::MAX)
}

/// Lower-case hex SHA-256 of `bytes`.
pub(crate) fn sha_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn hex(d: &[u8]) -> String {
    d.iter().map(|x| format!("{x:02x}")).collect()
}

/// SHA-256 of the file at `path` (already checked), read in chunks: a
/// digest never holds the file in memory.
pub(crate) fn sha_of_file(path: &Path) -> Result<String> {
    let mut f = File::open(path).map_err(|e| Error::io("reading", path, e))?;
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
