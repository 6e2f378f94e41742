//! Edits that move weights between a program and `.ptd` files, with the one
//! write policy and the one key matcher every frontend uses.
//!
//! The CLI's `pte externalize`/`pte internalize`, Python's
//! `Program.externalize`/`pte_rs.internalize` and any Rust tool call these,
//! so the same request writes the same bytes whichever door it came through.
//! The policy (`rewrite`'s, shared by every edit): the program is written
//! with the layout its input shows (`WriteOptions::matching`: segment
//! alignment, inline delegate alignment, constants kept where they are),
//! the data file with the default `.ptd` layout; outputs that alias an input or each other are refused before
//! anything is read; an in-place internalize is locked from read to rename.

use std::path::Path;

use pte_core::{EditLock, ErrorKind, LockWait};
use pte_file::ptd::PtdFile;
use pte_file::LayoutChange;

use crate::edit_error::{about, general, program, require};
use crate::rewrite::write_policy;
use crate::EditError;

use crate::{Error, FileKind};

/// Which keys an edit selects: all of them, or those matching any of a list
/// of glob patterns (`*`, `?`, `[...]`; a key without those characters
/// matches itself only).
///
/// ```
/// let keys = pte::KeySelection::globs(&["layers.*.weight", "head.bias"])?;
/// assert!(keys.matches("layers.3.weight") && keys.matches("head.bias"));
/// assert!(!keys.matches("head.weight"));
/// assert!(pte::KeySelection::all().matches("anything"));
/// assert!(pte::KeySelection::globs(&["[unclosed"]).is_err());
/// # Ok::<(), pte::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct KeySelection {
    patterns: Option<Vec<glob::Pattern>>,
}

impl KeySelection {
    /// Every key.
    ///
    /// ```
    /// assert!(pte::KeySelection::all().is_all());
    /// ```
    pub fn all() -> Self {
        KeySelection { patterns: None }
    }

