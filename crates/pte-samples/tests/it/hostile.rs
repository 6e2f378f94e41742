//! Hostile sidecars: each broken reading rule gives its own typed error,
//! never a panic and never an allocation sized from a declared count.

use std::borrow::Cow;
use std::collections::BTreeMap;

use pte_ptn::{safetensors_to_bytes, Dtype, Member, PtnFile, PtnLimits, PtnTensor};
use pte_samples::*;
use serde_json::json;

fn data(keys: &[(&str, Dtype, Vec<u64>)]) -> Vec<u8> {
    let mut t = BTreeMap::new();
    for (k, dtype, shape) in keys {
        let n: u64 = shape.iter().product::<u64>() * (dtype.bitsize() as u64) / 8;
        t.insert((*k).to_string(), PtnTensor::new(*dtype, shape.clone(), vec![0u8; n as usize]).unwrap());
    }
    safetensors_to_bytes(&t, &PtnLimits::default()).unwrap()
}

fn index(method: &str, set: &str, inputs: serde_json::Value) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "format": "pte-samples", "version": 1, "method": method, "set": set,
        "samples": [{"calls": [{"inputs": inputs, "outputs": []}]}]
    }))
    .unwrap()
}

fn tensor_ref(key: &str, dtype: &str, shape: serde_json::Value) -> serde_json::Value {
    json!([{"type": "tensor", "key": key, "dtype": dtype, "shape": shape}])
}

fn rule_of(index: &[u8], data: &[u8]) -> SampleRule {
    parse_set(index, data, None, &SampleLimits::default()).unwrap_err().rule()
}

#[test]
fn a_valid_reference_reads() {
    let d = data(&[("x", Dtype::F32, vec![2, 3])]);
    let set =
        parse_set(&index("forward", "s", tensor_ref("x", "F32", json!([2, 3]))), &d, None, &SampleLimits::default())
            .unwrap();
    assert_eq!(set.samples[0].calls[0].inputs.len(), 1);
}

#[test]
fn path_traversal_in_names_is_refused() {
    let d = data(&[]);
    for (m, s) in [
        ("../evil", "s"),
        ("forward", ".."),
        ("a/b", "s"),
        ("forward", "x\\y"),
        ("", "s"),
        ("forward", "tab\tname"),
        (".", "s"),
    ] {
        let e = parse_set(&index(m, s, json!([])), &d, None, &SampleLimits::default()).unwrap_err();
        assert_eq!(e.rule(), SampleRule::Name, "{m:?}/{s:?}");
        assert_eq!(e.kind(), ErrorKind::Malformed);
    }
    let long = "n".repeat(MAX_NAME_LEN + 1);
    assert_eq!(rule_of(&index(&long, "s", json!([])), &d), SampleRule::Name);
    // A package built in memory (not read through the strict zip reader) with
    // a traversing member name.
    let mut ptn = PtnFile::default();
    ptn.members.push(Member { name: "samples/../s/index.json".into(), data: Cow::Owned(index("..", "s", json!([]))) });
    ptn.members.push(Member { name: "samples/../s/data.safetensors".into(), data: Cow::Owned(d) });
    assert_eq!(read_samples(&ptn).unwrap_err().rule(), SampleRule::Name);
}

#[test]
fn tensor_references_must_match_the_stored_tensors() {
    let d = data(&[("x", Dtype::F32, vec![2, 3])]);
    assert_eq!(rule_of(&index("f", "s", tensor_ref("y", "F32", json!([2, 3]))), &d), SampleRule::MissingTensor);
    assert_eq!(rule_of(&index("f", "s", tensor_ref("x", "F16", json!([2, 3]))), &d), SampleRule::DtypeMismatch);
    assert_eq!(rule_of(&index("f", "s", tensor_ref("x", "f32", json!([2, 3]))), &d), SampleRule::DtypeMismatch);
    assert_eq!(rule_of(&index("f", "s", tensor_ref("x", "F32", json!([3, 2]))), &d), SampleRule::ShapeMismatch);
    assert_eq!(rule_of(&index("f", "s", tensor_ref("x", "F32", json!([2, 3, 1]))), &d), SampleRule::ShapeMismatch);
    let e = parse_set(&index("f", "s", json!([])), &d, None, &SampleLimits::default()).unwrap_err();
    assert_eq!(e.rule(), SampleRule::UnreferencedTensor);
    assert!(e.path().ends_with("data.safetensors:x"), "{}", e.path());
    let twice = json!([{"type": "tensor", "key": "x", "dtype": "F32", "shape": [2, 3]}, {"type": "tensor_list", "items": [{"key": "x", "dtype": "F32", "shape": [2, 3]}]}]);
    assert_eq!(rule_of(&index("f", "s", twice), &d), SampleRule::ReusedTensor);
}

