//! The verdict on one file as every frontend shows it: each finding's
//! rule, field path, byte offset and message, and what the stock runtime
//! answers a file that breaks the rule (`pte_core::Rule::refusal`).

use pte_core::{Report, Violation};
use serde::Serialize;

/// The stock runtime's answer to a file breaking a finding's rule.
///
/// ```
/// let r = pte_verify::verify_bytes(b"tiny", &Default::default());
/// let e = pte::RuntimeAnswer::of(&r.violations[0]).unwrap();
/// assert_eq!(e.hex, format!("0x{:02x}", e.code));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RuntimeAnswer {
    /// The runtime's `Error` code.
    pub code: u32,
    /// The same code in hexadecimal, as the runtime's logs print it.
    pub hex: String,
    /// The code's name (`InvalidProgram`, ...).
    pub name: String,
    /// When the runtime answers: at `Program::load`, `load_method` or execution.
    pub stage: String,
}

impl RuntimeAnswer {
    /// The answer for a finding's rule; `None` when the runtime does not
    /// enforce the rule.
    ///
    /// ```
    /// let r = pte_verify::verify_bytes(b"tiny", &Default::default());
    /// assert!(pte::RuntimeAnswer::of(&r.violations[0]).is_some());
    /// ```
    pub fn of(v: &Violation) -> Option<RuntimeAnswer> {
        let r = v.rule.refusal()?;
        Some(RuntimeAnswer {
            code: r.error.code,
            hex: format!("0x{:02x}", r.error.code),
            name: r.error.name.to_string(),
            stage: r.stage.name().to_string(),
        })
    }
}

/// One finding, as `pte verify --json` prints it. The fields are declared
/// in alphabetical order, the order the JSON has always had.
///
/// ```
/// let r = pte_verify::verify_bytes(b"tiny", &Default::default());
/// let f = pte::Finding::from(&r.violations[0]);
/// assert_eq!(f.rule, r.violations[0].rule.name());
/// assert!(f.runtime_error.is_some());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// What is wrong.
    pub message: String,
    /// Byte offset in the file, when known.
    pub offset: Option<u64>,
    /// Field path (`execution_plan[0].values[7].val.sizes`).
    pub path: String,
    /// The rule's stable name (`segment.bounds`).
    pub rule: String,
    /// The runtime's answer, when it enforces the rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runtime_error: Option<RuntimeAnswer>,
}

impl From<&Violation> for Finding {
    fn from(v: &Violation) -> Finding {
        Finding {
            message: v.message.clone(),
            offset: v.offset,
            path: v.path.clone(),
            rule: v.rule.name().to_string(),
            runtime_error: RuntimeAnswer::of(v),
        }
    }
}

/// The verdict on one file: `pte verify --json`'s document, and what the
/// Python package's `verify()` returns.
///
/// ```
/// let r = pte_verify::verify_bytes(b"tiny", &Default::default());
/// let v = pte::Verdict::from(&r);
/// assert!(!v.valid);
/// assert!(serde_json::to_string(&v).unwrap().starts_with("{\"valid\":false"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// No violation (warnings do not count).
    pub valid: bool,
    /// Rules broken.
    pub violations: Vec<Finding>,
    /// Rules a valid file may still need attention for.
    pub warnings: Vec<Finding>,
}

impl From<&Report> for Verdict {
    fn from(r: &Report) -> Verdict {
        Verdict {
            valid: r.is_ok(),
            violations: r.violations.iter().map(Finding::from).collect(),
            warnings: r.warnings.iter().map(Finding::from).collect(),
        }
    }
}

/// The finding's line, ending with the runtime's answer when it has one.
///
/// ```
/// let r = pte_verify::verify_bytes(b"tiny", &Default::default());
/// assert!(pte::finding_line(&r.violations[0]).contains("the runtime refuses it with"));
/// ```
pub fn finding_line(v: &Violation) -> String {
    match v.rule.refusal() {
        Some(r) => format!("{v}; the runtime refuses it with {r}"),
        None => v.to_string(),
    }
}
