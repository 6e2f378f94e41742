//! The page: one `<section class="file">` per input, a comparison when
//! there are several, the styles and the little script that searches and
//! pans, all in one document that loads nothing from anywhere.
//!
//! Each part of a file's section is read on its own: a part that cannot be
//! read says so in a `<p class="unreadable">` and the others still show.
//!
//! The modules import downwards only, never back: `context` (the inputs,
//! the state of a section being written) is imported by every part; `file`
//! writes a file's section from the parts, `program` the parts of a program
//! (which `extras` reuses for the program a bundle embeds), `external` a
//! program's EXTERNAL tensors.

mod assets;
mod compare;
mod context;
mod delegates;
mod external;
mod extras;
mod file;
mod graphs;
mod memory;
mod program;
mod samples_check;
mod sizes;
mod summary;
mod tensors;
mod verification;

use std::fmt::Write as _;

use crate::html::escape;
pub use context::{FileSummary, Source};
pub use samples_check::SamplesCheck;

/// A finished page and what it says of each file.
///
/// ```
/// let page = pte_report::report(&[], &[]);
/// assert!(page.html.starts_with("<!DOCTYPE html>"));
/// assert!(page.is_clean());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Page {
    /// The whole document.
    pub html: String,
    /// One summary per input, in order.
    pub files: Vec<FileSummary>,
    /// What of the comparison could not be read.
    pub unreadable: Vec<String>,
}

impl Page {
    /// Whether every file was read whole and verified without violation.
    ///
    /// ```
    /// assert!(pte_report::Page::default().is_clean());
    /// ```
    pub fn is_clean(&self) -> bool {
        self.unreadable.is_empty() && self.files.iter().all(FileSummary::is_clean)
    }
}

/// The report of `files`, the `.ptd` files in `data` resolving the EXTERNAL
/// tensors of every `.pte` among them (and linked when verifying it, as
/// `pte verify --ptd` does). The same inputs give the same bytes.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
/// let page = pte_report::report(&[pte_report::Source { name: "add.pte", bytes: &bytes }], &[]);
/// assert!(page.html.contains("<title>pte report: add.pte</title>"));
/// assert!(page.html.contains(r#"id="file-0" data-kind="pte" data-methods="1""#));
/// assert!(page.is_clean());
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn report(files: &[Source<'_>], data: &[Source<'_>]) -> Page {
    report_with_checks(files, data, &[])
}

/// [`report`] with a section of samples checks: the JSON of `pte samples
/// check --json` (one runner's report, or a matrix of several), drawn as
/// its table runner × set.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
/// let json = serde_json::json!({
///     "verdict": "mismatch", "order": ["old", "new"], "sets": ["forward/s"],
///     "runners": {"old": {"runner": "et 1.0.0"}, "new": {"runner": "et 1.5.1"}},
///     "table": [
///         {"runner": "old", "method": "forward", "set": "s", "status": "passed", "failures": 0, "worst": null},
///         {"runner": "new", "method": "forward", "set": "s", "status": "mismatch", "failures": 1,
///          "worst": {"message": "forward/s sample 0 call 1: output 0: 1 element outside tolerance"}},
///     ],
/// });
/// let checks = [pte_report::SamplesCheck { name: "check.json", json: &json }];
/// let page = pte_report::report_with_checks(&[pte_report::Source { name: "add.pte", bytes: &bytes }], &[], &checks);
/// assert!(page.html.contains(r#"<section id="samples-check""#));
/// assert!(page.html.contains("sample 0 call 1: output 0"));
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn report_with_checks(files: &[Source<'_>], data: &[Source<'_>], checks: &[SamplesCheck<'_>]) -> Page {
    let names: Vec<&str> = files.iter().map(Source::file_name).collect();
    let mut html = String::with_capacity(1 << 16);
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"pte {}\">\n<title>pte report: {}</title>\n<style>{}</style>\n</head>\n<body>\n",
        env!("CARGO_PKG_VERSION"),
        escape(&names.join(", ")),
        assets::CSS
    );
    let _ = write!(html, "<header><h1>pte report</h1>");
    if files.len() > 1 {
        html.push_str("<nav aria-label=\"files\"><ul>");
        for (k, f) in files.iter().enumerate() {
            let _ = write!(html, "<li><a href=\"#file-{k}\">{}</a></li>", escape(f.name));
        }
        html.push_str("<li><a href=\"#comparison\">Comparison</a></li></ul></nav>");
    }
    html.push_str("</header>\n<main>\n");
    let mut summaries = Vec::with_capacity(files.len());
    for (k, f) in files.iter().enumerate() {
        let summary = file::section(&mut html, k, f, data);
        summaries.push(summary);
    }
    let mut unreadable = vec![];
    if files.len() > 1 {
        html.push_str(&compare::section(files, &summaries, &mut unreadable));
    }
    html.push_str(&samples_check::section(checks));
    let _ = write!(
        html,
        "</main>\n<footer><p>Written by pte {} from the files alone; nothing on this page is loaded from elsewhere.</p></footer>\n<script>{}</script>\n</body>\n</html>\n",
        env!("CARGO_PKG_VERSION"),
        assets::JS
    );
    Page { html, files: summaries, unreadable }
}
