//! The size breakdown as a squarified treemap (Bruls, Huizing and van Wijk,
//! 2000): one rectangle per part of a [`SizeReport`], its area its bytes,
//! parts grouped by kind, each labelled with its name and bytes when there
//! is room and always in a `<title>` tooltip. A label is cut (with `…`) to
//! what its rectangle holds in the graphs' monospace font, and clipped to
//! the rectangle besides, so that no font draws it over its neighbours.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use pte_analysis::size::SizeReport;
use pte_core::style::Share;

use crate::html::{escape, thousands, Coord};
use crate::layout::text::{chars_in, cut, ADVANCE, MONOSPACE};

/// At most this many parts are drawn; the smaller ones are folded into one
/// `other` part ([`SizeReport::top`]).
///
/// ```
/// assert_eq!(pte_report::treemap::MAX_PARTS, 400);
/// ```
pub const MAX_PARTS: usize = 400;

const WIDTH: f64 = 960.0;
const HEIGHT: f64 = 480.0;
/// Font size of the labels (the page's style sheet says the same).
const FONT_SIZE: f64 = 11.0;
/// Room between a label and its rectangle's sides.
const PAD: f64 = 3.0;

/// A rectangle: top-left corner and size.
///
/// ```
/// let r = pte_report::treemap::Rect { x: 0.0, y: 0.0, w: 2.0, h: 3.0 };
/// assert_eq!(r.w * r.h, 6.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
}

/// The worst aspect ratio of a row of areas `row` laid along a side of length `side`.
fn worst(sum: f64, min: f64, max: f64, side: f64) -> f64 {
    if sum <= 0.0 || min <= 0.0 || side <= 0.0 {
        return f64::INFINITY;
    }
    let (s2, w2) = (sum * sum, side * side);
    (w2 * max / s2).max(s2 / (w2 * min))
}

/// Lays the row `areas` along the shorter side of `free`, returns their
/// rectangles and shrinks `free` by the strip they take.
fn lay_row(areas: &[f64], free: &mut Rect, out: &mut Vec<Rect>) {
    let sum: f64 = areas.iter().sum();
    if sum <= 0.0 {
        out.extend(areas.iter().map(|_| Rect { x: free.x, y: free.y, w: 0.0, h: 0.0 }));
        return;
    }
    if free.w >= free.h {
        // a column on the left
        let w = if free.h > 0.0 { sum / free.h } else { 0.0 };
        let mut y = free.y;
        for a in areas {
            let h = if w > 0.0 { a / w } else { 0.0 };
            out.push(Rect { x: free.x, y, w, h });
            y += h;
        }
        free.x += w;
        free.w = (free.w - w).max(0.0);
    } else {
        // a row at the top
        let h = if free.w > 0.0 { sum / free.w } else { 0.0 };
        let mut x = free.x;
        for a in areas {
            let w = if h > 0.0 { a / h } else { 0.0 };
            out.push(Rect { x, y: free.y, w, h });
            x += w;
        }
        free.y += h;
        free.h = (free.h - h).max(0.0);
    }
}

/// Squarified rectangles for `values` (largest first gives the squarest
/// layout) filling `area`, one per value in the same order; their areas are
/// proportional to the values.
///
/// ```
/// use pte_report::treemap::{squarify, Rect};
/// let r = squarify(&[6.0, 6.0, 4.0, 3.0, 2.0, 2.0, 1.0], Rect { x: 0.0, y: 0.0, w: 6.0, h: 4.0 });
/// assert_eq!(r.len(), 7);
/// assert!((r[0].w * r[0].h - 6.0).abs() < 1e-9);
/// let total: f64 = r.iter().map(|r| r.w * r.h).sum();
/// assert!((total - 24.0).abs() < 1e-9);
/// ```
pub fn squarify(values: &[f64], area: Rect) -> Vec<Rect> {
    let total: f64 = values.iter().filter(|v| **v > 0.0).sum();
    let mut out = Vec::with_capacity(values.len());
    if total <= 0.0 {
        out.extend(values.iter().map(|_| Rect { x: area.x, y: area.y, w: 0.0, h: 0.0 }));
        return out;
    }
    let scale = area.w * area.h / total;
    let areas: Vec<f64> = values.iter().map(|v| v.max(0.0) * scale).collect();
    let mut free = area;
    let mut start = 0usize;
    let (mut sum, mut min, mut max) = (0.0f64, f64::INFINITY, 0.0f64);
    for (i, &a) in areas.iter().enumerate() {
        let side = free.w.min(free.h);
        let row_empty = i == start;
        if row_empty || worst(sum + a, min.min(a), max.max(a), side) <= worst(sum, min, max, side) {
            sum += a;
            min = min.min(a);
            max = max.max(a);
            continue;
        }
        lay_row(areas.get(start..i).unwrap_or(&[]), &mut free, &mut out);
        start = i;
        (sum, min, max) = (a, a, a);
    }
    lay_row(areas.get(start..).unwrap_or(&[]), &mut free, &mut out);
    out
}

