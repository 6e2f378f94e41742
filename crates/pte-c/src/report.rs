//! A verification's findings held for C (`PteReport`), and the JSON texts
//! the CLI prints: the verdict, the summary and the dump.

use std::ffi::CString;

use pte_core::Report;
use pte_file::view::SegmentTable;

use crate::error::{c_string, Fail, PteStatus};
use crate::handle::PteHandle;

/// Whether a finding breaks a rule or only asks for attention.
///
/// ```
/// assert_eq!(pte_c::PteSeverity::Violation as i32, 0);
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PteSeverity {
    /// A broken rule: the file is invalid.
    Violation = 0,
    /// A valid file may still need attention (an EXTERNAL tensor needs its `.ptd`).
    Warning = 1,
}

impl PteSeverity {
    /// The severity C passed as a plain integer: a value C made up is
    /// refused, never undefined.
    pub(crate) fn from_raw(raw: u32) -> Result<PteSeverity, Fail> {
        match raw {
            0 => Ok(PteSeverity::Violation),
            1 => Ok(PteSeverity::Warning),
            n => Err(Fail::new(PteStatus::InvalidArgument, format!("severity: {n} is no PteSeverity"))),
        }
    }
}

#[derive(Debug)]
pub(crate) struct Held {
    pub(crate) severity: PteSeverity,
    pub(crate) rule: CString,
    pub(crate) path: CString,
    pub(crate) message: CString,
    pub(crate) offset: Option<u64>,
    /// Code, name and stage of the runtime's answer.
    pub(crate) runtime: Option<(u32, CString, CString)>,
}

/// The outcome of `pte_verify` (`PteReport` in C): the findings, violations
/// first, and the verdict; freed with `pte_report_free`.
///
/// ```
/// let path = std::ffi::CString::new(pte_testkit::corpus("linear/model.pte").to_string_lossy().as_bytes())?;
/// let mut h = std::ptr::null_mut();
/// let mut r = std::ptr::null_mut();
/// unsafe {
///     assert_eq!(pte_c::pte_open(path.as_ptr(), &mut h), pte_c::PteStatus::Ok);
///     assert_eq!(pte_c::pte_verify(h, std::ptr::null(), 0, &mut r), pte_c::PteStatus::Ok);
///     let mut valid = false;
///     assert_eq!(pte_c::pte_report_valid(r, &mut valid), pte_c::PteStatus::Ok);
///     assert!(valid);
///     pte_c::pte_report_free(&mut r);
///     pte_c::pte_close(&mut h);
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct PteReport {
    pub(crate) valid: bool,
    pub(crate) findings: Vec<Held>,
    /// `pte verify --json`'s document.
    pub(crate) json: String,
}

impl PteReport {
    pub(crate) fn new(report: &Report) -> Result<PteReport, Fail> {
        let verdict = pte::Verdict::from(report);
        let json = serde_json::to_string_pretty(&verdict).map_err(|e| Fail::new(PteStatus::Internal, e.to_string()))?;
        let held = |severity, v: &pte_core::Violation| {
            let f = pte::Finding::from(v);
            Held {
                severity,
                rule: c_string(&f.rule),
                path: c_string(&f.path),
                message: c_string(&f.message),
                offset: f.offset,
                runtime: f.runtime_error.map(|r| (r.code, c_string(&r.name), c_string(&r.stage))),
            }
        };
        let findings = report
            .violations
            .iter()
            .map(|v| held(PteSeverity::Violation, v))
            .chain(report.warnings.iter().map(|w| held(PteSeverity::Warning, w)))
            .collect();
        Ok(PteReport { valid: report.is_ok(), findings, json })
    }

    /// How many findings have `severity`.
    pub(crate) fn count(&self, severity: PteSeverity) -> usize {
        self.findings.iter().filter(|f| f.severity == severity).count()
    }
}

/// `pte verify FILE [--ptd DATA]...` of `h` with `data` linked.
pub(crate) fn verify(h: &PteHandle, data: &[&PteHandle]) -> Result<PteReport, Fail> {
    if !data.is_empty() && !h.kind().is_pte() {
        return Err(Fail::kind("linking data files", h.kind()));
    }
    let files: Vec<pte::DataFile<'_>> =
        data.iter().map(|d| pte::DataFile { name: d.name(), bytes: d.bytes() }).collect();
    let report = pte::verify(h.bytes(), &files).map_err(|e| match e {
        pte::Unreadable::Program(e) => Fail::from(e.within(h.name())),
        pte::Unreadable::Data { index, error } => {
            Fail::from(error.within(data.get(index).map_or(h.name(), |d| d.name())))
        }
    })?;
    PteReport::new(&report)
}

fn json_fail(e: impl std::fmt::Display) -> Fail {
    Fail::new(PteStatus::Internal, e.to_string())
}

/// `pte info --json` of any kind (without its trailing newline).
pub(crate) fn summary(h: &PteHandle) -> Result<String, Fail> {
    let options = pte::SummaryOptions { table: SegmentTable::Referenced, tensors: false, path: h.path() };
    let summary = pte::FileSummary::read(h.kind(), h.bytes(), &options).map_err(|e| Fail::from(e.within(h.name())))?;
    serde_json::to_string_pretty(&summary).map_err(json_fail)
}

/// `pte size --json` of any kind (without its trailing newline).
pub(crate) fn size(h: &PteHandle) -> Result<String, Fail> {
    let report = pte::size(h.kind(), h.bytes()).map_err(|e| Fail::from(e.within(h.name())))?;
    serde_json::to_string_pretty(&report).map_err(json_fail)
}

/// `pte memory --json [--method M]` of a program or a bundle's program
/// (without its trailing newline).
pub(crate) fn memory(h: &PteHandle, method: Option<&str>) -> Result<String, Fail> {
    let plan = pte::memory(h.kind(), h.bytes(), method).map_err(|e| Fail::from(e.within(h.name())))?;
    serde_json::to_string_pretty(&plan).map_err(json_fail)
}

/// The entry `pte ops --json` lists for the file, less its `file` key:
/// `{"format","methods"}` on one line, keys sorted as the CLI's.
pub(crate) fn operators(h: &PteHandle) -> Result<String, Fail> {
    let ops = pte::operators(h.kind(), h.bytes()).map_err(|e| Fail::from(e.within(h.name())))?;
    serde_json::to_value(&ops).map(|v| v.to_string()).map_err(json_fail)
}

/// `pte dump` of any kind (without its trailing newline).
pub(crate) fn dump(h: &PteHandle) -> Result<String, Fail> {
    let dump = pte::Dump::read(h.kind(), h.bytes()).map_err(|e| Fail::from(e.within(h.name())))?;
    let mut out = Vec::new();
    dump.write(&mut out, true).map_err(json_fail)?;
    String::from_utf8(out).map_err(json_fail)
}
