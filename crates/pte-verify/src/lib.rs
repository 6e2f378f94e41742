//! The verifier of `.pte`, `.ptd` and `.bpte` files: the runtime's load
//! rules (docs/load-rules.md) plus the
//! cross-reference checks a correct file satisfies, each violation reported
//! with its rule name, field path and (where known) byte offset.
//!
//! Rule names are stable; [`rules`] declares every one, and [`CATALOGUES`]
//! groups them by format for the documentation.

#![forbid(unsafe_code)]

use pte_schema::{decode_program, ErrorKind, Limits, Program};
use pte_segments::ExtendedHeader;

use checker::Checker;
use header::check_header;
use program::check_program;

pub use pte_file::{program_region, rules};

pub use pte_core::{Catalogue, Report, Rule, Violation};
pub use rules::CATALOGUES;

/// Options of the verifier.
///
/// ```
/// assert_eq!(pte_verify::VerifyOptions::default().limits, pte_file::Limits::default());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VerifyOptions {
    /// Flatbuffer verifier bounds.
    pub limits: Limits,
}

/// Verifies a `.pte` held in memory.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
/// assert!(pte_verify::verify_bytes(&bytes, &Default::default()).is_ok());
/// let report = pte_verify::verify_bytes(&bytes[..40], &Default::default());
/// assert!(report.breaks("file.min_size"));
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn verify_bytes(bytes: &[u8], options: &VerifyOptions) -> Report {
    verify_with(bytes, options, true, &mut None)
}

/// [`verify_bytes`], also returning the verified program when the
/// program's flatbuffer passed structural verification, so a caller that
/// reads more of it (warnings, summaries) does not verify it again.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("external/model.pte"))?;
/// let (report, verified) = pte_verify::verify_bytes_viewed(&bytes, &Default::default());
/// assert!(report.is_ok());
/// assert_eq!(verified.unwrap().external_needs().len(), 1);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn verify_bytes_viewed<'a>(bytes: &'a [u8], options: &VerifyOptions) -> (Report, Option<Verified<'a>>) {
    let mut view = None;
    let report = verify_with(bytes, options, true, &mut view);
    (report, view)
}

/// [`verify_bytes`] without its clean-file pass: every rule is checked on
/// the decoded model. The report is the same; this is the reference the
/// clean-file pass is tested against.
///
/// Test-only and unstable (hidden from the docs), for the workspace's
/// differential tests, fuzz target and benches; not part of the API.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
/// let o = Default::default();
/// assert_eq!(pte_verify::verify_bytes_full(&bytes, &o), pte_verify::verify_bytes(&bytes, &o));
/// # Ok::<(), std::io::Error>(())
/// ```
#[doc(hidden)]
pub fn verify_bytes_full(bytes: &[u8], options: &VerifyOptions) -> Report {
    verify_with(bytes, options, false, &mut None)
}

