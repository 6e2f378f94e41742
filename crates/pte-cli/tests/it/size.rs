//! `pte size`: every byte of every corpus file attributed once, constants by
//! the names `info --tensors` gives them, XNNPACK constants found in named
//! data and inside payloads, the groupings keeping the sum, and damaged or
//! hostile files answered with a report and notes or a refusal, never a panic.

use std::borrow::Cow;
use std::path::Path;

use pte_file::{PteFile, WriteOptions};
use pte_schema::xnnpack::XnnPayload;
use serde_json::Value;

use crate::support::{corpus, corpus_bytes, corpus_files, model, pte, s, stderr, stdout};

const KINDS: &[&str] = &["pte", "ptd", "ptn", "bpte"];

fn size_json(path: &Path, extra: &[&str]) -> Value {
    let mut args = vec!["size", "--json", s(path)];
    args.extend_from_slice(extra);
    let o = pte(&args);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap()
}

fn parts(v: &Value) -> &Vec<Value> {
    v["parts"].as_array().unwrap()
}

fn total(v: &Value) -> u64 {
    parts(v).iter().map(|p| p["bytes"].as_u64().unwrap()).sum()
}

fn part<'v>(v: &'v Value, name: &str) -> &'v Value {
    parts(v).iter().find(|p| p["name"] == name).unwrap_or_else(|| panic!("no part {name:?} in {v:#}"))
}

/// The sum, the absence of empty parts, and that parts given as one range
/// lie in the file without overlapping.
fn check_partition(v: &Value, len: u64, what: &str) {
    assert_eq!(v["file_size"].as_u64(), Some(len), "{what}");
    assert_eq!(total(v), len, "{what}: parts do not add up to the file size: {v:#}");
    let mut ranges = vec![];
    for p in parts(v) {
        let bytes = p["bytes"].as_u64().unwrap();
        assert!(bytes > 0, "{what}: empty part {p}");
        assert!(p["name"].is_string() && p["kind"].is_string(), "{what}: {p}");
        if let Some(o) = p["offset"].as_u64() {
            assert!(o + bytes <= len, "{what}: {p} runs past the file");
            ranges.push((o, o + bytes));
        }
    }
    ranges.sort();
    for w in ranges.windows(2) {
        assert!(w[0].1 <= w[1].0, "{what}: parts {:?} and {:?} overlap", w[0], w[1]);
    }
}

#[test]
fn every_corpus_file_is_partitioned_exactly() {
    let files = corpus_files(KINDS);
    assert!(files.len() >= 17, "{files:?}");
    for f in files {
        let len = std::fs::metadata(&f).unwrap().len();
        let v = size_json(&f, &[]);
        check_partition(&v, len, &f.display().to_string());
        assert_eq!(v["notes"], serde_json::json!([]), "{}: a sound file needs no notes", f.display());
        for by in ["kind", "tensor", "operator", "delegate"] {
            let g = size_json(&f, &["--by", by]);
            assert_eq!(g["by"], by);
            assert_eq!(total(&g), len, "{} --by {by}", f.display());
            let top = size_json(&f, &["--by", by, "--top", "3"]);
            assert_eq!(total(&top), len, "{} --by {by} --top 3", f.display());
        }
        let top = size_json(&f, &["--top", "3"]);
        assert_eq!(total(&top), len, "{} --top 3", f.display());
        assert!(parts(&top).len() <= 4);
        if parts(&v).len() > 3 {
            let other = parts(&top).last().unwrap();
            assert_eq!((other["name"].as_str(), other["kind"].as_str()), (Some("other"), Some("other")));
            assert_eq!(other["count"].as_u64(), Some(parts(&v).len() as u64 - 3));
        }
    }
}

#[test]
fn constants_and_buffers_appear_under_the_names_info_gives_them() {
    let mut seen = 0;
    for f in corpus_files(&["pte"]) {
        let o = pte(&["info", "--json", "--tensors", s(&f)]);
        let info: Value = serde_json::from_str(&stdout(&o)).unwrap();
        let v = size_json(&f, &[]);
        for t in info["tensors"].as_array().unwrap() {
            let stored = t["stored"].as_u64().unwrap_or(0);
            if stored == 0 {
                continue;
            }
            let name = t["name"].as_str().unwrap();
            let p = part(&v, name);
            if t["storage"] == "named" {
                // size says who reads the blob; info, that it is named data
                let kind = p["kind"].as_str().unwrap();
                assert!(["named_data", "xnnpack_constant"].contains(&kind), "{}: {name}: {kind}", f.display());
            } else {
                assert_eq!(p["kind"], t["storage"], "{}: {name}", f.display());
            }
            assert_eq!(p["bytes"].as_u64(), Some(stored), "{}: {name}", f.display());
            if let Some(start) = t["file_range"][0].as_u64() {
                assert_eq!(p["offset"].as_u64(), Some(start), "{}: {name}", f.display());
            }
            seen += 1;
        }
    }
    assert!(seen > 3000, "only {seen} stored tensors checked");
    let legacy = size_json(&model("legacy_inline_constants"), &[]);
    assert_eq!(part(&legacy, "constant[1]")["bytes"], 48);
    assert_eq!(part(&legacy, "constant[2]")["bytes"], 12);
}

