//! Every corpus program decodes, re-encodes losslessly and dumps to the JSON
//! exir's own tooling produced (`truth.json`'s `raw_program_json`).

use std::path::PathBuf;

use pte_schema::{decode_program, encode_program, program_to_json, EncodeOptions, JsonBytes, Limits};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

fn corpus() -> PathBuf {
    pte_testkit::corpus_dir()
}

fn digest(b: &[u8]) -> Value {
    let h = Sha256::digest(b);
    json!({ "len": b.len(), "sha256": h.iter().map(|x| format!("{x:02x}")).collect::<String>() })
}

fn flatbuffer_region(bytes: &[u8]) -> &[u8] {
    if bytes.get(8..12) == Some(b"eh00") {
        let n = u64::from_le_bytes(bytes[16..24].try_into().unwrap()) as usize;
        &bytes[..n]
    } else {
        bytes
    }
}

/// (case, truth.json key holding the program truth)
fn programs() -> Vec<(PathBuf, Value)> {
    let mut out = vec![];
    for e in std::fs::read_dir(corpus()).unwrap() {
        let dir = e.unwrap().path();
        // Under Miri, about a thousand times slower, the one program-heavy
        // file (18,001 values, a 9.6 MB truth) would take hours; every table
        // kind it holds is in the smaller programs too.
        if cfg!(miri) && std::fs::metadata(dir.join("model.pte")).is_ok_and(|m| m.len() > 1 << 20) {
            continue;
        }
        let Ok(t) = std::fs::read(dir.join("truth.json")) else {
            continue;
        };
        let truth: Value = serde_json::from_slice(&t).unwrap();
        if dir.join("model.pte").exists() {
            let t = if truth.get("pte").is_some() { truth["pte"].clone() } else { truth.clone() };
            out.push((dir.join("model.pte"), t));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn diff(path: &str, a: &Value, b: &Value, out: &mut Vec<String>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for k in x.keys().chain(y.keys().filter(|k| !x.contains_key(*k))) {
                diff(&format!("{path}.{k}"), x.get(k).unwrap_or(&Value::Null), y.get(k).unwrap_or(&Value::Null), out);
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                diff(&format!("{path}[{i}]"), p, q, out);
            }
        }
        (Value::Number(x), Value::Number(y)) if x.as_f64() == y.as_f64() => {}
        _ if a == b => {}
        _ => out.push(format!("{path}: ours {a} truth {b}")),
    }
}

#[test]
fn dump_matches_truth_raw_program_json() {
    let cases = programs();
    assert!(cases.len() >= if cfg!(miri) { 12 } else { 13 }, "corpus not found: {}", cases.len());
    for (path, truth) in cases {
        let bytes = std::fs::read(&path).unwrap();
        let program = decode_program(flatbuffer_region(&bytes), &Limits::default()).unwrap();
        let ours = program_to_json(&program, JsonBytes::With(&digest));
        let mut d = vec![];
        diff("", &ours, &truth["raw_program_json"], &mut d);
        assert!(d.is_empty(), "{}: {} differences, first: {:#?}", path.display(), d.len(), &d[..d.len().min(10)]);
    }
}

#[test]
fn reencode_decodes_to_the_same_model() {
    for (path, _) in programs() {
        let bytes = std::fs::read(&path).unwrap();
        let program = decode_program(flatbuffer_region(&bytes), &Limits::default()).unwrap();
        let again = encode_program(&program, &EncodeOptions::default()).unwrap();
        let back = decode_program(&again, &Limits::default()).unwrap();
        assert_eq!(back, program, "{}", path.display());
        assert_eq!(encode_program(&back, &EncodeOptions::default()).unwrap(), again, "not deterministic");
    }
}
