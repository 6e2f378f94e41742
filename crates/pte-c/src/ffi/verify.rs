//! Verification and its report.

use std::ffi::c_char;
use std::ptr;

use super::{array, borrow, free, give, give_string, guard, need, put};
use crate::error::{Fail, PteStatus};
use crate::handle::PteHandle;
use crate::report::{PteReport, PteSeverity};
use crate::types::PteFinding;

/// `pte verify FILE [--ptd DATA]...`: every rule of the file's format, a
/// package's samples, what a valid program needs from outside (warnings)
/// and, with `data_count` `.ptd` handles in `data`, the program/data link
/// (findings in a data file are prefixed with its path, or `<memory>`).
/// `data` may be null when `data_count` is 0; data files with anything but
/// a `.pte` are `PTE_STATUS_WRONG_KIND`.
///
/// A file that breaks rules is a success (`PTE_STATUS_OK`) whose report is
/// invalid; a failure means the verification itself could not run (a data
/// file that does not read). On success `*out` is a new report the caller
/// frees with `pte_report_free`; on failure null. Thread-safe: the handles
/// are only read.
///
/// # Safety
/// `handle` is null or a live handle; `data` is null or valid for reading
/// `data_count` pointers, each null or a live handle; `out` is null or
/// valid for writing a pointer.
///
/// ```
/// let mut r = std::ptr::null_mut();
/// assert_eq!(unsafe { pte_c::pte_verify(std::ptr::null(), std::ptr::null(), 0, &mut r) }, pte_c::PteStatus::NullPointer);
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_verify(
    handle: *const PteHandle,
    data: *const *const PteHandle,
    data_count: usize,
    out: *mut *mut PteReport,
) -> PteStatus {
    guard(|| {
        // SAFETY: `out` is null or writable, by this function's contract.
        unsafe { put(out, ptr::null_mut(), "out") }?;
        // SAFETY: `handle` is null or live, by this function's contract.
        let h = unsafe { borrow(handle, "handle") }?;
        // SAFETY: `data` is null or readable for `data_count` pointers, by this function's contract.
        let items = unsafe { array(data, data_count, "data") }?;
        let mut files = Vec::with_capacity(items.len());
        for (i, &p) in items.iter().enumerate() {
            // SAFETY: each entry is null or a live handle, by this function's contract.
            files.push(unsafe { borrow(p, &format!("data[{i}]")) }?);
        }
        let report = crate::report::verify(h, &files)?;
        // SAFETY: as above.
        unsafe { put(out, give(report), "out") }
    })
}

/// Frees a report and sets `*report` to null (freeing the same variable
/// twice is harmless). Its findings' strings die with it.
///
/// # Safety
/// `report` is null or valid for reading and writing a pointer, which is
/// null or a report from `pte_verify` not freed since.
///
/// ```
/// let mut r: *mut pte_c::PteReport = std::ptr::null_mut();
/// assert_eq!(unsafe { pte_c::pte_report_free(&mut r) }, pte_c::PteStatus::Ok);
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_report_free(report: *mut *mut PteReport) -> PteStatus {
    // SAFETY: this function's contract is `free`'s.
    guard(|| unsafe { free(report, "report") })
}

/// Whether the file is valid: no violation (warnings do not count).
///
/// # Safety
/// `report` is null or a live report; `out` is null or valid for writing.
///
/// ```
/// let mut v = true;
/// assert_eq!(unsafe { pte_c::pte_report_valid(std::ptr::null(), &mut v) }, pte_c::PteStatus::NullPointer);
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_report_valid(report: *const PteReport, out: *mut bool) -> PteStatus {
    guard(|| {
        // SAFETY: `report` is null or live, by this function's contract.
        let r = unsafe { borrow(report, "report") }?;
        // SAFETY: `out` is null or writable, by this function's contract.
        unsafe { put(out, r.valid, "out") }
    })
}

/// How many findings: the violations, then the warnings (each count is
/// `pte_report_count`'s).
///
/// # Safety
/// `report` is null or a live report; `out` is null or valid for writing.
///
/// ```
/// let mut n = 0;
/// assert_eq!(unsafe { pte_c::pte_report_len(std::ptr::null(), &mut n) }, pte_c::PteStatus::NullPointer);
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_report_len(report: *const PteReport, out: *mut usize) -> PteStatus {
    guard(|| {
        // SAFETY: `report` is null or live, by this function's contract.
        let r = unsafe { borrow(report, "report") }?;
        // SAFETY: `out` is null or writable, by this function's contract.
        unsafe { put(out, r.findings.len(), "out") }
    })
}

