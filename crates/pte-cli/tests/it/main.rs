//! Integration tests of the `pte` binary, one test binary: every command end
//! to end, exit codes, snapshots, saves and their races, hostile inputs and
//! memory limits (`ulimit` in a child shell, so they share this process).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs
)]

mod batch_graph;
mod bpte;
mod cli;
mod conformance;
mod diff;
mod dump_digests;
mod escaping;
mod exit_codes;
mod explain;
mod extract;
mod graph_report_memory;
mod hostile;
mod hostile_folders;
mod hostile_memory;
mod inspect;
mod library_saves;
mod lossless;
mod man_and_help;
mod matrix;
mod memory;
mod ops;
mod pack;
mod payload;
mod program_heavy_memory;
mod readme;
mod refusals;
mod report;
mod runners;
mod runtimes;
mod samples;
mod samples_corpus;
mod save_races;
mod save_safety;
mod shrink;
mod size;
mod size_diff_memory;
mod snapshots;
mod support;
