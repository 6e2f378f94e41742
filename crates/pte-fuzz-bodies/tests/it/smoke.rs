//! A seeded, deterministic smoke test of every fuzz body: each runs on a
//! valid seed that reaches its deepest branch (the rewrite, the comparison),
//! then on the same mutants every run. A body reports a broken invariant by
//! panicking, which fails the test; the sweeps beside this file run the same
//! bodies over many more inputs.

use pte_file::bpte::BundledFile;
use pte_file::PteFile;
use pte_ptn::PtnFile;
use pte_schema::{Limits, ProgramView};

/// Mutants of `seed` that are the same on every run: single-bit flips,
/// byte overwrites and truncations at positions a fixed xorshift picks.
fn mutants(seed: &[u8], n: usize) -> Vec<Vec<u8>> {
    let mut next = pte_testkit::xorshift(0x9E37_79B9_7F4A_7C15_u64 ^ seed.len() as u64);
    (0..n)
        .map(|i| {
            let mut m = seed.to_vec();
            let at = (next() as usize) % seed.len().max(1);
            match i % 3 {
                0 if !m.is_empty() => m[at] ^= 1 << (next() % 8),
                1 if !m.is_empty() => m[at] = next() as u8,
                _ => m.truncate(at),
            }
            m
        })
        .collect()
}

/// Runs `body` on the seed and its mutants.
fn smoke(seed: &[u8], body: fn(&[u8])) {
    body(seed);
    for m in mutants(seed, 300) {
        body(&m);
    }
}

/// [`smoke`] of a body whose deepest branch is a rewrite of what `reads`
/// accepts: the seed must be accepted.
fn smoke_read(seed: &[u8], reads: fn(&[u8]) -> bool, body: fn(&[u8])) {
    assert!(reads(seed), "the seed must reach the rewrite");
    smoke(seed, body);
}

/// The corpus package.
pub(super) fn ptn_seed() -> Vec<u8> {
    pte_testkit::corpus_bytes("native_ptn/model.ptn")
}

/// The corpus package's program.
pub(super) fn ptg_seed() -> Vec<u8> {
    PtnFile::from_bytes(&ptn_seed()).unwrap().program.to_vec()
}

#[test]
fn pte() {
    smoke_read(&pte_testkit::model_bytes("add"), |b| PteFile::from_bytes(b).is_ok(), pte_fuzz_bodies::pte);
}

#[test]
fn ptd() {
    let seed = pte_testkit::corpus_bytes("external/_default_external_constant.ptd");
    smoke_read(&seed, |b| pte_file::ptd::PtdFile::from_bytes(b).is_ok(), pte_fuzz_bodies::ptd);
}

#[test]
fn headers() {
    for seed in [pte_testkit::model_bytes("add"), pte_testkit::corpus_bytes("external/_default_external_constant.ptd")]
    {
        smoke(&seed, pte_fuzz_bodies::headers);
    }
}

#[test]
fn bpte() {
    let seed = pte_testkit::corpus_bytes("bundled/model.bpte");
    smoke_read(&seed, |b| BundledFile::from_bytes(b).is_ok(), pte_fuzz_bodies::bpte);
}

#[test]
fn xnnpack() {
    let file = pte_testkit::model_bytes("xnnpack_mlp");
    let seed = &file[1536..1536 + 1184];
    assert!(pte_schema::xnnpack::XnnPayload::new(seed, &Limits::default()).is_ok(), "the seed must be a payload");
    smoke(seed, pte_fuzz_bodies::xnnpack);
}

#[test]
fn native_payload() {
    smoke(&ptg_seed(), pte_fuzz_bodies::native_payload);
}

#[test]
fn ptn() {
    smoke(&ptn_seed(), pte_fuzz_bodies::ptn);
}

#[test]
fn native() {
    let seed = ptg_seed();
    assert!(pte_schema::native::decode_native_program(&seed, &Limits::default()).is_ok());
    smoke(&seed, pte_fuzz_bodies::native);
}

#[test]
fn safetensors() {
    let ptn = PtnFile::from_bytes(&ptn_seed()).unwrap().into_owned();
    let seed = pte_ptn::safetensors_to_bytes(&ptn.tensors, &Default::default()).unwrap();
    assert!(!ptn.tensors.is_empty(), "the seed must hold tensors to compare");
    smoke(&seed, pte_fuzz_bodies::safetensors);
}

#[test]
fn samples() {
    let bundle = pte_testkit::corpus_bytes("bundled/model.bpte");
    let bundle = BundledFile::from_bytes(&bundle).unwrap();
    let sets = pte_samples::bundled_sets(&bundle, None).unwrap();
    let enc = pte_samples::encode_set(&sets[0], &Default::default()).unwrap();
    let mut seed = (enc.index.len() as u32).to_le_bytes().to_vec();
    seed.extend_from_slice(&enc.index);
    seed.extend_from_slice(&enc.data);
    assert!(pte_samples::parse_set(&enc.index, &enc.data, None, &Default::default()).is_ok());
    smoke(&seed, pte_fuzz_bodies::samples);
}

#[test]
fn structured() {
    let seed: Vec<u8> = (0..=255u8).collect();
    assert!(pte_gen::generate_from(&mut arbitrary::Unstructured::new(&seed)).is_ok());
    pte_fuzz_bodies::structured(&[]);
    smoke(&seed, pte_fuzz_bodies::structured);
}

#[test]
fn differential() {
    for (case, seed) in pte_testkit::corpus_program_bytes().into_iter().filter(|(_, b)| b.len() < 1 << 20) {
        let both = pte_schema::decode_program(&seed, &Limits::default()).is_ok() && pte_oracle::decode(&seed).is_ok();
        assert!(both, "{case}: both decoders must accept the seed, or nothing is compared");
        pte_fuzz_bodies::differential(&seed);
    }
    smoke(&pte_testkit::model_bytes("linear"), pte_fuzz_bodies::differential);
}

#[test]
fn program_structure() {
    let seed = pte_testkit::model_bytes("linear");
    assert!(ProgramView::new(&seed, &Limits::default()).is_ok(), "the seed must pass");
    let refused = mutants(&seed, 300).iter().filter(|m| ProgramView::new(m, &Limits::default()).is_err()).count();
    assert!(refused > 0, "some mutants must reach the refusal's comparison");
    smoke(&seed, pte_fuzz_bodies::program_structure);
}
