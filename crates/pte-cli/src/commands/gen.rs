//! `pte gen`: valid programs that reach the format's corners, by seed.

use std::path::Path;

use crate::failure::{at, CmdResult, Failure};

pub(crate) fn run(seed: u64, count: u64, output: &Path) -> CmdResult {
    if count > 1 {
        std::fs::create_dir_all(output).map_err(|e| Failure::bad_input(format!("{}: {e}", output.display())))?;
    }
    for s in (0..count).map(|i| seed.wrapping_add(i)) {
        let path = if count > 1 { output.join(format!("gen-{s}.pte")) } else { output.to_path_buf() };
        let g = pte_gen::generate(s).map_err(at(&path))?;
        let n = g.file.save(&path, &g.options).map_err(at(&path))?;
        if count == 1 {
            println!("wrote {} ({n} bytes, seed {s})", path.display());
        }
    }
    if count > 1 {
        // the last seed written, not the one after it
        let last = seed.wrapping_add(count.saturating_sub(1));
        println!("wrote {count} programs (seeds {seed} to {last}) to {}", output.display());
    }
    Ok(())
}
