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

#[path = "../tests/support/graphs.rs"]
mod graphs;

use graphs::{chain_and_fanout, wide};

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
