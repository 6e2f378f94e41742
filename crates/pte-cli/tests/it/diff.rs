//! `pte diff`: a rewrite with another layout differs in layout only; changed
//! weights are named with element counts and differences; exit codes.

use std::process::Output;

use serde_json::Value;

use crate::support::{corpus, corpus_programs, pte, refused, s};

fn json(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stdout)))
}

#[test]
fn a_rewrite_with_another_segment_alignment_differs_in_layout_only() {
    let tmp = tempfile::tempdir().unwrap();
    let programs = corpus_programs();
    assert!(programs.len() >= 13);
    for f in programs {
        let out = tmp.path().join("r.pte");
        assert!(pte(&["rewrite", s(&f), s(&out), "--segment-alignment", "4096"]).status.success());
        let o = pte(&["diff", "--json", s(&f), s(&out)]);
        let v = json(&o);
        let diffs = v["differences"].as_array().unwrap();
        for d in diffs {
            assert_eq!(d["category"], "layout", "{}: {d}", f.display());
        }
        // a program without segments keeps its layout under any alignment
        let expect = if diffs.is_empty() { 0 } else { 1 };
        assert_eq!(o.status.code(), Some(expect), "{}", f.display());
        let o = pte(&["diff", "--ignore-layout", s(&f), s(&out)]);
        assert_eq!(o.status.code(), Some(0), "{}: {}", f.display(), String::from_utf8_lossy(&o.stdout));
        assert!(String::from_utf8_lossy(&o.stdout).contains("equal"));
    }
}

#[test]
fn a_ptd_repacked_differs_in_layout_only() {
    let tmp = tempfile::tempdir().unwrap();
    let f = corpus("external/_default_external_constant.ptd");
    let dir = tmp.path().join("x");
    assert!(pte(&["extract", s(&f), s(&dir)]).status.success());
    let out = tmp.path().join("r.ptd");
    assert!(pte(&["pack", s(&dir), s(&out), "--segment-alignment", "4096"]).status.success());
    let o = pte(&["diff", "--json", s(&f), s(&out)]);
    assert_eq!(o.status.code(), Some(1));
    let v = json(&o);
    assert!(v["differences"].as_array().unwrap().iter().all(|d| d["category"] == "layout"), "{v}");
    assert_eq!(pte(&["diff", "--ignore-layout", s(&f), s(&out)]).status.code(), Some(0));
}

