//! Status codes and the per-thread last error.
//!
//! Every entry point returns a [`PteStatus`]; the message that goes with the
//! last one returned on a thread is kept in that thread's slot, so two
//! threads calling at once never see each other's messages.

use std::cell::RefCell;
use std::ffi::{c_char, CString};

/// What an entry point returns: `PTE_STATUS_OK`, or why it failed (the
/// message is [`crate::pte_last_error`]).
///
/// ```
/// assert_eq!(pte_c::PteStatus::Ok as i32, 0);
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PteStatus {
    /// Success.
    Ok = 0,
    /// A required pointer argument was null.
    NullPointer = 1,
    /// An argument is unusable: zero length, a path that is not a file
    /// name, an option out of range.
    InvalidArgument = 2,
    /// An index past the end of what it counts.
    OutOfRange = 3,
    /// The operation does not apply to this file's kind (the summary of a
    /// `.ptd`, the samples of a `.pte`).
    WrongKind = 4,
    /// The bytes are not a valid file of their kind.
    Malformed = 5,
    /// Not an ExecuTorch file, or something this library cannot represent.
    Unsupported = 6,
    /// A reading limit was exceeded.
    LimitExceeded = 7,
    /// Reading or writing a file failed.
    Io = 8,
    /// Another process holds or changed the file.
    Busy = 9,
    /// A stop signal arrived during a save, which was abandoned.
    Interrupted = 10,
    /// A defect of this library (a caught panic); the message says where.
    Internal = 11,
}

/// A failure on its way to the caller: the status and its message.
#[derive(Debug)]
pub(crate) struct Fail {
    pub(crate) status: PteStatus,
    pub(crate) message: String,
}

impl Fail {
    pub(crate) fn new(status: PteStatus, message: impl Into<String>) -> Fail {
        Fail { status, message: message.into() }
    }

    pub(crate) fn null(what: &str) -> Fail {
        Fail::new(PteStatus::NullPointer, format!("{what} is a null pointer"))
    }

    pub(crate) fn range(what: &str, index: usize, len: usize) -> Fail {
        Fail::new(PteStatus::OutOfRange, format!("{what} {index} is past the end ({len})"))
    }

    pub(crate) fn kind(what: &str, kind: pte_core::FileKind) -> Fail {
        Fail::new(PteStatus::WrongKind, format!("{what} does not apply to a {kind} file"))
    }
}

impl From<pte_core::Error> for Fail {
    fn from(e: pte_core::Error) -> Fail {
        use pte_core::ErrorKind as K;
        let status = match e.kind() {
            K::Malformed => PteStatus::Malformed,
            K::Unsupported => PteStatus::Unsupported,
            K::LimitExceeded => PteStatus::LimitExceeded,
            K::InvalidUse => PteStatus::InvalidArgument,
            K::Io => PteStatus::Io,
            K::Busy => PteStatus::Busy,
            K::Interrupted => PteStatus::Interrupted,
            _ => PteStatus::Internal,
        };
        Fail::new(status, e.to_string())
    }
}

impl From<pte::EditError> for Fail {
    /// The status of the library error, the message naming the file it concerns.
    fn from(e: pte::EditError) -> Fail {
        let message = e.to_string();
        Fail { message, ..Fail::from(e.into_error()) }
    }
}

impl From<pte_samples::Error> for Fail {
    fn from(e: pte_samples::Error) -> Fail {
        // a sidecar that breaks a sample rule is a malformed package
        let status = match e.kind() {
            pte_samples::ErrorKind::Io => PteStatus::Io,
            pte_samples::ErrorKind::LimitExceeded => PteStatus::LimitExceeded,
            pte_samples::ErrorKind::Unsupported => PteStatus::Unsupported,
            _ => PteStatus::Malformed,
        };
        Fail::new(status, e.to_string())
    }
}

/// A C string of `s`; a NUL inside (a hostile file's names may hold one)
/// becomes U+FFFD, so the text is never cut short silently.
pub(crate) fn c_string(s: &str) -> CString {
    CString::new(s.replace('\0', "\u{FFFD}")).unwrap_or_default()
}

struct Last {
    status: PteStatus,
    message: CString,
}

thread_local! {
    static LAST: RefCell<Last> = RefCell::new(Last { status: PteStatus::Ok, message: CString::default() });
}

/// Records the outcome of an entry point on this thread.
pub(crate) fn set_last(status: PteStatus, message: &str) {
    LAST.with(|l| {
        if let Ok(mut l) = l.try_borrow_mut() {
            l.status = status;
            l.message = c_string(message);
        }
    });
}

/// This thread's last message; the pointer stays valid until the next
/// entry point called on this thread.
pub(crate) fn last_message() -> *const c_char {
    LAST.with(|l| l.try_borrow().map_or(c"".as_ptr(), |l| l.message.as_ptr()))
}

/// This thread's last status.
pub(crate) fn last_status() -> PteStatus {
    LAST.with(|l| l.try_borrow().map_or(PteStatus::Internal, |l| l.status))
}
