//! Layer of each node: the longest path from the sources, so every link goes
//! down at least one layer; then constants move down to just above their
//! first consumer (rather than all crowding the top with long edges) and
//! outputs to the bottom, and empty layers are dropped.

use super::acyclic::Link;
use super::csr::Csr;
use crate::graph::NodeKind;

/// The layer of each node and the number of layers.
pub(crate) fn assign(kinds: &[NodeKind], links: &[Link], topological: &[usize]) -> (Vec<usize>, usize) {
    let nodes = kinds.len();
    let pairs: Vec<(usize, usize)> = links.iter().map(|l| (l.top, l.bottom)).collect();
    let below = Csr::new(nodes, &pairs);
    let mut has_pred = vec![false; nodes];
    for l in links {
        if let Some(p) = has_pred.get_mut(l.bottom) {
            *p = true;
        }
    }
    let mut layer = vec![0usize; nodes];
    for &u in topological {
        let next = layer.get(u).copied().unwrap_or(0).saturating_add(1);
        for &v in below.row(u) {
            if let Some(lv) = layer.get_mut(v) {
                *lv = (*lv).max(next);
            }
        }
    }
    // A source's successors all have a predecessor, so none of them moves
    // here and the order of the moves does not matter.
    for (v, kind) in kinds.iter().enumerate() {
        let source = !has_pred.get(v).copied().unwrap_or(true);
        if source
            && *kind != NodeKind::Input
            && let Some(first) = below.row(v).iter().filter_map(|&s| layer.get(s).copied()).min()
            && let Some(lv) = layer.get_mut(v)
        {
            *lv = first.saturating_sub(1);
        }
    }
    let deepest = layer.iter().copied().max().unwrap_or(0);
    for (v, kind) in kinds.iter().enumerate() {
        if *kind == NodeKind::Output
            && below.row(v).is_empty()
            && let Some(lv) = layer.get_mut(v)
        {
            *lv = deepest;
        }
    }
    let mut used = vec![false; deepest.saturating_add(1)];
    for &l in &layer {
        if let Some(u) = used.get_mut(l) {
            *u = true;
        }
    }
    let mut count = 0usize;
    let renumber: Vec<usize> = used
        .iter()
        .map(|&u| {
            let at = count;
            if u {
                count = count.saturating_add(1);
            }
            at
        })
        .collect();
    for l in layer.iter_mut() {
        *l = renumber.get(*l).copied().unwrap_or(0);
    }
    (layer, count)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(top: usize, bottom: usize) -> Link {
        Link { top, bottom, reversed: false }
    }

    #[test]
    fn constants_sit_above_their_consumer_and_outputs_at_the_bottom() {
        use NodeKind::*;
        // in0 -> op1 -> op2 -> op3; data4 -> op3; op1 -> out5
        let kinds = [Input, Operator, Operator, Operator, Data, Output];
        let links = [link(0, 1), link(1, 2), link(2, 3), link(4, 3), link(1, 5)];
        let (layer, count) = assign(&kinds, &links, &[0, 4, 1, 5, 2, 3]);
        assert_eq!(layer, vec![0, 1, 2, 3, 2, 3]);
        assert_eq!(count, 4);
    }

    #[test]
    fn tiny_graphs() {
        use NodeKind::*;
        let kinds = [Data, Operator];
        let (layer, count) = assign(&kinds, &[link(0, 1)], &[0, 1]);
        assert_eq!((layer, count), (vec![0, 1], 2));
        let (layer, count) = assign(&[], &[], &[]);
        assert_eq!((layer, count), (vec![], 0));
    }
}
