#![no_main]
// The structural verifier the readers use and the reference path (the
// flatbuffers verifier and the offset rules) must give the same verdict and,
// on a refusal, the same error, under default and tight limits.
use pte_schema::{verify_program_reference, Limits, ProgramView};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let tight =
        Limits { max_tables: Some(64), max_apparent_size: 4096, apparent_size_factor: usize::MAX, max_depth: 4, ..Limits::default() };
    for limits in [Limits::default(), tight] {
        let fast = ProgramView::new(data, &limits).map(drop).map_err(|e| e.to_string());
        let reference = verify_program_reference(data, &limits).map_err(|e| e.to_string());
        assert_eq!(fast, reference, "the structural verifier and the reference disagree");
    }
});
