//! The fenced part: every `extern "C"` entry point, and the few helpers
//! that turn C's pointers into Rust references. This is the only code of
//! the crate allowed `unsafe`; each block says why it holds.
//!
//! Every entry point runs inside [`guard`]: a panic is caught and becomes
//! `PTE_STATUS_INTERNAL` (never unwinding into C), and the outcome is
//! recorded as this thread's last error. Out-pointers are checked before
//! any work, so a call that fails for a null pointer has done nothing.

use std::ffi::{c_char, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::ptr;

use crate::error::{set_last, Fail, PteStatus};

pub(crate) mod answers;
pub(crate) mod blobs;
pub(crate) mod files;
pub(crate) mod samples;
pub(crate) mod verify;

/// Runs one entry point's body: a panic inside becomes `Internal`, and the
/// outcome is recorded for `pte_last_error` on this thread.
fn guard(body: impl FnOnce() -> Result<(), Fail>) -> PteStatus {
    // AssertUnwindSafe: after a panic nothing the body touched is observed
    // again, except the handle's lazily built tables, whose `OnceLock`
    // stays empty when the closure building them panics.
    let outcome = catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|payload| {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown".to_string());
        Err(Fail::new(PteStatus::Internal, format!("internal error (a defect of libpte, please report it): {what}")))
    });
    match outcome {
        Ok(()) => {
            set_last(PteStatus::Ok, "");
            PteStatus::Ok
        }
        Err(f) => {
            set_last(f.status, &f.message);
            f.status
        }
    }
}

/// `*p` as a shared reference; a null `p` is refused.
///
/// # Safety
/// `p` is null, or points to a live, properly aligned `T` that nothing
/// mutates for `'a`.
unsafe fn borrow<'a, T>(p: *const T, what: &str) -> Result<&'a T, Fail> {
    // SAFETY: the caller's promise: null (answered by `as_ref`) or a live `T`.
    unsafe { p.as_ref() }.ok_or_else(|| Fail::null(what))
}

/// Checks an out-pointer before any work is done.
fn need<T>(out: *mut T, what: &str) -> Result<(), Fail> {
    if out.is_null() {
        return Err(Fail::null(what));
    }
    Ok(())
}

/// Writes `v` through an out-pointer; a null `out` is refused.
///
/// # Safety
/// `out` is null, or valid for writing a `T` (it need not be initialised).
unsafe fn put<T>(out: *mut T, v: T, what: &str) -> Result<(), Fail> {
    need(out, what)?;
    // SAFETY: not null (checked above) and writable, by the caller's promise;
    // `write` does not read or drop the old (maybe uninitialised) value.
    unsafe { out.write(v) };
    Ok(())
}

/// A NUL-terminated C string.
///
/// # Safety
/// `p` is null, or points to a NUL-terminated string live and unchanged for `'a`.
unsafe fn c_str<'a>(p: *const c_char, what: &str) -> Result<&'a CStr, Fail> {
    if p.is_null() {
        return Err(Fail::null(what));
    }
    // SAFETY: not null (checked above), NUL-terminated and live by the caller's promise.
    Ok(unsafe { CStr::from_ptr(p) })
}

/// A path from C: bytes as the platform takes them (any bytes on Unix,
/// UTF-8 elsewhere); an empty one is refused.
///
/// # Safety
/// As [`c_str`].
unsafe fn path(p: *const c_char, what: &str) -> Result<PathBuf, Fail> {
    // SAFETY: forwarded: the caller's promise is c_str's.
    let s = unsafe { c_str(p, what) }?;
    if s.is_empty() {
        return Err(Fail::new(PteStatus::InvalidArgument, format!("{what} is empty")));
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Ok(PathBuf::from(std::ffi::OsStr::from_bytes(s.to_bytes())))
    }
    #[cfg(not(unix))]
    {
        s.to_str().map(PathBuf::from).map_err(|_| Fail::new(PteStatus::InvalidArgument, format!("{what} is not UTF-8")))
    }
}

