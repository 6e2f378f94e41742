//! Verifier rules as typed values: every format's catalogue is a list of
//! [`Rule`] constants, and the documentation is generated from those lists.

use std::fmt;

/// A rule a verifier checks: a stable name and what it checks.
///
/// Names follow one convention: lower-case areas separated by dots, words
/// inside an area joined by `_` (`tensor.dim_order`,
/// `ptn.samples.missing_tensor`). Tools may match on them.
///
/// ```
/// use pte_core::Rule;
/// const SIZES: Rule = Rule::new("tensor.sizes", "sizes are present and non-negative");
/// assert_eq!(SIZES.name(), "tensor.sizes");
/// assert_eq!(SIZES, "tensor.sizes");
/// assert_eq!(SIZES.to_string(), "tensor.sizes");
/// assert!(Rule::is_well_named(SIZES.name()));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Rule {
    name: &'static str,
    checks: &'static str,
}

impl Rule {
    /// A rule named `name` that checks what `checks` says.
    ///
    /// ```
    /// assert_eq!(pte_core::Rule::new("a.b", "c").checks(), "c");
    /// ```
    pub const fn new(name: &'static str, checks: &'static str) -> Rule {
        Rule { name, checks }
    }

    /// The stable name.
    ///
    /// ```
    /// assert_eq!(pte_core::Rule::new("file.min_size", "").name(), "file.min_size");
    /// ```
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// What the rule checks, for documentation and `pte rules`.
    ///
    /// ```
    /// assert_eq!(pte_core::Rule::new("a.b", "what").checks(), "what");
    /// ```
    pub const fn checks(&self) -> &'static str {
        self.checks
    }

    /// Whether `name` follows the naming convention: at least two dot-separated
    /// areas of lower-case ASCII letters, digits and `_`, each starting with a letter.
    ///
    /// ```
    /// assert!(pte_core::Rule::is_well_named("ptn.samples.missing_tensor"));
    /// assert!(!pte_core::Rule::is_well_named("ptn.samples.missing-tensor"));
    /// assert!(!pte_core::Rule::is_well_named("single"));
    /// ```
    pub fn is_well_named(name: &str) -> bool {
        let mut areas = 0usize;
        for area in name.split('.') {
            let mut chars = area.chars();
            if !chars.next().is_some_and(|c| c.is_ascii_lowercase()) {
                return false;
            }
            if !chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_') {
                return false;
            }
            areas = areas.saturating_add(1);
        }
        areas >= 2
    }
}

impl PartialEq for Rule {
    fn eq(&self, other: &Rule) -> bool {
        self.name == other.name
    }
}

impl Eq for Rule {}

impl std::hash::Hash for Rule {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.name.hash(state);
    }
}

impl PartialEq<str> for Rule {
    fn eq(&self, other: &str) -> bool {
        self.name == other
    }
}

impl PartialEq<&str> for Rule {
    fn eq(&self, other: &&str) -> bool {
        self.name == *other
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

/// One format's rules, with a heading for the documentation.
///
/// ```
/// use pte_core::{Catalogue, Rule};
/// const RULES: &[Rule] = &[Rule::new("demo.one", "the first")];
/// let c = Catalogue { format: "demo files", rules: RULES };
/// assert!(c.markdown().contains("| `demo.one` | the first |"));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Catalogue {
    /// What the rules apply to ("`.pte` programs").
    pub format: &'static str,
    /// Every rule, in documentation order.
    pub rules: &'static [Rule],
}

impl Catalogue {
    /// The catalogue as a Markdown section: a heading and a table.
    ///
    /// ```
    /// let c = pte_core::Catalogue { format: "x", rules: &[] };
    /// assert!(c.markdown().starts_with("## x\n"));
    /// ```
    pub fn markdown(&self) -> String {
        let mut out = format!("## {}\n\n| rule | checks |\n| --- | --- |\n", self.format);
        for r in self.rules {
            out.push_str(&format!("| `{}` | {} |\n", r.name(), r.checks().replace('|', "\\|")));
        }
        out
    }
}
