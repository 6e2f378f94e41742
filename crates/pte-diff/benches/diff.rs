//! `pte_diff::diff_files` on two 256 MiB programs (one big float constant,
//! the shape of the pte-file benchmark's segment-heavy case) against `cmp`
//! on the same files, with the peak heap of the diff.
//!
//! `PTE_BENCH_MIB` (default 256) sets the constant size, `PTE_BENCH_RUNS`
//! (default 5) the runs per measurement; the median is reported.

#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::arithmetic_side_effects, missing_docs)]

use std::borrow::Cow;
use std::path::Path;
use std::process::Command;

use peak_alloc::PeakAlloc;
use pte_file::{PteParts, WriteOptions};
use pte_schema::*;
use pte_testkit::{bench_runs, ms, time_median};

#[global_allocator]
static PEAK: PeakAlloc = PeakAlloc;

fn program(floats: usize) -> Program<'static> {
    let t = Tensor {
        scalar_type: ScalarType::FLOAT,
        sizes: Some(vec![floats as i32]),
        dim_order: Some(vec![0]),
        data_buffer_idx: 1,
        ..Default::default()
    };
    Program {
        execution_plan: Some(vec![ExecutionPlan {
            name: Some("forward".into()),
            values: Some(vec![EValue { val: Some(KernelTypes::Tensor(t)) }]),
            inputs: Some(vec![]),
            outputs: Some(vec![0]),
            chains: Some(vec![Chain {
                inputs: Some(vec![]),
                outputs: Some(vec![0]),
                instructions: Some(vec![]),
                stacktrace: None,
            }]),
            operators: Some(vec![]),
            delegates: Some(vec![]),
            non_const_buffer_sizes: Some(vec![0]),
            ..Default::default()
        }]),
        ..Default::default()
    }
}

fn write(path: &Path, data: Vec<u8>) {
    let parts = PteParts {
        program: program(data.len() / 4),
        constants: vec![Cow::Owned(vec![]), Cow::Owned(data)],
        ..Default::default()
    };
    parts.build(&WriteOptions::default()).unwrap().save(path, &WriteOptions::default()).unwrap();
}

fn main() {
    let mib: usize = std::env::var("PTE_BENCH_MIB").ok().and_then(|s| s.parse().ok()).unwrap_or(256);
    let runs = bench_runs();
    let dir = tempfile::tempdir().unwrap();
    let floats = (mib << 20) / 4;
    let base: Vec<u8> = (0..floats).flat_map(|i| ((i % 1000) as f32 * 0.001).to_le_bytes()).collect();
    let mut changed = base.clone();
    // one element in every 100 moves
    for i in (0..floats).step_by(100) {
        let v = f32::from_le_bytes(changed[i * 4..i * 4 + 4].try_into().unwrap()) + 0.5;
        changed[i * 4..i * 4 + 4].copy_from_slice(&v.to_le_bytes());
    }
    let (a, same, other) = (dir.path().join("a.pte"), dir.path().join("same.pte"), dir.path().join("other.pte"));
    write(&a, base.clone());
    write(&same, base);
    write(&other, changed);
    let o = pte_diff::Options::default();
    println!(
        "| pair ({mib} MiB each) | pte_diff::diff_files (median of {runs}) | cmp | ratio | peak heap of the diff |"
    );
    println!("| --- | --- | --- | --- | --- |");
    for (name, b, cmp_args) in
        [("same content, two files", &same, vec![]), ("1% of the floats changed", &other, vec!["-l"])]
    {
        PEAK.reset_peak_usage();
        let before = PEAK.current_usage();
        let (d, r) = time_median(runs, || pte_diff::diff_files(&a, b, &o).unwrap());
        let peak = PEAK.peak_usage().saturating_sub(before) as f64 / (1 << 20) as f64;
        let (c, ()) = time_median(runs, || {
            let out = Command::new("cmp").args(&cmp_args).arg(&a).arg(b).output().unwrap();
            assert!(out.status.code().is_some());
        });
        let found = r.differences.iter().filter_map(|d| d.tensor.as_ref()).map(|t| t.num_differing).sum::<u64>();
        println!(
            "| {name} ({found} differing elements) | {:.1} ms | {:.1} ms (cmp {}) | {:.2}x | {peak:.2} MiB |",
            ms(d),
            ms(c),
            if cmp_args.is_empty() { "" } else { "-l" },
            d.as_secs_f64() / c.as_secs_f64()
        );
    }
}
