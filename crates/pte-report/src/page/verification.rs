//! The verification part: every violation and warning `pte verify` reports
//! for the file (with the data files given, as `--ptd` links them), each
//! with its rule, field path, byte offset and what the stock runtime
//! answers such a file.

use std::fmt::Write as _;

use pte_core::Violation;

use super::context::{open, Ctx, Source};
use crate::html::{escape, head_row, thousands};
use pte::{verify, DataFile, Unreadable};

fn finding_row(class: &str, v: &Violation) -> String {
    let runtime = v.rule.refusal().map_or_else(|| "-".to_string(), |r| r.to_string());
    let offset = v.offset.map_or_else(|| "-".to_string(), thousands);
    let mut s =
        format!("<tr class=\"{class}\"><td>{}</td>", if class == "violation" { "violation" } else { "warning" });
    let _ = write!(
        s,
        "<td><code>{}</code></td><td><code>{}</code></td><td class=\"num\">{}</td><td>{}</td><td>{}</td></tr>",
        escape(v.rule.name()),
        escape(&v.path),
        offset,
        escape(&v.message),
        escape(&runtime)
    );
    s
}

/// The part, and the numbers of violations and warnings.
pub(super) fn section(cx: &mut Ctx, f: &Source<'_>, data: &[Source<'_>]) -> (String, usize, usize) {
    let mut s = open(cx, "verification", "Verification");
    let linked: Vec<DataFile<'_>> = data.iter().map(|d| DataFile { name: d.name, bytes: d.bytes }).collect();
    let report = match verify(f.bytes, &linked) {
        Ok(r) => r,
        Err(Unreadable::Program(e)) => {
            s.push_str(&cx.fail("the program, to link it with the data files", e));
            s.push_str("</section>\n");
            return (s, 0, 0);
        }
        Err(Unreadable::Data { index, error }) => {
            let name = data.get(index).map_or("a data file", |d| d.name);
            s.push_str(&cx.fail(&format!("data file {name}"), error));
            s.push_str("</section>\n");
            return (s, 0, 0);
        }
    };
    let (v, w) = (report.violations.len(), report.warnings.len());
    let linked_note = if data.is_empty() {
        String::new()
    } else {
        let names: Vec<&str> = data.iter().map(|d| d.name).collect();
        format!(" Linked with {}.", escape(&names.join(", ")))
    };
    let verdict = match (v, w) {
        (0, 0) => "Valid: every load rule holds.".to_string(),
        (0, w) => format!("Valid, with {} (findings that break only some runtime builds).", plural(w, "warning")),
        (v, w) => format!(
            "Invalid: {} and {}; the stock runtime refuses the file.",
            plural(v, "violation"),
            plural(w, "warning")
        ),
    };
    let class = if v > 0 {
        "verdict bad"
    } else if w > 0 {
        "verdict warn"
    } else {
        "verdict ok"
    };
    let _ = write!(s, "<p class=\"{class}\">{}{linked_note}</p>", escape(&verdict));
    if v > 0 || w > 0 {
        s.push_str("<div class=\"scroll\"><table class=\"violations\"><caption>Findings of the verifier</caption>");
        s.push_str(&head_row(&["severity", "rule", "field path", "byte offset", "what is wrong", "runtime error"]));
        for x in &report.violations {
            s.push_str(&finding_row("violation", x));
        }
        for x in &report.warnings {
            s.push_str(&finding_row("warning", x));
        }
        s.push_str("</table></div>");
    }
    s.push_str("</section>\n");
    (s, v, w)
}

/// `1 violation`, `3 warnings`.
pub(super) fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{} {noun}s", thousands(n as u64))
    }
}
