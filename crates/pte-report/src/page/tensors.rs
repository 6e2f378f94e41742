//! The tensors part: one row per stored tensor (name, dtype, shape, where
//! it is stored, bytes) with statistics computed from its data
//! ([`crate::stats`]: bounded per tensor and per page).

use std::fmt::Write as _;

use pte_file::{PteFile, TensorStorage};

use super::file::{open, Ctx};
use crate::html::{escape, float, head_row, thousands};
use crate::stats::{Elem, Stats, MAX_ELEMENTS};

/// One row of the table.
pub(super) struct TensorRow<'a> {
    pub(super) name: String,
    pub(super) dtype: String,
    pub(super) shape: String,
    pub(super) place: String,
    pub(super) bytes: Option<u64>,
    /// The data, when the file holds it.
    pub(super) data: Option<&'a [u8]>,
}

/// The statistics cells of one row: min, max, mean, NaN, Inf, and a note.
fn stat_cells(cx: &mut Ctx, t: &TensorRow<'_>) -> [String; 6] {
    let dash = || "-".to_string();
    let Some(data) = t.data else {
        return [dash(), dash(), dash(), dash(), dash(), "no data in this file".into()];
    };
    let Some(elem) = Elem::from_name(&t.dtype) else {
        return [dash(), dash(), dash(), dash(), dash(), "dtype not read".into()];
    };
    let data = match t.bytes.and_then(|n| usize::try_from(n).ok()) {
        Some(n) => data.get(..n).unwrap_or(data),
        None => data,
    };
    let want = data.len().checked_div(elem.size()).unwrap_or(0) as u64;
    let granted = cx.budget.take(want);
    if granted == 0 && want > 0 {
        return [dash(), dash(), dash(), dash(), dash(), "not read: the page's budget is spent".into()];
    }
    let s = Stats::of(elem, data, granted);
    let num = |x: f64| {
        if x.is_nan() {
            "-".to_string()
        } else if s.float {
            float(x)
        } else {
            format!("{x:.0}")
        }
    };
    let note = if s.read < s.total {
        format!("first {} of {} elements", thousands(s.read), thousands(s.total))
    } else {
        String::new()
    };
    [
        num(s.min),
        num(s.max),
        if s.read == 0 { "-".into() } else { float(s.mean) },
        thousands(s.nan),
        thousands(s.inf),
        note,
    ]
}

/// The part holding `rows`; returns it and the number of rows.
pub(super) fn table(cx: &mut Ctx, rows: &[TensorRow<'_>], intro: &str) -> (String, usize) {
    let mut s = open(cx, "tensors", "Tensors");
    let _ = write!(
        s,
        "<p>{} Statistics are computed from the stored data: at most the first {} elements of each tensor, and at most {} elements over the page.</p>",
        escape(intro),
        thousands(MAX_ELEMENTS),
        thousands(crate::stats::Budget::PAGE)
    );
    if rows.is_empty() {
        s.push_str("<p>No stored tensor.</p></section>\n");
        return (s, 0);
    }
    s.reserve(rows.len().saturating_mul(300));
    s.push_str("<div class=\"scroll tall\"><table class=\"tensors\">");
    s.push_str(&head_row(&["name", "dtype", "shape", "stored", "bytes", "min", "max", "mean", "NaN", "Inf", "note"]));
    for t in rows {
        let stats = stat_cells(cx, t);
        let _ = write!(
            s,
            "<tr class=\"tensor\"><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td class=\"num\">{}</td>",
            escape(&t.name),
            escape(&pte_core::style::dtype(&t.dtype)),
            escape(&t.shape),
            escape(&t.place),
            t.bytes.map_or_else(|| "?".into(), thousands)
        );
        for (i, c) in stats.iter().enumerate() {
            let class = if i < 5 { " class=\"num\"" } else { "" };
            let _ = write!(s, "<td{class}>{}</td>", escape(c));
        }
        s.push_str("</tr>");
    }
    s.push_str("</table></div></section>\n");
    (s, rows.len())
}

/// The tensors of a program, as `pte info --tensors` lists them.
/// `at` is where the program starts in the file, so ranges are file offsets.
pub(super) fn program(cx: &mut Ctx, pte: Option<&PteFile<'_>>, program: &[u8], at: u64) -> (String, usize) {
    let intro = "Every constant, mutable buffer and EXTERNAL tensor, once per stored datum.";
    let Some(pte) = pte else {
        let note = cx.fail("the tensors", "the program could not be read");
        return (format!("{}{note}</section>\n", open(cx, "tensors", "Tensors")), 0);
    };
    let list = match pte.tensors() {
        Ok(l) => l,
        Err(e) => {
            let note = cx.fail("the tensors", e);
            return (format!("{}{note}</section>\n", open(cx, "tensors", "Tensors")), 0);
        }
    };
    let base = pte_segments::ExtendedHeader::parse(program)
        .ok()
        .flatten()
        .map_or(0, |h| h.segment_base_offset)
        .saturating_add(at);
    let rows: Vec<TensorRow<'_>> = list
        .iter()
        .map(|t| {
            let place = match (t.storage, t.file_range(base), t.bytes) {
                (TensorStorage::External, _, _) => "external (a .ptd)".to_string(),
                (s, Some(r), _) => {
                    format!("{} segment {}, file bytes {}..{}", s.as_str(), t.segment.unwrap_or(0), r.start, r.end)
                }
                (s, None, Some(_)) => format!("{} (inline)", s.as_str()),
                (s, None, None) => format!("{} (planned, no initial data)", s.as_str()),
            };
            TensorRow {
                name: t.name.clone(),
                dtype: t.dtype.to_string(),
                shape: pte_core::style::dynamic_shape(&t.sizes, &t.dynamism.to_string()),
                place,
                bytes: t.nbytes().or(t.bytes.map(|b| b.len() as u64)),
                data: t.bytes,
            }
        })
        .collect();
    table(cx, &rows, intro)
}
