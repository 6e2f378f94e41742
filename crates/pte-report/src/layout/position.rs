//! Horizontal centres. Each layer starts packed and centred; then sweeps
//! down, up, and a last one looking both ways place each layer as close as
//! possible, in least squares, to the weighted mean of its neighbours while
//! keeping its boxes apart. With the separations taken out, that is an
//! isotonic regression, solved exactly in linear time by pool-adjacent-
//! violators, so a layer of thousands of constants costs no more than its size.

use super::csr::Csr;

/// Sizes that decide how close two neighbours in a layer may be.
pub(crate) struct Spacing<'a> {
    /// Width of each vertex (0 for dummies).
    pub width: &'a [f64],
    /// Room a vertex needs on its right beyond its box (its self-loops).
    pub right: &'a [f64],
    /// Vertices below this index are nodes, the others dummies.
    pub nodes: usize,
    /// Nodes that pull their neighbours only lightly (constants), so that
    /// the main flow runs straight and its constants sit beside it.
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

    /// How strongly `from` pulls `to` along their edge: more between
    /// dummies, so that long edges run straight (the weights of Gansner et
    /// al.), and hardly at all from a constant, whose place beside its
    /// consumer should not move the consumer.
    fn pull(&self, from: usize, to: usize) -> f64 {
        if self.light.get(from).copied().unwrap_or(false) {
            return YIELD;
        }
        match (from < self.nodes, to < self.nodes) {
            (true, true) => 1.0,
            (false, false) => 8.0,
            _ => 2.0,
        }
    }

    /// How much a vertex resists being pushed aside by its neighbours in the
    /// layer. Least squares splits every push between both sides, and in a
    /// deep graph the small shifts of the operators of a chain, pushed by the
    /// constant or the long edge beside them, add up to a drawing slanted by
    /// the graph's depth; so dummies and constants give way, and operators
    /// stay in line. (Dummy chains are straightened afterwards.)
    fn stiffness(&self, v: usize) -> f64 {
        if v >= self.nodes || self.light.get(v).copied().unwrap_or(false) {
            YIELD
        } else {
            1.0
        }
    }
}

/// The weight of what gives way: small enough to decide every contest,
/// large enough to keep the arithmetic well away from zero.
const YIELD: f64 = 1e-3;

/// The centre of every vertex, given the ordered `layers`.
pub(crate) fn place(layers: &[Vec<usize>], spacing: &Spacing, above: &Csr, below: &Csr, sweeps: usize) -> Vec<f64> {
    let mut x = vec![0.0; spacing.width.len()];
    let mut offsets = Vec::new();
    for layer in layers {
        offsets_of(layer, spacing, &mut offsets);
        let half = offsets.last().copied().unwrap_or(0.0) / 2.0;
        for (&v, &o) in layer.iter().zip(&offsets) {
            set(&mut x, v, o - half);
        }
    }
    let mut want = Vec::new();
    for sweep in 0..=sweeps {
        let last = sweep == sweeps;
        let down = sweep & 1 == 0;
        let (use_above, use_below) = if last { (true, true) } else { (down, !down) };
        let mut align = |layer: &Vec<usize>| {
            offsets_of(layer, spacing, &mut offsets);
            want.clear();
            for &v in layer {
                let mut weight = 0.0;
                let mut sum = 0.0;
                let rows = [(use_above, above), (use_below, below)];
                for (_, csr) in rows.iter().filter(|r| r.0) {
                    for &u in csr.row(v) {
                        let w = spacing.pull(u, v);
                        weight += w;
                        sum += w * x.get(u).copied().unwrap_or(0.0);
                    }
                }
                // A vertex with no neighbour that way stays put unless pushed.
                let here = x.get(v).copied().unwrap_or(0.0);
                let stiff = spacing.stiffness(v);
                want.push(if weight > 0.0 { (sum / weight, weight * stiff) } else { (here, YIELD * stiff) });
            }
            for (&v, xv) in layer.iter().zip(isotonic(&want, &offsets)) {
                set(&mut x, v, xv);
            }
        };
        if down || last {
            layers.iter().for_each(&mut align);
        } else {
            layers.iter().rev().for_each(&mut align);
        }
    }
    x
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
