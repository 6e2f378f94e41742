//! `pte memory`: the planned buffer sizes equal what the stock runtime
//! reports on every corpus program, the method allocator estimate equals what
//! it used, a plan that overlaps two live tensors is flagged (by `memory` and
//! by `verify`) while the corpus is not, damaged plans are listed rather
//! than guessed, and no hostile or mutant input makes it panic.

use std::path::Path;

use pte_file::{PteFile, WriteOptions};
use pte_schema::{ExecutionPlan, InstructionArguments, KernelTypes, Tensor};
use serde_json::{json, Value};

use crate::support;
use crate::support::{corpus_bytes, corpus_programs, model, pte, s, stderr, stdout};

/// What the stock ExecuTorch 1.5.1 runtime says of each corpus program
/// (`scripts/conformance/et-memory.sh`): per method, `MethodMeta`'s
/// memory-planned buffer sizes, and the bytes its method allocator held
/// after `load_method` (no temp allocator given). The runtime refuses
/// `legacy_inline_constants` as stored; its numbers are those of the same
/// program after `pte rewrite --constants segment`.
const RUNTIME: &[(&str, &str, &[u64], u64)] = &[
    ("add", "forward", &[192], 560),
    ("bundled", "forward", &[112], 1302),
    ("decoder_samples", "forward", &[20736], 25777),
    ("deep_program", "forward", &[64], 2_784_163),
    ("dtypes", "forward", &[80], 6931),
    ("dynamic", "forward", &[496], 1350),
    ("external", "forward", &[2432], 2622),
    ("inline_delegate", "forward", &[448], 632),
    ("legacy_inline_constants", "forward", &[112], 1302),
    ("linear", "forward", &[112], 1302),
    ("multi_method", "encode", &[336], 2430),
    ("multi_method", "forward", &[112], 1302),
    ("mutable_buffer", "forward", &[96], 1059),
    ("mutable_plain", "forward", &[96], 1059),
    ("stacktrace", "forward", &[112], 1302),
    ("xnnpack_mlp", "forward", &[448], 632),
];

