//! File kinds are detected by content, never by extension.

use std::path::Path;

use crate::Failure;

/// The kinds of ExecuTorch file the CLI knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Pte,
    Ptd,
    Bpte,
    Ptn,
    Unknown,
}

pub(crate) fn kind(bytes: &[u8]) -> Kind {
    match bytes.get(4..8) {
        Some(b"ET12") => Kind::Pte,
        Some(b"FT01") => Kind::Ptd,
        Some(b"BP08") => Kind::Bpte,
        _ if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") => Kind::Ptn,
        _ => Kind::Unknown,
    }
}

pub(crate) fn require_pte(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    let what = match kind(bytes) {
        Kind::Pte => return Ok(()),
        Kind::Ptd => "a .ptd tensor-data file",
        Kind::Bpte => "a .bpte bundled program",
        Kind::Ptn => "a .ptn package (zip)",
        Kind::Unknown if bytes.len() < 8 => "too short to be an ExecuTorch file",
        Kind::Unknown => "not an ExecuTorch file (no ET12 identifier at byte 4)",
    };
    let supported = matches!(kind(bytes), Kind::Unknown);
    Err(Failure {
        message: if supported {
            format!("{}: {what}", path.display())
        } else {
            format!(
                "{}: {what}; this command takes a .pte program (info, dump and verify also take .ptd, .ptn and .bpte; rewrite and extract .ptn)",
                path.display()
            )
        },
        code: 2,
    })
}

/// Refuses any file that is not of `want`'s kind, naming what it is.
pub(crate) fn require_kind(path: &Path, bytes: &[u8], want: Kind) -> Result<(), Failure> {
    let got = kind(bytes);
    if got == want {
        return Ok(());
    }
    let name = |k: Kind| match k {
        Kind::Pte => "a .pte program",
        Kind::Ptd => "a .ptd tensor-data file",
        Kind::Bpte => "a .bpte bundled program",
        Kind::Ptn => "a .ptn package",
        Kind::Unknown => "not an ExecuTorch file",
    };
    Err(Failure { message: format!("{}: {}; this command takes {}", path.display(), name(got), name(want)), code: 2 })
}
