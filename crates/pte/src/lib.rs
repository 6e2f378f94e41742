//! One door to every ExecuTorch file kind.
//!
//! [`open`] maps a file (or [`File::from_bytes`] wraps bytes) and knows it
//! by its content: a `.pte` program, a `.ptd` tensor-data file, a `.ptn`
//! package or a `.bpte` bundled program; anything else is refused with an
//! error naming what it is (a safetensors file, a PyTorch checkpoint,
//! another zip, see [`identify`]). [`File::verify`] (or [`verify`] over
//! bytes) checks every rule of the file's format, a package's samples, what
//! a program needs from outside, and, given `.ptd` files, the link from
//! the program's EXTERNAL tensors to them; its [`Report`] turns into the
//! [`Verdict`] every frontend prints. A program's [`Summary`] (what `pte
//! info --json` prints and Python's `Program.summary()` returns) is read in
//! place, without decoding the model.
//!
//! The `pte` command, the Python package, the HTML report, the corruption
//! catalogue's judge and `pte-diff` all open and verify through here: one
//! set of rules, one verdict. The format crates beneath (`pte-file`,
//! `pte-ptn`, `pte-samples`) hold the readers, writers and rules
//! themselves; reach for them to edit or write files.
//!
//! ```
//! let file = pte::open(pte_testkit::corpus("linear/model.pte"))?;
//! assert_eq!(file.kind(), pte_core::FileKind::Pte);
//! let report = file.verify(&[])?;
//! assert!(report.is_ok());
//! let verdict = pte::Verdict::from(&report);
//! assert!(verdict.valid && verdict.violations.is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]

mod answers;
mod dump;
mod edit;
mod edit_error;
mod identify;
mod pack;
mod per_kind;
mod rewrite;
pub mod summary;
mod verdict;
mod verify;

use std::path::Path;

pub use answers::{memory, operators, size, FileOperators, MEMORY_KINDS, OPERATOR_KINDS};
pub use dump::Dump;
pub use edit::{externalize, internalize, Externalize, KeySelection, Moved};
pub use edit_error::EditError;
pub use identify::{describe, identify, kind_of, Foreign, Identity, KINDS};
pub use pack::{extract, pack_dir, PackedDir};
pub use per_kind::{per_kind, PerKind};
pub use pte_core::{Error, ErrorKind, FileKind, LockWait, Report, Result, Violation};
pub use pte_file::{ConstantPlacement, DelegatePlacement, LayoutChange, SegmentLayout};
pub use pte_pack::{ExtractTarget, Extracted, PackOptions, DEFAULT_MAX_FILES};
pub use pte_verify::Verified;
pub use rewrite::{program_bytes, rewrite, rewrite_bytes};
pub use summary::{
    BpteSummary, CaseValue, ConstantRow, DelegateRow, DeviceRow, ExternalGroup, FileSummary, HeaderRow, IoRow,
    MethodRow, MutableRow, NamedRow, PayloadRow, ProgramHead, PtdHeader, PtdKey, PtdLayout, PtdSegment, PtdSummary,
    PtdTensor, PtnConstant, PtnDim, PtnMember, PtnMethod, PtnSignature, PtnSummary, PtnTensorRow, PtnValue, SegmentRow,
    Summary, SummaryOptions, TensorFacts, TensorHead, TensorRow,
};
pub use verdict::{finding_line, Finding, RuntimeAnswer, Verdict};
pub use verify::{read_strictly, verify, verify_as, verify_as_viewed, DataFile, Unreadable};

/// Where a [`File`]'s bytes live.
enum Source<'a> {
    Mapped(pte_core::MappedFile),
    Borrowed(&'a [u8]),
}

/// An ExecuTorch file, opened once and known by its content.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("native_ptn/model.ptn"))?;
/// let file = pte::File::from_bytes(&bytes)?;
/// assert_eq!(file.kind(), pte_core::FileKind::Ptn);
/// assert_eq!(file.bytes().len(), bytes.len());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct File<'a> {
    source: Source<'a>,
    identity: Identity,
}

impl std::fmt::Debug for File<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mapped = matches!(self.source, Source::Mapped(_));
        f.debug_struct("File")
            .field("identity", &self.identity)
            .field("len", &self.bytes().len())
            .field("mapped", &mapped)
            .finish()
    }
}

/// Maps the regular file at `path` read-only and recognises it by content.
///
/// Fails when the file cannot be mapped, or when it is not an ExecuTorch
/// file ([`ErrorKind::Unsupported`], the message naming what it is). A
/// program whose identifier was damaged opens, as a `.pte`, so that
/// verifying it names the damage.
///
/// ```
/// let e = pte::open(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).unwrap_err();
/// assert_eq!(e.kind(), pte::ErrorKind::Unsupported);
/// ```
pub fn open(path: impl AsRef<Path>) -> Result<File<'static>> {
    let path = path.as_ref();
    let map = pte_core::MappedFile::open(path)?;
    let identity = identify(map.bytes());
    File::checked(Source::Mapped(map), identity).map_err(|e| e.within(&path.display().to_string()))
}

