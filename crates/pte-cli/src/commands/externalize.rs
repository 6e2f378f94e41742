//! `pte externalize`: move named constants and named data into a `.ptd`.

use std::path::Path;

use crate::failure::{at, CmdResult, Failure};
use crate::input::{open, read_pte};
use crate::paths::Outputs;

pub(crate) fn run(
    input: &Path,
    output: &Path,
    data: &Path,
    keys: Option<&str>,
    name_constants: Option<&str>,
) -> CmdResult {
    let pattern = match keys {
        Some(k) => Some(glob::Pattern::new(k).map_err(|e| Failure::bad_input(format!("--keys {k:?}: {e}")))?),
        None => None,
    };
    // Both outputs are new files: writing either over the input, or one over
    // the other, would lose the data being moved.
    Outputs::new(&[input], &[output, data], false)?;
    let map = open(input)?;
    let mut pte = read_pte(input, map.bytes())?;
    if let Some(prefix) = name_constants {
        pte_file::external::name_unnamed_constants(&mut pte, prefix).map_err(at(input))?;
    }
    let matches = |k: &str| pattern.as_ref().is_none_or(|p| p.matches(k));
    let ex = pte_file::external::externalize(&pte, matches, &Default::default(), &Default::default())?;
    let selection = keys.map(|k| format!("--keys {k:?}"));
    ex.require_moved(selection.as_deref(), "--name-constants PREFIX").map_err(at(input))?;
    for u in &ex.unnamed {
        eprintln!("pte: warning: constant at {u} has no fully qualified name; it stays in the program");
    }
    ex.data.save(data, &Default::default()).map_err(at(data))?;
    ex.program.save(output, &Default::default()).map_err(at(output))?;
    println!(
        "moved {} tensors and {} named blobs into {}; wrote {}",
        ex.moved_tensors.len(),
        ex.moved_named.len(),
        data.display(),
        output.display()
    );
    Ok(())
}
