//! Exhaustive corruption sweeps over every corpus file through pte-file's
//! fuzz bodies (`pte`, `ptd`, `headers`): every truncation length and every
//! single-bit flip in the first 4 KiB. Each input must give a value or a
//! typed error, never a panic; whatever reads must also verify,
//! re-serialize and read back to the same aggregate.

use pte_file::PteFile;

fn corpus_files() -> Vec<(String, Vec<u8>)> {
    pte_testkit::corpus_files(&["pte", "ptd", "bpte", "ptn"])
        .into_iter()
        // each case decodes the whole file, so a sweep is quadratic in its
        // size: the 1.5 MB deep_program is damaged in pte-file's
        // tests/it/clean_file_pass.rs instead
        .filter(|p| std::fs::metadata(p).unwrap().len() < 1 << 20)
        .map(|p| (p.display().to_string(), std::fs::read(&p).unwrap()))
        .collect()
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

/// The bundle body on every truncation of the corpus bundle and a bit flip
/// in each of its first 4 KiB (pte-file's `bpte` tests check what reads
/// round-trips).
#[test]
fn bpte_truncations_and_bit_flips_never_panic() {
    let bytes = pte_testkit::corpus_bytes("bundled/model.bpte");
    for len in 0..bytes.len() {
        pte_fuzz_bodies::bpte(&bytes[..len]);
    }
    for i in 0..bytes.len().min(4096) {
        let mut m = bytes.clone();
        m[i] ^= 1 << (i % 8);
        pte_fuzz_bodies::bpte(&m);
    }
}

/// The payload of the first delegate of a corpus program.
fn payload(case: &str) -> Vec<u8> {
    let b = pte_testkit::model_bytes(case);
    let pte = PteFile::from_bytes(&b).unwrap();
    pte_analysis::delegate_payload::payloads(&pte.program, &b)[0].bytes.to_vec()
}

#[test]
fn fuzz_bodies_survive_every_truncation_and_bit_flip_of_the_corpus_payloads() {
    use pte_analysis::delegate_payload::{NativeReader, PayloadReader};
    for case in ["xnnpack_mlp", "inline_delegate"] {
        let p = payload(case);
        for len in 0..=p.len() {
            pte_fuzz_bodies::xnnpack(&p[..len]);
        }
        for bit in 0..p.len() * 8 {
            let mut m = p.clone();
            m[bit / 8] ^= 1 << (bit % 8);
            pte_fuzz_bodies::xnnpack(&m);
            pte_fuzz_bodies::native_payload(&m);
        }
    }
    let ptn = pte_testkit::corpus_bytes("native_ptn/model.ptn");
    let ptg = pte_ptn::PtnFile::from_bytes(&ptn).unwrap().program.to_vec();
    let c = NativeReader.check(&ptg, &Default::default());
    assert!(c.issues.is_empty(), "{:?}", c.issues);
    for len in 0..=ptg.len() {
        pte_fuzz_bodies::native_payload(&ptg[..len]);
    }
}
