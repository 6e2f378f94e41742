//! Commands that must refuse (exit 2, saying why) instead of claiming a
//! success that did nothing or the wrong thing.

use crate::support::{corpus, pte, s, stderr};

#[test]
fn mutate_refuses_a_class_of_another_file_kind() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let ptn = corpus("native_ptn/model.ptn");
    let o = pte(&["mutate", "--rule", "pte.bad-identifier", s(&ptn), s(&out)]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("a .ptn package") && stderr(&o).contains(".pte program"), "{}", stderr(&o));
    assert!(!out.exists());
    // and the other way round
    let o = pte(&["mutate", "--rule", "ptn.zip-slip", s(&corpus("linear/model.pte")), s(&out)]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(!out.exists());
    // a class of the input's kind still applies
    let o = pte(&["mutate", "--rule", "ptn.zip-slip", s(&ptn), s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn externalize_with_nothing_to_move_fails_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (out, data) = (dir.path().join("out.pte"), dir.path().join("out.ptd"));
    // a stock program: its constants carry no name
    let o = pte(&["externalize", s(&corpus("linear/model.pte")), s(&out), s(&data)]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("no fully qualified name") && stderr(&o).contains("--name-constants"),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists() && !data.exists());
    // a pattern that matches nothing
    let o = pte(&["externalize", "--keys", "nope.*", s(&corpus("xnnpack_mlp/model.pte")), s(&out), s(&data)]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--keys"), "{}", stderr(&o));
    assert!(!out.exists() && !data.exists());
}

#[test]
fn externalize_names_unnamed_constants_on_request() {
    let dir = tempfile::tempdir().unwrap();
    let (out, data) = (dir.path().join("out.pte"), dir.path().join("out.ptd"));
    let input = corpus("linear/model.pte");
    let o = pte(&["externalize", "--name-constants", "constant.", s(&input), s(&out), s(&data)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = pte(&["verify", s(&out), "--ptd", s(&data)]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    let o = pte(&["info", "--json", s(&data)]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let keys: Vec<&str> = v["keys"].as_array().unwrap().iter().map(|k| k["key"].as_str().unwrap()).collect();
    assert_eq!(keys, ["constant.1", "constant.2"]);
    // deterministic: the same command gives the same bytes
    let (out2, data2) = (dir.path().join("out2.pte"), dir.path().join("out2.ptd"));
    let o = pte(&["externalize", "--name-constants", "constant.", s(&input), s(&out2), s(&data2)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&out2).unwrap());
    assert_eq!(std::fs::read(&data).unwrap(), std::fs::read(&data2).unwrap());
    // and back
    let back = dir.path().join("back.pte");
    let o = pte(&["internalize", s(&out), s(&data), s(&back)]);
    assert!(o.status.success(), "{}", stderr(&o));
}

fn f32_tensor(shape: Vec<u64>) -> pte_ptn::PtnTensor<'static> {
    let n: u64 = shape.iter().product();
    pte_ptn::PtnTensor::new(pte_ptn::Dtype::F32, shape, vec![0u8; n as usize * 4]).unwrap()
}

fn one_call_set(input: Vec<u64>, output: Vec<u64>) -> pte_samples::SampleSet<'static> {
    use pte_samples::*;
    let mut set = SampleSet::new("forward", "shapes");
    set.samples.push(Sample {
        calls: vec![Call {
            inputs: vec![Value::Tensor(f32_tensor(input))],
            outputs: vec![Value::Tensor(f32_tensor(output))],
            tolerance: None,
        }],
        ..Default::default()
    });
    set
}

#[test]
fn samples_add_refuses_and_verify_reports_a_call_contradicting_the_signature() {
    let dir = tempfile::tempdir().unwrap();
    let package = dir.path().join("model.ptn");
    std::fs::copy(corpus("native_ptn/model.ptn"), &package).unwrap();
    let original = std::fs::read(&package).unwrap();
    // the method declares x: F32 [2, 16]; this set records [1, 16]
    let set_dir = dir.path().join("set");
    std::fs::create_dir(&set_dir).unwrap();
    let enc = pte_samples::encode_set(&one_call_set(vec![1, 16], vec![1, 8]), &Default::default()).unwrap();
    std::fs::write(set_dir.join(pte_samples::INDEX_FILE), &enc.index).unwrap();
    std::fs::write(set_dir.join(pte_samples::DATA_FILE), &enc.data).unwrap();
    let o = pte(&["samples", "add", s(&package), s(&set_dir)]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("[signature]") && stderr(&o).contains("dimension 0 is 1"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&package).unwrap(), original);

    // a package holding such a set (written by another tool) fails verify
    let mut ptn = pte_ptn::PtnFile::from_bytes(&original).unwrap();
    pte_samples::put_set(&mut ptn, &one_call_set(vec![1, 16], vec![1, 8]), false).unwrap();
    ptn.save(&package).unwrap();
    let o = pte(&["verify", "--json", s(&package)]);
    assert_eq!(o.status.code(), Some(1), "{}", String::from_utf8_lossy(&o.stdout));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let rules: Vec<&str> = v["violations"].as_array().unwrap().iter().map(|x| x["rule"].as_str().unwrap()).collect();
    assert!(rules.contains(&"ptn.samples.signature"), "{rules:?}");

    // the right shapes are accepted
    std::fs::write(&package, &original).unwrap();
    let enc = pte_samples::encode_set(&one_call_set(vec![2, 16], vec![2, 8]), &Default::default()).unwrap();
    std::fs::write(set_dir.join(pte_samples::INDEX_FILE), &enc.index).unwrap();
    std::fs::write(set_dir.join(pte_samples::DATA_FILE), &enc.data).unwrap();
    let o = pte(&["samples", "add", s(&package), s(&set_dir)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(pte(&["verify", s(&package)]).status.success());
}

/// A zip of `names`, each holding one byte.
fn zip_of(names: &[&str]) -> Vec<u8> {
    use std::io::Write;
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for n in names {
        w.start_file(*n, zip::write::SimpleFileOptions::default()).unwrap();
        w.write_all(b"x").unwrap();
    }
    w.finish().unwrap().into_inner()
}

#[test]
fn checkpoints_and_other_zips_are_named_and_skipped_by_folder_walks() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(corpus("linear/model.pte"), dir.path().join("model.pte")).unwrap();
    let ckpt = dir.path().join("weights.pth");
    std::fs::write(&ckpt, zip_of(&["archive/data.pkl", "archive/data/0", "archive/version"])).unwrap();
    let other = dir.path().join("images.zip");
    std::fs::write(&other, zip_of(&["a.png"])).unwrap();
    // named for what they are, refused as usage errors
    let o = pte(&["verify", s(&ckpt)]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("PyTorch checkpoint"), "{}", stderr(&o));
    let o = pte(&["info", s(&other)]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("not a .ptn package"), "{}", stderr(&o));
    // a folder walk takes the model and skips both
    let o = pte(&["verify", s(dir.path())]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("model.pte") && !out.contains("weights.pth") && !out.contains("images.zip"), "{out}");
    // a damaged package (a package member, no program) is still judged as one
    let broken = dir.path().join("broken.ptn");
    std::fs::write(&broken, zip_of(&["program.safetensors"])).unwrap();
    let o = pte(&["verify", s(&broken)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
}

#[test]
fn argument_errors_are_one_pte_line() {
    for args in [&["info", "--bogus", "x"][..], &["rewrite", "a"][..], &["size", "--by", "bogus", "x"][..]] {
        let o = pte(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = stderr(&o);
        assert_eq!(e.lines().count(), 1, "{args:?}: {e}");
        assert!(e.starts_with("pte: ") && !e.contains("error:"), "{args:?}: {e}");
    }
    let o = pte(&["rewrite", "a"]);
    assert!(stderr(&o).contains("<OUTPUT> (usage: pte rewrite <INPUT> <OUTPUT>"), "{}", stderr(&o));
    // help is still help
    let o = pte(&["info", "--help"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).contains("Usage: pte info"));
}

/// One cap on alignments, the library's: `--segment-alignment 1073741824`
/// once padded a 6 KB program into a 5.1 GB file.
#[test]
fn rewrite_refuses_alignments_past_the_library_cap_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.pte");
    let program = corpus("linear/model.pte");
    for (flag, value) in [
        ("--segment-alignment", "1073741824"),
        ("--segment-alignment", "1048577"),
        ("--constant-alignment", "3"),
        ("--constant-alignment", "131072"),
        ("--delegate-alignment", "6"),
    ] {
        let o = pte(&["rewrite", flag, value, s(&program), s(&out)]);
        assert_eq!(o.status.code(), Some(2), "{flag} {value}: {}", stderr(&o));
        assert!(stderr(&o).contains(&format!("got {value}")), "{}", stderr(&o));
        assert!(!out.exists(), "{flag} {value}");
    }
    let o = pte(&["rewrite", "--segment-alignment", "1048576", s(&program), s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// The CLI's edit is the door's edit: the same request gives the same bytes
/// (Python's `Program.externalize` calls the same function), and the program
/// keeps the segment alignment its input shows instead of the default.
#[test]
fn externalize_keeps_the_input_layout_and_matches_the_door_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let aligned = dir.path().join("aligned.pte");
    let o = pte(&["rewrite", "--segment-alignment", "4096", s(&corpus("linear/model.pte")), s(&aligned)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let (out, data) = (dir.path().join("cli.pte"), dir.path().join("cli.ptd"));
    let o = pte(&[
        "externalize",
        "--name-constants",
        "constant.",
        "--keys",
        "constant.[1]",
        s(&aligned),
        s(&out),
        s(&data),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let bytes = std::fs::read(&out).unwrap();
    let header = pte_segments::ExtendedHeader::parse(&bytes).unwrap().unwrap();
    assert_eq!(header.segment_base_offset % 4096, 0, "{}", header.segment_base_offset);

    let (lib_out, lib_data) = (dir.path().join("lib.pte"), dir.path().join("lib.ptd"));
    let request = pte::Externalize {
        keys: pte::KeySelection::globs(&["constant.[1]"]).unwrap(),
        name_constants: Some("constant."),
        keys_spelled: None,
        naming_spelled: "--name-constants PREFIX",
    };
    let input = std::fs::read(&aligned).unwrap();
    let moved = pte::externalize(&input, Some(&aligned), &lib_out, &lib_data, &request).unwrap();
    assert_eq!(moved.tensors, ["constant.1"]);
    assert_eq!(std::fs::read(&lib_out).unwrap(), bytes);
    assert_eq!(std::fs::read(&lib_data).unwrap(), std::fs::read(&data).unwrap());

    // and back through both doors, to the same bytes again
    let (cli_back, lib_back) = (dir.path().join("cli_back.pte"), dir.path().join("lib_back.pte"));
    assert!(pte(&["internalize", s(&out), s(&data), s(&cli_back)]).status.success());
    pte::internalize(&lib_out, &[lib_data.as_path()], &lib_back, pte::LockWait::Fail).unwrap();
    let back = std::fs::read(&cli_back).unwrap();
    assert_eq!(back, std::fs::read(&lib_back).unwrap());
    let header = pte_segments::ExtendedHeader::parse(&back).unwrap().unwrap();
    assert_eq!(header.segment_base_offset % 4096, 0);
}

/// The report identifies a file as every other command does (`pte::kind_of`):
/// a PyTorch checkpoint is a zip, but no package, so its page (the library's:
/// the command refuses the file before drawing it) has no package section
/// to contradict its verification section.
#[test]
fn the_report_of_a_checkpoint_draws_no_package() {
    let ckpt = zip_of(&["archive/data.pkl", "archive/data/0", "archive/version"]);
    let page = pte_report::report(&[pte_report::Source { name: "weights.pth", bytes: &ckpt }], &[]);
    assert!(page.html.contains("PyTorch checkpoint"), "{}", page.html);
    assert!(page.html.contains(r#"data-kind="unknown""#), "{}", page.html);
    assert!(!page.html.contains("the package could not be read"), "{}", page.html);
}
