//! An edit's failure and the file it concerns: how every door edit
//! (externalize, internalize, rewrite) attributes its errors.

use std::path::{Path, PathBuf};

use pte_core::ErrorKind;
use pte_file::PteFile;

use crate::{Error, FileKind, Identity};

/// An edit's failure, with the file it concerns (when one does).
///
/// Displays as `FILE: ERROR`, the way the CLI prints it and Python's
/// `PteError` words it.
///
/// ```
/// let e = pte::EditError::new(Some("a.pte".into()), pte::Error::new(pte::ErrorKind::Malformed, "bad"));
/// assert_eq!(e.to_string(), "a.pte: bad");
/// assert_eq!(e.error().kind(), pte::ErrorKind::Malformed);
/// ```
#[derive(Debug, Clone)]
pub struct EditError {
    file: Option<PathBuf>,
    error: Error,
}

impl EditError {
    /// An error concerning `file` (or no file in particular).
    ///
    /// ```
    /// let e = pte::EditError::new(None, pte::Error::new(pte::ErrorKind::InvalidUse, "no"));
    /// assert_eq!(e.to_string(), "no");
    /// ```
    pub fn new(file: Option<PathBuf>, error: Error) -> Self {
        EditError { file, error }
    }

    /// The file the error concerns, if any.
    ///
    /// ```
    /// let e = pte::EditError::new(Some("x.ptd".into()), pte::Error::new(pte::ErrorKind::Io, "gone"));
    /// assert_eq!(e.file(), Some(std::path::Path::new("x.ptd")));
    /// ```
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// The library error (kind, field path, byte offset).
    ///
    /// ```
    /// let e = pte::EditError::new(None, pte::Error::new(pte::ErrorKind::Io, "gone"));
    /// assert_eq!(e.error().message(), "gone");
    /// ```
    pub fn error(&self) -> &Error {
        &self.error
    }

    /// The library error, owned.
    ///
    /// ```
    /// let e = pte::EditError::new(None, pte::Error::new(pte::ErrorKind::Io, "gone"));
    /// assert_eq!(e.into_error().kind(), pte::ErrorKind::Io);
    /// ```
    pub fn into_error(self) -> Error {
        self.error
    }
}

impl std::fmt::Display for EditError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.file {
            Some(p) => write!(f, "{}: {}", p.display(), self.error),
            None => write!(f, "{}", self.error),
        }
    }
}

impl std::error::Error for EditError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// Attaches `file` to a library error.
pub(crate) fn about(file: &Path) -> impl Fn(Error) -> EditError + '_ {
    move |error| EditError { file: Some(file.to_path_buf()), error }
}

pub(crate) fn general(error: Error) -> EditError {
    EditError { file: None, error }
}

/// Reads `bytes` as a program, refusing another kind by name.
pub(crate) fn program<'a>(file: &Path, bytes: &'a [u8]) -> Result<PteFile<'a>, EditError> {
    require(file, bytes, FileKind::Pte)?;
    PteFile::from_bytes(bytes).map_err(about(file))
}

/// Refuses bytes that are not of `want`'s kind, naming what they are.
pub(crate) fn require(file: &Path, bytes: &[u8], want: FileKind) -> Result<(), EditError> {
    if crate::identify(bytes) == Identity::ExecuTorch(want) {
        return Ok(());
    }
    let what = crate::describe(bytes);
    Err(about(file)(Error::new(ErrorKind::InvalidUse, format!("{what}; this takes {want}"))))
}
