//! What some bytes are, by their content: one of the four ExecuTorch kinds,
//! a program whose identifier was damaged, or a foreign file named for what
//! it is, so that a folder of exports with checkpoints and weight files
//! beside the models is walked without false alarms.

use std::fmt;
use std::io::Cursor;

use pte_core::FileKind;

/// The four kinds the door opens, in the order messages list them.
///
/// ```
/// assert_eq!(pte::KINDS.map(|k| k.extension()), [Some("pte"), Some("ptd"), Some("ptn"), Some("bpte")]);
/// ```
pub const KINDS: [FileKind; 4] = [FileKind::Pte, FileKind::Ptd, FileKind::Ptn, FileKind::Bpte];

/// The members only a `.ptn` package holds: a zip with any of them is
/// judged as a package (a damaged one, if others are missing).
const PACKAGE_MEMBERS: [&str; 3] = [pte_ptn::PROGRAM_MEMBER, pte_ptn::SAFETENSORS_MEMBER, pte_ptn::ALIASES_MEMBER];

/// A file that is not an ExecuTorch file, by what it looks like.
///
/// ```
/// assert_eq!(pte::Foreign::Checkpoint.to_string(), "a PyTorch checkpoint (a zip with data.pkl), not an ExecuTorch file");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Foreign {
    /// Fewer than eight bytes: no identifier fits.
    TooShort,
    /// A safetensors file (a little-endian header length, then `{`).
    Safetensors,
    /// A PyTorch checkpoint written by `torch.save` (`.pt`, `.pth`): a zip
    /// holding `data.pkl`.
    Checkpoint,
    /// Another zip archive, with none of a package's members.
    Zip,
    /// Anything else.
    Unknown,
}

impl fmt::Display for Foreign {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Foreign::TooShort => "too short to be an ExecuTorch file",
            Foreign::Safetensors => "a safetensors file, not an ExecuTorch file",
            Foreign::Checkpoint => "a PyTorch checkpoint (a zip with data.pkl), not an ExecuTorch file",
            Foreign::Zip => "a zip archive without program.ptg, not a .ptn package",
            Foreign::Unknown => "not an ExecuTorch file (no known identifier at byte 4, not a zip)",
        })
    }
}

/// What a file is.
///
/// ```
/// use pte::{identify, Identity, Foreign};
/// use pte_core::FileKind;
/// assert_eq!(identify(b"\x1c\0\0\0ET12rest"), Identity::ExecuTorch(FileKind::Pte));
/// assert_eq!(identify(b"hello"), Identity::Foreign(Foreign::TooShort));
/// assert_eq!(identify(&[0u8; 100]), Identity::Foreign(Foreign::Unknown));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Identity {
    /// An ExecuTorch file of this kind (never [`FileKind::Unknown`]).
    ExecuTorch(FileKind),
    /// No identifier, but shaped like a program (a plausible root offset
    /// and a printable identifier, or an `eh00` header): judged as a
    /// program, so the damage is named by the rule it breaks.
    DamagedProgram,
    /// Not an ExecuTorch file.
    Foreign(Foreign),
}

impl Identity {
    /// The kind the file is read and verified as: a damaged program as a
    /// `.pte`, a foreign file as `None`.
    ///
    /// ```
    /// assert_eq!(pte::Identity::DamagedProgram.kind(), Some(pte_core::FileKind::Pte));
    /// assert_eq!(pte::Identity::Foreign(pte::Foreign::Zip).kind(), None);
    /// ```
    pub fn kind(self) -> Option<FileKind> {
        match self {
            Identity::ExecuTorch(k) => Some(k),
            Identity::DamagedProgram => Some(FileKind::Pte),
            Identity::Foreign(_) => None,
        }
    }
}

