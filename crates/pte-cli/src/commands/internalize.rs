//! `pte internalize`: move EXTERNAL tensors and `.ptd` blobs back into the program.

use std::path::{Path, PathBuf};

use pte_file::ptd::PtdFile;

use crate::failure::{at, CmdResult, Failure};
use crate::formats::ptd::read_ptd;
use crate::input::{open, read_pte};
use crate::paths::Outputs;

pub(crate) fn run(files: &[PathBuf]) -> CmdResult {
    let (Some(input), Some(output)) = (files.first(), files.last()) else {
        return Err(Failure::bad_input("usage: pte internalize IN.pte DATA.ptd... OUT.pte"));
    };
    let data_paths = files.get(1..files.len().saturating_sub(1)).unwrap_or(&[]);
    let mut inputs: Vec<&Path> = vec![input.as_path()];
    inputs.extend(data_paths.iter().map(PathBuf::as_path));
    let outputs = Outputs::new(&inputs, &[output.as_path()], true)?;
    let lock = outputs.lock_in_place()?;
    let map = match &lock {
        Some(l) => l.map()?,
        None => open(input)?,
    };
    let pte = read_pte(input, map.bytes())?;
    let maps = data_paths.iter().map(|p| open(p)).collect::<Result<Vec<_>, _>>()?;
    let ptds = data_paths.iter().zip(&maps).map(|(p, m)| read_ptd(p, m.bytes())).collect::<Result<Vec<_>, _>>()?;
    let refs: Vec<&PtdFile<'_>> = ptds.iter().collect();
    let inside = pte_file::external::internalize(&pte, &refs, &Default::default())?;
    match lock {
        Some(l) => l.save(|w| inside.write_to(w, &Default::default()).map(drop))?,
        None => drop(inside.save(output, &Default::default()).map_err(at(output))?),
    }
    println!("wrote {}", output.display());
    Ok(())
}