#[test]
fn changed_weights_are_named_with_counts_and_differences() {
    let tmp = tempfile::tempdir().unwrap();
    let f = corpus("linear/model.pte");
    let dir = tmp.path().join("x");
    assert!(pte(&["extract", s(&f), s(&dir)]).status.success());
    // weight [3, 4]: elements 1 and 6 move by +0.5 and -2.0
    let w = dir.join("constant-1.bin");
    let mut v: Vec<f32> =
        std::fs::read(&w).unwrap().chunks(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
    let (a1, a6) = (v[1], v[6]);
    v[1] += 0.5;
    v[6] -= 2.0;
    std::fs::write(&w, v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>()).unwrap();
    let out = tmp.path().join("w.pte");
    assert!(pte(&["pack", s(&dir), s(&out)]).status.success());

    let o = pte(&["diff", "--json", s(&f), s(&out)]);
    assert_eq!(o.status.code(), Some(1));
    let r = json(&o);
    let d = r["differences"].as_array().unwrap();
    assert_eq!(d.len(), 1, "{r}");
    assert_eq!(d[0]["category"], "data");
    assert_eq!(d[0]["path"], "execution_plan[0].values[0]");
    let t = &d[0]["tensor"];
    assert_eq!((t["num_elements"].as_u64(), t["num_differing"].as_u64()), (Some(12), Some(2)));
    let max = t["max_abs_diff"].as_f64().unwrap();
    assert!((max - f64::from((a6 - (a6 - 2.0)).abs())).abs() < 1e-6, "{max}");
    let mean = t["mean_abs_diff"].as_f64().unwrap();
    let expect = (f64::from((a1 + 0.5) - a1) + f64::from(a6 - (a6 - 2.0))) / 2.0;
    assert!((mean - expect).abs() < 1e-6, "{mean} vs {expect}");
    assert_eq!(t["first"][0]["index"], serde_json::json!([0, 1]));
    assert_eq!(t["first"][1]["index"], serde_json::json!([1, 2]));

    // within tolerance: equal
    assert_eq!(pte(&["diff", "--atol", "2.5", s(&f), s(&out)]).status.code(), Some(0));
    assert_eq!(pte(&["diff", "--atol", "1", s(&f), s(&out)]).status.code(), Some(1));
    let text = String::from_utf8(pte(&["diff", s(&f), s(&out)]).stdout).unwrap();
    assert!(text.contains("2 / 12 elements differ") && text.contains("max_abs_diff"), "{text}");
    // the text conventions, and the tensor named as `info --tensors` names it
    assert!(text.contains("execution_plan[0].values[0]: constant[1] float32 [3, 4]: 2 / 12"), "{text}");
    assert!(text.contains("\n    [0, 1]: ") && text.contains("1 difference: 0 layout, 0 program, 1 data"), "{text}");
    let info = String::from_utf8(pte(&["info", "--tensors", s(&f)]).stdout).unwrap();
    assert!(info.contains("  constant[1]  "), "{info}");
    // f32 elements print as f32, not as the double they widen to
    let first = text.lines().find(|l| l.starts_with("    [0, 1]: ")).unwrap();
    let value = first.trim_start_matches("    [0, 1]: ").split(' ').next().unwrap();
    assert!(value.len() <= 12, "{first}");
}

#[test]
fn bundles_and_packages_compare_with_themselves_and_their_rewrites() {
    let tmp = tempfile::tempdir().unwrap();
    let b = corpus("bundled/model.bpte");
    assert_eq!(pte(&["diff", s(&b), s(&b)]).status.code(), Some(0));
    let p = corpus("native_ptn/model.ptn");
    let out = tmp.path().join("r.ptn");
    assert!(pte(&["rewrite", s(&p), s(&out)]).status.success());
    let o = pte(&["diff", "--ignore-layout", s(&p), s(&out)]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stdout));
}

