//! The one policy for a folder of many files, read or written: an extract
//! folder, a sample set, a tree of sets. The folder a user names is theirs
//! (a link to it is followed, as a save follows a link to a file), but what
//! sits inside it is not trusted.
//!
//! * Reading ([`folder_file`]): a name stays inside the folder, a symbolic
//!   link anywhere below the folder or a file with other hard links is
//!   refused unless links are allowed (and even then a link never leads
//!   outside), and only a regular file is read: never a FIFO or a device.
//! * Writing ([`OutputFolder`]): a folder that holds anything is refused
//!   unless forced, and forced or not, nothing already in it is written
//!   through: a symbolic link, FIFO or device where a file or subfolder
//!   goes is removed (the link itself, never its target) and a fresh file or
//!   folder takes its place; a new file is created exclusively, without
//!   following links, and a replaced one is renamed over. On Unix every
//!   subfolder is opened from its parent's handle and every file made
//!   through its folder's handle, so a link swapped in meanwhile is not
//!   followed either.
//! * Opening a checked file ([`open_checked`]) refuses one that another
//!   file replaced since its check.

#[cfg(not(unix))]
use std::fs::OpenOptions;
use std::fs::{File, Metadata};
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{Error, ErrorKind, Result};

fn bad(msg: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidUse, msg)
}

/// The path of `name` in `dir`, checked: a relative `/`-separated name with
/// no `..`, `.`-led or empty component (names come from untrusted files).
///
/// ```
/// let dir = std::path::Path::new("out");
/// assert_eq!(pte_core::folder::member_path(dir, "constants/a.bin")?, dir.join("constants/a.bin"));
/// assert!(pte_core::folder::member_path(dir, "../a.bin").is_err());
/// assert!(pte_core::folder::member_path(dir, "/etc/passwd").is_err());
/// # Ok::<(), pte_core::Error>(())
/// ```
pub fn member_path(dir: &Path, name: &str) -> Result<PathBuf> {
    checked_name(dir, name, |c| !c.starts_with('.'))
}

/// `dir/name` when `name` is relative, `/`-separated, and each component
/// is neither empty, `.` nor `..`, and passes `also`.
fn checked_name(dir: &Path, name: &str, also: impl Fn(&str) -> bool) -> Result<PathBuf> {
    let ok = !name.is_empty()
        && !name.contains('\\')
        && !name.starts_with('/')
        && name.split('/').all(|c| !c.is_empty() && c != "." && c != ".." && also(c));
    if !ok {
        return Err(bad(format!("the manifest names a file outside the folder: {name:?}")));
    }
    Ok(dir.join(name))
}

/// The path and metadata of the file `name` in the folder `dir`, read under
/// the folder policy: a symbolic link anywhere below `dir`, or a file with
/// other hard links, is refused unless `allow_links`; an allowed link must
/// still resolve inside the folder. Only a regular file passes (a FIFO,
/// device or folder is refused before it is opened).
///
/// ```
/// let dir = tempfile::tempdir()?;
/// std::fs::write(dir.path().join("a.bin"), [1, 2])?;
/// let (path, meta) = pte_core::folder::folder_file(dir.path(), "a.bin", false)?;
/// assert_eq!((path, meta.len()), (dir.path().join("a.bin"), 2));
/// std::os::unix::fs::symlink("a.bin", dir.path().join("b.bin"))?;
/// assert!(pte_core::folder::folder_file(dir.path(), "b.bin", false).is_err());
/// assert!(pte_core::folder::folder_file(dir.path(), "b.bin", true).is_ok());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn folder_file(dir: &Path, name: &str, allow_links: bool) -> Result<(PathBuf, Metadata)> {
    let path = member_path(dir, name)?;
    let io = |e: std::io::Error| Error::io("reading", &path, e);
    // every component below the folder, not just the last, could be a link
    let mut walked = dir.to_path_buf();
    for c in name.split('/') {
        walked.push(c);
        let meta = std::fs::symlink_metadata(&walked).map_err(io)?;
        if meta.file_type().is_symlink() && !allow_links {
            return Err(bad(format!(
                "{}: a symbolic link; a folder's files are read through links only when allowed (pte pack --allow-links), and never out of the folder",
                walked.display()
            )));
        }
    }
    if allow_links {
        let root = std::fs::canonicalize(dir).map_err(|e| Error::io("reading", dir, e))?;
        let real = std::fs::canonicalize(&path).map_err(io)?;
        if !real.starts_with(&root) {
            return Err(bad(format!("{}: links to {}, outside the folder", path.display(), real.display())));
        }
    }
    let meta = std::fs::metadata(&path).map_err(io)?;
    crate::input::refuse_irregular(&path, &meta)?;
    if hard_linked(&meta) && !allow_links {
        return Err(bad(format!(
            "{}: has other hard links, which may be a file from outside the folder; a folder's files are read through links only when allowed (pte pack --allow-links)",
            path.display()
        )));
    }
    Ok((path, meta))
}

