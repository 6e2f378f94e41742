//! File kinds are recognised by content, never by extension.

use std::fmt;

/// The ExecuTorch file kinds, as recognised from their first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FileKind {
    /// A `.pte` program (`ET12` at byte 4).
    Pte,
    /// A `.ptd` tensor-data file (`FT01` at byte 4).
    Ptd,
    /// A `.bpte` bundled program (`BP08` at byte 4).
    Bpte,
    /// A `.ptn` package (a zip archive).
    Ptn,
    /// None of the above.
    Unknown,
}

impl FileKind {
    /// Recognises a file from its bytes (at least the first eight).
    ///
    /// ```
    /// use pte_core::FileKind;
    /// assert_eq!(FileKind::detect(b"\x1c\0\0\0ET12rest"), FileKind::Pte);
    /// assert_eq!(FileKind::detect(b"PK\x03\x04...."), FileKind::Ptn);
    /// assert_eq!(FileKind::detect(b"hello"), FileKind::Unknown);
    /// ```
    pub fn detect(bytes: &[u8]) -> FileKind {
        match bytes.get(4..8) {
            Some(b"ET12") => FileKind::Pte,
            Some(b"FT01") => FileKind::Ptd,
            Some(b"BP08") => FileKind::Bpte,
            _ if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") => FileKind::Ptn,
            _ => FileKind::Unknown,
        }
    }

    /// The usual file extension, without the dot (`None` for unknown files).
    ///
    /// ```
    /// assert_eq!(pte_core::FileKind::Bpte.extension(), Some("bpte"));
    /// ```
    pub fn extension(self) -> Option<&'static str> {
        match self {
            FileKind::Pte => Some("pte"),
            FileKind::Ptd => Some("ptd"),
            FileKind::Bpte => Some("bpte"),
            FileKind::Ptn => Some("ptn"),
            FileKind::Unknown => None,
        }
    }
}

impl fmt::Display for FileKind {
    /// A phrase for messages: "a .pte program", "not an ExecuTorch file".
    ///
    /// ```
    /// assert_eq!(pte_core::FileKind::Ptd.to_string(), "a .ptd tensor-data file");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FileKind::Pte => "a .pte program",
            FileKind::Ptd => "a .ptd tensor-data file",
            FileKind::Bpte => "a .bpte bundled program",
            FileKind::Ptn => "a .ptn package",
            FileKind::Unknown => "not an ExecuTorch file",
        })
    }
}