#[test]
fn errors_name_the_field_path() {
    let d = data(&[("x", Dtype::F32, vec![1])]);
    let inputs = json!([{"type": "int", "value": 1}, {"type": "tensor_list", "items": [{"key": "x", "dtype": "F32", "shape": [1]}, {"key": "z", "dtype": "F32", "shape": [1]}]}]);
    let e =
        parse_set(&index("forward", "s", inputs), &d, Some(&Location::new("forward", "s")), &SampleLimits::default())
            .unwrap_err();
    assert_eq!(e.rule(), SampleRule::MissingTensor);
    assert_eq!(e.path(), "samples/forward/s/index.json:samples[0].calls[0].inputs[1].items[1]");
    assert!(e.to_string().starts_with("[missing_tensor] "));
}

#[test]
fn unknown_versions_and_formats_are_unsupported() {
    let d = data(&[]);
    let with = |format: serde_json::Value, version: serde_json::Value| {
        serde_json::to_vec(
            &json!({"format": format, "version": version, "method": "f", "set": "s", "samples": [], "future_field": 1}),
        )
        .unwrap()
    };
    for (f, v) in [
        (json!("pte-samples"), json!(2)),
        (json!("pte-samples"), json!("1")),
        (json!("pte-samples"), json!(1.5)),
        (json!("other"), json!(1)),
        (json!(null), json!(1)),
    ] {
        let e = parse_set(&with(f.clone(), v.clone()), &d, None, &SampleLimits::default()).unwrap_err();
        assert_eq!((e.rule(), e.kind()), (SampleRule::UnknownVersion, ErrorKind::Unsupported), "{f} {v}");
    }
    let missing = serde_json::to_vec(&json!({"format": "pte-samples", "method": "f"})).unwrap();
    assert_eq!(rule_of(&missing, &d), SampleRule::UnknownVersion);
}

#[test]
fn malformed_indexes_say_where() {
    let d = data(&[]);
    let e = parse_set(b"{\"format\": \"pte-samples\",\n  \"version\": 1,\n  oops", &d, None, &SampleLimits::default())
        .unwrap_err();
    assert_eq!(e.rule(), SampleRule::Index);
    assert!((43..=47).contains(&e.offset().unwrap()), "{e}"); // on the third line, where `oops` starts
    let unknown = serde_json::to_vec(
        &json!({"format": "pte-samples", "version": 1, "method": "f", "set": "s", "samples": [], "extra": 1}),
    )
    .unwrap();
    assert_eq!(rule_of(&unknown, &d), SampleRule::Index);
    for bad in [
        json!([{"type": "int", "value": 1.5}]),
        json!([{"type": "int", "value": "1"}]),
        json!([{"type": "float", "value": "NaN"}]),
        json!([{"type": "float", "value": "nan:0x0000000000000001"}]),
        json!([{"type": "complex", "value": 1}]),
        json!([{"type": "none", "value": 1}]),
        json!([{"type": "tensor", "key": "x", "dtype": "F32", "shape": [-1]}]),
        json!([{"type": "bool", "value": 1}]),
        json!([7]),
    ] {
        assert_eq!(rule_of(&index("f", "s", bad.clone()), &d), SampleRule::Index, "{bad}");
    }
    assert_eq!(rule_of(b"\xff\xfe", &d), SampleRule::Index);
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    assert_eq!(rule_of(deep.as_bytes(), &d), SampleRule::Index);
}

#[test]
fn tolerances_must_be_finite_and_non_negative() {
    let d = data(&[]);
    let with = |t: serde_json::Value| {
        serde_json::to_vec(&json!({"format": "pte-samples", "version": 1, "method": "f", "set": "s", "samples": [{"tolerance": t, "calls": []}]})).unwrap()
    };
    assert_eq!(rule_of(&with(json!({"atol": -1.0, "rtol": 0.0})), &d), SampleRule::Tolerance);
    let overflow = String::from_utf8(with(json!({"atol": 0.0, "rtol": 7.0}))).unwrap().replace("7.0", "1e999");
    assert_eq!(rule_of(overflow.as_bytes(), &d), SampleRule::Index);
    assert_eq!(rule_of(&with(json!({"atol": 0.0})), &d), SampleRule::Index);
    assert!(parse_set(&with(json!({"atol": 0.0, "rtol": 0.0})), &d, None, &SampleLimits::default()).is_ok());
}