#[test]
fn headers_padding_and_other_formats_have_their_kinds() {
    let v = size_json(&model("linear"), &[]);
    assert_eq!((part(&v, "eh00")["offset"].as_u64(), part(&v, "eh00")["bytes"].as_u64()), (Some(8), Some(32)));
    assert_eq!(part(&v, "padding")["kind"], "padding");
    let ptd = size_json(&corpus("external/_default_external_constant.ptd"), &[]);
    assert_eq!(part(&ptd, "fh01")["kind"], "ptd_header");
    assert_eq!(part(&ptd, "tables")["kind"], "ptd_tables");
    assert_eq!(
        (part(&ptd, "seq.0.weight")["kind"].as_str(), part(&ptd, "seq.0.weight")["bytes"].as_u64()),
        (Some("tensor"), Some(2048))
    );
    let ptn = size_json(&corpus("native_ptn/model.ptn"), &[]);
    for (name, kind) in [
        ("program.ptg", "program"),
        ("program.ptg (local header)", "zip_header"),
        ("program.safetensors header", "safetensors_header"),
        ("seq.2.weight", "tensor"),
        ("central directory", "zip_directory"),
    ] {
        assert_eq!(part(&ptn, name)["kind"], kind, "{name}");
    }
    let bpte = size_json(&corpus("bundled/model.bpte"), &[]);
    let plain = size_json(&corpus("bundled/model.pte"), &[]);
    // the embedded program's parts, under a prefix, as the plain program's
    for p in parts(&plain).iter().filter(|p| p["kind"] == "constant" || p["kind"] == "header") {
        let q = part(&bpte, &format!("program:{}", p["name"].as_str().unwrap()));
        assert_eq!((&q["kind"], &q["bytes"]), (&p["kind"], &p["bytes"]));
    }
    assert_eq!(parts(&bpte).iter().filter(|p| p["kind"] == "test_data").count(), 6);
}

#[test]
fn xnnpack_weights_are_xnnpack_constants_of_their_delegate() {
    for case in ["xnnpack_mlp", "inline_delegate"] {
        let v = size_json(&model(case), &[]);
        let xc: Vec<&Value> = parts(&v).iter().filter(|p| p["kind"] == "xnnpack_constant").collect();
        assert_eq!(xc.len(), 4, "{case}");
        assert_eq!(xc.iter().map(|p| p["bytes"].as_u64().unwrap()).sum::<u64>(), 2048 + 128 + 1024 + 32);
        for p in &xc {
            assert_eq!(p["operator"], "XnnpackBackend:XNNFullyConnected", "{case}");
            assert_eq!(p["delegate"], "XnnpackBackend[forward.0]", "{case}");
        }
        assert_eq!(part(&v, "XnnpackBackend[forward.0]")["kind"], "delegate");
        let by_delegate = size_json(&model(case), &["--by", "delegate"]);
        let d = part(&by_delegate, "XnnpackBackend[forward.0]");
        assert_eq!((d["bytes"].as_u64(), d["count"].as_u64()), (Some(1184 + 3232), Some(5)), "{case}");
    }
}

#[test]
fn by_operator_gives_weights_to_the_kernels_that_read_them() {
    let v = size_json(&model("linear"), &["--by", "operator"]);
    // the weight is read first by the transpose, the bias by addmm
    assert_eq!(part(&v, "aten::permute_copy.out")["bytes"], 48);
    assert_eq!(part(&v, "aten::addmm.out")["bytes"], 12);
    assert_eq!(part(&v, "aten::addmm.out")["kind"], "operator");
    assert!(parts(&v).iter().all(|p| p["name"] != "aten::relu.out"));
    let x = size_json(&model("xnnpack_mlp"), &["--by", "operator"]);
    let fc = part(&x, "XnnpackBackend:XNNFullyConnected");
    assert_eq!((fc["bytes"].as_u64(), fc["count"].as_u64()), (Some(3232), Some(4)));
    let deep = size_json(&model("deep_program"), &["--by", "operator"]);
    assert_eq!(part(&deep, "aten::mul.out")["count"], 3000);
}

