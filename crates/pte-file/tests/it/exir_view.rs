//! `exir_program` equals what exir's own deserializer returned for every
//! corpus program (`truth.json`'s `program_json`).

use pte_schema::{program_to_json, JsonBytes};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

fn digest(b: &[u8]) -> Value {
    let h = Sha256::digest(b);
    json!({ "len": b.len(), "sha256": h.iter().map(|x| format!("{x:02x}")).collect::<String>() })
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
