//! Typed errors: a matchable kind, a field path and a byte offset.

use std::fmt;

/// What class of problem an error is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The bytes do not form a valid program.
    Malformed,
    /// Valid flatbuffer, but something this crate cannot represent or does
    /// not support (an unknown union tag, for example).
    Unsupported,
    /// A configured [`Limits`](crate::Limits) bound was exceeded.
    LimitExceeded,
    /// The caller asked for something inconsistent (bad option, too large a model).
    InvalidUse,
    /// Reading or writing a file or stream failed.
    Io,
}

/// An error from decoding or encoding a program flatbuffer.
///
/// ```
/// let err = pte_schema::decode_program(b"not a flatbuffer", &pte_schema::Limits::default()).unwrap_err();
/// assert_eq!(err.kind(), pte_schema::ErrorKind::Malformed);
/// println!("{err}"); // says what is wrong, where (field path) and at which byte
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    path: String,
    offset: Option<u64>,
    message: String,
}

impl Error {
    /// Builds an error.
    ///
    /// ```
    /// let e = pte_schema::Error::new(pte_schema::ErrorKind::InvalidUse, "bad alignment");
    /// assert_eq!(e.message(), "bad alignment");
    /// ```
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error { kind, path: String::new(), offset: None, message: message.into() }
    }

    /// Sets the field path (`execution_plan[0].values[7]`).
    ///
    /// ```
    /// let e = pte_schema::Error::new(pte_schema::ErrorKind::Malformed, "x").at_path("a.b");
    /// assert_eq!(e.path(), "a.b");
    /// ```
    pub fn at_path(mut self, path: impl Into<String>) -> Self {
        self.path = path.into();
        self
    }

    /// Sets the byte offset in the input.
    ///
    /// ```
    /// let e = pte_schema::Error::new(pte_schema::ErrorKind::Malformed, "x").at_offset(12);
    /// assert_eq!(e.offset(), Some(12));
    /// ```
    pub fn at_offset(mut self, offset: u64) -> Self {
        self.offset = Some(offset);
        self
    }

    /// The kind, for matching.
    ///
    /// ```
    /// let e = pte_schema::Error::new(pte_schema::ErrorKind::Unsupported, "x");
    /// assert!(matches!(e.kind(), pte_schema::ErrorKind::Unsupported));
    /// ```
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// Field path, empty when the error concerns the whole buffer.
    ///
    /// ```
    /// assert_eq!(pte_schema::Error::new(pte_schema::ErrorKind::Malformed, "x").path(), "");
    /// ```
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Byte offset in the input, when known.
    ///
    /// ```
    /// assert_eq!(pte_schema::Error::new(pte_schema::ErrorKind::Malformed, "x").offset(), None);
    /// ```
    pub fn offset(&self) -> Option<u64> {
        self.offset
    }

    /// The human-readable description, without path and offset.
    ///
    /// ```
    /// assert_eq!(pte_schema::Error::new(pte_schema::ErrorKind::Malformed, "x").message(), "x");
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

impl std::error::Error for Error {}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::new(ErrorKind::Io, e.to_string())
    }
}

impl Error {
    /// Prefixes the path with `parent` (for errors raised inside a nested structure).
    ///
    /// ```
    /// let e = pte_schema::Error::new(pte_schema::ErrorKind::Malformed, "x").at_path("b").within("a");
    /// assert_eq!(e.path(), "a.b");
    /// ```
    pub fn within(mut self, parent: &str) -> Self {
        self.path = if self.path.is_empty() { parent.to_string() } else { format!("{parent}.{}", self.path) };
        self
    }

    /// Shifts the byte offset by `base` (for errors raised on a sub-slice).
    ///
    /// ```
    /// let e = pte_schema::Error::new(pte_schema::ErrorKind::Malformed, "x").at_offset(4).shifted(100);
    /// assert_eq!(e.offset(), Some(104));
    /// ```
    pub fn shifted(mut self, base: u64) -> Self {
        self.offset = self.offset.map(|o| o.saturating_add(base));
        self
    }
}

/// Result alias for this crate.
pub type Result<T> = std::result::Result<T, Error>;
