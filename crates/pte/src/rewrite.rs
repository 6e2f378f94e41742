//! Writing a program or package again, its layout kept or changed: the one
//! path `pte rewrite`, Python's `Program.save`/`to_bytes` and C's
//! `pte_rewrite` take, with the one write policy every edit uses.
//!
//! The policy ([`write_policy`]): a program is written with the layout its
//! input shows (`WriteOptions::matching`), changed only where the caller's
//! [`LayoutChange`] says. A file written from its path (segments copied file
//! to file) and the same program written from bytes give the same bytes.

use std::path::Path;

use pte_core::{EditLock, ErrorKind, LockWait, MappedFile};
use pte_file::{LayoutChange, PteFile, WriteOptions};
use pte_ptn::PtnFile;

use crate::edit_error::{about, general, program};
use crate::{EditError, Error, FileKind, Identity};

/// The layout an edited program is saved with: the one its input shows,
/// changed as `change` says (an alignment the writer cannot honour is the
/// caller's error).
pub(crate) fn write_policy(pte: &PteFile<'_>, bytes: &[u8], change: &LayoutChange) -> Result<WriteOptions, Error> {
    change.apply(WriteOptions::matching(pte, bytes))
}

/// Refuses a change the writer cannot honour before any file is touched.
fn check_change(change: &LayoutChange) -> Result<(), EditError> {
    change.apply(WriteOptions::default()).map(drop).map_err(general)
}

/// A package takes no layout options: its members are stored as they are.
fn refuse_package_layout(change: &LayoutChange) -> Result<(), EditError> {
    if change.is_none() {
        return Ok(());
    }
    Err(general(Error::new(ErrorKind::InvalidUse, "layout options apply to .pte programs only")))
}

/// Writes the `.pte` or `.ptn` at `input` again at `out`, atomically, with
/// `change` applied to a program's stored layout (a package takes no
/// change); returns the bytes written. `out` may name `input`: that is an
/// in-place edit, locked from read to rename (`wait` says whether to wait
/// for another editor). Segment bytes go file to file from the very file
/// read, never from a second open of the path.
///
/// With no change a program is written as stored: byte for byte the input
/// when its segment base is where its own segment alignment puts it.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let input = pte_testkit::corpus("linear/model.pte");
/// let out = dir.path().join("copy.pte");
/// let n = pte::rewrite(&input, &out, &pte::LayoutChange::default(), pte::LockWait::Block)?;
/// assert_eq!(std::fs::read(&out)?, std::fs::read(&input)?);
/// assert_eq!(n, std::fs::metadata(&out)?.len());
///
/// let wide = pte::LayoutChange { segment_alignment: Some(4096), ..Default::default() };
/// pte::rewrite(&input, &out, &wide, pte::LockWait::Block)?;
/// assert_ne!(std::fs::read(&out)?, std::fs::read(&input)?);
/// assert!(pte::open(&out)?.verify(&[])?.is_ok());
///
/// let ptd = pte_testkit::corpus("external/_default_external_constant.ptd");
/// let e = pte::rewrite(&ptd, &out, &Default::default(), pte::LockWait::Block).unwrap_err();
/// assert!(e.to_string().contains("this takes a .pte program or a .ptn package"), "{e}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn rewrite(input: &Path, out: &Path, change: &LayoutChange, wait: LockWait) -> Result<u64, EditError> {
    let in_place = pte_core::check_outputs(&[input], &[out], true).map_err(general)?;
    let lock = if in_place { Some(EditLock::acquire(out, wait).map_err(general)?) } else { None };
    let opened;
    let source = match &lock {
        Some(l) => l.file(),
        None => {
            opened = pte_core::open_input(input).map_err(general)?;
            &opened
        }
    };
    let map = MappedFile::from_file(source, input).map_err(general)?;
    let bytes = map.bytes();
    match crate::identify(bytes) {
        Identity::ExecuTorch(FileKind::Ptn) => save_package(bytes, input, out, lock.as_ref(), change),
        Identity::ExecuTorch(FileKind::Pte) => rewrite_program(&map, input, out, lock.as_ref(), change),
        _ => Err(not_rewritable(input, bytes)),
    }
}

/// The refusal of a file that is neither a program nor a package.
fn not_rewritable(input: &Path, bytes: &[u8]) -> EditError {
    let what = crate::describe(bytes);
    about(input)(Error::new(
        ErrorKind::InvalidUse,
        format!("{what}; this takes {} or {}", FileKind::Pte, FileKind::Ptn),
    ))
}

