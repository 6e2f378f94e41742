//! The library, opening and closing files, their JSON texts, and saving.

use std::ffi::c_char;
use std::ptr;

use super::{borrow, bytes, free, free_string, give, guard, handle_json, need, put};
use crate::error::{last_message, last_status, PteStatus};
use crate::handle::PteHandle;
use crate::save::PteLayoutOptions;
use crate::types::{PteKind, PTE_ABI_VERSION};

/// The ABI version of the library loaded (`PTE_ABI_VERSION` of the header
/// it was built with). Thread-safe; never fails.
///
/// ```
/// assert_eq!(pte_c::pte_abi_version(), pte_c::PTE_ABI_VERSION);
/// ```
#[unsafe(no_mangle)]
pub extern "C" fn pte_abi_version() -> u32 {
    PTE_ABI_VERSION
}

/// The library's version (`0.1.0`), a static string: never freed.
/// Thread-safe; never fails.
///
/// ```
/// let v = unsafe { std::ffi::CStr::from_ptr(pte_c::pte_version()) };
/// assert_eq!(v.to_str()?, env!("CARGO_PKG_VERSION"));
/// # Ok::<(), std::str::Utf8Error>(())
/// ```
#[unsafe(no_mangle)]
pub extern "C" fn pte_version() -> *const c_char {
    const VERSION: &std::ffi::CStr =
        match std::ffi::CStr::from_bytes_with_nul(concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes()) {
            Ok(v) => v,
            Err(_) => c"unknown",
        };
    VERSION.as_ptr()
}

/// The message of the last call made on this thread: empty after a call
/// that succeeded. Owned by the library; valid until the next `pte_*` call
/// on the same thread (copy it to keep it). Each thread has its own.
///
/// ```
/// let mut h = std::ptr::null_mut();
/// assert_eq!(unsafe { pte_c::pte_open(std::ptr::null(), &mut h) }, pte_c::PteStatus::NullPointer);
/// let m = unsafe { std::ffi::CStr::from_ptr(pte_c::pte_last_error()) };
/// assert!(m.to_str()?.contains("null"));
/// # Ok::<(), std::str::Utf8Error>(())
/// ```
#[unsafe(no_mangle)]
pub extern "C" fn pte_last_error() -> *const c_char {
    last_message()
}

/// The status of the last call made on this thread (what it returned).
///
/// ```
/// assert_eq!(pte_c::pte_abi_version(), 1);
/// let mut h = std::ptr::null_mut();
/// unsafe { pte_c::pte_open(std::ptr::null(), &mut h) };
/// assert_eq!(pte_c::pte_last_status(), pte_c::PteStatus::NullPointer);
/// ```
#[unsafe(no_mangle)]
pub extern "C" fn pte_last_status() -> PteStatus {
    last_status()
}

/// Opens the file at `path` (memory-mapped read-only, never copied) and
/// recognises its kind by content. On success `*out` is a new handle the
/// caller owns and closes with `pte_close`; on failure `*out` is null.
///
/// Fails with `PTE_STATUS_IO` when the file cannot be read or mapped,
/// `PTE_STATUS_UNSUPPORTED` when it is not an ExecuTorch file (the message
/// says what it is: too short, a safetensors file, unknown bytes).
///
/// Opening is not verifying: a file of one of the four kinds opens however
/// damaged it is (a program whose identifier was damaged too, as a `.pte`),
/// and its damage shows in `pte_verify`, which succeeds with an invalid
/// report naming each broken rule (`pte_report_valid` false,
/// `pte_report_count` of `PTE_SEVERITY_VIOLATION` above 0). On such a
/// file the readers (segments, samples, JSON texts) may fail with
/// `PTE_STATUS_MALFORMED`: verify first to learn why. Thread-safe.
///
/// Another process truncating the file while it is mapped can make reads
/// of the mapping fault (SIGBUS), as with any memory map.
///
/// # Safety
/// `path` is null or a NUL-terminated string; `out` is null or valid for
/// writing a pointer.
///
/// ```
/// let path = std::ffi::CString::new(pte_testkit::corpus("linear/model.pte").to_string_lossy().as_bytes())?;
/// let mut h = std::ptr::null_mut();
/// assert_eq!(unsafe { pte_c::pte_open(path.as_ptr(), &mut h) }, pte_c::PteStatus::Ok);
/// unsafe { pte_c::pte_close(&mut h) };
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_open(path: *const c_char, out: *mut *mut PteHandle) -> PteStatus {
    guard(|| {
        // SAFETY: `out` is null or writable, by this function's contract.
        unsafe { put(out, ptr::null_mut(), "out") }?;
        // SAFETY: `path` is null or NUL-terminated, by this function's contract.
        let path = unsafe { super::path(path, "path") }?;
        let h = PteHandle::open(&path)?;
        // SAFETY: as above; checked not null.
        unsafe { put(out, give(h), "out") }
    })
}

