//! Atomic saving that treats the target as the user's file: a crash or error
//! mid-way never destroys it, a symlink stays a link (its target is what gets
//! replaced), the mode and owner of an existing file are kept, a new file gets
//! the umask's default, and a temporary file left by a killed save is removed
//! by the next save of the same target.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{Error, ErrorKind, Result};
use crate::input::FileId;

/// Every temporary file of a save is named `.<target name><TEMP_MARKER><unique>.tmp`
/// in the target's directory, so that a stale one can be recognised.
pub const TEMP_MARKER: &str = ".pte-save-";

/// Symlink chains longer than this are refused, as the kernel refuses them.
const MAX_LINK_HOPS: u32 = 40;

/// Writes a new file at `path` through `write`: the bytes go to a temporary
/// file in the directory of the real target, which is flushed, fsynced and
/// renamed over the target only when `write` succeeded. On any error the
/// temporary file is removed and an existing file is untouched.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let p = dir.path().join("a.bin");
/// pte_core::write_atomically(&p, |w| { w.write_all(b"new")?; Ok(3) })?;
/// let failed: pte_core::Result<()> = pte_core::write_atomically(&p, |w| {
///     w.write_all(b"partial")?;
///     Err(pte_core::Error::new(pte_core::ErrorKind::Io, "disk full"))
/// });
/// assert!(failed.is_err());
/// assert_eq!(std::fs::read(&p)?, b"new");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_atomically<T>(path: &Path, write: impl FnOnce(&mut dyn Write) -> Result<T>) -> Result<T> {
    write_atomically_file(path, |file| buffered(path, file, write))
}

/// Hands `write` a buffered writer over a save's temporary file that starts
/// the disk write-out as it goes, and flushes it.
pub(crate) fn buffered<T>(path: &Path, file: &File, write: impl FnOnce(&mut dyn Write) -> Result<T>) -> Result<T> {
    let mut w = BufWriter::with_capacity(1 << 20, EarlyWriteback { file, written: 0, started: 0 });
    let v = write(&mut w)?;
    w.flush().map_err(|e| Error::io("writing", path, e))?;
    Ok(v)
}

/// Bytes written or copied between two write-out hints
/// ([`crate::start_writeback`]): large enough that the hints cost nothing,
/// small enough that the disk starts early.
const WRITEBACK_PIECE: u64 = 2 << 20;

/// Copies `len` bytes from `src`'s position to `dst`'s (both advance), file
/// to file by the kernel where it can (`copy_file_range` on Linux), in
/// pieces whose disk write-out starts as each is copied, as a streamed
/// [`write_atomically`] save does. Returns the bytes copied: fewer than `len`
/// only when `src` ends first.
///
/// ```
/// use std::io::{Read, Seek, Write};
/// let mut src = tempfile::tempfile()?;
/// src.write_all(&[9; 5000])?;
/// src.rewind()?;
/// let mut dst = tempfile::tempfile()?;
/// assert_eq!(pte_core::copy_with_writeback(&src, 4000, &dst)?, 4000);
/// dst.rewind()?;
/// let mut back = vec![];
/// dst.read_to_end(&mut back)?;
/// assert_eq!(back, [9; 4000]);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn copy_with_writeback(src: &File, len: u64, dst: &File) -> std::io::Result<u64> {
    use std::io::{Read, Seek};
    let mut out = dst;
    let mut at = out.stream_position()?;
    let mut copied = 0u64;
    while copied < len {
        if let Some(sig) = crate::interrupted() {
            return Err(std::io::Error::other(format!("interrupted by signal {sig}")));
        }
        let piece = len.saturating_sub(copied).min(WRITEBACK_PIECE);
        let n = std::io::copy(&mut src.take(piece), &mut out)?;
        crate::start_writeback(dst, at, n);
        at = at.saturating_add(n);
        copied = copied.saturating_add(n);
        if n < piece {
            break;
        }
    }
    Ok(copied)
}

