//! The opened file behind a `PteHandle*`: its bytes (a read-only mapping
//! or a private copy) and the tables the accessors answer from, built on
//! first use and kept for the handle's life.
//!
//! The tables hold offsets into the bytes, never pointers: the handle
//! stays `Send + Sync`, and every pointer given to C is taken from a
//! bounds-checked slice of the bytes when it is asked for.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use pte_core::{FileKind, MappedFile};

use crate::error::{Fail, PteStatus};
use crate::samples::SampleModel;
use crate::tables::Blobs;

/// Where the bytes live. Neither moves while the handle lives: the mapping
/// is fixed, and the boxed copy is never resized.
enum Source {
    Mapped(MappedFile),
    Copied(Box<[u8]>),
}

/// A failure kept for later calls (the tables are built once).
#[derive(Clone, Debug)]
pub(crate) struct Kept {
    status: PteStatus,
    message: String,
}

impl From<Fail> for Kept {
    fn from(f: Fail) -> Kept {
        Kept { status: f.status, message: f.message }
    }
}

impl From<&Kept> for Fail {
    fn from(k: &Kept) -> Fail {
        Fail::new(k.status, k.message.clone())
    }
}

/// An opened ExecuTorch file (`PteHandle` in C): opaque to C, freed with
/// `pte_close`.
///
/// ```
/// let path = std::ffi::CString::new(pte_testkit::corpus("linear/model.pte").to_string_lossy().as_bytes())?;
/// let mut h: *mut pte_c::PteHandle = std::ptr::null_mut();
/// assert_eq!(unsafe { pte_c::pte_open(path.as_ptr(), &mut h) }, pte_c::PteStatus::Ok);
/// assert_eq!(unsafe { pte_c::pte_close(&mut h) }, pte_c::PteStatus::Ok);
/// assert!(h.is_null());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct PteHandle {
    source: Source,
    kind: FileKind,
    /// The path it was opened from, for `.ptd` files beside it and messages.
    path: Option<PathBuf>,
    /// The name findings and messages call it.
    name: String,
    blobs: OnceLock<Result<Blobs, Kept>>,
    samples: OnceLock<Result<SampleModel, Kept>>,
}

impl PteHandle {
    /// Maps `path` and recognises it, as `pte::open` does.
    pub(crate) fn open(path: &Path) -> Result<PteHandle, Fail> {
        let name = path.display().to_string();
        let map = MappedFile::open(path)?;
        let kind = pte::File::from_bytes(map.bytes()).map_err(|e| e.within(&name))?.kind();
        Ok(PteHandle::new(Source::Mapped(map), kind, Some(path.to_path_buf()), name))
    }

    /// Copies `bytes` and recognises them.
    pub(crate) fn from_bytes(bytes: &[u8]) -> Result<PteHandle, Fail> {
        let kind = pte::File::from_bytes(bytes)?.kind();
        Ok(PteHandle::new(Source::Copied(bytes.into()), kind, None, "<memory>".to_string()))
    }

    fn new(source: Source, kind: FileKind, path: Option<PathBuf>, name: String) -> PteHandle {
        PteHandle { source, kind, path, name, blobs: OnceLock::new(), samples: OnceLock::new() }
    }

    pub(crate) fn bytes(&self) -> &[u8] {
        match &self.source {
            Source::Mapped(m) => m.bytes(),
            Source::Copied(b) => b,
        }
    }

    pub(crate) fn map(&self) -> Option<&MappedFile> {
        match &self.source {
            Source::Mapped(m) => Some(m),
            Source::Copied(_) => None,
        }
    }

    pub(crate) fn kind(&self) -> FileKind {
        self.kind
    }

    pub(crate) fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// The segment, constant, named-data and delegate tables (`.pte`, `.ptd`).
    pub(crate) fn blobs(&self) -> Result<&Blobs, Fail> {
        let kept = self.blobs.get_or_init(|| Blobs::read(self.kind, self.bytes()).map_err(Kept::from));
        kept.as_ref().map_err(Fail::from)
    }

    /// The sample sets (`.ptn` packages, `.bpte` test cases).
    pub(crate) fn samples(&self) -> Result<&SampleModel, Fail> {
        let kept = self.samples.get_or_init(|| SampleModel::read(self.kind, self.bytes()).map_err(Kept::from));
        kept.as_ref().map_err(Fail::from)
    }

    /// `bytes[offset..offset + len]`, for a span the tables recorded.
    pub(crate) fn span(&self, offset: usize, len: usize) -> Result<&[u8], Fail> {
        offset
            .checked_add(len)
            .and_then(|end| self.bytes().get(offset..end))
            .ok_or_else(|| Fail::new(PteStatus::Internal, "a recorded span lies outside the file"))
    }
}
