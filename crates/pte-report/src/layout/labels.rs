//! Where the edges' labels go: beside their line, never over it, and where
//! they meet no box, no line and no label placed before them when such a
//! place is near the line. The layout leaves no room for labels (as
//! Graphviz's would), so each is tried at a few points along its line, on
//! either side, and the first free place is taken; when none is free, the
//! place that costs least: a line crossing a label costs little (the
//! label's halo hides it), a box or another label under it much more, and
//! a place outside the drawing on the left, top or bottom most. The drawing
//! grows to the right for labels that need it. Only graphs with few edges have labels drawn
//! (`SvgOptions::edge_labels_up_to`), so trying every box and segment for
//! each place stays cheap.

use super::text::ADVANCE;
use super::Layout;
use crate::graph::Graph;

/// Font size of edge labels, in SVG units.
pub(crate) const FONT_SIZE: f64 = 10.0;
/// Half the height a label keeps clear: its text spans about 9 units
/// (from the top of `[` to its bottom) around its middle, and a unit of its
/// halo is kept on each side.
const HALF: f64 = FONT_SIZE / 2.0 + 1.0;
/// Room between a label and its line.
const GAP: f64 = 3.0;
/// The shares of a line's length at which its label is tried, best first.
const ALONG: [f64; 7] = [0.5, 0.35, 0.65, 0.2, 0.8, 0.1, 0.9];
/// What a place costs per line crossing it, box or label under it, and
/// for being outside the drawing.
const COST_LINE: usize = 1;
const COST_COVER: usize = 8;
const COST_OUTSIDE: usize = 1000;

/// Where an edge's label is written: `(x, y)` is the middle of the text's
/// left end, right end or centre, as `anchor` (SVG's `text-anchor`) says.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct LabelAt {
    pub(crate) x: f64,
    pub(crate) y: f64,
    pub(crate) anchor: &'static str,
}

/// A rectangle: left, right, top, bottom.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Area {
    x0: f64,
    x1: f64,
    y0: f64,
    y1: f64,
}

impl Area {
    fn meets(&self, other: &Area) -> bool {
        self.x0 < other.x1 && other.x0 < self.x1 && self.y0 < other.y1 && other.y0 < self.y1
    }

    /// Whether the segment `a`-`b` passes through the rectangle (Liang and
    /// Barsky's clipping: what is left of the segment once clipped to each
    /// side in turn).
    fn crossed_by(&self, a: (f64, f64), b: (f64, f64)) -> bool {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let (mut t0, mut t1) = (0.0f64, 1.0f64);
        for (p, q) in [(-dx, a.0 - self.x0), (dx, self.x1 - a.0), (-dy, a.1 - self.y0), (dy, self.y1 - a.1)] {
            if p == 0.0 {
                if q <= 0.0 {
                    return false;
                }
                continue;
            }
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
            if t0 >= t1 {
                return false;
            }
        }
        true
    }
}

/// The area a label of `chars` characters takes at `at`.
fn area(at: LabelAt, chars: usize) -> Area {
    let width = chars as f64 * FONT_SIZE * ADVANCE;
    let x0 = match at.anchor {
        "start" => at.x,
        "end" => at.x - width,
        _ => at.x - width / 2.0,
    };
    Area { x0, x1: x0 + width, y0: at.y - HALF, y1: at.y + HALF }
}

/// The point `share` of the way along `line`, and the direction of the
/// segment it is on (zero for a line of no length).
pub(crate) fn along(line: &[(f64, f64)], share: f64) -> ((f64, f64), (f64, f64)) {
    let segments = || line.iter().zip(line.iter().skip(1));
    let length = |(a, b): (&(f64, f64), &(f64, f64))| (b.0 - a.0).hypot(b.1 - a.1);
    let mut left = segments().map(length).sum::<f64>() * share;
    for (a, b) in segments() {
        let l = length((a, b));
        if l >= left && l > 0.0 {
            let t = left / l;
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            return ((a.0 + dx * t, a.1 + dy * t), (dx, dy));
        }
        left -= l;
    }
    (line.first().copied().unwrap_or((0.0, 0.0)), (0.0, 0.0))
}

