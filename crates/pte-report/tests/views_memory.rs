//! Every read-only operation the `pte` commands run reads a program in
//! place: its peak heap stays under a fixed bound on a program whose
//! decoded model is far larger, in both constant forms (segment and the
//! legacy inline `constant_buffer`), and on the program-heavy corpus file.
//!
//! The generated programs have 1,000,000 values, as the hostile bench's
//! (an 88 and a 94 MB file, a model of about 180 MB decoded): the workspace
//! builds its tests optimized, so they are written and read in seconds.
//!
//! A test binary of its own, apart from any `tests/it`: the counting
//! allocator is global to the process, so other tests running beside this
//! one would add their allocations to the peak it measures. For that reason
//! too, everything is measured in one test, one operation after another.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::arithmetic_side_effects,
    clippy::indexing_slicing,
    missing_docs
)]

use peak_alloc::PeakAlloc;
use pte_file::test_programs::{program_heavy, program_heavy_legacy_bytes, to_bytes};
use pte_testkit::ByteCounter;

#[global_allocator]
static ALLOC: PeakAlloc = PeakAlloc;

const MIB: usize = 1 << 20;

/// The peak heap `f` takes above what was held before it.
fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    ALLOC.reset_peak_usage();
    let before = ALLOC.current_usage();
    let out = f();
    (out, ALLOC.peak_usage().saturating_sub(before))
}

/// Runs each read-only operation on `bytes`. Those that hold nothing per
/// element (verify, summary, dump, memory plan, operators) stay under
/// `in_place` (a diff, two programs, twice that); the summary with its
/// tensor table under `tensors`. The size report and the graph hold what
/// they print, a part or a node and edge per element: they stay under a
/// fixed cost per element they return. Returns the largest peak of the
/// first group.
fn check(name: &str, (bytes, changed): (&[u8], &[u8]), in_place: usize, tensors: usize) -> usize {
    let mut worst = 0;
    let expect = |what: &str, peak: usize, bound: usize| {
        println!("{name}: {what}: peak {peak} bytes (bound {bound})");
        assert!(peak < bound, "{name}: {what} took {peak} bytes of heap (bound {bound})");
    };
    // pte verify (and the verdict line of pte info)
    let (report, peak) = peak_of(|| pte::verify(bytes, &[]).unwrap());
    assert!(report.is_ok(), "{name}: {:?}", report.violations.first());
    expect("verify", peak, in_place);
    worst = worst.max(peak);
    // pte info --json (--tensors), serialized as it is written
    for with_tensors in [false, true] {
        let options = pte::SummaryOptions { tensors: with_tensors, ..Default::default() };
        let (_, peak) = peak_of(|| {
            let summary = pte::Summary::read(bytes, &options).unwrap();
            serde_json::to_writer(&mut ByteCounter(0), &summary).unwrap();
        });
        expect(&format!("summary (tensors {with_tensors})"), peak, if with_tensors { tensors } else { in_place });
        if !with_tensors {
            worst = worst.max(peak);
        }
    }
    // pte dump, and the program.json of pte extract
    let (_, peak) = peak_of(|| {
        let (_, region) = pte_file::program_region(bytes).unwrap();
        let json = pte_schema::ProgramJson::new(region, &Default::default()).unwrap();
        json.write_pretty(&mut ByteCounter(0)).unwrap();
    });
    expect("dump", peak, in_place);
    worst = worst.max(peak);
    // pte memory
    let (_, peak) = peak_of(|| pte_analysis::memory::MemoryPlan::from_bytes(bytes, &Default::default()).unwrap());
    expect("memory", peak, in_place);
    worst = worst.max(peak);
    // pte ops
    let (_, peak) = peak_of(|| pte_analysis::operators::of_program(bytes).unwrap());
    expect("ops", peak, in_place);
    worst = worst.max(peak);
    // pte size: a part per stored blob, its name a shared pattern and
    // numbers (about 180 bytes each here)
    let (parts, peak) = peak_of(|| pte_analysis::size::pte_size_report(bytes).unwrap().parts.len());
    expect(&format!("size ({parts} parts)"), peak, in_place.max(parts * 256));
    // pte graph: a node per instruction and stored tensor, an edge per
    // tensor flowing, each with its label (about 90 bytes each here; the
    // decoded model would add some 50 more)
    let (elements, peak) = peak_of(|| {
        let view = pte_file::view::PteView::read(bytes, Default::default()).unwrap();
        let g = pte_report::graph::of_plan_view(&view.program().plan(0).unwrap());
        g.nodes.len() + g.edges.len()
    });
    expect(&format!("graph ({elements} nodes and edges)"), peak, in_place.max(elements * 128));
    // pte diff against a copy with one stored value changed: one difference
    let (found, peak) = peak_of(|| pte_diff::diff_bytes(bytes, changed, &Default::default()).unwrap());
    assert!(!found.is_equal(), "{name}: the copy differs");
    // two programs, each read in place
    expect(&format!("diff ({} differences)", found.differences.len()), peak, 2 * in_place);
    worst = worst.max(peak);
    // pte extract's walk: every blob with its entry, the tensor naming it
    // found through an index of a few bytes per constant
    let (blobs, peak) = peak_of(|| {
        let b = pte_pack::PteBlobs::new(bytes).unwrap();
        b.entries().unwrap().filter(|(e, data)| e.size == data.len() as u64).count()
    });
    expect(&format!("extract walk ({blobs} blobs)"), peak, in_place);
    worst = worst.max(peak);
    worst
}

/// `bytes` with the first inline 16-byte constant of one repeated byte
/// value changed (the legacy program's constants are such vectors).
fn one_inline_constant_changed(bytes: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    let at = out
        .windows(20)
        .position(|w| w[..4] == [16, 0, 0, 0] && w[4..].iter().all(|&x| x == w[4] && x > 9))
        .expect("an inline constant");
    out[at + 9] ^= 1;
    out
}

#[test]
fn read_only_operations_hold_no_model() {
    let n = 1_000_000;
    let mut changed = program_heavy(n);
    changed.constants[n / 4] = vec![7u8; 16].into();
    let legacy = program_heavy_legacy_bytes(n);
    let files = [
        ("segment constants", to_bytes(&program_heavy(n)), to_bytes(&changed)),
        ("legacy inline constants", one_inline_constant_changed(&legacy), legacy),
    ];
    drop(changed);
    for (name, bytes, other) in &files {
        // what decoding the model costs: what none of the operations may pay
        let (decoded, model) = peak_of(|| pte_file::PteFile::from_bytes(bytes).map(|p| p.program.plans().len()));
        assert_eq!(decoded.unwrap(), 1);
        println!("{name}: {} bytes, decoded model {model} bytes", bytes.len());
        assert!(model > 128 * MIB, "{name}: the model takes only {model} bytes: the bounds below prove nothing");
        // about 8 bytes a value in place; 16 more a tensor for the table
        let worst = check(name, (bytes, other), 16 * MIB, 32 * MIB);
        assert!(worst * 8 < model, "{name}: {worst} bytes of heap against a model of {model}");
    }
    let deep = pte_testkit::corpus_bytes("deep_program/model.pte");
    let (_, model) = peak_of(|| pte_file::PteFile::from_bytes(&deep).unwrap().program.plans().len());
    println!("deep_program: {} bytes, decoded model {model} bytes", deep.len());
    // its model is small (2.8 MB): what is held here is what is printed
    // (the memory plan's row per planned tensor, the summary's table)
    let mut other = deep.clone();
    let last = other.len() - 1;
    other[last] ^= 1;
    check("deep_program", (&deep, &other), 4 * MIB, 8 * MIB);
}