/// The temporary file of a streamed save, starting the disk write-out of
/// each piece once it is written, so the save's fsync has little left to do.
struct EarlyWriteback<'f> {
    file: &'f File,
    /// Bytes written so far (the writer starts at the file's beginning).
    written: u64,
    /// Bytes whose write-out has been started.
    started: u64,
}

impl Write for EarlyWriteback<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if let Some(sig) = crate::interrupted() {
            return Err(std::io::Error::other(format!("interrupted by signal {sig}")));
        }
        let n = (&mut &*self.file).write(buf)?;
        self.written = self.written.saturating_add(n as u64);
        let pending = self.written.saturating_sub(self.started);
        if pending >= WRITEBACK_PIECE {
            crate::start_writeback(self.file, self.started, pending);
            self.started = self.written;
        }
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        (&mut &*self.file).flush()
    }
}

/// Like [`write_atomically`], handing `write` the temporary file itself
/// (for kernel-side copies or seekable writers); `write` must leave
/// everything written when it returns.
///
/// ```
/// use std::io::{Seek, SeekFrom, Write};
/// let dir = tempfile::tempdir()?;
/// let p = dir.path().join("a.bin");
/// pte_core::write_atomically_file(&p, |mut f| {
///     f.write_all(b"xxcd")?;
///     f.seek(SeekFrom::Start(0))?;
///     f.write_all(b"ab")?;
///     Ok(())
/// })?;
/// assert_eq!(std::fs::read(&p)?, b"abcd");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_atomically_file<T>(path: &Path, write: impl FnOnce(&File) -> Result<T>) -> Result<T> {
    let target = resolve_links(path)?;
    save_resolved(&target, None, write)
}