/// `len` bytes at `data`; a null pointer or a zero length is refused.
///
/// # Safety
/// `data` is null, or valid for reading `len` bytes that nothing mutates for `'a`.
unsafe fn bytes<'a>(data: *const u8, len: usize, what: &str) -> Result<&'a [u8], Fail> {
    if data.is_null() {
        return Err(Fail::null(what));
    }
    if len == 0 {
        return Err(Fail::new(PteStatus::InvalidArgument, format!("{what} has length 0")));
    }
    if isize::try_from(len).is_err() {
        return Err(Fail::new(PteStatus::InvalidArgument, format!("{what}: length {len} is too large")));
    }
    // SAFETY: not null, readable for `len` bytes and unchanged by the caller's
    // promise; `len` fits an isize (checked), as `from_raw_parts` requires.
    Ok(unsafe { std::slice::from_raw_parts(data, len) })
}

/// An array of `n` pointers; zero entries need no array (null allowed).
///
/// # Safety
/// `items` is null, or valid for reading `n` pointers that nothing mutates for `'a`.
unsafe fn array<'a, T>(items: *const *const T, n: usize, what: &str) -> Result<&'a [*const T], Fail> {
    if n == 0 {
        return Ok(&[]);
    }
    if items.is_null() {
        return Err(Fail::null(what));
    }
    if n.checked_mul(std::mem::size_of::<*const T>()).and_then(|b| isize::try_from(b).ok()).is_none() {
        return Err(Fail::new(PteStatus::InvalidArgument, format!("{what}: {n} entries is too many")));
    }
    // SAFETY: not null, readable for `n` pointers by the caller's promise,
    // and the total size fits an isize (checked).
    Ok(unsafe { std::slice::from_raw_parts(items, n) })
}

/// Gives a value to C as an owned pointer, freed by [`free`].
fn give<T>(v: T) -> *mut T {
    Box::into_raw(Box::new(v))
}

/// Frees what [`give`] gave and nulls the caller's pointer: a second free
/// of the same variable is a no-op.
///
/// # Safety
/// `slot` is null, or valid for reading and writing a pointer that is null
/// or came from [`give`] with this `T` and was not freed since.
unsafe fn free<T>(slot: *mut *mut T, what: &str) -> Result<(), Fail> {
    if slot.is_null() {
        return Err(Fail::null(what));
    }
    // SAFETY: not null and readable/writable by the caller's promise; `replace`
    // reads the old pointer and nulls the slot in one step.
    let p = unsafe { ptr::replace(slot, ptr::null_mut()) };
    if !p.is_null() {
        // SAFETY: `p` came from `Box::into_raw` in `give` (the caller's promise)
        // and is not freed twice: the slot that held it is null from now on.
        drop(unsafe { Box::from_raw(p) });
    }
    Ok(())
}

/// Gives a string to C, freed by `pte_string_free`.
fn give_string(s: String) -> *mut c_char {
    crate::error::c_string(&s).into_raw()
}

/// The body of every entry point that gives one JSON text of a handle
/// (`pte_summary_json`, `pte_size_json`, ...): `*out` nulled first, the
/// handle borrowed, `make`'s text given to C.
///
/// # Safety
/// `handle` is null or a live handle; `out` is null or valid for writing a pointer.
unsafe fn handle_json(
    handle: *const crate::handle::PteHandle,
    out: *mut *mut c_char,
    make: impl FnOnce(&crate::handle::PteHandle) -> Result<String, Fail>,
) -> PteStatus {
    guard(|| {
        // SAFETY: `out` is null or writable, by this function's contract.
        unsafe { put(out, ptr::null_mut(), "out") }?;
        // SAFETY: `handle` is null or live, by this function's contract.
        let h = unsafe { borrow(handle, "handle") }?;
        let s = make(h)?;
        // SAFETY: as above.
        unsafe { put(out, give_string(s), "out") }
    })
}

/// Frees a string from [`give_string`] and nulls the caller's pointer.
///
/// # Safety
/// As [`free`], for a pointer from [`give_string`].
unsafe fn free_string(slot: *mut *mut c_char) -> Result<(), Fail> {
    if slot.is_null() {
        return Err(Fail::null("string"));
    }
    // SAFETY: as in `free`: the slot is readable and writable.
    let p = unsafe { ptr::replace(slot, ptr::null_mut()) };
    if !p.is_null() {
        // SAFETY: `p` came from `CString::into_raw` (the caller's promise) and
        // is freed once: its slot is null from now on.
        drop(unsafe { CString::from_raw(p) });
    }
    Ok(())
}