impl Identity {
    /// The kind the content names: its own for an ExecuTorch file,
    /// [`FileKind::Unknown`] for a program whose identifier was damaged (it
    /// names none) and for a foreign file. What a frontend dispatches its
    /// commands on, a damaged program going to the verifier.
    ///
    /// ```
    /// use pte_core::FileKind;
    /// assert_eq!(pte::Identity::ExecuTorch(FileKind::Ptd).named_kind(), FileKind::Ptd);
    /// assert_eq!(pte::Identity::DamagedProgram.named_kind(), FileKind::Unknown);
    /// ```
    pub fn named_kind(self) -> FileKind {
        match self {
            Identity::ExecuTorch(k) => k,
            Identity::DamagedProgram | Identity::Foreign(_) => FileKind::Unknown,
        }
    }

    /// The kind [`verify_as`](crate::verify_as) judges the file as: its own,
    /// [`FileKind::Unknown`] for a damaged program (judged as a program
    /// whose identifier is broken), `None` for a foreign file.
    pub(crate) fn judged_as(self) -> Option<FileKind> {
        match self {
            Identity::ExecuTorch(k) => Some(k),
            Identity::DamagedProgram => Some(FileKind::Unknown),
            Identity::Foreign(_) => None,
        }
    }
}

impl fmt::Display for Identity {
    /// "a .pte program", "a .pte program with a damaged identifier", or
    /// what a foreign file is.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Identity::ExecuTorch(k) => k.fmt(f),
            Identity::DamagedProgram => f.write_str("a .pte program with a damaged identifier"),
            Identity::Foreign(x) => x.fmt(f),
        }
    }
}

/// Recognises a file from its bytes.
///
/// The identifier at bytes 4..8 names the flatbuffer kinds; a zip is a
/// package when it holds one of a package's members or its directory cannot
/// be read (a damaged package is judged as one), a checkpoint when it holds
/// `data.pkl`, and another zip otherwise.
///
/// ```
/// let ptn = std::fs::read(pte_testkit::corpus("native_ptn/model.ptn"))?;
/// assert_eq!(pte::identify(&ptn), pte::Identity::ExecuTorch(pte_core::FileKind::Ptn));
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn identify(bytes: &[u8]) -> Identity {
    // an identifier at byte 4 wins over a zip signature at byte 0
    let by_mark = [FileKind::Pte, FileKind::Ptd, FileKind::Bpte, FileKind::Ptn];
    let marked = by_mark.into_iter().find(|k| k.marks(bytes)).unwrap_or(FileKind::Unknown);
    match marked {
        FileKind::Ptn => zip_identity(bytes),
        FileKind::Unknown if bytes.len() < 8 => Identity::Foreign(Foreign::TooShort),
        FileKind::Unknown if looks_like_safetensors(bytes) => Identity::Foreign(Foreign::Safetensors),
        FileKind::Unknown if looks_like_damaged_program(bytes) => Identity::DamagedProgram,
        FileKind::Unknown => Identity::Foreign(Foreign::Unknown),
        k => Identity::ExecuTorch(k),
    }
}

/// The kind some bytes are read as, by [`identify`]: a damaged program as
/// a `.pte`, a foreign file (a checkpoint, another zip, safetensors) as
/// [`FileKind::Unknown`]. Every frontend dispatches on this one answer.
///
/// ```
/// use pte_core::FileKind;
/// assert_eq!(pte::kind_of(b"\x1c\0\0\0ET12rest"), FileKind::Pte);
/// assert_eq!(pte::kind_of(&[0u8; 100]), FileKind::Unknown);
/// ```
pub fn kind_of(bytes: &[u8]) -> FileKind {
    identify(bytes).kind().unwrap_or(FileKind::Unknown)
}

/// What some bytes are, as a phrase for a message: "a .pte program" for an
/// ExecuTorch file, or for anything else what it looks like instead ("a
/// safetensors file, not an ExecuTorch file"). A program with a damaged
/// identifier has no identifier to name, so it reads as unknown bytes.
///
/// The `pte` command and the Python package name refused files with it.
///
/// ```
/// assert_eq!(pte::describe(b"\x1c\0\0\0ET12rest"), "a .pte program");
/// assert_eq!(pte::describe(b"hi"), "too short to be an ExecuTorch file");
/// let mut st = 2u64.to_le_bytes().to_vec();
/// st.extend_from_slice(b"{}");
/// assert_eq!(pte::describe(&st), "a safetensors file, not an ExecuTorch file");
/// ```
pub fn describe(bytes: &[u8]) -> String {
    match identify(bytes) {
        Identity::ExecuTorch(k) => k.to_string(),
        Identity::Foreign(f) => f.to_string(),
        Identity::DamagedProgram => Foreign::Unknown.to_string(),
    }
}

