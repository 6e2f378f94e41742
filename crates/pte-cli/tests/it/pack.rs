//! `pte pack`: extract then pack and dump then pack give the same bytes for
//! every corpus file; edited JSON and blob files pack into what the edit says.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::support;
use crate::support::{pte, refused, s};

fn corpus_files() -> Vec<PathBuf> {
    let out = support::corpus_files(&["pte", "ptd"]);
    assert!(out.len() >= 14, "corpus not found");
    out
}

fn ok(args: &[&str]) -> String {
    let o = pte(args);
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

fn segment_files(dir: &Path) -> Vec<PathBuf> {
    let m: Value = serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap();
    let mut segs: Vec<(u64, PathBuf)> = m["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "segment")
        .map(|e| (e["index"].as_u64().unwrap(), dir.join(e["file"].as_str().unwrap())))
        .collect();
    segs.sort();
    segs.into_iter().map(|(_, p)| p).collect()
}

#[test]
fn extract_then_pack_is_byte_identical_for_every_corpus_file() {
    let tmp = tempfile::tempdir().unwrap();
    for (i, f) in corpus_files().iter().enumerate() {
        let dir = tmp.path().join(format!("x{i}"));
        ok(&["extract", s(f), s(&dir)]);
        let out = tmp.path().join(format!("out{i}.{}", f.extension().unwrap().to_str().unwrap()));
        ok(&["pack", s(&dir), s(&out)]);
        assert!(std::fs::read(&out).unwrap() == std::fs::read(f).unwrap(), "{}", f.display());
    }
}

#[test]
fn dump_plus_segments_then_pack_is_byte_identical() {
    let tmp = tempfile::tempdir().unwrap();
    for (i, f) in corpus_files().iter().enumerate() {
        let dir = tmp.path().join(format!("x{i}"));
        ok(&["extract", s(f), s(&dir)]);
        let json = tmp.path().join(format!("d{i}.json"));
        std::fs::write(&json, ok(&["dump", s(f)])).unwrap();
        let ext = f.extension().unwrap().to_str().unwrap();
        let out = tmp.path().join(format!("out{i}.{ext}"));
        let mut args = vec!["pack".to_string(), s(&json).into(), s(&out).into()];
        for seg in segment_files(&dir) {
            args.push("--segment".into());
            args.push(s(&seg).into());
        }
        // the legacy layout has no extended header: exir never writes that today
        if f.to_str().unwrap().contains("legacy_inline_constants") {
            args.push("--bare".into());
        }
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        ok(&a);
        assert!(std::fs::read(&out).unwrap() == std::fs::read(f).unwrap(), "{}", f.display());
    }
}

#[test]
fn pack_takes_the_layout_options_of_rewrite() {
    let tmp = tempfile::tempdir().unwrap();
    let f = corpus_files().into_iter().find(|f| f.to_str().unwrap().contains("xnnpack_mlp")).unwrap();
    let dir = tmp.path().join("x");
    ok(&["extract", s(&f), s(&dir)]);
    for opts in [
        vec!["--segment-alignment", "4096"],
        vec!["--constant-alignment", "64"],
        vec!["--delegates", "inline", "--delegate-alignment", "64"],
    ] {
        let packed = tmp.path().join("p.pte");
        let rewritten = tmp.path().join("r.pte");
        let mut a = vec!["pack", s(&dir), s(&packed)];
        a.extend(&opts);
        ok(&a);
        let mut a = vec!["rewrite", s(&f), s(&rewritten)];
        a.extend(&opts);
        ok(&a);
        assert_eq!(std::fs::read(&packed).unwrap(), std::fs::read(&rewritten).unwrap(), "{opts:?}");
        assert!(std::fs::read(&packed).unwrap() != std::fs::read(&f).unwrap(), "{opts:?} changed nothing");
    }
}

fn linear_extract(tmp: &Path) -> (PathBuf, Value) {
    let f = corpus_files().into_iter().find(|f| f.to_str().unwrap().contains("/linear/")).unwrap();
    let dir = tmp.join("x");
    ok(&["extract", s(&f), s(&dir)]);
    let p: Value = serde_json::from_slice(&std::fs::read(dir.join("program.json")).unwrap()).unwrap();
    (dir, p)
}

#[test]
fn a_tensor_size_edit_packs_into_a_file_verify_rejects() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, mut p) = linear_extract(tmp.path());
    p["execution_plan"][0]["values"][0]["val"]["sizes"] = serde_json::json!([3, 8]);
    std::fs::write(dir.join("program.json"), p.to_string()).unwrap();
    let out = tmp.path().join("o.pte");
    // pack verifies what it wrote: the file is kept, the broken rule named, exit 1
    let o = pte(&["pack", s(&dir), s(&out)]);
    assert_eq!(o.status.code(), Some(1), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("constant.bounds"), "{}", String::from_utf8_lossy(&o.stdout));
    assert!(String::from_utf8_lossy(&o.stderr).contains("the file is kept"));
    let o = pte(&["verify", s(&out)]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains("constant.bounds"), "{}", String::from_utf8_lossy(&o.stdout));
}

