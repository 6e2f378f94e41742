//! `pte verify`: every rule of the file's format, plus the program/data link.

use std::path::{Path, PathBuf};

use pte_core::FileKind;

use crate::failure::{CmdResult, Failure};
use crate::formats::ptd::read_ptd;
use crate::input::{looks_like_damaged_program, open, read_pte, Input};
use pte_core::{Report, Violation};

pub(crate) fn run(file: &Path, ptds: &[PathBuf], json: bool, deny_warnings: bool) -> CmdResult {
    let report = report(file, ptds)?;
    print_one(file, &report, json, deny_warnings)
}

/// Every rule of one file's format, the program/data link with `ptds`,
/// and what the program needs from outside, as warnings.
pub(crate) fn report(file: &Path, ptds: &[PathBuf]) -> Result<Report, Failure> {
    let input = Input::open(file)?;
    let bytes = input.bytes();
    if !ptds.is_empty() && input.kind != FileKind::Pte {
        return Err(Failure::bad_input("--ptd applies to .pte programs only"));
    }
    let mut verified = None;
    let mut report = match input.kind {
        FileKind::Ptd => pte_file::verify::verify_ptd_bytes(bytes, &Default::default()),
        FileKind::Bpte => pte_file::verify::verify_bpte_bytes(bytes, &Default::default()),
        FileKind::Ptn => {
            let mut report = pte_ptn::verify::verify_ptn_bytes(bytes, &Default::default());
            if let Ok(ptn) = pte_ptn::PtnFile::from_bytes(bytes) {
                report.violations.extend(pte_samples::check_sidecar(&ptn).into_iter().map(|e| Violation {
                    rule: e.rule().verifier_rule(),
                    path: e.path().to_string(),
                    offset: e.offset(),
                    message: e.message().to_string(),
                }));
            }
            report
        }
        FileKind::Pte => {
            let (report, view) = pte_file::verify::verify_bytes_viewed(bytes, &Default::default());
            verified = view;
            report
        }
        // A program whose identifier was damaged is judged, so the damage is
        // named by its rule; anything else is not an ExecuTorch file at all.
        _ if looks_like_damaged_program(bytes) => pte_file::verify::verify_bytes(bytes, &Default::default()),
        _ => {
            return Err(input
                .require("verify", &[FileKind::Pte, FileKind::Ptd, FileKind::Ptn, FileKind::Bpte])
                .err()
                .unwrap_or_else(|| Failure::bad_input("not an ExecuTorch file")))
        }
    };
    if input.kind == FileKind::Pte && report.is_ok() {
        // the needs read the plans through the view the verifier made:
        // nothing is decoded or verified twice
        if let Some(verified) = verified {
            if ptds.is_empty() {
                report.warnings.extend(verified.external_needs());
            }
            report.warnings.extend(verified.device_needs());
        }
    }
    if !ptds.is_empty() {
        let pte = read_pte(file, bytes)?;
        let maps = ptds.iter().map(|p| open(p)).collect::<Result<Vec<_>, _>>()?;
        let mut files = vec![];
        for (p, m) in ptds.iter().zip(&maps) {
            let r = pte_file::verify::verify_ptd_bytes(m.bytes(), &Default::default());
            report.violations.extend(r.violations.into_iter().map(|mut v| {
                v.path = format!("{}:{}", p.display(), v.path);
                v
            }));
            files.push((p.display().to_string(), read_ptd(p, m.bytes())?));
        }
        let named: Vec<(&str, &pte_file::ptd::PtdFile<'_>)> = files.iter().map(|(n, f)| (n.as_str(), f)).collect();
        report.violations.extend(pte_file::verify::verify_link(&pte.program, &named).violations);
        let links = pte_file::delegate_payload::verify_payload_links(
            &pte.program,
            bytes,
            pte_file::delegate_payload::builtin_registry(),
            &Default::default(),
            &named,
        );
        report.violations.extend(links.violations);
        // with the data files given, a key outside the program is judged by the link rule
        report.warnings.retain(|w| w.rule != pte_file::verify::rules::PAYLOAD_NAMED_KEY);
    }
    Ok(report)
}

fn print_one(file: &Path, report: &Report, json: bool, deny_warnings: bool) -> CmdResult {
    let entry = crate::findings::finding_json;
    let failed = !report.is_ok() || (deny_warnings && !report.warnings.is_empty());
    if json {
        let v: Vec<_> = report.violations.iter().map(entry).collect();
        let w: Vec<_> = report.warnings.iter().map(entry).collect();
        println!(
            "{}",
            serde_json::to_string_pretty(
                &serde_json::json!({"valid": report.is_ok(), "violations": v, "warnings": w})
            )?
        );
    } else {
        for v in &report.violations {
            println!("{}: {}", file.display(), crate::findings::finding_line(v));
        }
        for w in &report.warnings {
            println!("{}: warning: {}", file.display(), crate::findings::finding_line(w));
        }
        if report.is_ok() {
            println!("{}: valid", file.display());
        }
    }
    if !failed {
        return Ok(());
    }
    Err(Failure::wanting(if json {
        String::new()
    } else {
        format!("{}: {} violation(s), {} warning(s)", file.display(), report.violations.len(), report.warnings.len())
    }))
}
