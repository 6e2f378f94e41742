//! Atomic saving: a crash or error mid-way never destroys an existing file.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use pte_schema::{Error, ErrorKind, Result};

/// Writes a new file at `path` through `write`: the bytes go to a temporary
/// file in the same directory, which is flushed, fsynced and renamed over
/// `path` only when `write` succeeded. On any error the temporary file is
/// removed and an existing `path` is untouched.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let p = dir.path().join("a.bin");
/// pte_file::write_atomically(&p, |w| { w.write_all(b"new")?; Ok(3) })?;
/// let failed: pte_file::Result<()> = pte_file::write_atomically(&p, |w| {
///     w.write_all(b"partial")?;
///     Err(pte_file::Error::new(pte_file::ErrorKind::Io, "disk full"))
/// });
/// assert!(failed.is_err());
/// assert_eq!(std::fs::read(&p)?, b"new");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_atomically<T>(path: &Path, write: impl FnOnce(&mut dyn Write) -> Result<T>) -> Result<T> {
    write_atomically_file(path, |file| {
        let mut w = BufWriter::with_capacity(1 << 20, file);
        let v = write(&mut w)?;
        w.flush().map_err(|e| Error::new(ErrorKind::Io, format!("writing {}: {e}", path.display())))?;
        Ok(v)
    })
}

/// Like [`write_atomically`], handing `write` the temporary file itself
/// (for kernel-side copies or seekable writers); `write` must leave
/// everything written when it returns.
///
/// ```
/// use std::io::{Seek, SeekFrom, Write};
/// let dir = tempfile::tempdir()?;
/// let p = dir.path().join("a.bin");
/// pte_file::write_atomically_file(&p, |mut f| {
///     f.write_all(b"xxcd")?;
///     f.seek(SeekFrom::Start(0))?;
///     f.write_all(b"ab")?;
///     Ok(())
/// })?;
/// assert_eq!(std::fs::read(&p)?, b"abcd");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_atomically_file<T>(path: &Path, write: impl FnOnce(&File) -> Result<T>) -> Result<T> {
    let io = |what: &str, e: std::io::Error| Error::new(ErrorKind::Io, format!("{what} {}: {e}", path.display()));
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let tmp = tempfile::Builder::new()
        .prefix(".pte-save-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(|e| io("creating a temporary file for", e))?;
    let result = write(tmp.as_file())?;
    let file: &File = tmp.as_file();
    file.sync_all().map_err(|e| io("syncing", e))?;
    tmp.persist(path).map_err(|e| io("renaming into", e.error))?;
    if let Ok(d) = File::open(dir) {
        // Makes the rename itself durable; not all platforms allow it.
        let _ = d.sync_all();
    }
    Ok(result)
}
