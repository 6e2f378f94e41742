//! What this workspace's readers and verifiers say about a file.

use pte_file::verify::Rule;
use pte_schema::ErrorKind;

/// The file kinds a corruption starts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FileKind {
    /// A `.pte` program.
    Pte,
    /// A `.ptd` tensor-data file.
    Ptd,
    /// A `.ptn` package (its samples sidecar included).
    Ptn,
    /// A `.bpte` bundled program.
    Bpte,
}

/// The verdict on one file: the strict reader's error kind (if it refused)
/// and every verifier rule broken.
///
/// ```
/// let j = pte_gen::judge(pte_gen::FileKind::Pte, b"nonsense");
/// assert_eq!(j.error, Some(pte_gen::ErrorKind::Malformed));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Judgement {
    /// The reader's error kind, `None` when it read the file.
    pub error: Option<ErrorKind>,
    /// Rules the verifier reports as violations.
    pub rules: Vec<Rule>,
    /// Rules the verifier reports as warnings.
    pub warnings: Vec<Rule>,
}

/// What a corruption must make the workspace report.
///
/// ```
/// use pte_gen::*;
/// use pte_file::verify::rules::{FLATBUFFER_IDENTIFIER, SEGMENT_BOUNDS};
/// let j = Judgement { error: Some(ErrorKind::Malformed), rules: vec![FLATBUFFER_IDENTIFIER], warnings: vec![] };
/// assert!(Expect::Kind(ErrorKind::Malformed).is_met(&j));
/// assert!(Expect::Rule(FLATBUFFER_IDENTIFIER).is_met(&j));
/// assert!(!Expect::Rule(SEGMENT_BOUNDS).is_met(&j));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// The reader refuses with this kind.
    Kind(ErrorKind),
    /// The verifier reports this rule.
    Rule(Rule),
}

impl Expect {
    /// Whether a verdict meets the expectation.
    pub fn is_met(&self, j: &Judgement) -> bool {
        match self {
            Expect::Kind(k) => j.error == Some(*k),
            Expect::Rule(r) => j.rules.contains(r) || j.warnings.contains(r),
        }
    }
}

/// Reads and verifies `bytes` as `kind` with default limits.
pub fn judge(kind: FileKind, bytes: &[u8]) -> Judgement {
    let opts = Default::default();
    let (error, report) = match kind {
        FileKind::Pte => {
            (pte_file::PteFile::from_bytes(bytes).err().map(|e| e.kind()), pte_file::verify::verify_bytes(bytes, &opts))
        }
        FileKind::Ptd => (
            pte_file::ptd::PtdFile::from_bytes(bytes).err().map(|e| e.kind()),
            pte_file::verify::verify_ptd_bytes(bytes, &opts),
        ),
        FileKind::Bpte => (
            pte_file::bpte::BundledFile::from_bytes(bytes).err().map(|e| e.kind()),
            pte_file::verify::verify_bpte_bytes(bytes, &opts),
        ),
        FileKind::Ptn => {
            let mut report = pte_ptn::verify::verify_ptn_bytes(bytes, &Default::default());
            let error = match pte_ptn::PtnFile::from_bytes(bytes) {
                Err(e) => Some(e.kind()),
                Ok(p) => {
                    for e in pte_samples::check_sidecar(&p) {
                        report.violations.push(pte_file::verify::Violation {
                            rule: e.rule().verifier_rule(),
                            path: e.path().to_string(),
                            offset: e.offset(),
                            message: e.to_string(),
                        });
                    }
                    pte_samples::read_samples(&p).err().map(|e| e.kind())
                }
            };
            (error, report)
        }
    };
    Judgement {
        error,
        rules: report.violations.into_iter().map(|v| v.rule).collect(),
        warnings: report.warnings.into_iter().map(|v| v.rule).collect(),
    }
}
