//! The output folder's writes through directory handles (Unix): every
//! folder below the one the user named is opened from its parent's handle
//! without following links, and each file is created, replaced or renamed
//! relative to the handle of the folder it goes in. A link swapped in for a
//! subfolder between a check and a write is therefore never followed: there
//! is no check-then-use of a path below the user's folder.

use std::fs::File;
use std::io::Write;
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use rustix::fs::{AtFlags, FileType, Mode, OFlags};
use rustix::io::Errno;

use crate::error::{Error, ErrorKind, Result};

/// Flags of every directory opened on the way: read-only, never a link.
fn dir_flags() -> OFlags {
    OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC
}

fn io(op: &str, path: &Path, e: Errno) -> Error {
    Error::io(op, path, std::io::Error::from(e))
}

/// The handle of the folder the user named (a link to it is followed: the
/// folder is theirs).
pub(crate) fn open_root(dir: &Path) -> Result<OwnedFd> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
    rustix::fs::open(dir, flags, Mode::empty()).map_err(|e| io("opening", dir, e))
}

/// What stood at a name before it was written.
pub(crate) struct Found {
    /// The permission bits of a regular file there, kept by its replacement.
    pub(crate) mode: Option<Mode>,
}

/// The folder a file goes in, as a handle, the file's own name in it, and
/// its path (for messages).
pub(crate) struct Place {
    pub(crate) parent: OwnedFd,
    pub(crate) last: String,
    pub(crate) path: PathBuf,
}

/// Opens (making it, or replacing a link or file standing in its way) each
/// folder of `name` below `root`, from the handle of the one before.
pub(crate) fn place(root: &OwnedFd, dir: &Path, name: &str) -> Result<Place> {
    let mut parts: Vec<&str> = name.split('/').collect();
    let last = parts.pop().unwrap_or_default().to_string();
    let mut walked = dir.to_path_buf();
    let mut cur = rustix::io::dup(root).map_err(|e| io("opening", dir, e))?;
    for part in parts {
        walked.push(part);
        cur = subfolder(&cur, part, &walked)?;
    }
    walked.push(&last);
    Ok(Place { parent: cur, last, path: walked })
}

/// The subfolder `part` of `parent`, a real folder: made when missing; a
/// link, file or special file there is removed (the link itself, never its
/// target) and a folder made in its place.
fn subfolder(parent: &OwnedFd, part: &str, path: &Path) -> Result<OwnedFd> {
    match rustix::fs::openat(parent, part, dir_flags(), Mode::empty()) {
        Ok(fd) => return Ok(fd),
        Err(Errno::NOENT) => {}
        // a link (ELOOP) or something that is no folder (ENOTDIR) stands there
        Err(Errno::LOOP | Errno::NOTDIR) => {
            rustix::fs::unlinkat(parent, part, AtFlags::empty()).map_err(|e| io("removing", path, e))?;
        }
        Err(e) => return Err(io("opening", path, e)),
    }
    match rustix::fs::mkdirat(parent, part, Mode::from_raw_mode(0o777)) {
        // made meanwhile by someone else: used only if it is a real folder
        Ok(()) | Err(Errno::EXIST) => {}
        Err(e) => return Err(io("creating", path, e)),
    }
    rustix::fs::openat(parent, part, dir_flags(), Mode::empty()).map_err(|e| io("creating", path, e))
}

/// Makes way for the file of `place`: a folder there is refused, a regular
/// file kept when `keep_file` (else removed), anything else removed. Says
/// what was there.
pub(crate) fn clear(place: &Place, keep_file: bool) -> Result<Found> {
    let stat = match rustix::fs::statat(&place.parent, place.last.as_str(), AtFlags::SYMLINK_NOFOLLOW) {
        Ok(s) => s,
        Err(Errno::NOENT) => return Ok(Found { mode: None }),
        Err(e) => return Err(io("reading", &place.path, e)),
    };
    let kind = FileType::from_raw_mode(stat.st_mode);
    if kind == FileType::Directory {
        return Err(Error::new(
            ErrorKind::InvalidUse,
            format!("{}: a folder where a file goes; refusing to replace it", place.path.display()),
        ));
    }
    let mode = (kind == FileType::RegularFile).then(|| Mode::from_raw_mode(stat.st_mode & 0o7777));
    if !(keep_file && kind == FileType::RegularFile) {
        unlink(place)?;
    }
    Ok(Found { mode })
}