/// Opens a folder's file that [`folder_file`] checked, as `id` (the
/// identity of what was checked) says: the path is opened again, so a file
/// or folder swapped in meanwhile (a link where a subfolder was) is refused
/// rather than read. A FIFO swapped in does not block the open.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// std::fs::write(dir.path().join("a.bin"), [1])?;
/// std::fs::write(dir.path().join("b.bin"), [2])?;
/// let (path, meta) = pte_core::folder::folder_file(dir.path(), "a.bin", false)?;
/// let id = pte_core::FileId::from_metadata(&meta);
/// assert!(pte_core::folder::open_checked(&path, id).is_ok());
/// std::fs::rename(dir.path().join("b.bin"), &path)?; // another file took its place
/// assert!(pte_core::folder::open_checked(&path, id).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn open_checked(path: &Path, id: crate::FileId) -> Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(|e| Error::io("reading", path, e))?;
    let now = file.metadata().map_err(|e| Error::io("reading", path, e))?;
    if !now.is_file() || crate::FileId::from_metadata(&now) != id {
        return Err(bad(format!(
            "{}: another file took its place while the folder was read; nothing was read from it",
            path.display()
        )));
    }
    Ok(file)
}

/// Refuses a symbolic link to a folder met while listing `dir` (`name` is
/// one of its entries): a folder's subfolders are read under the same
/// policy as its files ([`folder_file`]), so a link is not entered.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// std::fs::create_dir(dir.path().join("real"))?;
/// std::os::unix::fs::symlink(dir.path().join("real"), dir.path().join("linked"))?;
/// assert!(pte_core::folder::check_subfolder(&dir.path().join("real")).is_ok());
/// assert!(pte_core::folder::check_subfolder(&dir.path().join("linked")).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn check_subfolder(path: &Path) -> Result<()> {
    let meta = std::fs::symlink_metadata(path).map_err(|e| Error::io("reading", path, e))?;
    if meta.file_type().is_symlink() {
        return Err(bad(format!(
            "{}: a symbolic link; a folder's subfolders are not read through links",
            path.display()
        )));
    }
    Ok(())
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

/// A folder a command writes many files into, under the folder policy: it
/// is created when missing, refused when it holds anything unless forced,
/// and nothing already in it (a symbolic link, a FIFO, a device, a file
/// hard-linked elsewhere) is ever written through.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let out = dir.path().join("out");
/// let folder = pte_core::folder::OutputFolder::open(&out, false)?;
/// folder.write_atomically("sets/a/index.json", |w| Ok(w.write_all(b"{}")?))?;
/// // a link planted where a file goes is replaced, its target untouched
/// std::fs::write(dir.path().join("outside"), b"keep")?;
/// std::os::unix::fs::symlink(dir.path().join("outside"), out.join("b.bin"))?;
/// // a folder holding files is refused unless forced
/// assert!(pte_core::folder::OutputFolder::open(&out, false).is_err());
/// let folder = pte_core::folder::OutputFolder::open(&out, true)?;
/// folder.create("b.bin")?.write_all(b"new")?;
/// assert_eq!(std::fs::read(dir.path().join("outside"))?, b"keep");
/// assert_eq!(std::fs::read(out.join("b.bin"))?, b"new");
/// # use std::io::Write;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct OutputFolder {
    dir: PathBuf,
    /// The folder's handle: everything below it is reached from it, never
    /// by a path that could be swapped meanwhile.
    #[cfg(unix)]
    root: std::os::fd::OwnedFd,
}

impl OutputFolder {
    /// Opens `dir` for writing: created (with its parents) when missing;
    /// when it exists, it must be empty unless `force`.
    pub fn open(dir: &Path, force: bool) -> Result<Self> {
        match std::fs::read_dir(dir) {
            Ok(mut listing) => {
                if !force && listing.next().is_some() {
                    return Err(bad(format!(
                        "{}: the output directory is not empty (files of an earlier run would sit beside the new ones); use an empty directory or --force",
                        dir.display()
                    )));
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                std::fs::create_dir_all(dir).map_err(|e| Error::io("creating", dir, e))?;
            }
            Err(e) => return Err(Error::io("reading", dir, e)),
        }
        Ok(OutputFolder {
            dir: dir.to_path_buf(),
            #[cfg(unix)]
            root: crate::folder_at::open_root(dir)?,
        })
    }

    /// The folder as named.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// Creates the new file `name` (a `/`-separated name inside the folder,
    /// as [`member_path`] checks it, except that the writer's own names may
    /// start with a dot, as a partial file's does): whatever was there is removed first
    /// (a link itself, not its target; a regular file too, so a hard link
    /// to a file elsewhere is broken, not written through), and the file is
    /// created exclusively without following links, so nothing planted
    /// meanwhile is written through either. A regular file replaced gives
    /// its mode to the new one.
    pub fn create(&self, name: &str) -> Result<File> {
        #[cfg(unix)]
        {
            written_path(&self.dir, name)?;
            crate::folder_at::create(&crate::folder_at::place(&self.root, &self.dir, name)?)
        }
        #[cfg(not(unix))]
        self.create_by_path(name)
    }

    #[cfg(not(unix))]
    fn create_by_path(&self, name: &str) -> Result<File> {
        let (path, replaced) = self.clear_way(name, false)?;
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.custom_flags(libc::O_NOFOLLOW);
        }
        let file = options.open(&path).map_err(|e| Error::io("creating", &path, e))?;
        // a file replaced keeps its mode, as every save keeps it
        if let Some(meta) = replaced {
            file.set_permissions(meta.permissions()).map_err(|e| Error::io("setting the mode of", &path, e))?;
        }
        Ok(file)
    }