#[test]
fn bad_input_exits_2() {
    let tmp = tempfile::tempdir().unwrap();
    let junk = tmp.path().join("junk");
    std::fs::write(&junk, b"not a file of any kind").unwrap();
    let f = corpus("add/model.pte");
    refused(&["diff", s(&f), s(&junk)], 2, "B:");
    let o = pte(&["diff", s(&f), s(&corpus("external/_default_external_constant.ptd"))]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(pte(&["diff", s(&f), s(&tmp.path().join("missing"))]).status.code(), Some(2));
    assert_eq!(pte(&["diff", "--atol", "-1", s(&f), s(&f)]).status.code(), Some(2));
}

/// `program_heavy(200)` with `change` made to its method.
fn heavy_changed(change: impl FnOnce(&mut pte_schema::ExecutionPlan)) -> Vec<u8> {
    let mut parts = pte_file::test_programs::program_heavy(200);
    change(&mut parts.program.execution_plan.as_mut().unwrap()[0]);
    pte_file::test_programs::to_bytes(&parts)
}

fn instructions(p: &mut pte_schema::ExecutionPlan) -> &mut Option<Vec<pte_schema::Instruction>> {
    &mut p.chains.as_mut().unwrap()[0].instructions
}

fn set_args(i: &mut pte_schema::Instruction, to: Vec<i32>) {
    if let Some(pte_schema::InstructionArguments::KernelCall { args, .. }) = &mut i.instr_args {
        *args = Some(to);
    }
}

/// Instructions are compared a pair at a time (a method may have millions),
/// and reported as the whole method compared structurally reports them:
/// the path of each differing field, a count where the lists differ in
/// length, the other list cut short where one is absent, and past 20
/// differences a count of the others.
#[test]
fn instructions_differ_field_by_field_with_their_paths() {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().join("base.pte");
    std::fs::write(&base, heavy_changed(|_| {})).unwrap();
    let program_lines = |b: Vec<u8>| {
        let f = tmp.path().join("changed.pte");
        std::fs::write(&f, b).unwrap();
        let o = pte(&["diff", s(&base), s(&f)]);
        assert_eq!(o.status.code(), Some(1));
        let text = String::from_utf8(o.stdout).unwrap();
        text.lines().filter(|l| l.starts_with("[program] ")).map(|l| l[10..].to_string()).collect::<Vec<_>>()
    };
    let at = "execution_plan[0].chains[0].instructions";
    let one = program_lines(heavy_changed(|p| set_args(&mut instructions(p).as_mut().unwrap()[7], vec![9, 1, 2])));
    assert_eq!(one, [format!("{at}[7].instr_args.args: 2 entries vs 3")]);
    let all = heavy_changed(|p| instructions(p).as_mut().unwrap().iter_mut().for_each(|i| set_args(i, vec![1, 1])));
    let many = program_lines(all);
    assert_eq!(many.len(), 21);
    assert_eq!(many[0], format!("{at}[0].instr_args.args[0]: 0 vs 1"));
    assert_eq!(many[2], format!("{at}[1].instr_args.args[1]: 0 vs 1"));
    assert_eq!(many[19], format!("{at}[10].instr_args.args[0]: 10 vs 1"));
    assert_eq!(many[20], "execution_plan[0]: ... and 379 more differences");
    let fewer = program_lines(heavy_changed(|p| drop(instructions(p).as_mut().unwrap().pop())));
    assert_eq!(
        fewer,
        ["execution_plan[0].chains: instruction count 200 vs 199".to_string(), format!("{at}: 200 entries vs 199")]
    );
    let none = program_lines(heavy_changed(|p| *instructions(p) = None));
    let cut = r#"[{"instr_args":{"args":[0,0],"op_index":0},"instr_args_type":"KernelCall"},{"... vs null"#;
    assert_eq!(none, ["execution_plan[0].chains: instruction count 200 vs 0".to_string(), format!("{at}: {cut}")]);
    let int = pte_schema::EValue { val: Some(pte_schema::KernelTypes::Int(-3)) };
    let value = program_lines(heavy_changed(|p| p.values.as_mut().unwrap()[3] = int));
    assert_eq!(value, ["execution_plan[0].values[3].int_val: Int 3 vs -3 (used as arg 0 of aten::add.out)"]);
}

#[test]
fn methods_pair_by_name_and_no_rust_form_is_printed() {
    // linear has forward; multi_method has encode, then forward
    let (a, b) = (corpus("linear/model.pte"), corpus("multi_method/model.pte"));
    let o = pte(&["diff", s(&a), s(&b)]);
    assert_eq!(o.status.code(), Some(1));
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(text.contains("execution_plan: method \"encode\" only in B\n"), "{text}");
    assert!(!text.contains("\"forward\" only in"), "forward is in both: {text}");
    assert!(!text.contains("execution_plan[0]."), "forward of A is not encode of B: {text}");
    for rust in ["Some(", "None"] {
        assert!(!text.contains(rust), "{rust}: {text}");
    }
    // forward is compared with forward, named by its place in each file
    let (ra, rb) = (json(&pte(&["diff", "--json", s(&a), s(&b)])), json(&pte(&["diff", "--json", s(&b), s(&a)])));
    let paths = |v: &Value| -> Vec<String> {
        v["differences"].as_array().unwrap().iter().map(|d| d["path"].as_str().unwrap().to_string()).collect()
    };
    assert!(paths(&ra).iter().all(|p| !p.starts_with("execution_plan[0]")), "{ra}");
    assert!(paths(&ra).iter().any(|p| p.starts_with("execution_plan[0 vs 1].values[0]")), "{ra}");
    assert!(paths(&rb).iter().all(|p| !p.starts_with("execution_plan[1].")), "{rb}");
    // an absent or present list reads as a list, never Some([..])
    let o = pte(&["diff", s(&corpus("add/model.pte")), s(&a)]);
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(text.contains("[program] execution_plan[0].non_const_buffer_sizes: [0, 192] vs [0, 112]\n"), "{text}");
}
