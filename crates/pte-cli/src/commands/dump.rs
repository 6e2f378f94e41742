//! `pte dump`: the stored program (or data file, package, bundle) as JSON.

use std::path::Path;

use pte_core::FileKind;

use crate::failure::{at, CmdResult};
use crate::formats;
use crate::input::Input;

pub(crate) fn run(file: &Path, exir: bool) -> CmdResult {
    let input = Input::open(file)?;
    if exir {
        return super::dump_exir::dump(file, input.bytes());
    }
    input.require("dump", &[FileKind::Pte, FileKind::Ptd, FileKind::Ptn, FileKind::Bpte])?;
    let bytes = input.bytes();
    match input.kind {
        FileKind::Ptd => {
            let ptd = formats::ptd::read_ptd(file, bytes)?;
            let v = pte_schema::ptd::flat_tensor_to_json(&ptd.flat_tensor);
            println!("{}", serde_json::to_string_pretty(&v)?);
            Ok(())
        }
        FileKind::Ptn => formats::ptn::dump(file, bytes),
        FileKind::Bpte => formats::bpte::dump(file, bytes),
        _ => {
            // the stored program only: segment problems must not hide it
            let fail = at::<pte_file::Error>(file);
            let (_, region) = pte_file::verify::program_region(bytes).map_err(&fail)?;
            let json = pte_schema::ProgramJson::new(region, &Default::default()).map_err(&fail)?;
            crate::stream::to_stdout(|w| json.write_pretty(w))
        }
    }
}