    /// The keys matching any of `patterns`; a malformed pattern is refused
    /// (`InvalidUse`), naming it.
    ///
    /// ```
    /// let e = pte::KeySelection::globs(&["a[b"]).unwrap_err();
    /// assert!(e.to_string().contains("\"a[b\""), "{e}");
    /// ```
    pub fn globs<S: AsRef<str>>(patterns: &[S]) -> Result<Self, Error> {
        let compiled = patterns
            .iter()
            .map(|p| {
                let p = p.as_ref();
                glob::Pattern::new(p).map_err(|e| Error::new(ErrorKind::InvalidUse, format!("key pattern {p:?}: {e}")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(KeySelection { patterns: Some(compiled) })
    }

    /// Whether every key is selected.
    ///
    /// ```
    /// assert!(!pte::KeySelection::globs(&["w"])?.is_all());
    /// # Ok::<(), pte::Error>(())
    /// ```
    pub fn is_all(&self) -> bool {
        self.patterns.is_none()
    }

    /// Whether `key` is selected.
    ///
    /// ```
    /// assert!(pte::KeySelection::globs(&["w*"])?.matches("weight"));
    /// # Ok::<(), pte::Error>(())
    /// ```
    pub fn matches(&self, key: &str) -> bool {
        self.patterns.as_ref().is_none_or(|ps| ps.iter().any(|p| p.matches(key)))
    }
}

/// What [`externalize`] is asked to do, and how the caller's frontend
/// spells its options (the refusal of an edit that would move nothing
/// names them, so the user reads the option they can type).
///
/// ```
/// let request = pte::Externalize {
///     keys: pte::KeySelection::all(),
///     name_constants: Some("constant."),
///     keys_spelled: None,
///     naming_spelled: "--name-constants PREFIX",
/// };
/// assert!(request.keys.is_all());
/// ```
#[derive(Debug, Clone)]
pub struct Externalize<'r> {
    /// The constants and named-data blobs to move, by key.
    pub keys: KeySelection,
    /// Names every unnamed constant `PREFIX<data_buffer_idx>` first.
    pub name_constants: Option<&'r str>,
    /// The key selection as the user typed it (`--keys "a.*"`), `None` for all.
    pub keys_spelled: Option<String>,
    /// The option that names unnamed constants, as the user would type it.
    pub naming_spelled: &'r str,
}

impl Externalize<'_> {
    /// A request for `keys`, naming no constants, spelled as the library
    /// names its fields (`keys`, `name_constants`).
    ///
    /// ```
    /// let request = pte::Externalize::new(pte::KeySelection::all());
    /// assert!(request.name_constants.is_none() && request.keys_spelled.is_none());
    /// ```
    pub fn new(keys: KeySelection) -> Self {
        Externalize { keys, name_constants: None, keys_spelled: None, naming_spelled: "name_constants" }
    }
}

/// What an externalization moved.
///
/// ```
/// let moved = pte::Moved::default();
/// assert!(moved.tensors.is_empty() && moved.named.is_empty() && moved.unnamed.is_empty());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Moved {
    /// Keys of the constant tensors now EXTERNAL.
    pub tensors: Vec<String>,
    /// Keys of the named-data blobs now in the data file.
    pub named: Vec<String>,
    /// Field paths of selected constants left in place because they have no name.
    pub unnamed: Vec<String>,
}

/// Moves the selected constants (as EXTERNAL tensors keyed by their fully
/// qualified names) and named-data blobs of the program in `bytes` into a
/// new `.ptd` at `data_out`, and saves the program at `program_out`, both
/// atomically. `source` names the input (for messages and for refusing an
/// output that would overwrite it); an edit that would move nothing is
/// refused before anything is written, saying why.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("pte-door-ext-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let input = &pte_testkit::corpus("xnnpack_mlp/model.pte");
/// let bytes = std::fs::read(input)?;
/// let request = pte::Externalize {
///     keys: pte::KeySelection::all(),
///     name_constants: None,
///     keys_spelled: None,
///     naming_spelled: "--name-constants PREFIX",
/// };
/// let moved = pte::externalize(&bytes, Some(input), &dir.join("p.pte"), &dir.join("d.ptd"), &request)?;
/// assert_eq!(moved.named.len(), 4);
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn externalize(
    bytes: &[u8],
    source: Option<&Path>,
    program_out: &Path,
    data_out: &Path,
    request: &Externalize<'_>,
) -> Result<Moved, EditError> {
    let inputs: Vec<&Path> = source.into_iter().collect();
    // Both outputs are new files: writing either over the input, or one
    // over the other, would lose the data being moved.
    pte_core::check_outputs(&inputs, &[program_out, data_out], false).map_err(general)?;
    let name = source.unwrap_or(Path::new("program"));
    let mut pte = program(name, bytes)?;
    let options = write_policy(&pte, bytes, &LayoutChange::default()).map_err(general)?;
    if let Some(prefix) = request.name_constants {
        pte_file::external::name_unnamed_constants(&mut pte, prefix).map_err(about(name))?;
    }
    let ex = pte_file::external::externalize(&pte, |k| request.keys.matches(k), &options, &Default::default())
        .map_err(about(name))?;
    ex.require_moved(request.keys_spelled.as_deref(), request.naming_spelled).map_err(about(name))?;
    ex.data.save(data_out, &Default::default()).map_err(about(data_out))?;
    ex.program.save(program_out, &options).map_err(about(program_out))?;
    Ok(Moved { tensors: ex.moved_tensors, named: ex.moved_named, unnamed: ex.unnamed })
}

/// Brings the EXTERNAL tensors of the program at `program_in` back from
/// the `.ptd` files in `data` (and their other keys as named data), saving
/// the result at `out` atomically; returns the bytes written. `out` may
/// name `program_in` (an in-place edit, locked from read to rename; `wait`
/// says whether to wait for another editor) but no data file; every input
/// must be of its kind.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("pte-door-int-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let input = &pte_testkit::corpus("xnnpack_mlp/model.pte");
/// let bytes = std::fs::read(input)?;
/// let request = pte::Externalize {
///     keys: pte::KeySelection::all(),
///     name_constants: None,
///     keys_spelled: None,
///     naming_spelled: "--name-constants PREFIX",
/// };
/// let (p, d, back) = (dir.join("p.pte"), dir.join("d.ptd"), dir.join("back.pte"));
/// pte::externalize(&bytes, Some(input), &p, &d, &request)?;
/// let written = pte::internalize(&p, &[d.as_path()], &back, pte::LockWait::Block)?;
/// assert_eq!(written, std::fs::metadata(&back)?.len());
/// assert!(pte::open(&back)?.verify(&[])?.is_ok());
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn internalize(program_in: &Path, data: &[&Path], out: &Path, wait: LockWait) -> Result<u64, EditError> {
    let mut inputs: Vec<&Path> = vec![program_in];
    inputs.extend_from_slice(data);
    let in_place = pte_core::check_outputs(&inputs, &[out], true).map_err(general)?;
    let lock = if in_place { Some(EditLock::acquire(out, wait).map_err(about(program_in))?) } else { None };
    let map = match &lock {
        Some(l) => l.map(),
        None => pte_core::MappedFile::open(program_in),
    }
    .map_err(about(program_in))?;
    let pte = program(program_in, map.bytes())?;
    let maps = data.iter().map(|p| pte_core::MappedFile::open(p).map_err(about(p))).collect::<Result<Vec<_>, _>>()?;
    let files = data
        .iter()
        .zip(&maps)
        .map(|(p, m)| {
            require(p, m.bytes(), FileKind::Ptd)?;
            PtdFile::from_bytes(m.bytes()).map_err(about(p))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let refs: Vec<&PtdFile<'_>> = files.iter().collect();
    let options = write_policy(&pte, map.bytes(), &LayoutChange::default()).map_err(general)?;
    let inside = pte_file::external::internalize(&pte, &refs, &options).map_err(about(program_in))?;
    match lock {
        Some(l) => l.save(|w| inside.write_to(w, &options)).map_err(about(out)),
        None => inside.save(out, &options).map_err(about(out)),
    }
}
