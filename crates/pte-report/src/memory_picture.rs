//! A method's memory plan as a picture, one per planned buffer: the
//! instruction index runs along x, the offset in the buffer down y, and
//! each planned tensor is a rectangle spanning its lifetime and its bytes,
//! so a gap is memory the plan leaves idle and two rectangles crossing are
//! an overlap (drawn in red, as `pte memory` lists them).

use std::collections::BTreeSet;
use std::fmt::Write as _;

use pte_analysis::memory::{Arena, MethodMemory, PlannedTensor};

use crate::html::{escape, thousands, Coord};

/// At most this many tensors are drawn per buffer; the page says how many
/// more there are.
///
/// ```
/// assert_eq!(pte_report::memory_picture::MAX_TENSORS, 20_000);
/// ```
pub const MAX_TENSORS: usize = 20_000;

const WIDTH: f64 = 900.0;
const HEIGHT: f64 = 320.0;
const LEFT: f64 = 70.0;
const TOP: f64 = 8.0;
const BOTTOM: f64 = 28.0;

fn role(t: &PlannedTensor) -> &'static str {
    match t.role {
        pte_analysis::memory::Role::Input => "input",
        pte_analysis::memory::Role::Output => "output",
        pte_analysis::memory::Role::InputOutput => "input+output",
        pte_analysis::memory::Role::State => "state",
        pte_analysis::memory::Role::Intermediate => "intermediate",
    }
}

/// The picture of buffer `arena` of method `m` as an `<svg role="img">`;
/// tensors without a lifetime (named by no instruction) are not drawn.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("mutable_plain/model.pte"))?;
/// let plan = pte_analysis::memory::MemoryPlan::from_bytes(&bytes, &Default::default())?;
/// let m = &plan.methods[0];
/// let svg = pte_report::memory_picture::svg(m, &m.arenas[0]);
/// assert!(svg.contains("role=\"img\""));
/// assert!(svg.matches("class=\"tensor").count() >= 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn svg(m: &MethodMemory, arena: &Arena) -> String {
    let overlapping: BTreeSet<usize> =
        m.overlaps.iter().filter(|o| o.arena == arena.id).flat_map(|o| o.values).collect();
    let steps = m.instructions.max(1) as f64;
    let size = arena.size.max(arena.high_water).max(1) as f64;
    let (pw, ph) = (WIDTH - LEFT - 8.0, HEIGHT - TOP - BOTTOM);
    let x = |i: u64| LEFT + i as f64 / steps * pw;
    let y = |o: u64| TOP + o as f64 / size * ph;
    let name = m.name.as_deref().unwrap_or("");
    let mut s = String::with_capacity(m.tensors.len().min(MAX_TENSORS).saturating_mul(200).saturating_add(1024));
    let _ = write!(
        s,
        "<svg class=\"memory\" role=\"img\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" width=\"{WIDTH}\" height=\"{HEIGHT}\"><title>Memory plan of {} buffer {}: {} bytes, {} tensors over {} instructions</title>",
        escape(name),
        arena.id,
        thousands(arena.size),
        thousands(arena.tensors),
        thousands(m.instructions)
    );
    let _ = write!(
        s,
        "<rect class=\"plot\" x=\"{LEFT}\" y=\"{TOP}\" width=\"{pw:.1}\" height=\"{ph:.1}\"/>\
         <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">0</text>\
         <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\
         <text x=\"{LEFT}\" y=\"{:.1}\">instruction 0</text>\
         <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
        LEFT - 4.0,
        TOP + 10.0,
        LEFT - 4.0,
        TOP + ph,
        escape(&thousands(arena.size)),
        HEIGHT - 8.0,
        WIDTH - 8.0,
        HEIGHT - 8.0,
        thousands(m.instructions)
    );
    let placed = m.tensors.iter().filter(|t| t.arena == arena.id);
    for t in placed.filter(|t| t.lifetime.is_some()).take(MAX_TENSORS) {
        let Some([first, last]) = t.lifetime else { continue };
        let (x0, x1) = (x(first), x(last.saturating_add(1)));
        let (y0, y1) = (y(t.offset), y(t.offset.saturating_add(t.size)));
        let class = if overlapping.contains(&t.value) { "tensor overlap" } else { "tensor" };
        let label = t.name.as_deref().map(|n| format!(" {n:?}")).unwrap_or_default();
        let dims = t.sizes.iter().map(|&d| if t.dynamic { format!("<={d}") } else { d.to_string() });
        let _ = write!(
            s,
            "<rect class=\"{class}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"><title>value {}{} ({}): {} {}, bytes {}..{}, instructions {first}..={last}</title></rect>",
            Coord(x0),
            Coord(y0),
            Coord((x1 - x0).max(0.5)),
            Coord((y1 - y0).max(0.5)),
            t.value,
            escape(&label),
            role(t),
            escape(&pte_core::style::dtype(&t.dtype)),
            escape(&pte_core::style::shape(dims)),
            t.offset,
            t.offset.saturating_add(t.size),
        );
    }
    s.push_str("</svg>");
    s
}
