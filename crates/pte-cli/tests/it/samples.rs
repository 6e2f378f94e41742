//! `pte samples` end to end on a copy of the corpus `native_ptn` package.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use pte_ptn::{PtnFile, PtnTensor};
use pte_samples::*;

use crate::support::{corpus, f32s, pte, s, stderr as err, stdout as out};

fn the_set() -> SampleSet<'static> {
    // the shapes the corpus method declares: x [2, 16] -> [2, 8]
    let x: Vec<f32> = (0..32).map(|i| i as f32).collect();
    let y: Vec<f32> = (0..16).map(|i| i as f32 * 0.5).collect();
    let call = |tol| Call {
        inputs: vec![Value::Tensor(f32s(vec![2, 16], &x))],
        outputs: vec![Value::Tensor(f32s(vec![2, 8], &y))],
        tolerance: tol,
    };
    let mut set = SampleSet::new("forward", "smoke");
    set.samples.push(Sample {
        name: Some("first".into()),
        tolerance: None,
        calls: vec![call(None), call(Some(Tolerance { atol: 0.01, rtol: 0.0 }))],
    });
    set
}

struct Fixture {
    _dir: tempfile::TempDir,
    package: PathBuf,
    set_dir: PathBuf,
    root: PathBuf,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let package = dir.path().join("model.ptn");
    std::fs::copy(corpus("native_ptn/model.ptn"), &package).unwrap();
    let set_dir = dir.path().join("set");
    std::fs::create_dir(&set_dir).unwrap();
    let enc = encode_set(&the_set(), &SampleLimits::default()).unwrap();
    std::fs::write(set_dir.join(INDEX_FILE), &enc.index).unwrap();
    std::fs::write(set_dir.join(DATA_FILE), &enc.data).unwrap();
    let root = dir.path().to_path_buf();
    Fixture { _dir: dir, package, set_dir, root }
}