/// How many findings have `severity` (a `PteSeverity`): with
/// `PTE_SEVERITY_VIOLATION` the rules broken, `pte verify`'s violation
/// count, with `PTE_SEVERITY_WARNING` its warnings. The violations are the
/// first findings, so the first warning's index is the violation count.
/// Any other value is `PTE_STATUS_INVALID_ARGUMENT`.
///
/// # Safety
/// `report` is null or a live report; `out` is null or valid for writing.
///
/// ```
/// let path = std::ffi::CString::new(pte_testkit::corpus("external/model.pte").to_string_lossy().as_bytes())?;
/// let mut h = std::ptr::null_mut();
/// let mut r = std::ptr::null_mut();
/// let (mut violations, mut warnings) = (9, 0);
/// unsafe {
///     assert_eq!(pte_c::pte_open(path.as_ptr(), &mut h), pte_c::PteStatus::Ok);
///     assert_eq!(pte_c::pte_verify(h, std::ptr::null(), 0, &mut r), pte_c::PteStatus::Ok);
///     assert_eq!(pte_c::pte_report_count(r, pte_c::PteSeverity::Violation as u32, &mut violations), pte_c::PteStatus::Ok);
///     assert_eq!(pte_c::pte_report_count(r, pte_c::PteSeverity::Warning as u32, &mut warnings), pte_c::PteStatus::Ok);
///     pte_c::pte_report_free(&mut r);
///     pte_c::pte_close(&mut h);
/// }
/// assert_eq!(violations, 0);
/// assert!(warnings > 0); // its EXTERNAL constants need the .ptd
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_report_count(report: *const PteReport, severity: u32, out: *mut usize) -> PteStatus {
    guard(|| {
        need(out, "out")?;
        // SAFETY: `report` is null or live, by this function's contract.
        let r = unsafe { borrow(report, "report") }?;
        let n = r.count(PteSeverity::from_raw(severity)?);
        // SAFETY: `out` is null or writable, by this function's contract.
        unsafe { put(out, n, "out") }
    })
}

/// Finding `index` (violations first, then warnings): its strings belong
/// to the report and live as long as it.
///
/// # Safety
/// `report` is null or a live report; `out` is null or valid for writing.
///
/// ```
/// let mut f = std::mem::MaybeUninit::<pte_c::PteFinding>::uninit();
/// assert_eq!(unsafe { pte_c::pte_report_finding(std::ptr::null(), 0, f.as_mut_ptr()) }, pte_c::PteStatus::NullPointer);
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_report_finding(report: *const PteReport, index: usize, out: *mut PteFinding) -> PteStatus {
    guard(|| {
        need(out, "out")?;
        // SAFETY: `report` is null or live, by this function's contract.
        let r = unsafe { borrow(report, "report") }?;
        let f = r.findings.get(index).ok_or_else(|| Fail::range("finding", index, r.findings.len()))?;
        let (code, name, stage) = match &f.runtime {
            Some((code, name, stage)) => (*code, name.as_ptr(), stage.as_ptr()),
            None => (0, ptr::null(), ptr::null()),
        };
        let finding = PteFinding {
            severity: f.severity,
            rule: f.rule.as_ptr(),
            path: f.path.as_ptr(),
            message: f.message.as_ptr(),
            has_offset: f.offset.is_some(),
            offset: f.offset.unwrap_or(0),
            has_runtime_error: f.runtime.is_some(),
            runtime_error_code: code,
            runtime_error_name: name,
            runtime_error_stage: stage,
        };
        // SAFETY: `out` is writable, by this function's contract.
        unsafe { put(out, finding, "out") }
    })
}

/// `pte verify --json`'s document for the report (the same text, without
/// the final newline): a new string in `*out`, freed with `pte_string_free`.
///
/// # Safety
/// `report` is null or a live report; `out` is null or valid for writing a pointer.
///
/// ```
/// let mut s = std::ptr::null_mut();
/// assert_eq!(unsafe { pte_c::pte_report_json(std::ptr::null(), &mut s) }, pte_c::PteStatus::NullPointer);
/// ```
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pte_report_json(report: *const PteReport, out: *mut *mut c_char) -> PteStatus {
    guard(|| {
        // SAFETY: `out` is null or writable, by this function's contract.
        unsafe { put(out, ptr::null_mut(), "out") }?;
        // SAFETY: `report` is null or live, by this function's contract.
        let r = unsafe { borrow(report, "report") }?;
        // SAFETY: as above.
        unsafe { put(out, give_string(r.json.clone()), "out") }
    })
}
