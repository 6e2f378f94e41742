//! `exir_program` equals what exir's own deserializer returned for every
//! corpus program (`truth.json`'s `program_json`).

use pte_schema::{program_to_json, JsonBytes};
use serde_json::{json, Value};

fn digest(b: &[u8]) -> Value {
    json!({ "len": b.len(), "sha256": pte_testkit::sha256_hex(b) })
}

#[test]
fn exir_view_equals_program_json_on_every_corpus_program() {
    let root = pte_testkit::corpus_dir();
    let mut n = 0;
    for e in std::fs::read_dir(root).unwrap() {
        let dir = e.unwrap().path();
        let (Ok(t), Ok(bytes)) = (std::fs::read(dir.join("truth.json")), std::fs::read(dir.join("model.pte"))) else {
            continue;
        };
        let truth: Value = serde_json::from_slice(&t).unwrap();
        let truth = if truth.get("pte").is_some() { &truth["pte"] } else { &truth };
        let ours = program_to_json(&pte_file::exir_program(&bytes).unwrap(), JsonBytes::With(&digest));
        // numbers compare as numbers: the truth was written by Python
        let norm = |v: &Value| serde_json::from_str::<Value>(&v.to_string()).unwrap();
        assert_eq!(norm(&ours), norm(&truth["program_json"]), "{}", dir.display());
        n += 1;
    }
    assert!(n >= 13, "corpus not found");
}

/// `ExirJson` against the JSON of `exir_program`'s decoded program: `Ok`
/// with the same bytes, or the same error.
fn streamed_equals_decoded(bytes: &[u8], what: &str) {
    let streamed = pte_file::ExirJson::new(bytes).map(|j| {
        let mut out = vec![];
        j.write_pretty(&mut out).unwrap();
        out
    });
    let decoded = pte_file::exir_program(bytes)
        .map(|p| serde_json::to_vec_pretty(&program_to_json(&p, JsonBytes::Integers)).unwrap());
    match (streamed, decoded) {
        (Ok(s), Ok(d)) => assert!(s == d, "{what}: the streamed JSON differs"),
        (Err(s), Err(d)) => assert_eq!(s.to_string(), d.to_string(), "{what}"),
        (s, d) => panic!("{what}: streamed {:?}, decoded {:?}", s.map(|_| ()), d.map(|_| ())),
    }
}

#[test]
fn the_streamed_exir_json_is_the_decoded_programs_byte_for_byte() {
    let files = pte_testkit::corpus_files(&["pte"]);
    assert!(files.len() >= 13, "corpus not found");
    for f in files {
        let bytes = std::fs::read(&f).unwrap();
        streamed_equals_decoded(&bytes, &f.display().to_string());
        // segment data cut short: exir's errors, in exir's order
        let base = pte_file::exir_segment_base(&bytes) as usize;
        if base > 0 {
            for cut in [base, base + 1, (base + bytes.len()) / 2, bytes.len() - 1] {
                streamed_equals_decoded(&bytes[..cut.min(bytes.len())], &format!("{} cut at {cut}", f.display()));
            }
        }
    }
}
