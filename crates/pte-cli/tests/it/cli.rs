//! The `pte` binary end to end: output, exit codes, and one-line errors.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

use crate::support::{corpus, model, pte, s, stderr, stdout, PTE};

#[test]
fn info_json_lists_methods_segments_and_constants() {
    let o = pte(&["info", "--json", s(&model("linear"))]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["format"], "pte");
    assert_eq!(v["methods"][0]["name"], "forward");
    assert_eq!(v["methods"][0]["inputs"][0]["tensor"]["dtype"], "FLOAT");
    assert_eq!(v["segments"][0]["size"], 60);
    assert_eq!(v["constants"].as_array().unwrap().len(), 3);
    assert_eq!(v["extended_header"]["segment_base_offset"], 1664);
}

#[test]
fn info_text_is_a_readable_summary() {
    let o = pte(&["info", s(&model("xnnpack_mlp"))]);
    assert!(o.status.success());
    let t = stdout(&o);
    assert!(t.contains("method \"forward\""), "{t}");
    assert!(t.contains("XnnpackBackend"), "{t}");
    assert!(t.contains("named data: 4"), "{t}");
    // a method that calls no operator says what runs it
    assert!(t.contains("\n  operators (0): none; the work is delegated to XnnpackBackend\n"), "{t}");
}

#[test]
fn dump_is_flatc_json() {
    let o = pte(&["dump", s(&model("add"))]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["execution_plan"][0]["values"][0]["val_type"], "Tensor");
    assert!(v["named_data"].is_null());
}

#[test]
fn verify_passes_valid_and_fails_broken_files() {
    let o = pte(&["verify", s(&model("linear"))]);
    assert!(o.status.success(), "{}", stdout(&o));
    // the legacy inline-constant layout is valid but refused by stock builds: a warning
    let o = pte(&["verify", s(&model("legacy_inline_constants"))]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("warning: [program.constant_segment]"), "{}", stdout(&o));
    let o = pte(&["verify", "--deny-warnings", s(&model("legacy_inline_constants"))]);
    assert_eq!(o.status.code(), Some(1));
    let o = pte(&["verify", "--json", s(&model("legacy_inline_constants"))]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["valid"], true);
    assert_eq!(v["warnings"][0]["rule"], "program.constant_segment");
    // a real violation: exit 1, every violation listed
    let dir = tempfile::tempdir().unwrap();
    let mut b = std::fs::read(model("linear")).unwrap();
    b[4..8].copy_from_slice(b"ET13");
    let bad = dir.path().join("bad.pte");
    std::fs::write(&bad, &b).unwrap();
    let o = pte(&["verify", "--json", s(&bad)]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["valid"], false);
    assert_eq!(v["violations"][0]["rule"], "flatbuffer.identifier");
}

