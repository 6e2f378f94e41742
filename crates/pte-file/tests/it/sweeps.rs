//! Exhaustive corruption sweeps over every corpus file: every truncation
//! length and every single-bit flip in the first 4 KiB. Each input must give
//! a value or a typed error, never a panic; whatever reads must also verify,
//! re-serialize and read back to the same aggregate.

use std::path::Path;

use pte_file::PteFile;

fn corpus_files() -> Vec<(String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut out = vec![];
    for e in std::fs::read_dir(root).unwrap() {
        let dir = e.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(dir).unwrap() {
            let p = f.unwrap().path();
            let ext = p.extension().and_then(|x| x.to_str()).unwrap_or("");
            // each case decodes the whole file, so a sweep is quadratic in its
            // size: the 1.5 MB deep_program is damaged in tests/it/clean_file_pass.rs instead
            if matches!(ext, "pte" | "ptd" | "bpte" | "ptn") && std::fs::metadata(&p).unwrap().len() < 1 << 20 {
                out.push((p.display().to_string(), std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// Runs the fuzz-target bodies on one input; returns whether it read as a program.
fn exercise(bytes: &[u8]) -> bool {
    pte_fuzz_bodies::pte(bytes);
    pte_fuzz_bodies::ptd(bytes);
    pte_fuzz_bodies::headers(bytes);
    PteFile::from_bytes(bytes).is_ok()
}

#[test]
fn every_truncation_is_a_value_or_a_typed_error() {
    let (mut cases, mut read) = (0usize, 0usize);
    for (name, bytes) in corpus_files() {
        for n in 0..bytes.len() {
            cases += 1;
            if exercise(&bytes[..n]) {
                read += 1;
            }
        }
        assert!(exercise(&bytes) || !name.ends_with(".pte"), "{name} itself must read");
    }
    println!("truncation sweep: {cases} inputs, {read} still read");
    assert!(cases > 30_000);
}

#[test]
fn every_bit_flip_in_the_first_4k_is_a_value_or_a_typed_error() {
    let (mut cases, mut read) = (0usize, 0usize);
    for (_, bytes) in corpus_files() {
        let mut b = bytes.clone();
        for i in 0..bytes.len().min(4096) {
            for bit in 0..8 {
                b[i] ^= 1 << bit;
                cases += 1;
                if exercise(&b) {
                    read += 1;
                }
                b[i] ^= 1 << bit;
            }
        }
    }
    println!("bit-flip sweep: {cases} inputs, {read} still read");
    assert!(cases > 200_000);
}
