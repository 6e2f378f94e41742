//! What this workspace's readers and verifiers say about a file.

use pte_core::FileKind;
use pte_schema::ErrorKind;
use pte_verify::Rule;

/// The verdict on one file: the strict reader's error kind (if it refused)
/// and every verifier rule broken.
///
/// ```
/// let j = pte_gen::judge(pte_core::FileKind::Pte, b"nonsense");
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
/// use pte_verify::rules::{FLATBUFFER_IDENTIFIER, SEGMENT_BOUNDS};
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

/// Reads and verifies `bytes` as `kind` with default limits, through the
/// one door every frontend uses (`pte::read_strictly`, `pte::verify_as`),
/// and a package's samples by their own reader.
///
/// ```
/// let j = pte_gen::judge(pte_core::FileKind::Ptd, b"nonsense");
/// assert!(j.error.is_some() && !j.rules.is_empty());
/// ```
pub fn judge(kind: FileKind, bytes: &[u8]) -> Judgement {
    let error = match (pte::read_strictly(kind, bytes), kind) {
        (Err(e), _) => Some(e.kind()),
        // the samples sidecar is a layer of its own, with its own reader
        (Ok(()), k) if k.is_ptn() => {
            pte_ptn::PtnFile::from_bytes(bytes).ok().and_then(|p| pte_samples::read_samples(&p).err().map(|e| e.kind()))
        }
        (Ok(()), _) => None,
    };
    // without data files nothing can fail to be read: the report is always there
    let report = pte::verify_as(kind, bytes, &[]).unwrap_or_default();
    Judgement {
        error,
        rules: report.violations.into_iter().map(|v| v.rule).collect(),
        warnings: report.warnings.into_iter().map(|v| v.rule).collect(),
    }
}
