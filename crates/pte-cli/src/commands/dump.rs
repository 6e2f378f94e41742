//! `pte dump`: the stored program (or data file, package, bundle) as JSON.

use std::path::Path;

use crate::failure::{at, CmdResult};
use crate::input::Input;

pub(crate) fn run(file: &Path, exir: bool) -> CmdResult {
    let input = Input::open(file)?;
    if exir {
        return super::dump_exir::dump(file, input.bytes());
    }
    if !input.kind.is_known() {
        input.require("dump", &::pte::KINDS)?;
    }
    let dump = ::pte::Dump::read(input.kind, input.bytes()).map_err(at(file))?;
    crate::stream::to_stdout(|w| dump.write(w, true))
}
