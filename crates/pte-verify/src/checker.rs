//! The violation collector every check writes to, and the lazily rendered
//! field paths they name.

use std::fmt;

use pte_core::{Rule, Violation};

/// Collects violations (which stop nothing) and warnings (which do not
/// make the file invalid) as the checks walk the program.
pub(super) struct Checker<'r> {
    pub(super) out: &'r mut Vec<Violation>,
    pub(super) warnings: Vec<Violation>,
}

impl Checker<'_> {
    pub(super) fn warn(&mut self, rule: Rule, path: impl Into<String>, message: impl Into<String>) {
        self.warnings.push(Violation { rule, path: path.into(), offset: None, message: message.into() });
    }

    pub(super) fn add(&mut self, rule: Rule, path: impl Into<String>, offset: Option<u64>, message: impl Into<String>) {
        self.out.push(Violation { rule, path: path.into(), offset, message: message.into() });
    }
}

/// `parent` plus a fixed suffix, rendered lazily.
pub(super) struct Suffix<'p>(pub(super) &'p dyn fmt::Display, pub(super) &'static str);

impl fmt::Display for Suffix<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.0, self.1)
    }
}

/// `parent.field[index]`, rendered only when a violation needs it.
pub(super) struct At<'p>(pub(super) &'p dyn fmt::Display, pub(super) &'static str, pub(super) usize);

impl fmt::Display for At<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}[{}]", self.0, self.1, self.2)
    }
}

/// Whether `i` indexes a table of `n` entries.
pub(super) fn in_range(i: i64, n: usize) -> bool {
    usize::try_from(i).is_ok_and(|i| i < n)
}
