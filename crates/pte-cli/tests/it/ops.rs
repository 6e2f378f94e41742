//! `pte ops`: the selected-operators YAML equals what ExecuTorch's
//! gen_oplist.py wrote for every corpus program (and gen_all_oplist.py for
//! their union; the files in tests/data/ops come from
//! scripts/conformance/et-ops.sh --expected), the JSON contract of
//! docs/cli.md, and damaged or hostile files answered with a message.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use pte_schema::InstructionArguments;
use serde_json::Value;

use crate::support::{corpus, corpus_files, pte, s, stderr, stdout, PTE};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ops")
}

/// `pte ARGS` run from the repository's `tests/`, so corpus paths are `corpus/...`
/// as they were when the expected files were made.
fn pte_here(args: &[&str]) -> Output {
    Command::new(PTE).current_dir(pte_testkit::repo_root().join("tests")).args(args).output().unwrap()
}

/// The corpus program each expected file was made from (`corpus/add/model.pte`).
fn expected_cases() -> Vec<(String, PathBuf)> {
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(data())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_str().unwrap().starts_with("corpus."))
        .map(|p| {
            let stem = p.file_stem().unwrap().to_str().unwrap().to_string(); // corpus.add.model.pte
            let parts: Vec<&str> = stem.splitn(3, '.').collect();
            (format!("corpus/{}/{}", parts[1], parts[2]), p)
        })
        .collect();
    out.sort();
    out
}

#[test]
fn yaml_is_gen_oplists_file_for_every_corpus_program() {
    let cases = expected_cases();
    // a new corpus program without its expected file fails here
    assert_eq!(cases.len(), corpus_files(&["pte", "bpte"]).len());
    for (rel, expected) in &cases {
        let o = pte_here(&["ops", "--yaml", rel]);
        assert_eq!(o.status.code(), Some(0), "{rel}: {}", stderr(&o));
        assert_eq!(stdout(&o), std::fs::read_to_string(expected).unwrap(), "{rel}");
    }
}

#[test]
fn yaml_of_many_files_is_their_union() {
    let mut rels: Vec<String> = expected_cases().into_iter().map(|(r, _)| r).collect();
    rels.reverse(); // the order of the arguments does not matter
    let args: Vec<&str> = ["ops", "--yaml"].into_iter().chain(rels.iter().map(String::as_str)).collect();
    let o = pte_here(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), std::fs::read_to_string(data().join("union.yaml")).unwrap());
}

fn json(args: &[&str]) -> Value {
    let o = pte(args);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap()
}

#[test]
fn json_names_operators_overloads_calls_and_kernel_keys() {
    let add = corpus("add/model.pte");
    let v = json(&["ops", "--json", s(&add)]);
    let file = &v["files"][0];
    assert_eq!(file["file"], s(&add));
    assert_eq!(file["format"], "pte");
    let m = &file["methods"][0];
    assert_eq!(m["name"], "forward");
    assert_eq!(
        m["operators"],
        serde_json::json!([{"name": "aten::add", "overload": "out", "calls": 1,
                            "kernel_keys": ["v1/6;0,1|6;0,1|6;0,1|6;0,1"]}])
    );
    assert_eq!(m["delegates"], serde_json::json!([]));
    assert_eq!(v["union"]["operators"][0]["files"], serde_json::json!([s(&add)]));

    let v = json(&["ops", "--json", s(&corpus("xnnpack_mlp/model.pte"))]);
    assert_eq!(v["files"][0]["methods"][0]["delegates"], serde_json::json!([{"id": "XnnpackBackend", "calls": 1}]));
    assert_eq!(v["union"]["delegates"], serde_json::json!([{"id": "XnnpackBackend", "calls": 1}]));

    // every call counted; a method each
    let v = json(&["ops", "--json", s(&corpus("multi_method/model.pte"))]);
    let methods = v["files"][0]["methods"].as_array().unwrap();
    assert_eq!(methods.len(), 2);
    let calls: u64 =
        methods.iter().flat_map(|m| m["operators"].as_array().unwrap()).map(|o| o["calls"].as_u64().unwrap()).sum();
    let union_calls: u64 =
        v["union"]["operators"].as_array().unwrap().iter().map(|o| o["calls"].as_u64().unwrap()).sum();
    assert_eq!(calls, union_calls);
    assert!(calls >= 6);
}

