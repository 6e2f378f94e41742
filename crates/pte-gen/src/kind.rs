//! Which kind of file some bytes are, by content: a class only applies to
//! inputs of its own kind (a `.pte` edit must not "succeed" on a `.ptn`).

use crate::judge::FileKind;

impl FileKind {
    /// The kind the bytes identify themselves as (the identifier at bytes
    /// 4..8, or a zip signature at byte 0), `None` when none matches.
    ///
    /// ```
    /// use pte_gen::FileKind;
    /// assert_eq!(FileKind::detect(b"\0\0\0\0ET12"), Some(FileKind::Pte));
    /// assert_eq!(FileKind::detect(b"PK\x03\x04rest"), Some(FileKind::Ptn));
    /// assert_eq!(FileKind::detect(b"text"), None);
    /// ```
    pub fn detect(bytes: &[u8]) -> Option<FileKind> {
        match bytes.get(4..8) {
            Some(b"ET12") => Some(FileKind::Pte),
            Some(b"FT01") => Some(FileKind::Ptd),
            Some(b"BP08") => Some(FileKind::Bpte),
            _ if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") => Some(FileKind::Ptn),
            _ => None,
        }
    }

    /// How messages name the kind.
    ///
    /// ```
    /// assert_eq!(pte_gen::FileKind::Ptn.describe(), "a .ptn package");
    /// ```
    pub fn describe(self) -> &'static str {
        match self {
            FileKind::Pte => "a .pte program",
            FileKind::Ptd => "a .ptd tensor-data file",
            FileKind::Ptn => "a .ptn package",
            FileKind::Bpte => "a .bpte bundled program",
        }
    }
}

/// Refuses an input that is not of kind `want` (another kind, or no
/// recognisable identifier at all): a class edits offsets of its own format.
pub(crate) fn require(want: FileKind, input: &[u8]) -> Result<(), String> {
    match FileKind::detect(input) {
        Some(got) if got == want => Ok(()),
        Some(got) => Err(format!("the class takes {} but the input is {}", want.describe(), got.describe())),
        None => Err(format!("the class takes {} but the input is no ExecuTorch file", want.describe())),
    }
}