/// Opens a file held in memory: the `len` bytes at `data` are copied once,
/// so the caller may free them as soon as this returns. The kind is read
/// from the content; `*out` is as for `pte_open`.
///
/// A null `data` is `PTE_STATUS_NULL_POINTER`, a zero `len`
/// `PTE_STATUS_INVALID_ARGUMENT`; bytes that are no ExecuTorch file are
/// `PTE_STATUS_UNSUPPORTED`. As with `pte_open`, damaged bytes of one of
/// the four kinds open, and `pte_verify` reports the damage. Thread-safe.
///
/// # Safety
/// `data` is null or valid for reading `len` bytes; `out` is null or valid
/// for writing a pointer.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("native_ptn/model.ptn"))?;
/// let mut h = std::ptr::null_mut();
/// assert_eq!(unsafe { pte_c::pte_open_bytes(bytes.as_ptr(), bytes.len(), &mut h) }, pte_c::PteStatus::Ok);
/// let mut kind = pte_c::PteKind::Unknown;
/// unsafe { pte_c::pte_kind(h, &mut kind) };
/// assert_eq!(kind, pte_c::PteKind::Ptn);
/// unsafe { pte_c::pte_close(&mut h) };
/// # Ok::<(), std::io::Error>(())
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_open_bytes(data: *const u8, len: usize, out: *mut *mut PteHandle) -> PteStatus {
    guard(|| {
        // SAFETY: `out` is null or writable, by this function's contract.
        unsafe { put(out, ptr::null_mut(), "out") }?;
        // SAFETY: `data` is null or readable for `len` bytes, by this function's
        // contract; they are copied before this call returns.
        let data = unsafe { bytes(data, len, "data") }?;
        let h = PteHandle::from_bytes(data)?;
        // SAFETY: as above; checked not null.
        unsafe { put(out, give(h), "out") }
    })
}

/// Closes a handle and sets `*handle` to null, so closing the same
/// variable twice is harmless (`*handle` null: nothing to do, `PTE_STATUS_OK`).
/// Every pointer the handle gave (blobs, names, samples) dies with it;
/// using the handle, or a copy of its pointer, after this is undefined.
/// Not to be called while another thread uses the handle.
///
/// # Safety
/// `handle` is null or valid for reading and writing a pointer, which is
/// null or a handle from `pte_open`/`pte_open_bytes` not closed since.
///
/// ```
/// let mut h: *mut pte_c::PteHandle = std::ptr::null_mut();
/// assert_eq!(unsafe { pte_c::pte_close(&mut h) }, pte_c::PteStatus::Ok);
/// assert_eq!(unsafe { pte_c::pte_close(std::ptr::null_mut()) }, pte_c::PteStatus::NullPointer);
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_close(handle: *mut *mut PteHandle) -> PteStatus {
    // SAFETY: this function's contract is `free`'s.
    guard(|| unsafe { free(handle, "handle") })
}

/// The handle's kind. Thread-safe.
///
/// # Safety
/// `handle` is null or a live handle; `out` is null or valid for writing.
///
/// ```
/// let mut k = pte_c::PteKind::Pte;
/// assert_eq!(unsafe { pte_c::pte_kind(std::ptr::null(), &mut k) }, pte_c::PteStatus::NullPointer);
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_kind(handle: *const PteHandle, out: *mut PteKind) -> PteStatus {
    guard(|| {
        // SAFETY: `handle` is null or live, by this function's contract.
        let h = unsafe { borrow(handle, "handle") }?;
        // SAFETY: `out` is null or writable, by this function's contract.
        unsafe { put(out, PteKind::from(h.kind()), "out") }
    })
}

