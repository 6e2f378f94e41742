//! The paths a command reads and writes: aliases among them are refused
//! before anything is written, and an in-place edit is locked.

use std::path::Path;
use std::sync::OnceLock;

use pte_core::{same_file, EditLock, LockWait};

use crate::failure::Failure;

static WAIT: OnceLock<LockWait> = OnceLock::new();

/// Sets, once at start, whether in-place edits wait for another editor.
pub(crate) fn set_lock_wait(wait: LockWait) {
    let _ = WAIT.set(wait);
}

/// Whether in-place edits wait for another editor (the default) or fail.
pub(crate) fn lock_wait() -> LockWait {
    WAIT.get().copied().unwrap_or_default()
}

/// The checked paths of one command.
pub(crate) struct Outputs<'a> {
    /// The output that names the first input again, when that is an in-place edit.
    in_place: Option<&'a Path>,
}

impl<'a> Outputs<'a> {
    /// Refuses two outputs naming one file, and an output naming an input,
    /// except (with `in_place_ok`) the first input named by the first
    /// output: an in-place edit, which [`Outputs::lock_in_place`] locks.
    pub(crate) fn new(inputs: &[&'a Path], outputs: &[&'a Path], in_place_ok: bool) -> Result<Self, Failure> {
        for (i, a) in outputs.iter().enumerate() {
            for b in outputs.iter().skip(i.saturating_add(1)) {
                if same_file(a, b) {
                    return Err(alias(a, b, "two outputs name the same file; one would overwrite the other"));
                }
            }
        }
        let mut in_place = None;
        for (i, out) in outputs.iter().enumerate() {
            for (j, inp) in inputs.iter().enumerate() {
                if !same_file(out, inp) {
                    continue;
                }
                if in_place_ok && i == 0 && j == 0 {
                    // The output path is what gets replaced: through a hard
                    // link, the input's own name would keep the old file and
                    // the named output would never be written.
                    in_place = Some(*out);
                } else {
                    return Err(alias(
                        out,
                        inp,
                        "an output names an input; writing it would destroy data still needed",
                    ));
                }
            }
        }
        Ok(Outputs { in_place })
    }

    /// For an in-place edit, the lock held from read to rename.
    pub(crate) fn lock_in_place(&self) -> Result<Option<EditLock>, Failure> {
        match self.in_place {
            Some(p) => Ok(Some(EditLock::acquire(p, lock_wait())?)),
            None => Ok(None),
        }
    }
}

fn alias(a: &Path, b: &Path, why: &str) -> Failure {
    let same = if a == b { String::new() } else { format!(" ({} and {} are one file)", a.display(), b.display()) };
    Failure::bad_input(format!("{why}{same}; nothing was written"))
}
