//! Everything `pte verify` checks in one file: every rule of the file's
//! format, a package's samples sidecar, what a valid program needs from
//! outside (as warnings), and, given `.ptd` files, the program/data link.
//! Every frontend verifies through here, so their verdicts cannot drift.

use pte_core::{Error, ErrorKind, FileKind, Report, Violation};
use pte_file::ptd::PtdFile;

use crate::identify::identify;

/// A `.ptd` given beside a program, by the name findings call it.
///
/// ```
/// let d = pte::DataFile { name: "w.ptd", bytes: b"" };
/// assert_eq!(d.name, "w.ptd");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct DataFile<'a> {
    /// The name prefixed to the data file's own findings' paths (`w.ptd:...`).
    pub name: &'a str,
    /// Its bytes.
    pub bytes: &'a [u8],
}

/// Which file a verification could not read.
///
/// ```
/// let e = pte::Unreadable::Data { index: 0, error: pte_core::Error::new(pte_core::ErrorKind::Malformed, "x") };
/// assert!(matches!(e, pte::Unreadable::Data { index: 0, .. }));
/// ```
#[derive(Debug)]
pub enum Unreadable {
    /// The file verified itself: not an ExecuTorch file, or a program the
    /// link check cannot read, or data files given for something else.
    Program(Error),
    /// The data file at `index` of the list given.
    Data {
        /// Index in the list of data files.
        index: usize,
        /// Why.
        error: Error,
    },
}

impl std::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unreadable::Program(e) => e.fmt(f),
            Unreadable::Data { index, error } => write!(f, "data file {index}: {error}"),
        }
    }
}

impl std::error::Error for Unreadable {}

