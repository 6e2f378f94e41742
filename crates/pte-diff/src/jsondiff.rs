//! A structural diff of two JSON values, for the parts of a program no
//! dedicated comparison covers (instructions, inputs, compile specs...).

use serde_json::Value;

use crate::{Category, Difference};

/// Most paths reported per compared value, so a rewritten method does not
/// flood the report; the last entry says how many were left out.
const MAX_PATHS: usize = 20;

pub(crate) fn diff(category: Category, path: &str, a: &Value, b: &Value, out: &mut Vec<Difference>) {
    let mut found = Vec::new();
    walk(path, a, b, &mut found);
    let extra = found.len().saturating_sub(MAX_PATHS);
    for (p, m) in found.into_iter().take(MAX_PATHS) {
        out.push(Difference::new(category, p, m));
    }
    if extra > 0 {
        out.push(Difference::new(category, path, format!("... and {extra} more differences")));
    }
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 80 {
        let cut: String = s.chars().take(77).collect();
        format!("{cut}...")
    } else {
        s
    }
}

fn walk(path: &str, a: &Value, b: &Value, out: &mut Vec<(String, String)>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, va) in x {
                let p = if path.is_empty() { k.clone() } else { format!("{path}.{k}") };
                walk(&p, va, y.get(k).unwrap_or(&Value::Null), out);
            }
            for (k, vb) in y.iter().filter(|(k, _)| !x.contains_key(*k)) {
                let p = if path.is_empty() { k.clone() } else { format!("{path}.{k}") };
                walk(&p, &Value::Null, vb, out);
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                walk(&format!("{path}[{i}]"), p, q, out);
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            out.push((path.to_string(), format!("{} entries vs {}", x.len(), y.len())));
        }
        _ if a == b => {}
        _ => out.push((path.to_string(), format!("{} vs {}", short(a), short(b)))),
    }
}