/// The two places beside the line through `p` in direction `(dx, dy)`
/// where the line passes clear of the label: right then left of a mostly
/// vertical line, past where it runs over the label's height; above then
/// below a mostly horizontal one, on the side where it falls away.
pub(crate) fn beside(p: (f64, f64), (dx, dy): (f64, f64)) -> [LabelAt; 2] {
    let (x, y) = p;
    if dy.abs() >= dx.abs() {
        let lean = if dy == 0.0 { 0.0 } else { (dx / dy).abs() };
        let off = GAP + HALF * lean;
        return [LabelAt { x: x + off, y, anchor: "start" }, LabelAt { x: x - off, y, anchor: "end" }];
    }
    // y grows downwards: a line falling to the right leaves the upper right
    // and the lower left free
    let (up, down) = match (dx * dy).partial_cmp(&0.0) {
        Some(std::cmp::Ordering::Greater) => ("start", "end"),
        Some(std::cmp::Ordering::Less) => ("end", "start"),
        _ => ("middle", "middle"),
    };
    [LabelAt { x, y: y - HALF - GAP, anchor: up }, LabelAt { x, y: y + HALF + GAP, anchor: down }]
}

/// A place for the label of every edge with a label and a line of two
/// points or more (`None` for the others), in the graph's edge order, and
/// the width the drawing needs to hold them.
pub(crate) fn place(graph: &Graph, layout: &Layout) -> (Vec<Option<LabelAt>>, f64) {
    let boxes: Vec<Area> =
        layout.nodes.iter().map(|b| Area { x0: b.x, x1: b.x + b.width, y0: b.y, y1: b.y + b.height }).collect();
    let segments: Vec<((f64, f64), (f64, f64))> =
        layout.edges.iter().flat_map(|line| line.iter().copied().zip(line.iter().copied().skip(1))).collect();
    let mut placed: Vec<Area> = Vec::new();
    let mut width = layout.width;
    let mut out = Vec::with_capacity(graph.edges.len());
    for (edge, line) in graph.edges.iter().zip(&layout.edges) {
        if edge.label.is_empty() || line.len() < 2 {
            out.push(None);
            continue;
        }
        let chars = edge.label.chars().count();
        let candidates: Vec<(LabelAt, Area)> = ALONG
            .iter()
            .flat_map(|&share| {
                let (p, d) = along(line, share);
                beside(p, d)
            })
            .map(|at| (at, area(at, chars)))
            .collect();
        // only what lies where the candidates are is tried against them, so
        // a drawing of many boxes costs no more per label than a small one
        let reach = candidates.iter().fold(
            Area { x0: f64::INFINITY, x1: f64::NEG_INFINITY, y0: f64::INFINITY, y1: f64::NEG_INFINITY },
            |r, (_, a)| Area { x0: r.x0.min(a.x0), x1: r.x1.max(a.x1), y0: r.y0.min(a.y0), y1: r.y1.max(a.y1) },
        );
        let near: Vec<Area> = boxes.iter().chain(&placed).filter(|b| b.meets(&reach)).copied().collect();
        let near_segments: Vec<_> = segments
            .iter()
            .filter(|(p, q)| {
                let span = Area { x0: p.0.min(q.0), x1: p.0.max(q.0), y0: p.1.min(q.1), y1: p.1.max(q.1) };
                span.x0 <= reach.x1 && reach.x0 <= span.x1 && span.y0 <= reach.y1 && reach.y0 <= span.y1
            })
            .collect();
        let cost = |a: &Area| {
            let outside = a.x0 < 0.0 || a.y0 < 0.0 || a.y1 > layout.height;
            let covered = near.iter().filter(|b| b.meets(a)).count();
            let crossed = near_segments.iter().filter(|(p, q)| a.crossed_by(*p, *q)).count();
            usize::from(outside)
                .saturating_mul(COST_OUTSIDE)
                .saturating_add(covered.saturating_mul(COST_COVER))
                .saturating_add(crossed.saturating_mul(COST_LINE))
        };
        let mut best: Option<(usize, LabelAt, Area)> = None;
        for (at, a) in candidates {
            let n = cost(&a);
            if best.as_ref().is_none_or(|b| n < b.0) {
                best = Some((n, at, a));
            }
            if n == 0 {
                break;
            }
        }
        match best {
            Some((_, at, a)) => {
                width = width.max(a.x1 + GAP);
                placed.push(a);
                out.push(Some(at));
            }
            None => out.push(None),
        }
    }
    (out, width)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_along_the_line() {
        assert_eq!(along(&[(0.0, 0.0), (0.0, 10.0), (10.0, 10.0)], 0.5), ((0.0, 10.0), (0.0, 10.0)));
        assert_eq!(along(&[(0.0, 0.0), (0.0, 10.0), (0.0, 30.0)], 0.5), ((0.0, 15.0), (0.0, 20.0)));
        assert_eq!(along(&[(0.0, 0.0), (0.0, 40.0)], 0.25), ((0.0, 10.0), (0.0, 40.0)));
        assert_eq!(along(&[(1.0, 2.0), (1.0, 2.0)], 0.5), ((1.0, 2.0), (0.0, 0.0)));
        assert_eq!(along(&[], 0.5), ((0.0, 0.0), (0.0, 0.0)));
    }

    /// Both places beside a line leave the line clear of the label.
    #[test]
    fn beside_the_line_not_on_it() {
        for line in [
            [(10.0, 0.0), (10.0, 40.0)],
            [(0.0, 0.0), (20.0, 40.0)],
            [(20.0, 0.0), (0.0, 40.0)],
            [(0.0, 10.0), (40.0, 0.0)],
            [(0.0, 0.0), (40.0, 10.0)],
            [(0.0, 5.0), (40.0, 5.0)],
        ] {
            let (p, d) = along(&line, 0.5);
            for at in beside(p, d) {
                let a = area(at, 14);
                assert!(!a.crossed_by(line[0], line[1]), "{line:?}: {at:?} {a:?}");
            }
        }
        assert_eq!(beside((10.0, 20.0), (0.0, 40.0))[0], LabelAt { x: 13.0, y: 20.0, anchor: "start" });
    }

    #[test]
    fn segments_through_rectangles() {
        let a = Area { x0: 0.0, x1: 10.0, y0: 0.0, y1: 10.0 };
        assert!(a.crossed_by((-5.0, 5.0), (15.0, 5.0)));
        assert!(a.crossed_by((5.0, 5.0), (6.0, 6.0)));
        assert!(!a.crossed_by((-5.0, -1.0), (15.0, -1.0)));
        assert!(!a.crossed_by((11.0, -5.0), (11.0, 15.0)));
        assert!(!a.crossed_by((-5.0, 0.0), (0.0, -5.0)));
        assert!(a.crossed_by((-5.0, 6.0), (6.0, -5.0)));
    }

    /// Two edges into one box from the same side: their labels do not
    /// overlap each other, nor any box.
    #[test]
    fn labels_avoid_each_other_and_the_boxes() {
        use crate::graph::{Edge, Node, NodeKind};
        let node = |id: &str, kind| Node { id: id.into(), label: id.into(), kind };
        let g = Graph {
            name: "m".into(),
            nodes: vec![node("a", NodeKind::Input), node("b", NodeKind::Input), node("op", NodeKind::Operator)],
            edges: vec![
                Edge { from: 0, to: 2, label: "float32 [5, 6]".into() },
                Edge { from: 1, to: 2, label: "float32 [2]".into() },
            ],
        };
        let l = super::super::layout(&g);
        let (at, width) = place(&g, &l);
        let areas: Vec<Area> =
            at.iter().zip(&g.edges).map(|(p, e)| area(p.unwrap(), e.label.chars().count())).collect();
        assert!(!areas[0].meets(&areas[1]), "{areas:?}");
        for b in &l.nodes {
            let b = Area { x0: b.x, x1: b.x + b.width, y0: b.y, y1: b.y + b.height };
            assert!(areas.iter().all(|a| !a.meets(&b)), "{areas:?} {b:?}");
        }
        assert!(areas.iter().all(|a| a.x1 <= width && a.x0 >= 0.0));
    }
}
