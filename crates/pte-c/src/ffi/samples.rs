//! A package's sample sets (a bundle's test cases), addressed by index:
//! set, sample, call, value, tensor. Read on the first call and kept; every
//! pointer given lives as long as the handle. Tensor bytes stored in the
//! file are pointers into it (`in_file`); a compressed member's are
//! inflated once and held by the handle.

use std::ptr;

use super::{borrow, guard, need, put};
use crate::error::Fail;
use crate::handle::PteHandle;
use crate::samples::{CCall, CSet, CTensor, CValue, Data, SampleModel};
use crate::types::{PteCallInfo, PteSampleInfo, PteSampleSetInfo, PteTensor, PteTolerance, PteValue, PteValueKind};

/// Runs `body` over the handle's sets and writes what it gives to `out`.
///
/// # Safety
/// `handle` is null or a live handle; `out` is null or valid for writing a `T`.
unsafe fn answer<T>(
    handle: *const PteHandle,
    out: *mut T,
    body: impl FnOnce(&PteHandle, &SampleModel) -> Result<T, Fail>,
) -> crate::PteStatus {
    guard(|| {
        need(out, "out")?;
        // SAFETY: `handle` is null or live, by the caller's contract.
        let h = unsafe { borrow(handle, "handle") }?;
        let v = body(h, h.samples()?)?;
        // SAFETY: `out` is writable, by the caller's contract.
        unsafe { put(out, v, "out") }
    })
}

fn set(m: &SampleModel, set: usize) -> Result<&CSet, Fail> {
    m.sets.get(set).ok_or_else(|| Fail::range("sample set", set, m.sets.len()))
}

fn call(m: &SampleModel, set: usize, sample: usize, call: usize) -> Result<&CCall, Fail> {
    let s = self::set(m, set)?;
    let sample = s.samples.get(sample).ok_or_else(|| Fail::range("sample", sample, s.samples.len()))?;
    sample.calls.get(call).ok_or_else(|| Fail::range("call", call, sample.calls.len()))
}

fn value(values: &[CValue], index: usize) -> Result<&CValue, Fail> {
    values.get(index).ok_or_else(|| Fail::range("value", index, values.len()))
}

fn value_info(v: &CValue) -> PteValue {
    let mut out = PteValue {
        kind: PteValueKind::None,
        int_value: 0,
        float_value: 0.0,
        bool_value: false,
        string_value: ptr::null(),
        tensor_count: 0,
    };
    match v {
        CValue::Tensor(_) => (out.kind, out.tensor_count) = (PteValueKind::Tensor, 1),
        CValue::Int(i) => (out.kind, out.int_value) = (PteValueKind::Int, *i),
        CValue::Float(f) => (out.kind, out.float_value) = (PteValueKind::Float, *f),
        CValue::Bool(b) => (out.kind, out.bool_value) = (PteValueKind::Bool, *b),
        CValue::String(s) => (out.kind, out.string_value) = (PteValueKind::String, s.as_ptr()),
        CValue::None => {}
        CValue::TensorList(l) => (out.kind, out.tensor_count) = (PteValueKind::TensorList, l.len()),
    }
    out
}

fn tensor_info(h: &PteHandle, v: &CValue, index: usize) -> Result<PteTensor, Fail> {
    let t: &CTensor = match v {
        CValue::Tensor(t) if index == 0 => t,
        CValue::TensorList(l) => l.get(index).ok_or_else(|| Fail::range("tensor", index, l.len()))?,
        CValue::Tensor(_) => return Err(Fail::range("tensor", index, 1)),
        _ => return Err(Fail::range("tensor", index, 0)),
    };
    let (data, in_file) = match &t.data {
        Data::InFile(span) => (h.span(span.offset, span.len)?, true),
        Data::Copied(b) => (&b[..], false),
    };
    Ok(PteTensor {
        dtype: t.dtype.as_ptr(),
        ndim: t.shape.len(),
        shape: t.shape.as_ptr(),
        data: data.as_ptr(),
        nbytes: data.len(),
        in_file,
    })
}