impl<'a> File<'a> {
    /// Wraps bytes in memory (never copied), refusing what [`open`] refuses.
    ///
    /// ```
    /// assert!(pte::File::from_bytes(b"hello").is_err());
    /// ```
    pub fn from_bytes(bytes: &'a [u8]) -> Result<File<'a>> {
        File::checked(Source::Borrowed(bytes), identify(bytes))
    }

    fn checked(source: Source<'a>, identity: Identity) -> Result<File<'a>> {
        match identity {
            Identity::Foreign(what) => Err(Error::new(ErrorKind::Unsupported, what.to_string())),
            _ => Ok(File { source, identity }),
        }
    }

    /// The file's bytes (the mapping, or the bytes given).
    ///
    /// ```
    /// let f = pte::open(pte_testkit::corpus("linear/model.pte"))?;
    /// assert_eq!(&f.bytes()[4..8], b"ET12");
    /// # Ok::<(), pte::Error>(())
    /// ```
    pub fn bytes(&self) -> &[u8] {
        match &self.source {
            Source::Mapped(m) => m.bytes(),
            Source::Borrowed(b) => b,
        }
    }

    /// The kind it is read and verified as (a damaged program as a `.pte`).
    ///
    /// ```
    /// let f = pte::open(pte_testkit::corpus("external/_default_external_constant.ptd"))?;
    /// assert_eq!(f.kind(), pte_core::FileKind::Ptd);
    /// # Ok::<(), pte::Error>(())
    /// ```
    pub fn kind(&self) -> FileKind {
        self.identity.kind().unwrap_or(FileKind::Unknown)
    }

    /// What the content says the file is (distinguishes a damaged program).
    ///
    /// ```
    /// let f = pte::open(pte_testkit::corpus("linear/model.pte"))?;
    /// assert_eq!(f.identity(), pte::Identity::ExecuTorch(pte_core::FileKind::Pte));
    /// # Ok::<(), pte::Error>(())
    /// ```
    pub fn identity(&self) -> Identity {
        self.identity
    }

    /// What `pte info --json` prints for this file ([`FileSummary::read`]).
    ///
    /// ```
    /// let f = pte::open(pte_testkit::corpus("external/_default_external_constant.ptd"))?;
    /// let s = f.summary(&Default::default())?;
    /// assert!(matches!(s, pte::FileSummary::Ptd(ref d) if !d.keys.is_empty()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn summary(&self, options: &SummaryOptions<'_>) -> Result<FileSummary<'_>> {
        FileSummary::read(self.kind(), self.bytes(), options)
    }

    /// Where its bytes go ([`size`]).
    ///
    /// ```
    /// let f = pte::open(pte_testkit::corpus("linear/model.pte"))?;
    /// assert_eq!(f.size()?.file_size, f.bytes().len() as u64);
    /// # Ok::<(), pte::Error>(())
    /// ```
    pub fn size(&self) -> Result<pte_analysis::size::SizeReport> {
        size(self.kind(), self.bytes())
    }

    /// Its memory plan, or that of the program it bundles ([`memory`]).
    ///
    /// ```
    /// let f = pte::open(pte_testkit::corpus("linear/model.pte"))?;
    /// assert_eq!(f.memory(None)?.methods.len(), 1);
    /// # Ok::<(), pte::Error>(())
    /// ```
    pub fn memory(&self, method: Option<&str>) -> Result<pte_analysis::memory::MemoryPlan> {
        memory(self.kind(), self.bytes(), method)
    }

    /// The operators each method calls ([`operators`]).
    ///
    /// ```
    /// let f = pte::open(pte_testkit::corpus("bundled/model.bpte"))?;
    /// assert_eq!(f.operators()?.format, "bpte");
    /// # Ok::<(), pte::Error>(())
    /// ```
    pub fn operators(&self) -> Result<FileOperators> {
        operators(self.kind(), self.bytes())
    }

    /// [`verify`] of this file with `data` files linked (programs only).
    ///
    /// ```
    /// let f = pte::open(pte_testkit::corpus("linear/model.pte"))?;
    /// assert!(f.verify(&[])?.is_ok());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn verify(&self, data: &[DataFile<'_>]) -> std::result::Result<Report, Unreadable> {
        // a File is never foreign: `checked` refused those
        verify_as(self.identity.judged_as().unwrap_or(FileKind::Unknown), self.bytes(), data)
    }
}
