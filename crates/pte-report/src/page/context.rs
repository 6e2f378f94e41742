//! What every part of a file's section shares: the page's inputs, what the
//! page says of a file, and the state of a section while it is written (its
//! index, what could not be read, the statistics budget). Every part imports
//! it; it imports no part.

use std::fmt::Display;

use pte_core::FileKind;

use crate::html::{escape, unreadable};

/// One input of the page: how the page names it and its bytes.
///
/// ```
/// let s = pte_report::Source { name: "model.pte".into(), bytes: b"" };
/// assert_eq!(s.file_name(), "model.pte");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Source<'a> {
    /// The name shown (a path as given on the command line).
    pub name: &'a str,
    /// The file's bytes.
    pub bytes: &'a [u8],
}

impl Source<'_> {
    /// The last component of the name (`model.pte` of `dir/model.pte`).
    ///
    /// ```
    /// assert_eq!(pte_report::Source { name: "a/b\\c.ptd", bytes: b"" }.file_name(), "c.ptd");
    /// ```
    pub fn file_name(&self) -> &str {
        self.name.rsplit(['/', '\\']).next().unwrap_or(self.name)
    }
}

/// What the page says of one file, in numbers: the counts its section's
/// `data-` attributes carry and the parts that could not be read.
///
/// ```
/// let f = pte_report::FileSummary::default();
/// assert!(f.is_clean());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileSummary {
    /// The kind of file, by content.
    pub kind: FileKind,
    /// Methods (graph figures).
    pub methods: usize,
    /// Graph nodes drawn, over all methods.
    pub nodes: usize,
    /// Rows of the tensor table.
    pub tensors: usize,
    /// Verifier violations (as `pte verify --json` counts them).
    pub violations: usize,
    /// Verifier warnings.
    pub warnings: usize,
    /// What could not be read, one line each.
    pub unreadable: Vec<String>,
}

impl Default for FileSummary {
    fn default() -> Self {
        FileSummary {
            kind: FileKind::Unknown,
            methods: 0,
            nodes: 0,
            tensors: 0,
            violations: 0,
            warnings: 0,
            unreadable: vec![],
        }
    }
}

impl FileSummary {
    /// Whether the file was read whole and verified without violation.
    ///
    /// ```
    /// let f = pte_report::FileSummary { violations: 1, ..Default::default() };
    /// assert!(!f.is_clean());
    /// ```
    pub fn is_clean(&self) -> bool {
        self.violations == 0 && self.unreadable.is_empty()
    }
}

/// The state of one file's section while it is written.
pub(super) struct Ctx {
    /// The file's index on the page (the `-K` of every id).
    pub(super) k: usize,
    /// The kind the file is read as (the door's [`pte::kind_of`]).
    pub(super) kind: FileKind,
    /// What could not be read.
    pub(super) unreadable: Vec<String>,
    /// What the tensor statistics may still read.
    pub(super) budget: crate::stats::Budget,
}

impl Ctx {
    /// `<p class="unreadable">` for `what`, recorded.
    pub(super) fn fail(&mut self, what: &str, why: impl Display) -> String {
        let why = why.to_string();
        self.unreadable.push(format!("{what}: {why}"));
        unreadable(what, &why)
    }

    /// Part `name` titled `title` holding only the note that `what` could
    /// not be read, and why (noted as [`Ctx::fail`] notes it).
    pub(super) fn failed_part(&mut self, name: &str, title: &str, what: &str, why: impl Display) -> String {
        let note = self.fail(what, why);
        wrap(self, name, title, &note)
    }
}

/// The opening of subsection `name` (`summary` → `id="summary-K"`) with its heading.
pub(super) fn open(cx: &Ctx, name: &str, title: &str) -> String {
    format!(
        "<section class=\"part\" id=\"{name}-{k}\" aria-labelledby=\"{name}-{k}-h\"><h3 id=\"{name}-{k}-h\">{}</h3>",
        escape(title),
        k = cx.k
    )
}

/// The subsections of a file, in page order; `None` is left out.
#[derive(Default)]
pub(super) struct Parts {
    pub(super) summary: String,
    pub(super) graphs: Option<String>,
    pub(super) sizes: Option<String>,
    pub(super) memory: Option<String>,
    pub(super) tensors: Option<String>,
    pub(super) delegates: Option<String>,
    pub(super) samples: Option<String>,
    pub(super) tests: Option<String>,
    pub(super) external: Option<String>,
    pub(super) methods: usize,
    pub(super) nodes: usize,
    pub(super) tensor_rows: usize,
}

/// Subsection `name` whole: its opening, `body`, its close.
pub(super) fn wrap(cx: &Ctx, name: &str, title: &str, body: &str) -> String {
    format!("{}{body}</section>\n", open(cx, name, title))
}
