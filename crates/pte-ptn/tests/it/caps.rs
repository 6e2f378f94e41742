//! The refusals of upstream's C++ package reader, as rules: a deflated
//! member still reads but is reported, and each cap is named when broken
//! (the caps lowered here, so small packages break them).

use std::io::{Cursor, Read, Write};

use pte_ptn::verify::verify_ptn_bytes;
use pte_ptn::{PtnCaps, PtnFile, PtnLimits};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

fn corpus() -> Vec<u8> {
    pte_testkit::corpus_bytes("native_ptn/model.ptn")
}

fn members(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut z = zip::ZipArchive::new(Cursor::new(bytes)).unwrap();
    (0..z.len())
        .map(|i| {
            let mut f = z.by_index(i).unwrap();
            let mut out = vec![];
            f.read_to_end(&mut out).unwrap();
            (f.name().unwrap().to_string(), out)
        })
        .collect()
}

fn zip_of(entries: &[(String, Vec<u8>)], deflated: &str) -> Vec<u8> {
    let mut w = ZipWriter::new(Cursor::new(Vec::new()));
    for (name, data) in entries {
        let method = if name == deflated { CompressionMethod::Deflated } else { CompressionMethod::Stored };
        w.start_file(name.as_str(), SimpleFileOptions::default().compression_method(method)).unwrap();
        w.write_all(data).unwrap();
    }
    w.finish().unwrap().into_inner()
}

/// The rules `verify` names under `caps`.
fn rules(bytes: &[u8], caps: PtnCaps) -> Vec<&'static str> {
    let limits = PtnLimits { caps, ..PtnLimits::default() };
    verify_ptn_bytes(bytes, &limits).violations.iter().map(|v| v.rule.name()).collect()
}

/// The corpus package with an alias of its first tensor and a small JSON member.
fn with_alias() -> Vec<u8> {
    let mut m = members(&corpus());
    let key = PtnFile::from_bytes(&corpus()).unwrap().tensors.keys().next().unwrap().clone();
    m.push(("aliases.json".into(), format!("{{\"{key}.alias\": \"{key}\"}}").into_bytes()));
    zip_of(&m, "")
}

#[test]
fn a_deflated_member_reads_but_breaks_ptn_stored() {
    let plain = corpus();
    assert!(rules(&plain, PtnCaps::default()).is_empty(), "{:?}", rules(&plain, PtnCaps::default()));
    let deflated = zip_of(&members(&plain), "program.ptg");
    // what exir's Python reader reads, this reader reads too
    assert_eq!(PtnFile::from_bytes(&deflated).unwrap(), PtnFile::from_bytes(&plain).unwrap());
    assert_eq!(rules(&deflated, PtnCaps::default()), ["ptn.stored"]);
}

#[test]
fn each_cap_is_named_when_broken() {
    let plain = corpus();
    let aliased = with_alias();
    assert!(rules(&aliased, PtnCaps::default()).is_empty(), "{:?}", rules(&aliased, PtnCaps::default()));
    let d = PtnCaps::default();
    let cases: [(&str, PtnCaps, &[u8]); 10] = [
        ("ptn.limit.program", PtnCaps { max_program: 16, ..d }, &plain),
        ("ptn.limit.json_size", PtnCaps { max_json_member: 4, ..d }, &aliased),
        ("ptn.limit.json_depth", PtnCaps { max_json_depth: 0, ..d }, &aliased),
        ("ptn.limit.rank", PtnCaps { max_rank: 1, ..d }, &plain),
        ("ptn.limit.dim", PtnCaps { max_dim: 8, ..d }, &plain),
        ("ptn.limit.members", PtnCaps { max_members: 2, ..d }, &aliased),
        ("ptn.limit.tensors", PtnCaps { max_tensors: 1, ..d }, &plain),
        ("ptn.limit.aliases", PtnCaps { max_aliases: 0, ..d }, &aliased),
        ("ptn.limit.package_size", PtnCaps { max_package: 100, ..d }, &plain),
        ("ptn.limit.constant_bytes", PtnCaps { max_constant_bytes: 10, ..d }, &plain),
    ];
    for (rule, caps, bytes) in cases {
        let got = rules(bytes, caps);
        assert!(got.contains(&rule), "{rule}: {got:?}");
        // a cap is a rule of its own, not the reader's limit
        assert!(!got.contains(&"ptn.container"), "{rule}: {got:?}");
    }
}

#[test]
fn json_nested_past_the_cap_is_named_with_default_caps() {
    let mut m = members(&corpus());
    m.push(("extra.json".into(), format!("{}{}", "[".repeat(65), "]".repeat(65)).into_bytes()));
    assert_eq!(rules(&zip_of(&m, ""), PtnCaps::default()), ["ptn.limit.json_depth"]);
    m.pop();
    m.push(("extra.json".into(), format!("{}{}", "[".repeat(64), "]".repeat(64)).into_bytes()));
    assert!(rules(&zip_of(&m, ""), PtnCaps::default()).is_empty());
}
