//! Which way each edge is drawn: a depth-first search from the sources
//! reverses its back edges, so a DAG keeps every edge whatever its node
//! order, and a damaged graph with cycles still gets a top-to-bottom drawing.

use super::csr::Csr;
use crate::graph::Edge;

/// An edge between two distinct nodes, oriented top to bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Link {
    /// The node drawn above.
    pub top: usize,
    /// The node drawn below.
    pub bottom: usize,
    /// Whether the edge runs bottom to top (`from` is `bottom`).
    pub reversed: bool,
}

/// How one edge of the graph is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Route {
    /// An endpoint out of range: not drawn.
    Skip,
    /// From a node to itself: a loop on its right side.
    Loop(usize),
    /// Between two nodes.
    Link(Link),
}

/// The routes, one per edge, and a topological order of the nodes for the
/// links.
pub(crate) fn orient(nodes: usize, edges: &[Edge]) -> (Vec<Route>, Vec<usize>) {
    let valid = |e: &Edge| e.from < nodes && e.to < nodes && e.from != e.to;
    let out: Vec<(usize, usize)> =
        edges.iter().enumerate().filter(|(_, e)| valid(e)).map(|(k, e)| (e.from, k)).collect();
    let out = Csr::new(nodes, &out);
    let mut has_pred = vec![false; nodes];
    for e in edges.iter().filter(|e| valid(e)) {
        if let Some(p) = has_pred.get_mut(e.to) {
            *p = true;
        }
    }
    let target = |k: usize| edges.get(k).map_or(0, |e| e.to);

    // Sources first so that, in a graph with cycles, the search enters each
    // cycle where the data does and reverses the edge that closes it.
    let roots = (0..nodes)
        .filter(|&v| !has_pred.get(v).copied().unwrap_or(false))
        .chain((0..nodes).filter(|&v| has_pred.get(v).copied().unwrap_or(false)));
    const NEW: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; nodes];
    let mut reversed = vec![false; edges.len()];
    let mut postorder = Vec::with_capacity(nodes);
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for root in roots {
        if state.get(root) != Some(&NEW) {
            continue;
        }
        set(&mut state, root, OPEN);
        stack.push((root, 0));
        while let Some(&(v, cursor)) = stack.last() {
            match out.row(v).get(cursor) {
                Some(&k) => {
                    if let Some(top) = stack.last_mut() {
                        top.1 = cursor.saturating_add(1);
                    }
                    let w = target(k);
                    match state.get(w).copied() {
                        Some(NEW) => {
                            set(&mut state, w, OPEN);
                            stack.push((w, 0));
                        }
                        Some(OPEN) => set(&mut reversed, k, true),
                        _ => {}
                    }
                }
                None => {
                    set(&mut state, v, DONE);
                    postorder.push(v);
                    stack.pop();
                }
            }
        }
    }
    postorder.reverse();

    let routes = edges
        .iter()
        .zip(&reversed)
        .map(|(e, &back)| {
            if e.from >= nodes || e.to >= nodes {
                Route::Skip
            } else if e.from == e.to {
                Route::Loop(e.from)
            } else if back {
                Route::Link(Link { top: e.to, bottom: e.from, reversed: true })
            } else {
                Route::Link(Link { top: e.from, bottom: e.to, reversed: false })
            }
        })
        .collect();
    (routes, postorder)
}

fn set<T>(v: &mut [T], i: usize, value: T) {
    if let Some(slot) = v.get_mut(i) {
        *slot = value;
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::arithmetic_side_effects)]

    use super::*;
    use proptest::prelude::*;

    fn edge(from: usize, to: usize) -> Edge {
        Edge { from, to, label: String::new() }
    }

    #[test]
    fn a_dag_in_any_order_keeps_its_edges() {
        let edges = [edge(3, 1), edge(1, 0), edge(2, 0), edge(3, 2)];
        let (routes, _) = orient(4, &edges);
        assert!(routes.iter().all(|r| matches!(r, Route::Link(l) if !l.reversed)));
    }

    #[test]
    fn cycles_loops_and_strays() {
        let edges = [edge(0, 1), edge(1, 2), edge(2, 0), edge(1, 1), edge(0, 7)];
        let (routes, _) = orient(3, &edges);
        assert_eq!(routes[2], Route::Link(Link { top: 0, bottom: 2, reversed: true }));
        assert_eq!(routes[3], Route::Loop(1));
        assert_eq!(routes[4], Route::Skip);
    }

    proptest! {
        #[test]
        fn links_follow_the_order(n in 0usize..30, pairs in prop::collection::vec((0usize..34, 0usize..34), 0..80)) {
            let edges: Vec<Edge> = pairs.iter().map(|&(a, b)| edge(a, b)).collect();
            let (routes, order) = orient(n, &edges);
            let mut rank = vec![usize::MAX; n];
            for (i, &v) in order.iter().enumerate() {
                prop_assert_eq!(rank[v], usize::MAX, "each node once");
                rank[v] = i;
            }
            prop_assert_eq!(order.len(), n);
            for r in routes {
                if let Route::Link(l) = r {
                    prop_assert!(rank[l.top] < rank[l.bottom]);
                }
            }
        }
    }
}