    /// Writes the file `name` atomically ([`crate::write_atomically`]), but
    /// under the folder policy: a link there is replaced by the rename, never
    /// followed to its target; a FIFO or device there is removed first.
    pub fn write_atomically<T>(&self, name: &str, write: impl FnOnce(&mut dyn Write) -> Result<T>) -> Result<T> {
        #[cfg(unix)]
        {
            written_path(&self.dir, name)?;
            crate::folder_at::write_atomically(&crate::folder_at::place(&self.root, &self.dir, name)?, write)
        }
        #[cfg(not(unix))]
        {
            let (path, _) = self.clear_way(name, true)?;
            crate::save::save_resolved(&path, None, |file| crate::save::buffered(&path, file, write))
        }
    }

    /// Renames the file `from` of the folder onto `to` (a commit, as
    /// extraction's manifest): a link at `to` is replaced, not followed, and
    /// a regular file there gives its mode to the new one, as a save keeps it.
    pub fn commit(&self, from: &str, to: &str) -> Result<()> {
        #[cfg(unix)]
        {
            written_path(&self.dir, from)?;
            written_path(&self.dir, to)?;
            let place = |name| crate::folder_at::place(&self.root, &self.dir, name);
            crate::folder_at::commit(&place(from)?, &place(to)?)
        }
        #[cfg(not(unix))]
        self.commit_by_path(from, to)
    }

    #[cfg(not(unix))]
    fn commit_by_path(&self, from: &str, to: &str) -> Result<()> {
        let source = written_path(&self.dir, from)?;
        let (target, existing) = self.clear_way(to, true)?;
        if let Some(meta) = existing {
            std::fs::set_permissions(&source, meta.permissions())
                .map_err(|e| Error::io("setting the mode of", &source, e))?;
        }
        std::fs::rename(&source, &target).map_err(|e| Error::io("renaming onto", &target, e))
    }

    /// Makes way for the file `name`: every folder on the way a real folder
    /// of this one (a link, or anything else that is not a folder, is
    /// removed and a folder made in its place), and at `name` itself
    /// nothing but a regular file kept when `keep_file` (anything else that
    /// is not a folder is removed; a folder is refused). Returns the path
    /// and the metadata of a regular file found at it, kept or removed.
    #[cfg(not(unix))]
    fn clear_way(&self, name: &str, keep_file: bool) -> Result<(PathBuf, Option<Metadata>)> {
        let path = written_path(&self.dir, name)?;
        let mut found = None;
        let mut walked = self.dir.clone();
        let mut parts = name.split('/').peekable();
        while let Some(part) = parts.next() {
            walked.push(part);
            let last = parts.peek().is_none();
            match std::fs::symlink_metadata(&walked) {
                Ok(m) if m.is_dir() && !last => {}
                Ok(m) if m.is_dir() => {
                    return Err(bad(format!(
                        "{}: a folder where a file goes; refusing to replace it",
                        walked.display()
                    )))
                }
                Ok(m) if last && keep_file && m.is_file() => found = Some(m),
                Ok(m) => {
                    if last && m.is_file() {
                        found = Some(m);
                    }
                    std::fs::remove_file(&walked).map_err(|e| Error::io("removing", &walked, e))?;
                    if !last {
                        make_dir(&walked)?;
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    if !last {
                        make_dir(&walked)?;
                    }
                }
                Err(e) => return Err(Error::io("reading", &walked, e)),
            }
        }
        Ok((path, found))
    }
}

/// The path of a file the writer names in `dir`: as [`member_path`], but a
/// dot-led name (the writer's own partial file) is allowed.
fn written_path(dir: &Path, name: &str) -> Result<PathBuf> {
    checked_name(dir, name, |_| true)
}

/// Makes the folder `path`; one made meanwhile by someone else must be a
/// real folder to be used.
#[cfg(not(unix))]
fn make_dir(path: &Path) -> Result<()> {
    match std::fs::create_dir(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => match std::fs::symlink_metadata(path) {
            Ok(m) if m.is_dir() => Ok(()),
            _ => Err(Error::io("creating", path, e)),
        },
        Err(e) => Err(Error::io("creating", path, e)),
    }
}
