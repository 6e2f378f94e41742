//! The paths a command reads and writes: aliases among them are refused
//! before anything is written; how long an in-place edit waits for its lock.

use std::path::Path;
use std::sync::OnceLock;

use pte_core::LockWait;

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

/// Refuses two outputs naming one file, and an output naming an input:
/// every command but the door's in-place edits writes new files only.
pub(crate) fn refuse_aliases(inputs: &[&Path], outputs: &[&Path]) -> Result<(), Failure> {
    pte_core::check_outputs(inputs, outputs, false)?;
    Ok(())
}