fn memory_json(file: &Path, extra: &[&str]) -> Value {
    let mut args = vec!["memory", "--json"];
    args.extend_from_slice(extra);
    args.push(s(file));
    let o = pte(&args);
    assert_eq!(o.status.code(), Some(0), "{}: {}", file.display(), stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap()
}

fn case_of(file: &Path) -> String {
    file.parent().unwrap().file_name().unwrap().to_str().unwrap().to_string()
}

#[test]
fn buffer_sizes_and_the_allocator_estimate_equal_the_stock_runtime_s_on_every_corpus_program() {
    let programs = corpus_programs();
    assert!(programs.len() >= 14, "{} corpus programs", programs.len());
    for file in programs {
        let case = case_of(&file);
        let v = memory_json(&file, &[]);
        let methods = v["methods"].as_array().unwrap();
        let want: Vec<_> = RUNTIME.iter().filter(|r| r.0 == case).collect();
        assert!(!want.is_empty(), "{case}: not in the table; run scripts/conformance/et-memory.sh and add it");
        assert_eq!(methods.len(), want.len(), "{case}: methods");
        for (m, (_, name, sizes, used)) in methods.iter().zip(want) {
            assert_eq!(m["name"], *name, "{case}");
            let arenas = m["arenas"].as_array().unwrap();
            let got: Vec<u64> = arenas.iter().map(|a| a["size"].as_u64().unwrap()).collect();
            assert_eq!(got, *sizes, "{case}/{name}: buffer sizes");
            for (i, a) in arenas.iter().enumerate() {
                assert_eq!((a["runtime_index"].as_u64(), a["id"].as_u64()), (Some(i as u64), Some(i as u64 + 1)));
            }
            let estimate = m["method_allocator"]["bytes"].as_u64().unwrap();
            if m["method_allocator"]["delegates"] == 0 {
                assert_eq!(estimate, *used, "{case}/{name}: method allocator");
            } else {
                // the backend's own init allocations come on top
                assert!(estimate < *used, "{case}/{name}: {estimate} vs {used}");
            }
            assert!(m["unattributed"].as_array().unwrap().is_empty(), "{case}/{name}");
        }
    }
}

/// The program of `case` with `change` made to its first plan.
fn edited(case: &str, change: impl FnOnce(&mut ExecutionPlan)) -> Vec<u8> {
    let bytes = corpus_bytes(&format!("{case}/model.pte"));
    let mut p = PteFile::from_bytes(&bytes).unwrap().into_owned();
    change(&mut p.program.execution_plan.as_mut().unwrap()[0]);
    p.to_bytes(&WriteOptions::default()).unwrap()
}

fn tensor(plan: &mut ExecutionPlan, j: usize) -> &mut Tensor {
    match plan.values.as_mut().unwrap()[j].val.as_mut().unwrap() {
        KernelTypes::Tensor(t) => t,
        _ => panic!("value {j} is not a tensor"),
    }
}

#[test]
fn a_plan_overlapping_two_live_tensors_is_flagged_and_the_corpus_is_not() {
    for file in corpus_programs() {
        let v = memory_json(&file, &[]);
        for m in v["methods"].as_array().unwrap() {
            assert_eq!(m["overlaps"], json!([]), "{}", file.display());
        }
        let o = pte(&["verify", "--deny-warnings", s(&file)]);
        assert!(!stdout(&o).contains("memory.overlap"), "{}", stdout(&o));
    }
    // linear: values[3] (bytes 0..48) is read by instruction 1, which writes
    // values[7] (48..72); placed at 0 instead, it overwrites values[3], and
    // instruction 2 then writes the output (0..24) over it while reading it
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("overlap.pte");
    std::fs::write(&bad, edited("linear", |p| tensor(p, 7).allocation_info.as_mut().unwrap().memory_offset_low = 0))
        .unwrap();
    let v = memory_json(&bad, &[]);
    assert_eq!(
        v["methods"][0]["overlaps"],
        json!([
            {"arena": 1, "values": [3, 7], "bytes": [0, 24], "instructions": [1, 1]},
            {"arena": 1, "values": [7, 10], "bytes": [0, 24], "instructions": [2, 2]},
        ])
    );
    assert_eq!(v["methods"][0]["overlaps_truncated"], false);
    let text = stdout(&pte(&["memory", s(&bad)]));
    assert!(text.contains("OVERLAP buffer 1: values 3 and 7 share bytes 0..24 during instructions 1..=1"), "{text}");
    let o = pte(&["verify", s(&bad)]);
    assert_eq!(o.status.code(), Some(0), "a warning only");
    assert!(stdout(&o).contains("warning: [memory.overlap] method \"forward\": values[3] and values[7] share bytes 0..24 of planned buffer 1"), "{}", stdout(&o));
    assert_eq!(pte(&["verify", "--deny-warnings", s(&bad)]).status.code(), Some(1));
    // the mutate class does the same to any program
    for case in ["add", "multi_method", "xnnpack_mlp"] {
        let out = dir.path().join(format!("{case}.pte"));
        let o = pte(&["mutate", "--rule", "memory.overlap", s(&model(case)), s(&out)]);
        assert!(o.status.success(), "{}", stderr(&o));
        let o = pte(&["verify", "--json", s(&out)]);
        let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["valid"], true);
        assert!(v["warnings"].as_array().unwrap().iter().any(|w| w["rule"] == "memory.overlap"), "{case}: {v}");
    }
}

