//! In-process median time and peak heap of `pte verify`'s library call
//! (`verify::verify_bytes` over a memory map, the open included), for the
//! program-heavy rows of docs/performance.md: `time_verify FILE [RUNS] [full]`
//! (`full`: `verify_bytes_full`, the decoded-model pass the quick pass
//! replaced; `structure`: only the program flatbuffer's structural
//! verification, `ProgramView::new` on the program region). Prints
//! `verify_s=… min_s=… peak_heap_bytes=… program_bytes=…` (median and fastest run).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, missing_docs)]

use std::time::Instant;

use peak_alloc::PeakAlloc;

#[global_allocator]
static ALLOC: PeakAlloc = PeakAlloc;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).expect("FILE");
    let runs: usize = args.get(2).map_or(21, |s| s.parse().unwrap());
    let mode = args.get(3).map_or("quick", String::as_str);
    let mut ts = Vec::with_capacity(runs);
    let mut peak = 0;
    let mut program = 0;
    for _ in 0..runs {
        let base = ALLOC.current_usage();
        ALLOC.reset_peak_usage();
        let t = Instant::now();
        let map = pte_file::MappedFile::open(path).unwrap();
        let report = match mode {
            "full" => pte_verify::verify_bytes_full(map.bytes(), &Default::default()),
            "structure" => {
                let (_, region) = pte_file::program_region(map.bytes()).unwrap();
                let view = pte_schema::ProgramView::new(region, &Default::default());
                assert!(view.is_ok());
                pte_verify::Report::default()
            }
            _ => pte_verify::verify_bytes(map.bytes(), &Default::default()),
        };
        ts.push(t.elapsed().as_secs_f64());
        assert!(report.is_ok(), "{:?}", report.violations.first());
        peak = peak.max(ALLOC.peak_usage().saturating_sub(base));
        program = pte_file::program_region(map.bytes()).map_or(0, |(_, r)| r.len());
    }
    ts.sort_by(f64::total_cmp);
    println!("verify_s={:.6} min_s={:.6} peak_heap_bytes={peak} program_bytes={program}", ts[ts.len() / 2], ts[0]);
}