fn actual_file(path: &Path, tensors: &[(&str, PtnTensor<'static>)]) {
    let map: BTreeMap<String, PtnTensor<'static>> = tensors.iter().cloned().map(|(k, t)| (k.to_string(), t)).collect();
    std::fs::write(path, pte_ptn::safetensors_to_bytes(&map, &Default::default()).unwrap()).unwrap();
}

#[test]
fn add_list_show_check_export_remove() {
    let f = fixture();
    let original = std::fs::read(&f.package).unwrap();

    let o = pte(&["samples", "list", s(&f.package)]);
    assert!(o.status.success() && out(&o).contains("no samples"), "{}", err(&o));

    let o = pte(&["samples", "add", s(&f.package), s(&f.set_dir)]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(err(&o).contains("warning: forward/smoke: sample 0 call 1 gives atol 0.01"), "{}", err(&o));
    let o = pte(&["samples", "add", s(&f.package), s(&f.set_dir)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("[duplicate_set]"), "{}", err(&o));
    let o = pte(&["samples", "add", "--replace", s(&f.package), s(&f.set_dir)]);
    assert!(o.status.success(), "{}", err(&o));

    let o = pte(&["samples", "list", s(&f.package)]);
    assert_eq!(out(&o), "forward/smoke: 1 sample, 2 calls, default tolerance\n");
    let o = pte(&["samples", "list", "--json", s(&f.package)]);
    let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v[0]["calls"], 2);

    let o = pte(&["samples", "show", s(&f.package), "forward", "smoke"]);
    let text = out(&o);
    assert!(text.contains("sample 0 \"first\": 2 calls"), "{text}");
    assert!(text.contains("call 1 (atol 0.01 rtol 0, from sample 0 call 1)"), "{text}");
    assert!(text.contains("in[0]  tensor float32 [2, 16] [0, 1, 2, 3, 4, 5, 6, 7, …]"), "{text}");
    let o = pte(&["samples", "show", "--json", s(&f.package), "forward", "smoke"]);
    let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!((v["format"].as_str(), v["version"].as_u64()), (Some("pte-samples"), Some(1)));
    let o = pte(&["samples", "show", s(&f.package), "forward", "nope"]);
    assert_eq!(o.status.code(), Some(2));

    let o = pte(&["verify", s(&f.package)]);
    assert!(o.status.success(), "{}{}", out(&o), err(&o));

    // Actual outputs from "another runtime": one scoped key, one bare key.
    let y: Vec<f32> = (0..16).map(|i| i as f32 * 0.5).collect();
    let mut off = y.clone();
    off[3] += 0.1;
    let actual = f.root.join("actual.safetensors");
    actual_file(&actual, &[("forward/smoke/0.0.out.0", f32s(vec![2, 8], &y)), ("0.1.out.0", f32s(vec![2, 8], &off))]);
    let o = pte(&["samples", "check", s(&f.package), "--actual", s(&actual)]);
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    assert!(
        out(&o).contains(
            "FAIL forward/smoke sample 0 (\"first\") call 1: output 0: 1 element outside tolerance; worst at index 3"
        ),
        "{}",
        out(&o)
    );
    let o = pte(&["samples", "check", "--json", s(&f.package), "--actual", s(&actual)]);
    let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v["failures"][0]["call"], 1);
    assert_eq!(v["failures"][0]["problem"]["mismatch"]["index"], 3);
    actual_file(&actual, &[("0.0.out.0", f32s(vec![2, 8], &y)), ("0.1.out.0", f32s(vec![2, 8], &y))]);
    let o = pte(&["samples", "check", s(&f.package), "--actual", s(&actual)]);
    assert!(o.status.success(), "{}", out(&o));
    assert!(out(&o).ends_with("all passed\n"), "{}", out(&o));

    let exported = f.root.join("exported");
    let o = pte(&["samples", "export", s(&f.package), "forward", "smoke", s(&exported)]);
    assert!(o.status.success(), "{}", err(&o));
    assert_eq!(std::fs::read(exported.join(INDEX_FILE)).unwrap(), std::fs::read(f.set_dir.join(INDEX_FILE)).unwrap());
    assert_eq!(std::fs::read(exported.join(DATA_FILE)).unwrap(), std::fs::read(f.set_dir.join(DATA_FILE)).unwrap());

    let o = pte(&["samples", "remove", s(&f.package), "forward", "smoke"]);
    assert!(o.status.success(), "{}", err(&o));
    assert_eq!(std::fs::read(&f.package).unwrap(), PtnFile::from_bytes(&original).unwrap().to_bytes().unwrap());
    let o = pte(&["samples", "remove", s(&f.package), "forward", "smoke"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn broken_sidecars_are_refused_by_add_and_reported_by_verify() {
    let f = fixture();
    let index = std::fs::read_to_string(f.set_dir.join(INDEX_FILE)).unwrap();
    std::fs::write(f.set_dir.join(INDEX_FILE), index.replace("0.1.out.0", "0.9.out.0")).unwrap();
    let o = pte(&["samples", "add", s(&f.package), s(&f.set_dir)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("[missing_tensor]") && err(&o).contains("samples[0].calls[1].outputs[0]"), "{}", err(&o));

    // A package whose sidecar another tool broke.
    let bytes = std::fs::read(&f.package).unwrap();
    let mut ptn = PtnFile::from_bytes(&bytes).unwrap().into_owned();
    let enc = encode_set(&the_set(), &SampleLimits::default()).unwrap();
    let bad = String::from_utf8(enc.index).unwrap().replace("\"F32\"", "\"F16\"");
    let loc = Location::new("forward", "smoke");
    ptn.members.push(pte_ptn::Member { name: loc.index_member(), data: bad.into_bytes().into() });
    ptn.members.push(pte_ptn::Member { name: loc.data_member(), data: enc.data.into() });
    ptn.save(&f.package).unwrap();
    let o = pte(&["verify", "--json", s(&f.package)]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v["violations"][0]["rule"], "ptn.samples.dtype_mismatch");
    assert_eq!(v["violations"][0]["path"], "samples/forward/smoke/index.json:samples[0].calls[0].inputs[0]");
    let o = pte(&["samples", "list", s(&f.package)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("[dtype_mismatch]"), "{}", err(&o));

    // Not a package at all.
    let o = pte(&["samples", "list", s(&f.set_dir.join(DATA_FILE))]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("this command takes a .ptn package"), "{}", err(&o));
}
