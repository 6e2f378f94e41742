//! Zero-copy access to what a program (or data file) stores: pointers into
//! the handle's bytes, valid while the handle lives. The tables are read
//! on the first call and kept; a table that does not read (a damaged
//! file) fails with `PTE_STATUS_MALFORMED` while the others still answer.

use std::ffi::c_char;

use super::{borrow, c_str, guard, need, put};
use crate::error::{Fail, PteStatus};
use crate::handle::PteHandle;
use crate::tables::{Blobs, Named, Span, Table};
use crate::types::{PteBlob, PteDelegate, PteNamedData};

fn table<T>(t: &Table<T>) -> Result<&[T], Fail> {
    t.as_deref().map_err(|(status, message)| Fail::new(*status, message.clone()))
}

fn blob(h: &PteHandle, span: Span) -> Result<PteBlob, Fail> {
    let b = h.span(span.offset, span.len)?;
    Ok(PteBlob { data: b.as_ptr(), len: b.len(), offset: span.offset as u64 })
}

fn named(h: &PteHandle, n: &Named) -> Result<PteNamedData, Fail> {
    let b = blob(h, n.span)?;
    Ok(PteNamedData { key: n.key.as_ptr(), segment: n.segment, data: b.data, len: b.len, offset: b.offset })
}

/// Runs `body` over the handle's tables and writes what it gives to `out`.
///
/// # Safety
/// `handle` is null or a live handle; `out` is null or valid for writing a `T`.
unsafe fn answer<T>(
    handle: *const PteHandle,
    out: *mut T,
    body: impl FnOnce(&PteHandle, &Blobs) -> Result<T, Fail>,
) -> PteStatus {
    guard(|| {
        need(out, "out")?;
        // SAFETY: `handle` is null or live, by the caller's contract.
        let h = unsafe { borrow(handle, "handle") }?;
        let v = body(h, h.blobs()?)?;
        // SAFETY: `out` is writable, by the caller's contract.
        unsafe { put(out, v, "out") }
    })
}

/// How many segments the stored table lists (`.pte` and `.ptd`; other
/// kinds are `PTE_STATUS_WRONG_KIND`). Thread-safe.
///
/// # Safety
/// `handle` is null or a live handle; `out` is null or valid for writing.
///
/// ```
/// let mut n = 0;
/// assert_eq!(unsafe { pte_c::pte_segment_count(std::ptr::null(), &mut n) }, pte_c::PteStatus::NullPointer);
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_segment_count(handle: *const PteHandle, out: *mut usize) -> PteStatus {
    // SAFETY: this function's contract is `answer`'s.
    unsafe { answer(handle, out, |_, b| Ok(b.segments.len())) }
}

/// Segment `index` of the stored table: its bytes in the file (a
/// segment lying outside the file is `PTE_STATUS_MALFORMED`). Thread-safe.
///
/// # Safety
/// `handle` is null or a live handle; `out` is null or valid for writing.
///
/// ```
/// let mut b = pte_c::PteBlob::empty();
/// assert_eq!(unsafe { pte_c::pte_segment(std::ptr::null(), 0, &mut b) }, pte_c::PteStatus::NullPointer);
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_segment(handle: *const PteHandle, index: usize, out: *mut PteBlob) -> PteStatus {
    // SAFETY: this function's contract is `answer`'s.
    unsafe {
        answer(handle, out, |h, b| {
            let s = b.segments.get(index).ok_or_else(|| Fail::range("segment", index, b.segments.len()))?;
            let s =
                s.ok_or_else(|| Fail::new(PteStatus::Malformed, format!("segment {index} lies outside the file")))?;
            blob(h, s)
        })
    }
}

/// How many constant buffers a `.pte` has, the empty placeholder at index
/// 0 included: a tensor's `data_buffer_idx` indexes them. Thread-safe.
///
/// # Safety
/// `handle` is null or a live handle; `out` is null or valid for writing.
///
/// ```
/// let mut n = 0;
/// assert_eq!(unsafe { pte_c::pte_constant_count(std::ptr::null(), &mut n) }, pte_c::PteStatus::NullPointer);
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_constant_count(handle: *const PteHandle, out: *mut usize) -> PteStatus {
    // SAFETY: this function's contract is `answer`'s.
    unsafe { answer(handle, out, |_, b| Ok(table(&b.constants)?.len())) }
}

/// Constant buffer `index`: in the constant segment, or inline in the
/// flatbuffer (legacy programs). Thread-safe.
///
/// # Safety
/// `handle` is null or a live handle; `out` is null or valid for writing.
///
/// ```
/// let mut b = pte_c::PteBlob::empty();
/// assert_eq!(unsafe { pte_c::pte_constant(std::ptr::null(), 1, &mut b) }, pte_c::PteStatus::NullPointer);
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_constant(handle: *const PteHandle, index: usize, out: *mut PteBlob) -> PteStatus {
    // SAFETY: this function's contract is `answer`'s.
    unsafe {
        answer(handle, out, |h, b| {
            let t = table(&b.constants)?;
            blob(h, *t.get(index).ok_or_else(|| Fail::range("constant", index, t.len()))?)
        })
    }
}