#[test]
fn text_is_a_table_with_shares() {
    let o = pte(&["size", s(&model("linear"))]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    assert!(text.starts_with(&format!("{}: 1724 bytes (pte)\n", s(&model("linear")))), "{text}");
    assert!(text.contains("offset") && text.contains("share"), "{text}");
    let weight = text.lines().find(|l| l.ends_with(" constant[1]")).unwrap();
    assert!(weight.contains(" 1664 ") && weight.contains(" 48 ") && weight.contains("2.8%"), "{weight}");
    let o = pte(&["size", "--by", "kind", "--top", "2", s(&model("linear"))]);
    let text = stdout(&o);
    assert!(text.lines().next().unwrap().ends_with(", by kind"), "{text}");
    assert!(text.lines().last().unwrap().contains("other (2 parts)"), "{text}");
}

/// xnnpack_mlp with its payload's constants moved inside the payload: the
/// named keys emptied, each `constant_data` entry given an offset into
/// constant data appended after the flatbuffer.
fn with_constants_in_payload() -> Vec<u8> {
    let bytes = corpus_bytes("xnnpack_mlp/model.pte");
    let mut pte = PteFile::from_bytes(&bytes).unwrap();
    let mut payload = pte.segments[1].to_vec();
    let keys: Vec<String> =
        XnnPayload::new(&payload, &Default::default()).unwrap().named_keys().map(str::to_string).collect();
    assert_eq!(keys.len(), 4);
    for k in &keys {
        let at = payload.windows(k.len()).position(|w| w == k.as_bytes()).unwrap();
        payload[at - 4..at].copy_from_slice(&0u32.to_le_bytes());
        payload[at] = 0;
    }
    // each entry's offset (u64::MAX beside its size) becomes a real one
    let mut next = 0u64;
    for size in [2048u64, 128, 1024, 32] {
        let mut pattern = u64::MAX.to_le_bytes().to_vec();
        pattern.extend_from_slice(&size.to_le_bytes());
        let field = match payload.windows(16).position(|w| w == pattern) {
            Some(at) => at,
            None => {
                let mut swapped = size.to_le_bytes().to_vec();
                swapped.extend_from_slice(&u64::MAX.to_le_bytes());
                payload.windows(16).position(|w| w == swapped).unwrap() + 8
            }
        };
        payload[field..field + 8].copy_from_slice(&next.to_le_bytes());
        next += size;
    }
    let start = payload.len().next_multiple_of(16);
    payload.resize(start, 0);
    payload.extend((0..next).map(|i| i as u8));
    payload[18..22].copy_from_slice(&(start as u32).to_le_bytes());
    payload[22..30].copy_from_slice(&next.to_le_bytes());
    let p = XnnPayload::new(&payload, &Default::default()).unwrap();
    assert_eq!(p.named_keys().count(), 0);
    assert_eq!(p.constant_data().len(), 3232);
    pte.segments[1] = Cow::Owned(payload);
    pte.to_bytes(&WriteOptions::default().with_segment_alignment(128).unwrap()).unwrap()
}

#[test]
fn constants_inside_an_xnnpack_payload_are_parts_of_their_own() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("inside.pte");
    let bytes = with_constants_in_payload();
    std::fs::write(&path, &bytes).unwrap();
    let v = size_json(&path, &[]);
    check_partition(&v, bytes.len() as u64, "inside.pte");
    let delegate = part(&v, "XnnpackBackend[forward.0]");
    let (d_start, d_len) = (delegate["offset"].as_u64().unwrap(), delegate["bytes"].as_u64().unwrap());
    // the constant data ends the payload, so the rest of the blob is one range before it
    let mut at = 0u64;
    for (i, size) in [(1, 2048u64), (2, 128), (3, 1024), (4, 32)] {
        let p = part(&v, &format!("XnnpackBackend[forward.0]/constant_data[{i}]"));
        assert_eq!((p["kind"].as_str(), p["bytes"].as_u64()), (Some("xnnpack_constant"), Some(size)));
        assert_eq!(p["operator"], "XnnpackBackend:XNNFullyConnected");
        assert_eq!(p["delegate"], "XnnpackBackend[forward.0]");
        let o = p["offset"].as_u64().unwrap();
        assert_eq!(o, d_start + d_len + at, "{p}");
        assert_eq!(bytes[o as usize + 1], (at + 1) as u8, "{p}");
        at += size;
    }
    // the named data the payload no longer names is plain named data
    assert_eq!(parts(&v).iter().filter(|p| p["kind"] == "named_data").count(), 4);
    let by = size_json(&path, &["--by", "delegate"]);
    assert_eq!(part(&by, "XnnpackBackend[forward.0]")["count"], 5);
}

