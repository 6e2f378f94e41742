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
        let map = open(path)?;
        let kind = FileKind::detect(map.bytes());
        Ok(Input { path: path.to_path_buf(), map, kind })
    }

    /// Wraps a map made elsewhere (under an edit lock).
    pub(crate) fn from_map(path: &Path, map: MappedFile) -> Input {
        let kind = FileKind::detect(map.bytes());
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
            describe(self.kind, self.bytes()),
            list(takes)
        )))
    }
}

/// Maps a file, refusing anything but a regular file.
pub(crate) fn open(path: &Path) -> Result<MappedFile, Failure> {
    MappedFile::open(path).map_err(Failure::from)
}

/// "a .pte program", or for unknown bytes what they look like instead.
pub(crate) fn describe(kind: FileKind, bytes: &[u8]) -> String {
    match kind {
        FileKind::Unknown if bytes.len() < 8 => "too short to be an ExecuTorch file".into(),
        FileKind::Unknown if looks_like_safetensors(bytes) => "a safetensors file, not an ExecuTorch file".into(),
        FileKind::Unknown => "not an ExecuTorch file (no known identifier at byte 4, not a zip)".into(),
        k => k.to_string(),
    }
}

fn list(kinds: &[FileKind]) -> String {
    let names: Vec<String> = kinds.iter().map(ToString::to_string).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => "nothing".into(),
    }
}

/// A safetensors file starts with the length of its JSON header, then `{`.
fn looks_like_safetensors(bytes: &[u8]) -> bool {
    let Some(n) = bytes.get(..8).and_then(|b| <[u8; 8]>::try_from(b).ok()).map(u64::from_le_bytes) else {
        return false;
    };
    bytes.get(8) == Some(&b'{') && n <= bytes.len() as u64
}

/// Whether unknown bytes still look like a program whose identifier was
/// damaged (a plausible root offset, or an `eh00` header): those are judged
/// by the verifier rather than refused, so the damage is named by its rule.
pub(crate) fn looks_like_damaged_program(bytes: &[u8]) -> bool {
    if bytes.len() < 64 || looks_like_safetensors(bytes) {
        return false;
    }
    if bytes.get(8..12) == Some(b"eh00".as_slice()) {
        return true;
    }
    let root = bytes.get(..4).and_then(|b| <[u8; 4]>::try_from(b).ok()).map(u32::from_le_bytes);
    matches!(root, Some(r) if r >= 8 && r % 4 == 0 && u64::from(r) < bytes.len() as u64)
        && bytes.get(4..8).is_some_and(|id| id.iter().all(u8::is_ascii_graphic))
}

/// Reads a `.pte` program, refusing other kinds by name.
pub(crate) fn read_pte<'a>(path: &Path, bytes: &'a [u8]) -> Result<PteFile<'a>, Failure> {
    require_kind(path, bytes, FileKind::Pte)?;
    PteFile::from_bytes(bytes).map_err(at(path))
}

/// Refuses any file that is not of `want`'s kind, naming what it is.
pub(crate) fn require_kind(path: &Path, bytes: &[u8], want: FileKind) -> Result<(), Failure> {
    let got = FileKind::detect(bytes);
    if got == want {
        return Ok(());
    }
    Err(Failure::bad_input(format!("{}: {}; this command takes {want}", path.display(), describe(got, bytes))))
}
