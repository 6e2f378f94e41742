//! `.bpte` through the `pte` binary: info, dump, verify and `pte bpte`.

use crate::support::{corpus, pte, s, stderr as err, stdout as out};

#[test]
fn info_dump_and_verify_take_a_bundle() {
    let b = corpus("bundled/model.bpte");
    let o = pte(&["info", s(&b)]);
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    assert!(text.contains("embedded .pte of 1724 bytes at offset 64"), "{text}");
    assert!(text.contains("suite \"forward\": 3 cases"), "{text}");
    assert!(text.contains("in[0] tensor float32 [2, 4] [1.2958577871322632,"), "{text}");
    let o = pte(&["info", "--json", s(&b)]);
    let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v["format"], "bpte");
    assert_eq!(v["test_suites"][0]["cases"].as_array().unwrap().len(), 3);
    assert_eq!(v["test_suites"][0]["cases"][2]["expected_outputs"][0]["sizes"], serde_json::json!([2, 3]));
    assert_eq!(v["program"]["methods"][0]["name"], "forward");
    let o = pte(&["dump", s(&b)]);
    let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v["method_test_suites"][0]["test_cases"][0]["inputs"][0]["val_type"], "Tensor");
    assert_eq!(v["program"]["size"], 1724);
    let o = pte(&["verify", s(&b)]);
    assert!(o.status.success() && out(&o).ends_with("valid\n"), "{}", out(&o));
}

#[test]
fn unbundle_export_and_bundle_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let b = corpus("bundled/model.bpte");
    let unbundled = dir.path().join("u.pte");
    assert!(pte(&["bpte", "unbundle", s(&b), s(&unbundled)]).status.success());
    assert_eq!(std::fs::read(&unbundled).unwrap(), std::fs::read(corpus("bundled/model.pte")).unwrap());
    let sets = dir.path().join("sets");
    let o = pte(&["bpte", "export-samples", s(&b), s(&sets)]);
    assert!(o.status.success(), "{}", err(&o));
    let index: serde_json::Value =
        serde_json::from_slice(&std::fs::read(sets.join("forward/bundled/index.json")).unwrap()).unwrap();
    assert_eq!(index["tolerance"], serde_json::json!({"atol": 1e-8, "rtol": 1e-5}));
    assert_eq!(index["samples"].as_array().unwrap().len(), 3);
    let again = dir.path().join("again.bpte");
    let o = pte(&["bpte", "bundle", s(&unbundled), s(&sets), s(&again)]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(err(&o).contains(".bpte stores no tolerance"), "{}", err(&o));
    let first = pte(&["info", "--json", s(&b)]);
    let second = pte(&["info", "--json", s(&again)]);
    let (mut a, mut c): (serde_json::Value, serde_json::Value) =
        (serde_json::from_str(&out(&first)).unwrap(), serde_json::from_str(&out(&second)).unwrap());
    for v in [&mut a, &mut c] {
        for k in ["file_size", "program_offset"] {
            v.as_object_mut().unwrap().remove(k);
        }
    }
    assert_eq!(a, c, "same program and cases");
}

#[test]
fn multi_call_samples_and_mismatched_cases_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("set");
    let io = corpus("linear/io.safetensors");
    assert!(pte(&["samples", "import-io", s(&io), "forward", "rec", s(&set)]).status.success());
    // Two calls in one sample.
    let data = std::fs::read(set.join("data.safetensors")).unwrap();
    let index = std::fs::read(set.join("index.json")).unwrap();
    let mut parsed = pte_samples::parse_set(&index, &data, None, &Default::default()).unwrap();
    let call = parsed.samples[0].calls[0].clone();
    parsed.samples[0].calls.push(call);
    let enc = pte_samples::encode_set(&parsed, &Default::default()).unwrap();
    let multi = dir.path().join("multi");
    std::fs::create_dir(&multi).unwrap();
    std::fs::write(multi.join("index.json"), &enc.index).unwrap();
    std::fs::write(multi.join("data.safetensors"), &enc.data).unwrap();
    let o = pte(&["bpte", "bundle", s(&corpus("linear/model.pte")), s(&multi), s(&dir.path().join("x.bpte"))]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("cannot be expressed in .bpte"), "{}", err(&o));
    // Samples for another program's method.
    let o = pte(&["bpte", "bundle", s(&corpus("add/model.pte")), s(&set), s(&dir.path().join("y.bpte"))]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("do not fit the program's methods"), "{}", err(&o));
    assert!(!dir.path().join("y.bpte").exists());
}

