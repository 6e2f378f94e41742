//! `pte rewrite`: read a file into the aggregate and write it again, with
//! the layout it had unless an option changes it.

use std::path::Path;

use pte_core::{FileKind, MappedFile};

use crate::failure::{at, CmdResult, Failure};
use crate::formats;
use crate::input::{require_kind, Input};
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
    input.require("rewrite", &[FileKind::Pte, FileKind::Ptn])?;
    let bytes = input.bytes();
    if input.kind == FileKind::Ptn {
        if !layout.keeps_everything() {
            return Err(Failure::bad_input("alignment options apply to .pte programs only"));
        }
        let ptn = formats::ptn::read_ptn(input_path, bytes)?;
        match &lock {
            Some(l) => l.save_file(|f| ptn.write_file(f))?,
            None => ptn.save(output).map_err(at(output))?,
        }
        let size = std::fs::metadata(output).map_err(at(output))?.len();
        println!("wrote {} ({size} bytes)", output.display());
        return Ok(());
    }
    // read with the segment table left in the buffer and, for a sound
    // program, its plans undecoded: a rewrite that keeps the program copies it
    require_kind(input_path, bytes, FileKind::Pte)?;
    if layout.keeps_everything() {
        return rewrite_as_stored(input_path, output, lock.as_ref(), source, bytes);
    }
    let stored = pte_file::KeepRewrite::from_bytes(bytes).map_err(at(input_path))?;
    let o = layout.apply(stored.matching_options())?;
    let write = |dst: &std::fs::File| -> pte_file::Result<u64> {
        if let Some(n) = stored.write_keeping_program(dst, &o, source)? {
            return Ok(n);
        }
        pte_file::PteFile::from_bytes(bytes)?.write_keeping_program(dst, &o, source, bytes)
    };
    let n = match &lock {
        Some(l) => l.save_file(write)?,
        None => pte_file::write_atomically_file(output, write).map_err(at(output))?,
    };
    println!("wrote {} ({n} bytes)", output.display());
    Ok(())
}

/// A rewrite with no option: the program flatbuffer is copied into the
/// temporary file while it is verified ([`pte_file::KeepRewrite::read_prefilling`]).
/// A file that does not read fails as before, naming the input, whatever
/// the output: the temporary file, if made, is removed.
fn rewrite_as_stored(
    input_path: &Path,
    output: &Path,
    lock: Option<&pte_core::EditLock>,
    source: &std::fs::File,
    bytes: &[u8],
) -> CmdResult {
    let unread = std::cell::Cell::new(None);
    let reached = std::cell::Cell::new(false);
    let write = |dst: &std::fs::File| -> pte_file::Result<u64> {
        reached.set(true);
        let read = match pte_file::KeepRewrite::read_prefilling(bytes, source, dst) {
            Ok(read) => read,
            Err(e) => {
                // abandons the save; the error reported is the read's
                let cancel = pte_file::Error::new(pte_file::ErrorKind::InvalidUse, e.to_string());
                unread.set(Some(e));
                return Err(cancel);
            }
        };
        let o = read.read().matching_options();
        if let Some(n) = read.finish(&o)? {
            return Ok(n);
        }
        pte_file::PteFile::from_bytes(bytes)?.write_keeping_program(dst, &o, source, bytes)
    };
    let saved = match lock {
        Some(l) => l.save_file(write).map_err(Failure::from),
        None => pte_file::write_atomically_file(output, write).map_err(at(output)),
    };
    if let Some(e) = unread.take() {
        return Err(at(input_path)(e));
    }
    if saved.is_err() && !reached.get() {
        // the output failed before the input was read (a directory, no room
        // for a temporary file): a damaged input is still what is reported
        pte_file::KeepRewrite::from_bytes(bytes).map_err(at(input_path))?;
    }
    let n = saved?;
    println!("wrote {} ({n} bytes)", output.display());
    Ok(())
}
