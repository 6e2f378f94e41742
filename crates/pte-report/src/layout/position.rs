//! Horizontal centres, by Brandes and Köpf: four times (aligning up or
//! down, left or right) each vertex joins the block of a median neighbour in
//! the layer before, blocks move as one, and each is packed against its
//! neighbours; the result for a vertex is the mean of its two middle
//! positions. An edge is aligned only if it is of the best class at both
//! ends (operator to operator or dummy to dummy, then operator to dummy,
//! then edges of constants), so the main flow and long edges run straight and
//! constants sit beside them. Everything is linear in the graph but for
//! sorting a vertex's few neighbours, and nothing drifts with the depth.

use super::csr::Csr;

/// Sizes that decide how close two neighbours in a layer may be.
pub(crate) struct Spacing<'a> {
    /// Width of each vertex (0 for dummies).
    pub width: &'a [f64],
    /// Room a vertex needs on its right beyond its box (its self-loops).
    pub right: &'a [f64],
    /// Vertices below this index are nodes, the others dummies.
    pub nodes: usize,
    /// Nodes that are aligned last (constants), so that the flow they feed
    /// runs straight and they sit beside it.
    pub light: &'a [bool],
    /// Gap between two boxes.
    pub node_gap: f64,
    /// Gap when one side is an edge passing through.
    pub edge_gap: f64,
}

impl Spacing<'_> {
    fn between(&self, left: usize, right: usize) -> f64 {
        let w = |v: usize| self.width.get(v).copied().unwrap_or(0.0);
        let gap = if left < self.nodes && right < self.nodes { self.node_gap } else { self.edge_gap };
        (w(left) + w(right)) / 2.0 + self.right.get(left).copied().unwrap_or(0.0) + gap
    }

    /// How much an edge deserves to be vertical: lower is better.
    fn class(&self, a: usize, b: usize) -> u8 {
        let light = |v: usize| self.light.get(v).copied().unwrap_or(false);
        if light(a) || light(b) {
            2
        } else if (a < self.nodes) == (b < self.nodes) {
            0
        } else {
            1
        }
    }

    fn half(&self, v: usize) -> (f64, f64) {
        let w = self.width.get(v).copied().unwrap_or(0.0) / 2.0;
        (w, w + self.right.get(v).copied().unwrap_or(0.0))
    }
}

/// The centre of every vertex, given the ordered `layers`.
pub(crate) fn place(layers: &[Vec<usize>], spacing: &Spacing, above: &Csr, below: &Csr) -> Vec<f64> {
    let vertices = spacing.width.len();
    // The best class at each vertex, each way; computed once, as a vertex of
    // a wide layer is the neighbour of the whole layer.
    let best_of = |csr: &Csr| -> Vec<Option<u8>> {
        (0..vertices).map(|v| csr.row(v).iter().map(|&u| spacing.class(u, v)).min()).collect()
    };
    let (best_above, best_below) = (best_of(above), best_of(below));
    let mut runs = Vec::with_capacity(4);
    for down in [true, false] {
        for mirrored in [false, true] {
            let (toward, away) = if down {
                ((above, &best_above[..]), &best_below[..])
            } else {
                ((below, &best_below[..]), &best_above[..])
            };
            let mut order: Vec<Vec<usize>> = layers.to_vec();
            if !down {
                order.reverse();
            }
            if mirrored {
                order.iter_mut().for_each(|l| l.reverse());
            }
            runs.push((mirrored, variant(&order, toward, away, spacing, mirrored)));
        }
    }
    // Line the runs up on the narrowest one (left runs by their left side,
    // right runs by their right side), then take the middle two per vertex.
    let extent = |x: &[f64]| {
        x.iter().enumerate().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), (v, &c)| {
            let (l, r) = spacing.half(v);
            (lo.min(c - l), hi.max(c + r))
        })
    };
    let extents: Vec<(f64, f64)> = runs.iter().map(|(_, x)| extent(x)).collect();
    let narrowest = extents.iter().copied().min_by(|a, b| (a.1 - a.0).total_cmp(&(b.1 - b.0)));
    let Some((lo, hi)) = narrowest.filter(|(lo, hi)| lo.is_finite() && hi.is_finite()) else {
        return vec![0.0; vertices];
    };
    for ((mirrored, x), &(l, h)) in runs.iter_mut().zip(&extents) {
        let shift = if *mirrored { hi - h } else { lo - l };
        x.iter_mut().for_each(|c| *c += shift);
    }
    let mut x: Vec<f64> = (0..vertices)
        .map(|v| {
            let mut four = [0.0; 4];
            for (slot, (_, run)) in four.iter_mut().zip(&runs) {
                *slot = run.get(v).copied().unwrap_or(0.0);
            }
            four.sort_by(f64::total_cmp);
            let [_, a, b, _] = four;
            (a + b) / 2.0
        })
        .collect();
    // The mean of middle positions keeps every separation, as each run
    // does; this only guards against a defect ever breaking that.
    let mut offsets = Vec::new();
    let mut want = Vec::new();
    for layer in layers {
        offsets_of(layer, spacing, &mut offsets);
        want.clear();
        want.extend(layer.iter().map(|&v| (x.get(v).copied().unwrap_or(0.0), 1.0)));
        for (&v, xv) in layer.iter().zip(isotonic(&want, &offsets)) {
            set(&mut x, v, xv);
        }
    }
    x
}

