//! Snapshot tests of `pte info` (text and JSON, with and without
//! `--tensors`) on every corpus file, stored under tests/snapshots/.
//! `PTE_BLESS=1 cargo test -p pte-cli --test snapshots` rewrites them;
//! review the diff before committing.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs
)]

use std::path::{Path, PathBuf};
use std::process::Command;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

fn snapshots() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots")
}

/// Every ExecuTorch file of the corpus, by extension (the corpus names them plainly).
fn files() -> Vec<PathBuf> {
    let mut out = vec![];
    for case in std::fs::read_dir(corpus()).unwrap() {
        let case = case.unwrap().path();
        if !case.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&case).unwrap() {
            let f = f.unwrap().path();
            if matches!(f.extension().and_then(|e| e.to_str()), Some("pte" | "ptd" | "ptn" | "bpte")) {
                out.push(f);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn info_outputs_match_their_snapshots() {
    let bless = std::env::var_os("PTE_BLESS").is_some_and(|v| v == "1");
    let files = files();
    assert!(files.len() >= 16, "corpus not found: {files:?}");
    let mut failures = vec![];
    let mut expected_names = vec![];
    for f in &files {
        let case = f.parent().unwrap().file_name().unwrap().to_string_lossy().into_owned();
        let file = f.file_name().unwrap().to_string_lossy().into_owned();
        for (variant, args) in [
            ("text", &[][..]),
            ("json", &["--json"][..]),
            ("tensors.text", &["--tensors"][..]),
            ("tensors.json", &["--json", "--tensors"][..]),
        ] {
            let o = Command::new(env!("CARGO_BIN_EXE_pte")).arg("info").args(args).arg(f).output().unwrap();
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
            match std::fs::read_to_string(&path) {
                Ok(want) if want == actual => {}
                Ok(want) => failures.push(format!("{name}: differs\n{}", first_difference(&want, &actual))),
                Err(_) => failures.push(format!("{name}: no snapshot")),
            }
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

fn first_difference(want: &str, got: &str) -> String {
    for (i, (w, g)) in want.lines().zip(got.lines()).enumerate() {
        if w != g {
            return format!("  line {}:\n  - {w}\n  + {g}", i + 1);
        }
    }
    format!("  lengths differ: {} lines expected, {} got", want.lines().count(), got.lines().count())
}