/// The package in `bytes` (from `input`) written to `out`, or through
/// `lock` when the edit is in place.
fn save_package(
    bytes: &[u8],
    input: &Path,
    out: &Path,
    lock: Option<&EditLock>,
    change: &LayoutChange,
) -> Result<u64, EditError> {
    refuse_package_layout(change)?;
    let ptn = PtnFile::from_bytes(bytes).map_err(about(input))?;
    match lock {
        Some(l) => l.save_file(|f| ptn.write_to(&mut std::io::BufWriter::with_capacity(1 << 20, f))).map_err(general),
        None => ptn.save(out).map_err(about(out)),
    }
}

/// The program mapped in `map` (from `input`) written to `out`, or through
/// `lock` when the edit is in place.
fn rewrite_program(
    map: &MappedFile,
    input: &Path,
    out: &Path,
    lock: Option<&EditLock>,
    change: &LayoutChange,
) -> Result<u64, EditError> {
    check_change(change)?;
    let reached = std::cell::Cell::new(false);
    let write = |dst: &std::fs::File| {
        reached.set(true);
        pte_file::rewrite(map, dst, change)
    };
    let saved = match lock {
        Some(l) => l.save_file(write),
        None => pte_core::write_atomically_file(out, write),
    };
    match saved {
        Ok(n) => Ok(n),
        // the library reads before it writes: only its I/O errors are the output's
        Err(e) if reached.get() && e.kind() != ErrorKind::Io => Err(about(input)(e)),
        Err(e) => {
            if !reached.get() {
                // the output failed before the input was read (a directory,
                // no room for a temporary file): a damaged input is still
                // what is reported
                PteFile::from_bytes(map.bytes()).map_err(about(input))?;
            }
            Err(if lock.is_some() { general(e) } else { about(out)(e) })
        }
    }
}

/// Writes the program or package in `bytes` again at `out`, atomically,
/// with `change` applied to a program's stored layout; returns the bytes
/// written. For a file held in memory, or inside another file (a bundle's
/// program): `source` names the file the bytes came from, and `whole_file`
/// says whether they are all of it. `out` may replace `source` only when
/// they are (an in-place edit, locked while it writes); a bundle is never
/// replaced by its program.
///
/// Writes what [`rewrite`] writes for the same file and change.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let input = pte_testkit::corpus("linear/model.pte");
/// let bytes = std::fs::read(&input)?;
/// let change = pte::LayoutChange { segment_alignment: Some(4096), ..Default::default() };
/// let (a, b) = (dir.path().join("a.pte"), dir.path().join("b.pte"));
/// pte::rewrite_bytes(&bytes, Some(&input), true, &a, &change, pte::LockWait::Block)?;
/// pte::rewrite(&input, &b, &change, pte::LockWait::Block)?;
/// assert_eq!(std::fs::read(&a)?, std::fs::read(&b)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn rewrite_bytes(
    bytes: &[u8],
    source: Option<&Path>,
    whole_file: bool,
    out: &Path,
    change: &LayoutChange,
    wait: LockWait,
) -> Result<u64, EditError> {
    let inputs: Vec<&Path> = source.into_iter().collect();
    let in_place = pte_core::check_outputs(&inputs, &[out], whole_file).map_err(general)?;
    let name = source.unwrap_or(Path::new("program"));
    let lock = if in_place { Some(EditLock::acquire(out, wait).map_err(general)?) } else { None };
    match crate::identify(bytes) {
        Identity::ExecuTorch(FileKind::Ptn) => save_package(bytes, name, out, lock.as_ref(), change),
        Identity::ExecuTorch(FileKind::Pte) => {
            check_change(change)?;
            // identified above: read it, without asking its kind again
            let pte = PteFile::from_bytes(bytes).map_err(about(name))?;
            let options = write_policy(&pte, bytes, change).map_err(general)?;
            match lock {
                Some(l) => l.save(|w| pte.write_to(w, &options)).map_err(general),
                None => pte.save(out, &options).map_err(about(out)),
            }
        }
        _ => Err(not_rewritable(name, bytes)),
    }
}

/// The program in `bytes` serialized with `change` applied to its stored
/// layout: the bytes [`rewrite_bytes`] would write.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
/// assert_eq!(pte::program_bytes(&bytes, &Default::default())?, bytes);
/// let bad = pte::LayoutChange { tensor_alignment: Some(3), ..Default::default() };
/// assert!(pte::program_bytes(&bytes, &bad).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn program_bytes(bytes: &[u8], change: &LayoutChange) -> Result<Vec<u8>, Error> {
    change.apply(WriteOptions::default())?;
    let pte = program(Path::new("program"), bytes).map_err(EditError::into_error)?;
    let options = write_policy(&pte, bytes, change)?;
    pte.to_bytes(&options)
}
