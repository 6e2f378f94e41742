//! Inspection end to end: the tensor table, EXTERNAL keys and their data
//! file, device placement, verify's warnings, many files at once, graphs.

use std::process::Command;

use crate::support::{corpus, corpus_root, pte, refused, s, stdout};

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
    assert!(text.contains("warning: [needs.external_data]"), "{text}");
    for k in EXTERNAL_KEYS {
        assert!(text.contains(k), "{text}");
    }
    let o = pte(&["verify", "--deny-warnings", s(&p)]);
    assert_eq!(o.status.code(), Some(1));
    let o = pte(&["verify", "--json", "--deny-warnings", s(&p)]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["warnings"][0]["rule"], "needs.external_data");
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
fn a_tensor_stored_nowhere_is_warned_about() {
    // an attribute tensor: the application binds its memory, or kernels read null
    let bytes = std::fs::read(corpus("add").join("model.pte")).unwrap();
    let mut f = pte_file::PteFile::from_bytes(&bytes).unwrap().into_owned();
    let plan = &mut f.program.execution_plan.as_mut().unwrap()[0];
    let t = pte_schema::Tensor {
        scalar_type: pte_schema::ScalarType::INT,
        sizes: Some(vec![1]),
        dim_order: Some(vec![0]),
        extra_tensor_info: Some(pte_schema::ExtraTensorInfo {
            fully_qualified_name: Some("state".into()),
            ..Default::default()
        }),
        ..Default::default()
    };
    let values = plan.values.as_mut().unwrap();
    values.push(pte_schema::EValue { val: Some(pte_schema::KernelTypes::Tensor(t)) });
    let state = i32::try_from(values.len() - 1).unwrap();
    // a second call of the first kernel, reading the state first
    let calls = plan.chains.as_mut().unwrap()[0].instructions.as_mut().unwrap();
    let mut call = calls[0].clone();
    if let Some(pte_schema::InstructionArguments::KernelCall { args: Some(args), .. }) = &mut call.instr_args {
        args[0] = state;
    }
    calls.push(call);
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("state.pte");
    std::fs::write(&p, f.to_bytes(&Default::default()).unwrap()).unwrap();
    let o = pte(&["verify", s(&p)]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("[needs.storage]") && stdout(&o).contains("\"state\""), "{}", stdout(&o));
    let o = pte(&["verify", "--deny-warnings", s(&p)]);
    assert_eq!(o.status.code(), Some(1));
    // the inputs and outputs the caller passes in and receives are not warned about
    let o = pte(&["verify", "--deny-warnings", s(&corpus("add").join("model.pte"))]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

#[test]
fn clean_programs_have_no_needs() {
    let o = pte(&["verify", "--deny-warnings", s(&corpus("linear").join("model.pte"))]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

#[test]
fn verify_checks_a_whole_folder_in_one_process() {
    let o = pte(&["verify", s(&corpus_root())]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    // every .pte, .ptd, .ptn and .bpte, chosen by content: not truth.json nor io.safetensors
    assert_eq!(lines.len(), 20, "{text}");
    assert!(lines.iter().all(|l| !l.contains("safetensors") && !l.contains("truth.json")), "{text}");
    assert_eq!(lines[19], "19 files: 17 valid, 2 with warnings, 0 invalid, 0 unreadable");
    let o = pte(&["verify", "--deny-warnings", s(&corpus_root())]);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn verify_many_reports_json_lines_and_the_worst_status() {
    let d = tempfile::tempdir().unwrap();
    let junk = d.path().join("junk.pte");
    std::fs::write(&junk, b"not a program at all").unwrap();
    let good = corpus("linear").join("model.pte");
    let o = pte(&["verify", "--json", s(&good), s(&junk)]);
    assert_eq!(o.status.code(), Some(2));
    let rows: Vec<serde_json::Value> = stdout(&o).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["status"], "valid");
    assert_eq!(rows[1]["status"], "error");
    assert_eq!(rows[2]["summary"]["unreadable"], 1);

    // a broken program makes the batch exit 1
    let mut bytes = std::fs::read(&good).unwrap();
    bytes[4..8].copy_from_slice(b"XX12");
    let bad = d.path().join("bad.pte");
    std::fs::write(&bad, &bytes).unwrap();
    let o = pte(&["verify", s(&good), s(&bad)]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("bad.pte: invalid, "), "{}", stdout(&o));
}

#[test]
fn graph_draws_delegate_calls_and_kernels_with_labelled_edges() {
    let o = pte(&["graph", s(&corpus("xnnpack_mlp").join("model.pte"))]);
    assert!(o.status.success());
    let dot = stdout(&o);
    assert!(dot.starts_with("digraph \"forward\" {") && dot.ends_with("}\n"), "{dot}");
    assert!(dot.contains("label=\"delegate XnnpackBackend\""), "{dot}");
    assert!(dot.contains("in0 -> op0 [label=\"float32 [4, 16]\"]"), "{dot}");
    assert!(dot.contains("op0 -> out0 [label=\"float32 [4, 8]\"]"), "{dot}");

    let mm = corpus("multi_method").join("model.pte");
    let o = pte(&["graph", "--method", "encode", "--format", "mermaid", s(&mm)]);
    let text = stdout(&o);
    assert!(text.starts_with("flowchart TD\n"), "{text}");
    assert_eq!(text.matches("aten::addmm.out").count(), 2, "{text}");
    assert!(text.contains("op5 -->|\"float32 [5, 2]\"| out0"), "{text}");

    refused(&["graph", "--method", "nope", s(&mm)], 2, "methods: encode, forward");
}

/// `--svg` draws the graph as the report does, with no Graphviz: run with
/// a PATH holding nothing, the file is a well-formed SVG document (prolog,
/// SVG namespace) with one node per node of the method, and the command
/// says what it wrote.
#[test]
fn graph_svg_needs_no_graphviz() {
    let d = tempfile::tempdir().unwrap();
    let empty = d.path().join("bin");
    std::fs::create_dir(&empty).unwrap();
    for (case, file, method) in [
        ("xnnpack_mlp", "model.pte", "forward"),
        ("multi_method", "model.pte", "encode"),
        ("native_ptn", "model.ptn", "forward"),
        ("bundled", "model.bpte", "forward"),
    ] {
        let input = corpus(case).join(file);
        let out = d.path().join(format!("{case}.svg"));
        let o = Command::new(crate::support::PTE)
            .args(["graph", "--svg", "--method", method, "-o", s(&out), s(&input)])
            .env("PATH", &empty)
            .output()
            .unwrap();
        assert!(o.status.success(), "{case}: {}", String::from_utf8_lossy(&o.stderr));
        let svg = std::fs::read_to_string(&out).unwrap();
        assert_eq!(stdout(&o), format!("wrote {} ({} bytes)\n", out.display(), svg.len()));
        assert!(svg.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "), "{case}: {svg:.200}");
        let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{case}: not XML: {e}"));
        assert_eq!(doc.root_element().tag_name().namespace(), Some("http://www.w3.org/2000/svg"), "{case}");
        // the same nodes as the DOT names, in the same order
        let dot = stdout(&pte(&["graph", "--method", method, s(&input)]));
        let dot_ids: Vec<String> = dot
            .lines()
            .filter(|l| l.contains(" [label=") && !l.contains(" -> "))
            .map(|l| format!("n-{}", l.trim().split(' ').next().unwrap()))
            .collect();
        let svg_ids: Vec<&str> = doc
            .descendants()
            .filter(|n| n.attribute("class").is_some_and(|c| c.starts_with("node ")))
            .map(|n| n.attribute("id").unwrap())
            .collect();
        assert!(!svg_ids.is_empty(), "{case}");
        assert_eq!(svg_ids, dot_ids, "{case}");
        // to standard output, the same file
        let o = Command::new(crate::support::PTE)
            .args(["graph", "--svg", "--method", method, s(&input)])
            .env("PATH", &empty)
            .output()
            .unwrap();
        assert!(o.status.success(), "{case}");
        assert_eq!(stdout(&o), svg, "{case}");
    }
}

#[test]
fn bash_sources_the_completion_script() {
    let o = pte(&["completions", "bash"]);
    assert!(o.status.success());
    let d = tempfile::tempdir().unwrap();
    let script = d.path().join("pte.bash");
    std::fs::write(&script, &o.stdout).unwrap();
    let b = Command::new("bash")
        .arg("-c")
        .arg(format!("set -e; source '{}'; complete -p pte", script.display()))
        .output()
        .unwrap();
    assert!(b.status.success(), "{}", String::from_utf8_lossy(&b.stderr));
    assert!(b.stderr.is_empty(), "{}", String::from_utf8_lossy(&b.stderr));
    assert!(String::from_utf8_lossy(&b.stdout).contains("_pte pte"));
}

#[test]
fn man_page_names_every_command() {
    let o = pte(&["man"]);
    assert!(o.status.success());
    let roff = stdout(&o);
    assert!(roff.contains(".TH pte 1"), "{roff}");
    for c in ["info", "verify", "graph", "completions", "samples"] {
        assert!(roff.contains(c), "{c}");
    }
}
