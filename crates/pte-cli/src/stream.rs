//! Large output written as it is produced (`pte dump` of a big program):
//! through one buffer to standard output, never held whole in memory.

use std::io::{BufWriter, StdoutLock, Write};

use crate::failure::CmdResult;

/// Runs `write` over a buffered standard output and ends the output with a
/// newline. Standard output closed early (`pte dump x | head`) ends the
/// process quietly, as `write_stdout` does.
pub(crate) fn to_stdout(write: impl FnOnce(&mut BufWriter<StdoutLock<'static>>) -> std::io::Result<()>) -> CmdResult {
    let mut out = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    if write(&mut out).and_then(|()| out.write_all(b"\n")).and_then(|()| out.flush()).is_err() {
        std::process::exit(0);
    }
    Ok(())
}
