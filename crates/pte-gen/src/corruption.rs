//! One corruption class: what it breaks, in which kind of file, and what
//! must be reported; and the macro the class tables are written with.

use crate::edit::Edit;
use crate::judge::Expect;
use crate::NotApplicable;
use pte_core::FileKind;

/// One corruption class: what it breaks, in which kind of file, and what
/// the workspace must report for the result.
#[derive(Clone, Copy)]
pub struct Corruption {
    /// Stable name (`pte.root-offset`), as `pte mutate --rule` takes it.
    pub name: &'static str,
    /// The verifier rule `pte verify` names for the result (docs/verifier.md).
    pub rule: pte_verify::Rule,
    /// The kind of file it starts from and produces.
    pub input: FileKind,
    /// What it breaks.
    pub what: &'static str,
    /// What our reader or verifier must report.
    pub expect: Expect,
    pub(crate) generate: fn(&[u8]) -> Edit<Vec<u8>>,
}

impl std::fmt::Debug for Corruption {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Corruption").field("name", &self.name).field("input", &self.input).finish_non_exhaustive()
    }
}

impl Corruption {
    /// Breaks `input` (a valid file of kind [`Corruption::input`]).
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let out = pte_gen::find("pte.root-offset").unwrap().apply(&bytes)?;
    /// assert_eq!(out.len(), bytes.len());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn apply(&self, input: &[u8]) -> Result<Vec<u8>, NotApplicable> {
        crate::kind::require(self.input, input)
            .and_then(|()| (self.generate)(input))
            .map_err(|reason| NotApplicable { class: self.name, reason })
    }
}

/// One class entry: name, rule, input kind, what it breaks, expectation, edit.
macro_rules! class {
    ($name:literal, $rule:expr, $kind:ident, $what:literal, $expect:expr, $f:expr) => {
        Corruption { name: $name, rule: $rule, input: FileKind::$kind, what: $what, expect: $expect, generate: $f }
    };
}
pub(crate) use class;
