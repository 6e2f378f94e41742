//! In-place edits: an exclusive advisory lock held from the read to the
//! rename, so that two editors of one file never lose each other's change.

use std::fs::{File, Metadata};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::error::{Error, ErrorKind, Result};
use crate::input::{open_input, FileId};
use crate::save::{resolve_links, save_resolved};
use crate::MappedFile;

/// What to do when another process is editing the same file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LockWait {
    /// Wait until the other editor has finished, then read its result.
    #[default]
    Block,
    /// Fail at once with [`ErrorKind::Busy`](crate::ErrorKind::Busy).
    Fail,
}

/// An exclusive lock on a file about to be edited in place.
///
/// Acquire it before reading; read through [`EditLock::map`]; write the new
/// content with [`EditLock::save`], which replaces the file atomically while
/// the lock is still held. A second editor waits at [`EditLock::acquire`] and
/// then reads the first editor's result, so both changes survive. Files that
/// are replaced by a rename carry a new identity, so the lock follows the
/// path: after waiting, it re-opens and re-locks until the file it holds is
/// the one the path names.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let p = dir.path().join("a.txt");
/// std::fs::write(&p, b"one")?;
/// let lock = pte_core::EditLock::acquire(&p, pte_core::LockWait::Block)?;
/// let mut text = lock.map()?.bytes().to_vec();
/// text.extend_from_slice(b" two");
/// lock.save(|w| Ok(w.write_all(&text)?))?;
/// assert_eq!(std::fs::read(&p)?, b"one two");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct EditLock {
    file: File,
    target: PathBuf,
    stamp: Stamp,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stamp {
    id: FileId,
    len: u64,
    modified: Option<SystemTime>,
}

impl Stamp {
    fn of(meta: &Metadata) -> Stamp {
        Stamp { id: FileId::from_metadata(meta), len: meta.len(), modified: meta.modified().ok() }
    }
}

impl EditLock {
    /// Locks the file `path` names (through symlinks) for an in-place edit.
    ///
    /// ```
    /// let dir = tempfile::tempdir()?;
    /// let p = dir.path().join("a.txt");
    /// std::fs::write(&p, b"x")?;
    /// let first = pte_core::EditLock::acquire(&p, pte_core::LockWait::Block)?;
    /// let busy = pte_core::EditLock::acquire(&p, pte_core::LockWait::Fail).unwrap_err();
    /// assert_eq!(busy.kind(), pte_core::ErrorKind::Busy);
    /// drop(first);
    /// assert!(pte_core::EditLock::acquire(&p, pte_core::LockWait::Fail).is_ok());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn acquire(path: &Path, wait: LockWait) -> Result<EditLock> {
        let target = resolve_links(path)?;
        loop {
            let file = open_input(&target)?;
            match wait {
                LockWait::Block => file.lock().map_err(|e| Error::io("locking", &target, e))?,
                LockWait::Fail => file.try_lock().map_err(|e| match e {
                    std::fs::TryLockError::WouldBlock => {
                        Error::new(ErrorKind::Busy, format!("{} is being edited by another process", target.display()))
                    }
                    std::fs::TryLockError::Error(e) => Error::io("locking", &target, e),
                })?,
            }
            let held = file.metadata().map_err(|e| Error::io("reading the metadata of", &target, e))?;
            // The previous editor may have renamed a new file over the path
            // while this one waited: lock that one instead.
            if FileId::of(&target) == Some(FileId::from_metadata(&held)) {
                return Ok(EditLock { file, target, stamp: Stamp::of(&held) });
            }
        }
    }

    /// The locked file's path, symlinks resolved.
    ///
    /// ```
    /// let dir = tempfile::tempdir()?;
    /// let p = dir.path().join("a.txt");
    /// std::fs::write(&p, b"x")?;
    /// assert_eq!(pte_core::EditLock::acquire(&p, Default::default())?.path(), p);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn path(&self) -> &Path {
        &self.target
    }

    /// The locked file, open for reading (to copy from it while saving).
    ///
    /// ```
    /// let dir = tempfile::tempdir()?;
    /// let p = dir.path().join("a.txt");
    /// std::fs::write(&p, b"abc")?;
    /// assert_eq!(pte_core::EditLock::acquire(&p, Default::default())?.file().metadata()?.len(), 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn file(&self) -> &File {
        &self.file
    }

    /// Maps the locked file for reading.
    ///
    /// ```
    /// let dir = tempfile::tempdir()?;
    /// let p = dir.path().join("a.txt");
    /// std::fs::write(&p, b"abc")?;
    /// assert_eq!(pte_core::EditLock::acquire(&p, Default::default())?.map()?.bytes(), b"abc");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn map(&self) -> Result<MappedFile> {
        MappedFile::from_file(&self.file, &self.target)
    }

    /// Checks that nobody changed the file behind the lock (a writer that does
    /// not take it), so a save never drops a change it did not read.
    fn check_unchanged(&self) -> Result<()> {
        let now = std::fs::metadata(&self.target).map_err(|e| Error::io("reading the metadata of", &self.target, e))?;
        if Stamp::of(&now) != self.stamp {
            return Err(Error::new(
                ErrorKind::Busy,
                format!("{} changed since it was read; nothing was written", self.target.display()),
            ));
        }
        Ok(())
    }

    /// Replaces the file with what `write` produces, atomically, then
    /// releases the lock.
    ///
    /// ```
    /// let dir = tempfile::tempdir()?;
    /// let p = dir.path().join("a.txt");
    /// std::fs::write(&p, b"old")?;
    /// pte_core::EditLock::acquire(&p, Default::default())?.save(|w| Ok(w.write_all(b"new")?))?;
    /// assert_eq!(std::fs::read(&p)?, b"new");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn save<T>(self, write: impl FnOnce(&mut dyn Write) -> Result<T>) -> Result<T> {
        self.save_file(|file| {
            let mut w = std::io::BufWriter::with_capacity(1 << 20, file);
            let v = write(&mut w)?;
            w.flush().map_err(|e| Error::io("writing", &self.target, e))?;
            Ok(v)
        })
    }

    /// Like [`EditLock::save`], handing `write` the temporary file itself.
    ///
    /// ```
    /// use std::io::Write;
    /// let dir = tempfile::tempdir()?;
    /// let p = dir.path().join("a.txt");
    /// std::fs::write(&p, b"old")?;
    /// pte_core::EditLock::acquire(&p, Default::default())?.save_file(|mut f| Ok(f.write_all(b"new")?))?;
    /// assert_eq!(std::fs::read(&p)?, b"new");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn save_file<T>(&self, write: impl FnOnce(&File) -> Result<T>) -> Result<T> {
        save_resolved(&self.target, Some(&|| self.check_unchanged()), write)
    }
}
