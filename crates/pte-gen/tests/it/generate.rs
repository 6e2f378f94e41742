//! `pte_gen::generate`: every seed gives a program that passes the verifier
//! with no warning, reads back as written and rewrites to the same bytes
//! (the `structured` fuzz body, run by pte-fuzz-bodies' tests), and the corners the generator promises are
//! reached across a few hundred seeds.

use std::collections::BTreeSet;

use pte_file::PteFile;
use pte_schema::{DataLocation, KernelTypes};

#[test]
fn seeds_verify_and_round_trip() {
    for seed in 0..300 {
        let g = pte_gen::generate(seed).unwrap();
        let bytes = g.to_bytes().unwrap();
        assert_eq!(PteFile::from_bytes(&bytes).unwrap(), g.file, "seed {seed} does not read back as built");
        let report = pte_verify::verify_bytes(&bytes, &Default::default());
        assert!(report.is_ok() && report.warnings.is_empty(), "seed {seed}: {report:?}");
        assert_eq!(bytes, pte_gen::generate(seed).unwrap().to_bytes().unwrap(), "seed {seed} is not deterministic");
    }
}

#[test]
fn corners_are_reached() {
    let mut values = BTreeSet::new();
    let mut instructions = BTreeSet::new();
    let mut dtypes = BTreeSet::new();
    let (mut rank16, mut scalar, mut zero_numel, mut shared_const, mut shared_named) = (0, 0, 0, 0, 0);
    let (mut inline_delegate, mut segment_delegate, mut multi_method, mut extra_mutable, mut mutable_data) =
        (0, 0, 0, 0, 0);
    let mut alignments = BTreeSet::new();
    for seed in 0..300 {
        let g = pte_gen::generate(seed).unwrap();
        let bytes = g.to_bytes().unwrap();
        let f = PteFile::from_bytes(&bytes).unwrap();
        alignments.insert(g.options.segment_alignment());
        let plans = f.program.plans();
        multi_method += usize::from(plans.len() > 1);
        let mut const_idx = vec![];
        for p in plans {
            for v in p.value_list() {
                let Some(k) = &v.val else { continue };
                values.insert(k.type_name());
                if let KernelTypes::Tensor(t) = k {
                    dtypes.insert(t.scalar_type.0);
                    let rank = t.sizes.as_ref().map_or(0, Vec::len);
                    rank16 += usize::from(rank == 16);
                    scalar += usize::from(rank == 0);
                    zero_numel += usize::from(t.numel() == Some(0));
                    if t.allocation_info.is_none() && t.data_buffer_idx > 0 {
                        const_idx.push(t.data_buffer_idx);
                    }
                    mutable_data += usize::from(t.allocation_info.is_some() && t.data_buffer_idx > 0);
                }
            }
            for c in p.chains.iter().flatten() {
                for i in c.instructions.iter().flatten() {
                    if let Some(a) = &i.instr_args {
                        instructions.insert(a.type_name());
                    }
                }
            }
            for d in p.delegates.iter().flatten() {
                match d.processed.as_ref().map(|r| r.location) {
                    Some(DataLocation::INLINE) => inline_delegate += 1,
                    Some(DataLocation::SEGMENT) => segment_delegate += 1,
                    _ => {}
                }
            }
        }
        let n = const_idx.len();
        const_idx.sort_unstable();
        const_idx.dedup();
        shared_const += usize::from(const_idx.len() < n);
        let named = f.program.named_data.as_deref().unwrap_or(&[]);
        let segs: BTreeSet<u32> = named.iter().map(|n| n.segment_index).collect();
        shared_named += usize::from(segs.len() < named.len());
        extra_mutable += usize::from(f.program.mutable_data_segments.as_ref().is_some_and(|m| m.len() > 1));
    }
    assert_eq!(values.len(), 11, "value kinds reached: {values:?}");
    assert_eq!(instructions.len(), 5, "instruction kinds reached: {instructions:?}");
    assert_eq!(dtypes, (0..30).collect(), "every dtype with a byte size");
    assert!(alignments.contains(&3) && alignments.contains(&65536), "{alignments:?}");
    for (what, n) in [
        ("rank-16 tensors", rank16),
        ("scalar tensors", scalar),
        ("zero-element tensors", zero_numel),
        ("programs sharing a constant", shared_const),
        ("programs sharing named data", shared_named),
        ("inline delegates", inline_delegate),
        ("segment delegates", segment_delegate),
        ("programs with several methods", multi_method),
        ("programs with several mutable segments", extra_mutable),
        ("tensors with mutable initial data", mutable_data),
    ] {
        assert!(n > 0, "no {what} in 300 seeds");
    }
}

/// Found by the `structured` campaign: bytes that drew every dimension of a
/// rank-16 tensor large asked for a 4 GiB constant (libFuzzer: out of memory
/// under -malloc_limit_mb=64). Tensors are now capped at 2^14 elements.
#[test]
fn rank_sixteen_tensors_stay_small() {
    let data = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/structured-oom-rank16.bin")).unwrap();
    let g = pte_gen::generate_from(&mut arbitrary::Unstructured::new(&data)).unwrap();
    let largest = g.file.constants().unwrap().iter().map(|c| c.bytes.len()).max().unwrap_or(0);
    assert!(largest <= (1 << 14) * 16, "a {largest}-byte constant");
}
