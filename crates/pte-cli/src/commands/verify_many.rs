//! `pte verify` over many files and folders: folders are walked (recursing,
//! files chosen by content, not by name), files are checked by parallel
//! workers, one line per file (or one JSON object per line) in path order,
//! then a summary; the exit status is the worst result.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use serde_json::json;

use pte_core::{FileKind, Report, Violation};

use crate::commands::verify;
use crate::failure::{CmdResult, Exit, Failure};
use crate::progress::Progress;

/// How one file came out.
enum Outcome {
    Checked(Report),
    Unreadable(Failure),
}

pub(crate) fn run(paths: &[PathBuf], ptds: &[PathBuf], json: bool, deny_warnings: bool) -> CmdResult {
    let files = collect(paths)?;
    let outcomes = check_all(&files, ptds);
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
        Some(Exit::Wanting)
    } else {
        None
    };
    match exit {
        None => Ok(()),
        Some(exit) => Err(Failure { message: String::new(), exit, source: None }),
    }
}

/// The files to check: named files as given, folders walked in name order,
/// keeping the files whose content is an ExecuTorch kind.
fn collect(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Failure> {
    let mut out = vec![];
    for p in paths {
        if p.is_dir() {
            walk(p, &mut out)?;
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), Failure> {
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(dir).map_err(crate::failure::at(dir))?.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        // links to folders are not followed, so a loop cannot recurse forever
        let Ok(meta) = std::fs::symlink_metadata(&p) else { continue };
        if meta.is_dir() {
            walk(&p, out)?;
        } else if meta.is_file() && is_executorch(&p) {
            out.push(p);
        }
    }
    Ok(())
}

/// Whether a file's content is a kind `verify` takes (the first bytes and,
/// for a zip, the end of the file decide; the name does not).
fn is_executorch(p: &Path) -> bool {
    pte_core::MappedFile::open(p).is_ok_and(|m| FileKind::detect(m.bytes()) != FileKind::Unknown)
}

/// Checks every file on `available_parallelism` workers, each taking the
/// next unchecked file, so one slow file does not hold a fixed share back.
fn check_all(files: &[PathBuf], ptds: &[PathBuf]) -> Vec<Outcome> {
    let workers = std::thread::available_parallelism().map_or(2, usize::from).clamp(1, files.len().max(1));
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<Outcome>>> = files.iter().map(|_| Mutex::new(None)).collect();
    let progress = Progress::bar(files.len() as u64, "verify");
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let (Some(f), Some(slot)) = (files.get(i), slots.get(i)) else { break };
                let outcome = check(f, ptds);
                if let Ok(mut g) = slot.lock() {
                    *g = Some(outcome);
                }
                progress.inc(1);
            });
        }
    });
    slots
        .into_iter()
        .map(|m| {
            m.into_inner()
                .ok()
                .flatten()
                .unwrap_or_else(|| Outcome::Unreadable(Failure::bad_input("the worker checking this file stopped")))
        })
        .collect()
}

fn check(file: &Path, ptds: &[PathBuf]) -> Outcome {
    // --ptd resolves programs; the data files in the same folders are checked on their own
    let is_pte = pte_core::MappedFile::open(file).is_ok_and(|m| FileKind::detect(m.bytes()) == FileKind::Pte);
    match verify::report(file, if is_pte { ptds } else { &[] }) {
        Ok(r) => Outcome::Checked(r),
        Err(e) => Outcome::Unreadable(e),
    }
}

fn line_text(f: &Path, o: &Outcome) -> String {
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
    let entry =
        |v: &Violation| json!({"rule": v.rule.name(), "path": v.path, "offset": v.offset, "message": v.message});
    match o {
        Outcome::Checked(r) => json!({
            "file": f.display().to_string(),
            "status": if !r.is_ok() { "invalid" } else if r.warnings.is_empty() { "valid" } else { "warnings" },
            "valid": r.is_ok(),
            "violations": r.violations.iter().map(entry).collect::<Vec<_>>(),
            "warnings": r.warnings.iter().map(entry).collect::<Vec<_>>(),
        }),
        Outcome::Unreadable(e) => json!({"file": f.display().to_string(), "status": "error", "error": e.to_string()}),
    }
}
