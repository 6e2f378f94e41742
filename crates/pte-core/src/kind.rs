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
    /// Whether `bytes` carry this kind's mark: the identifier at byte 4
    /// (`ET12`, `FT01`, `BP08`), or a zip's signature for a `.ptn`. A format
    /// crate checks its own input with it; which kind a file *is* is
    /// `pte::identify`'s answer (a zip may be a checkpoint, a program may
    /// have a damaged identifier).
    ///
    /// ```
    /// use pte_core::FileKind;
    /// assert!(FileKind::Pte.marks(b"\x1c\0\0\0ET12rest"));
    /// assert!(FileKind::Ptn.marks(b"PK\x03\x04...."));
    /// assert!(!FileKind::Ptd.marks(b"\x1c\0\0\0ET12rest"));
    /// assert!(!FileKind::Unknown.marks(b"hello"));
    /// ```
    pub fn marks(self, bytes: &[u8]) -> bool {
        let id = bytes.get(4..8);
        match self {
            FileKind::Pte => id == Some(b"ET12"),
            FileKind::Ptd => id == Some(b"FT01"),
            FileKind::Bpte => id == Some(b"BP08"),
            FileKind::Ptn => bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06"),
            FileKind::Unknown => false,
        }
    }

    /// A `.pte` program (a damaged one included, when asked of
    /// `pte::kind_of`).
    ///
    /// ```
    /// assert!(pte_core::FileKind::Pte.is_pte() && !pte_core::FileKind::Bpte.is_pte());
    /// ```
    pub fn is_pte(self) -> bool {
        self == FileKind::Pte
    }

    /// A `.ptd` tensor-data file.
    ///
    /// ```
    /// assert!(pte_core::FileKind::Ptd.is_ptd());
    /// ```
    pub fn is_ptd(self) -> bool {
        self == FileKind::Ptd
    }

    /// A `.bpte` bundled program.
    ///
    /// ```
    /// assert!(pte_core::FileKind::Bpte.is_bpte());
    /// ```
    pub fn is_bpte(self) -> bool {
        self == FileKind::Bpte
    }

    /// A `.ptn` package.
    ///
    /// ```
    /// assert!(pte_core::FileKind::Ptn.is_ptn());
    /// ```
    pub fn is_ptn(self) -> bool {
        self == FileKind::Ptn
    }

    /// One of the four ExecuTorch kinds (not [`FileKind::Unknown`]).
    ///
    /// ```
    /// assert!(pte_core::FileKind::Ptd.is_known() && !pte_core::FileKind::Unknown.is_known());
    /// ```
    pub fn is_known(self) -> bool {
        self != FileKind::Unknown
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
