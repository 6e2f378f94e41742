//! Resource-hostile inputs get an answer or a typed refusal from every
//! reading command (how fast and in how much memory: scripts/bench/hostile-bench.sh).

use pte_gen::hostile::{pte_shared_segments, ptn_many_members, ptn_with_members, Payload};

use crate::support::{corpus_bytes, pte};

const GIB: u64 = 1 << 30;

#[test]
fn every_reading_command_refuses_a_zip_bomb_from_its_declared_size() {
    let dir = tempfile::tempdir().unwrap();
    let base = corpus_bytes("native_ptn/model.ptn");
    let data = pte_ptn::safetensors_to_bytes(&Default::default(), &Default::default()).unwrap();
    let cases = [
        (
            "member",
            ptn_with_members(
                &base,
                &[("program.safetensors".into(), Payload::Bomb { inflated: 3 * GIB, declared: 3 * GIB, fill: 0 })],
            )
            .unwrap(),
        ),
        (
            "index",
            ptn_with_members(
                &base,
                &[
                    (
                        "samples/forward/big/index.json".into(),
                        Payload::Bomb { inflated: GIB, declared: GIB, fill: b' ' },
                    ),
                    ("samples/forward/big/data.safetensors".into(), Payload::Stored(data)),
                ],
            )
            .unwrap(),
        ),
    ];
    for (name, bytes) in cases {
        let path = dir.path().join(format!("{name}.ptn"));
        std::fs::write(&path, bytes).unwrap();
        let (out, x) = (dir.path().join("out.ptn"), dir.path().join(format!("x-{name}")));
        let p = path.to_str().unwrap();
        for args in [
            vec!["info", p],
            vec!["verify", p],
            vec!["dump", p],
            vec!["rewrite", p, out.to_str().unwrap()],
            vec!["extract", p, x.to_str().unwrap()],
        ] {
            let o = pte(&args);
            let text = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
            assert!(matches!(o.status.code(), Some(1 | 2)), "{args:?}: {text}");
            assert!(text.contains("over the limit"), "{args:?}: {text}");
            assert!(!out.exists() && !x.exists(), "{args:?} wrote something");
        }
    }
}

#[test]
fn the_member_limit_package_and_the_shared_segment_program_are_answered() {
    let dir = tempfile::tempdir().unwrap();
    let many = dir.path().join("many.ptn");
    std::fs::write(&many, ptn_many_members(&corpus_bytes("native_ptn/model.ptn"), 65_536).unwrap()).unwrap();
    let shared = dir.path().join("shared.pte");
    std::fs::write(&shared, pte_shared_segments(&corpus_bytes("linear/model.pte"), 200_000).unwrap()).unwrap();
    for p in [&many, &shared] {
        let p = p.to_str().unwrap();
        for args in [vec!["info", p], vec!["verify", p]] {
            let o = pte(&args);
            assert!(matches!(o.status.code(), Some(0..=2)), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
            assert!(!String::from_utf8_lossy(&o.stderr).contains("panicked"));
        }
    }
}
