//! `pte rewrite`: read a file and write it again, with the layout it had
//! unless an option changes it, through the door (`pte::rewrite`: an
//! in-place edit locked from read to rename, segments copied file to file).

use std::path::Path;

use crate::failure::CmdResult;
use crate::layout_args::LayoutArgs;

pub(crate) fn run(input_path: &Path, output: &Path, layout: LayoutArgs) -> CmdResult {
    let _progress = crate::progress::Progress::spinner("rewrite");
    let n = pte::rewrite(input_path, output, &layout.change(), crate::paths::lock_wait())?;
    println!("wrote {} ({n} bytes)", output.display());
    Ok(())
}