/// The fill of a part's kind: light tints, so that dark text reads on all
/// of them (contrast above 7:1 with `#1a1a1a`).
fn fill(kind: &str) -> &'static str {
    match kind {
        "header" | "ptd_header" | "zip_header" | "safetensors_header" => "#d9d9f3",
        "program" | "ptd_tables" | "bundle" | "zip_directory" => "#cfe3f7",
        "padding" => "#eeeeee",
        "segment" | "zip_member" => "#e4e4d0",
        "constant" | "tensor" => "#d4efd4",
        "mutable" => "#f7e3c6",
        "named_data" => "#e9d8f0",
        "delegate" => "#f7d4d4",
        "xnnpack_constant" => "#f3e0cc",
        "test_data" => "#d7efec",
        _ => "#e6e6e6",
    }
}

/// The treemap of `report` as one `<svg role="img">`, titled `title`;
/// `id_prefix` comes before the ids of its clip paths, so that several
/// treemaps can share one page.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
/// let r = pte_analysis::size::pte_size_report(&bytes)?;
/// let svg = pte_report::treemap::svg(&r, "sizes of linear", "t0-");
/// assert!(svg.starts_with("<svg") && svg.contains("<title>sizes of linear</title>"));
/// assert_eq!(svg.matches("class=\"part\"").count(), r.parts.len());
/// assert!(svg.contains(r#"<clipPath id="t0-c0">"#) && svg.contains(r#"clip-path="url(#t0-c0)""#));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn svg(report: &SizeReport, title: &str, id_prefix: &str) -> String {
    let folded;
    let report = if report.parts.len() > MAX_PARTS {
        folded = report.clone().top(MAX_PARTS.saturating_sub(1));
        &folded
    } else {
        report
    };
    let total = report.total();
    // kinds by bytes (largest first), parts in each by bytes
    let mut kinds: BTreeMap<&str, (u64, Vec<usize>)> = BTreeMap::new();
    for (i, p) in report.parts.iter().enumerate() {
        let e = kinds.entry(p.kind).or_default();
        e.0 = e.0.saturating_add(p.bytes);
        e.1.push(i);
    }
    let mut kinds: Vec<(&str, u64, Vec<usize>)> = kinds.into_iter().map(|(k, (b, v))| (k, b, v)).collect();
    kinds.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    let mut s = format!(
        "<svg class=\"treemap\" role=\"img\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
         font-family=\"{MONOSPACE}\" font-size=\"{FONT_SIZE}\"><title>{}</title>",
        escape(title)
    );
    let prefix = escape(id_prefix);
    let outer = Rect { x: 0.0, y: 0.0, w: WIDTH, h: HEIGHT };
    let kind_rects = squarify(&kinds.iter().map(|k| k.1 as f64).collect::<Vec<_>>(), outer);
    for ((kind, bytes, parts), kr) in kinds.iter().zip(kind_rects) {
        let _ = write!(
            s,
            "<g class=\"kind\"><title>{}: {} bytes ({})</title>",
            escape(kind),
            thousands(*bytes),
            Share { part: *bytes, whole: total }
        );
        let mut parts = parts.clone();
        parts.sort_by(|&a, &b| {
            let (pa, pb) = (report.parts.get(a), report.parts.get(b));
            pb.map(|p| p.bytes).cmp(&pa.map(|p| p.bytes)).then(a.cmp(&b))
        });
        let values: Vec<f64> = parts.iter().filter_map(|&i| report.parts.get(i)).map(|p| p.bytes as f64).collect();
        for (&i, r) in parts.iter().zip(squarify(&values, kr)) {
            let Some(p) = report.parts.get(i) else { continue };
            let name = p.name.to_string();
            let _ = write!(
                s,
                "<g class=\"part\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/><title>{} ({}): {} bytes, {}</title>",
                Coord(r.x),
                Coord(r.y),
                Coord(r.w),
                Coord(r.h),
                fill(p.kind),
                escape(&name),
                escape(p.kind),
                thousands(p.bytes),
                Share { part: p.bytes, whole: total }
            );
            let room = chars_in(r.w - 2.0 * PAD, FONT_SIZE * ADVANCE);
            if r.h >= 14.0 && room >= 3 {
                let (x, y) = (Coord(r.x), Coord(r.y));
                let _ = write!(
                    s,
                    "<clipPath id=\"{prefix}c{i}\"><rect x=\"{x}\" y=\"{y}\" width=\"{}\" height=\"{}\"/></clipPath>\
                     <g clip-path=\"url(#{prefix}c{i})\"><text x=\"{}\" y=\"{}\">{}</text>",
                    Coord(r.w),
                    Coord(r.h),
                    Coord(r.x + PAD),
                    Coord(r.y + 11.0),
                    escape(&cut(&name, room))
                );
                if r.h >= 26.0 {
                    let b = cut(&format!("{} B", thousands(p.bytes)), room);
                    let _ =
                        write!(s, "<text x=\"{}\" y=\"{}\">{}</text>", Coord(r.x + PAD), Coord(r.y + 23.0), escape(&b));
                }
                s.push_str("</g>");
            }
            s.push_str("</g>");
        }
        s.push_str("</g>");
    }
    s.push_str("</svg>");
    s
}

/// The legend of the kinds `svg` colours, as HTML.
///
/// ```
/// assert!(pte_report::treemap::legend(&["constant"]).contains("constant"));
/// ```
pub fn legend(kinds: &[&str]) -> String {
    let mut s = String::from("<ul class=\"legend\">");
    for k in kinds {
        let _ = write!(s, "<li><span class=\"swatch\" style=\"background:{}\"></span>{}</li>", fill(k), escape(k));
    }
    s.push_str("</ul>");
    s
}
