//! Dummy vertices for links spanning more than one layer. The long links of
//! one producer share one chain (a trunk that each link leaves at the layer
//! above its consumer), which keeps a value read all along a deep graph to
//! one vertical line and its cost to the graph's depth. Chains come out of a
//! budget, cheapest first, so a hostile graph cannot make the layout
//! quadratic; links left without one are drawn straight.

use super::acyclic::Route;

/// How a link crosses the layers between its ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Path {
    /// Through vertices `first..first + count`, one per layer in between.
    Through { first: usize, count: usize },
    /// A straight segment: adjacent layers, or no chain left in the budget.
    Straight,
}

/// The layered graph with its dummies.
pub(crate) struct Chains {
    /// The layer of each vertex: the nodes, then the dummies.
    pub layer: Vec<usize>,
    /// One per edge of the graph, `None` for loops and skipped edges.
    pub paths: Vec<Option<Path>>,
    /// Edges between vertices of adjacent layers, upper end first.
    pub edges: Vec<(usize, usize)>,
    /// Each chain of dummies, top down, as `first..first + count`.
    pub trunks: Vec<(usize, usize)>,
}

/// Chains for the links of `routes`, spending at most `budget` dummies.
pub(crate) fn build(layer: &[usize], routes: &[Route], budget: usize) -> Chains {
    let at = |v: usize| layer.get(v).copied().unwrap_or(0);
    let mut chains =
        Chains { layer: layer.to_vec(), paths: vec![None; routes.len()], edges: Vec::new(), trunks: Vec::new() };
    // (top, reversed, span, edge, bottom): sorted, a producer's long links in
    // one direction are adjacent, shortest first.
    let mut long = Vec::new();
    for (k, route) in routes.iter().enumerate() {
        if let Route::Link(l) = route {
            let span = at(l.bottom).saturating_sub(at(l.top));
            if span > 1 {
                long.push((l.top, l.reversed, span, k, l.bottom));
            } else {
                set(&mut chains.paths, k, Some(Path::Straight));
                chains.edges.push((l.top, l.bottom));
            }
        }
    }
    long.sort_unstable();
    let groups: Vec<_> = long.chunk_by(|a, b| a.0 == b.0 && a.1 == b.1).collect();
    let need = |g: &[(usize, bool, usize, usize, usize)]| g.last().map_or(0, |m| m.2.saturating_sub(1));
    let mut cheapest: Vec<(usize, usize)> = groups.iter().enumerate().map(|(i, g)| (need(g), i)).collect();
    cheapest.sort_unstable();
    let mut granted = vec![false; groups.len()];
    let mut left = budget;
    for (cost, g) in cheapest {
        if cost > left {
            break;
        }
        left = left.saturating_sub(cost);
        set(&mut granted, g, true);
    }
    for (group, granted) in groups.iter().zip(granted) {
        if !granted {
            for m in group.iter() {
                set(&mut chains.paths, m.3, Some(Path::Straight));
            }
            continue;
        }
        let Some(&(top, ..)) = group.first() else { continue };
        let first = chains.layer.len();
        let mut above = top;
        for j in 0..need(group) {
            let d = chains.layer.len();
            chains.layer.push(at(top).saturating_add(j).saturating_add(1));
            chains.edges.push((above, d));
            above = d;
        }
        chains.trunks.push((first, need(group)));
        for &(_, _, span, k, bottom) in group.iter() {
            let count = span.saturating_sub(1);
            let last = first.saturating_add(count).saturating_sub(1);
            chains.edges.push((last, bottom));
            set(&mut chains.paths, k, Some(Path::Through { first, count }));
        }
    }
    chains
}

fn set<T>(v: &mut [T], i: usize, value: T) {
    if let Some(slot) = v.get_mut(i) {
        *slot = value;
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::indexing_slicing)]

    use super::*;
    use crate::layout::acyclic::Link;

    fn link(top: usize, bottom: usize) -> Route {
        Route::Link(Link { top, bottom, reversed: false })
    }

    #[test]
    fn long_links_of_one_producer_share_a_trunk() {
        // node 0 at layer 0 feeds nodes 1, 2, 3 at layers 1, 3, 4.
        let layer = [0, 1, 3, 4];
        let routes = [link(0, 2), link(0, 1), Route::Loop(1), link(0, 3), Route::Skip];
        let c = build(&layer, &routes, 100);
        assert_eq!(c.layer, vec![0, 1, 3, 4, 1, 2, 3]);
        assert_eq!(c.paths[0], Some(Path::Through { first: 4, count: 2 }));
        assert_eq!(c.paths[1], Some(Path::Straight));
        assert_eq!(c.paths[2], None);
        assert_eq!(c.paths[3], Some(Path::Through { first: 4, count: 3 }));
        assert_eq!(c.paths[4], None);
        assert_eq!(c.trunks, vec![(4, 3)]);
        assert_eq!(c.edges, vec![(0, 1), (0, 4), (4, 5), (5, 6), (5, 2), (6, 3)]);
    }

    #[test]
    fn over_budget_links_are_straight() {
        let layer = [0, 2, 0, 5];
        let routes = [link(0, 1), link(2, 3)];
        let c = build(&layer, &routes, 3);
        assert_eq!(c.paths, vec![Some(Path::Through { first: 4, count: 1 }), Some(Path::Straight)]);
        assert_eq!(c.layer.len(), 5);
    }
}