#[test]
fn bytes_two_references_share_are_counted_once() {
    let bytes = corpus_bytes("xnnpack_mlp/model.pte");
    let mut pte = PteFile::from_bytes(&bytes).unwrap();
    let named = pte.program.named_data.as_mut().unwrap();
    let first = named[0].clone();
    named.push(pte_schema::NamedData { key: Some("again".into()), segment_index: first.segment_index });
    let out = pte.to_bytes(&WriteOptions::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shared.pte");
    std::fs::write(&path, &out).unwrap();
    let v = size_json(&path, &[]);
    check_partition(&v, out.len() as u64, "shared.pte");
    let owner = part(&v, first.key.as_deref().unwrap());
    assert_eq!(owner["shared_with"], serde_json::json!(["again"]));
    assert!(parts(&v).iter().all(|p| p["name"] != "again"));
}

#[test]
fn damaged_files_get_notes_and_hostile_ones_never_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    // a reference out of its place: a report whose notes say so
    for (class, case, says) in [
        ("subsegment.offsets", "linear", "past the 60 bytes of segment[0]"),
        ("pte.segment-base-past-end", "linear", "past the end of the file"),
        ("segment.overlap", "linear", "overlaps"),
        ("pte.constant-segment-index", "linear", "does not locate"),
        ("xnnpack.header-range", "xnnpack_mlp", "does not parse"),
    ] {
        let bytes = pte_gen::find(class).unwrap().apply(&corpus_bytes(&format!("{case}/model.pte"))).unwrap();
        let path = dir.path().join(format!("{class}.pte"));
        std::fs::write(&path, &bytes).unwrap();
        let v = size_json(&path, &[]);
        check_partition(&v, bytes.len() as u64, class);
        let notes = v["notes"].as_array().unwrap();
        assert!(notes.iter().any(|n| n.as_str().unwrap().contains(says)), "{class}: {notes:?}");
        let text = stdout(&pte(&["size", s(&path)]));
        assert!(text.contains("\nnote: "), "{class}: {text}");
    }
    // every corruption class on every file it applies to, in process
    let files: Vec<(String, Vec<u8>)> =
        corpus_files(KINDS).into_iter().map(|f| (f.display().to_string(), std::fs::read(&f).unwrap())).collect();
    let mut answered = 0;
    for class in pte_gen::classes() {
        let mut ran_cli = false;
        for (name, base) in &files {
            let Ok(bytes) = class.apply(base) else { continue };
            check_library(&bytes, &format!("{} on {name}", class.name));
            answered += 1;
            if !ran_cli {
                ran_cli = true;
                let path = dir.path().join("mutant");
                std::fs::write(&path, &bytes).unwrap();
                for args in [vec!["size", s(&path)], vec!["size", "--json", "--by", "operator", s(&path)]] {
                    let o = pte(&args);
                    let err = stderr(&o);
                    assert!(matches!(o.status.code(), Some(0 | 2)), "{}: {args:?}: {err}", class.name);
                    assert!(!err.contains("panicked"), "{}: {err}", class.name);
                    if o.status.code() == Some(2) {
                        assert!(err.starts_with("pte: "), "{}: {err}", class.name);
                    }
                }
            }
        }
    }
    assert!(answered > 100, "only {answered} mutants");
    // blind mutants of each kind
    for (name, base) in &files {
        for (what, bytes) in pte_gen::random_mutants(base, 7, 40) {
            check_library(&bytes, &format!("{what} on {name}"));
        }
    }
}

/// A report whose parts add up, or a typed error.
fn check_library(bytes: &[u8], what: &str) {
    // the door's answer, as `pte size` asks it
    if let Ok(r) = pte::size(pte::kind_of(bytes), bytes) {
        assert_eq!(r.total(), bytes.len() as u64, "{what}");
        assert!(r.parts.iter().all(|p| p.bytes > 0), "{what}");
        for by in [pte_analysis::size::By::Kind, pte_analysis::size::By::Operator] {
            assert_eq!(r.clone().grouped(by).top(2).total(), bytes.len() as u64, "{what}");
        }
    }
}

#[test]
fn resource_hostile_files_are_answered() {
    let dir = tempfile::tempdir().unwrap();
    let shared = dir.path().join("shared.pte");
    let bytes = pte_gen::hostile::pte_shared_segments(&corpus_bytes("linear/model.pte"), 200_000).unwrap();
    std::fs::write(&shared, &bytes).unwrap();
    let v = size_json(&shared, &[]);
    check_partition(&v, bytes.len() as u64, "shared segments");
    let many = dir.path().join("many.ptn");
    let bytes = pte_gen::hostile::ptn_many_members(&corpus_bytes("native_ptn/model.ptn"), 65_536).unwrap();
    std::fs::write(&many, &bytes).unwrap();
    let o = pte(&["size", "--json", "--top", "5", s(&many)]);
    assert!(matches!(o.status.code(), Some(0 | 2)), "{}", stderr(&o));
    if o.status.code() == Some(0) {
        let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(total(&v), bytes.len() as u64);
    }
    let o = pte(&["size", s(&corpus("native_ptn/truth.json"))]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("`pte size` takes"), "{}", stderr(&o));
}
