//! The order of the vertices in each layer: alternate sweeps down and up,
//! each sorting a layer by the weighted median position of its neighbours in
//! the layer just swept (vertices without such neighbours keep their slot),
//! keeping the order with the fewest crossings.

use super::csr::Csr;

/// Reorders `layers` in place with at most `sweeps` sweeps; `above` and
/// `below` list each vertex's neighbours in the adjacent layers.
pub(crate) fn reduce(layers: &mut [Vec<usize>], above: &Csr, below: &Csr, vertices: usize, sweeps: usize) {
    let mut pos = vec![0usize; vertices];
    for layer in layers.iter() {
        number(layer, &mut pos);
    }
    let mut best = crossings(layers, &pos, below);
    let mut best_layers = layers.to_vec();
    let mut scratch = Vec::new();
    let mut down = true;
    for _ in 0..sweeps {
        if best == 0 {
            break;
        }
        if down {
            for layer in layers.iter_mut().skip(1) {
                sort_by_median(layer, &mut pos, above, &mut scratch);
            }
        } else {
            for layer in layers.iter_mut().rev().skip(1) {
                sort_by_median(layer, &mut pos, below, &mut scratch);
            }
        }
        down = !down;
        let now = crossings(layers, &pos, below);
        if now < best {
            best = now;
            best_layers.clone_from_slice(layers);
        }
    }
    layers.clone_from_slice(&best_layers);
}

fn number(layer: &[usize], pos: &mut [usize]) {
    for (i, &v) in layer.iter().enumerate() {
        if let Some(p) = pos.get_mut(v) {
            *p = i;
        }
    }
}

fn sort_by_median(layer: &mut [usize], pos: &mut [usize], neighbours: &Csr, scratch: &mut Vec<f64>) {
    let mut keyed: Vec<(f64, usize, usize)> = Vec::new();
    for (slot, &v) in layer.iter().enumerate() {
        scratch.clear();
        scratch.extend(neighbours.row(v).iter().filter_map(|&u| pos.get(u)).map(|&p| p as f64));
        if let Some(key) = median(scratch) {
            keyed.push((key, slot, v));
        }
    }
    let slots: Vec<usize> = keyed.iter().map(|k| k.1).collect();
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    for (slot, (_, _, v)) in slots.into_iter().zip(keyed) {
        if let Some(s) = layer.get_mut(slot) {
            *s = v;
        }
    }
    number(layer, pos);
}

/// The weighted median of Gansner et al.: with an even count, the two middle
/// values weighted towards the side whose values are packed more tightly.
fn median(values: &mut [f64]) -> Option<f64> {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    let mid = n / 2;
    let upper = *values.get(mid)?;
    if n % 2 == 1 {
        return Some(upper);
    }
    let lower = *values.get(mid.checked_sub(1)?)?;
    if n == 2 {
        return Some((lower + upper) / 2.0);
    }
    let left = lower - *values.first()?;
    let right = *values.last()? - upper;
    if left + right <= 0.0 {
        return Some((lower + upper) / 2.0);
    }
    Some((lower * right + upper * left) / (left + right))
}

/// Crossings between all adjacent layers, counted per pair as inversions of
/// the lower ends (Barth, Jünger and Mutzel) with a Fenwick tree.
pub(crate) fn crossings(layers: &[Vec<usize>], pos: &[usize], below: &Csr) -> u64 {
    let mut total = 0u64;
    let mut ends = Vec::new();
    let mut row = Vec::new();
    for (upper, lower) in layers.iter().zip(layers.iter().skip(1)) {
        ends.clear();
        for &u in upper {
            row.clear();
            row.extend(below.row(u).iter().filter_map(|&v| pos.get(v).copied()));
            row.sort_unstable();
            ends.extend_from_slice(&row);
        }
        total = total.saturating_add(inversions(&ends, lower.len()));
    }
    total
}

fn inversions(ends: &[usize], size: usize) -> u64 {
    let mut tree = vec![0u64; size.saturating_add(1)];
    let mut seen = 0u64;
    let mut count = 0u64;
    for &e in ends {
        // Ends seen so far at positions <= e do not cross this one.
        let mut i = e.saturating_add(1);
        let mut not_crossing = 0u64;
        while i > 0 {
            not_crossing = not_crossing.saturating_add(tree.get(i).copied().unwrap_or(0));
            i &= i.saturating_sub(1);
        }
        count = count.saturating_add(seen.saturating_sub(not_crossing));
        let mut i = e.saturating_add(1);
        while let Some(t) = tree.get_mut(i) {
            *t = t.saturating_add(1);
            i = i.saturating_add(i & i.wrapping_neg());
            if i == 0 {
                break;
            }
        }
        seen = seen.saturating_add(1);
    }
    count
}

#[cfg(test)]
mod tests {
    #![allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

    use super::*;
    use proptest::prelude::*;

    #[test]
    fn medians() {
        assert_eq!(median(&mut []), None);
        assert_eq!(median(&mut [3.0]), Some(3.0));
        assert_eq!(median(&mut [4.0, 2.0]), Some(3.0));
        assert_eq!(median(&mut [0.0, 1.0, 2.0, 10.0]), Some((1.0 * 8.0 + 2.0 * 1.0) / 9.0));
    }

    #[test]
    fn a_twisted_pair_is_untwisted() {
        // 0 -> 3, 1 -> 2: one crossing until layer 1 is sorted.
        let below = Csr::new(4, &[(0, 3), (1, 2)]);
        let above = Csr::new(4, &[(3, 0), (2, 1)]);
        let mut layers = vec![vec![0, 1], vec![2, 3]];
        let pos = [0, 1, 0, 1];
        assert_eq!(crossings(&layers, &pos, &below), 1);
        reduce(&mut layers, &above, &below, 4, 4);
        assert_eq!(layers, vec![vec![0, 1], vec![3, 2]]);
    }

    proptest! {
        #[test]
        fn inversions_match_brute_force(ends in prop::collection::vec(0usize..12, 0..40)) {
            let mut brute = 0u64;
            for i in 0..ends.len() {
                for j in i + 1..ends.len() {
                    if ends[i] > ends[j] {
                        brute += 1;
                    }
                }
            }
            prop_assert_eq!(inversions(&ends, 12), brute);
        }
    }
}
