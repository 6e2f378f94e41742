//! Writes the resource-hostile inputs `scripts/bench/hostile-bench.sh` measures:
//! `cargo run --release -p pte-gen --example hostile -- OUT_DIR`
//!
//! * `member-3gib.ptn`: `program.safetensors` deflated, inflating to 3 GiB (about 3 MB);
//! * `member-3gib-lying.ptn`: the same stream, headers claiming 1 KiB;
//! * `member-100mb.ptn`: `program.safetensors` deflated, honestly declaring
//!   the 96 MiB it inflates to (about 100 KB): under the old 256 MiB bound;
//! * `index-1gib.ptn`: a samples `index.json` inflating to 1 GiB (about 1 MB);
//! * `members-65536.ptn`: 65,536 members (the default limit);
//! * `segments-1m.pte`: 1,000,000 segment entries sharing one range (about 28 MB);
//! * `cases-300k.bpte`: the corpus bundle's first test case 300,000 times (about 60 MB).
//! * `values-1m.pte`: a program of 1,000,000 values and as many kernel calls,
//!   its 500,000 constants in the constant segment (about 88 MB);
//! * `values-1m-legacy.pte`: the same program with its constants inline in the
//!   deprecated `constant_buffer`, no segment (about 94 MB).

#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::path::PathBuf;

use pte_file::test_programs::{program_heavy, program_heavy_legacy_bytes, to_bytes};
use pte_gen::hostile::{pte_shared_segments, ptn_many_members, ptn_with_members, Payload};

const GIB: u64 = 1 << 30;

fn main() {
    let out = PathBuf::from(std::env::args().nth(1).expect("usage: hostile OUT_DIR"));
    std::fs::create_dir_all(&out).unwrap();
    let ptn = pte_testkit::corpus_bytes("native_ptn/model.ptn");
    let pte = pte_testkit::corpus_bytes("linear/model.pte");
    let bundle = pte_testkit::corpus_bytes("bundled/model.bpte");
    let bundle = pte_file::bpte::BundledFile::from_bytes(&bundle).unwrap();
    let mut suites = bundle.suites().to_vec();
    let suite = suites.first_mut().unwrap();
    let case = suite.test_cases.as_ref().and_then(|c| c.first()).unwrap().clone();
    suite.test_cases = Some(vec![case; 300_000]);
    let many_cases = pte_file::bpte::BundledFile::new(bundle.program.clone(), suites).to_bytes().unwrap();
    let bomb = |declared| Payload::Bomb { inflated: 3 * GIB, declared, fill: 0 };
    let files: Vec<(&str, Vec<u8>)> = vec![
        ("member-3gib.ptn", ptn_with_members(&ptn, &[("program.safetensors".into(), bomb(3 * GIB))]).unwrap()),
        ("member-3gib-lying.ptn", ptn_with_members(&ptn, &[("program.safetensors".into(), bomb(1024))]).unwrap()),
        (
            "member-100mb.ptn",
            ptn_with_members(
                &ptn,
                &[(
                    "program.safetensors".into(),
                    Payload::Bomb { inflated: 100_000_000, declared: 100_000_000, fill: 0 },
                )],
            )
            .unwrap(),
        ),
        (
            "index-1gib.ptn",
            ptn_with_members(
                &ptn,
                &[
                    (
                        "samples/forward/big/index.json".into(),
                        Payload::Bomb { inflated: GIB, declared: GIB, fill: b' ' },
                    ),
                    (
                        "samples/forward/big/data.safetensors".into(),
                        Payload::Stored(
                            pte_ptn::safetensors_to_bytes(&Default::default(), &Default::default()).unwrap(),
                        ),
                    ),
                ],
            )
            .unwrap(),
        ),
        ("members-65536.ptn", ptn_many_members(&ptn, 65_536).unwrap()),
        ("segments-1m.pte", pte_shared_segments(&pte, 1_000_000).unwrap()),
        ("cases-300k.bpte", many_cases),
        ("values-1m.pte", to_bytes(&program_heavy(1_000_000))),
        ("values-1m-legacy.pte", program_heavy_legacy_bytes(1_000_000)),
    ];
    for (name, bytes) in files {
        std::fs::write(out.join(name), &bytes).unwrap();
        println!("{name}: {} bytes", bytes.len());
    }
}
