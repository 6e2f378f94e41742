//! The paths a command reads and writes: aliases among them are refused
//! before anything is written, and an in-place edit is locked.

use std::path::Path;
use std::sync::OnceLock;

use pte_core::{EditLock, LockWait};

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
        let in_place = pte_core::check_outputs(inputs, outputs, in_place_ok)?;
        Ok(Outputs { in_place: if in_place { outputs.first().copied() } else { None } })
    }

    /// For an in-place edit, the lock held from read to rename.
    pub(crate) fn lock_in_place(&self) -> Result<Option<EditLock>, Failure> {
        match self.in_place {
            Some(p) => Ok(Some(EditLock::acquire(p, lock_wait())?)),
            None => Ok(None),
        }
    }
}
