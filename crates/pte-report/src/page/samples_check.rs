//! The samples section: what `pte samples check --json` found, drawn from
//! its JSON. A matrix (`--runner NAME=CMD ...`) is one table, a row per
//! runner and a column per set, each cell its status and worst failure; a
//! single runner's report is its verdict and failures.

use std::fmt::Write as _;

use serde_json::Value;

use crate::html::{counted, escape};

/// A check's JSON and the name it came from (its file).
///
/// ```
/// let json = serde_json::json!({"verdict": "passed", "runner": "r", "sets": 1, "samples": 2, "calls": 4, "failures": []});
/// let check = pte_report::SamplesCheck { name: "check.json", json: &json };
/// assert_eq!(check.name, "check.json");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct SamplesCheck<'a> {
    /// Where it was read from, for the heading.
    pub name: &'a str,
    /// The JSON `pte samples check --json` printed (a report or a matrix).
    pub json: &'a Value,
}

/// `v[key]`, or null: the JSON is read as given, never trusted to hold a field.
fn field<'v>(v: &'v Value, key: &str) -> &'v Value {
    v.get(key).unwrap_or(&Value::Null)
}

fn text(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
}

fn cell(row: &Value) -> String {
    let status = text(field(row, "status"));
    let label = match status {
        "passed" => "passed".to_string(),
        "mismatch" => format!("mismatch ({})", counted(field(row, "failures").as_u64().unwrap_or(0), "failure")),
        "runner_failed" => "runner failed".to_string(),
        _ => "not run".to_string(),
    };
    let worst = field(field(row, "worst"), "message").as_str().map(|m| format!("<br><small>{}</small>", escape(m)));
    format!("<td class=\"{}\">{}{}</td>", escape(status), escape(&label), worst.unwrap_or_default())
}

/// The section for every check given (nothing when none is).
pub(super) fn section(checks: &[SamplesCheck<'_>]) -> String {
    if checks.is_empty() {
        return String::new();
    }
    let mut s = String::from(
        "<section id=\"samples-check\" aria-labelledby=\"samples-check-h\"><h2 id=\"samples-check-h\">Samples checked on runtimes</h2>",
    );
    for c in checks {
        let j = c.json;
        let _ = write!(s, "<h3>{}: {}</h3>", escape(c.name), escape(text(field(j, "verdict"))));
        match field(j, "table").as_array() {
            Some(rows) => {
                let sets: Vec<&str> = field(j, "sets").as_array().into_iter().flatten().map(text).collect();
                s.push_str("<div class=\"scroll\"><table class=\"samples-matrix\"><caption>Runner × set</caption><tr><th scope=\"col\">runner</th>");
                for set in &sets {
                    let _ = write!(s, "<th scope=\"col\">{}</th>", escape(set));
                }
                s.push_str("</tr>");
                for name in field(j, "order").as_array().into_iter().flatten().map(text) {
                    let runtime = text(field(field(field(j, "runners"), name), "runner"));
                    let _ =
                        write!(s, "<tr><th scope=\"row\">{}<br><small>{}</small></th>", escape(name), escape(runtime));
                    for set in &sets {
                        let at = rows.iter().find(|r| {
                            text(field(r, "runner")) == name
                                && format!("{}/{}", text(field(r, "method")), text(field(r, "set"))) == *set
                        });
                        s.push_str(&at.map_or_else(|| "<td>-</td>".to_string(), cell));
                    }
                    s.push_str("</tr>");
                }
                s.push_str("</table></div>");
            }
            None => {
                let _ = write!(
                    s,
                    "<p>Runner {}: {}, {}, {}.</p>",
                    escape(field(j, "runner").as_str().unwrap_or("unnamed")),
                    counted(field(j, "sets").as_u64().unwrap_or(0), "set"),
                    counted(field(j, "samples").as_u64().unwrap_or(0), "sample"),
                    counted(field(j, "calls").as_u64().unwrap_or(0), "call")
                );
                let failures = field(j, "failures").as_array().map(Vec::as_slice).unwrap_or_default();
                if !failures.is_empty() {
                    s.push_str("<ul>");
                    for f in failures {
                        let _ = write!(s, "<li>{}</li>", escape(text(field(f, "message"))));
                    }
                    s.push_str("</ul>");
                }
            }
        }
    }
    s.push_str("</section>\n");
    s
}
