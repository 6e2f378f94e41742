//! What a file holds, as the CLI's JSON: where its bytes go, its memory
//! plan and the operators it calls, each the library's one answer
//! (`pte::size`, `pte::memory`, `pte::operators`).

use std::ffi::c_char;

use super::{c_str, handle_json};
use crate::error::{Fail, PteStatus};
use crate::handle::PteHandle;

/// `pte size --json`'s report of the file, any kind (the same text,
/// without the final newline): a new string in `*out`, freed with
/// `pte_string_free`. Thread-safe.
///
/// # Safety
/// `handle` is null or a live handle; `out` is null or valid for writing a pointer.
///
/// ```
/// let mut s = std::ptr::null_mut();
/// assert_eq!(unsafe { pte_c::pte_size_json(std::ptr::null(), &mut s) }, pte_c::PteStatus::NullPointer);
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_size_json(handle: *const PteHandle, out: *mut *mut c_char) -> PteStatus {
    // SAFETY: `handle` and `out` as this function's contract says.
    unsafe { handle_json(handle, out, crate::report::size) }
}

/// `pte memory --json`'s plan of a program, or of the program a bundle
/// holds (the same text, without the final newline), kept to the method
/// named `method` unless `method` is null: a new string in `*out`, freed
/// with `pte_string_free`. A `.ptd` or `.ptn` (no plan) and a method the
/// program lacks are `PTE_STATUS_INVALID_ARGUMENT`, as `pte memory` exits 2
/// on them. Thread-safe.
///
/// # Safety
/// `handle` is null or a live handle; `method` is null or a NUL-terminated
/// string; `out` is null or valid for writing a pointer.
///
/// ```
/// let mut s = std::ptr::null_mut();
/// let none = std::ptr::null();
/// assert_eq!(unsafe { pte_c::pte_memory_json(none, none.cast(), &mut s) }, pte_c::PteStatus::NullPointer);
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_memory_json(
    handle: *const PteHandle,
    method: *const c_char,
    out: *mut *mut c_char,
) -> PteStatus {
    // SAFETY: `handle` and `out` as this function's contract says.
    unsafe {
        handle_json(handle, out, |h| {
            let method = if method.is_null() {
                None
            } else {
                // SAFETY: not null, and NUL-terminated by this function's contract.
                let m = c_str(method, "method")?;
                Some(m.to_str().map_err(|_| Fail::new(PteStatus::InvalidArgument, "method: not UTF-8"))?)
            };
            crate::report::memory(h, method)
        })
    }
}

/// The entry `pte ops --json` lists for the file, without its `file` key:
/// `{"format":…,"methods":[…]}` on one line, as the CLI writes it. A bundle
/// answers for its program, a package for its native graph's calls; a
/// `.ptd` (no operators) is `PTE_STATUS_INVALID_ARGUMENT`. A new string in
/// `*out`, freed with `pte_string_free`. Thread-safe.
///
/// # Safety
/// `handle` is null or a live handle; `out` is null or valid for writing a pointer.
///
/// ```
/// let mut s = std::ptr::null_mut();
/// assert_eq!(unsafe { pte_c::pte_ops_json(std::ptr::null(), &mut s) }, pte_c::PteStatus::NullPointer);
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_ops_json(handle: *const PteHandle, out: *mut *mut c_char) -> PteStatus {
    // SAFETY: `handle` and `out` as this function's contract says.
    unsafe { handle_json(handle, out, crate::report::operators) }
}
