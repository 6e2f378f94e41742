//! Many files at once, shared by `pte verify` and `pte info`: folders are
//! walked (recursing, files chosen by content, not by name), and files are
//! handled by parallel workers whose results come back in path order.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::failure::{CmdResult, Exit, Failure};
use crate::progress::Progress;

/// Whether the arguments ask for the batch form: more than one path, or a folder.
pub(crate) fn is_batch(paths: &[PathBuf]) -> bool {
    !matches!(paths, [one] if !one.is_dir())
}

/// The files to handle: named files as given, folders walked in name order,
/// keeping the files whose content is an ExecuTorch kind. A named folder
/// holding none is a usage error (exit 2): a summary of "0 files" with exit
/// 0 would pass a mistyped or empty folder off as a clean run.
pub(crate) fn collect(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Failure> {
    let mut out = vec![];
    for p in paths {
        if p.is_dir() {
            let before = out.len();
            walk(p, &mut out)?;
            if out.len() == before {
                return Err(Failure::bad_input(format!(
                    "{}: a directory with no ExecuTorch file (.pte, .ptd, .ptn or .bpte) in it or below it",
                    p.display()
                )));
            }
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

/// Whether a file's content is a kind the batch commands take (the first
/// bytes and, for a zip, its member names decide; the name does not): a
/// checkpoint or other zip beside the models is skipped.
fn is_executorch(p: &Path) -> bool {
    pte_core::MappedFile::open(p).is_ok_and(|m| matches!(pte::identify(m.bytes()), pte::Identity::ExecuTorch(_)))
}

/// Runs `f` on every file on `available_parallelism` workers, each taking
/// the next file not yet taken, so one slow file does not hold a fixed share
/// back; results come back in the order of `files`. `what` labels the
/// progress bar.
pub(crate) fn map<T: Send>(
    files: &[PathBuf],
    what: &str,
    f: impl Fn(&Path) -> Result<T, Failure> + Sync,
) -> Vec<Result<T, Failure>> {
    let workers = std::thread::available_parallelism().map_or(2, usize::from).clamp(1, files.len().max(1));
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<Result<T, Failure>>>> = files.iter().map(|_| Mutex::new(None)).collect();
    let progress = Progress::bar(files.len() as u64, what);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let (Some(file), Some(slot)) = (files.get(i), slots.get(i)) else { break };
                let outcome = f(file);
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
                .unwrap_or_else(|| Err(Failure::bad_input("the worker handling this file stopped")))
        })
        .collect()
}

/// The batch's exit status: the worst of its files, already reported line
/// by line, so the failure carries no message of its own.
pub(crate) fn worst(exit: Option<Exit>) -> CmdResult {
    match exit {
        None => Ok(()),
        Some(exit) => Err(Failure { message: String::new(), exit, source: None, multiline: false }),
    }
}
