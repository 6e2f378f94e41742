//! `pte extract`: shared ranges written once, a file-count bound, and no
//! extraction into a directory that already holds files unless forced.

use std::path::{Path, PathBuf};

use crate::support::{corpus, pte, s, stderr};

fn manifest(dir: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap()
}

fn files_in(dir: &Path) -> usize {
    walk(dir).len()
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![];
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn segment_entries_sharing_one_range_share_one_file() {
    let dir = tempfile::tempdir().unwrap();
    let base = std::fs::read(corpus("linear/model.pte")).unwrap();
    let input = dir.path().join("shared.pte");
    std::fs::write(&input, pte_gen::hostile::pte_shared_segments(&base, 100_000).unwrap()).unwrap();
    let x = dir.path().join("x");
    let o = pte(&["extract", s(&input), s(&x)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let m = manifest(&x);
    assert_eq!(m["manifest_version"], 2);
    let entries = m["entries"].as_array().unwrap();
    let segments: Vec<_> = entries.iter().filter(|e| e["kind"] == "segment").collect();
    assert_eq!(segments.len(), 100_000);
    assert!(segments.iter().all(|e| e["file"] == "segment-0.bin" && e["size"] == 60));
    // one segment file; the constants are sub-ranges of it, so theirs differ
    assert!(files_in(&x) < 10, "{} files", files_in(&x));
    for e in entries {
        let bytes = std::fs::read(x.join(e["file"].as_str().unwrap())).unwrap();
        assert_eq!(bytes.len() as u64, e["size"].as_u64().unwrap());
    }
}

#[test]
fn a_non_empty_directory_is_refused_unless_forced() {
    let dir = tempfile::tempdir().unwrap();
    let x = dir.path().join("x");
    let input = corpus("xnnpack_mlp/model.pte");
    assert!(pte(&["extract", s(&input), s(&x)]).status.success());
    std::fs::write(x.join("stale.bin"), b"old").unwrap();
    let before = files_in(&x);
    let manifest_before = std::fs::read(x.join("manifest.json")).unwrap();
    let o = pte(&["extract", s(&corpus("linear/model.pte")), s(&x)]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("not empty") && stderr(&o).contains("--force"), "{}", stderr(&o));
    assert_eq!(files_in(&x), before);
    assert_eq!(std::fs::read(x.join("manifest.json")).unwrap(), manifest_before);
    let o = pte(&["extract", "--force", s(&corpus("linear/model.pte")), s(&x)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(manifest(&x)["source"].as_str().unwrap().ends_with("linear/model.pte"));
    assert!(!x.join(".manifest.json.partial").exists());
}

#[test]
fn more_files_than_the_limit_are_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let x = dir.path().join("x");
    let o = pte(&["extract", "--max-files", "3", s(&corpus("xnnpack_mlp/model.pte")), s(&x)]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--max-files"), "{}", stderr(&o));
    assert!(!x.exists());
    // a package of 65,536 members asks for more files than the default allows
    let base = std::fs::read(corpus("native_ptn/model.ptn")).unwrap();
    let many = dir.path().join("many.ptn");
    std::fs::write(&many, pte_gen::hostile::ptn_many_members(&base, 65_536).unwrap()).unwrap();
    let o = pte(&["extract", s(&many), s(&x)]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(!x.exists());
}

/// A program of many constants is counted from views of it and refused
/// before its tables are decoded (the 1M-value program: 655 MiB resident
/// before, the mapped file alone now); inline constants count one file each.
#[test]
fn a_program_of_many_constants_is_refused_from_its_views() {
    let dir = tempfile::tempdir().unwrap();
    let x = dir.path().join("x");
    for (name, bytes) in [
        ("segment.pte", pte_file::test_programs::to_bytes(&pte_file::test_programs::program_heavy(4_000))),
        ("legacy.pte", pte_file::test_programs::program_heavy_legacy_bytes(4_000)),
    ] {
        let f = dir.path().join(name);
        std::fs::write(&f, bytes).unwrap();
        let o = pte(&["extract", "--max-files", "500", s(&f), s(&x)]);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", stderr(&o));
        assert!(stderr(&o).contains("more than 500 files"), "{name}: {}", stderr(&o));
        assert!(!x.exists());
        // under a limit that allows them, the same file extracts
        let o = pte(&["extract", "--max-files", "100000", s(&f), s(&x)]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        std::fs::remove_dir_all(&x).unwrap();
    }
}

#[test]
fn a_ptn_extracts_with_aliases_sharing_their_owner_file() {
    let dir = tempfile::tempdir().unwrap();
    let x = dir.path().join("x");
    let o = pte(&["extract", s(&corpus("native_ptn/model.ptn")), s(&x)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let m = manifest(&x);
    assert_eq!(m["format"], "ptn");
    for e in m["entries"].as_array().unwrap() {
        if let Some(owner) = e["alias_of"].as_str() {
            let owner_entry = m["entries"].as_array().unwrap().iter().find(|o| o["key"] == owner).unwrap();
            assert_eq!(e["file"], owner_entry["file"]);
        }
    }
}

/// The name, dtype and shape a manifest entry gives a tensor are those
/// `pte info --tensors` shows for it.
#[test]
fn manifest_tensors_are_named_as_info_names_them() {
    for case in ["linear/model.pte", "xnnpack_mlp/model.pte", "mutable_buffer/model.pte"] {
        let dir = tempfile::tempdir().unwrap();
        let x = dir.path().join("x");
        let o = pte(&["extract", s(&corpus(case)), s(&x)]);
        assert!(o.status.success(), "{}", stderr(&o));
        let o = pte(&["info", "--json", "--tensors", s(&corpus(case))]);
        let info: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let rows = info["tensors"].as_array().unwrap();
        let described: Vec<_> =
            manifest(&x)["entries"].as_array().unwrap().iter().filter(|e| e.get("name").is_some()).cloned().collect();
        assert_eq!(described.len(), rows.len(), "{case}");
        for e in described {
            let row = rows.iter().find(|r| r["name"] == e["name"]).unwrap_or_else(|| panic!("{case}: {e}"));
            assert_eq!(row["dtype"], e["dtype"], "{case}");
            assert_eq!(row["sizes"], e["shape"], "{case}");
        }
    }
}

#[test]
fn xnnpack_named_weights_carry_the_payload_dtype_and_shape() {
    let dir = tempfile::tempdir().unwrap();
    let x = dir.path().join("x");
    assert!(pte(&["extract", s(&corpus("xnnpack_mlp/model.pte")), s(&x)]).status.success());
    let m = manifest(&x);
    let shapes: Vec<_> =
        m["entries"].as_array().unwrap().iter().filter(|e| e["kind"] == "named").map(|e| e["shape"].clone()).collect();
    assert_eq!(
        shapes,
        [serde_json::json!([32, 16]), serde_json::json!([32]), serde_json::json!([8, 32]), serde_json::json!([8])]
    );
    assert!(m["entries"].as_array().unwrap().iter().filter(|e| e["kind"] == "named").all(|e| e["dtype"] == "fp32"));
}
