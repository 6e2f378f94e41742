//! Text and JSON renderings of a report.

use std::fmt::Write;

use serde_json::{json, Value};

use crate::{Comparison, TensorStats};

fn num(x: f64) -> Value {
    if x.is_finite() {
        json!(x)
    } else {
        json!(x.to_string())
    }
}

fn stats_json(s: &TensorStats) -> Value {
    json!({
        "num_elements": s.num_elements,
        "num_differing": s.num_differing,
        "max_abs_diff": num(s.max_abs_diff),
        "mean_abs_diff": num(s.mean_abs_diff),
        "first": s.first.iter().map(|e| json!({
            "flat_index": e.flat_index, "index": e.index, "a": num(e.a), "b": num(e.b),
        })).collect::<Vec<_>>(),
    })
}

pub(crate) fn json(r: &Comparison) -> Value {
    json!({
        "kind": r.kind,
        "size_a": r.size_a,
        "size_b": r.size_b,
        "bitwise_equal": r.bitwise_equal,
        "equal": r.is_equal(),
        "differences": r.differences.iter().map(|d| {
            let mut v = json!({"category": d.category.name(), "path": d.path, "message": d.message});
            if let (Some(s), Some(m)) = (&d.tensor, v.as_object_mut()) {
                m.insert("tensor".into(), stats_json(s));
            }
            v
        }).collect::<Vec<_>>(),
    })
}

pub(crate) fn text(r: &Comparison, a: &str, b: &str) -> String {
    let mut t = String::new();
    let _ = writeln!(t, "comparing {a} ({} bytes) with {b} ({} bytes), {}", r.size_a, r.size_b, r.kind);
    if r.is_equal() {
        let how = if r.bitwise_equal { "bitwise equal" } else { "equal" };
        let _ = writeln!(t, "{how}");
        return t;
    }
    for d in &r.differences {
        let _ = writeln!(t, "[{}] {}: {}", d.category.name(), d.path, d.message);
        if let Some(s) = &d.tensor
            && s.num_differing > 0
        {
            let _ = writeln!(t, "    max_abs_diff={:.6e}  mean_abs_diff={:.6e}", s.max_abs_diff, s.mean_abs_diff);
            for e in &s.first {
                let idx = pte_core::style::shape(&e.index);
                let _ = writeln!(t, "    {idx}: {} vs {} (diff={:.6e})", element(e.a), element(e.b), (e.a - e.b).abs());
            }
            let more = s.num_differing.saturating_sub(s.first.len() as u64);
            if more > 0 {
                let _ = writeln!(t, "    ... and {more} more");
            }
        }
    }
    let count = |c| r.of(c).count();
    let _ = writeln!(
        t,
        "{}: {} layout, {} program, {} data",
        pte_core::style::count(r.differences.len() as u64, "difference"),
        count(crate::Category::Layout),
        count(crate::Category::Program),
        count(crate::Category::Data)
    );
    t
}

/// An element as its tensor holds it: a value an `f32` holds exactly is
/// printed as that `f32` (`-0.12658262`, not the double `-0.12658262252807617`).
fn element(x: f64) -> String {
    #[allow(clippy::cast_possible_truncation)] // checked: the value round-trips
    let narrow = x as f32;
    if f64::from(narrow) == x || x.is_nan() {
        narrow.to_string()
    } else {
        x.to_string()
    }
}
