//! Opening a command's input once: mapped, recognised by content, and
//! refused with a message naming what it is when the command cannot take it.

use std::path::{Path, PathBuf};

use pte_core::{FileKind, MappedFile};
use pte_file::PteFile;

use crate::failure::{at, Failure};

/// An input file, mapped and recognised once.
pub(crate) struct Input {
    pub(crate) path: PathBuf,
    pub(crate) map: MappedFile,
    pub(crate) kind: FileKind,
}

impl Input {
    /// Maps `path` (regular files only) and detects its kind.
    pub(crate) fn open(path: &Path) -> Result<Input, Failure> {
        Ok(Input::from_map(path, open(path)?))
    }

    /// Wraps a map made elsewhere (under an edit lock).
    pub(crate) fn from_map(path: &Path, map: MappedFile) -> Input {
        // a zip that is not a package (a checkpoint) is of no kind
        let kind = pte::identify(map.bytes()).named_kind();
        Input { path: path.to_path_buf(), map, kind }
    }

    pub(crate) fn bytes(&self) -> &[u8] {
        self.map.bytes()
    }

    /// Refuses this input unless it is of one of the kinds `command` takes.
    pub(crate) fn require(&self, command: &str, takes: &[FileKind]) -> Result<(), Failure> {
        if takes.contains(&self.kind) {
            return Ok(());
        }
        Err(Failure::bad_input(format!(
            "{}: {}; `pte {command}` takes {}",
            self.path.display(),
            describe(self.bytes()),
            list(takes)
        )))
    }
}

/// Maps a file, refusing anything but a regular file.
pub(crate) fn open(path: &Path) -> Result<MappedFile, Failure> {
    MappedFile::open(path).map_err(Failure::from)
}

/// "a .pte program", or for other bytes what they look like instead: the
/// library's one naming ([`pte::describe`]), shared with the Python package.
pub(crate) fn describe(bytes: &[u8]) -> String {
    pte::describe(bytes)
}

/// The door's kinds ([`pte::KINDS`]) of which `takes` holds, in its order:
/// what a command that is not one of the door's answers takes.
pub(crate) fn kinds_where(takes: impl Fn(FileKind) -> bool) -> Vec<FileKind> {
    pte::KINDS.into_iter().filter(|k| takes(*k)).collect()
}

fn list(kinds: &[FileKind]) -> String {
    let names: Vec<String> = kinds.iter().map(ToString::to_string).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => "nothing".into(),
    }
}

/// Whether unknown bytes still look like a program whose identifier was
/// damaged: those are judged by the verifier rather than refused, so the
/// damage is named by its rule.
pub(crate) fn looks_like_damaged_program(bytes: &[u8]) -> bool {
    pte::identify(bytes) == pte::Identity::DamagedProgram
}

/// Reads a `.pte` program, refusing other kinds by name.
pub(crate) fn read_pte<'a>(path: &Path, bytes: &'a [u8]) -> Result<PteFile<'a>, Failure> {
    require_kind(path, bytes, FileKind::Pte)?;
    PteFile::from_bytes(bytes).map_err(at(path))
}

/// Refuses any file that is not of `want`'s kind, naming what it is.
pub(crate) fn require_kind(path: &Path, bytes: &[u8], want: FileKind) -> Result<(), Failure> {
    if pte::identify(bytes) == pte::Identity::ExecuTorch(want) {
        return Ok(());
    }
    Err(Failure::bad_input(format!("{}: {}; this command takes {want}", path.display(), describe(bytes))))
}
