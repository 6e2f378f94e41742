//! `pte diff`: a rewrite with another layout differs in layout only; changed
//! weights are named with element counts and differences; exit codes.

use std::process::Output;

use serde_json::Value;

use crate::support::{corpus, corpus_programs, pte, s};

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
    let o = pte(&["diff", s(&f), s(&junk)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("B:"));
    let o = pte(&["diff", s(&f), s(&corpus("external/_default_external_constant.ptd"))]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(pte(&["diff", s(&f), s(&tmp.path().join("missing"))]).status.code(), Some(2));
    assert_eq!(pte(&["diff", "--atol", "-1", s(&f), s(&f)]).status.code(), Some(2));
}