/// How many sample sets the file holds (a `.ptn` package's sidecar, or a
/// `.bpte`'s test cases; other kinds are `PTE_STATUS_WRONG_KIND`, a sidecar
/// that breaks a sample rule `PTE_STATUS_MALFORMED`). Thread-safe.
///
/// # Safety
/// `handle` is null or a live handle; `out` is null or valid for writing.
///
/// ```
/// let mut n = 0;
/// assert_eq!(unsafe { pte_c::pte_sample_set_count(std::ptr::null(), &mut n) }, pte_c::PteStatus::NullPointer);
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_sample_set_count(handle: *const PteHandle, out: *mut usize) -> crate::PteStatus {
    // SAFETY: this function's contract is `answer`'s.
    unsafe { answer(handle, out, |_, m| Ok(m.sets.len())) }
}

/// Sample set `set`: its method, name, sample count and own tolerance. Thread-safe.
///
/// # Safety
/// `handle` is null or a live handle; `out` is null or valid for writing.
///
/// ```
/// let mut s = std::mem::MaybeUninit::<pte_c::PteSampleSetInfo>::uninit();
/// assert_eq!(unsafe { pte_c::pte_sample_set(std::ptr::null(), 0, s.as_mut_ptr()) }, pte_c::PteStatus::NullPointer);
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_sample_set(
    handle: *const PteHandle,
    set: usize,
    out: *mut PteSampleSetInfo,
) -> crate::PteStatus {
    // SAFETY: this function's contract is `answer`'s.
    unsafe {
        answer(handle, out, |_, m| {
            let s = self::set(m, set)?;
            Ok(PteSampleSetInfo {
                method: s.method.as_ptr(),
                name: s.name.as_ptr(),
                sample_count: s.samples.len(),
                has_tolerance: s.tolerance.is_some(),
                tolerance: s.tolerance.map(PteTolerance::from).unwrap_or_default(),
            })
        })
    }
}

/// Sample `sample` of set `set`: its label, call count and own tolerance. Thread-safe.
///
/// # Safety
/// `handle` is null or a live handle; `out` is null or valid for writing.
///
/// ```
/// let mut s = std::mem::MaybeUninit::<pte_c::PteSampleInfo>::uninit();
/// assert_eq!(unsafe { pte_c::pte_sample(std::ptr::null(), 0, 0, s.as_mut_ptr()) }, pte_c::PteStatus::NullPointer);
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_sample(
    handle: *const PteHandle,
    set: usize,
    sample: usize,
    out: *mut PteSampleInfo,
) -> crate::PteStatus {
    // SAFETY: this function's contract is `answer`'s.
    unsafe {
        answer(handle, out, |_, m| {
            let s = self::set(m, set)?;
            let x = s.samples.get(sample).ok_or_else(|| Fail::range("sample", sample, s.samples.len()))?;
            Ok(PteSampleInfo {
                name: x.name.as_ref().map_or(ptr::null(), |n| n.as_ptr()),
                call_count: x.calls.len(),
                has_tolerance: x.tolerance.is_some(),
                tolerance: x.tolerance.map(PteTolerance::from).unwrap_or_default(),
            })
        })
    }
}

/// Call `call` of a sample: its input and output counts and the tolerance
/// its outputs are compared with, resolved (call, sample, set, default). Thread-safe.
///
/// # Safety
/// `handle` is null or a live handle; `out` is null or valid for writing.
///
/// ```
/// let mut c = std::mem::MaybeUninit::<pte_c::PteCallInfo>::uninit();
/// assert_eq!(unsafe { pte_c::pte_call(std::ptr::null(), 0, 0, 0, c.as_mut_ptr()) }, pte_c::PteStatus::NullPointer);
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_call(
    handle: *const PteHandle,
    set: usize,
    sample: usize,
    call: usize,
    out: *mut PteCallInfo,
) -> crate::PteStatus {
    // SAFETY: this function's contract is `answer`'s.
    unsafe {
        answer(handle, out, |_, m| {
            let c = self::call(m, set, sample, call)?;
            Ok(PteCallInfo {
                input_count: c.inputs.len(),
                output_count: c.outputs.len(),
                tolerance: c.tolerance.into(),
                tolerance_level: c.level,
            })
        })
    }
}

