//! What this workspace's readers and verifiers say about a file.

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
    pub rules: Vec<&'static str>,
}

/// What a corruption must make the workspace report.
///
/// ```
/// use pte_gen::*;
/// let j = Judgement { error: Some(ErrorKind::Malformed), rules: vec!["file.identifier"] };
/// assert!(Expect::Kind(ErrorKind::Malformed).is_met(&j));
/// assert!(Expect::Rule("file.identifier").is_met(&j));
/// assert!(!Expect::Rule("segment.bounds").is_met(&j));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// The reader refuses with this kind.
    Kind(ErrorKind),
    /// The verifier reports this rule.
    Rule(&'static str),
}

impl Expect {
    /// Whether a verdict meets the expectation.
    pub fn is_met(&self, j: &Judgement) -> bool {
        match self {
            Expect::Kind(k) => j.error == Some(*k),
            Expect::Rule(r) => j.rules.contains(r),
        }
    }
}

/// Reads and verifies `bytes` as `kind` with default limits.
pub fn judge(kind: FileKind, bytes: &[u8]) -> Judgement {
    let opts = Default::default();
    let rules = |r: pte_file::verify::Report| r.violations.into_iter().map(|v| v.rule).collect::<Vec<_>>();
    match kind {
        FileKind::Pte => Judgement {
            error: pte_file::PteFile::from_bytes(bytes).err().map(|e| e.kind()),
            rules: rules(pte_file::verify::verify_bytes(bytes, &opts)),
        },
        FileKind::Ptd => Judgement {
            error: pte_file::ptd::PtdFile::from_bytes(bytes).err().map(|e| e.kind()),
            rules: rules(pte_file::verify::verify_ptd_bytes(bytes, &opts)),
        },
        FileKind::Bpte => Judgement {
            error: pte_file::bpte::BundledFile::from_bytes(bytes).err().map(|e| e.kind()),
            rules: rules(pte_file::verify::verify_bpte_bytes(bytes, &opts)),
        },
        FileKind::Ptn => {
            let mut rules = rules(pte_ptn::verify::verify_ptn_bytes(bytes, &Default::default()));
            let error = match pte_ptn::PtnFile::from_bytes(bytes) {
                Err(e) => Some(e.kind()),
                Ok(p) => {
                    rules.extend(pte_samples::check_sidecar(&p).iter().map(|e| e.rule().verifier_rule()));
                    pte_samples::read_samples(&p).err().map(|e| e.kind())
                }
            };
            Judgement { error, rules }
        }
    }
}
