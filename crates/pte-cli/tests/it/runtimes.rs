//! Kernels per release (crates/pte-analysis/data/operators-<release>.txt): `pte
//! verify` warns (needs.operator) on an operator the newest release's stock
//! runtime does not register, and `pte ops --runtime VERSION` lists what a
//! release lacks for a program.

use std::path::Path;
use std::process::Command;

use crate::ops::edited_add;
use crate::support::{corpus, corpus_files, s, stderr, stdout, PTE};

/// The add program calling `name.overload` instead of `aten::add.out`.
fn calling(dir: &Path, name: &str, overload: &str) -> std::path::PathBuf {
    let bytes = edited_add(|p| {
        let op = &mut p.execution_plan.as_mut().unwrap()[0].operators.as_mut().unwrap()[0];
        op.name = Some(name.to_string());
        op.overload = Some(overload.to_string());
    });
    let path = dir.join(format!("{name}.{overload}.pte").replace("::", "_"));
    std::fs::write(&path, bytes).unwrap();
    path
}

fn pte(args: &[&str]) -> std::process::Output {
    Command::new(PTE).args(args).output().unwrap()
}

#[test]
fn verify_warns_on_an_operator_the_stock_runtime_does_not_register() {
    let dir = tempfile::tempdir().unwrap();
    let custom = calling(dir.path(), "my_ops::fancy", "out");
    let o = pte(&["verify", s(&custom)]);
    assert_eq!(o.status.code(), Some(0), "a warning, not a violation: {}{}", stdout(&o), stderr(&o));
    let text = format!("{}{}", stdout(&o), stderr(&o));
    assert!(text.contains("needs.operator"), "{text}");
    assert!(
        text.contains("calls my_ops::fancy.out, which the stock runtime of ExecuTorch 1.5.1 does not register"),
        "{text}"
    );
    assert!(text.contains("OperatorMissing (0x14)") && text.contains("no release with data registers it"), "{text}");
    let o = pte(&["verify", "--deny-warnings", s(&custom)]);
    assert_eq!(o.status.code(), Some(1));
    // every stock operator is registered: no warning for the corpus
    for f in corpus_files(&["pte"]) {
        let o = pte(&["verify", s(&f)]);
        assert!(!format!("{}{}", stdout(&o), stderr(&o)).contains("needs.operator"), "{}", f.display());
    }
}

#[test]
fn ops_runtime_names_what_a_release_lacks() {
    let dir = tempfile::tempdir().unwrap();
    // registered from 1.3.1 on, not by 1.0.0
    let newer = calling(dir.path(), "aten::grid_sampler_2d", "out");
    let o = pte(&["ops", "--runtime", "1.0.0", s(&newer)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("ExecuTorch 1.0.0 lacks 1 operator (load_method: OperatorMissing 0x14):"), "{text}");
    assert!(
        text.contains("  aten::grid_sampler_2d.out (method \"forward\", 1 call; registered by 1.3.1, 1.5.1)"),
        "{text}"
    );
    let o = pte(&["ops", "--runtime", "1.5.1", s(&newer)]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).ends_with("ExecuTorch 1.5.1 registers every operator it calls\n"), "{}", stdout(&o));

    let o = pte(&["ops", "--runtime", "1.0.0", "--json", s(&newer), s(&corpus("add/model.pte"))]);
    assert_eq!(o.status.code(), Some(1));
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(j["runtime"], "1.0.0");
    let missing = &j["files"][0]["missing"][0];
    assert_eq!(
        (missing["operator"].as_str(), missing["method"].as_str()),
        (Some("aten::grid_sampler_2d.out"), Some("forward"))
    );
    assert_eq!(missing["registered_by"], serde_json::json!(["1.3.1", "1.5.1"]));
    assert_eq!(j["files"][1]["missing"], serde_json::json!([]));

    let o = pte(&["ops", "--runtime", "0.9.9", s(&newer)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no operator data for that release (known: 1.0.0, 1.3.1, 1.5.1)"), "{}", stderr(&o));
}
