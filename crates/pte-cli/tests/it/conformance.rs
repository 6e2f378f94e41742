//! `pte conformance` end to end, and `pte verify` on the packages breaking
//! the rules of upstream's C++ package reader.

use std::io::{Cursor, Read, Write};

use serde_json::Value as Json;

use crate::support::*;

fn json_of(o: &std::process::Output) -> Json {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}{}", stdout(o), stderr(o)))
}

#[test]
fn verify_refuses_a_deflated_member_and_each_cap_naming_the_rule() {
    let dir = tempfile::tempdir().unwrap();
    let input = corpus("native_ptn/model.ptn");
    // a deflated twin, as zip tools write it: it reads, and is refused
    let bytes = std::fs::read(&input).unwrap();
    let mut z = zip::ZipArchive::new(Cursor::new(&bytes[..])).unwrap();
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for i in 0..z.len() {
        let mut f = z.by_index(i).unwrap();
        let mut data = vec![];
        f.read_to_end(&mut data).unwrap();
        let opts = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
        w.start_file(f.name().unwrap().to_string(), opts).unwrap();
        w.write_all(&data).unwrap();
    }
    let deflated = dir.path().join("deflated.ptn");
    std::fs::write(&deflated, w.finish().unwrap().into_inner()).unwrap();
    let o = pte(&["verify", s(&deflated)]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("[ptn.stored]"), "{}", stdout(&o));
    // it still reads: `pte info` describes it (and exits 1 for the violation)
    let info = stdout(&pte(&["info", s(&deflated)]));
    assert!(info.starts_with("ptn package") && info.contains("constants: 4"), "{info}");
    // each cap a small file can break, through its corruption class
    for rule in [
        "ptn.limit.program",
        "ptn.limit.json_size",
        "ptn.limit.json_depth",
        "ptn.limit.rank",
        "ptn.limit.dim",
        "ptn.limit.constant_bytes",
    ] {
        let out = dir.path().join(format!("{rule}.ptn"));
        let m = pte(&["mutate", "--rule", rule, s(&input), s(&out)]);
        assert!(m.status.success(), "{rule}: {}", stderr(&m));
        let o = pte(&["verify", s(&out)]);
        assert_eq!(o.status.code(), Some(1), "{rule}: {}", stdout(&o));
        assert!(stdout(&o).contains(&format!("[{rule}]")), "{rule}: {}", stdout(&o));
    }
}

#[test]
fn pte_verify_agrees_on_every_case() {
    let o = pte(&["conformance", "run", "--jobs", "2", "--", PTE, "verify", "{}"]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let last = stdout(&o).lines().last().unwrap_or("").to_string();
    assert!(last.starts_with("suite 1: ") && last.contains(" 0 disagree"), "{last}");
}

#[test]
fn a_parser_accepting_everything_disagrees_on_exactly_the_invalid_cases() {
    let list = json_of(&pte(&["conformance", "list", "--json"]));
    let invalid: Vec<&str> = list["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["expect"] == "refuse")
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    let o = pte(&["conformance", "run", "--json", "--jobs", "2", "--", "true"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let r = json_of(&o);
    assert_eq!(r["cases"], list["cases"].as_array().unwrap().len());
    assert_eq!(r["invalid"], invalid.len());
    let disagreeing: Vec<&str> =
        r["disagreements"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(disagreeing, invalid);
    assert!(r["disagreements"].as_array().unwrap().iter().all(|c| c["got"] == "accepted" && c["expect"] == "refuse"));
    assert_eq!(
        (r["accepted_invalid"].as_u64(), r["crashes"].as_u64(), r["hangs"].as_u64()),
        (Some(invalid.len() as u64), Some(0), Some(0))
    );
}

#[test]
fn kind_runs_only_the_cases_of_that_kind() {
    let list = json_of(&pte(&["conformance", "list", "--json"]));
    let ptd = list["cases"].as_array().unwrap().iter().filter(|c| c["kind"] == "ptd").count();
    let r = json_of(&pte(&["conformance", "run", "--json", "--kind", "ptd", "--", "true"]));
    assert!(ptd > 1);
    assert_eq!(r["cases"].as_u64(), Some(ptd as u64));
    assert!(r["disagreements"].as_array().unwrap().iter().all(|c| c["kind"] == "ptd"));
}

#[test]
fn a_signal_is_a_crash_and_the_timeout_a_hang() {
    // valid.pte.add hangs, invalid.pte.bad-identifier crashes, everything else is accepted
    let script = r#"case "$0" in *valid.pte.add.pte) exec sleep 30;; *invalid.pte.bad-identifier.pte) kill -SEGV $$;; esac; exit 0"#;
    let started = std::time::Instant::now();
    let o = pte(&["conformance", "run", "--json", "--timeout", "1", "--jobs", "2", "--", "sh", "-c", script, "{}"]);
    assert!(started.elapsed().as_secs() < 30, "the hang was not stopped");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let r = json_of(&o);
    assert_eq!((r["crashes"].as_u64(), r["hangs"].as_u64()), (Some(1), Some(1)), "{r}");
    let got = |name: &str| r["disagreements"].as_array().unwrap().iter().find(|c| c["name"] == name).cloned().unwrap();
    assert_eq!(got("valid.pte.add")["got"], "hang");
    let crash = got("invalid.pte.bad-identifier");
    assert_eq!((crash["got"].as_str(), crash["signal"].as_i64()), (Some("crash"), Some(11)));
    assert_eq!(r["disagreements"].as_array().unwrap().len() as u64, r["invalid"].as_u64().unwrap() + 1);
    assert!(r["peak_memory"]["max_rss_kib"].as_u64().unwrap() > 0);
    // the text form groups by rule and ends with the summary
    let o = pte(&["conformance", "run", "--timeout", "1", "--", "sh", "-c", script, "{}"]);
    let text = stdout(&o);
    assert!(text.contains("(valid file)") && text.contains("hang") && text.contains("signal 11"), "{text}");
    assert!(text.lines().last().unwrap().contains("1 crashes, 1 hangs"), "{text}");
}

#[test]
fn export_writes_every_case_and_the_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("suite");
    let o = pte(&["conformance", "export", s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let manifest: Json = serde_json::from_slice(&std::fs::read(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest, json_of(&pte(&["conformance", "list", "--json"])));
    for c in manifest["cases"].as_array().unwrap() {
        let bytes = std::fs::read(out.join(c["file"].as_str().unwrap())).unwrap();
        assert_eq!(bytes.len() as u64, c["size"].as_u64().unwrap());
    }
    // a folder holding files is refused unless forced
    assert_eq!(pte(&["conformance", "export", s(&out)]).status.code(), Some(2));
    assert!(pte(&["conformance", "export", "--force", s(&out)]).status.success());
}
