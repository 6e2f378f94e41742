//! A small file must not expand to gigabytes: shared sub-objects (a DAG),
//! huge declared vector lengths and many tiny tables are bounded by the
//! default limits, and peak heap during decoding stays proportional to the
//! input (counted with a counting global allocator).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs
)]

use peak_alloc::PeakAlloc;
use pte_schema::*;

#[global_allocator]
static ALLOC: PeakAlloc = PeakAlloc;

/// The allocator counts every thread: tests that measure take this lock so
/// they never run at the same time.
static MEASURE: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn measuring() -> std::sync::MutexGuard<'static, ()> {
    MEASURE.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn u32_at(b: &[u8], p: usize) -> u32 {
    u32::from_le_bytes(b[p..p + 4].try_into().unwrap())
}

/// 20,000 values whose offsets all point at one EValue holding an IntList of
/// 10,000 items: under 0.5 MB on disk, 1.6 GB if expanded as a tree.
fn dag() -> Vec<u8> {
    let n = 20_000;
    let mut values = vec![EValue { val: Some(KernelTypes::IntList(Some(vec![0; 10_000]))) }];
    values.extend((1..n).map(|_| EValue { val: Some(KernelTypes::Null) }));
    let p = Program {
        execution_plan: Some(vec![ExecutionPlan { values: Some(values), ..Default::default() }]),
        ..Default::default()
    };
    let mut b = encode_program(&p, &EncodeOptions::default()).unwrap();
    let loc = Locator::new(&b, &Limits::unlimited()).unwrap();
    let l0 = loc.locate("execution_plan[0].values[0]").unwrap() as usize;
    let l1 = loc.locate("execution_plan[0].values[1]").unwrap() as usize;
    // find the offsets vector: element 1 at q points to l1, element 0 at q - 4 to l0
    let q = (4..b.len() - 4)
        .step_by(4)
        .find(|&q| q + u32_at(&b, q) as usize == l1 && q - 4 + u32_at(&b, q - 4) as usize == l0)
        .unwrap();
    let start = q - 4;
    assert_eq!(u32_at(&b, start - 4) as usize, n);
    for i in 1..n {
        let at = start + 4 * i;
        let off = (l0 - at) as u32;
        b[at..at + 4].copy_from_slice(&off.to_le_bytes());
    }
    b
}

#[test]
fn dag_fan_out_is_refused_by_default_limits() {
    let _guard = measuring();
    let b = dag();
    // (the now unreferenced Null tables stay in the buffer: about 480 KB)
    assert!(b.len() < 600_000, "{}", b.len());
    ALLOC.reset_peak_usage();
    let base = ALLOC.current_usage();
    let e = decode_program(&b, &Limits::default()).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::LimitExceeded, "{e}");
    assert!(ALLOC.peak_usage() - base < 1 << 20, "peak {}", ALLOC.peak_usage() - base);
    // with the limits lifted the same file decodes (that is what the limits prevent)
    let v = Locator::new(&b, &Limits::unlimited());
    assert!(v.is_some());
}

#[test]
fn huge_vector_lengths_are_errors_without_allocation() {
    let _guard = measuring();
    let p = Program {
        execution_plan: Some(vec![ExecutionPlan {
            values: Some(vec![EValue { val: Some(KernelTypes::IntList(Some(vec![7; 4]))) }]),
            ..Default::default()
        }]),
        ..Default::default()
    };
    let good = encode_program(&p, &EncodeOptions::default()).unwrap();
    let mut hits = 0;
    for at in (8..good.len() - 4).step_by(4) {
        for len in [0xFFFF_FFFFu32, 0x7FFF_FFFF, 0x4000_0000] {
            let mut b = good.clone();
            b[at..at + 4].copy_from_slice(&len.to_le_bytes());
            ALLOC.reset_peak_usage();
            let base = ALLOC.current_usage();
            if decode_program(&b, &Limits::default()).is_err() {
                hits += 1;
            }
            let peak = ALLOC.peak_usage().saturating_sub(base);
            assert!(peak < 16 * b.len() + (1 << 20), "offset {at} len {len:#x}: peak {peak}");
        }
    }
    assert!(hits > 0);
}

#[test]
fn corpus_decoding_stays_within_sixteen_times_the_input() {
    let _guard = measuring();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus");
    for e in std::fs::read_dir(root).unwrap() {
        let path = e.unwrap().path().join("model.pte");
        let Ok(bytes) = std::fs::read(&path) else { continue };
        ALLOC.reset_peak_usage();
        let base = ALLOC.current_usage();
        let _ = decode_program(&bytes, &Limits::default()).unwrap();
        let peak = ALLOC.peak_usage().saturating_sub(base);
        assert!(peak <= 16 * bytes.len() + (1 << 20), "{}: {peak}", path.display());
    }
}
