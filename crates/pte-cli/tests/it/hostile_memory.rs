//! The resource-hostile inputs are answered in bounded memory: every reading
//! command runs under an address-space limit (`ulimit -v`) that a summary
//! growing with the segment table or the member list cannot fit in. (How
//! fast and in how much resident memory: scripts/bench/hostile-bench.sh.)

use std::path::Path;
use std::process::{Command, Output};

use pte_gen::hostile::{pte_shared_segments, ptn_many_members};

use crate::support::{corpus_bytes, PTE};

/// `pte ARGS` with at most `kib` KiB of address space.
fn limited(kib: u64, args: &[&Path]) -> Output {
    let mut cmd = Command::new("sh");
    cmd.arg("-c").arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\"")).arg(PTE);
    cmd.args(args).output().unwrap()
}

/// A million entries naming one range: a 20 MB file whose table costs
/// 16 bytes an entry decoded and about 1.5 KiB an entry as a JSON tree.
/// 48 MiB of address space holds the mapped file and the process, not a
/// decoded table beside it.
#[test]
fn a_million_segment_entries_fit_in_48_mib_of_address_space() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("shared.pte");
    std::fs::write(&file, pte_shared_segments(&corpus_bytes("linear/model.pte"), 1_000_000).unwrap()).unwrap();
    let out = dir.path().join("out.pte");
    let folder = dir.path().join("x");
    let json = Path::new("--json");
    for args in [
        vec![Path::new("info"), &file],
        vec![Path::new("info"), json, &file],
        vec![Path::new("verify"), &file],
        vec![Path::new("memory"), json, &file],
        vec![Path::new("dump"), &file],
        vec![Path::new("rewrite"), &file, &out],
        vec![Path::new("extract"), &file, &folder],
    ] {
        let o = limited(48 << 10, &args);
        assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    }
    assert!(std::fs::read(&out).unwrap() == std::fs::read(&file).unwrap(), "the rewrite changed the file");
    let manifest = std::fs::read_to_string(folder.join("manifest.json")).unwrap();
    assert_eq!(manifest.matches("\"kind\":\"segment\"").count(), 1_000_000);
}

/// The member-limit package: `info` lists every member, one at a time.
#[test]
fn info_lists_65536_members_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("many.ptn");
    std::fs::write(&file, ptn_many_members(&corpus_bytes("native_ptn/model.ptn"), 65_536).unwrap()).unwrap();
    let o = limited(96 << 10, &[Path::new("info"), &file]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("\nmember \"extra/00002\" (0 bytes)\nmember \"extra/00003\" (0 bytes)\n"));
    assert!(text.contains("member \"extra/65535\" (0 bytes)\nverdict: valid"), "{}", &text[text.len() - 200..]);
    let o = limited(96 << 10, &[Path::new("info"), Path::new("--json"), &file]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let members = v["other_members"].as_array().unwrap();
    assert_eq!(members.len(), 65_536 - 2);
    assert_eq!(members[0], serde_json::json!({"name": "extra/00002", "size": 0}));
    // the streamed list sits where the whole tree put it (keys in order)
    assert!(o.stdout == format!("{}\n", serde_json::to_string_pretty(&v).unwrap()).into_bytes());
}

/// A bundle of 150,000 cases (the corpus bundle's first case repeated: a
/// 32 MB file) decodes into some 56 MiB of cases; `info`, `verify` and
/// `report` read it in place, a case at a time, so 72 MiB of address space
/// holds the mapped file and the process, not a decoded bundle beside it.
#[test]
fn a_bundle_of_150k_cases_is_read_in_place() {
    let bundle = pte_file::bpte::BundledFile::from_bytes(&corpus_bytes("bundled/model.bpte")).unwrap().into_owned();
    let mut suites = bundle.suites().to_vec();
    let case = suites[0].test_cases.as_ref().unwrap()[0].clone();
    suites[0].test_cases = Some(vec![case; 150_000]);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cases.bpte");
    let bytes = pte_file::bpte::BundledFile::new(bundle.program.clone(), suites).to_bytes().unwrap();
    std::fs::write(&file, &bytes).unwrap();
    drop(bytes);
    let html = dir.path().join("r.html");
    let (json, o) = (Path::new("--json"), Path::new("-o"));
    for args in [
        vec![Path::new("info"), &file],
        vec![Path::new("info"), json, &file],
        vec![Path::new("verify"), &file],
        vec![Path::new("report"), &file, o, &html],
    ] {
        let out = limited(72 << 10, &args);
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        if args[0] == Path::new("info") {
            // every case listed, the last one too
            let text = String::from_utf8(out.stdout).unwrap();
            assert!(text.contains(if args[1] == json { "\"cases\": [" } else { "  case 149999\n" }), "{args:?}");
        }
    }
    assert!(std::fs::read_to_string(&html).unwrap().contains("150,000 cases"));
}

/// An actual-outputs file whose header holds a 64 MiB metadata string: the
/// metadata is checked but not kept, so 200 MiB of address space hold the
/// mapped file and the safetensors crate's one copy of the header, not a
/// second copy beside them (three copies took 288 MiB on 100 MB).
#[test]
fn actual_outputs_with_a_64_mib_metadata_string_fit_in_200_mib() {
    let dir = tempfile::tempdir().unwrap();
    let mut header = format!("{{\"__metadata__\":{{\"note\":\"{}\"}}}}", "x".repeat(64 << 20)).into_bytes();
    header.resize(header.len().next_multiple_of(8), b' ');
    let actual = dir.path().join("actual.safetensors");
    let mut bytes = (header.len() as u64).to_le_bytes().to_vec();
    bytes.extend_from_slice(&header);
    std::fs::write(&actual, &bytes).unwrap();
    drop((header, bytes));
    let bundle = crate::support::corpus("bundled/model.bpte");
    let args = [Path::new("samples"), Path::new("check"), &bundle, Path::new("--actual"), &actual];
    let o = limited(200 << 10, &args);
    // read whole: every recorded output is then missing from it
    assert_eq!(o.status.code(), Some(1), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("output 0: no actual tensor"));
}