/// One run of Brandes and Köpf on `layers` in processing order (each layer
/// left to right as the run sees it): `toward` lists each vertex's
/// neighbours in the layer processed before its own, `away` in the one after.
fn variant(
    layers: &[Vec<usize>],
    toward: (&Csr, &[Option<u8>]),
    away: &[Option<u8>],
    spacing: &Spacing,
    mirrored: bool,
) -> Vec<f64> {
    let (toward, best_toward) = toward;
    let vertices = spacing.width.len();
    let mut pos = vec![0usize; vertices];
    for layer in layers {
        for (i, &v) in layer.iter().enumerate() {
            set(&mut pos, v, i);
        }
    }
    let at = |v: usize| pos.get(v).copied().unwrap_or(0);
    let best = |v: usize, of: &[Option<u8>]| of.get(v).copied().flatten();
    let mut root: Vec<usize> = (0..vertices).collect();
    let mut align: Vec<usize> = (0..vertices).collect();
    let mut candidates = Vec::new();
    for layer in layers.iter().skip(1) {
        let mut taken: Option<usize> = None;
        for &v in layer {
            let Some(class) = best(v, best_toward) else { continue };
            candidates.clear();
            candidates.extend(
                toward.row(v).iter().copied().filter(|&u| spacing.class(u, v) == class && best(u, away) == Some(class)),
            );
            candidates.sort_by_key(|&u| (at(u), u));
            candidates.dedup();
            let d = candidates.len();
            if d == 0 {
                continue;
            }
            let (lo, hi) = (d.saturating_sub(1) / 2, d / 2);
            for m in [Some(lo), (hi != lo).then_some(hi)].into_iter().flatten() {
                if align.get(v) != Some(&v) {
                    break;
                }
                let Some(&u) = candidates.get(m) else { continue };
                if align.get(u) == Some(&u) && taken.is_none_or(|r| r < at(u)) {
                    let r = root.get(u).copied().unwrap_or(u);
                    set(&mut align, u, v);
                    set(&mut root, v, r);
                    set(&mut align, v, r);
                    taken = Some(at(u));
                }
            }
        }
    }
    // Blocks as vertices, ordered left to right by every layer: place each
    // as far left as the blocks before it allow, then close the gaps to the
    // blocks after it.
    let block = |v: usize| root.get(v).copied().unwrap_or(v);
    let mut edges: Vec<(usize, usize, f64)> = Vec::new();
    for layer in layers {
        for (&a, &b) in layer.iter().zip(layer.iter().skip(1)) {
            let gap = if mirrored { spacing.between(b, a) } else { spacing.between(a, b) };
            edges.push((block(a), block(b), gap));
        }
    }
    let out = Csr::new(vertices, &edges.iter().enumerate().map(|(k, e)| (e.0, k)).collect::<Vec<_>>());
    let mut indegree = vec![0usize; vertices];
    for e in &edges {
        if let Some(d) = indegree.get_mut(e.1) {
            *d = d.saturating_add(1);
        }
    }
    let mut topological: Vec<usize> = (0..vertices).filter(|&v| block(v) == v && indegree.get(v) == Some(&0)).collect();
    let mut next = 0;
    while let Some(&b) = topological.get(next) {
        next = next.saturating_add(1);
        for &k in out.row(b) {
            let Some(&(_, c, _)) = edges.get(k) else { continue };
            if let Some(d) = indegree.get_mut(c) {
                *d = d.saturating_sub(1);
                if *d == 0 {
                    topological.push(c);
                }
            }
        }
    }
    let mut xb = vec![0.0f64; vertices];
    for &b in &topological {
        let here = xb.get(b).copied().unwrap_or(0.0);
        for &k in out.row(b) {
            if let Some(&(_, c, gap)) = edges.get(k)
                && let Some(xc) = xb.get_mut(c)
            {
                *xc = (*xc).max(here + gap);
            }
        }
    }
    for &b in topological.iter().rev() {
        let room = out
            .row(b)
            .iter()
            .filter_map(|&k| edges.get(k))
            .map(|&(_, c, gap)| xb.get(c).copied().unwrap_or(0.0) - gap)
            .fold(f64::INFINITY, f64::min);
        if let Some(xv) = xb.get_mut(b)
            && room.is_finite()
        {
            *xv = (*xv).max(room);
        }
    }
    (0..vertices)
        .map(|v| {
            let x = xb.get(block(v)).copied().unwrap_or(0.0);
            if mirrored {
                -x
            } else {
                x
            }
        })
        .collect()
}

