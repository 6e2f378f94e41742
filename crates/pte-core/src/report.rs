//! What a verifier returns, shared by every format's verifier so that tools
//! print and filter one type whatever the file.

use std::fmt;

use crate::Rule;

/// One broken rule.
///
/// ```
/// const SIZES: pte_core::Rule = pte_core::Rule::new("tensor.sizes", "sizes are non-negative");
/// let v = pte_core::Violation { rule: SIZES, path: "values[3]".into(), offset: Some(96), message: "negative size".into() };
/// assert_eq!(v.to_string(), "[tensor.sizes] negative size at values[3] (byte 96)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The rule broken, one of its format's catalogue (its name is stable).
    pub rule: Rule,
    /// Field path, e.g. `execution_plan[0].values[7].val.sizes`.
    pub path: String,
    /// Byte offset in the file, when known.
    pub offset: Option<u64>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}] {}", self.rule, self.message)?;
        if !self.path.is_empty() {
            write!(f, " at {}", self.path)?;
        }
        if let Some(o) = self.offset {
            write!(f, " (byte {o})")?;
        }
        Ok(())
    }
}

/// The outcome of a verification: every violation found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Violations in discovery order.
    pub violations: Vec<Violation>,
    /// Findings that make the file unloadable only in some runtime builds
    /// (for example the deprecated inline-constant layout, which the stock
    /// CMake builds and wheels compile out). They do not make the file invalid.
    pub warnings: Vec<Violation>,
}

impl Report {
    /// Whether the file passed every rule.
    ///
    /// ```
    /// assert!(pte_core::Report::default().is_ok());
    /// ```
    pub fn is_ok(&self) -> bool {
        self.violations.is_empty()
    }

    /// Whether a rule was broken or warned about.
    ///
    /// ```
    /// assert!(!pte_core::Report::default().breaks("file.min_size"));
    /// ```
    pub fn breaks(&self, rule: &str) -> bool {
        self.violations.iter().chain(&self.warnings).any(|v| v.rule == rule)
    }
}
