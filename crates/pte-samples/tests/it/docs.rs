//! The specification in docs/ covers every rule, and the JSON Schema agrees
//! with what the writer produces.

use std::path::Path;

use pte_samples::*;

fn doc(name: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs").join(name)).unwrap()
}

#[test]
fn every_rule_is_specified_and_in_the_verifier_table() {
    let spec = doc("samples.md");
    let verifier = doc("verifier.md");
    for rule in SampleRule::ALL {
        assert!(spec.contains(&format!("| `{}` |", rule.name())), "docs/samples.md lacks {rule}");
        assert!(
            verifier.contains(&format!("| `{}` |", rule.verifier_rule())),
            "docs/verifier.md lacks {}: run PTE_BLESS=1 cargo test -p pte-cli verifier_doc",
            rule.verifier_rule()
        );
        assert_eq!(CATALOGUE.find(rule.verifier_rule().name()), Some(rule.verifier_rule()));
    }
}

#[test]
fn the_schema_names_every_value_kind_and_the_current_version() {
    let schema: serde_json::Value = serde_json::from_str(&doc("samples.schema.json")).unwrap();
    assert_eq!(schema["properties"]["format"]["const"], FORMAT_TAG);
    assert_eq!(schema["properties"]["version"]["const"], INDEX_VERSION);
    let kinds: Vec<&str> = schema["$defs"]["value"]["oneOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["properties"]["type"]["const"].as_str().unwrap())
        .collect();
    let ours = [
        Value::Tensor(pte_ptn::PtnTensor::new(pte_ptn::Dtype::U8, vec![], vec![0u8]).unwrap()),
        Value::TensorList(vec![]),
        Value::Int(0),
        Value::Float(0.0),
        Value::Bool(false),
        Value::String(String::new()),
        Value::None,
    ];
    assert_eq!(kinds, ours.iter().map(Value::kind).collect::<Vec<_>>());
    let dtypes: Vec<String> = pte_ptn::SUPPORTED_DTYPES.iter().map(|d| pte_ptn::dtype_code(*d)).collect();
    let listed: Vec<&str> = schema["$defs"]["tensor_ref"]["properties"]["dtype"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(listed, dtypes);
    assert!(doc("samples.md").contains(&format!("**index version {INDEX_VERSION}**")));
}