/// Moves each chain of dummies, in as few vertical runs as its neighbours
/// allow, to one x: sweeps only bring a long chain towards straight (each
/// pass moves a bend a little), and a straight chain is a few points to draw
/// however many edges share it. Every move keeps the separations with the
/// vertices beside it, so the layers stay apart.
pub(crate) fn straighten(layers: &[Vec<usize>], spacing: &Spacing, trunks: &[(usize, usize)], x: &mut [f64]) {
    // (layer, slot) of every vertex.
    let mut slot = vec![(0usize, 0usize); x.len()];
    for (l, layer) in layers.iter().enumerate() {
        for (i, &v) in layer.iter().enumerate() {
            if let Some(s) = slot.get_mut(v) {
                *s = (l, i);
            }
        }
    }
    let room = |v: usize, x: &[f64]| -> (f64, f64) {
        let (l, i) = slot.get(v).copied().unwrap_or((0, 0));
        let layer = layers.get(l).map_or(&[][..], |l| l.as_slice());
        let at = |u: usize| x.get(u).copied().unwrap_or(0.0);
        let lo =
            i.checked_sub(1).and_then(|j| layer.get(j)).map_or(f64::NEG_INFINITY, |&u| at(u) + spacing.between(u, v));
        let hi = layer.get(i.saturating_add(1)).map_or(f64::INFINITY, |&u| at(u) - spacing.between(v, u));
        (lo, hi)
    };
    for &(first, count) in trunks {
        let end = first.saturating_add(count);
        let mut start = first;
        while start < end {
            // The longest run from `start` that fits one x, and that x.
            let (mut lo, mut hi) = room(start, x);
            let mut sum = 0.0;
            let mut stop = start;
            while stop < end {
                let (l, h) = room(stop, x);
                if l.max(lo) > h.min(hi) {
                    break;
                }
                (lo, hi) = (l.max(lo), h.min(hi));
                sum += x.get(stop).copied().unwrap_or(0.0);
                stop = stop.saturating_add(1);
            }
            let stop = stop.max(start.saturating_add(1));
            let run = stop.saturating_sub(start) as f64;
            let at = (sum / run).max(lo).min(hi.max(lo));
            for v in start..stop {
                set(x, v, at);
            }
            start = stop;
        }
    }
}