fn verify_with<'a>(
    bytes: &'a [u8],
    options: &VerifyOptions,
    clean_file_first: bool,
    view_out: &mut Option<Verified<'a>>,
) -> Report {
    let mut violations = vec![];
    let mut c = Checker { out: &mut violations, warnings: vec![] };
    let len = bytes.len() as u64;
    if len < 64 {
        c.add(rules::FILE_MIN_SIZE, "", None, format!("file is {len} bytes; loaders need at least 64"));
    }
    let header = match ExtendedHeader::parse(bytes) {
        Ok(h) => h,
        Err(e) => {
            c.add(rules::HEADER_LENGTH, e.path(), e.offset(), e.message());
            return Report { violations, warnings: vec![] };
        }
    };
    if let Some(h) = &header {
        check_header(&mut c, h, len);
    }
    let region = match program_region(bytes) {
        Ok((_, r)) => r,
        Err(e) => {
            if !c.out.iter().any(|v| v.rule == rules::HEADER_PROGRAM_SIZE) {
                c.add(rules::HEADER_PROGRAM_SIZE, e.path(), e.offset(), e.message());
            }
            return Report { violations, warnings: vec![] };
        }
    };
    if region.get(4..8).is_some_and(|id| id != b"ET12") {
        c.add(rules::FLATBUFFER_IDENTIFIER, "", Some(4), "file identifier is not ET12");
        return Report { violations, warnings: vec![] };
    }
    if let Some(r) = region.get(..4).and_then(|b| <[u8; 4]>::try_from(b).ok()).map(u32::from_le_bytes) {
        let max = (region.len() as u64).saturating_sub(4);
        if u64::from(r) < 8 || u64::from(r) > max {
            c.add(rules::FLATBUFFER_ROOT_OFFSET, "", Some(0), format!("root offset {r} is outside [8, {max}]"));
            return Report { violations, warnings: vec![] };
        }
    }
    // the clean-file pass's verification serves the full pass too: a file that
    // breaks a rule is verified once, as before; the clean-file pass checks each
    // value and instruction during that verification
    let verified = (clean_file_first && c.out.is_empty()).then(|| {
        let mut elements = clean_file::Prechecks::new(region, header.as_ref(), &options.limits);
        let walked = pte_schema::ProgramView::with_checks(region, &options.limits, &elements);
        // what the checks saw of the tensors counts only if every value
        // passed, so it is there exactly when the elements are clean
        walked.map(|(view, clean)| {
            let called = if clean { elements.called() } else { vec![] };
            let seen = clean
                .then(|| needs::Seen { tensors: elements.tensor_needs(), constants: elements.take_constant_users() });
            (view, seen, called, elements.into_facts())
        })
    });
    let (mut verified, called, facts) = match verified {
        Some(Ok((view, seen, called, facts))) => (Some(Ok((view, seen))), called, facts),
        Some(Err(e)) => (Some(Err(e)), vec![], vec![]),
        None => (None, vec![], vec![]),
    };
    if let Some(Ok((view, seen))) = &mut verified {
        let tensors = seen.as_ref().map(|s| s.tensors);
        *view_out = Some(Verified::new(*view, seen.take(), called));
        // Delegate payloads are judged only by the full pass's backend readers.
        let has_delegates = (0..view.plan_count())
            .filter_map(|i| view.plan(i))
            .any(|plan| plan.delegates().is_some_and(|d| d.len() > 0));
        let verdict = if !has_delegates && tensors.is_some() {
            clean_file::clean(view, header.as_ref(), len, &options.limits)
        } else {
            clean_file::Verdict::Findings
        };
        if verdict != clean_file::Verdict::Findings {
            let mut c = Checker { out: &mut violations, warnings: vec![] };
            if verdict == clean_file::Verdict::InlineConstants {
                program::warn_inline_constants(&mut c);
            }
            let mut warnings = c.warnings;
            warnings.extend(memory::overlaps_gathered(view, facts));
            locate(region, &options.limits, &mut warnings);
            return Report { violations, warnings };
        }
    }
    let viewed = match &verified {
        Some(Ok((view, _))) => Some(*view),
        _ => None,
    };
    let decoded = match verified {
        Some(Ok((view, _))) => view.to_model().and_then(|p| options.limits.check_program(&p).map(|()| p)),
        Some(Err(e)) => Err(e),
        None => decode_program(region, &options.limits),
    };
    let program = match decoded {
        Ok(p) => p,
        Err(e) => {
            let rule = if e.kind() == ErrorKind::Unsupported {
                rules::FLATBUFFER_UNION_TAG
            } else {
                rules::FLATBUFFER_STRUCTURE
            };
            c.add(rule, e.path(), e.offset(), e.message());
            return Report { violations, warnings: vec![] };
        }
    };
    check_program(&mut c, &program, header.as_ref(), bytes);
    // delegate payloads, as each backend with a reader will parse them
    let payloads = pte_analysis::delegate_payload::check_payloads(
        &program,
        bytes,
        pte_analysis::delegate_payload::builtin_registry(),
        &options.limits,
    );
    c.out.extend(payloads.violations);
    c.warnings.extend(payloads.warnings);
    let mut warnings = std::mem::take(&mut c.warnings);
    // the memory plan is judged on programs breaking no other rule: on
    // others its tensors and lifetimes cannot be trusted
    if violations.is_empty()
        && let Some(view) = viewed.or_else(|| pte_schema::ProgramView::new(region, &options.limits).ok())
    {
        warnings.extend(memory_overlaps(&view));
    }
    let mut all: Vec<&mut Violation> = violations.iter_mut().chain(warnings.iter_mut()).collect();
    locate_all(region, &options.limits, &mut all);
    Report { violations, warnings }
}

/// Fills in the byte offset of each finding that names a path but no offset.
fn locate_all(region: &[u8], limits: &Limits, found: &mut [&mut Violation]) {
    if found.iter().all(|v| v.offset.is_some() || v.path.is_empty()) {
        return;
    }
    if let Some(locator) = pte_schema::Locator::new(region, limits) {
        for v in found.iter_mut().filter(|v| v.offset.is_none() && !v.path.is_empty()) {
            v.offset = locator.locate(&v.path);
        }
    }
}

fn locate(region: &[u8], limits: &Limits, found: &mut [Violation]) {
    locate_all(region, limits, &mut found.iter_mut().collect::<Vec<_>>());
}

/// Verifies an already-decoded program against the file bytes it came from.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
/// let pte = pte_file::PteFile::from_bytes(&bytes)?;
/// assert!(pte_verify::verify_program(&pte.program, &bytes).is_ok());
/// # Ok::<(), pte_file::Error>(())
/// ```
pub fn verify_program(program: &Program<'_>, bytes: &[u8]) -> Report {
    let mut violations = vec![];
    let header = ExtendedHeader::parse(bytes).ok().flatten();
    let mut c = Checker { out: &mut violations, warnings: vec![] };
    check_program(&mut c, program, header.as_ref(), bytes);
    let warnings = c.warnings;
    Report { violations, warnings }
}

mod bpte;
mod checker;
mod clean_file;
mod header;
mod memory;
mod needs;
mod plan;
mod program;
mod ptd;
mod tensor;

pub use bpte::verify_bpte_bytes;
pub use memory::memory_overlaps;
pub use needs::{device_needs, external_needs, operator_needs, storage_needs, Verified};
pub use ptd::{verify_link, verify_ptd_bytes};