#[test]
fn bad_input_gives_one_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let truncated = dir.path().join("t.pte");
    let bytes = std::fs::read(model("linear")).unwrap();
    std::fs::write(&truncated, &bytes[..100]).unwrap();
    let garbage = dir.path().join("g.pte");
    std::fs::write(&garbage, b"hello world, this is not a program at all").unwrap();
    for args in [
        vec!["info", "/nonexistent/model.pte"],
        vec!["info", s(&truncated)],
        vec!["dump", s(&garbage)],
        vec!["extract", s(&garbage), s(dir.path())],
    ] {
        let o = pte(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = stderr(&o);
        assert_eq!(e.lines().count(), 1, "{args:?}: {e}");
        assert!(e.starts_with("pte: "), "{e}");
        assert!(!e.contains("panicked"), "{e}");
    }
    // verify reports a truncated file as a violation, not a crash
    let o = pte(&["verify", s(&truncated)]);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn rewrite_keeps_layout_and_options_change_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.pte");
    let input = model("xnnpack_mlp");
    let o = pte(&["rewrite", s(&input), s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let a = std::fs::read(&input).unwrap();
    let b = std::fs::read(&out).unwrap();
    let seg = |x: &[u8]| {
        let h = pte_segments::ExtendedHeader::parse(x).unwrap().unwrap();
        x[h.segment_base_offset as usize..].to_vec()
    };
    assert_eq!(seg(&a), seg(&b));
    let o = pte(&["rewrite", s(&input), s(&out), "--segment-alignment", "4096", "--delegates", "inline"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let b = std::fs::read(&out).unwrap();
    let h = pte_segments::ExtendedHeader::parse(&b).unwrap().unwrap();
    assert_eq!(h.segment_base_offset % 4096, 0);
    assert!(pte(&["verify", s(&out)]).status.success());
    let o = pte(&["rewrite", s(&input), s(&out), "--constant-alignment", "12"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("power of two"));
}

/// A program large enough to be copied while it is verified: a sound one
/// comes out byte for byte, in place too; a damaged one fails naming the
/// input, with nothing written (no output, no temporary file), and an
/// existing output untouched.
#[test]
fn a_large_program_is_rewritten_whole_or_not_at_all() {
    let dir = tempfile::tempdir().unwrap();
    let input = model("deep_program");
    let bytes = std::fs::read(&input).unwrap();
    let out = dir.path().join("out.pte");
    let o = pte(&["rewrite", s(&input), s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read(&out).unwrap(), bytes);
    let o = pte(&["rewrite", s(&out), s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read(&out).unwrap(), bytes);
    let bad = dir.path().join("bad.pte");
    let mut damaged = bytes.clone();
    let at = damaged.len() / 2;
    damaged[at..at + 64].fill(0xff);
    std::fs::write(&bad, &damaged).unwrap();
    for target in [dir.path().join("new.pte"), out.clone()] {
        let o = pte(&["rewrite", s(&bad), s(&target)]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).starts_with(&format!("pte: {}: ", bad.display())), "{}", stderr(&o));
        let names: BTreeSet<String> =
            std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into()).collect();
        assert_eq!(names, BTreeSet::from(["bad.pte".to_string(), "out.pte".to_string()]));
        assert_eq!(std::fs::read(&out).unwrap(), bytes);
    }
    // an output that cannot be written does not hide a damaged input
    let o = pte(&["rewrite", s(&bad), s(dir.path())]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).starts_with(&format!("pte: {}: ", bad.display())), "{}", stderr(&o));
}

#[test]
fn extract_writes_every_blob_and_a_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let o = pte(&["extract", s(&model("xnnpack_mlp")), s(dir.path())]);
    assert!(o.status.success(), "{}", stderr(&o));
    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("manifest.json")).unwrap()).unwrap();
    let entries = m["entries"].as_array().unwrap();
    let kinds: Vec<&str> = entries.iter().map(|e| e["kind"].as_str().unwrap()).collect();
    for k in ["segment", "constant", "named", "delegate"] {
        assert!(kinds.contains(&k), "{kinds:?}");
    }
    for e in entries {
        let f = dir.path().join(e["file"].as_str().unwrap());
        assert_eq!(std::fs::metadata(f).unwrap().len(), e["size"].as_u64().unwrap());
    }
}

#[test]
fn other_formats_are_recognised_by_content() {
    // a .ptd renamed to .pte is still read as tensor data
    let dir = tempfile::tempdir().unwrap();
    let renamed = dir.path().join("data.pte");
    std::fs::copy(ext("_default_external_constant.ptd"), &renamed).unwrap();
    let o = pte(&["info", "--json", s(&renamed)]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("\"format\": \"ptd\""));
    // commands that take one kind refuse the others by name
    let bpte = corpus("bundled/model.bpte");
    let o = pte(&["rewrite", s(&bpte), s(&dir.path().join("out.pte"))]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("a .bpte bundled program"), "{}", stderr(&o));
    let o = pte(&["bpte", "unbundle", s(&renamed), s(&dir.path().join("out.pte"))]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("this command takes a .bpte bundled program"), "{}", stderr(&o));
}

fn ext(name: &str) -> PathBuf {
    corpus("external").join(name)
}

#[test]
fn ptd_info_lists_every_key_with_its_layout() {
    let o = pte(&["info", "--json", s(&ext("_default_external_constant.ptd"))]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["format"], "ptd");
    let keys = v["keys"].as_array().unwrap();
    assert_eq!(keys.len(), 4);
    assert_eq!(keys[0]["key"], "seq.0.weight");
    assert_eq!(keys[0]["layout"]["dtype"], "FLOAT");
    assert_eq!(keys[0]["layout"]["sizes"], serde_json::json!([32, 16]));
    assert_eq!(keys[0]["size"], 2048);
    let o = pte(&["dump", s(&ext("_default_external_constant.ptd"))]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["named_data"][3]["key"], "seq.2.bias");
}

#[test]
fn verify_program_with_its_data_and_a_broken_pair() {
    let pte_path = ext("model.pte");
    let ptd_path = ext("_default_external_constant.ptd");
    let o = pte(&["verify", s(&pte_path), "--ptd", s(&ptd_path)]);
    assert!(o.status.success(), "{}", stdout(&o));
    assert!(pte(&["verify", s(&ptd_path)]).status.success());
    // a .ptd missing one key: clear message naming the key
    let dir = tempfile::tempdir().unwrap();
    let bytes = std::fs::read(&ptd_path).unwrap();
    let mut ptd = pte_file::ptd::PtdFile::from_bytes(&bytes).unwrap();
    ptd.flat_tensor.named_data.as_mut().unwrap()[2].key = Some("other".into());
    let broken = dir.path().join("broken.ptd");
    ptd.save(&broken, &Default::default()).unwrap();
    let o = pte(&["verify", s(&pte_path), "--ptd", s(&broken)]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.contains("[link.missing]") && out.contains("seq.2.weight"), "{out}");
}

#[test]
fn plain_rewrite_keeps_the_alignments_the_input_shows() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.pte"), dir.path().join("b.pte"));
    let input = model("xnnpack_mlp");
    let o = pte(&[
        "rewrite",
        s(&input),
        s(&a),
        "--segment-alignment",
        "4096",
        "--delegates",
        "inline",
        "--delegate-alignment",
        "256",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(pte(&["rewrite", s(&a), s(&b)]).status.success());
    let bytes = std::fs::read(&b).unwrap();
    let h = pte_segments::ExtendedHeader::parse(&bytes).unwrap().unwrap();
    assert_eq!(h.segment_base_offset % 4096, 0);
    let p = pte_file::PteFile::from_bytes(&bytes).unwrap();
    let d = p.delegate_blobs().unwrap();
    assert_eq!(d[0].location, pte_schema::DataLocation::INLINE);
    let off = d[0].bytes.as_ptr() as usize - bytes.as_ptr() as usize;
    assert_eq!(off % 256, 0, "inline blob at {off}");
}

/// `good` with bit `k % 8` flipped at a byte `k` picks, every fifth also
/// cut short there (to at least `min_len` bytes); returns it and that byte.
#[allow(clippy::arithmetic_side_effects)] // small numbers, as in the tests that call it
fn corrupt(good: &[u8], k: usize, min_len: usize) -> (Vec<u8>, usize) {
    let mut b = good.to_vec();
    let at = (k * 7919) % b.len();
    b[at] ^= 1 << (k % 8);
    if k.is_multiple_of(5) {
        b.truncate(at.max(min_len));
    }
    (b, at)
}

/// Runs `pte args` on an input corrupted at byte `at`: it must answer with
/// an exit code of the contract, never a panic; `seen` collects the codes.
fn answers_without_crashing(args: &[&str], at: usize, seen: &mut BTreeSet<Option<i32>>) {
    let o = pte(args);
    let code = o.status.code();
    assert!(matches!(code, Some(0..=2)), "{args:?} at byte {at}: {code:?} {}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"), "{args:?}: {}", stderr(&o));
    seen.insert(code);
}

#[test]
fn corrupted_files_never_crash_the_cli() {
    let dir = tempfile::tempdir().unwrap();
    let good = std::fs::read(model("xnnpack_mlp")).unwrap();
    let path = dir.path().join("m.pte");
    let ptd_good = std::fs::read(ext("_default_external_constant.ptd")).unwrap();
    let ptd_path = dir.path().join("d.ptd");
    let out = dir.path().join("o.pte");
    let xdir = dir.path().join("x");
    let mut seen = BTreeSet::new();
    for k in 0..60usize {
        let (b, at) = corrupt(&good, k, 1);
        std::fs::write(&path, &b).unwrap();
        let mut d = ptd_good.clone();
        let dat = (k * 104_729) % d.len();
        d[dat] ^= 1 << (k % 8);
        std::fs::write(&ptd_path, &d).unwrap();
        for args in [
            vec!["info", "--json", s(&ptd_path)],
            vec!["dump", s(&ptd_path)],
            vec!["verify", s(&ptd_path)],
            vec!["verify", s(&ext("model.pte")), "--ptd", s(&ptd_path)],
            vec!["info", s(&path)],
            vec!["info", "--json", s(&path)],
            vec!["dump", s(&path)],
            vec!["verify", s(&path)],
            vec!["rewrite", s(&path), s(&out)],
            vec!["extract", s(&path), s(&xdir)],
        ] {
            answers_without_crashing(&args, at, &mut seen);
        }
    }
    assert!(seen.contains(&Some(2)), "no corruption was detected at all: {seen:?}");
}

fn ptn() -> PathBuf {
    corpus("native_ptn/model.ptn")
}

#[test]
fn ptn_info_dump_verify_extract_and_rewrite() {
    let o = pte(&["info", "--json", s(&ptn())]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["format"], "ptn");
    assert_eq!(v["constants"].as_array().unwrap().len(), 4);
    assert_eq!(v["methods"][0]["name"], "forward");
    let o = pte(&["info", s(&ptn())]);
    assert!(stdout(&o).contains("\"seq.0.weight\" float32 [32, 16]"), "{}", stdout(&o));

    let o = pte(&["dump", s(&ptn())]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["version"], "1");
    assert_eq!(v["methods"][0]["graph"]["nodes"][0]["op_kind"], "PLACEHOLDER");

    let o = pte(&["verify", "--json", s(&ptn())]);
    assert!(o.status.success(), "{}", stdout(&o));
    assert_eq!(serde_json::from_str::<serde_json::Value>(&stdout(&o)).unwrap()["valid"], true);

    let dir = tempfile::tempdir().unwrap();
    let x = dir.path().join("x");
    let o = pte(&["extract", s(&ptn()), s(&x)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let m: serde_json::Value = serde_json::from_slice(&std::fs::read(x.join("manifest.json")).unwrap()).unwrap();
    let entries = m["entries"].as_array().unwrap();
    assert_eq!(entries.iter().filter(|e| e["kind"] == "constant").count(), 4);
    for e in entries {
        assert_eq!(std::fs::metadata(x.join(e["file"].as_str().unwrap())).unwrap().len(), e["size"].as_u64().unwrap());
    }

    let out = dir.path().join("copy.ptn");
    let o = pte(&["rewrite", s(&ptn()), s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = pte(&["verify", s(&out)]);
    assert!(o.status.success(), "{}", stdout(&o));
    let o = pte(&["rewrite", "--segment-alignment", "64", s(&ptn()), s(&out)]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_broken_ptn_is_reported_by_rule() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = std::fs::read(ptn()).unwrap();
    // flip a byte of the first member's data: its CRC no longer matches
    b[40] ^= 0xff;
    let bad = dir.path().join("bad.bin");
    std::fs::write(&bad, &b).unwrap();
    let o = pte(&["verify", "--json", s(&bad)]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["violations"][0]["rule"], "ptn.container");
    let o = pte(&["info", s(&bad)]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    let o = pte(&["externalize", s(&ptn()), s(&dir.path().join("o.pte")), s(&dir.path().join("o.ptd"))]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains(".ptn package"), "{}", stderr(&o));
}

#[test]
fn corrupted_packages_never_crash_the_cli() {
    let dir = tempfile::tempdir().unwrap();
    let good = std::fs::read(ptn()).unwrap();
    let path = dir.path().join("m.ptn");
    let out = dir.path().join("o.ptn");
    let xdir = dir.path().join("x");
    let mut seen = BTreeSet::new();
    for k in 0..40usize {
        let (b, at) = corrupt(&good, k, 4);
        std::fs::write(&path, &b).unwrap();
        for args in [
            vec!["info", s(&path)],
            vec!["dump", s(&path)],
            vec!["verify", s(&path)],
            vec!["rewrite", s(&path), s(&out)],
            vec!["extract", s(&path), s(&xdir)],
        ] {
            answers_without_crashing(&args, at, &mut seen);
        }
    }
    assert!(seen.contains(&Some(2)) && seen.contains(&Some(1)), "{seen:?}");
}

#[test]
fn a_closed_stdout_ends_quietly() {
    use std::process::Stdio;
    let mut child = Command::new(PTE)
        .args(["dump", s(&model("xnnpack_mlp"))])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn mutate_breaks_one_named_thing() {
    let o = pte(&["mutate", "--list"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o).lines().count(), pte_gen::classes().count());
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m.pte");
    let o = pte(&["mutate", "--rule", "pte.kernel-arg-index", s(&model("linear")), s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = pte(&["verify", "--json", s(&out)]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(v["violations"].as_array().unwrap().iter().any(|x| x["rule"] == "instruction.args"), "{v}");
    let o = pte(&["mutate", "--rule", "pte.delegate-index", s(&model("linear")), s(&out)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("does not apply"), "{}", stderr(&o));
    let o = pte(&["mutate", "--rule", "no.such", s(&model("linear")), s(&out)]);
    assert_eq!(o.status.code(), Some(2));
    // a verifier rule name picks a class that breaks it
    for rule in ["tensor.dim_order", "delegate.fields", "flatbuffer.identifier"] {
        let o = pte(&["mutate", "--rule", rule, s(&model("linear")), s(&out)]);
        assert!(o.status.success(), "{rule}: {}", stderr(&o));
        let o = pte(&["verify", "--json", s(&out)]);
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert!(v["violations"].as_array().unwrap().iter().any(|x| x["rule"] == rule), "{rule}: {v}");
    }
}

#[test]
fn gen_writes_programs_that_verify() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.pte");
    let o = pte(&["gen", "--seed", "7", s(&one)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read(&one).unwrap(), pte_gen::generate(7).unwrap().to_bytes().unwrap());
    let many = dir.path().join("many");
    let o = pte(&["gen", "--seed", "100", "--count", "5", s(&many)]);
    assert!(o.status.success(), "{}", stderr(&o));
    // the seeds named are the ones written: 100 to 104, not 100..105
    assert_eq!(stdout(&o), format!("wrote 5 programs (seeds 100 to 104) to {}\n", many.display()));
    for seed in 100..105 {
        let f = many.join(format!("gen-{seed}.pte"));
        let o = pte(&["verify", "--deny-warnings", s(&f)]);
        assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    }
}