#[test]
fn huge_declared_sizes_are_refused_without_allocating_them() {
    let d = data(&[("x", Dtype::F32, vec![1])]);
    let huge = tensor_ref("x", "F32", json!([u64::MAX, u64::MAX]));
    assert_eq!(rule_of(&index("f", "s", huge), &d), SampleRule::ShapeMismatch);
    // A safetensors header that claims far more than the blob holds.
    let mut lying = 0x7fff_ffff_ffff_ffffu64.to_le_bytes().to_vec();
    lying.extend_from_slice(b"{}");
    let e = parse_set(&index("f", "s", json!([])), &lying, None, &SampleLimits::default()).unwrap_err();
    assert!(matches!(e.rule(), SampleRule::Safetensors | SampleRule::Limit), "{e}");
    // Counts over the configured limits.
    let small = SampleLimits {
        max_samples: 2,
        max_calls: 2,
        max_values: 2,
        max_list_len: 1,
        max_index_size: 4096,
        ..SampleLimits::default()
    };
    let many = |samples: serde_json::Value| {
        serde_json::to_vec(
            &json!({"format": "pte-samples", "version": 1, "method": "f", "set": "s", "samples": samples}),
        )
        .unwrap()
    };
    let e = data(&[]);
    let call = json!({"inputs": [], "outputs": []});
    for doc in [
        many(json!([{"calls": []}, {"calls": []}, {"calls": []}])),
        many(json!([{"calls": [call, call, call]}])),
        many(json!([{"calls": [{"inputs": [{"type": "none"}, {"type": "none"}, {"type": "none"}], "outputs": []}]}])),
        many(
            json!([{"calls": [{"inputs": [{"type": "tensor_list", "items": [{"key": "a", "dtype": "F32", "shape": []}, {"key": "b", "dtype": "F32", "shape": []}]}], "outputs": []}]}]),
        ),
        many(json!([{"name": "x".repeat(5000), "calls": []}])),
    ] {
        let err = parse_set(&doc, &e, None, &small).unwrap_err();
        assert_eq!((err.rule(), err.kind()), (SampleRule::Limit, ErrorKind::LimitExceeded));
    }
}

fn package(members: Vec<(&str, Vec<u8>)>) -> Vec<u8> {
    let bytes = pte_testkit::corpus_bytes("native_ptn/model.ptn");
    let mut ptn = PtnFile::from_bytes(&bytes).unwrap().into_owned();
    for (name, data) in members {
        ptn.members.push(Member { name: name.into(), data: Cow::Owned(data) });
    }
    ptn.to_bytes().unwrap()
}

#[test]
fn the_layout_is_checked() {
    let good_index = index("forward", "s", json!([]));
    let empty = data(&[]);
    let cases: Vec<Vec<(&str, Vec<u8>)>> = vec![
        vec![("samples/forward/s/index.json", good_index.clone())],
        vec![("samples/forward/s/data.safetensors", empty.clone())],
        vec![
            ("samples/forward/s/index.json", good_index.clone()),
            ("samples/forward/s/data.safetensors", empty.clone()),
            ("samples/forward/s/notes.txt", vec![]),
        ],
        vec![("samples/forward/index.json", good_index.clone())],
        vec![("samples/forward/s/t/index.json", good_index.clone())],
        vec![("samples", vec![1])],
        vec![
            ("samples/forward/other/index.json", good_index.clone()),
            ("samples/forward/other/data.safetensors", empty.clone()),
        ],
    ];
    for members in cases {
        let names: Vec<String> = members.iter().map(|m| m.0.to_string()).collect();
        let bytes = package(members);
        let ptn = PtnFile::from_bytes(&bytes).unwrap();
        assert_eq!(read_samples(&ptn).unwrap_err().rule(), SampleRule::Layout, "{names:?}");
    }
    // Directory entries are allowed and other members are not ours to judge.
    let bytes = package(vec![
        ("samples/", vec![]),
        ("samples/forward/", vec![]),
        ("samples/forward/s/index.json", good_index),
        ("samples/forward/s/data.safetensors", empty),
        ("notes/readme.txt", b"hi".to_vec()),
    ]);
    let ptn = PtnFile::from_bytes(&bytes).unwrap();
    assert_eq!(read_samples(&ptn).unwrap().len(), 1);
}

#[test]
fn writers_refuse_what_readers_would_refuse() {
    let bytes = pte_testkit::corpus_bytes("native_ptn/model.ptn");
    let mut ptn = PtnFile::from_bytes(&bytes).unwrap();
    let before = ptn.clone();
    assert_eq!(
        put_set(&mut ptn, &SampleSet::new("backward", "s"), false).unwrap_err().rule(),
        SampleRule::UnknownMethod
    );
    assert_eq!(put_set(&mut ptn, &SampleSet::new("forward", "../s"), false).unwrap_err().rule(), SampleRule::Name);
    let bad_tensor = PtnTensor { dtype: Dtype::F32, shape: vec![3], data: Cow::Owned(vec![0u8; 4]) };
    let mut set = SampleSet::new("forward", "s");
    set.samples.push(Sample {
        calls: vec![Call { inputs: vec![Value::Tensor(bad_tensor)], outputs: vec![], tolerance: None }],
        ..Default::default()
    });
    let e = put_set(&mut ptn, &set, false).unwrap_err();
    assert_eq!((e.rule(), e.kind()), (SampleRule::InvalidUse, ErrorKind::InvalidUse));
    let mut set = SampleSet::new("forward", "s");
    set.tolerance = Some(Tolerance { atol: f64::NAN, rtol: 0.0 });
    assert_eq!(put_set(&mut ptn, &set, false).unwrap_err().rule(), SampleRule::Tolerance);
    let two = [SampleSet::new("forward", "s"), SampleSet::new("forward", "s")];
    assert_eq!(write_samples(&mut ptn, &two).unwrap_err().rule(), SampleRule::DuplicateSet);
    assert_eq!(ptn, before, "a refused write changes nothing");
}
