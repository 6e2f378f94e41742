//! Exhaustive sweeps over the corpus package and the packages we build: every
//! truncation and every single-bit flip in the first 4 KiB go through the fuzz
//! bodies, which must return (a value or a typed error), never panic.

use super::smoke::{ptg_seed, ptn_seed};

fn sweep(bytes: &[u8], body: fn(&[u8])) {
    for len in 0..bytes.len() {
        body(&bytes[..len]);
    }
    let mut b = bytes.to_vec();
    for bit in 0..bytes.len().min(4096) * 8 {
        b[bit / 8] ^= 1 << (bit % 8);
        body(&b);
        b[bit / 8] ^= 1 << (bit % 8);
    }
}

#[test]
fn every_truncation_and_bit_flip_of_the_corpus_package() {
    sweep(&ptn_seed(), pte_fuzz_bodies::ptn);
}

#[test]
fn every_truncation_and_bit_flip_of_its_program() {
    sweep(&ptg_seed(), pte_fuzz_bodies::native);
}

#[test]
fn the_fuzz_body_round_trips_a_valid_package() {
    // the body's own invariant check runs on the real file (and would panic on drift)
    pte_fuzz_bodies::ptn(&ptn_seed());
    let ptn = pte_ptn::PtnFile::from_bytes(&ptn_seed()).unwrap().into_owned();
    assert_eq!(pte_ptn::PtnFile::from_bytes(&ptn.to_bytes().unwrap()).unwrap(), ptn);
}

#[test]
fn safetensors_readers_agree_on_every_mutation_of_the_corpus_constants() {
    let bytes = ptn_seed();
    let ptn = pte_ptn::PtnFile::from_bytes(&bytes).unwrap();
    let blob = pte_ptn::safetensors_to_bytes(&ptn.tensors, &Default::default()).unwrap();
    pte_fuzz_bodies::safetensors(&blob);
    for len in 0..blob.len().min(2048) {
        pte_fuzz_bodies::safetensors(&blob[..len]);
    }
    for i in 0..blob.len().min(4096) {
        for bit in 0..8 {
            let mut m = blob.clone();
            m[i] ^= 1 << bit;
            pte_fuzz_bodies::safetensors(&m);
        }
    }
}
