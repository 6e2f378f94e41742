//! A few thousand seeded mutations and cross-overs over the corpus of every
//! format: deterministic, within the size limit, actually changing things,
//! and reaching every strategy.

use std::collections::BTreeMap;

use sha2::{Digest, Sha256};

use pte_fuzz::{cross_over, mutate, mutate_explained, Strategy};

fn corpus() -> Vec<(String, Vec<u8>)> {
    let mut out = vec![];
    for dir in ["add", "linear", "multi_method", "mutable_buffer", "xnnpack_mlp", "external", "bundled", "native_ptn"] {
        for entry in std::fs::read_dir(pte_testkit::corpus(dir)).unwrap() {
            let path = entry.unwrap().path();
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
            if ["pte", "ptd", "bpte", "ptn"].contains(&ext) {
                out.push((format!("{dir}.{ext}"), std::fs::read(&path).unwrap()));
            }
        }
    }
    out.sort();
    out.push(("generated.pte".into(), pte_gen::generate(5).unwrap().to_bytes().unwrap()));
    out.push(("text".into(), b"no format at all".to_vec()));
    out.push(("empty".into(), vec![]));
    out
}

/// Runs `n` mutations per input; returns the hash of every output, the
/// strategies used per input kind, and how many outputs equal their input.
fn run(n: u64) -> (String, BTreeMap<(String, Strategy), usize>, usize, usize) {
    let mut hash = Sha256::new();
    let mut used = BTreeMap::new();
    let (mut same, mut total) = (0, 0);
    for (name, bytes) in corpus() {
        let ext = name.rsplit('.').next().unwrap().to_string();
        for seed in 0..n {
            let max = if seed % 5 == 0 { bytes.len() } else { bytes.len() * 2 + 64 };
            let (out, how) = mutate_explained(&bytes, max, seed);
            assert!(out.len() <= max, "{name} seed {seed}: {} > {max}", out.len());
            assert_eq!(out, mutate(&bytes, max, seed));
            *used.entry((ext.clone(), how)).or_insert(0) += 1;
            if max > 0 {
                // An empty limit leaves nothing to change.
                same += usize::from(out == bytes);
                total += 1;
            }
            hash.update(&out);
        }
    }
    (format!("{:x}", hash.finalize()), used, same, total)
}

#[test]
fn mutations_are_deterministic_bounded_and_reach_every_strategy() {
    let (h1, used, same, total) = run(200);
    let (h2, _, _, _) = run(200);
    assert_eq!(h1, h2, "same seeds, different outputs");
    assert!(total > 2000, "{total}");
    // A generated program can equal its input only by chance; nothing else may.
    assert!(same * 100 < total, "{same} of {total} outputs equal their input");
    for (ext, how) in [
        ("pte", Strategy::Catalogue),
        ("pte", Strategy::Field),
        ("pte", Strategy::Segments),
        ("pte", Strategy::Flatbuffer),
        ("pte", Strategy::Generated),
        ("pte", Strategy::Bytes),
        ("ptd", Strategy::Catalogue),
        ("ptd", Strategy::Flatbuffer),
        ("bpte", Strategy::Field),
        ("ptn", Strategy::Member),
        ("ptn", Strategy::Catalogue),
    ] {
        assert!(used.contains_key(&(ext.to_string(), how)), "{ext} never got {how:?}: {used:?}");
    }
    eprintln!("{used:?}");
}

#[test]
fn zero_and_tiny_limits_are_honoured() {
    let program = pte_gen::generate(9).unwrap().to_bytes().unwrap();
    for seed in 0..200 {
        for max in [0, 1, 7, 64] {
            assert!(mutate(&program[..max.min(program.len())], max, seed).len() <= max);
            assert!(cross_over(&program, &program, max, seed).len() <= max);
        }
    }
}

#[test]
fn cross_overs_are_deterministic_bounded_and_mix_their_parents() {
    let files = corpus();
    let mut hash = Sha256::new();
    let mut new = 0;
    let mut total = 0;
    for (i, (_, a)) in files.iter().enumerate() {
        for (_, b) in files.iter().skip(i) {
            for seed in 0..12 {
                let max = a.len().max(b.len()) + 128;
                let child = cross_over(a, b, max, seed);
                assert!(child.len() <= max);
                assert_eq!(child, cross_over(a, b, max, seed));
                new += usize::from(&child != a && &child != b);
                total += 1;
                hash.update(&child);
            }
        }
    }
    assert!(new * 2 > total, "only {new} of {total} children differ from both parents");
    let _ = format!("{:x}", hash.finalize());
}

#[test]
fn structure_aware_pte_mutants_mostly_still_read() {
    // Field and segment edits go through the writer: the flatbuffer stays
    // well formed, which is what takes a parser past its first checks.
    let program = std::fs::read(pte_testkit::corpus("multi_method/model.pte")).unwrap();
    let (mut field, mut reads) = (0, 0);
    for seed in 0..400 {
        let (out, how) = mutate_explained(&program, 1 << 20, seed);
        if how == Strategy::Field {
            field += 1;
            reads += usize::from(pte_file::PteFile::from_bytes(&out).is_ok());
        }
    }
    assert!(field > 50, "{field}");
    assert!(reads * 2 > field, "{reads} of {field} field mutants read");
}

#[cfg(feature = "c-entry-points")]
#[test]
#[allow(unsafe_code)]
fn c_entry_points_write_within_the_buffer() {
    let program = pte_gen::generate(3).unwrap().to_bytes().unwrap();
    for seed in 0..300u32 {
        // A guard region after MaxSize must stay untouched.
        let max = program.len() + (seed as usize % 3) * 16;
        let mut buf = vec![0xEEu8; max + 64];
        buf[..program.len()].copy_from_slice(&program);
        let n = unsafe { pte_fuzz::LLVMFuzzerCustomMutator(buf.as_mut_ptr(), program.len(), max, seed) };
        assert!(n <= max);
        assert!(buf[max..].iter().all(|&b| b == 0xEE));
        assert_eq!(&buf[..n], mutate(&program, max, u64::from(seed)).as_slice());

        let mut out = vec![0xEEu8; 100 + 64];
        let n = unsafe {
            pte_fuzz::LLVMFuzzerCustomCrossOver(
                program.as_ptr(),
                program.len(),
                buf.as_ptr(),
                max,
                out.as_mut_ptr(),
                100,
                seed,
            )
        };
        assert!(n <= 100);
        assert!(out[100..].iter().all(|&b| b == 0xEE));
    }
}