/// How many named blobs: a `.pte`'s named data, or a `.ptd`'s entries. Thread-safe.
///
/// # Safety
/// `handle` is null or a live handle; `out` is null or valid for writing.
///
/// ```
/// let mut n = 0;
/// assert_eq!(unsafe { pte_c::pte_named_data_count(std::ptr::null(), &mut n) }, pte_c::PteStatus::NullPointer);
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_named_data_count(handle: *const PteHandle, out: *mut usize) -> PteStatus {
    // SAFETY: this function's contract is `answer`'s.
    unsafe { answer(handle, out, |_, b| Ok(table(&b.named)?.len())) }
}

/// Named blob `index`, in stored order. Thread-safe.
///
/// # Safety
/// `handle` is null or a live handle; `out` is null or valid for writing.
///
/// ```
/// let mut d = std::mem::MaybeUninit::<pte_c::PteNamedData>::uninit();
/// assert_eq!(unsafe { pte_c::pte_named_data(std::ptr::null(), 0, d.as_mut_ptr()) }, pte_c::PteStatus::NullPointer);
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_named_data(handle: *const PteHandle, index: usize, out: *mut PteNamedData) -> PteStatus {
    // SAFETY: this function's contract is `answer`'s.
    unsafe {
        answer(handle, out, |h, b| {
            let t = table(&b.named)?;
            named(h, t.get(index).ok_or_else(|| Fail::range("named blob", index, t.len()))?)
        })
    }
}

/// The first named blob whose key is `key`; none is `PTE_STATUS_OUT_OF_RANGE`. Thread-safe.
///
/// # Safety
/// `handle` is null or a live handle; `key` is null or NUL-terminated;
/// `out` is null or valid for writing.
///
/// ```
/// let mut d = std::mem::MaybeUninit::<pte_c::PteNamedData>::uninit();
/// assert_eq!(unsafe { pte_c::pte_named_data_find(std::ptr::null(), c"w".as_ptr(), d.as_mut_ptr()) }, pte_c::PteStatus::NullPointer);
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_named_data_find(
    handle: *const PteHandle,
    key: *const c_char,
    out: *mut PteNamedData,
) -> PteStatus {
    // SAFETY: `key` is null or NUL-terminated, by this function's contract.
    let key = match unsafe { c_str(key, "key") } {
        Ok(k) => k,
        Err(f) => return guard(|| Err(f)),
    };
    // SAFETY: this function's contract is `answer`'s for `handle` and `out`.
    unsafe {
        answer(handle, out, |h, b| {
            let t = table(&b.named)?;
            let n = t.iter().find(|n| n.key.as_c_str() == key);
            named(h, n.ok_or_else(|| Fail::new(PteStatus::OutOfRange, format!("no named blob {key:?}")))?)
        })
    }
}

/// How many delegate blobs a `.pte` holds, over all its methods. Thread-safe.
///
/// # Safety
/// `handle` is null or a live handle; `out` is null or valid for writing.
///
/// ```
/// let mut n = 0;
/// assert_eq!(unsafe { pte_c::pte_delegate_count(std::ptr::null(), &mut n) }, pte_c::PteStatus::NullPointer);
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_delegate_count(handle: *const PteHandle, out: *mut usize) -> PteStatus {
    // SAFETY: this function's contract is `answer`'s.
    unsafe { answer(handle, out, |_, b| Ok(table(&b.delegates)?.len())) }
}

/// Delegate blob `index`, by method then by its place in the method. Thread-safe.
///
/// # Safety
/// `handle` is null or a live handle; `out` is null or valid for writing.
///
/// ```
/// let mut d = std::mem::MaybeUninit::<pte_c::PteDelegate>::uninit();
/// assert_eq!(unsafe { pte_c::pte_delegate(std::ptr::null(), 0, d.as_mut_ptr()) }, pte_c::PteStatus::NullPointer);
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_delegate(handle: *const PteHandle, index: usize, out: *mut PteDelegate) -> PteStatus {
    // SAFETY: this function's contract is `answer`'s.
    unsafe {
        answer(handle, out, |h, b| {
            let t = table(&b.delegates)?;
            let d = t.get(index).ok_or_else(|| Fail::range("delegate", index, t.len()))?;
            let bytes = blob(h, d.span)?;
            Ok(PteDelegate {
                id: d.id.as_ptr(),
                plan: d.plan,
                index: d.index,
                inline_data: d.inline,
                data: bytes.data,
                len: bytes.len,
                offset: bytes.offset,
            })
        })
    }
}
