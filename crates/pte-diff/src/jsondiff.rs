//! A structural diff of two JSON values, for the parts of a program no
//! dedicated comparison covers (instructions, inputs, compile specs...).
//!
//! A long list (a method's instructions, a segment's offsets) need not be
//! made into JSON whole: [`Found::walk_list`] walks it as [`Found::walk`]
//! walks an array, turning into JSON only the pairs of elements that differ.

use serde_json::Value;

use crate::{Category, Difference};

/// Most paths reported per compared value, so a rewritten method does not
/// flood the report; the last entry says how many were left out.
const MAX_PATHS: usize = 20;

pub(crate) fn diff(category: Category, path: &str, a: &Value, b: &Value, out: &mut Vec<Difference>) {
    let mut found = Found::default();
    found.walk(path, a, b);
    found.report(category, path, out);
}

/// The differences of one compared value: the first [`MAX_PATHS`] kept,
/// the others counted.
#[derive(Default)]
pub(crate) struct Found {
    first: Vec<(String, String)>,
    more: usize,
}

/// JSON text cut to 80 characters.
fn cut(s: String) -> String {
    if s.len() > 80 {
        let cut: String = s.chars().take(77).collect();
        format!("{cut}...")
    } else {
        s
    }
}

fn short(v: &Value) -> String {
    cut(v.to_string())
}

/// [`short`] of the array of `items`, serializing no more of them than the
/// cut keeps.
fn short_list<T>(items: impl Iterator<Item = T>, json: impl Fn(&T) -> Value) -> String {
    // 77 characters take at most 308 bytes
    const ENOUGH: usize = 400;
    let mut s = String::from("[");
    let mut whole = true;
    for (i, x) in items.enumerate() {
        if s.len() > ENOUGH {
            whole = false;
            break;
        }
        if i > 0 {
            s.push(',');
        }
        s.push_str(&json(&x).to_string());
    }
    if whole {
        s.push(']');
    }
    cut(s)
}

impl Found {
    fn push(&mut self, path: String, message: String) {
        if self.first.len() < MAX_PATHS {
            self.first.push((path, message));
        } else {
            self.more = self.more.saturating_add(1);
        }
    }

    /// Records the differences of `a` and `b` at `path`.
    pub(crate) fn walk(&mut self, path: &str, a: &Value, b: &Value) {
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                for (k, va) in x {
                    let p = if path.is_empty() { k.clone() } else { format!("{path}.{k}") };
                    self.walk(&p, va, y.get(k).unwrap_or(&Value::Null));
                }
                for (k, vb) in y.iter().filter(|(k, _)| !x.contains_key(*k)) {
                    let p = if path.is_empty() { k.clone() } else { format!("{path}.{k}") };
                    self.walk(&p, &Value::Null, vb);
                }
            }
            (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
                for (i, (p, q)) in x.iter().zip(y).enumerate() {
                    self.walk(&format!("{path}[{i}]"), p, q);
                }
            }
            (Value::Array(x), Value::Array(y)) => {
                self.push(path.to_string(), format!("{} entries vs {}", x.len(), y.len()));
            }
            _ if a == b => {}
            _ => self.push(path.to_string(), format!("{} vs {}", short(a), short(b))),
        }
    }

    /// Records what [`walk`](Found::walk) records for the arrays of `a` and
    /// `b` (`None` for null), given element by element: elements are made
    /// into JSON (`json`) only where they differ, and equal elements must
    /// give equal JSON.
    pub(crate) fn walk_list<T: PartialEq>(
        &mut self,
        path: &str,
        a: Option<impl ExactSizeIterator<Item = T>>,
        b: Option<impl ExactSizeIterator<Item = T>>,
        json: impl Fn(&T) -> Value,
    ) {
        match (a, b) {
            (None, None) => {}
            (Some(x), Some(y)) if x.len() == y.len() => {
                for (i, (p, q)) in x.zip(y).enumerate() {
                    if p != q {
                        self.walk(&format!("{path}[{i}]"), &json(&p), &json(&q));
                    }
                }
            }
            (Some(x), Some(y)) => self.push(path.to_string(), format!("{} entries vs {}", x.len(), y.len())),
            (Some(x), None) => self.push(path.to_string(), format!("{} vs null", short_list(x, json))),
            (None, Some(y)) => self.push(path.to_string(), format!("null vs {}", short_list(y, json))),
        }
    }

    /// Adds what was found to `out`, at most [`MAX_PATHS`] and a count of
    /// the others at `path`.
    pub(crate) fn report(self, category: Category, path: &str, out: &mut Vec<Difference>) {
        for (p, m) in self.first {
            out.push(Difference::new(category, p, m));
        }
        if self.more > 0 {
            out.push(Difference::new(category, path, format!("... and {} more differences", self.more)));
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]

    use super::*;
    use serde_json::json;

    fn walked(a: &Value, b: &Value) -> Vec<(String, String)> {
        let mut f = Found::default();
        f.walk("p", a, b);
        f.first
    }

    fn listed(a: Option<Vec<Value>>, b: Option<Vec<Value>>) -> Vec<(String, String)> {
        let mut f = Found::default();
        f.walk_list("p", a.map(Vec::into_iter), b.map(Vec::into_iter), Value::clone);
        f.first
    }

    /// A list walked element by element reports what the array walked whole does.
    #[test]
    fn a_list_walks_as_its_array() {
        let long: Vec<Value> = (0..100).map(|i| json!({"op_index": i, "args": [i, i + 1]})).collect();
        let pairs = [
            (None, None),
            (Some(vec![]), None),
            (None, Some(long.clone())),
            (Some(long.clone()), None),
            (Some(vec![json!(1), json!("é".repeat(90))]), None),
            (None, Some(vec![json!(1), json!("é".repeat(300)), json!(2)])),
            (Some(long.clone()), Some(long[1..].to_vec())),
            (Some(long.clone()), Some(long.iter().rev().cloned().collect())),
            (Some(vec![json!(1), json!([2])]), Some(vec![json!(1), json!([3, 4])])),
        ];
        for (a, b) in pairs {
            let whole = |v: &Option<Vec<Value>>| v.clone().map_or(Value::Null, Value::Array);
            assert_eq!(listed(a.clone(), b.clone()), walked(&whole(&a), &whole(&b)), "{a:?} {b:?}");
        }
    }

    #[test]
    fn past_the_cap_differences_are_counted() {
        let a: Vec<Value> = (0..30).map(|i| json!(i)).collect();
        let mut out = vec![];
        diff(Category::Program, "p", &Value::Array(a), &Value::Array(vec![json!(-1); 30]), &mut out);
        assert_eq!(out.len(), MAX_PATHS + 1);
        assert_eq!(out[MAX_PATHS].message, "... and 10 more differences");
    }
}
