//! `cargo bench -p pte-report --bench layout`: `layout` and `svg` on
//! dataflow graphs of 1,000, 5,000 and 20,000 nodes shaped like a deep
//! network (a chain of operators, each second one with a weight, residual
//! edges, one input read all along the chain), and one graph whose 20,000
//! constants all feed one operator (a single very wide layer); median of runs.
//!
//! `PTE_BENCH_NODES` (comma-separated; default `1000,5000,20000`) picks the
//! sizes, `PTE_BENCH_RUNS` (default 5) the runs per measurement.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs
)]

use std::time::{Duration, Instant};

use pte_report::graph::{Edge, Graph, Node, NodeKind};

fn chain_and_fanout(nodes: usize) -> Graph {
    let mut g = Graph { name: "forward".into(), ..Default::default() };
    let add = |g: &mut Graph, kind: NodeKind, label: String| {
        g.nodes.push(Node { id: format!("v{}", g.nodes.len()), label, kind });
        g.nodes.len() - 1
    };
    let x = add(&mut g, NodeKind::Input, "x".into());
    let mask = add(&mut g, NodeKind::Input, "attention_mask".into());
    let mut ops = vec![];
    let mut prev = x;
    while g.nodes.len() + 2 < nodes {
        let k = ops.len();
        let op = add(&mut g, NodeKind::Operator, format!("aten::linear.out #{k}"));
        g.edges.push(Edge { from: prev, to: op, label: "float32 [1, 128, 768]".into() });
        if k % 2 == 0 && g.nodes.len() + 2 < nodes {
            let w = add(&mut g, NodeKind::Data, format!("layers.{k}.weight"));
            g.edges.push(Edge { from: w, to: op, label: "float32 [768, 768]".into() });
        }
        if k % 7 == 6 {
            g.edges.push(Edge { from: ops[k - 5], to: op, label: "float32 [1, 128, 768]".into() });
        }
        if k % 40 == 0 {
            g.edges.push(Edge { from: mask, to: op, label: "bool [1, 128]".into() });
        }
        ops.push(op);
        prev = op;
    }
    let out0 = add(&mut g, NodeKind::Output, "out0".into());
    g.edges.push(Edge { from: prev, to: out0, label: "float32 [1, 128, 768]".into() });
    let out1 = add(&mut g, NodeKind::Output, "out1".into());
    g.edges.push(Edge { from: ops[ops.len() / 2], to: out1, label: "float32 [1, 128, 768]".into() });
    g
}

/// `nodes - 1` constants read by one operator: one very wide layer.
fn wide(nodes: usize) -> Graph {
    let mut g = Graph { name: "wide".into(), ..Default::default() };
    let op = nodes.saturating_sub(1);
    for i in 0..op {
        g.nodes.push(Node { id: format!("c{i}"), label: format!("constant {i}"), kind: NodeKind::Data });
        g.edges.push(Edge { from: i, to: op, label: "float32 [1]".into() });
    }
    g.nodes.push(Node { id: "op".into(), label: "aten::cat.out".into(), kind: NodeKind::Operator });
    g
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn time<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut last = f();
    let d = median(
        (0..runs)
            .map(|_| {
                let t = Instant::now();
                last = f();
                t.elapsed()
            })
            .collect(),
    );
    (d, last)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let sizes: Vec<usize> = std::env::var("PTE_BENCH_NODES")
        .unwrap_or_else(|_| "1000,5000,20000".into())
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    let runs: usize = std::env::var("PTE_BENCH_RUNS").ok().and_then(|s| s.parse().ok()).unwrap_or(5);
    println!("| graph | nodes | edges | layout (median of {runs}) | svg | svg size |");
    println!("| --- | --- | --- | --- | --- | --- |");
    let graphs = sizes.iter().map(|&n| ("deep", chain_and_fanout(n))).chain([("wide", wide(20_000))]);
    for (shape, g) in graphs {
        let (tl, l) = time(runs, || pte_report::layout::layout(&g));
        let (ts, s) = time(runs, || pte_report::layout::svg(&g, &l));
        println!(
            "| {shape} | {} | {} | {:.1} ms | {:.1} ms | {:.1} MiB |",
            g.nodes.len(),
            g.edges.len(),
            ms(tl),
            ms(ts),
            s.len() as f64 / (1 << 20) as f64
        );
    }
}
