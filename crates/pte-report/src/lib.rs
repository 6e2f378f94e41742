//! Self-contained HTML reports of ExecuTorch files (`pte report`).
//!
//! [`report`] turns one or more files (`.pte`, `.ptd`, `.ptn`, `.bpte`)
//! into one HTML page that needs nothing but a browser: no request leaves
//! the page, its style and script are inline, and its summary and findings
//! are plain tables that read without the script. Per file it shows the
//! summary, the verifier's findings with the runtime error each leads to,
//! every method's dataflow graph laid out here ([`layout`], no Graphviz),
//! the size breakdown as a treemap ([`treemap`]), the memory plan as a
//! picture ([`memory_picture`]), the tensors with statistics of their data
//! ([`stats`]), delegate payloads, a package's samples, a bundle's test
//! cases, EXTERNAL tensors resolved against data files, and, for several
//! files, what `pte diff` says of them. `docs/report.md` describes the page.
//!
//! It also holds what the page shares with the CLI: the dataflow graphs
//! ([`graph`]) and their drawing (`pte graph --svg` writes
//! [`layout::svg_file`]); payload summaries are the door's typed
//! `pte::PayloadRow`, as `pte info` lists them; the text
//! conventions are `pte_core::style`, shared by every crate's messages.
//! Files are verified through the `pte` crate, the one door every
//! frontend uses.
//!
//! ```
//! let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
//! let page = pte_report::report(&[pte_report::Source { name: "linear.pte", bytes: &bytes }], &[]);
//! assert!(page.html.contains(r#"<section class="file" id="file-0" data-kind="pte""#));
//! assert_eq!(page.files[0].violations, 0);
//! # Ok::<(), std::io::Error>(())
//! ```

#![forbid(unsafe_code)]

pub mod graph;
pub mod html;
pub mod layout;
pub mod memory_picture;
mod page;
pub mod stats;
pub mod treemap;

pub use page::{report, report_with_checks, FileSummary, Page, SamplesCheck, Source};
