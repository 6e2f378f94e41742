//! The sizes part: every byte of the file attributed once
//! (`pte::size`), as a treemap and as tables
//! by kind and of the largest parts. A file of more than [`MAX_PARTS`]
//! parts, as counted from its tables before anything is attributed, is
//! not broken down here: the breakdown holds every part at once, and
//! `pte size` lists them.

use std::fmt::Write as _;

use pte_analysis::size::{By, SizeReport};
use pte_core::style::Share;

use super::context::{open, Ctx};
use crate::html::{counted, escape, head_row, row, thousands};

/// Rows of the largest-parts table.
const TOP_ROWS: usize = 50;
/// Files counted to have more parts than this are not broken down.
pub const MAX_PARTS: u64 = 50_000;

/// The parts a program has at least, counted from its tables: its
/// segments, constants, mutable buffers, named data and delegates.
pub(super) fn program_parts(pte: &pte_file::view::PteView<'_>) -> u64 {
    let p = pte.program();
    let delegates: usize =
        (0..p.plan_count()).filter_map(|i| p.plan(i)).map(|plan| plan.delegates().map_or(0, |d| d.len())).sum();
    let mutable: usize = pte.mutable_segments().iter().flatten().map(|m| m.len()).sum();
    [
        p.segment_count(),
        pte.constants().map_or(0, |c| c.len()),
        mutable,
        p.named_data_count(),
        delegates,
        p.constant_buffer().map_or(0, |c| c.len()),
    ]
    .iter()
    .fold(0u64, |t, &n| t.saturating_add(n as u64))
}

/// The part for the file (of the section's kind) counted to have at least
/// `parts` parts.
pub(super) fn section(cx: &mut Ctx, bytes: &[u8], parts: u64) -> String {
    let mut s = open(cx, "sizes", "Sizes");
    if parts > MAX_PARTS {
        let _ = writeln!(
            s,
            "<p>{} bytes in at least {}: too many to break down on this page (at most {}); <code>pte size</code> lists them.</p></section>",
            thousands(bytes.len() as u64),
            counted(parts, "part"),
            thousands(MAX_PARTS)
        );
        return s;
    }
    match pte::size(cx.kind, bytes) {
        Ok(r) => s.push_str(&body(cx, &r)),
        Err(e) => s.push_str(&cx.fail("the size breakdown", e)),
    }
    s.push_str("</section>\n");
    s
}

fn body(cx: &Ctx, r: &SizeReport) -> String {
    let total = r.file_size;
    let mut s = format!(
        "<p>{} bytes in {}; each byte is counted once. Hover a rectangle for its name and size.</p>",
        thousands(total),
        counted(r.parts.len() as u64, "part")
    );
    let by_kind = r.clone().grouped(By::Kind);
    let kinds: Vec<&str> = by_kind.parts.iter().map(|p| p.kind).collect();
    let _ = write!(
        s,
        "<figure class=\"treemap\" id=\"treemap-{}\">{}{}<figcaption>Treemap of the parts, grouped by kind{}.</figcaption></figure>",
        cx.k,
        crate::treemap::svg(r, "Where the bytes go", &format!("treemap-{}-", cx.k)),
        crate::treemap::legend(&kinds),
        if r.parts.len() > crate::treemap::MAX_PARTS {
            format!("; the smallest parts are drawn as one \"other\" part ({} parts in all)", thousands(r.parts.len() as u64))
        } else {
            String::new()
        }
    );
    s.push_str("<div class=\"scroll\"><table class=\"sizes\"><caption>By kind</caption>");
    s.push_str(&head_row(&["kind", "parts", "bytes", "share"]));
    for p in &by_kind.parts {
        s.push_str(&row(
            None,
            &[
                p.kind.to_string(),
                thousands(p.count.unwrap_or(1)),
                thousands(p.bytes),
                Share { part: p.bytes, whole: total }.to_string(),
            ],
        ));
    }
    s.push_str("</table></div>");
    let top = r.clone().top(TOP_ROWS);
    let _ = write!(
        s,
        "<details><summary>The {} largest parts</summary><div class=\"scroll\"><table class=\"sizes\">",
        top.parts.len().min(TOP_ROWS)
    );
    s.push_str(&head_row(&["name", "kind", "offset", "bytes", "share"]));
    for p in &top.parts {
        let name =
            if p.shared_with.is_empty() { p.name.to_string() } else { format!("{} (also {})", p.name, p.shared_with) };
        s.push_str(&row(
            None,
            &[
                name,
                p.kind.to_string(),
                p.offset.map_or_else(|| "-".into(), thousands),
                thousands(p.bytes),
                Share { part: p.bytes, whole: total }.to_string(),
            ],
        ));
    }
    s.push_str("</table></div></details>");
    if !r.notes.is_empty() {
        s.push_str("<ul class=\"notes\">");
        for n in &r.notes {
            let _ = write!(s, "<li>{}</li>", escape(n));
        }
        s.push_str("</ul>");
    }
    s
}