/// Saves to an already resolved target; `expect` (from an edit lock) is
/// checked right before the rename, so a file changed behind the lock is
/// never overwritten.
pub(crate) fn save_resolved<T>(
    target: &Path,
    expect: Option<&dyn Fn() -> Result<()>>,
    write: impl FnOnce(&File) -> Result<T>,
) -> Result<T> {
    let (dir, name) = split(target)?;
    let existing = match std::fs::metadata(target) {
        Ok(m) if m.is_file() => Some(m),
        Ok(m) if m.is_dir() => {
            return Err(Error::new(ErrorKind::InvalidUse, format!("{} is a directory", target.display())))
        }
        Ok(_) => {
            return Err(Error::new(
                ErrorKind::InvalidUse,
                format!("{} is not a regular file; refusing to replace it", target.display()),
            ))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(Error::io("reading the metadata of", target, e)),
    };
    remove_stale_temps(&dir, &name);
    // a stop signal from here to the rename fails the save instead of ending
    // the process with the temporary file left behind
    let _saving = crate::fenced::SaveUnderWay::begin();
    crate::check_interrupted()?;
    let (tmp_path, tmp) = create_temp(&dir, &name)?;
    let guard = TempGuard(Some(tmp_path.clone()));
    // An OS error raised inside `write` names neither file nor operation.
    let written = write(&tmp);
    // whatever the writer made of it, an interrupted save is reported as such
    crate::check_interrupted()?;
    let value = written.map_err(|e| e.located("writing", target))?;
    if let Some(meta) = &existing {
        keep_permissions(&tmp, meta, &tmp_path)?;
    }
    tmp.sync_all().map_err(|e| Error::io("syncing", &tmp_path, e))?;
    crate::check_interrupted()?;
    if let Some(check) = expect {
        check()?;
    }
    std::fs::rename(&tmp_path, target).map_err(|e| Error::io("renaming a temporary file onto", target, e))?;
    guard.disarm();
    if let Ok(d) = File::open(&dir) {
        // Makes the rename itself durable; not every platform can sync a directory.
        let _ = d.sync_all();
    }
    Ok(value)
}

/// Follows `path` through every symlink to the file a write should replace,
/// so that the link itself survives the save. Relative link targets are
/// taken against the link's own directory.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let real = dir.path().join("real.pte");
/// std::os::unix::fs::symlink("real.pte", dir.path().join("link.pte"))?;
/// assert_eq!(pte_core::resolve_links(&dir.path().join("link.pte"))?, real);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn resolve_links(path: &Path) -> Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINK_HOPS {
        match std::fs::symlink_metadata(&current) {
            Ok(m) if m.file_type().is_symlink() => {
                let link = std::fs::read_link(&current).map_err(|e| Error::io("reading the link", &current, e))?;
                current = match current.parent() {
                    Some(parent) if link.is_relative() => parent.join(link),
                    _ => link,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(Error::new(ErrorKind::InvalidUse, format!("{}: too many levels of symbolic links", path.display())))
}

fn split(target: &Path) -> Result<(PathBuf, String)> {
    let name = target
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| Error::new(ErrorKind::InvalidUse, format!("{} does not name a file", target.display())))?;
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Ok((dir, name.to_string()))
}

fn create_temp(dir: &Path, name: &str) -> Result<(PathBuf, File)> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
    let mut last = None;
    for _ in 0..16 {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let tmp = dir.join(format!(".{name}{TEMP_MARKER}{}-{n}-{nanos:x}.tmp", std::process::id()));
        // OpenOptions creates with 0666 less the umask, as `cp` and editors do.
        match OpenOptions::new().write(true).read(true).create_new(true).open(&tmp) {
            Ok(file) => {
                // Held until the file is closed: a cleaner that can take the lock
                // knows the writer is gone.
                file.lock().map_err(|e| Error::io("locking", &tmp, e))?;
                // Another save's cleaner may have locked the file in the instant
                // between its creation and this lock, and removed it as stale.
                let held = file.metadata().ok().map(|m| FileId::from_metadata(&m));
                if held.is_some() && FileId::of(&tmp) == held {
                    return Ok((tmp, file));
                }
                last = Some(std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "a concurrent save removed the temporary file",
                ));
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(Error::io("creating a temporary file in", dir, e)),
        }
    }
    let e = last.unwrap_or_else(|| std::io::Error::from(std::io::ErrorKind::AlreadyExists));
    Err(Error::io("creating a temporary file in", dir, e))
}

/// Removes temporary files of earlier saves of `name` whose writer is gone
/// (their lock can be taken); a live writer's file stays locked and is kept.
pub(crate) fn remove_stale_temps(dir: &Path, name: &str) {
    let prefix = format!(".{name}{TEMP_MARKER}");
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(n) = file_name.to_str() else { continue };
        if !n.starts_with(&prefix) || !n.ends_with(".tmp") {
            continue;
        }
        let path = entry.path();
        let Ok(file) = OpenOptions::new().read(true).open(&path) else { continue };
        if file.try_lock().is_ok() {
            let _ = std::fs::remove_file(&path);
        }
    }
}

fn keep_permissions(tmp: &File, meta: &std::fs::Metadata, tmp_path: &Path) -> Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{fchown, MetadataExt};
        let mine = tmp.metadata().map_err(|e| Error::io("reading the metadata of", tmp_path, e))?;
        if mine.uid() != meta.uid() || mine.gid() != meta.gid() {
            // Only a privileged process may give a file away; an unprivileged
            // save keeps its own ownership, as editors do.
            let _ = fchown(tmp, Some(meta.uid()), Some(meta.gid()));
        }
    }
    tmp.set_permissions(meta.permissions()).map_err(|e| Error::io("setting the mode of", tmp_path, e))
}

/// Removes the temporary file unless the save reached its rename.
struct TempGuard(Option<PathBuf>);

impl TempGuard {
    fn disarm(mut self) {
        self.0 = None;
    }
}

impl Drop for TempGuard {
    fn drop(&mut self) {
        if let Some(p) = self.0.take() {
            let _ = std::fs::remove_file(p);
        }
    }
}
