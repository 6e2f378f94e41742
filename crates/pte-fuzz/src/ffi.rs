//! libFuzzer's custom mutator entry points (`include/pte_fuzz.h`).
//!
//! libFuzzer finds these by name when the harness is linked with this
//! library. They copy the input, call the safe API under `catch_unwind`, and
//! copy at most `MaxSize` (`MaxOutSize`) bytes back: no panic crosses into C
//! and nothing is written past the buffer libFuzzer owns.

// The exported symbols and the raw buffers libFuzzer hands over need
// `no_mangle` and raw pointers; this module is the crate's only unsafe code.
#![allow(unsafe_code)]

use std::os::raw::c_uint;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A copy of `len` bytes at `ptr` (empty for a null pointer).
///
/// # Safety
/// `ptr` is null or valid for reads of `len` bytes.
unsafe fn input(ptr: *const u8, len: usize) -> Vec<u8> {
    if ptr.is_null() || len == 0 {
        return Vec::new();
    }
    // SAFETY: the caller guarantees `len` readable bytes at `ptr`.
    unsafe { std::slice::from_raw_parts(ptr, len) }.to_vec()
}

/// Copies at most `cap` bytes of `bytes` to `out`, returns how many.
///
/// # Safety
/// `out` is null or valid for writes of `cap` bytes.
unsafe fn output(bytes: &[u8], out: *mut u8, cap: usize) -> usize {
    if out.is_null() {
        return 0;
    }
    let n = bytes.len().min(cap);
    // SAFETY: n <= cap writable bytes at `out`; `bytes` is our own Vec, so
    // the two ranges never overlap.
    unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), out, n) };
    n
}

/// libFuzzer's custom mutator: mutates `Data[..Size]` in place into at most
/// `MaxSize` bytes, returns the new size.
///
/// # Safety
/// `Data` is valid for reads of `Size` bytes and writes of `MaxSize` bytes,
/// as libFuzzer guarantees.
///
/// ```
/// let program = pte_gen::generate(1)?.to_bytes()?;
/// let mut buf = program.clone();
/// buf.resize(program.len() + 64, 0);
/// let n = unsafe { pte_fuzz::LLVMFuzzerCustomMutator(buf.as_mut_ptr(), program.len(), buf.len(), 7) };
/// assert_eq!(&buf[..n], pte_fuzz::mutate(&program, program.len() + 64, 7).as_slice());
/// # Ok::<(), pte_file::Error>(())
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn LLVMFuzzerCustomMutator(data: *mut u8, size: usize, max_size: usize, seed: c_uint) -> usize {
    // SAFETY: libFuzzer's contract, stated above.
    let copy = unsafe { input(data, size.min(max_size)) };
    let out = catch_unwind(AssertUnwindSafe(|| crate::mutate(&copy, max_size, u64::from(seed)))).unwrap_or(copy);
    // SAFETY: `data` has room for `max_size` bytes.
    unsafe { output(&out, data, max_size) }
}

/// libFuzzer's custom cross-over: combines `Data1[..Size1]` and
/// `Data2[..Size2]` into `Out` (at most `MaxOutSize` bytes), returns the
/// size written.
///
/// # Safety
/// `Data1`/`Data2` are valid for reads of `Size1`/`Size2` bytes and `Out`
/// for writes of `MaxOutSize` bytes, as libFuzzer guarantees.
///
/// ```
/// let (a, b) = (b"first input".to_vec(), b"second".to_vec());
/// let mut out = [0u8; 8];
/// let n = unsafe {
///     pte_fuzz::LLVMFuzzerCustomCrossOver(a.as_ptr(), a.len(), b.as_ptr(), b.len(), out.as_mut_ptr(), out.len(), 3)
/// };
/// assert!(n <= 8);
/// assert_eq!(&out[..n], pte_fuzz::cross_over(&a, &b, 8, 3).as_slice());
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn LLVMFuzzerCustomCrossOver(
    data1: *const u8,
    size1: usize,
    data2: *const u8,
    size2: usize,
    out: *mut u8,
    max_out_size: usize,
    seed: c_uint,
) -> usize {
    // SAFETY: libFuzzer's contract, stated above.
    let (a, b) = unsafe { (input(data1, size1), input(data2, size2)) };
    let child =
        catch_unwind(AssertUnwindSafe(|| crate::cross_over(&a, &b, max_out_size, u64::from(seed)))).unwrap_or_default();
    // SAFETY: `out` has room for `max_out_size` bytes.
    unsafe { output(&child, out, max_out_size) }
}
