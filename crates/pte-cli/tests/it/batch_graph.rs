//! `info` over many files (the batch form it shares with `verify`), folders
//! without models refused, `graph` on every kind that carries a program, and
//! `.ptd` extraction through the same output path as the other kinds.

use std::process::Command;

use serde_json::Value;

use crate::support::{corpus, corpus_root, graphviz_installed, pte, s, stderr, stdout};

#[test]
fn info_json_over_a_folder_is_one_object_per_file_then_a_summary() {
    let o = pte(&["info", "--json", s(&corpus_root())]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let rows: Vec<Value> = stdout(&o).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    // the same 19 files batch verify picks by content, then the summary
    assert_eq!(rows.len(), 20);
    assert_eq!(rows[19]["summary"], serde_json::json!({"files": 19, "read": 19, "unreadable": 0}));
    let files: Vec<&str> = rows[..19].iter().map(|r| r["file"].as_str().unwrap()).collect();
    let mut sorted = files.clone();
    sorted.sort_unstable();
    assert_eq!(files, sorted, "path order");
    for kind in ["pte", "ptd", "ptn", "bpte"] {
        assert!(rows.iter().any(|r| r["format"] == kind), "no {kind} row");
    }
    // each line is the single-file object plus its path
    let linear = corpus("linear").join("model.pte");
    let row = rows.iter().find(|r| r["file"] == s(&linear)).unwrap();
    let single: Value = serde_json::from_str(&stdout(&pte(&["info", "--json", s(&linear)]))).unwrap();
    let mut without = row.clone();
    without.as_object_mut().unwrap().remove("file");
    assert_eq!(without, single);
}

#[test]
fn info_many_with_tensors_carries_each_table() {
    let ext = corpus("external");
    let o = pte(&["info", "--json", "--tensors", s(&ext)]);
    let rows: Vec<Value> = stdout(&o).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 3);
    assert!(rows[..2].iter().all(|r| r["tensors"].as_array().is_some_and(|t| !t.is_empty())), "{rows:?}");
}

#[test]
fn info_text_over_many_files_has_a_header_per_file_and_the_worst_exit() {
    let d = tempfile::tempdir().unwrap();
    let junk = d.path().join("junk.pte");
    std::fs::write(&junk, b"not a program at all").unwrap();
    let a = corpus("add").join("model.pte");
    let p = corpus("native_ptn").join("model.ptn");
    let o = pte(&["info", s(&a), s(&junk), s(&p)]);
    assert_eq!(o.status.code(), Some(2), "an unreadable file makes the batch exit 2");
    let text = stdout(&o);
    assert!(text.starts_with(&format!("==> {} <==\nformat: ExecuTorch program (.pte)", s(&a))), "{text}");
    assert!(text.contains(&format!("\n\n==> {} <==\nerror: ", s(&junk))), "{text}");
    assert!(text.contains(&format!("\n\n==> {} <==\nptn package, ", s(&p))), "{text}");
    assert!(text.ends_with("\n3 files: 2 read, 1 unreadable\n"), "{text}");
    let o = pte(&["info", "--json", s(&a), s(&junk)]);
    assert_eq!(o.status.code(), Some(2));
    let rows: Vec<Value> = stdout(&o).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows[1]["file"], s(&junk));
    assert!(rows[1]["error"].as_str().unwrap().contains("not an ExecuTorch file"), "{rows:?}");
    assert_eq!(rows[2]["summary"]["unreadable"], 1);
    // one file that is not a folder keeps the single-file form
    let o = pte(&["info", s(&a)]);
    assert!(!stdout(&o).contains("==>"));
}

