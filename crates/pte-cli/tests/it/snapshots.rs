//! Snapshot tests of `pte info` (text and JSON, with and without
//! `--tensors`), `pte verify` (text and JSON) and `pte graph` (DOT and
//! Mermaid, every kind with a program) on every corpus file, and of batch
//! `pte verify` over the corpus, stored under tests/snapshots/. Commands
//! run in the corpus folder with relative paths, so the outputs that name
//! a file do not depend on where the repository sits.
//! `PTE_BLESS=1 cargo test -p pte-cli --test it snapshots::` rewrites them;
//! review the diff before committing.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::{corpus_files, corpus_root, PTE};

fn snapshots() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots")
}

#[test]
fn outputs_match_their_snapshots() {
    let bless = std::env::var_os("PTE_BLESS").is_some_and(|v| v == "1");
    // every ExecuTorch file of the corpus, by extension (the corpus names them plainly)
    let files = corpus_files(&["pte", "ptd", "ptn", "bpte"]);
    assert!(files.len() >= 16, "corpus not found: {files:?}");
    let mut failures = vec![];
    let mut expected_names = vec![];
    for f in &files {
        let case = f.parent().unwrap().file_name().unwrap().to_string_lossy().into_owned();
        let file = f.file_name().unwrap().to_string_lossy().into_owned();
        let has_program = !file.ends_with(".ptd");
        for (variant, args) in [
            ("text", &["info"][..]),
            ("json", &["info", "--json"][..]),
            ("tensors.text", &["info", "--tensors"][..]),
            ("tensors.json", &["info", "--json", "--tensors"][..]),
            ("verify.text", &["verify"][..]),
            ("verify.json", &["verify", "--json"][..]),
            ("graph.dot", &["graph"][..]),
            ("graph.mermaid", &["graph", "--format", "mermaid"][..]),
        ] {
            if variant.starts_with("graph") && !has_program {
                continue;
            }
            let rel = format!("{case}/{file}");
            let o = Command::new(PTE).current_dir(corpus_root()).args(args).arg(&rel).output().unwrap();
            assert!(o.status.success(), "{}: {}", f.display(), String::from_utf8_lossy(&o.stderr));
            let actual = String::from_utf8(o.stdout).unwrap();
            let name = format!("{case}.{file}.{variant}");
            let path = snapshots().join(&name);
            expected_names.push(name.clone());
            if bless {
                std::fs::create_dir_all(snapshots()).unwrap();
                std::fs::write(&path, &actual).unwrap();
                continue;
            }
            compare(&name, &actual, &mut failures);
        }
    }
    // the batch form over the whole corpus, in one process
    for (variant, args) in [("text", &["verify", "."][..]), ("json", &["verify", "--json", "."][..])] {
        let o = Command::new(PTE).current_dir(corpus_root()).args(args).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let name = format!("corpus.verify-many.{variant}");
        expected_names.push(name.clone());
        let actual = String::from_utf8(o.stdout).unwrap();
        if bless {
            std::fs::write(snapshots().join(&name), &actual).unwrap();
        } else {
            compare(&name, &actual, &mut failures);
        }
    }
    // a snapshot whose file left the corpus is stale
    if !bless {
        for e in std::fs::read_dir(snapshots()).into_iter().flatten() {
            let n = e.unwrap().file_name().to_string_lossy().into_owned();
            if !expected_names.contains(&n) {
                failures.push(format!("{n}: stale snapshot"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} snapshot(s) do not match (rerun with PTE_BLESS=1 to accept):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn compare(name: &str, actual: &str, failures: &mut Vec<String>) {
    match std::fs::read_to_string(snapshots().join(name)) {
        Ok(want) if want == actual => {}
        Ok(want) => failures.push(format!("{name}: differs\n{}", first_difference(&want, actual))),
        Err(_) => failures.push(format!("{name}: no snapshot")),
    }
}

fn first_difference(want: &str, got: &str) -> String {
    for (i, (w, g)) in want.lines().zip(got.lines()).enumerate() {
        if w != g {
            return format!("  line {}:\n  - {w}\n  + {g}", i + 1);
        }
    }
    format!("  lengths differ: {} lines expected, {} got", want.lines().count(), got.lines().count())
}
