//! `pte gen`: valid programs that reach the format's corners, by seed.

use std::path::Path;

use pte_core::folder::OutputFolder;

use crate::failure::{at, CmdResult, Failure};

pub(crate) fn run(seed: u64, count: u64, output: &Path, force: bool) -> CmdResult {
    if count == 0 {
        return Ok(());
    }
    if count == 1 {
        if force {
            return Err(Failure::bad_input("--force applies with --count above 1 (OUT is then a directory)"));
        }
        let g = pte_gen::generate(seed).map_err(at(output))?;
        let n = g.file.save(output, &g.options).map_err(at(output))?;
        println!("wrote {} ({n} bytes, seed {seed})", output.display());
        return Ok(());
    }
    // the one output-folder policy: a non-empty folder only with --force,
    // nothing already there (a link, a FIFO) written through
    let folder = OutputFolder::open(output, force)?;
    for s in (0..count).map(|i| seed.wrapping_add(i)) {
        let name = format!("gen-{s}.pte");
        let path = output.join(&name);
        let g = pte_gen::generate(s).map_err(at(&path))?;
        folder.write_atomically(&name, |w| g.file.write_to(w, &g.options)).map_err(at(&path))?;
    }
    // the last seed written, not the one after it
    let last = seed.wrapping_add(count.saturating_sub(1));
    println!("wrote {count} programs (seeds {seed} to {last}) to {}", output.display());
    Ok(())
}
