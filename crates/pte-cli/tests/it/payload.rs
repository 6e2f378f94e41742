//! Delegate payloads through the binary: `info`, `dump --delegate`, and
//! `verify --ptd` on a program whose XNNPACK weights were moved to a `.ptd`.

use crate::support::{model, pte, s, stdout};

/// The weight key the first fully-connected layer of `xnnpack_mlp` needs.
const FIRST_WEIGHT: &str = "91b3747d8c74228ae936d6d26f1626d6c8dbd6ff7ebd4a22932e259cd3e9b4ad";

#[test]
fn info_lists_payload_nodes_tensors_and_keys() {
    let o = pte(&["info", "--json", s(&model("xnnpack_mlp"))]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let p = &v["delegates"][0]["payload"];
    assert_eq!(p["nodes"]["XNNFullyConnected"], 2);
    assert_eq!(p["tensors"].as_array().unwrap().len(), 7);
    assert_eq!(p["named_keys"].as_array().unwrap().len(), 4);
    let text = stdout(&pte(&["info", s(&model("inline_delegate"))]));
    assert!(text.contains("nodes: XNNFullyConnected ×2"), "{text}");
}

#[test]
fn dump_delegate_prints_the_payload_graph() {
    let o = pte(&["dump", s(&model("inline_delegate")), "--delegate", "0"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["xnodes"][0]["xnode_union_type"], "XNNFullyConnected");
    assert_eq!(v["num_externs"], 2);
    assert_eq!(pte(&["dump", s(&model("inline_delegate")), "--delegate", "1"]).status.code(), Some(2));
    assert_eq!(pte(&["dump", s(&model("linear")), "--delegate", "0"]).status.code(), Some(2));
}

#[test]
fn verify_ptd_names_the_payload_key_it_lacks() {
    let dir = tempfile::tempdir().unwrap();
    let (prog, all, three) = (dir.path().join("m.pte"), dir.path().join("all.ptd"), dir.path().join("three.ptd"));
    let src = model("xnnpack_mlp");
    assert!(pte(&["externalize", s(&src), s(&prog), s(&all)]).status.success());
    // every key but the one ending in "ad" (FIRST_WEIGHT)
    let other = dir.path().join("other.pte");
    assert!(pte(&["externalize", s(&src), s(&other), s(&three), "--keys", "*[0-9]"]).status.success());

    let alone = pte(&["verify", s(&prog)]);
    assert!(alone.status.success(), "a .ptd may still provide the keys");
    assert!(stdout(&alone).contains("warning: [payload.named_key]"));

    let good = pte(&["verify", s(&prog), "--ptd", s(&all)]);
    assert!(good.status.success(), "{}", stdout(&good));
    assert!(!stdout(&good).contains("warning"));

    let bad = pte(&["verify", "--json", s(&prog), "--ptd", s(&three)]);
    assert_eq!(bad.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&stdout(&bad)).unwrap();
    let found: Vec<&serde_json::Value> = v["violations"].as_array().unwrap().iter().collect();
    assert_eq!(found.len(), 1, "{v}");
    assert_eq!(found[0]["rule"], "link.payload_key");
    assert!(found[0]["message"].as_str().unwrap().contains(FIRST_WEIGHT));
    assert!(found[0]["path"].as_str().unwrap().starts_with("execution_plan[0].delegates[0]"));
}
