//! Verifier rules as typed values: every format's catalogue is a list of
//! [`Rule`] constants, and the documentation is generated from those lists.

use std::fmt;

use crate::runtime::{Refusal, RuntimeError, Stage};

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
/// assert_eq!(format!("{SIZES:<14}|"), "tensor.sizes  |");
/// assert!(Rule::is_well_named(SIZES.name()));
/// ```
#[derive(Clone, Copy)]
pub struct Rule {
    name: &'static str,
    checks: &'static str,
    refusal: Option<Refusal>,
}

impl Rule {
    /// A rule named `name` that checks what `checks` says.
    ///
    /// ```
    /// assert_eq!(pte_core::Rule::new("a.b", "c").checks(), "c");
    /// ```
    pub const fn new(name: &'static str, checks: &'static str) -> Rule {
        Rule { name, checks, refusal: None }
    }

    /// The same rule, marked as one the stock runtime enforces: a file that
    /// breaks it is refused with `error` at `stage`.
    ///
    /// ```
    /// use pte_core::{errors, Rule, Stage};
    /// const R: Rule = Rule::new("demo.rule", "x").refused_with(errors::INVALID_PROGRAM, Stage::LoadMethod);
    /// assert_eq!(R.refusal().map(|r| r.error.code), Some(0x23));
    /// ```
    pub const fn refused_with(self, error: RuntimeError, stage: Stage) -> Rule {
        Rule { refusal: Some(Refusal { error, stage }), ..self }
    }

    /// What the stock runtime answers a file breaking this rule, when it
    /// enforces it (`None`: a rule of ours the runtime does not check, or
    /// one whose breach it does not diagnose).
    ///
    /// ```
    /// assert!(pte_core::Rule::new("demo.rule", "x").refusal().is_none());
    /// ```
    pub const fn refusal(&self) -> Option<Refusal> {
        self.refusal
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

impl PartialOrd for Rule {
    fn partial_cmp(&self, other: &Rule) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// Rules order by name, so reports sort the same whatever built them.
impl Ord for Rule {
    fn cmp(&self, other: &Rule) -> std::cmp::Ordering {
        self.name.cmp(other.name)
    }
}

/// Only the name: reports and failed assertions stay readable.
impl fmt::Debug for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Rule({:?})", self.name)
    }
}

/// The name, padded as the format asks (`{:<28}` aligns tables).
impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name)
    }
}

/// One format's rules, with a heading and the prose that introduces them in
/// the documentation.
///
/// ```
/// use pte_core::{Catalogue, Rule};
/// const ONE: Rule = Rule::new("demo.one", "the first");
/// let c = Catalogue { format: "demo files", intro: "How demo files are checked.", rules: &[ONE] };
/// assert!(c.markdown().contains("| `demo.one` | the first |"));
/// assert_eq!(c.find("demo.one"), Some(ONE));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Catalogue {
    /// What the rules apply to ("`.pte` programs"): the section heading.
    pub format: &'static str,
    /// Markdown prose printed between the heading and the table; may be empty.
    pub intro: &'static str,
    /// Every rule, in documentation order.
    pub rules: &'static [Rule],
}

impl Catalogue {
    /// The rule of this name, if the catalogue lists it.
    ///
    /// ```
    /// let c = pte_core::Catalogue { format: "x", intro: "", rules: &[] };
    /// assert!(c.find("x.y").is_none());
    /// ```
    pub fn find(&self, name: &str) -> Option<Rule> {
        self.rules.iter().copied().find(|r| r.name == name)
    }

    /// The catalogue as a Markdown section: a heading, the intro and a table.
    ///
    /// ```
    /// let c = pte_core::Catalogue { format: "x", intro: "", rules: &[] };
    /// assert!(c.markdown().starts_with("## x\n\n| rule |"));
    /// ```
    pub fn markdown(&self) -> String {
        let mut out = format!("## {}\n\n", self.format);
        if !self.intro.is_empty() {
            out.push_str(self.intro.trim_end());
            out.push_str("\n\n");
        }
        out.push_str("| rule | what it checks | the stock runtime answers |\n| --- | --- | --- |\n");
        for r in self.rules {
            let answer = r.refusal().map_or_else(
                || "—".to_string(),
                |f| format!("`{}` 0x{:02x} at `{}`", f.error.name, f.error.code, f.stage.name()),
            );
            out.push_str(&format!("| `{}` | {} | {answer} |\n", r.name(), r.checks().replace('|', "\\|")));
        }
        out
    }
}
