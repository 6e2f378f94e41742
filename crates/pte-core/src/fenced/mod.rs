//! The only code of this crate allowed to use `unsafe`: the memory map, the
//! libc calls that keep a file-size limit from killing a save and turn stop
//! signals into an error of the save under way, and the one that starts a
//! save's write-out early, and the `wait4` that reaps a child with its peak
//! memory.

mod mapped;
pub use mapped::MappedFile;

mod signals;
pub(crate) use signals::SaveUnderWay;
pub use signals::{
    check_interrupted, hold_stop_signals, ignore_file_size_signal, interrupted, stop_saves_on_signals, StopSignalsHeld,
};

mod writeback;
pub use writeback::start_writeback;

mod reap;
#[cfg(unix)]
pub(crate) use reap::reap;
