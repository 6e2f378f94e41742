//! Replays `tests/regressions/<class>/*`: every file through every fuzz body
//! (no panic), and the reader or the verifier of its kind must refuse it.

fn refused(bytes: &[u8]) -> bool {
    match bytes.get(4..8) {
        Some(b"ET12") => {
            pte_file::PteFile::from_bytes(bytes).is_err()
                || !pte_verify::verify_bytes(bytes, &Default::default()).is_ok()
        }
        Some(b"BP08") => {
            pte_file::bpte::BundledFile::from_bytes(bytes).is_err()
                || !pte_verify::verify_bpte_bytes(bytes, &Default::default()).is_ok()
        }
        Some(b"FT01") => pte_file::ptd::PtdFile::from_bytes(bytes).is_err(),
        _ if bytes.starts_with(b"PK") => match pte_ptn::PtnFile::from_bytes(bytes) {
            Err(_) => true,
            Ok(p) => pte_samples::read_samples(&p).is_err() && !pte_samples::check_sidecar(&p).is_empty(),
        },
        _ => panic!("unrecognised regression file kind"),
    }
}

#[test]
fn every_regression_file_is_an_error_and_never_a_panic() {
    // every class holds files (the kit checks), or the replay tests nothing
    let files = pte_testkit::regression_inputs();
    for (name, bytes) in &files {
        pte_fuzz_bodies::pte(bytes);
        pte_fuzz_bodies::ptd(bytes);
        pte_fuzz_bodies::headers(bytes);
        pte_fuzz_bodies::bpte(bytes);
        pte_fuzz_bodies::ptn(bytes);
        pte_fuzz_bodies::native(bytes);
        pte_fuzz_bodies::samples(bytes);
        assert!(refused(bytes), "{name} was accepted");
    }
    assert!(files.len() >= 8);
}