#[test]
fn an_operator_rename_packs_and_reads_back() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, mut p) = linear_extract(tmp.path());
    p["execution_plan"][0]["operators"][2]["name"] = "aten::gelu".into();
    std::fs::write(dir.join("program.json"), p.to_string()).unwrap();
    let out = tmp.path().join("o.pte");
    ok(&["pack", s(&dir), s(&out)]);
    assert!(ok(&["verify", s(&out)]).contains("valid"));
    let back: Value = serde_json::from_str(&ok(&["dump", s(&out)])).unwrap();
    assert_eq!(back["execution_plan"][0]["operators"][2]["name"], "aten::gelu");
}

#[test]
fn an_edited_constant_file_lands_in_its_segment() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, _) = linear_extract(tmp.path());
    let mut w = std::fs::read(dir.join("constant-1.bin")).unwrap();
    w[..4].copy_from_slice(&100f32.to_le_bytes());
    std::fs::write(dir.join("constant-1.bin"), &w).unwrap();
    let out = tmp.path().join("o.pte");
    ok(&["pack", s(&dir), s(&out)]);
    assert!(ok(&["verify", s(&out)]).contains("valid"));
    let again = tmp.path().join("y");
    ok(&["extract", s(&out), s(&again)]);
    assert_eq!(std::fs::read(again.join("constant-1.bin")).unwrap(), w);
    // a resized constant cannot go back in place
    std::fs::write(dir.join("constant-1.bin"), [0u8; 4]).unwrap();
    refused(&["pack", s(&dir), s(&out)], 2, "keeps its size");
}

#[test]
fn bad_json_names_the_path_and_line() {
    let tmp = tempfile::tempdir().unwrap();
    let j = tmp.path().join("p.json");
    std::fs::write(&j, "{\n  \"version\": 0,\n  \"execution_plan\": [\n    { \"name\": 7 }\n  ]\n}\n").unwrap();
    let o = pte(&["pack", s(&j), s(&tmp.path().join("o.pte"))]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("execution_plan[0].name") && e.contains("line 4"), "{e}");
    std::fs::write(&j, "{\"version\": 0, \"segments\": [{\"offset\": 0, \"size\": 4}]}").unwrap();
    refused(&["pack", s(&j), s(&tmp.path().join("o.pte"))], 2, "1 segments but 0");
}

