//! A small file must not expand to gigabytes: shared sub-objects (a DAG),
//! huge declared vector lengths and many tiny tables are bounded by the
//! default limits, and peak heap during decoding stays proportional to the
//! input (counted with a counting global allocator).
//!
//! A test binary of its own, apart from `tests/it`: the counting allocator
//! is global to the process, so every other test running beside these ones
//! would add its allocations to the peaks they measure.

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
    let root = pte_testkit::corpus_dir();
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

fn corpus_programs() -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let root = pte_testkit::corpus_dir();
    let mut out = vec![];
    for e in std::fs::read_dir(root).unwrap() {
        let path = e.unwrap().path().join("model.pte");
        if let Ok(bytes) = std::fs::read(&path) {
            out.push((path, bytes));
        }
    }
    out
}

/// Zero-copy views: verifying and walking every table costs at most 4 × the
/// input plus 1 MiB.
fn view_peak(bytes: &[u8]) -> usize {
    ALLOC.reset_peak_usage();
    let base = ALLOC.current_usage();
    if let Ok(v) = ProgramView::new(bytes, &Limits::default()) {
        for i in 0..v.plan_count() {
            let _ = v.plan(i);
        }
        let _ = (v.segments().count(), v.named_data().count(), v.constant_segment());
    }
    ALLOC.peak_usage().saturating_sub(base)
}

fn model_peak(bytes: &[u8]) -> usize {
    ALLOC.reset_peak_usage();
    let base = ALLOC.current_usage();
    let _ = decode_program(bytes, &Limits::default());
    ALLOC.peak_usage().saturating_sub(base)
}

#[test]
fn corpus_views_stay_within_four_times_the_input() {
    let _guard = measuring();
    for (path, bytes) in corpus_programs() {
        let peak = view_peak(&bytes);
        assert!(peak <= 4 * bytes.len() + (1 << 20), "{}: {peak}", path.display());
    }
}

#[test]
fn a_million_tiny_tables_stay_within_the_bounds() {
    let _guard = measuring();
    let p = Program {
        execution_plan: Some(vec![ExecutionPlan {
            values: Some((0..1_000_000).map(|_| EValue { val: Some(KernelTypes::Null) }).collect()),
            ..Default::default()
        }]),
        ..Default::default()
    };
    let b = encode_program(&p, &EncodeOptions::default()).unwrap();
    assert!(b.len() > 8_000_000, "{}", b.len());
    let view = view_peak(&b);
    assert!(view <= 4 * b.len() + (1 << 20), "view peak {view} for {} bytes", b.len());
    let model = model_peak(&b);
    assert!(model <= 16 * b.len() + (1 << 20), "model peak {model} for {} bytes", b.len());
    assert_eq!(decode_program(&b, &Limits::default()).unwrap().plans()[0].value_list().len(), 1_000_000);
}

/// The sweeps' inputs (every truncation, every bit flip of the first 4 KiB)
/// under the counting allocator: an error or a value, within both bounds.
#[test]
fn sweep_inputs_stay_within_the_bounds() {
    let _guard = measuring();
    for (path, bytes) in corpus_programs().into_iter().filter(|(p, _)| {
        let s = p.display().to_string();
        s.contains("xnnpack_mlp") || s.contains("multi_method")
    }) {
        let check = |b: &[u8], what: &str| {
            let (v, m) = (view_peak(b), model_peak(b));
            let n = b.len().max(1);
            assert!(v <= 4 * n + (1 << 20), "{} {what}: view peak {v}", path.display());
            assert!(m <= 16 * n + (1 << 20), "{} {what}: model peak {m}", path.display());
        };
        for len in 0..bytes.len() {
            check(&bytes[..len], &format!("cut at {len}"));
        }
        for bit in 0..bytes.len().min(4096) * 8 {
            let mut b = bytes.clone();
            b[bit / 8] ^= 1 << (bit % 8);
            check(&b, &format!("bit {bit}"));
        }
    }
}
