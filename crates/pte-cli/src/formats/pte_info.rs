//! `pte info` of a `.pte`: the library's [`pte::Summary`], read in place
//! (no model decoded), printed as JSON or drawn as text; every list that
//! grows with the file (segments, constants, mutable buffers, named data,
//! tensors) is written one entry at a time, so memory does not grow with
//! the program.

// serde_json::Value indexing yields Null for a missing key and never panics.
#![allow(clippy::indexing_slicing)]

use std::io::{self, BufWriter, Write};
use std::path::Path;

use pte::{Summary, SummaryOptions};
use pte_core::FileKind;
use pte_file::view::{PteView, SegmentTable, SubBuffers};

use crate::failure::{at, CmdResult};
use crate::formats::{inspect, program};
use crate::input::require_kind;

/// `pte info FILE` (text or `--json`) for a `.pte`.
/// `verified` is what the verifier saw of the program, when it verified:
/// the program is then not verified again, nor its values passed over for
/// what the verifier's walk read.
pub(crate) fn run(
    file: &Path,
    bytes: &[u8],
    json: bool,
    tensors: bool,
    verified: Option<&pte::Verified<'_>>,
) -> CmdResult {
    require_kind(file, bytes, FileKind::Pte)?;
    let options = SummaryOptions { table: SegmentTable::Referenced, tensors, path: Some(file) };
    let view = match verified {
        Some(v) => PteView::read_verified(bytes, *v.view(), options.table),
        None => PteView::read(bytes, options.table),
    };
    let summary = Summary::with_known(view.map_err(at(file))?, &options, verified.and_then(|v| v.known_values()));
    write_stdout(|w| {
        if json {
            serde_json::to_writer_pretty(&mut *w, &summary)?;
            return w.write_all(b"\n");
        }
        write_text(&summary, w)
    })
}

/// Runs `write` over a buffered standard output; standard output closed
/// early (`pte info x | head`) ends the process quietly.
pub(crate) fn write_stdout(write: impl FnOnce(&mut BufWriter<io::StdoutLock<'static>>) -> io::Result<()>) -> CmdResult {
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    if write(&mut out).and_then(|()| out.flush()).is_err() {
        std::process::exit(0);
    }
    Ok(())
}

/// `info`'s text of a `.pte`, written as the summary's lists are read.
fn write_text(s: &Summary<'_>, w: &mut impl Write) -> io::Result<()> {
    // the head is small; its text is drawn from the JSON the bundle's embedded program also gives
    let head = serde_json::to_value(s.head()).map_err(io::Error::other)?;
    w.write_all(program::text_head(&head).as_bytes())?;
    w.write_all(program::segments_title(s.view().program().segment_count()).as_bytes())?;
    for row in s.segment_rows() {
        w.write_all(program::segment_line(&row.index, &row.offset, &row.size, &row.used_by).as_bytes())?;
    }
    let (n, total) = s
        .constants()
        .into_iter()
        .flat_map(SubBuffers::iter)
        .fold((0u64, 0u64), |(n, t), c| (n.saturating_add(1), t.saturating_add(c.len)));
    w.write_all(program::constants_line(n, total).as_bytes())?;
    for (k, m) in s.mutable_segments().iter().enumerate() {
        w.write_all(program::mutable_line(k, m.len() as u64).as_bytes())?;
    }
    w.write_all(program::named_title(s.named_rows().count()).as_bytes())?;
    for row in s.named_rows() {
        w.write_all(program::named_line(&crate::style::quoted(row.key), &row.segment_index, &row.size).as_bytes())?;
    }
    w.write_all(inspect::external_text(&head["external_data"]).as_bytes())?;
    if s.has_tensors() {
        inspect::write_tensor_table(w, || s.tensors(false).map(|r| inspect::pte_tensor_cells(&r)))?;
    }
    Ok(())
}