/// The kind of the `len` bytes at `data`, without opening them:
/// `PTE_KIND_UNKNOWN` (and `PTE_STATUS_OK`) when they are no ExecuTorch
/// file; a program with a damaged identifier is `PTE_KIND_PTE`. Thread-safe.
///
/// # Safety
/// `data` is null or valid for reading `len` bytes; `out` is null or valid for writing.
///
/// ```
/// let mut k = pte_c::PteKind::Pte;
/// assert_eq!(unsafe { pte_c::pte_identify(b"hello".as_ptr(), 5, &mut k) }, pte_c::PteStatus::Ok);
/// assert_eq!(k, pte_c::PteKind::Unknown);
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_identify(data: *const u8, len: usize, out: *mut PteKind) -> PteStatus {
    guard(|| {
        need(out, "out")?;
        // SAFETY: `data` is null or readable for `len` bytes, by this function's contract.
        let data = unsafe { bytes(data, len, "data") }?;
        let kind = pte::identify(data).kind().map_or(PteKind::Unknown, PteKind::from);
        // SAFETY: `out` is writable, by this function's contract.
        unsafe { put(out, kind, "out") }
    })
}

/// The whole file's bytes: `*data` points into the handle's mapping (or
/// copy), valid while the handle lives. Thread-safe.
///
/// # Safety
/// `handle` is null or a live handle; `data` and `len` are null or valid for writing.
///
/// ```
/// let mut d = std::ptr::null();
/// let mut n = 0;
/// assert_eq!(unsafe { pte_c::pte_bytes(std::ptr::null(), &mut d, &mut n) }, pte_c::PteStatus::NullPointer);
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_bytes(handle: *const PteHandle, data: *mut *const u8, len: *mut usize) -> PteStatus {
    guard(|| {
        need(data, "data")?;
        need(len, "len")?;
        // SAFETY: `handle` is null or live, by this function's contract.
        let h = unsafe { borrow(handle, "handle") }?;
        let b = h.bytes();
        // SAFETY: both out-pointers are writable, by this function's contract.
        unsafe { put(data, b.as_ptr(), "data") }?;
        // SAFETY: as above.
        unsafe { put(len, b.len(), "len") }
    })
}

/// `pte info --json`'s summary of the file, any kind (the same text,
/// without the final newline): a new string in `*out` the caller frees
/// with `pte_string_free`. The `.ptd` files beside a program (or bundle)
/// opened by path are searched for its EXTERNAL tensors, as `pte info`
/// does. A file `pte info` refuses gives the status of its error.
/// Thread-safe.
///
/// # Safety
/// `handle` is null or a live handle; `out` is null or valid for writing a pointer.
///
/// ```
/// let mut s = std::ptr::null_mut();
/// assert_eq!(unsafe { pte_c::pte_summary_json(std::ptr::null(), &mut s) }, pte_c::PteStatus::NullPointer);
/// assert!(s.is_null());
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_summary_json(handle: *const PteHandle, out: *mut *mut c_char) -> PteStatus {
    // SAFETY: `handle` and `out` as this function's contract says.
    unsafe { handle_json(handle, out, crate::report::summary) }
}

/// `pte dump`'s JSON of the file, any kind (the same text, without the
/// final newline): a new string in `*out`, freed with `pte_string_free`.
/// Thread-safe.
///
/// # Safety
/// `handle` is null or a live handle; `out` is null or valid for writing a pointer.
///
/// ```
/// let mut s = std::ptr::null_mut();
/// assert_eq!(unsafe { pte_c::pte_dump_json(std::ptr::null(), &mut s) }, pte_c::PteStatus::NullPointer);
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_dump_json(handle: *const PteHandle, out: *mut *mut c_char) -> PteStatus {
    // SAFETY: `handle` and `out` as this function's contract says.
    unsafe { handle_json(handle, out, crate::report::dump) }
}

/// Frees a string this library gave (`pte_summary_json`, `pte_size_json`,
/// `pte_memory_json`, `pte_ops_json`, `pte_dump_json`, `pte_report_json`)
/// and sets `*s` to null: freeing the same variable twice is harmless. Never `free()` them: they come from Rust's allocator.
///
/// # Safety
/// `s` is null or valid for reading and writing a pointer, which is null or
/// a string from this library not freed since.
///
/// ```
/// let mut s: *mut std::ffi::c_char = std::ptr::null_mut();
/// assert_eq!(unsafe { pte_c::pte_string_free(&mut s) }, pte_c::PteStatus::Ok);
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_string_free(s: *mut *mut c_char) -> PteStatus {
    // SAFETY: this function's contract is `free_string`'s.
    guard(|| unsafe { free_string(s) })
}

