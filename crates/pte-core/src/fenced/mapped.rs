//! Read-only memory maps of input files.

use std::fs::File;
use std::path::Path;

use crate::error::{Error, Result};
use crate::input::open_input;

/// A file mapped into memory, read without copying.
///
/// Mapping is `unsafe` in memmap2 because another process could change the
/// file while it is mapped. Every reader in this workspace bounds-checks each
/// access, so such a change can only turn into parse errors, never into
/// out-of-bounds reads; that is why the map lives in the fenced module.
///
/// ```no_run
/// let map = pte_core::MappedFile::open("model.pte")?;
/// println!("{} bytes", map.bytes().len());
/// # Ok::<(), pte_core::Error>(())
/// ```
pub struct MappedFile {
    map: Option<memmap2::Mmap>,
    /// The file the map was made from (a second handle on the same open
    /// file): writers copy segment bytes from it with the kernel's file to
    /// file copy, and must read the very file that was mapped, never a
    /// second open of its path that a rename may since have replaced.
    file: Option<File>,
}

impl MappedFile {
    /// Maps `path` read-only. An empty file maps to an empty slice.
    ///
    /// ```
    /// let e = pte_core::MappedFile::open("/nonexistent/x.pte").err().map(|e| e.kind());
    /// assert_eq!(e, Some(pte_core::ErrorKind::Io));
    /// ```
    pub fn open(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        MappedFile::from_file(&open_input(path)?, path)
    }

    /// Maps an already open file (for example one held under an
    /// [`EditLock`](crate::EditLock)); `path` only names it in errors.
    ///
    /// ```
    /// use std::io::Write;
    /// let mut f = tempfile::tempfile()?;
    /// f.write_all(b"abc")?;
    /// let map = pte_core::MappedFile::from_file(&f, "temp".as_ref())?;
    /// assert_eq!(map.bytes(), b"abc");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_file(file: &File, path: &Path) -> Result<Self> {
        let len = file.metadata().map_err(|e| Error::io("reading the metadata of", path, e))?.len();
        if len == 0 {
            return Ok(MappedFile { map: None, file: None });
        }
        // SAFETY: read-only private mapping; see the type's documentation.
        #[allow(unsafe_code)]
        let map = unsafe { memmap2::Mmap::map(file) }.map_err(|e| Error::io("mapping", path, e))?;
        // a handle that cannot be duplicated only costs the kernel copy
        Ok(MappedFile { map: Some(map), file: file.try_clone().ok() })
    }

    /// The mapped file itself, for copying ranges of it file to file
    /// (`None` for an empty file, which has nothing to copy).
    ///
    /// ```
    /// use std::io::Write;
    /// let mut f = tempfile::tempfile()?;
    /// f.write_all(b"abc")?;
    /// let map = pte_core::MappedFile::from_file(&f, "temp".as_ref())?;
    /// assert_eq!(map.file().map(|f| f.metadata().map(|m| m.len()).ok()), Some(Some(3)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn file(&self) -> Option<&File> {
        self.file.as_ref()
    }

    /// The mapped bytes.
    ///
    /// ```no_run
    /// let map = pte_core::MappedFile::open("model.pte")?;
    /// assert!(map.bytes().len() > 0);
    /// # Ok::<(), pte_core::Error>(())
    /// ```
    pub fn bytes(&self) -> &[u8] {
        self.map.as_deref().unwrap_or(&[])
    }

    /// Tells the kernel the bytes will be read front to back (before copying
    /// a whole file, such as a rewrite); a hint, so failures are ignored.
    ///
    /// ```no_run
    /// pte_core::MappedFile::open("model.pte")?.advise_sequential();
    /// # Ok::<(), pte_core::Error>(())
    /// ```
    pub fn advise_sequential(&self) {
        #[cfg(unix)]
        if let Some(m) = &self.map {
            let _ = m.advise(memmap2::Advice::Sequential);
            let _ = m.advise(memmap2::Advice::WillNeed);
        }
    }
}