#[test]
fn pack_takes_every_layout_option_of_rewrite() {
    let tmp = tempfile::tempdir().unwrap();
    let legacy = support::corpus("legacy_inline_constants/model.pte");
    let dir = tmp.path().join("x");
    ok(&["extract", s(&legacy), s(&dir)]);
    // --constants segment moves the legacy inline constants, as rewrite does
    let packed = tmp.path().join("packed.pte");
    ok(&["pack", s(&dir), s(&packed), "--constants", "segment"]);
    let rewritten = tmp.path().join("rewritten.pte");
    ok(&["rewrite", s(&legacy), s(&rewritten), "--constants", "segment"]);
    assert_eq!(std::fs::read(&packed).unwrap(), std::fs::read(&rewritten).unwrap());
    assert_ne!(std::fs::read(&packed).unwrap(), std::fs::read(&legacy).unwrap());
    ok(&["verify", s(&packed)]);
    // a .ptd takes the segment alignment only
    let ptd = support::corpus("external/_default_external_constant.ptd");
    let pdir = tmp.path().join("p");
    ok(&["extract", s(&ptd), s(&pdir)]);
    let o = pte(&["pack", s(&pdir), s(&tmp.path().join("o.ptd")), "--constants", "segment"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_manifest_of_a_later_version_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("x");
    ok(&["extract", s(&support::corpus("add/model.pte")), s(&dir)]);
    let m = dir.join("manifest.json");
    let text = std::fs::read_to_string(&m).unwrap();
    assert!(text.contains("\"manifest_version\":2"));
    std::fs::write(&m, text.replace("\"manifest_version\":2", "\"manifest_version\":3")).unwrap();
    refused(&["pack", s(&dir), s(&tmp.path().join("o.pte"))], 2, "manifest_version 3 is newer");
}

/// A folder whose manifest has none of the fields added after version 2's
/// first release (`name`, `dtype`, `shape`), keys in the order the old
/// writer used, with or without `manifest_version`/`format`, packs to the
/// same bytes.
#[test]
fn a_manifest_without_the_descriptive_fields_packs_the_same() {
    let tmp = tempfile::tempdir().unwrap();
    for (i, f) in corpus_files().iter().enumerate() {
        let dir = tmp.path().join(format!("x{i}"));
        ok(&["extract", s(f), s(&dir)]);
        let path = dir.join("manifest.json");
        let mut m: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        for e in m["entries"].as_array_mut().unwrap() {
            let e = e.as_object_mut().unwrap();
            assert!(e.contains_key("sha256"));
            for k in ["name", "dtype", "shape"] {
                e.remove(k);
            }
        }
        let is_ptd = m["format"] == "ptd";
        for version_one in [false, true] {
            if version_one && !is_ptd {
                let o = m.as_object_mut().unwrap();
                o.remove("manifest_version");
                o.remove("format");
            }
            // serde_json's map is sorted: the old writer's key order
            std::fs::write(&path, m.to_string()).unwrap();
            let out = tmp.path().join(format!("out{i}.{}", f.extension().unwrap().to_str().unwrap()));
            ok(&["pack", s(&dir), s(&out)]);
            assert!(std::fs::read(&out).unwrap() == std::fs::read(f).unwrap(), "{}", f.display());
        }
    }
}

fn corpus_file(part: &str) -> PathBuf {
    support::corpus_files(&["pte", "ptd", "ptn"]).into_iter().find(|f| f.to_str().unwrap().contains(part)).unwrap()
}

fn extract_pack(tmp: &Path, source: &Path, name: &str) -> (PathBuf, String) {
    let dir = tmp.join(format!("x-{name}"));
    ok(&["extract", s(source), s(&dir)]);
    let ext = source.extension().unwrap().to_str().unwrap();
    let out = tmp.join(format!("{name}.out.{ext}"));
    let said = ok(&["pack", s(&dir), s(&out)]);
    assert!(std::fs::read(&out).unwrap() == std::fs::read(source).unwrap(), "{name}: {said}");
    (dir, said)
}

/// Layouts our own writer never makes but other writers do: an `eh00` with
/// `segment_data_size` 0 (exporters before 1.0), non-zero padding between
/// the program and its segments, bytes after the last segment, no constant
/// segment (legacy inline constants), a bare flatbuffer without header.
#[test]
fn layouts_of_other_writers_come_back_byte_for_byte() {
    let tmp = tempfile::tempdir().unwrap();
    let linear = std::fs::read(corpus_file("/linear/")).unwrap();
    let mut variants: Vec<(&str, Vec<u8>)> = vec![];
    let mut v = linear.clone();
    v[32..40].fill(0);
    variants.push(("zero-segment-data-size", v));
    let mut v = linear.clone();
    // program_size 1616, segments from 1664: the padding between
    let program_size = u64::from_le_bytes(v[16..24].try_into().unwrap()) as usize;
    let base = u64::from_le_bytes(v[24..32].try_into().unwrap()) as usize;
    v[program_size..base].fill(0xab);
    variants.push(("non-zero-padding", v));
    let mut v = linear.clone();
    v.extend_from_slice(b"trailing bytes a writer left");
    variants.push(("trailing-bytes", v));
    variants.push(("legacy-inline", std::fs::read(corpus_file("/legacy_inline_constants/")).unwrap()));
    for (name, bytes) in &variants {
        let f = tmp.path().join(format!("{name}.pte"));
        std::fs::write(&f, bytes).unwrap();
        let verdict = pte(&["verify", s(&f)]).status.code();
        let (_, said) = extract_pack(tmp.path(), &f, name);
        assert!(said.contains("the source's bytes as stored"), "{name}: {said}");
        // pack judged its output as verify judges the source
        assert_eq!(verdict, Some(0), "{name}");
    }
}

#[test]
fn a_package_folder_packs_back_and_an_edited_one_is_rebuilt() {
    let tmp = tempfile::tempdir().unwrap();
    let src = corpus_file("/native_ptn/");
    let (dir, said) = extract_pack(tmp.path(), &src, "ptn");
    assert!(said.contains("as stored"), "{said}");
    let m: Value = serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap();
    let weight = m["entries"].as_array().unwrap().iter().find(|e| e["kind"] == "constant").unwrap()["file"]
        .as_str()
        .unwrap()
        .to_string();
    let mut w = std::fs::read(dir.join(&weight)).unwrap();
    w[..4].copy_from_slice(&1.5f32.to_le_bytes());
    std::fs::write(dir.join(&weight), &w).unwrap();
    let out = tmp.path().join("edited.ptn");
    let said = ok(&["pack", s(&dir), s(&out)]);
    assert!(said.contains("encoded again") && said.contains(&weight), "{said}");
    let again = tmp.path().join("again");
    ok(&["extract", s(&out), s(&again)]);
    assert_eq!(std::fs::read(again.join(&weight)).unwrap(), w);
    let o = pte(&["pack", s(&dir), s(&tmp.path().join("a.ptn")), "--segment-alignment", "4096"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_constant_edited_in_place_is_named_and_the_rest_kept() {
    let tmp = tempfile::tempdir().unwrap();
    let src = corpus_file("/linear/");
    let (dir, _) = linear_extract(tmp.path());
    let mut w = std::fs::read(dir.join("constant-1.bin")).unwrap();
    w[..4].copy_from_slice(&2f32.to_le_bytes());
    std::fs::write(dir.join("constant-1.bin"), &w).unwrap();
    let out = tmp.path().join("o.pte");
    let said = ok(&["pack", s(&dir), s(&out)]);
    assert!(said.contains("edited in place: constant-1.bin"), "{said}");
    let (a, b) = (std::fs::read(&out).unwrap(), std::fs::read(&src).unwrap());
    let differing: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
    assert_eq!(a.len(), b.len());
    assert!(!differing.is_empty() && differing.iter().all(|&i| (1664..1668).contains(&i)), "{differing:?}");
}

#[test]
fn links_in_a_folder_are_refused_unless_allowed_and_never_lead_outside() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, _) = linear_extract(tmp.path());
    let secret = tmp.path().join("secret.bin");
    std::fs::write(&secret, [0x5a; 48]).unwrap();
    let out = tmp.path().join("o.pte");
    let blob = dir.join("constant-1.bin");
    let kept = std::fs::read(&blob).unwrap();
    std::fs::remove_file(&blob).unwrap();
    std::os::unix::fs::symlink(&secret, &blob).unwrap();
    for extra in [&[][..], &["--allow-links"][..]] {
        let mut args = vec!["pack", s(&dir), s(&out)];
        args.extend_from_slice(extra);
        let o = pte(&args);
        assert_eq!(o.status.code(), Some(2), "{extra:?}");
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(e.contains("symbolic link") || e.contains("outside the folder"), "{e}");
        assert!(!out.exists());
    }
    // a link inside the folder is taken when allowed
    std::fs::remove_file(&blob).unwrap();
    std::fs::write(dir.join("copy.bin"), &kept).unwrap();
    std::os::unix::fs::symlink("copy.bin", &blob).unwrap();
    assert_eq!(pte(&["pack", s(&dir), s(&out)]).status.code(), Some(2));
    ok(&["pack", s(&dir), s(&out), "--allow-links"]);
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(corpus_file("/linear/")).unwrap());
    // a hard link may be a file from anywhere
    std::fs::remove_file(&blob).unwrap();
    std::fs::hard_link(dir.join("copy.bin"), &blob).unwrap();
    refused(&["pack", s(&dir), s(&out)], 2, "hard links");
}

#[test]
fn a_constant_grown_to_4_gib_is_refused_before_it_is_read() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, _) = linear_extract(tmp.path());
    let f = std::fs::OpenOptions::new().write(true).open(dir.join("constant-1.bin")).unwrap();
    f.set_len(4 << 30).unwrap();
    let out = tmp.path().join("o.pte");
    refused(&["pack", s(&dir), s(&out)], 2, "4294967296 bytes");
    assert!(!out.exists());
}

