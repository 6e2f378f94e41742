//! The regression files that reach the flatbuffer code (`.pte`, `.bpte`,
//! `.ptd`), plus one valid program, through pte-file's fuzz bodies.
//!
//! Small on purpose: `scripts/fuzz/miri.sh` runs this file under Miri, where
//! `pte-schema`'s fenced `unsafe` (the flatc-generated accessors, the
//! unchecked root and the aligned vector writer) meets hostile bytes. The full replay over every kind, with
//! the "must be refused" check, is `tests/it/regressions.rs`.

use std::path::PathBuf;

fn flatbuffer_regressions() -> Vec<PathBuf> {
    let flatbuffer =
        |p: &PathBuf| p.extension().and_then(|x| x.to_str()).is_some_and(|k| matches!(k, "pte" | "bpte" | "ptd"));
    pte_testkit::regressions().into_iter().filter(flatbuffer).collect()
}

fn replay(bytes: &[u8]) {
    pte_fuzz_bodies::pte(bytes);
    pte_fuzz_bodies::ptd(bytes);
    pte_fuzz_bodies::headers(bytes);
    pte_fuzz_bodies::bpte(bytes);
}

#[test]
fn flatbuffer_regressions_are_refused_without_undefined_behaviour() {
    let files = flatbuffer_regressions();
    assert!(files.len() >= 7, "expected the seeded .pte/.bpte regressions, found {}", files.len());
    for f in files {
        let bytes = std::fs::read(&f).unwrap();
        replay(&bytes);
        let refused = match bytes.get(4..8) {
            Some(b"ET12") => {
                pte_file::PteFile::from_bytes(&bytes).is_err()
                    || !pte_verify::verify_bytes(&bytes, &Default::default()).is_ok()
            }
            Some(b"BP08") => {
                pte_file::bpte::BundledFile::from_bytes(&bytes).is_err()
                    || !pte_verify::verify_bpte_bytes(&bytes, &Default::default()).is_ok()
            }
            Some(b"FT01") => pte_file::ptd::PtdFile::from_bytes(&bytes).is_err(),
            other => panic!("{}: no flatbuffer identifier ({other:?})", f.display()),
        };
        assert!(refused, "{} was accepted", f.display());
    }
}

/// A valid program takes the other branch of the `pte` body: write it back
/// (the aligned writer) and read it again.
#[test]
fn a_valid_program_round_trips_through_the_pte_body() {
    let bytes = pte_testkit::model_bytes("add");
    assert!(pte_verify::verify_bytes(&bytes, &Default::default()).is_ok());
    replay(&bytes);
}
