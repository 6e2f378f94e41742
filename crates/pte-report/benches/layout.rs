//! `cargo bench -p pte-report --bench layout`: `layout` and `svg` on
//! dataflow graphs of 1,000, 5,000 and 20,000 nodes shaped like a deep
//! network (a chain of operators, each second one with a weight, residual
//! edges, one input read all along the chain), and one graph whose 20,000
//! constants all feed one operator (a single very wide layer); median of runs.
//!
//! `PTE_BENCH_NODES` (comma-separated; default `1000,5000,20000`) picks the
//! sizes, `PTE_BENCH_RUNS` (default 5) the runs per measurement.

#![allow(missing_docs)]

#[path = "../tests/support/graphs.rs"]
mod graphs;

use graphs::{chain_and_fanout, wide};
use pte_testkit::{bench_runs, ms, time_median};

fn main() {
    let sizes: Vec<usize> = std::env::var("PTE_BENCH_NODES")
        .unwrap_or_else(|_| "1000,5000,20000".into())
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    let runs = bench_runs();
    println!("| graph | nodes | edges | layout (median of {runs}) | svg | svg size |");
    println!("| --- | --- | --- | --- | --- | --- |");
    let graphs = sizes.iter().map(|&n| ("deep", chain_and_fanout(n))).chain([("wide", wide(20_000))]);
    for (shape, g) in graphs {
        let (tl, l) = time_median(runs, || pte_report::layout::layout(&g));
        let (ts, s) = time_median(runs, || pte_report::layout::svg(&g, &l));
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
