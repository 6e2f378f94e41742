//! Dataflow graphs for the layout tests and the layout bench: the same
//! shapes, so that what the bench times is what the tests check. One file
//! that both include (`#[path]`): only this crate's tests use it, so it needs
//! no feature and no public API. Its checks are in `tests/it/layout.rs`.

use pte_report::graph::{Edge, Graph, Node, NodeKind};

/// About `nodes` nodes shaped like a deep network: two inputs, a chain of
/// operators (each second one with a weight), a residual edge every seventh
/// operator, the second input (a mask) read every fortieth, and outputs
/// from the end and the middle of the chain.
pub fn chain_and_fanout(nodes: usize) -> Graph {
    let mut g = Graph { name: "forward".into(), ..Default::default() };
    let add = |g: &mut Graph, kind: NodeKind, label: String| {
        g.nodes.push(Node { id: format!("v{}", g.nodes.len()), label, kind });
        g.nodes.len().saturating_sub(1)
    };
    let activation = || "float32 [1, 128, 768]".to_string();
    let x = add(&mut g, NodeKind::Input, "x".into());
    let mask = add(&mut g, NodeKind::Input, "attention_mask".into());
    let mut ops: Vec<usize> = vec![];
    let mut prev = x;
    while g.nodes.len().saturating_add(2) < nodes {
        let k = ops.len();
        let op = add(&mut g, NodeKind::Operator, format!("aten::linear.out #{k}"));
        g.edges.push(Edge { from: prev, to: op, label: activation() });
        if k.is_multiple_of(2) && g.nodes.len().saturating_add(2) < nodes {
            let w = add(&mut g, NodeKind::Data, format!("layers.{k}.weight"));
            g.edges.push(Edge { from: w, to: op, label: "float32 [768, 768]".into() });
        }
        if k % 7 == 6 {
            let from = ops.get(k.saturating_sub(5)).copied().unwrap_or(x);
            g.edges.push(Edge { from, to: op, label: activation() });
        }
        if k.is_multiple_of(40) {
            g.edges.push(Edge { from: mask, to: op, label: "bool [1, 128]".into() });
        }
        ops.push(op);
        prev = op;
    }
    let out0 = add(&mut g, NodeKind::Output, "out0".into());
    g.edges.push(Edge { from: prev, to: out0, label: activation() });
    let out1 = add(&mut g, NodeKind::Output, "out1".into());
    let middle = ops.get(ops.len() / 2).copied().unwrap_or(prev);
    g.edges.push(Edge { from: middle, to: out1, label: activation() });
    g
}

/// `nodes - 1` constants read by one operator, the last node: a single
/// very wide layer.
pub fn wide(nodes: usize) -> Graph {
    let mut g = Graph { name: "wide".into(), ..Default::default() };
    let op = nodes.saturating_sub(1);
    for i in 0..op {
        g.nodes.push(Node { id: format!("c{i}"), label: format!("constant {i}"), kind: NodeKind::Data });
        g.edges.push(Edge { from: i, to: op, label: "float32 [1]".into() });
    }
    g.nodes.push(Node { id: "op".into(), label: "aten::cat.out".into(), kind: NodeKind::Operator });
    g
}
