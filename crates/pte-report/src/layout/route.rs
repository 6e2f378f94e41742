//! Polylines. An edge leaves its upper box through a port on the bottom
//! side and enters the lower one through a port on the top side; ports are
//! spread along the side in the order of where the edges go, so edges from
//! one box do not cross at it. Through each dummy layer an edge runs
//! vertically, so it never cuts a box in that layer.

use super::acyclic::Route;
use super::chains::Path;
use super::Placed;

/// Where the vertices are.
pub(crate) struct Geometry<'a> {
    /// The nodes' boxes.
    pub boxes: &'a [Placed],
    /// The centre of every vertex, nodes then dummies.
    pub x: &'a [f64],
    /// The layer of every vertex.
    pub layer: &'a [usize],
    /// Top of the boxes of layer 0.
    pub top: f64,
    /// Height of a box.
    pub height: f64,
    /// Distance from one layer's top to the next one's.
    pub pitch: f64,
    /// How far a self-loop reaches right of its box.
    pub loop_width: f64,
}

impl Geometry<'_> {
    fn band(&self, v: usize) -> (f64, f64) {
        let top = self.top + self.layer.get(v).copied().unwrap_or(0) as f64 * self.pitch;
        (top, top + self.height)
    }

    fn centre(&self, v: usize) -> f64 {
        self.x.get(v).copied().unwrap_or(0.0)
    }
}

/// One polyline per route, from the producer's box to the consumer's.
pub(crate) fn polylines(routes: &[Route], paths: &[Option<Path>], g: &Geometry) -> Vec<Vec<(f64, f64)>> {
    let ends = |k: usize| match (routes.get(k), paths.get(k)) {
        (Some(Route::Link(l)), Some(Some(p))) => {
            let (next, previous) = match *p {
                Path::Through { first, count } if count > 0 => (first, first.saturating_add(count).saturating_sub(1)),
                _ => (l.bottom, l.top),
            };
            Some((*l, next, previous))
        }
        _ => None,
    };
    // (node, where the edge goes, which port, edge) for each end.
    let mut outs = Vec::new();
    let mut ins = Vec::new();
    for k in 0..routes.len() {
        if let Some((l, next, previous)) = ends(k) {
            // Edges entering one trunk share its port; others get their own.
            let share = |v: usize, node: usize| if v == node { (1, k) } else { (0, v) };
            outs.push((l.top, g.centre(next), share(next, l.bottom), k));
            ins.push((l.bottom, g.centre(previous), share(previous, l.top), k));
        }
    }
    let out_x = ports(&mut outs, g.boxes, routes.len());
    let in_x = ports(&mut ins, g.boxes, routes.len());

    let mut lines = Vec::with_capacity(routes.len());
    for (k, route) in routes.iter().enumerate() {
        let line = match (route, ends(k)) {
            (Route::Loop(v), _) => match g.boxes.get(*v) {
                Some(b) => {
                    let right = b.x + b.width;
                    let (y0, y1) = (b.y + 0.3 * b.height, b.y + 0.7 * b.height);
                    vec![(right, y0), (right + g.loop_width, y0), (right + g.loop_width, y1), (right, y1)]
                }
                None => Vec::new(),
            },
            (Route::Link(l), Some(_)) => {
                let (Some(top), Some(bottom)) = (g.boxes.get(l.top), g.boxes.get(l.bottom)) else {
                    lines.push(Vec::new());
                    continue;
                };
                let mut line = vec![(out_x.get(k).copied().unwrap_or(top.x), top.y + top.height)];
                if let Some(Some(Path::Through { first, count })) = paths.get(k) {
                    for d in (0..*count).map(|j| first.saturating_add(j)) {
                        let (y0, y1) = g.band(d);
                        line.push((g.centre(d), y0));
                        line.push((g.centre(d), y1));
                    }
                }
                line.push((in_x.get(k).copied().unwrap_or(bottom.x), bottom.y));
                if l.reversed {
                    line.reverse();
                }
                straighten(line)
            }
            _ => Vec::new(),
        };
        lines.push(line);
    }
    lines
}

/// `line` without the bends that do not bend: a long edge through many
/// aligned dummies keeps only its corners, which keeps the drawing of edges
/// sharing one trunk from growing with the trunk's length times their number.
fn straighten(line: Vec<(f64, f64)>) -> Vec<(f64, f64)> {
    // Far below the 0.1 unit the SVG prints.
    const TOLERANCE: f64 = 0.01;
    let mut out: Vec<(f64, f64)> = Vec::with_capacity(line.len());
    for p in line {
        if let [.., a, b] = out.as_slice() {
            let (dx, dy) = (p.0 - a.0, p.1 - a.1);
            let length = dx.hypot(dy);
            let off = ((b.0 - a.0) * dy - (b.1 - a.1) * dx).abs();
            let between = (b.0 - a.0) * dx + (b.1 - a.1) * dy >= 0.0 && (p.0 - b.0) * dx + (p.1 - b.1) * dy >= 0.0;
            if between && off <= TOLERANCE * length {
                out.pop();
            }
        }
        out.push(p);
    }
    out
}

/// The x of each edge's port: the ends of one box sorted by where they go,
/// each distinct port at an even share of the box's width.
fn ports(ends: &mut [(usize, f64, (u8, usize), usize)], boxes: &[Placed], edges: usize) -> Vec<f64> {
    ends.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a.2.cmp(&b.2)).then(a.3.cmp(&b.3)));
    let mut x = vec![0.0; edges];
    for group in ends.chunk_by(|a, b| a.0 == b.0) {
        let Some(b) = group.first().and_then(|e| boxes.get(e.0)) else { continue };
        let distinct = group.chunk_by(|p, q| p.2 == q.2).count();
        let step = b.width / (distinct as f64 + 1.0);
        for (slot, port) in group.chunk_by(|p, q| p.2 == q.2).enumerate() {
            for e in port {
                if let Some(xe) = x.get_mut(e.3) {
                    *xe = b.x + step * (slot as f64 + 1.0);
                }
            }
        }
    }
    x
}

#[cfg(test)]
mod tests {
    use super::straighten;

    #[test]
    fn aligned_bends_go() {
        let line = vec![(0.0, 0.0), (0.0, 10.0), (0.001, 20.0), (0.0, 30.0), (5.0, 40.0), (10.0, 50.0), (10.0, 40.0)];
        assert_eq!(straighten(line), vec![(0.0, 0.0), (0.0, 30.0), (10.0, 50.0), (10.0, 40.0)]);
        assert_eq!(straighten(vec![(1.0, 1.0), (1.0, 1.0)]), vec![(1.0, 1.0), (1.0, 1.0)]);
    }
}
