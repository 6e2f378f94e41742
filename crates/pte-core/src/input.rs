//! Opening input files: only regular files are read, so a named pipe can
//! never block a reader forever and a directory gets a message that says so.

use std::fs::{File, FileType, Metadata};
use std::path::Path;

use crate::error::{Error, ErrorKind, Result};

/// Opens `path` for reading after checking that it is a regular file
/// (symlinks followed). A FIFO, socket, device or directory is refused with
/// [`ErrorKind::InvalidUse`] before it is opened, naming what it is.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let e = pte_core::open_input(dir.path()).unwrap_err();
/// assert!(e.to_string().contains("is a directory"), "{e}");
/// std::fs::write(dir.path().join("a.pte"), b"x")?;
/// assert!(pte_core::open_input(&dir.path().join("a.pte")).is_ok());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn open_input(path: &Path) -> Result<File> {
    let meta = std::fs::metadata(path).map_err(|e| Error::io("reading", path, e))?;
    refuse_irregular(path, &meta)?;
    let file = File::open(path).map_err(|e| Error::io("opening", path, e))?;
    // The path may have been swapped between the check and the open.
    let meta = file.metadata().map_err(|e| Error::io("reading the metadata of", path, e))?;
    refuse_irregular(path, &meta)?;
    Ok(file)
}

/// Reads a whole regular file (see [`open_input`]); for small inputs such as
/// JSON, where a memory map buys nothing.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// std::fs::write(dir.path().join("a.json"), b"{}")?;
/// assert_eq!(pte_core::read_input(&dir.path().join("a.json"))?, b"{}");
/// assert!(pte_core::read_input(dir.path()).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_input(path: &Path) -> Result<Vec<u8>> {
    use std::io::Read;
    let mut file = open_input(path)?;
    let mut out = Vec::new();
    file.read_to_end(&mut out).map_err(|e| Error::io("reading", path, e))?;
    Ok(out)
}

/// Refuses anything but a regular file, naming what it is.
pub(crate) fn refuse_irregular(path: &Path, meta: &Metadata) -> Result<()> {
    if meta.is_file() {
        return Ok(());
    }
    Err(Error::new(
        ErrorKind::InvalidUse,
        format!("{} is {}, not a regular file", path.display(), describe(meta.file_type())),
    ))
}

/// Names a file type for messages ("a directory", "a named pipe (FIFO)").
fn describe(t: FileType) -> &'static str {
    if t.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
    }
    "not a regular file"
}

/// The identity of a file on disk (device and inode on Unix), to tell when
/// two paths name the same file through a symlink, a hard link or `..`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FileId {
    dev: u64,
    ino: u64,
}

impl FileId {
    /// The identity of the file `path` names (symlinks followed), or `None`
    /// when it does not exist or cannot be looked up.
    ///
    /// ```
    /// let dir = tempfile::tempdir()?;
    /// let a = dir.path().join("a");
    /// std::fs::write(&a, b"x")?;
    /// std::fs::hard_link(&a, dir.path().join("b"))?;
    /// assert_eq!(pte_core::FileId::of(&a), pte_core::FileId::of(&dir.path().join("b")));
    /// assert_eq!(pte_core::FileId::of(&dir.path().join("c")), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn of(path: &Path) -> Option<FileId> {
        std::fs::metadata(path).ok().map(|m| FileId::from_metadata(&m))
    }

    /// The identity recorded in `meta`.
    ///
    /// ```
    /// let f = tempfile::tempfile()?;
    /// let id = pte_core::FileId::from_metadata(&f.metadata()?);
    /// assert_eq!(id, pte_core::FileId::from_metadata(&f.metadata()?));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn from_metadata(meta: &Metadata) -> FileId {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            FileId { dev: meta.dev(), ino: meta.ino() }
        }
        #[cfg(not(unix))]
        {
            // Without inode numbers, size and modification time are the best
            // identity std offers; aliasing is then judged by canonical paths.
            let mtime = meta.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok());
            FileId { dev: meta.len(), ino: mtime.map_or(0, |d| d.as_nanos() as u64) }
        }
    }
}

/// Refuses outputs that alias each other or an input, before anything is
/// written: two outputs naming one file would leave only the last, and an
/// output naming an input would destroy data still being read. With
/// `in_place_ok`, the first output may name the first input (an in-place
/// edit, atomic by rename); the answer says whether it does.
///
/// Every writer of the workspace (the `pte` command and the Python package)
/// asks this one question, so they refuse the same paths with the same words.
///
/// ```
/// use std::path::Path;
/// let dir = tempfile::tempdir()?;
/// let (a, b) = (dir.path().join("a.pte"), dir.path().join("b.pte"));
/// std::fs::write(&a, b"x")?;
/// assert_eq!(pte_core::check_outputs(&[&a], &[&b], false)?, false);
/// assert_eq!(pte_core::check_outputs(&[&a], &[&a], true)?, true);
/// let e = pte_core::check_outputs(&[&a], &[&b, &b], false).unwrap_err();
/// assert!(e.to_string().contains("two outputs name the same file"), "{e}");
/// let e = pte_core::check_outputs(&[&a], &[&b, &a], true).unwrap_err();
/// assert!(e.to_string().contains("an output names an input"), "{e}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn check_outputs(inputs: &[&Path], outputs: &[&Path], in_place_ok: bool) -> Result<bool> {
    for (i, a) in outputs.iter().enumerate() {
        for b in outputs.iter().skip(i.saturating_add(1)) {
            if same_file(a, b) {
                return Err(aliased(a, b, "two outputs name the same file; one would overwrite the other"));
            }
        }
    }
    let mut in_place = false;
    for (i, out) in outputs.iter().enumerate() {
        for (j, inp) in inputs.iter().enumerate() {
            if !same_file(out, inp) {
                continue;
            }
            if in_place_ok && i == 0 && j == 0 {
                // The output path is what gets replaced: through a hard
                // link, the input's own name would keep the old file and
                // the named output would never be written.
                in_place = true;
            } else {
                return Err(aliased(out, inp, "an output names an input; writing it would destroy data still needed"));
            }
        }
    }
    Ok(in_place)
}

fn aliased(a: &Path, b: &Path, why: &str) -> Error {
    let same = if a == b { String::new() } else { format!(" ({} and {} are one file)", a.display(), b.display()) };
    Error::new(ErrorKind::InvalidUse, format!("{why}{same}; nothing was written"))
}

/// Where a path will land once written: its directory made absolute and its
/// symlinks followed, so that two spellings of one new file compare equal.
fn landing(path: &Path) -> Option<std::path::PathBuf> {
    let name = path.file_name()?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    Some(std::fs::canonicalize(dir).ok()?.join(name))
}

/// Whether two paths name the same file: the same existing file (same
/// [`FileId`]), or the same not-yet-existing location.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let a = dir.path().join("a.pte");
/// assert!(pte_core::same_file(&a, &dir.path().join(".").join("a.pte")));
/// std::fs::write(&a, b"x")?;
/// std::os::unix::fs::symlink(&a, dir.path().join("link.pte"))?;
/// assert!(pte_core::same_file(&a, &dir.path().join("link.pte")));
/// assert!(!pte_core::same_file(&a, &dir.path().join("b.pte")));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (FileId::of(a), FileId::of(b)) {
        (Some(x), Some(y)) => x == y,
        (None, None) => matches!((landing(a), landing(b)), (Some(x), Some(y)) if x == y),
        _ => false,
    }
}