/// A zip's identity from its member names.
fn zip_identity(bytes: &[u8]) -> Identity {
    let package = Identity::ExecuTorch(FileKind::Ptn);
    let Ok(archive) = zip::ZipArchive::new(Cursor::new(bytes)) else { return package };
    if archive.is_empty() {
        return package;
    }
    // a name that is not UTF-8 is none of the names looked for
    let names = || archive.file_names().filter_map(std::result::Result::ok);
    if names().any(|n| PACKAGE_MEMBERS.contains(&n.as_ref()) || n.starts_with("samples/")) {
        return package;
    }
    if names().any(|n| n == "data.pkl" || n.ends_with("/data.pkl")) {
        return Identity::Foreign(Foreign::Checkpoint);
    }
    Identity::Foreign(Foreign::Zip)
}

/// A safetensors file starts with the length of its JSON header, then `{`.
fn looks_like_safetensors(bytes: &[u8]) -> bool {
    let Some(n) = bytes.get(..8).and_then(|b| <[u8; 8]>::try_from(b).ok()).map(u64::from_le_bytes) else {
        return false;
    };
    bytes.get(8) == Some(&b'{') && n <= bytes.len() as u64
}

/// Whether unknown bytes still look like a program whose identifier was
/// damaged: a plausible root offset with a printable identifier, or an
/// `eh00` header.
fn looks_like_damaged_program(bytes: &[u8]) -> bool {
    if bytes.len() < 64 {
        return false;
    }
    if bytes.get(8..12) == Some(b"eh00".as_slice()) {
        return true;
    }
    let root = bytes.get(..4).and_then(|b| <[u8; 4]>::try_from(b).ok()).map(u32::from_le_bytes);
    matches!(root, Some(r) if r >= 8 && r % 4 == 0 && u64::from(r) < bytes.len() as u64)
        && bytes.get(4..8).is_some_and(|id| id.iter().all(u8::is_ascii_graphic))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn zip_of(names: &[&str]) -> Vec<u8> {
        let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
        for n in names {
            w.start_file(
                *n,
                zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored),
            )
            .unwrap();
            w.write_all(b"x").unwrap();
        }
        w.finish().unwrap().into_inner()
    }

    #[test]
    fn zips_are_named_by_their_members() {
        assert_eq!(identify(&zip_of(&["archive/data.pkl", "archive/data/0"])), Identity::Foreign(Foreign::Checkpoint));
        assert_eq!(identify(&zip_of(&["data.pkl"])), Identity::Foreign(Foreign::Checkpoint));
        assert_eq!(identify(&zip_of(&["readme.txt"])), Identity::Foreign(Foreign::Zip));
        // a package missing its program is still a (damaged) package
        assert_eq!(identify(&zip_of(&["program.safetensors"])), Identity::ExecuTorch(FileKind::Ptn));
        assert_eq!(identify(&zip_of(&["samples/index.json"])), Identity::ExecuTorch(FileKind::Ptn));
        assert_eq!(identify(b"PK\x03\x04 damaged beyond reading"), Identity::ExecuTorch(FileKind::Ptn));
    }

    #[test]
    fn damaged_programs_are_told_from_noise() {
        let mut program = vec![0u8; 80];
        program[..4].copy_from_slice(&16u32.to_le_bytes());
        program[4..8].copy_from_slice(b"XT12");
        assert_eq!(identify(&program), Identity::DamagedProgram);
        program[4] = 0;
        assert_eq!(identify(&program), Identity::Foreign(Foreign::Unknown));
        let mut st = 2u64.to_le_bytes().to_vec();
        st.extend_from_slice(b"{}");
        assert_eq!(identify(&st), Identity::Foreign(Foreign::Safetensors));
    }
}
