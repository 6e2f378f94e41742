//! `pte size FILE`: where the bytes go. Every byte of a `.pte`, `.ptd`,
//! `.ptn` or `.bpte` attributed once (`pte::size`),
//! as a table or as JSON, grouped or cut to the largest parts on request.

use std::io::{self, Write};
use std::path::Path;

use pte_analysis::size::{By, Part, SizeReport};
use pte_core::style::Share;

use crate::cli::SizeBy;
use crate::failure::{at, CmdResult};
use crate::formats::pte_info::write_stdout;
use crate::input::Input;

impl From<SizeBy> for By {
    fn from(b: SizeBy) -> By {
        match b {
            SizeBy::Kind => By::Kind,
            SizeBy::Tensor => By::Tensor,
            SizeBy::Operator => By::Operator,
            SizeBy::Delegate => By::Delegate,
        }
    }
}

pub(crate) fn run(file: &Path, json: bool, top: Option<usize>, by: Option<SizeBy>) -> CmdResult {
    let input = Input::open(file)?;
    input.require("size", &::pte::KINDS)?;
    let bytes = input.bytes();
    let report = ::pte::size(input.kind, bytes).map_err(at(file))?;
    let report = match by {
        Some(b) => report.grouped(b.into()),
        None => report,
    };
    let report = match top {
        Some(n) => report.top(n),
        None => report,
    };
    write_stdout(|w| {
        if json {
            serde_json::to_writer_pretty(&mut *w, &report)?;
            return w.write_all(b"\n");
        }
        text(w, file, &report)
    })
}

/// What the name column says: the name, and what it shares or holds.
fn label(w: &mut impl Write, p: &Part) -> io::Result<()> {
    write!(w, "{}", pte_core::style::Escaped(&p.name))?;
    if let Some(n) = p.count.filter(|&n| n != 1) {
        write!(w, " ({n} parts)")?;
    }
    if !p.shared_with.is_empty() {
        write!(w, " (also {})", pte_core::style::Escaped(&p.shared_with))?;
    }
    Ok(())
}

/// Digits of `n` in decimal.
fn digits(n: u64) -> usize {
    n.checked_ilog10().map_or(1, |d| (d as usize).saturating_add(1))
}

/// The columns are as wide as their widest cell, found without writing
/// the cells out first (a report may have a million parts).
fn text(w: &mut impl Write, file: &Path, r: &SizeReport) -> io::Result<()> {
    let by = r.by.as_deref().map(|b| format!(", by {b}")).unwrap_or_default();
    writeln!(w, "{}: {} bytes ({}){by}", file.display(), r.file_size, r.format)?;
    let ow = r.parts.iter().map(|p| p.offset.map_or(1, digits)).chain([6]).max().unwrap_or(6);
    let bw = r.parts.iter().map(|p| digits(p.bytes)).chain([5]).max().unwrap_or(5);
    let kw = r.parts.iter().map(|p| p.kind.len()).chain([4]).max().unwrap_or(4);
    writeln!(w, "  {:>ow$}  {:>bw$}  {:>6}  {:<kw$}  name", "offset", "bytes", "share", "kind")?;
    for p in &r.parts {
        match p.offset {
            Some(o) => write!(w, "  {o:>ow$}")?,
            None => write!(w, "  {:>ow$}", "-")?,
        }
        write!(w, "  {:>bw$}  {:>6}  {:<kw$}  ", p.bytes, Share { part: p.bytes, whole: r.file_size }, p.kind)?;
        label(w, p)?;
        w.write_all(b"\n")?;
    }
    for n in &r.notes {
        writeln!(w, "note: {n}")?;
    }
    Ok(())
}