fn unlink(place: &Place) -> Result<()> {
    match rustix::fs::unlinkat(&place.parent, place.last.as_str(), AtFlags::empty()) {
        Ok(()) | Err(Errno::NOENT) => Ok(()),
        Err(e) => Err(io("removing", &place.path, e)),
    }
}

/// Creates `name` of `parent` exclusively, never through a link.
fn create_at(parent: &OwnedFd, name: &str) -> std::result::Result<File, Errno> {
    let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    // 0666 less the umask, as `cp` and editors create files
    rustix::fs::openat(parent, name, flags, Mode::from_raw_mode(0o666)).map(File::from)
}

/// The new file of `place`, whatever stood there removed first; a regular
/// file replaced gives its mode to the new one.
pub(crate) fn create(place: &Place) -> Result<File> {
    let found = clear(place, false)?;
    let file = create_at(&place.parent, &place.last).map_err(|e| io("creating", &place.path, e))?;
    if let Some(mode) = found.mode {
        rustix::fs::fchmod(&file, mode).map_err(|e| io("setting the mode of", &place.path, e))?;
    }
    Ok(file)
}

/// Removes the temporary file unless the write reached its rename.
struct Temp<'a> {
    parent: &'a OwnedFd,
    name: Option<String>,
}

impl Drop for Temp<'_> {
    fn drop(&mut self) {
        if let Some(n) = self.name.take() {
            let _ = rustix::fs::unlinkat(self.parent, n.as_str(), AtFlags::empty());
        }
    }
}

/// Writes the file of `place` atomically: a temporary file beside it
/// (created through the folder's handle), written, given the mode of the
/// regular file it replaces, synced, and renamed over the name in the same
/// folder handle; a link or special file at the name is replaced by the
/// rename, never followed. A stop signal meanwhile fails the write and
/// leaves no temporary file.
pub(crate) fn write_atomically<T>(place: &Place, write: impl FnOnce(&mut dyn Write) -> Result<T>) -> Result<T> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let found = clear(place, true)?;
    if let Some(dir) = place.path.parent() {
        // earlier writes' temporaries whose writer is gone (their lock is free)
        crate::save::remove_stale_temps(dir, &place.last);
    }
    let _saving = crate::fenced::SaveUnderWay::begin();
    crate::check_interrupted()?;
    let mut made = None;
    for _ in 0..16 {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let tmp = format!(".{}{}{}-{n}.tmp", place.last, crate::save::TEMP_MARKER, std::process::id());
        match create_at(&place.parent, &tmp) {
            Ok(f) => {
                made = Some((tmp, f));
                break;
            }
            Err(Errno::EXIST) => continue,
            Err(e) => return Err(io("creating a temporary file for", &place.path, e)),
        }
    }
    let Some((tmp, file)) = made else {
        return Err(io("creating a temporary file for", &place.path, Errno::EXIST));
    };
    let mut guard = Temp { parent: &place.parent, name: Some(tmp.clone()) };
    // held until closed: a cleaner that can take the lock knows the writer is gone
    file.lock().map_err(|e| Error::io("locking a temporary file for", &place.path, e))?;
    let written = crate::save::buffered(&place.path, &file, write);
    crate::check_interrupted()?;
    let value = written.map_err(|e| e.located("writing", &place.path))?;
    if let Some(mode) = found.mode {
        rustix::fs::fchmod(&file, mode).map_err(|e| io("setting the mode of", &place.path, e))?;
    }
    file.sync_all().map_err(|e| Error::io("syncing", &place.path, e))?;
    crate::check_interrupted()?;
    rustix::fs::renameat(&place.parent, tmp.as_str(), &place.parent, place.last.as_str())
        .map_err(|e| io("renaming a temporary file onto", &place.path, e))?;
    guard.name = None;
    // makes the rename itself durable; not every file system syncs a folder
    let _ = rustix::fs::fsync(&place.parent);
    Ok(value)
}

