//! In-process median time of open (mmap) + parse + full verify, for
//! comparisons with in-process loaders: `time_read FILE [RUNS]`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, missing_docs)]

use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).expect("FILE");
    let runs: usize = args.get(2).map_or(21, |s| s.parse().unwrap());
    let mut ts = vec![];
    for _ in 0..runs {
        let t = Instant::now();
        let map = pte_file::MappedFile::open(path).unwrap();
        let pte = pte_file::PteFile::from_bytes(map.bytes()).unwrap();
        assert!(pte_verify::verify_program(&pte.program, map.bytes()).is_ok());
        ts.push(t.elapsed().as_secs_f64());
    }
    ts.sort_by(f64::total_cmp);
    println!("{:.6}", ts[ts.len() / 2]);
}