#[test]
fn a_folder_gives_every_program_kind_and_a_ptn_stays_out_of_the_union() {
    let v = json(&["ops", "--json", s(&corpus("bundled")), s(&corpus("native_ptn")), s(&corpus("external"))]);
    let files = v["files"].as_array().unwrap();
    let formats: Vec<&str> = files.iter().map(|f| f["format"].as_str().unwrap()).collect();
    // external's .ptd holds data only and is skipped
    assert_eq!(formats, ["bpte", "pte", "ptn", "pte"]);
    let ptn = &files[2]["methods"][0]["operators"];
    assert_eq!(ptn[0]["name"], "aten::linear");
    assert_eq!(ptn[0]["overload"], "default");
    assert_eq!(ptn[0]["calls"], 2);
    assert_eq!(ptn[0]["kernel_keys"], serde_json::json!([]));
    let union: Vec<&str> =
        v["union"]["operators"].as_array().unwrap().iter().map(|o| o["name"].as_str().unwrap()).collect();
    assert_eq!(union, ["aten::addmm", "aten::permute_copy", "aten::relu"]);
    let yaml = stdout(&pte(&["ops", "--yaml", s(&corpus("bundled")), s(&corpus("native_ptn"))]));
    assert!(!yaml.contains("linear"));
}

#[test]
fn text_lists_each_method_then_the_union() {
    let o = pte(&["ops", s(&corpus("dtypes/model.pte"))]);
    let t = stdout(&o);
    assert!(t.starts_with("method forward: 3 operators (18 calls)\n"), "{t}");
    assert!(t.contains("  aten::add.out: 6 calls\n    float32 (0) | float32 () | float32 (0) | float32 (0)\n"), "{t}");
    assert!(t.contains("    bfloat16 (0) | float32 (0) | float32 (0)\n"), "{t}");
    let o = pte(&["ops", s(&corpus("add/model.pte")), s(&corpus("xnnpack_mlp/model.pte"))]);
    let t = stdout(&o);
    assert!(t.contains("==> "), "{t}");
    assert!(t.contains("2 files, 0 unreadable; union of the 2 programs: 1 operator, 1 backend\n"), "{t}");
    assert!(t.contains("  delegate XnnpackBackend: 1 call\n"), "{t}");
}

#[test]
fn files_without_operators_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.bin");
    std::fs::write(&junk, b"not an executorch file at all").unwrap();
    let ptd = corpus("external/_default_external_constant.ptd");
    let ptn = corpus("native_ptn/model.ptn");
    for (args, says) in [
        (vec!["ops", s(&ptd)], "tensor data only"),
        (vec!["ops", "--yaml", s(&ptd)], "tensor data only"),
        (vec!["ops", s(&junk)], "not an ExecuTorch file"),
        (vec!["ops", "--yaml", s(&ptn)], "no selected-operators file"),
        (vec!["ops", "--yaml", s(&corpus("add/model.pte")), s(&junk)], "no selected-operators file written"),
    ] {
        let o = pte(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).starts_with("pte: ") && stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
        if args.contains(&"--yaml") {
            assert!(o.stdout.is_empty(), "{args:?} printed a partial file");
        }
    }
    // in a batch, the unreadable file has its line and the exit status is 2
    let o = pte(&["ops", "--json", s(&corpus("add/model.pte")), s(&junk)]);
    assert_eq!(o.status.code(), Some(2));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(v["files"][1]["error"].as_str().unwrap().contains("not an ExecuTorch file"));
    assert_eq!(v["union"]["operators"].as_array().unwrap().len(), 1);
}

