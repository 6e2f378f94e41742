//! Resource-hostile packages are refused from their declared sizes, before
//! anything is inflated, with a typed error (time and memory are measured by
//! scripts/bench/hostile-bench.sh, not here).

use pte_gen::hostile::{pte_shared_segments, ptn_many_members, ptn_with_members, Payload};
use pte_ptn::{ErrorKind, PtnFile, PtnLimits};

const GIB: u64 = 1 << 30;
const MIB: u64 = 1 << 20;

fn corpus(rel: &str) -> Vec<u8> {
    pte_testkit::corpus_bytes(rel)
}

fn base() -> Vec<u8> {
    corpus("native_ptn/model.ptn")
}

fn bomb(inflated: u64, declared: u64) -> Payload {
    Payload::Bomb { inflated, declared, fill: 0 }
}

fn refused(bytes: &[u8]) -> pte_ptn::Error {
    match PtnFile::from_bytes(bytes) {
        Ok(_) => panic!("a hostile package was read"),
        Err(e) => e,
    }
}

#[test]
fn a_member_declaring_3_gib_is_refused_before_inflating() {
    for name in ["program.safetensors", "samples/forward/big/data.safetensors", "notes/blob.bin"] {
        let bytes = ptn_with_members(&base(), &[(name.into(), bomb(3 * GIB, 3 * GIB))]).unwrap();
        assert!((bytes.len() as u64) < 4 * MIB, "{} bytes", bytes.len());
        let e = refused(&bytes);
        assert_eq!(e.kind(), ErrorKind::LimitExceeded, "{name}: {e}");
        assert!(e.message().contains("declares"), "{e}");
    }
}

#[test]
fn a_header_that_understates_the_size_stops_inflation_at_its_claim() {
    let bytes = ptn_with_members(&base(), &[("notes/blob.bin".into(), bomb(3 * GIB, 1000))]).unwrap();
    let e = refused(&bytes);
    assert_eq!(e.kind(), ErrorKind::Malformed, "{e}");
    assert!(e.message().contains("declared"), "{e}");
}

#[test]
fn an_index_json_declaring_1_gib_or_past_the_metadata_bound_is_refused_before_inflating() {
    let data = pte_ptn::safetensors_to_bytes(&Default::default(), &PtnLimits::default()).unwrap();
    for size in [GIB, 100 * MIB] {
        let extra = [
            (
                "samples/forward/big/index.json".to_string(),
                Payload::Bomb { inflated: size, declared: size, fill: b' ' },
            ),
            ("samples/forward/big/data.safetensors".to_string(), Payload::Stored(data.clone())),
        ];
        let bytes = ptn_with_members(&base(), &extra).unwrap();
        assert!((bytes.len() as u64) < 2 * MIB, "{} bytes", bytes.len());
        let e = refused(&bytes);
        assert_eq!(e.kind(), ErrorKind::LimitExceeded, "{e}");
        assert_eq!(e.path(), "samples/forward/big/index.json", "{e}");
    }
}

#[test]
fn a_member_inflating_to_100_mb_is_refused_at_the_cap_and_still_breaks_ptn_stored() {
    // declared honestly: under the old 256 MiB bound this was inflated and held
    let size = 100_000_000;
    let bytes = ptn_with_members(&base(), &[("program.safetensors".into(), bomb(size, size))]).unwrap();
    assert!((bytes.len() as u64) < MIB, "{} bytes", bytes.len());
    let e = refused(&bytes);
    assert_eq!(e.kind(), ErrorKind::LimitExceeded, "{e}");
    assert_eq!(e.path(), "program.safetensors", "{e}");
    assert!(e.message().contains(&pte_ptn::MAX_INFLATED.to_string()), "{e}");
    let report = pte_ptn::verify::verify_ptn_bytes(&bytes, &PtnLimits::default());
    let rules: Vec<_> = report.violations.iter().map(|v| v.rule.name()).collect();
    assert!(rules.contains(&"ptn.stored"), "{rules:?}");
}

#[test]
fn a_member_at_the_cap_is_inflated_and_one_mebibyte_more_is_refused() {
    for (size, read) in [(pte_ptn::MAX_INFLATED, true), (pte_ptn::MAX_INFLATED + MIB, false)] {
        let bytes = ptn_with_members(&base(), &[("notes/blob.bin".into(), bomb(size, size))]).unwrap();
        assert_eq!(PtnFile::from_bytes(&bytes).is_ok(), read, "{size}");
    }
}

#[test]
fn the_sum_of_declared_sizes_has_its_own_bound() {
    let each = pte_ptn::MAX_INFLATED * 3 / 4;
    let extra = [("a.bin".to_string(), bomb(each, each)), ("b.bin".to_string(), bomb(each, each))];
    let bytes = ptn_with_members(&base(), &extra).unwrap();
    let e = refused(&bytes);
    assert_eq!(e.kind(), ErrorKind::LimitExceeded, "{e}");
    assert!(e.message().contains("in all"), "{e}");
    // the same members under a raised total are inflated and read
    let limits = PtnLimits { max_total_inflated: 2 * each + 2 * MIB, ..PtnLimits::default() };
    let ptn = PtnFile::from_bytes_with(&bytes, &limits).unwrap();
    assert_eq!(ptn.members.len(), 2);
}

#[test]
fn a_package_at_the_member_limit_reads_and_one_past_it_is_refused() {
    let at = ptn_many_members(&base(), 65_536).unwrap();
    let ptn = PtnFile::from_bytes(&at).unwrap();
    assert_eq!(ptn.members.len(), 65_536 - 2);
    let past = ptn_many_members(&base(), 65_537).unwrap();
    assert_eq!(refused(&past).kind(), ErrorKind::LimitExceeded);
}

#[test]
fn a_million_segment_entries_sharing_one_range_read() {
    let bytes = pte_shared_segments(&corpus("linear/model.pte"), 1_000_000).unwrap();
    let pte = pte_file::PteFile::from_bytes(&bytes).unwrap();
    assert_eq!(pte.segments.len(), 1_000_000);
    assert!(pte.program.segment_table().iter().all(|s| s.offset == 0 && s.size == 60));
}

#[test]
fn a_package_read_at_the_member_limit_writes_back() {
    let at = ptn_many_members(&base(), 65_536).unwrap();
    let ptn = PtnFile::from_bytes(&at).unwrap();
    let again = ptn.to_bytes().unwrap();
    assert_eq!(PtnFile::from_bytes(&again).unwrap(), ptn);
}
