//! `pte verify` over many files and folders (walked and shared out to
//! parallel workers by `crate::batch`): one line per file (or one JSON
//! object per line) in path order, then a summary; the exit status is the
//! worst result.

use std::path::{Path, PathBuf};

use serde_json::json;

use pte_core::{Report, Violation};

use crate::batch;
use crate::commands::verify;
use crate::failure::{CmdResult, Exit, Failure};

/// How one file came out.
enum Outcome {
    Checked(Report),
    Unreadable(Failure),
}

pub(crate) fn run(paths: &[PathBuf], ptds: &[PathBuf], json: bool, deny_warnings: bool) -> CmdResult {
    let files = batch::collect(paths)?;
    let outcomes: Vec<Outcome> = batch::map(&files, "verify", |f| check(f, ptds))
        .into_iter()
        .map(|r| r.unwrap_or_else(Outcome::Unreadable))
        .collect();
    let (mut valid, mut warned, mut invalid, mut unreadable) = (0u64, 0u64, 0u64, 0u64);
    for (f, o) in files.iter().zip(&outcomes) {
        match o {
            Outcome::Checked(r) if !r.is_ok() => invalid = invalid.saturating_add(1),
            Outcome::Checked(r) if !r.warnings.is_empty() => warned = warned.saturating_add(1),
            Outcome::Checked(_) => valid = valid.saturating_add(1),
            Outcome::Unreadable(_) => unreadable = unreadable.saturating_add(1),
        }
        if json {
            println!("{}", line_json(f, o));
        } else {
            println!("{}", line_text(f, o));
        }
    }
    let total = files.len();
    if json {
        println!(
            "{}",
            json!({"summary": {"files": total, "valid": valid, "with_warnings": warned, "invalid": invalid, "unreadable": unreadable}})
        );
    } else {
        println!(
            "{}: {valid} valid, {warned} with warnings, {invalid} invalid, {unreadable} unreadable",
            crate::style::count(total as u64, "file")
        );
    }
    let exit = if unreadable > 0 {
        Some(Exit::BadInput)
    } else if invalid > 0 || (deny_warnings && warned > 0) {
        Some(Exit::Invalid)
    } else {
        None
    };
    batch::worst(exit)
}

fn check(file: &Path, ptds: &[PathBuf]) -> Result<Outcome, Failure> {
    // --ptd resolves programs; the data files in the same folders are checked on their own
    let is_pte = pte_core::MappedFile::open(file).is_ok_and(|m| pte::kind_of(m.bytes()).is_pte());
    verify::report(file, if is_pte { ptds } else { &[] }).map(Outcome::Checked)
}

/// The file's line, control characters in findings escaped ([`crate::style::text`]).
fn line_text(f: &Path, o: &Outcome) -> String {
    crate::style::text(&line(f, o)).into_owned()
}

fn line(f: &Path, o: &Outcome) -> String {
    let path = f.display();
    match o {
        Outcome::Checked(r) if r.is_ok() && r.warnings.is_empty() => format!("{path}: valid"),
        Outcome::Checked(r) if r.is_ok() => format!(
            "{path}: valid, {}: {}",
            crate::style::count(r.warnings.len() as u64, "warning"),
            first(&r.warnings)
        ),
        Outcome::Checked(r) => format!(
            "{path}: invalid, {}, {}: {}",
            crate::style::count(r.violations.len() as u64, "violation"),
            crate::style::count(r.warnings.len() as u64, "warning"),
            first(&r.violations)
        ),
        Outcome::Unreadable(e) => format!("{path}: error: {e}"),
    }
}

fn first(list: &[Violation]) -> String {
    list.first().map(ToString::to_string).unwrap_or_default()
}

fn line_json(f: &Path, o: &Outcome) -> serde_json::Value {
    match o {
        Outcome::Checked(r) => {
            let v = pte::Verdict::from(r);
            json!({
                "file": f.display().to_string(),
                "status": if !v.valid { "invalid" } else if v.warnings.is_empty() { "valid" } else { "warnings" },
                "valid": v.valid,
                "violations": v.violations,
                "warnings": v.warnings,
            })
        }
        Outcome::Unreadable(e) => json!({"file": f.display().to_string(), "status": "error", "error": e.to_string()}),
    }
}
