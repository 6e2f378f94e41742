//! The one error type of the command and its exit-code contract:
//! 0 success, 1 the file was read and found wanting (verify violations, a
//! failed samples check), 2 bad input, usage or I/O.

use std::fmt::Display;
use std::path::Path;

/// Which side of the contract a failure falls on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Exit {
    /// The input was read and judged: it breaks a rule (exit 1).
    Invalid = 1,
    /// The input could not be used, the arguments are wrong, or I/O failed (exit 2).
    BadInput = 2,
}

/// A failure that ends the command: its message, its exit status, and the
/// library error behind it (kept so its I/O source is not lost).
#[derive(Debug)]
pub(crate) struct Failure {
    pub(crate) message: String,
    pub(crate) exit: Exit,
    pub(crate) source: Option<pte_core::Error>,
    /// The message's line breaks are its own (a runner's stderr lines), so
    /// it is shown escaped line by line, not as one line.
    pub(crate) multiline: bool,
}

impl Failure {
    /// Bad input, usage or I/O (exit 2).
    pub(crate) fn bad_input(message: impl Into<String>) -> Self {
        Failure { message: message.into(), exit: Exit::BadInput, source: None, multiline: false }
    }

    /// The same failure, its line breaks its own (see [`Failure::shown`]).
    pub(crate) fn multiline(mut self) -> Self {
        self.multiline = true;
        self
    }

    /// The message as the terminal gets it: control characters escaped
    /// ([`crate::style::text`]), so a name from the file cannot move the
    /// cursor or start a line; a multi-line message line by line.
    pub(crate) fn shown(&self) -> String {
        if self.multiline {
            crate::style::text_lines(&self.message)
        } else {
            crate::style::text(&self.message).into_owned()
        }
    }

    /// The file was judged and found wanting (exit 1).
    pub(crate) fn invalid(message: impl Into<String>) -> Self {
        Failure { message: message.into(), exit: Exit::Invalid, source: None, multiline: false }
    }

    /// The process exit status.
    pub(crate) fn code(&self) -> u8 {
        self.exit as u8
    }
}

impl From<pte_core::Error> for Failure {
    fn from(e: pte_core::Error) -> Self {
        Failure { message: e.to_string(), exit: Exit::BadInput, source: Some(e), multiline: false }
    }
}

impl From<pte::EditError> for Failure {
    fn from(e: pte::EditError) -> Self {
        let message = e.to_string();
        Failure { message, exit: Exit::BadInput, source: Some(e.into_error()), multiline: false }
    }
}

impl From<pte_samples::Error> for Failure {
    fn from(e: pte_samples::Error) -> Self {
        Failure::bad_input(e.to_string())
    }
}

impl From<serde_json::Error> for Failure {
    fn from(e: serde_json::Error) -> Self {
        Failure::bad_input(e.to_string())
    }
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Self {
        pte_core::Error::from(e).into()
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source.as_ref().map(|e| e as &(dyn std::error::Error + 'static))
    }
}

pub(crate) type CmdResult = Result<(), Failure>;

/// Turns an error about `path` into the one-line failure `PATH: error`,
/// keeping a library error as the source.
pub(crate) fn at<E: Display + IntoSource>(path: &Path) -> impl Fn(E) -> Failure + '_ {
    move |e| {
        let message = format!("{}: {e}", path.display());
        Failure { message, exit: Exit::BadInput, source: e.into_source(), multiline: false }
    }
}

/// Errors that may carry a workspace error to keep as a [`Failure`]'s source.
pub(crate) trait IntoSource {
    fn into_source(self) -> Option<pte_core::Error>;
}

impl IntoSource for pte_core::Error {
    fn into_source(self) -> Option<pte_core::Error> {
        Some(self)
    }
}

impl IntoSource for std::io::Error {
    fn into_source(self) -> Option<pte_core::Error> {
        Some(self.into())
    }
}

impl IntoSource for pte_samples::Error {
    fn into_source(self) -> Option<pte_core::Error> {
        None
    }
}

impl IntoSource for serde_json::Error {
    fn into_source(self) -> Option<pte_core::Error> {
        None
    }
}

impl IntoSource for String {
    fn into_source(self) -> Option<pte_core::Error> {
        None
    }
}
