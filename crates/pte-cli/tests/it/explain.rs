//! `pte explain` and the runtime's answer in `pte verify`: every rule the
//! stock runtime enforces names its error code and stage.

use crate::support::{model, pte, s, stderr as err, stdout as out};

#[test]
fn a_code_is_explained_by_number_or_name() {
    let by_hex = pte(&["explain", "0x23"]);
    assert_eq!(by_hex.status.code(), Some(0));
    let text = out(&by_hex);
    assert!(text.starts_with("InvalidProgram (0x23): "), "{text}");
    assert!(text.contains("  flatbuffer.identifier (at Program::load): "), "{text}");
    assert!(text.contains("  tensor.sizes (at load_method): "), "{text}");
    assert_eq!(out(&pte(&["explain", "35"])), text);
    assert_eq!(out(&pte(&["explain", "invalidprogram"])), text);
    let j: serde_json::Value = serde_json::from_str(&out(&pte(&["explain", "--json", "0x12"]))).unwrap();
    assert_eq!(
        (j["code"].as_u64(), j["name"].as_str(), j["hex"].as_str()),
        (Some(0x12), Some("InvalidArgument"), Some("0x12"))
    );
    assert!(j["rules"].as_array().unwrap().iter().any(|r| r["rule"] == "program.named_data_segments"));
    let missing = out(&pte(&["explain", "OperatorMissing"]));
    assert!(
        missing.contains("  needs.operator (at load_method):") && missing.contains("pte ops --runtime VERSION FILE"),
        "{missing}"
    );
}

#[test]
fn a_rule_is_explained_and_unknowns_are_usage_errors() {
    let o = pte(&["explain", "tensor.storage_offset"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(out(&o).contains("refuses a file breaking it with NotSupported (0x10) at load_method"), "{}", out(&o));
    let o = pte(&["explain", "segment.overlap"]);
    assert!(out(&o).contains("does not diagnose it"), "{}", out(&o));
    for bad in ["0x99", "Bogus", "tensor.nothing", ""] {
        let o = pte(&["explain", bad]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(err(&o).starts_with("pte: "), "{}", err(&o));
    }
}

#[test]
fn verify_names_the_runtime_error_of_each_violation() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.pte");
    let o = pte(&["mutate", "--rule", "pte.negative-size", s(&model("add")), s(&bad)]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let o = pte(&["verify", s(&bad)]);
    assert_eq!(o.status.code(), Some(1));
    assert!(out(&o).contains("; the runtime refuses it with InvalidProgram (0x23) at load_method"), "{}", out(&o));
    let j: serde_json::Value = serde_json::from_str(&out(&pte(&["verify", "--json", s(&bad)]))).unwrap();
    let v = &j["violations"][0];
    assert_eq!(v["rule"], "tensor.sizes");
    assert_eq!(
        v["runtime_error"],
        serde_json::json!({"code": 35, "hex": "0x23", "name": "InvalidProgram", "stage": "load_method"})
    );
    // the many-file form gives the same entries
    let many = out(&pte(&["verify", "--json", s(&bad), s(&model("add"))]));
    let first: serde_json::Value = serde_json::from_str(many.lines().next().unwrap()).unwrap();
    assert_eq!(first["violations"][0], *v);
}

#[test]
fn a_code_a_runner_meets_at_execute_has_its_causes_there() {
    // "Invalid number of inputs provided" is 0x12 from Method::set_inputs
    let o = pte(&["explain", "0x12"]);
    assert_eq!(o.status.code(), Some(0));
    let text = out(&o);
    let causes = text.split("causes when a method runs").nth(1).unwrap_or_else(|| panic!("{text}"));
    assert!(causes.contains("  Method::set_inputs (at execute): the number of inputs given"), "{text}");
    assert!(causes.contains("Invalid number of inputs provided"), "{text}");
    assert!(causes.contains("  Method::set_input (at execute): an input tensor of another dtype"), "{text}");
    assert!(causes.contains("  Method::execute (at execute): an input that was never set"), "{text}");
    // the file's rules still come first
    assert!(text.find("program.named_data_segments").unwrap() < text.find("causes when").unwrap(), "{text}");
    let j: serde_json::Value = serde_json::from_str(&out(&pte(&["explain", "--json", "0x12"]))).unwrap();
    let causes = j["causes"].as_array().unwrap();
    assert!(causes.iter().all(|c| c["stage"] == "execute"), "{j}");
    assert!(causes.iter().any(|c| c["call"] == "Method::set_inputs"), "{j}");
    // a static input of another shape fails its resize: NotSupported
    let shape = out(&pte(&["explain", "NotSupported"]));
    assert!(shape.contains("  Method::set_input (at execute): an input tensor of another shape"), "{shape}");
    // a code with no such cause lists none, and says so in JSON
    assert!(!out(&pte(&["explain", "0x14"])).contains("causes when"));
    let j: serde_json::Value = serde_json::from_str(&out(&pte(&["explain", "--json", "0x14"]))).unwrap();
    assert_eq!(j["causes"], serde_json::json!([]));
}
