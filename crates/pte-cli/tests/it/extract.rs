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