#[test]
fn the_json_is_the_documented_contract() {
    let v = memory_json(&model("mutable_plain"), &[]);
    let m = &v["methods"][0];
    assert_eq!((&m["name"], &m["plan"], &m["instructions"]), (&json!("forward"), &json!(0), &json!(3)));
    assert_eq!(
        m["arenas"],
        json!([{"id": 1, "runtime_index": 0, "size": 96, "tensors": 4, "high_water": 96, "peak": 96, "peak_at": 0}])
    );
    let t = |j: u64| m["tensors"].as_array().unwrap().iter().find(|t| t["value"] == j).unwrap().clone();
    assert_eq!(
        t(1),
        json!({"value": 1, "arena": 1, "offset": 64, "size": 32, "dtype": "FLOAT", "sizes": [8], "dynamic": false,
               "name": "state", "role": "state", "lifetime": [0, 2]})
    );
    // the input's bytes are reused by the output once the input is consumed
    assert_eq!(
        (t(2)["role"].clone(), t(2)["lifetime"].clone(), t(2)["offset"].clone()),
        (json!("input"), json!([0, 0]), json!(32))
    );
    assert_eq!(
        (t(5)["role"].clone(), t(5)["lifetime"].clone(), t(5)["offset"].clone()),
        (json!("output"), json!([1, 2]), json!(32))
    );
    assert_eq!(t(3)["role"], "intermediate");
    let e = &m["method_allocator"];
    let parts = e["parts"].as_object().unwrap();
    let keys: Vec<&str> = parts.keys().map(String::as_str).collect();
    for k in [
        "temp_fallback",
        "values",
        "external_constants",
        "tensors",
        "lists",
        "delegates",
        "chains",
        "arguments",
        "kernel_lookup",
        "padding",
    ] {
        assert!(keys.contains(&k), "{k} missing from {keys:?}");
    }
    assert_eq!(parts.values().map(|p| p.as_u64().unwrap()).sum::<u64>(), e["bytes"].as_u64().unwrap());
    assert!(e["formula"].as_str().unwrap().contains("16 × values"));
    assert_eq!((&e["delegates"], &e["external_data"]), (&json!(0), &json!(false)));
    assert_eq!((&m["overlaps"], &m["overlaps_truncated"], &m["unattributed"]), (&json!([]), &json!(false), &json!([])));
    // a dynamic tensor counts its upper bounds
    let v = memory_json(&model("dynamic"), &[]);
    let input = &v["methods"][0]["tensors"][0];
    assert_eq!((&input["sizes"], &input["dynamic"], &input["size"]), (&json!([16, 4]), &json!(true), &json!(256)));
}