#[test]
fn a_bundle_is_not_extracted_and_the_message_says_where_to_go() {
    let tmp = tempfile::tempdir().unwrap();
    let b = support::corpus_files(&["bpte"]).into_iter().next().unwrap();
    refused(&["extract", s(&b), s(&tmp.path().join("b"))], 2, "pte bpte unbundle");
}

/// Every file of `tests/writers` (older exporters, flatc-generated Python
/// code, flatc's C++ builder): extract then pack gives its bytes back.
#[test]
fn extract_then_pack_is_byte_identical_for_files_of_other_writers() {
    let root = support::corpus_root().parent().unwrap().join("writers");
    let mut files = vec![];
    for w in std::fs::read_dir(&root).unwrap() {
        let w = w.unwrap().path();
        if w.is_dir() {
            for f in std::fs::read_dir(&w).unwrap() {
                let f = f.unwrap().path();
                if matches!(f.extension().and_then(|e| e.to_str()), Some("pte" | "ptd")) {
                    files.push(f);
                }
            }
        }
    }
    files.sort();
    assert!(files.len() >= 20, "tests/writers not found: {files:?}");
    let tmp = tempfile::tempdir().unwrap();
    for (i, f) in files.iter().enumerate() {
        let (_, said) = extract_pack(tmp.path(), f, &format!("w{i}"));
        assert!(said.contains("as stored") || said.contains("kept"), "{}: {said}", f.display());
    }
}
