//! Inspection end to end: the tensor table, EXTERNAL keys and their data
//! file, device placement, verify's warnings, many files at once, graphs.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, missing_docs)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn corpus(case: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus").join(case)
}

fn pte(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pte")).args(args).output().unwrap()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

const EXTERNAL_KEYS: [&str; 4] = ["seq.0.weight", "seq.0.bias", "seq.2.weight", "seq.2.bias"];

#[test]
fn info_names_every_external_key_under_its_data_file() {
    let p = corpus("external").join("model.pte");
    let o = pte(&["info", s(&p)]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(
        text.contains("external data \"_default_external_constant\" (_default_external_constant.ptd): 4 keys"),
        "{text}"
    );
    for k in EXTERNAL_KEYS {
        assert!(text.contains(&format!("  {k}\n")), "{text}");
    }
    let o = pte(&["info", "--json", s(&p)]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["external_data"][0]["tag"], "_default_external_constant");
    assert_eq!(v["external_data"][0]["keys"], serde_json::json!(EXTERNAL_KEYS));
}

#[test]
fn external_keys_without_their_ptd_are_grouped_under_no_tag() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("model.pte");
    std::fs::copy(corpus("external").join("model.pte"), &p).unwrap();
    let o = pte(&["info", "--json", s(&p)]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(v["external_data"][0]["tag"].is_null());
    assert_eq!(v["external_data"][0]["keys"].as_array().unwrap().len(), 4);
}

#[test]
fn tensors_table_lists_constants_with_dtype_shape_and_range() {
    let o = pte(&["info", "--tensors", s(&corpus("linear").join("model.pte"))]);
    let text = stdout(&o);
    assert!(text.contains("tensors (2):"), "{text}");
    assert!(text.contains("constant[1]  constant 1664..1712  float32  [3, 4]  [0, 1]     48"), "{text}");
    let o = pte(&["info", "--json", "--tensors", s(&corpus("dtypes").join("model.pte"))]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let dtypes: Vec<&str> = v["tensors"].as_array().unwrap().iter().map(|t| t["dtype"].as_str().unwrap()).collect();
    for d in ["HALF", "BFLOAT16", "CHAR", "LONG", "BOOL", "DOUBLE"] {
        assert!(dtypes.contains(&d), "{dtypes:?}");
    }
    // without the flag the JSON keeps its shape
    let o = pte(&["info", "--json", s(&corpus("linear").join("model.pte"))]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(v.get("tensors").is_none());
}

#[test]
fn dynamic_shapes_are_marked_as_bounds() {
    let o = pte(&["info", s(&corpus("dynamic").join("model.pte"))]);
    assert!(stdout(&o).contains("in  #2: float32 [<=16, <=4]"), "{}", stdout(&o));
}

#[test]
fn ptn_methods_show_their_signature() {
    let o = pte(&["info", s(&corpus("native_ptn").join("model.ptn"))]);
    let text = stdout(&o);
    assert!(text.contains("1 input, 1 output, 4 constants"), "{text}");
    assert!(text.contains("  in  x: float32 [2, 16]"), "{text}");
}

#[test]
fn verify_warns_of_external_keys_until_the_ptd_is_given() {
    let dir = corpus("external");
    let p = dir.join("model.pte");
    let o = pte(&["verify", s(&p)]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    assert!(text.contains("warning: [needs.external-data]"), "{text}");
    for k in EXTERNAL_KEYS {
        assert!(text.contains(k), "{text}");
    }
    let o = pte(&["verify", "--deny-warnings", s(&p)]);
    assert_eq!(o.status.code(), Some(1));
    let o = pte(&["verify", "--json", "--deny-warnings", s(&p)]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["warnings"][0]["rule"], "needs.external-data");
    let ptd = dir.join("_default_external_constant.ptd");
    let o = pte(&["verify", "--deny-warnings", "--ptd", s(&ptd), s(&p)]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(!stdout(&o).contains("warning"), "{}", stdout(&o));
}

#[test]
fn buffers_on_another_device_are_shown_and_warned_about() {
    let bytes = std::fs::read(corpus("add").join("model.pte")).unwrap();
    let mut f = pte_file::PteFile::from_bytes(&bytes).unwrap().into_owned();
    let plan = &mut f.program.execution_plan.as_mut().unwrap()[0];
    plan.non_const_buffer_device = Some(vec![pte_schema::NonConstBufferDevice {
        buffer_idx: 1,
        device_type: pte_schema::DeviceType::CUDA,
        device_index: 0,
    }]);
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("cuda.pte");
    std::fs::write(&p, f.to_bytes(&Default::default()).unwrap()).unwrap();
    let o = pte(&["info", s(&p)]);
    assert!(stdout(&o).contains("planned buffer 1 ("), "{}", stdout(&o));
    assert!(stdout(&o).contains("on CUDA:0"), "{}", stdout(&o));
    let o = pte(&["verify", s(&p)]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("[needs.device]"), "{}", stdout(&o));
    let o = pte(&["verify", "--deny-warnings", s(&p)]);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn clean_programs_have_no_needs() {
    let o = pte(&["verify", "--deny-warnings", s(&corpus("linear").join("model.pte"))]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}
