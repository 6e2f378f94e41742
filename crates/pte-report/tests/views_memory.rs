//! Every read-only operation the `pte` commands run reads a program in
//! place: its peak heap stays under a fixed bound on a program whose
//! decoded model is far larger, in both constant forms (segment and the
//! legacy inline `constant_buffer`), and on the program-heavy corpus file.
//!
//! The generated programs have 200,000 values (a 7 MB file, a model of
//! about 35 MB decoded): large enough that holding the model breaks every
//! bound by several times, small enough that a debug build writes and reads
//! them in seconds (1,000,000 values, the hostile bench's size, take a
//! minute in a debug build and prove nothing more).
//!
//! A test binary of its own, apart from any `tests/it`: the counting
//! allocator is global to the process, so other tests running beside this
//! one would add their allocations to the peak it measures. For that reason
//! too, everything is measured in one test, one operation after another.

#![allow(clippy::unwrap_used, clippy::arithmetic_side_effects, clippy::indexing_slicing, missing_docs)]

use peak_alloc::PeakAlloc;
use pte_testkit::programs::{program_heavy, program_heavy_legacy_bytes, to_bytes};

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

/// A writer that only counts what it is given.
struct Counter(usize);

impl std::io::Write for Counter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Runs each read-only operation on `bytes`, asserting its peak heap is
/// under `bound` (the graph, which holds a node per instruction and a label
/// per value, what it prints, under `graph_bound`); returns the largest.
fn check(name: &str, bytes: &[u8], bound: usize, graph_bound: usize) -> usize {
    let mut worst = 0;
    let mut expect = |what: &str, peak: usize, bound: usize| {
        println!("{name}: {what}: peak {peak} bytes");
        assert!(peak < bound, "{name}: {what} took {peak} bytes of heap (bound {bound})");
        worst = worst.max(peak);
    };
    // pte verify (and the verdict line of pte info)
    let (report, peak) = peak_of(|| pte::verify(bytes, &[]).unwrap());
    assert!(report.is_ok(), "{name}: {:?}", report.violations.first());
    expect("verify", peak, bound);
    // pte info --json (--tensors), serialized as it is written
    for tensors in [false, true] {
        let options = pte::SummaryOptions { tensors, ..Default::default() };
        let (_, peak) = peak_of(|| {
            let summary = pte::Summary::read(bytes, &options).unwrap();
            serde_json::to_writer(&mut Counter(0), &summary).unwrap();
        });
        expect(&format!("summary (tensors {tensors})"), peak, bound);
    }
    // pte dump, and the program.json of pte extract
    let (_, peak) = peak_of(|| {
        let (_, region) = pte_file::verify::program_region(bytes).unwrap();
        let json = pte_schema::ProgramJson::new(region, &Default::default()).unwrap();
        json.write_pretty(&mut Counter(0)).unwrap();
    });
    expect("dump", peak, bound);
    // pte size
    let (_, peak) = peak_of(|| pte_file::size::size_report(bytes).unwrap());
    expect("size", peak, bound);
    // pte memory
    let (_, peak) = peak_of(|| pte_file::memory::MemoryPlan::from_bytes(bytes, &Default::default()).unwrap());
    expect("memory", peak, bound);
    // pte ops
    let (_, peak) = peak_of(|| pte_file::operators::of_program(bytes).unwrap());
    expect("ops", peak, bound);
    // pte extract's walk of the stored blobs
    let (_, peak) = peak_of(|| {
        let blobs = pte_file::pack::PteBlobs::new(bytes).unwrap();
        blobs.entries().unwrap().map(|(_, b)| b.len()).sum::<usize>()
    });
    expect("extract walk", peak, bound);
    // pte graph
    let (_, peak) = peak_of(|| {
        let view = pte_file::view::PteView::read(bytes, Default::default()).unwrap();
        pte_report::graph::of_plan_view(&view.program().plan(0).unwrap()).nodes.len()
    });
    expect("graph", peak, graph_bound);
    worst
}

#[test]
fn read_only_operations_hold_no_model() {
    let n = 200_000;
    let files = [
        ("segment constants", to_bytes(&program_heavy(n))),
        ("legacy inline constants", program_heavy_legacy_bytes(n)),
    ];
    for (name, bytes) in &files {
        // what decoding the model costs: what none of the operations may pay
        let (decoded, model) = peak_of(|| pte_file::PteFile::from_bytes(bytes).map(|p| p.program.plans().len()));
        assert_eq!(decoded.unwrap(), 1);
        println!("{name}: {} bytes, decoded model {model} bytes", bytes.len());
        assert!(model > 24 * MIB, "{name}: the model takes only {model} bytes: the bounds below prove nothing");
        // the graph holds two nodes and an edge or two per kernel call, and
        // a label per tensor value: about 100 bytes a value here
        let worst = check(name, bytes, 4 * MIB, 32 * MIB);
        assert!(worst * 4 < model * 3, "{name}: {worst} bytes of heap against a model of {model}");
    }
    let deep = pte_testkit::corpus_bytes("deep_program/model.pte");
    let (_, model) = peak_of(|| pte_file::PteFile::from_bytes(&deep).unwrap().program.plans().len());
    println!("deep_program: {} bytes, decoded model {model} bytes", deep.len());
    check("deep_program", &deep, MIB, 4 * MIB);
}
