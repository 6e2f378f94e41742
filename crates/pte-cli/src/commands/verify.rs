//! `pte verify`: every rule of the file's format, plus the program/data link.

use std::path::{Path, PathBuf};

use pte::{DataFile, Unreadable};
use pte_core::Report;

use crate::failure::{at, CmdResult, Failure};
use crate::input::{looks_like_damaged_program, open, Input};

pub(crate) fn run(file: &Path, ptds: &[PathBuf], json: bool, deny_warnings: bool) -> CmdResult {
    let report = report(file, ptds)?;
    print_one(file, &report, json, deny_warnings)
}

/// Every rule of one file's format, the program/data link with `ptds`,
/// and what the program needs from outside, as warnings
/// (`pte::verify`, the one door the report and Python use too).
pub(crate) fn report(file: &Path, ptds: &[PathBuf]) -> Result<Report, Failure> {
    let input = Input::open(file)?;
    let bytes = input.bytes();
    if !ptds.is_empty() && !input.kind.is_pte() {
        return Err(Failure::bad_input("--ptd applies to .pte programs only"));
    }
    // A program whose identifier was damaged is judged, so the damage is
    // named by its rule; anything else is not an ExecuTorch file at all.
    if !input.kind.is_known() && !looks_like_damaged_program(bytes) {
        return Err(input
            .require("verify", &pte::KINDS)
            .err()
            .unwrap_or_else(|| Failure::bad_input("not an ExecuTorch file")));
    }
    let maps = ptds.iter().map(|p| open(p)).collect::<Result<Vec<_>, _>>()?;
    let names: Vec<String> = ptds.iter().map(|p| p.display().to_string()).collect();
    let data: Vec<DataFile<'_>> =
        names.iter().zip(&maps).map(|(name, m)| DataFile { name, bytes: m.bytes() }).collect();
    // recognised once by `Input` (a damaged program is of kind Unknown, judged as a program)
    pte::verify_as(input.kind, bytes, &data).map_err(|e| match e {
        Unreadable::Program(e) => at(file)(e),
        Unreadable::Data { index, error } => at(ptds.get(index).map_or(file, PathBuf::as_path))(error),
    })
}

fn print_one(file: &Path, report: &Report, json: bool, deny_warnings: bool) -> CmdResult {
    let failed = !report.is_ok() || (deny_warnings && !report.warnings.is_empty());
    if json {
        println!("{}", serde_json::to_string_pretty(&pte::Verdict::from(report))?);
    } else {
        for v in &report.violations {
            println!("{}: {}", file.display(), crate::style::text(&pte::finding_line(v)));
        }
        for w in &report.warnings {
            println!("{}: warning: {}", file.display(), crate::style::text(&pte::finding_line(w)));
        }
        if report.is_ok() {
            println!("{}: valid", file.display());
        }
    }
    if !failed {
        return Ok(());
    }
    Err(Failure::invalid(if json {
        String::new()
    } else {
        format!(
            "{}: {}, {}",
            file.display(),
            pte_core::style::count(report.violations.len() as u64, "violation"),
            pte_core::style::count(report.warnings.len() as u64, "warning")
        )
    }))
}