/// What `pte verify FILE [--ptd DATA]...` reports, for bytes whose kind is
/// read from their content ([`identify`]): a program whose identifier was
/// damaged is judged as a program, so the damage is named by its rule.
///
/// Fails when the bytes are not an ExecuTorch file at all, and with data
/// files: when the program or one of them cannot be read for the link
/// check, or when data files are given for anything but a `.pte`.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("external/model.pte"))?;
/// let alone = pte::verify(&bytes, &[]).unwrap();
/// assert!(alone.is_ok() && !alone.warnings.is_empty()); // the EXTERNAL keys need a .ptd
/// let ptd = std::fs::read(pte_testkit::corpus("external/_default_external_constant.ptd"))?;
/// let linked = pte::verify(&bytes, &[pte::DataFile { name: "d.ptd", bytes: &ptd }]).unwrap();
/// assert!(linked.is_ok() && linked.warnings.is_empty());
/// assert!(pte::verify(b"plain text, not a model", &[]).is_err());
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn verify(bytes: &[u8], data: &[DataFile<'_>]) -> Result<Report, Unreadable> {
    let identity = identify(bytes);
    match identity.judged_as() {
        None => Err(Unreadable::Program(Error::new(ErrorKind::Unsupported, identity.to_string()))),
        Some(kind) => verify_as(kind, bytes, data),
    }
}

/// [`verify`] with the kind given rather than read from the content: what
/// a corruption catalogue needs, whose mutants may have lost their
/// identifier. [`FileKind::Unknown`] is judged as a program whose
/// identifier was damaged.
///
/// ```
/// let r = pte::verify_as(pte_core::FileKind::Ptd, b"not a ptd at all", &[]).unwrap();
/// assert!(!r.is_ok());
/// ```
pub fn verify_as(kind: FileKind, bytes: &[u8], data: &[DataFile<'_>]) -> Result<Report, Unreadable> {
    verify_as_viewed(kind, bytes, data).map(|(report, _)| report)
}

/// [`verify_as`], also returning what the verifier saw of the program
/// when `bytes` are a `.pte` whose flatbuffer verified, so that a caller
/// reading more of the program does not verify it again
/// (`pte_file::view::PteView::read_verified` of its view) nor pass over
/// its values for what the verifier's walk already read
/// ([`Summary::with_known`](crate::Summary::with_known)).
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
/// let (report, verified) = pte::verify_as_viewed(pte_core::FileKind::Pte, &bytes, &[]).unwrap();
/// assert!(report.is_ok());
/// assert_eq!(verified.unwrap().view().plan_count(), 1);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn verify_as_viewed<'a>(
    kind: FileKind,
    bytes: &'a [u8],
    data: &[DataFile<'_>],
) -> Result<(Report, Option<pte_verify::Verified<'a>>), Unreadable> {
    if !data.is_empty() && kind != FileKind::Pte {
        return Err(Unreadable::Program(Error::new(
            ErrorKind::InvalidUse,
            format!("{kind}: data files link to .pte programs only"),
        )));
    }
    let mut verified = None;
    let mut report = match kind {
        FileKind::Ptd => pte_verify::verify_ptd_bytes(bytes, &Default::default()),
        FileKind::Bpte => pte_verify::verify_bpte_bytes(bytes, &Default::default()),
        FileKind::Ptn => {
            let mut report = pte_ptn::verify::verify_ptn_bytes(bytes, &Default::default());
            if let Ok(ptn) = pte_ptn::PtnFile::from_bytes(bytes) {
                report.violations.extend(pte_samples::check_sidecar(&ptn).into_iter().map(|e| Violation {
                    rule: e.rule().verifier_rule(),
                    path: e.path().to_string(),
                    offset: e.offset(),
                    message: e.message().to_string(),
                }));
            }
            report
        }
        FileKind::Pte => {
            let (report, view) = pte_verify::verify_bytes_viewed(bytes, &Default::default());
            verified = view;
            report
        }
        // unknown: a program whose identifier was damaged
        _ => pte_verify::verify_bytes(bytes, &Default::default()),
    };
    if report.is_ok() {
        // the needs read the plans through the view the verifier made:
        // nothing is decoded or verified twice
        if let Some(verified) = &verified {
            if data.is_empty() {
                report.warnings.extend(verified.external_needs());
            }
            report.warnings.extend(verified.device_needs());
            report.warnings.extend(verified.storage_needs());
            report.warnings.extend(verified.operator_needs());
        }
    }
    if !data.is_empty() {
        link(bytes, data, &mut report)?;
    }
    Ok((report, verified))
}

/// Whether the strict reader of `kind` reads `bytes`: the error it refuses
/// with, else `Ok`. A package's samples sidecar is a layer of its own
/// (`pte_samples::read_samples`); verification goes further than both.
///
/// ```
/// use pte_core::{ErrorKind, FileKind};
/// assert_eq!(pte::read_strictly(FileKind::Pte, b"nonsense").unwrap_err().kind(), ErrorKind::Malformed);
/// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
/// assert!(pte::read_strictly(FileKind::Pte, &bytes).is_ok());
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn read_strictly(kind: FileKind, bytes: &[u8]) -> pte_core::Result<()> {
    match kind {
        FileKind::Ptn => pte_ptn::PtnFile::from_bytes(bytes).map(drop),
        FileKind::Ptd => PtdFile::from_bytes(bytes).map(drop),
        // read in place: they fail where the decoders fail, with the same error
        FileKind::Bpte => pte_file::bpte::BundledFile::check(bytes),
        _ => pte_file::view::PteView::read(bytes, pte_file::view::SegmentTable::Whole).map(drop),
    }
}

/// The program/data link: each data file's own rules, the EXTERNAL tensors
/// and the delegate payloads' named keys against them.
fn link(bytes: &[u8], data: &[DataFile<'_>], report: &mut Report) -> Result<(), Unreadable> {
    let pte = pte_file::PteFile::from_bytes(bytes).map_err(Unreadable::Program)?;
    let mut files = vec![];
    for (index, d) in data.iter().enumerate() {
        let r = pte_verify::verify_ptd_bytes(d.bytes, &Default::default());
        report.violations.extend(r.violations.into_iter().map(|mut v| {
            v.path = format!("{}:{}", d.name, v.path);
            v
        }));
        files.push((d.name, PtdFile::from_bytes(d.bytes).map_err(|error| Unreadable::Data { index, error })?));
    }
    let named: Vec<(&str, &PtdFile<'_>)> = files.iter().map(|(n, f)| (*n, f)).collect();
    report.violations.extend(pte_verify::verify_link(&pte.program, &named).violations);
    let links = pte_analysis::delegate_payload::verify_payload_links(
        &pte.program,
        bytes,
        pte_analysis::delegate_payload::builtin_registry(),
        &Default::default(),
        &named,
    );
    report.violations.extend(links.violations);
    // with the data files given, a key outside the program is judged by the link rule
    report.warnings.retain(|w| w.rule != pte_verify::rules::PAYLOAD_NAMED_KEY);
    Ok(())
}