/// Renames the file of `from` onto `to`, both through their folders'
/// handles: a link at `to` is replaced, not followed, and a regular file
/// there gives its mode to the new one.
pub(crate) fn commit(from: &Place, to: &Place) -> Result<()> {
    let found = clear(to, true)?;
    if let Some(mode) = found.mode {
        let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let src = rustix::fs::openat(&from.parent, from.last.as_str(), flags, Mode::empty())
            .map_err(|e| io("opening", &from.path, e))?;
        rustix::fs::fchmod(&src, mode).map_err(|e| io("setting the mode of", &from.path, e))?;
    }
    rustix::fs::renameat(&from.parent, from.last.as_str(), &to.parent, to.last.as_str())
        .map_err(|e| io("renaming onto", &to.path, e))?;
    let _ = rustix::fs::fsync(to.parent.as_fd());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A subfolder swapped for a link to an outside folder after the walk
    /// opened it: the write still lands in the folder the walk opened.
    #[test]
    fn a_subfolder_swapped_for_a_link_after_the_walk_is_not_followed() {
        let tmp = tempfile::tempdir().unwrap();
        let (dir, outside) = (tmp.path().join("out"), tmp.path().join("outside"));
        std::fs::create_dir_all(dir.join("sets")).unwrap();
        std::fs::create_dir(&outside).unwrap();
        let root = open_root(&dir).unwrap();
        let created = place(&root, &dir, "sets/a.bin").unwrap();
        let replaced = place(&root, &dir, "sets/b.bin").unwrap();
        // the swap: the real folder moved away, a link to the outside in its place
        std::fs::rename(dir.join("sets"), dir.join("moved")).unwrap();
        std::os::unix::fs::symlink(&outside, dir.join("sets")).unwrap();
        create(&created).unwrap().write_all(b"new").unwrap();
        write_atomically(&replaced, |w| Ok(w.write_all(b"also")?)).unwrap();
        assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0, "nothing written outside");
        assert_eq!(std::fs::read(dir.join("moved/a.bin")).unwrap(), b"new");
        assert_eq!(std::fs::read(dir.join("moved/b.bin")).unwrap(), b"also");
    }

    /// A link where a subfolder goes, met by the walk itself, is replaced by
    /// a real folder; its target is untouched.
    #[test]
    fn a_link_in_the_way_is_replaced_not_entered() {
        let tmp = tempfile::tempdir().unwrap();
        let (dir, outside) = (tmp.path().join("out"), tmp.path().join("outside"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::create_dir(&outside).unwrap();
        std::os::unix::fs::symlink(&outside, dir.join("sets")).unwrap();
        let root = open_root(&dir).unwrap();
        create(&place(&root, &dir, "sets/a.bin").unwrap()).unwrap();
        assert!(std::fs::symlink_metadata(dir.join("sets")).unwrap().is_dir());
        assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);
    }

    /// A failed write leaves no temporary file, and the file there stays.
    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().to_path_buf();
        std::fs::write(dir.join("a.json"), b"old").unwrap();
        let root = open_root(&dir).unwrap();
        let p = place(&root, &dir, "a.json").unwrap();
        let e = write_atomically(&p, |w| -> Result<()> {
            w.write_all(b"partial")?;
            Err(Error::new(ErrorKind::InvalidUse, "stop"))
        });
        assert!(e.is_err());
        assert_eq!(std::fs::read(dir.join("a.json")).unwrap(), b"old");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    }
}
