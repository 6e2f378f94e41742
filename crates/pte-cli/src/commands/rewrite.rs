//! `pte rewrite`: read a file into the aggregate and write it again, with
//! the layout it had unless an option changes it.

use std::path::Path;

use pte_core::{FileKind, MappedFile};

use crate::failure::{at, CmdResult, Failure};
use crate::formats;
use crate::input::{kinds_where, require_kind, Input};
use crate::layout_args::LayoutArgs;
use crate::paths::Outputs;

pub(crate) fn run(input_path: &Path, output: &Path, layout: LayoutArgs) -> CmdResult {
    // Rewriting a file onto itself is an in-place edit: locked from read to rename.
    let _progress = crate::progress::Progress::spinner("rewrite");
    let outputs = Outputs::new(&[input_path], &[output], true)?;
    let lock = outputs.lock_in_place()?;
    // Segments are copied from the file that was mapped, never from a second
    // open of the path: a file renamed over it in between (another editor's
    // save) would be copied at the first file's offsets into a mix of both.
    let opened;
    let source = match &lock {
        Some(l) => l.file(),
        None => {
            opened = pte_core::open_input(input_path)?;
            &opened
        }
    };
    let input = Input::from_map(input_path, MappedFile::from_file(source, input_path)?);
    input.require("rewrite", &kinds_where(|k| k.is_pte() || k.is_ptn()))?;
    let bytes = input.bytes();
    if input.kind.is_ptn() {
        if !layout.keeps_everything() {
            return Err(Failure::bad_input("alignment options apply to .pte programs only"));
        }
        let ptn = formats::ptn::read_ptn(input_path, bytes)?;
        let size = match &lock {
            Some(l) => l.save_file(|f| ptn.write_to(&mut std::io::BufWriter::with_capacity(1 << 20, f)))?,
            None => ptn.save(output).map_err(at(output))?,
        };
        println!("wrote {} ({size} bytes)", output.display());
        return Ok(());
    }
    require_kind(input_path, bytes, FileKind::Pte)?;
    let change = layout.change();
    // a bad option is the user's, reported before any file is touched
    change.apply(pte_file::WriteOptions::default())?;
    let map = &input.map;
    let reached = std::cell::Cell::new(false);
    let write = |dst: &std::fs::File| {
        reached.set(true);
        pte_file::rewrite(map, dst, &change)
    };
    let saved = match &lock {
        Some(l) => l.save_file(write),
        None => pte_file::write_atomically_file(output, write),
    };
    let n = match saved {
        Ok(n) => n,
        // the library reads before it writes: only its I/O errors are the output's
        Err(e) if reached.get() && e.kind() != pte_file::ErrorKind::Io => return Err(at(input_path)(e)),
        Err(e) => {
            if !reached.get() {
                // the output failed before the input was read (a directory, no
                // room for a temporary file): a damaged input is still what is
                // reported
                pte_file::PteFile::from_bytes(bytes).map_err(at(input_path))?;
            }
            return Err(match &lock {
                Some(_) => Failure::from(e),
                None => at(output)(e),
            });
        }
    };
    println!("wrote {} ({n} bytes)", output.display());
    Ok(())
}