/// The least distance from the first vertex of the layer to each one.
fn offsets_of(layer: &[usize], spacing: &Spacing, out: &mut Vec<f64>) {
    out.clear();
    let mut at = 0.0;
    let mut previous = None;
    for &v in layer {
        if let Some(p) = previous {
            at += spacing.between(p, v);
        }
        out.push(at);
        previous = Some(v);
    }
}

/// Positions `x` minimising `sum weight * (x - target)^2` under
/// `x[i + 1] - x[i] >= offsets[i + 1] - offsets[i]`: with `y = x - offset`
/// the constraint is `y` non-decreasing, and pooling adjacent blocks that
/// violate it, each at its weighted mean, is optimal.
fn isotonic(want: &[(f64, f64)], offsets: &[f64]) -> Vec<f64> {
    struct Block {
        weight: f64,
        sum: f64,
        len: usize,
    }
    let mut blocks: Vec<Block> = Vec::new();
    for (&(target, weight), &offset) in want.iter().zip(offsets) {
        let mut b = Block { weight, sum: weight * (target - offset), len: 1 };
        while let Some(p) = blocks.last() {
            if p.sum / p.weight <= b.sum / b.weight {
                break;
            }
            b = Block { weight: p.weight + b.weight, sum: p.sum + b.sum, len: p.len.saturating_add(b.len) };
            blocks.pop();
        }
        blocks.push(b);
    }
    let ys = blocks.iter().flat_map(|b| std::iter::repeat_n(b.sum / b.weight, b.len));
    ys.zip(offsets).map(|(y, o)| y + o).collect()
}

fn set<T>(v: &mut [T], i: usize, value: T) {
    if let Some(slot) = v.get_mut(i) {
        *slot = value;
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

    use super::*;
    use proptest::prelude::*;

    #[test]
    fn pooled_blocks_sit_at_their_mean() {
        // Both want 0 but must be 10 apart: -5 and 5.
        assert_eq!(isotonic(&[(0.0, 1.0), (0.0, 1.0)], &[0.0, 10.0]), vec![-5.0, 5.0]);
        // Already far enough apart: unchanged.
        assert_eq!(isotonic(&[(0.0, 1.0), (30.0, 1.0)], &[0.0, 10.0]), vec![0.0, 30.0]);
        // A heavy vertex barely moves.
        assert_eq!(isotonic(&[(0.0, 9.0), (0.0, 1.0)], &[0.0, 10.0]), vec![-1.0, 9.0]);
    }

    proptest! {
        #[test]
        fn isotonic_keeps_separations_and_is_locally_optimal(
            want in prop::collection::vec((-100.0f64..100.0, 0.01f64..10.0), 1..30),
            gaps in prop::collection::vec(0.0f64..20.0, 30),
        ) {
            let mut offsets = vec![0.0];
            for g in gaps.iter().take(want.len() - 1) {
                offsets.push(offsets.last().unwrap() + g);
            }
            let x = isotonic(&want, &offsets);
            prop_assert_eq!(x.len(), want.len());
            for i in 1..x.len() {
                prop_assert!(x[i] - x[i - 1] >= offsets[i] - offsets[i - 1] - 1e-9);
            }
            let cost = |x: &[f64]| want.iter().zip(x).map(|(&(t, w), xi)| w * (xi - t) * (xi - t)).sum::<f64>();
            // Shifting everything a little either way costs more.
            let c = cost(&x);
            for d in [-0.01, 0.01] {
                let moved: Vec<f64> = x.iter().map(|v| v + d).collect();
                prop_assert!(cost(&moved) >= c - 1e-9);
            }
        }
    }
}