/// The add program with its first instruction's arguments replaced by `edit`.
pub(crate) fn edited_add(edit: impl FnOnce(&mut pte_schema::Program<'_>)) -> Vec<u8> {
    let bytes = std::fs::read(corpus("add/model.pte")).unwrap();
    let mut pte = pte_file::PteFile::from_bytes(&bytes).unwrap();
    edit(&mut pte.program);
    pte.to_bytes(&Default::default()).unwrap()
}

fn first_call<'p>(p: &'p mut pte_schema::Program<'_>) -> &'p mut InstructionArguments {
    let plan = &mut p.execution_plan.as_mut().unwrap()[0];
    let chain = &mut plan.chains.as_mut().unwrap()[0];
    chain.instructions.as_mut().unwrap()[0].instr_args.as_mut().unwrap()
}

#[test]
fn indices_pointing_nowhere_are_errors_naming_the_instruction() {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes, says) in [
        (
            "op",
            edited_add(|p| {
                if let InstructionArguments::KernelCall { op_index, .. } = first_call(p) {
                    *op_index = 7;
                }
            }),
            "op_index 7 is not one of the 1 operators at execution_plan[0].chains[0].instructions[0]",
        ),
        (
            "arg",
            edited_add(|p| {
                if let InstructionArguments::KernelCall { args, .. } = first_call(p) {
                    args.as_mut().unwrap()[1] = -3;
                }
            }),
            "value index -3 is not one of the",
        ),
        (
            "delegate",
            edited_add(|p| *first_call(p) = InstructionArguments::DelegateCall { delegate_index: 0, args: None }),
            "delegate_index 0 is not one of the 0 delegates",
        ),
    ] {
        let path = dir.path().join(format!("{name}.pte"));
        std::fs::write(&path, bytes).unwrap();
        for form in [None, Some("--json"), Some("--yaml")] {
            let args: Vec<&str> = ["ops"].into_iter().chain(form).chain([s(&path)]).collect();
            let o = pte(&args);
            assert_eq!(o.status.code(), Some(2), "{args:?}");
            let all = format!("{}{}", stdout(&o), stderr(&o));
            assert!(all.contains(says), "{args:?}: {all}");
        }
    }
}

#[test]
fn kernel_keys_cannot_amplify_a_small_file() {
    // every one of 100 000 arguments names one tensor of 2 000 dimensions:
    // 800 MB of key text from a file of half a megabyte, were it built
    let bytes = edited_add(|p| {
        let plan = &mut p.execution_plan.as_mut().unwrap()[0];
        if let Some(pte_schema::KernelTypes::Tensor(t)) = &mut plan.values.as_mut().unwrap()[0].val {
            t.dim_order = Some((0..2000).map(|i| (i % 256) as u8).collect());
        }
        if let InstructionArguments::KernelCall { args, .. } = first_call(p) {
            *args = Some(vec![0; 100_000]);
        }
    });
    let e = pte_analysis::operators::of_program(&bytes).unwrap_err();
    assert_eq!(e.kind(), pte_file::ErrorKind::LimitExceeded, "{e}");
    assert!(e.path().starts_with("execution_plan[0].chains[0].instructions[0]"), "{e}");
}

#[test]
fn hostile_and_mutant_files_get_an_answer_never_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let mut inputs: Vec<(String, Vec<u8>)> = vec![];
    let bases = ["add/model.pte", "xnnpack_mlp/model.pte", "bundled/model.bpte", "native_ptn/model.ptn"];
    for class in pte_gen::classes() {
        for base in bases {
            if let Ok(b) = class.apply(&std::fs::read(corpus(base)).unwrap()) {
                inputs.push((format!("{}-{}", class.name, base.replace('/', "_")), b));
                break;
            }
        }
    }
    assert!(inputs.len() > 20, "{}", inputs.len());
    for base in bases {
        let bytes = std::fs::read(corpus(base)).unwrap();
        for (name, b) in pte_gen::random_mutants(&bytes, 7, 40) {
            inputs.push((format!("{}-{name}", base.replace('/', "_")), b));
        }
        // the library over many more, in process
        for (name, b) in pte_gen::random_mutants(&bytes, 11, 1500) {
            let _ = (name, pte_analysis::operators::of_program(&b), pte_analysis::operators::of_bundle(&b));
        }
    }
    for (i, (name, bytes)) in inputs.iter().enumerate() {
        let path = dir.path().join(format!("{i}.bin"));
        std::fs::write(&path, bytes).unwrap();
        for form in [None, Some("--json"), Some("--yaml")] {
            let args: Vec<&str> = ["ops"].into_iter().chain(form).chain([s(&path)]).collect();
            let o = pte(&args);
            let err = stderr(&o);
            assert!(!err.contains("panicked"), "{name} {form:?}: {err}");
            match o.status.code() {
                Some(0) => {}
                Some(2) => assert!(err.starts_with("pte: ") && err.len() > 6, "{name} {form:?}: {err:?}"),
                other => panic!("{name} {form:?}: exit {other:?}: {err}"),
            }
        }
    }
}
