//! The `structured` body (bytes driving `pte_gen::generate_from`) on any
//! bytes, and on the input of the campaign's out-of-memory find.

#[test]
fn structured_body_accepts_any_bytes() {
    let mut rng = pte_gen::Rng::new(11);
    pte_fuzz_bodies::structured(&[]);
    pte_fuzz_bodies::structured(&[0xFF; 64]);
    for len in [1usize, 7, 64, 512, 4096] {
        for _ in 0..40 {
            let data: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
            pte_fuzz_bodies::structured(&data);
        }
    }
}

/// Found by the `structured` campaign: bytes that drew every dimension of a
/// rank-16 tensor large asked for a 4 GiB constant (pte-gen's
/// `rank_sixteen_tensors_stay_small` checks the cap); the body takes it.
#[test]
fn the_rank_sixteen_find_passes_the_body() {
    let data = pte_testkit::repo_root().join("crates/pte-gen/tests/data/structured-oom-rank16.bin");
    pte_fuzz_bodies::structured(&std::fs::read(data).unwrap());
}