#[test]
fn samples_commands_read_a_bundle_the_same_way() {
    let b = corpus("bundled/model.bpte");
    let o = pte(&["samples", "list", s(&b)]);
    assert_eq!(out(&o), "forward/bundled: 3 samples, 3 calls, atol 0.00000001 rtol 0.00001\n");
    let o = pte(&["samples", "show", s(&b), "forward", "bundled"]);
    assert!(out(&o).contains("call 0 (atol 0.00000001 rtol 0.00001, from the set)"), "{}", out(&o));
    // The recorded outputs as "actual" outputs pass; the linear model's own
    // recorded I/O is for other inputs and fails.
    let dir = tempfile::tempdir().unwrap();
    let bytes = std::fs::read(&b).unwrap();
    let bundle = pte_file::bpte::BundledFile::from_bytes(&bytes).unwrap();
    let sets = pte_samples::bundled_sets(&bundle, None).unwrap();
    let mut actual = std::collections::BTreeMap::new();
    for (i, sample) in sets[0].samples.iter().enumerate() {
        let pte_samples::Value::Tensor(t) = &sample.calls[0].outputs[0] else { panic!() };
        actual.insert(format!("forward/bundled/{i}.0.out.0"), t.clone());
    }
    let path = dir.path().join("actual.safetensors");
    std::fs::write(&path, pte_ptn::safetensors_to_bytes(&actual, &Default::default()).unwrap()).unwrap();
    let o = pte(&["samples", "check", s(&b), "--actual", s(&path)]);
    assert!(o.status.success(), "{}", out(&o));
    let first = actual.remove("forward/bundled/0.0.out.0").unwrap();
    actual.insert("forward/bundled/2.0.out.0".into(), first);
    std::fs::write(&path, pte_ptn::safetensors_to_bytes(&actual, &Default::default()).unwrap()).unwrap();
    let o = pte(&["samples", "check", s(&b), "--actual", s(&path)]);
    assert_eq!(o.status.code(), Some(1));
    assert!(out(&o).contains("sample 0 call 0: output 0: no actual tensor"), "{}", out(&o));
    assert!(out(&o).contains("sample 2 call 0: output 0:"), "{}", out(&o));
}

/// 100,000 cases: `info` (text and JSON) and `dump` are written as the
/// bundle is walked, under an address-space limit the JSON trees they
/// once built (0.7 GB for `info`, 1.2 GB for `dump` at this size) cannot
/// fit in; every case is still printed.
#[test]
fn info_and_dump_of_100k_cases_stream() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = std::fs::read(corpus("bundled/model.bpte")).unwrap();
    let b = pte_file::bpte::BundledFile::from_bytes(&bytes).unwrap();
    let mut suites = b.suites().to_vec();
    let case = suites[0].test_cases.as_ref().unwrap()[0].clone();
    suites[0].test_cases = Some(vec![case; 100_000]);
    let file = dir.path().join("many.bpte");
    pte_file::bpte::BundledFile::new(b.program.clone(), suites).save(&file).unwrap();
    let run = |args: &[&str]| {
        let o = crate::support::save::pte_sh(dir.path(), "ulimit -v 196608", args);
        assert!(o.status.success(), "{args:?}: {}", err(&o));
        o.stdout
    };
    let text = String::from_utf8(run(&["info", s(&file)])).unwrap();
    assert!(text.contains("suite \"forward\": 100000 cases\n"), "{:.300}", text);
    assert!(text.contains("\n  case 99999\n"));
    let count = |out: &[u8], needle: &[u8]| out.windows(needle.len()).filter(|w| w == &needle).count();
    let json = run(&["info", "--json", s(&file)]);
    assert_eq!(count(&json, b"\"expected_outputs\""), 100_000);
    let dump = run(&["dump", s(&file)]);
    assert_eq!(count(&dump, b"\"expected_outputs\""), 100_000);
    assert!(dump.ends_with(b"}\n"));
}

/// `pte info` of one bundle writes its cases as it walks them; `pte info`
/// of several builds each file's JSON first: the two texts must agree on
/// every kind of value, NaN included.
#[test]
fn streamed_and_batch_info_agree_on_every_value_kind() {
    use pte_schema::bundled::BundledValue;
    let dir = tempfile::tempdir().unwrap();
    let bytes = std::fs::read(corpus("bundled/model.bpte")).unwrap();
    let b = pte_file::bpte::BundledFile::from_bytes(&bytes).unwrap();
    let mut suites = b.suites().to_vec();
    let cases = suites[0].test_cases.as_mut().unwrap();
    let tensor = cases[0].inputs.as_ref().unwrap()[0].clone();
    cases[0].inputs = Some(vec![
        tensor,
        BundledValue::Int(-3),
        BundledValue::Bool(true),
        BundledValue::Double(f64::NAN),
        BundledValue::Double(1.5),
        BundledValue::None,
    ]);
    let file = dir.path().join("kinds.bpte");
    pte_file::bpte::BundledFile::new(b.program.clone(), suites).save(&file).unwrap();
    let single = pte(&["info", s(&file)]);
    let single = out(&single);
    for line in ["in[1] int -3", "in[2] bool true", "in[3] double \"NaN\"", "in[4] double \"1.5\"", "in[5] none null"] {
        assert!(single.contains(&format!("    {line}\n")), "{line}: {single}");
    }
    let batch = pte(&["info", s(&file), s(&file)]);
    let batch = out(&batch);
    let first = batch.split("\n\n==> ").next().unwrap();
    let body = first.split_once(" <==\n").unwrap().1;
    // one file's info ends with its verdict; a batch gives verdicts apart
    let single = single.split("\nverdict: ").next().unwrap();
    assert_eq!(body.trim_end(), single.trim_end());
}