/// A folder with no model in it (empty, or holding other files only) is a
/// usage error for every batch command: exit 2 naming the folder, nothing on
/// stdout, where a "0 files" summary and exit 0 once passed it as clean. A
/// folder that holds one, named beside the empty one, does not excuse it.
#[test]
fn a_folder_without_models_is_a_usage_error() {
    let d = tempfile::tempdir().unwrap();
    let empty = d.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let other = d.path().join("other");
    std::fs::create_dir_all(other.join("deeper")).unwrap();
    std::fs::write(other.join("notes.txt"), "no model here\n").unwrap();
    std::fs::write(other.join("deeper").join("weights.pte"), "a text file named like a program\n").unwrap();
    let models = corpus("linear");
    for dir in [&empty, &other] {
        for args in [
            vec!["info", s(dir)],
            vec!["info", "--json", s(dir)],
            vec!["verify", s(dir)],
            vec!["verify", "--json", s(dir)],
            vec!["ops", s(dir)],
            vec!["verify", s(&models), s(dir)],
        ] {
            let o = pte(&args);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stdout(&o));
            let err = stderr(&o);
            assert!(err.contains(&format!("{}: a directory with no ExecuTorch file", s(dir))), "{args:?}: {err}");
            assert!(stdout(&o).is_empty(), "{args:?}: {}", stdout(&o));
        }
    }
    let o = pte(&["verify", s(&models)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn graph_of_a_package_draws_its_native_graph() {
    let o = pte(&["graph", s(&corpus("native_ptn").join("model.ptn"))]);
    assert!(o.status.success(), "{}", stderr(&o));
    let dot = stdout(&o);
    assert!(dot.starts_with("digraph \"forward\" {") && dot.ends_with("}\n"), "{dot}");
    // constants by the data key the package stores them under
    assert!(dot.contains("v0 [label=\"seq.0.weight\""), "{dot}");
    assert!(dot.contains("op0 [label=\"aten.linear.default\""), "{dot}");
    assert!(dot.contains("in0 -> op0 [label=\"float32 [2, 16]\"]"), "{dot}");
    assert!(dot.contains("v0 -> op0 [label=\"float32 [32, 16]\"]"), "{dot}");
    assert!(dot.contains("op3 -> out0 [label=\"float32 [2, 8]\"]"), "{dot}");
    let o = pte(&["graph", "--format", "mermaid", "--method", "nope", s(&corpus("native_ptn").join("model.ptn"))]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("methods: forward"), "{}", stderr(&o));
}

#[test]
fn graph_of_a_bundle_is_the_graph_of_its_program() {
    let d = tempfile::tempdir().unwrap();
    let bpte = corpus("bundled").join("model.bpte");
    let inner = d.path().join("inner.pte");
    assert!(pte(&["bpte", "unbundle", s(&bpte), s(&inner)]).status.success());
    for format in ["dot", "mermaid"] {
        let a = pte(&["graph", "--format", format, s(&bpte)]);
        assert!(a.status.success(), "{}", stderr(&a));
        let b = pte(&["graph", "--format", format, s(&inner)]);
        assert_eq!(stdout(&a), stdout(&b));
        assert!(stdout(&a).contains("aten::addmm.out"), "{}", stdout(&a));
    }
}

#[test]
fn graph_refuses_tensor_data_by_name() {
    let o = pte(&["graph", s(&corpus("external").join("_default_external_constant.ptd"))]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("a .ptd holds tensor data only, no program to draw"), "{}", stderr(&o));
}

#[test]
fn graphs_of_every_program_kind_render_with_graphviz_when_installed() {
    if !graphviz_installed() {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    for f in [corpus("native_ptn").join("model.ptn"), corpus("bundled").join("model.bpte")] {
        let dot = d.path().join("g.dot");
        assert!(pte(&["graph", "-o", s(&dot), s(&f)]).status.success());
        let o = Command::new("dot").arg("-Tsvg").arg(&dot).output().unwrap();
        assert!(o.status.success(), "{}: {}", f.display(), String::from_utf8_lossy(&o.stderr));
        assert!(String::from_utf8_lossy(&o.stdout).contains("<svg"));
    }
}

#[test]
fn tensor_data_extracts_like_every_other_kind() {
    let d = tempfile::tempdir().unwrap();
    let ptd = corpus("external").join("_default_external_constant.ptd");
    let out = d.path().join("x");
    let o = pte(&["extract", s(&ptd), s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let m: Value = serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(m["manifest_version"], 2);
    assert_eq!(m["format"], "ptd");
    let entries = m["entries"].as_array().unwrap();
    // a key names its segment's file: the same bytes, written once
    let key = entries.iter().find(|e| e["key"] == "seq.2.weight").unwrap();
    let seg = entries.iter().find(|e| e["kind"] == "segment" && e["index"] == key["segment_index"]).unwrap();
    assert_eq!(key["file"], seg["file"]);
    assert!(!out.join(".manifest.json.partial").exists());
    // packs back to the same bytes
    let back = d.path().join("back.ptd");
    assert!(pte(&["pack", s(&out), s(&back)]).status.success());
    assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(&ptd).unwrap());
    // the folder safety and the file limit of the other kinds
    let o = pte(&["extract", s(&ptd), s(&out)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not empty"), "{}", stderr(&o));
    assert!(pte(&["extract", "--force", s(&ptd), s(&out)]).status.success());
    let o = pte(&["extract", "--max-files", "2", s(&ptd), s(&d.path().join("y"))]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("over the limit of 2"), "{}", stderr(&o));
    assert!(!d.path().join("y").join("manifest.json").exists());
}