/// Input `index` of a call. Thread-safe.
///
/// # Safety
/// `handle` is null or a live handle; `out` is null or valid for writing.
///
/// ```
/// let mut v = std::mem::MaybeUninit::<pte_c::PteValue>::uninit();
/// assert_eq!(unsafe { pte_c::pte_call_input(std::ptr::null(), 0, 0, 0, 0, v.as_mut_ptr()) }, pte_c::PteStatus::NullPointer);
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_call_input(
    handle: *const PteHandle,
    set: usize,
    sample: usize,
    call: usize,
    index: usize,
    out: *mut PteValue,
) -> crate::PteStatus {
    // SAFETY: this function's contract is `answer`'s.
    unsafe { answer(handle, out, |_, m| Ok(value_info(value(&self::call(m, set, sample, call)?.inputs, index)?))) }
}

/// Expected output `index` of a call. Thread-safe.
///
/// # Safety
/// `handle` is null or a live handle; `out` is null or valid for writing.
///
/// ```
/// let mut v = std::mem::MaybeUninit::<pte_c::PteValue>::uninit();
/// assert_eq!(unsafe { pte_c::pte_call_output(std::ptr::null(), 0, 0, 0, 0, v.as_mut_ptr()) }, pte_c::PteStatus::NullPointer);
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_call_output(
    handle: *const PteHandle,
    set: usize,
    sample: usize,
    call: usize,
    index: usize,
    out: *mut PteValue,
) -> crate::PteStatus {
    // SAFETY: this function's contract is `answer`'s.
    unsafe { answer(handle, out, |_, m| Ok(value_info(value(&self::call(m, set, sample, call)?.outputs, index)?))) }
}

/// Tensor `tensor` of input `index` (0 for a tensor, the list index for a
/// tensor list; anything else is `PTE_STATUS_OUT_OF_RANGE`). Thread-safe.
///
/// # Safety
/// `handle` is null or a live handle; `out` is null or valid for writing.
///
/// ```
/// let mut t = std::mem::MaybeUninit::<pte_c::PteTensor>::uninit();
/// assert_eq!(unsafe { pte_c::pte_call_input_tensor(std::ptr::null(), 0, 0, 0, 0, 0, t.as_mut_ptr()) }, pte_c::PteStatus::NullPointer);
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_call_input_tensor(
    handle: *const PteHandle,
    set: usize,
    sample: usize,
    call: usize,
    index: usize,
    tensor: usize,
    out: *mut PteTensor,
) -> crate::PteStatus {
    // SAFETY: this function's contract is `answer`'s.
    unsafe {
        answer(handle, out, |h, m| tensor_info(h, value(&self::call(m, set, sample, call)?.inputs, index)?, tensor))
    }
}

/// Tensor `tensor` of expected output `index`, as `pte_call_input_tensor`. Thread-safe.
///
/// # Safety
/// `handle` is null or a live handle; `out` is null or valid for writing.
///
/// ```
/// let mut t = std::mem::MaybeUninit::<pte_c::PteTensor>::uninit();
/// assert_eq!(unsafe { pte_c::pte_call_output_tensor(std::ptr::null(), 0, 0, 0, 0, 0, t.as_mut_ptr()) }, pte_c::PteStatus::NullPointer);
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_call_output_tensor(
    handle: *const PteHandle,
    set: usize,
    sample: usize,
    call: usize,
    index: usize,
    tensor: usize,
    out: *mut PteTensor,
) -> crate::PteStatus {
    // SAFETY: this function's contract is `answer`'s.
    unsafe {
        answer(handle, out, |h, m| tensor_info(h, value(&self::call(m, set, sample, call)?.outputs, index)?, tensor))
    }
}
