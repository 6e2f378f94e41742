//! A program's summary is read in place: on a program of 100,000 values
//! its peak heap, serialized with and without the tensor table, stays
//! under 4 MiB and under a quarter of what decoding the model takes
//! (18 MB); about 0.8 MB without the table, 2.7 MB with it (16 bytes a
//! constant for the constants' sizes, 16 a tensor value for the table).
//!
//! A test binary of its own, apart from any `tests/it`: the counting
//! allocator is global to the process, so other tests running beside this
//! one would add their allocations to the peak it measures.

#![allow(clippy::unwrap_used, clippy::arithmetic_side_effects, missing_docs)]

use peak_alloc::PeakAlloc;
use pte_file::test_programs::{program_heavy, to_bytes};
use pte_testkit::ByteCounter;

#[global_allocator]
static ALLOC: PeakAlloc = PeakAlloc;

/// The peak heap `f` takes above what was held before it.
fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    ALLOC.reset_peak_usage();
    let before = ALLOC.current_usage();
    let out = f();
    (out, ALLOC.peak_usage().saturating_sub(before))
}

#[test]
fn the_summary_of_100k_values_takes_a_few_mib_not_the_model() {
    let bytes = to_bytes(&program_heavy(100_000));
    // what decoding the model costs (the path the summary no longer takes)
    let (decoded, model) = peak_of(|| pte_file::PteFile::from_bytes(&bytes).map(|p| p.program.plans().len()));
    assert_eq!(decoded.unwrap(), 1);
    for tensors in [false, true] {
        let options = pte::SummaryOptions { tensors, ..Default::default() };
        let (written, peak) = peak_of(|| {
            let summary = pte::Summary::read(&bytes, &options).unwrap();
            let mut counted = ByteCounter(0);
            serde_json::to_writer(&mut counted, &summary).unwrap();
            counted.0
        });
        // the JSON lists every constant (and tensor): it is larger than the heap it took
        assert!(written > 2 << 20, "{written} bytes written");
        println!("tensors {tensors}: peak {peak} bytes, model {model} bytes, {written} bytes of JSON");
        assert!(peak < 4 << 20, "tensors {tensors}: summary peak {peak} bytes (decoded model: {model})");
        assert!(peak * 4 < model, "tensors {tensors}: summary peak {peak} bytes, decoded model {model}");
    }
}
