//! Typed errors: a matchable kind, a field path and a byte offset.

use std::fmt;
use std::io;
use std::path::Path;
use std::sync::Arc;

/// What class of problem an error is.
///
/// New kinds may be added; match with a wildcard arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The bytes do not form a valid program.
    Malformed,
    /// Valid flatbuffer, but something this crate cannot represent or does
    /// not support (an unknown union tag, for example).
    Unsupported,
    /// A configured limit (such as `pte_schema::Limits`) was exceeded.
    LimitExceeded,
    /// The caller asked for something inconsistent (bad option, too large a model).
    InvalidUse,
    /// Reading or writing a file or stream failed.
    Io,
    /// Another process holds the file (an in-place edit is under way), or
    /// changed it behind this one's back.
    Busy,
    /// A stop signal (Ctrl-C, `SIGTERM`) arrived during a save, which was
    /// abandoned with its temporary file ([`crate::stop_saves_on_signals`]).
    Interrupted,
}

/// An error from reading, verifying or writing any of the formats: what is
/// wrong, where (field path) and at which byte, plus the I/O error behind it.
///
/// ```
/// let err = pte_core::Error::new(pte_core::ErrorKind::Malformed, "bad magic").at_path("header").at_offset(8);
/// assert_eq!(err.to_string(), "bad magic at header (byte 8)");
/// ```
#[derive(Clone, Debug)]
pub struct Error {
    kind: ErrorKind,
    path: String,
    offset: Option<u64>,
    message: String,
    // Shared so that errors stay cheap to clone; compared by kind and text only.
    source: Option<Arc<io::Error>>,
}

impl PartialEq for Error {
    fn eq(&self, other: &Self) -> bool {
        self.kind == other.kind
            && self.path == other.path
            && self.offset == other.offset
            && self.message == other.message
    }
}

impl Eq for Error {}

impl Error {
    /// Builds an error.
    ///
    /// ```
    /// let e = pte_core::Error::new(pte_core::ErrorKind::InvalidUse, "bad alignment");
    /// assert_eq!(e.message(), "bad alignment");
    /// ```
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error { kind, path: String::new(), offset: None, message: message.into(), source: None }
    }

    /// Sets the field path (`execution_plan[0].values[7]`).
    ///
    /// ```
    /// let e = pte_core::Error::new(pte_core::ErrorKind::Malformed, "x").at_path("a.b");
    /// assert_eq!(e.path(), "a.b");
    /// ```
    pub fn at_path(mut self, path: impl Into<String>) -> Self {
        self.path = path.into();
        self
    }

    /// Sets the byte offset in the input.
    ///
    /// ```
    /// let e = pte_core::Error::new(pte_core::ErrorKind::Malformed, "x").at_offset(12);
    /// assert_eq!(e.offset(), Some(12));
    /// ```
    pub fn at_offset(mut self, offset: u64) -> Self {
        self.offset = Some(offset);
        self
    }

    /// The kind, for matching.
    ///
    /// ```
    /// let e = pte_core::Error::new(pte_core::ErrorKind::Unsupported, "x");
    /// assert!(matches!(e.kind(), pte_core::ErrorKind::Unsupported));
    /// ```
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// Field path, empty when the error concerns the whole buffer.
    ///
    /// ```
    /// assert_eq!(pte_core::Error::new(pte_core::ErrorKind::Malformed, "x").path(), "");
    /// ```
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Byte offset in the input, when known.
    ///
    /// ```
    /// assert_eq!(pte_core::Error::new(pte_core::ErrorKind::Malformed, "x").offset(), None);
    /// ```
    pub fn offset(&self) -> Option<u64> {
        self.offset
    }

    /// The human-readable description, without path and offset.
    ///
    /// ```
    /// assert_eq!(pte_core::Error::new(pte_core::ErrorKind::Malformed, "x").message(), "x");
    /// ```
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if !self.path.is_empty() {
            write!(f, " at {}", self.path)?;
        }
        if let Some(o) = self.offset {
            write!(f, " (byte {o})")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source.as_deref().map(|e| e as &(dyn std::error::Error + 'static))
    }
}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Self {
        let message = e.to_string();
        Error { kind: ErrorKind::Io, path: String::new(), offset: None, message, source: Some(Arc::new(e)) }
    }
}

impl Error {
    /// An I/O failure of `operation` on `path`, keeping the OS error as the
    /// [`source`](std::error::Error::source).
    ///
    /// ```
    /// use std::error::Error as _;
    /// let os = std::io::Error::from(std::io::ErrorKind::NotFound);
    /// let e = pte_core::Error::io("opening", std::path::Path::new("m.pte"), os);
    /// assert!(e.to_string().starts_with("opening m.pte: "));
    /// assert_eq!(e.io_kind(), Some(std::io::ErrorKind::NotFound));
    /// assert!(e.source().is_some());
    /// ```
    pub fn io(operation: &str, path: &Path, e: io::Error) -> Self {
        let message = format!("{operation} {}: {e}", path.display());
        Error { kind: ErrorKind::Io, path: String::new(), offset: None, message, source: Some(Arc::new(e)) }
    }

    /// Names `operation` and `path` in an I/O error made by `?` from a bare
    /// `io::Error` (which knows neither); any other error is returned as is.
    pub(crate) fn located(mut self, operation: &str, path: &Path) -> Self {
        let bare = match &self.source {
            Some(s) if self.kind == ErrorKind::Io && self.path.is_empty() && self.message == s.to_string() => {
                Some(format!("{operation} {}: {s}", path.display()))
            }
            _ => None,
        };
        if let Some(message) = bare {
            self.message = message;
        }
        self
    }

    /// The kind of the underlying OS error, for an I/O error that kept one.
    ///
    /// ```
    /// assert_eq!(pte_core::Error::new(pte_core::ErrorKind::Io, "x").io_kind(), None);
    /// ```
    pub fn io_kind(&self) -> Option<io::ErrorKind> {
        self.source.as_deref().map(io::Error::kind)
    }
}

impl Error {
    /// Prefixes the path with `parent` (for errors raised inside a nested structure).
    ///
    /// ```
    /// let e = pte_core::Error::new(pte_core::ErrorKind::Malformed, "x").at_path("b").within("a");
    /// assert_eq!(e.path(), "a.b");
    /// ```
    pub fn within(mut self, parent: &str) -> Self {
        self.path = if self.path.is_empty() { parent.to_string() } else { format!("{parent}.{}", self.path) };
        self
    }

    /// Shifts the byte offset by `base` (for errors raised on a sub-slice).
    ///
    /// ```
    /// let e = pte_core::Error::new(pte_core::ErrorKind::Malformed, "x").at_offset(4).shifted(100);
    /// assert_eq!(e.offset(), Some(104));
    /// ```
    pub fn shifted(mut self, base: u64) -> Self {
        self.offset = self.offset.map(|o| o.saturating_add(base));
        self
    }
}

/// Result alias for this crate.
pub type Result<T> = std::result::Result<T, Error>;