/// Saves the file's bytes as they are to `path`, atomically (a temporary
/// file beside it, fsync, rename): `path` is either untouched or the whole
/// file. `*written` (when not null) gets the bytes written. Thread-safe.
///
/// # Safety
/// `handle` is null or a live handle; `path` is null or NUL-terminated;
/// `written` is null or valid for writing.
///
/// ```
/// assert_eq!(unsafe { pte_c::pte_save(std::ptr::null(), c"x".as_ptr(), std::ptr::null_mut()) }, pte_c::PteStatus::NullPointer);
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_save(handle: *const PteHandle, path: *const c_char, written: *mut u64) -> PteStatus {
    guard(|| {
        // SAFETY: `handle` is null or live, by this function's contract.
        let h = unsafe { borrow(handle, "handle") }?;
        // SAFETY: `path` is null or NUL-terminated, by this function's contract.
        let path = unsafe { super::path(path, "path") }?;
        let n = crate::save::save(h, &path)?;
        if !written.is_null() {
            // SAFETY: not null, and writable by this function's contract.
            unsafe { put(written, n, "written") }?;
        }
        Ok(())
    })
}

/// `pte rewrite FILE PATH` with `options` (null: keep the layout): a `.pte`
/// is written with its layout changed as asked (copied byte for byte when
/// nothing changes), a `.ptn` written again (options must keep everything);
/// atomically, as `pte_save`. Writing over the file the handle was opened
/// from is allowed: the handle keeps reading the old content. Options out
/// of range (a segment alignment over 1 MiB, any positive integer below it
/// being allowed as exir allows it; a constant or delegate alignment that
/// is no power of two or over 65536; an unknown placement) are
/// `PTE_STATUS_INVALID_ARGUMENT` before any file is touched. `*written`
/// (when not null) gets the bytes written. Thread-safe.
///
/// # Safety
/// `handle` is null or a live handle; `path` is null or NUL-terminated;
/// `options` is null or points to a `PteLayoutOptions`; `written` is null or
/// valid for writing.
///
/// ```
/// let bad = pte_c::PteLayoutOptions { delegates: 7, ..Default::default() };
/// let s = unsafe { pte_c::pte_rewrite(std::ptr::null(), c"x".as_ptr(), &bad, std::ptr::null_mut()) };
/// assert_eq!(s, pte_c::PteStatus::NullPointer);
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_rewrite(
    handle: *const PteHandle,
    path: *const c_char,
    options: *const PteLayoutOptions,
    written: *mut u64,
) -> PteStatus {
    guard(|| {
        // SAFETY: `handle` is null or live, by this function's contract.
        let h = unsafe { borrow(handle, "handle") }?;
        // SAFETY: `path` is null or NUL-terminated, by this function's contract.
        let path = unsafe { super::path(path, "path") }?;
        let options = match options.is_null() {
            true => PteLayoutOptions::default(),
            // SAFETY: not null, and a `PteLayoutOptions` by this function's contract.
            false => *unsafe { borrow(options, "options") }?,
        };
        let n = crate::save::rewrite(h, &path, &options)?;
        if !written.is_null() {
            // SAFETY: not null, and writable by this function's contract.
            unsafe { put(written, n, "written") }?;
        }
        Ok(())
    })
}

/// The name of a kind (`pte`, `ptd`, `ptn`, `bpte`; `unknown` for any
/// other value), a static string: never freed. Thread-safe; never fails.
///
/// ```
/// let n = unsafe { std::ffi::CStr::from_ptr(pte_c::pte_kind_name(pte_c::PteKind::Ptd as u32)) };
/// assert_eq!(n.to_str()?, "ptd");
/// # Ok::<(), std::str::Utf8Error>(())
/// ```
#[unsafe(no_mangle)]
pub extern "C" fn pte_kind_name(kind: u32) -> *const c_char {
    let name = match kind {
        1 => c"pte",
        2 => c"ptd",
        3 => c"ptn",
        4 => c"bpte",
        _ => c"unknown",
    };
    name.as_ptr()
}
