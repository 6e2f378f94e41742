//! The tensors part: one row per stored tensor (name, dtype, shape, where
//! it is stored, bytes) with statistics computed from its data
//! ([`crate::stats`]: bounded per tensor and per page). At most
//! [`MAX_ROWS`] rows are written; the rest are counted.

use std::fmt::Write as _;

use pte_file::view::PteView;

use super::context::{open, Ctx};
use crate::html::{escape, float, head_row, thousands};
use crate::stats::{Elem, Stats, MAX_ELEMENTS};

/// Rows of the table written; the rest are counted in a line below it.
pub const MAX_ROWS: usize = 10_000;

/// One row of the table.
pub(super) struct TensorRow<'a> {
    pub(super) name: String,
    pub(super) dtype: String,
    pub(super) shape: String,
    /// Whether a dimension is negative: the shape then gives no element
    /// count, and no statistics are shown over a count made up from the
    /// bytes stored.
    pub(super) negative_dim: bool,
    pub(super) place: String,
    pub(super) bytes: Option<u64>,
    /// The data, when the file holds it.
    pub(super) data: Option<&'a [u8]>,
}

/// The statistics cells of one row: min, max, mean, NaN, Inf, and a note.
fn stat_cells(cx: &mut Ctx, t: &TensorRow<'_>) -> [String; 6] {
    let dash = || "-".to_string();
    if t.negative_dim {
        let note = "invalid shape: a negative dimension gives no element count, so no statistics";
        return [dash(), dash(), dash(), dash(), dash(), note.into()];
    }
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

/// The part holding `rows` (their first [`MAX_ROWS`] written, the rest
/// counted); returns it and the number of rows.
pub(super) fn table<'a>(cx: &mut Ctx, rows: impl IntoIterator<Item = TensorRow<'a>>, intro: &str) -> (String, usize) {
    let mut s = open(cx, "tensors", "Tensors");
    let _ = write!(
        s,
        "<p>{} Statistics are computed from the stored data: at most the first {} elements of each tensor, and at most {} elements over the page.</p>",
        escape(intro),
        thousands(MAX_ELEMENTS),
        thousands(crate::stats::Budget::PAGE)
    );
    let mut rows = rows.into_iter().peekable();
    if rows.peek().is_none() {
        s.push_str("<p>No stored tensor.</p></section>\n");
        return (s, 0);
    }
    s.push_str("<div class=\"scroll tall\"><table class=\"tensors\">");
    s.push_str(&head_row(&["name", "dtype", "shape", "stored", "bytes", "min", "max", "mean", "NaN", "Inf", "note"]));
    let mut n = 0usize;
    for t in rows.by_ref().take(MAX_ROWS) {
        n = n.saturating_add(1);
        let stats = stat_cells(cx, &t);
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
    s.push_str("</table></div>");
    let more = rows.count();
    if more > 0 {
        let _ = write!(
            s,
            "<p>… {} more tensors not listed (<code>pte info --tensors</code> lists them all).</p>",
            thousands(more as u64)
        );
    }
    s.push_str("</section>\n");
    (s, n.saturating_add(more))
}

/// The tensors of a program, as `pte info --tensors` lists them (the
/// named-data keys left out), read in place. `file` is the whole input and
/// `at` where the program starts in it, so ranges are file offsets.
pub(super) fn program(cx: &mut Ctx, pte: Option<&PteView<'_>>, file: &[u8], at: u64) -> (String, usize) {
    let intro = "Every constant, mutable buffer and EXTERNAL tensor, once per stored datum.";
    let Some(pte) = pte else {
        return (cx.failed_part("tensors", "Tensors", "the tensors", "the program could not be read"), 0);
    };
    let summary = pte::Summary::new(*pte, &pte::SummaryOptions { tensors: true, ..Default::default() });
    // the legacy inline constants, by index: a row finds its bytes at once
    let inline: Vec<Option<&[u8]>> = pte.program().constant_buffer().map(|b| b.collect()).unwrap_or_default();
    let rows = summary.tensors(false).filter(|t| t.storage != "named").map(|t| {
        let range = t.file_range.map(|[s, e]| [s.saturating_add(at), e.saturating_add(at)]);
        let data = match (range, t.stored) {
            (Some([s, e]), _) => usize::try_from(s).ok().zip(usize::try_from(e).ok()).and_then(|(s, e)| file.get(s..e)),
            (None, Some(_)) if t.storage == "constant" => t
                .facts
                .as_ref()
                .and_then(|f| usize::try_from(f.data_buffer_idx).ok())
                .and_then(|i| inline.get(i).copied().flatten()),
            _ => None,
        };
        let place = match (t.storage, range, t.stored) {
            ("external", _, _) => "external (a .ptd)".to_string(),
            (s, Some([start, end]), _) => {
                format!("{s} segment {}, file bytes {start}..{end}", t.segment.unwrap_or(0))
            }
            (s, None, Some(_)) => format!("{s} (inline)"),
            (s, None, None) => format!("{s} (planned, no initial data)"),
        };
        let dynamism = t.facts.as_ref().map_or("", |f| f.dynamism.as_str());
        TensorRow {
            shape: pte_core::style::dynamic_shape(t.sizes.iter().flatten(), dynamism),
            negative_dim: t.sizes.iter().flatten().any(|&d| d < 0),
            dtype: t.dtype.clone().unwrap_or_default(),
            place,
            bytes: t.facts.as_ref().and_then(|f| f.nbytes).or(t.stored),
            data,
            name: t.name,
        }
    });
    table(cx, rows, intro)
}