#[test]
fn method_selects_one_and_the_text_names_every_part() {
    let mm = model("multi_method");
    let v = memory_json(&mm, &["--method", "encode"]);
    assert_eq!(v["methods"].as_array().unwrap().len(), 1);
    assert_eq!(v["methods"][0]["name"], "encode");
    let o = pte(&["memory", "--method", "nope", s(&mm)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("pte: ") && stderr(&o).contains("\"encode\", \"forward\""), "{}", stderr(&o));
    let o = pte(&["memory", s(&model("add"))]);
    assert!(o.status.success());
    let text = stdout(&o);
    for line in [
        "method \"forward\": 1 instruction, 1 planned buffer (non_const_buffer_sizes[0] is reserved)",
        "  buffer 1 (runtime buffer 0): 192 bytes; 3 tensors, peak 180 bytes live at instruction 0, high water 188",
        "  value  buffer  bytes     size  tensor          lifetime  role",
        "  0      1       128..188  60    float32 [3, 5]  0..=0     input",
        "  2      1       0..60     60    float32 [3, 5]  0..=0     output",
        "  method allocator (estimate): 560 bytes = values 66, tensors 216, lists 0, external constants 0, delegates 0, chains 56, arguments 40, kernel lookup 128, temp fallback 48, padding 6",
    ] {
        assert!(text.lines().any(|l| l == line), "missing {line:?} in\n{text}");
    }
    let text = stdout(&pte(&["memory", s(&model("xnnpack_mlp"))]));
    assert!(text.contains("plus what the backends of 1 delegate allocate in init"), "{text}");
    // a bundle answers for the program it holds
    let bundle = support::corpus("bundled/model.bpte");
    let o = pte(&["memory", "--json", s(&bundle)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("p.pte");
    assert!(pte(&["bpte", "unbundle", s(&bundle), s(&program)]).status.success());
    assert_eq!(stdout(&o), stdout(&pte(&["memory", "--json", s(&program)])));
    // a package and a data file have no plan: one line, exit 2
    for other in [support::corpus("native_ptn/model.ptn"), support::corpus("external/_default_external_constant.ptd")] {
        let o = pte(&["memory", s(&other)]);
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains("no memory plan") && stderr(&o).lines().count() == 1, "{}", stderr(&o));
    }
}

/// Names from the file reach the table through the one escaping rule
/// (`style::quoted`), wide names widen their column, and a dynamic
/// tensor's sizes read as bounds.
#[test]
fn the_table_escapes_names_and_pads_every_column() {
    let bytes = edited("mutable_plain", |plan| {
        plan.name = Some("fwd\u{1b}[2J".into());
        let j = plan.values.as_ref().unwrap().iter().position(|v| matches!(&v.val, Some(KernelTypes::Tensor(t)) if t.extra_tensor_info.as_ref().and_then(|e| e.fully_qualified_name.as_deref()) == Some("state"))).unwrap();
        let t = tensor(plan, j);
        t.extra_tensor_info.as_mut().unwrap().fully_qualified_name = Some("ståte\u{7}\\\"x".into());
        t.shape_dynamism = pte_schema::TensorShapeDynamism::DYNAMIC_BOUND;
    });
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("named.pte");
    std::fs::write(&f, &bytes).unwrap();
    let o = pte(&["memory", s(&f)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.starts_with("method \"fwd\\u001b[2J\": "), "{text}");
    let row = text.lines().find(|l| l.contains("state")).unwrap();
    assert!(row.ends_with(r#"state "ståte\u0007\\\"x""#), "{row}");
    assert!(row.contains("float32 [<="), "{row}");
    // the row's cells start where the header's do
    let header = text.lines().find(|l| l.trim_start().starts_with("value")).unwrap();
    for (title, cell) in [("bytes", "64..96"), ("tensor", "float32"), ("lifetime", "0..=2"), ("role", "state")] {
        assert_eq!(header.find(title), row.find(cell), "{title}:\n{header}\n{row}");
    }
    assert!(text.lines().all(|l| !l.ends_with(' ')), "{text}");
}

#[test]
fn damaged_plans_are_listed_not_guessed() {
    let dir = tempfile::tempdir().unwrap();
    let cases: Vec<(&str, Vec<u8>, &str, &str)> = vec![
        (
            "reserved",
            edited("linear", |p| tensor(p, 2).allocation_info.as_mut().unwrap().memory_id = 0),
            "execution_plan[0].values[2]",
            "reserved buffer 0",
        ),
        (
            "missing",
            edited("linear", |p| tensor(p, 2).allocation_info.as_mut().unwrap().memory_id = 7),
            "execution_plan[0].values[2]",
            "memory_id 7 names none of the method's 1 planned buffers",
        ),
        (
            "negative",
            edited("linear", |p| p.non_const_buffer_sizes = Some(vec![0, -8])),
            "execution_plan[0].non_const_buffer_sizes[1]",
            "negative size -8",
        ),
        (
            "past-end",
            edited("linear", |p| tensor(p, 2).allocation_info.as_mut().unwrap().memory_offset_low = 100),
            "execution_plan[0].values[2].allocation_info",
            "32 bytes at offset 100 end at 132 past the end of the 112-byte buffer 1",
        ),
        (
            "dtype",
            edited("linear", |p| tensor(p, 2).scalar_type = pte_schema::ScalarType(99)),
            "execution_plan[0].values[2]",
            "its size is unknown",
        ),
        (
            "argument",
            edited("linear", |p| {
                let i = &mut p.chains.as_mut().unwrap()[0].instructions.as_mut().unwrap()[1];
                if let Some(InstructionArguments::KernelCall { args, .. }) = &mut i.instr_args {
                    args.as_mut().unwrap().push(9999);
                }
            }),
            "execution_plan[0].chains[0].instructions[1]",
            "names value 9999, which does not exist",
        ),
    ];
    for (name, bytes, path, reason) in cases {
        let file = dir.path().join(format!("{name}.pte"));
        std::fs::write(&file, bytes).unwrap();
        let o = pte(&["memory", "--json", s(&file)]);
        assert_eq!(o.status.code(), Some(1), "{name}: {}", stderr(&o));
        assert!(stderr(&o).starts_with("pte: ") && stderr(&o).contains("could not be attributed"), "{name}");
        let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
        let u = v["methods"][0]["unattributed"].as_array().unwrap();
        assert!(u.iter().any(|u| u["path"] == path && u["reason"].as_str().unwrap().contains(reason)), "{name}: {u:?}");
        if name != "past-end" && name != "argument" {
            // nothing is invented for the tensor that could not be placed
            assert!(!v["methods"][0]["tensors"].as_array().unwrap().iter().any(|t| t["value"] == 2), "{name}");
        }
        let o = pte(&["memory", s(&file)]);
        assert_eq!(o.status.code(), Some(1));
        assert!(stdout(&o).contains(&format!("unattributed: {path}: ")), "{name}: {}", stdout(&o));
    }
    // not a program at all, or a flatbuffer that fails verification
    let junk = dir.path().join("junk.pte");
    let mut bytes = corpus_bytes("linear/model.pte");
    bytes.truncate(200);
    std::fs::write(&junk, &bytes).unwrap();
    let o = pte(&["memory", s(&junk)]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
}

/// Every program corruption class of `pte mutate`, and seeded blind
/// mutants, on several corpus programs: `pte memory` answers each (a plan,
/// a plan with unattributed parts, or a one-line refusal), never panics.
#[test]
fn hostile_and_mutant_programs_get_an_answer_never_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let mut inputs: Vec<(String, Vec<u8>)> = vec![];
    for case in ["linear", "mutable_plain", "multi_method", "xnnpack_mlp", "dynamic"] {
        let bytes = corpus_bytes(&format!("{case}/model.pte"));
        for class in pte_gen::classes().filter(|c| c.input.is_pte()) {
            if let Ok(b) = class.apply(&bytes) {
                inputs.push((format!("{case}-{}", class.name), b));
            }
        }
        inputs.extend(pte_gen::random_mutants(&bytes, 7, 24).into_iter().map(|(n, b)| (format!("{case}-{n}"), b)));
    }
    inputs.push((
        "shared-segments".into(),
        pte_gen::hostile::pte_shared_segments(&corpus_bytes("linear/model.pte"), 50_000).unwrap(),
    ));
    assert!(inputs.len() > 200, "{} inputs", inputs.len());
    let (mut planned, mut listed, mut refused) = (0, 0, 0);
    for (name, bytes) in &inputs {
        let file = dir.path().join("m.pte");
        std::fs::write(&file, bytes).unwrap();
        let o = pte(&["memory", "--json", s(&file)]);
        let err = stderr(&o);
        assert!(!err.contains("panicked"), "{name}: {err}");
        match o.status.code() {
            Some(0) => planned += 1,
            Some(1) => listed += 1,
            Some(2) => {
                refused += 1;
                assert!(err.starts_with("pte: ") && err.lines().count() == 1, "{name}: {err}");
                continue;
            }
            other => panic!("{name}: exit {other:?}: {err}"),
        }
        let v: Value = serde_json::from_str(&stdout(&o)).unwrap_or_else(|e| panic!("{name}: {e}"));
        for m in v["methods"].as_array().unwrap() {
            // every listed tensor lies in a listed buffer; nothing is negative or invented
            let ids: Vec<&Value> = m["arenas"].as_array().unwrap().iter().map(|a| &a["id"]).collect();
            for t in m["tensors"].as_array().unwrap() {
                assert!(ids.contains(&&t["arena"]), "{name}: {t}");
            }
            for a in m["arenas"].as_array().unwrap() {
                assert!(
                    a["peak"].as_u64().unwrap() <= a["high_water"].as_u64().unwrap()
                        || a["high_water"] == 0
                        || m["overlaps"] != json!([]),
                    "{name}: {a}"
                );
            }
        }
    }
    // the mix exercises all three answers
    assert!(planned > 0 && listed > 0 && refused > 0, "{planned} planned, {listed} listed, {refused} refused");
}
