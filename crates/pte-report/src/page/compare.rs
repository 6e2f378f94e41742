//! The comparison of several files: their numbers side by side, and what
//! `pte diff` says of each file against the first (`pte_diff`).

use std::fmt::Write as _;

use super::context::{FileSummary, Source};
use crate::html::{counted, escape, float, head_row, row, thousands};

/// Differences listed per pair before the rest are counted.
const MAX_ROWS: usize = 500;

/// The comparison section; what cannot be compared goes to `unreadable`.
pub(super) fn section(files: &[Source<'_>], summaries: &[FileSummary], unreadable: &mut Vec<String>) -> String {
    let mut s = String::from(
        "<section id=\"comparison\" aria-labelledby=\"comparison-h\"><h2 id=\"comparison-h\">Comparison</h2>\
         <div class=\"scroll\"><table class=\"comparison\"><caption>The files side by side</caption>",
    );
    s.push_str("<tr><td></td>");
    for f in files {
        let _ = write!(s, "<th scope=\"col\">{}</th>", escape(f.name));
    }
    s.push_str("</tr>");
    let line = |s: &mut String, name: &str, cells: Vec<String>| {
        let _ = write!(s, "<tr><th scope=\"row\">{}</th>", escape(name));
        for c in cells {
            let _ = write!(s, "<td>{}</td>", escape(&c));
        }
        s.push_str("</tr>");
    };
    line(&mut s, "kind", summaries.iter().map(|f| f.kind.extension().unwrap_or("unknown").to_string()).collect());
    line(&mut s, "bytes", files.iter().map(|f| thousands(f.bytes.len() as u64)).collect());
    line(&mut s, "methods", summaries.iter().map(|f| thousands(f.methods as u64)).collect());
    line(&mut s, "graph nodes", summaries.iter().map(|f| thousands(f.nodes as u64)).collect());
    line(&mut s, "tensors", summaries.iter().map(|f| thousands(f.tensors as u64)).collect());
    line(&mut s, "violations", summaries.iter().map(|f| thousands(f.violations as u64)).collect());
    line(&mut s, "warnings", summaries.iter().map(|f| thousands(f.warnings as u64)).collect());
    s.push_str("</table></div>");
    let Some(first) = files.first() else {
        s.push_str("</section>\n");
        return s;
    };
    for (k, other) in files.iter().enumerate().skip(1) {
        let _ = write!(s, "<h3>{} against {}</h3>", escape(first.name), escape(other.name));
        let (ka, kb) = (pte::kind_of(first.bytes), pte::kind_of(other.bytes));
        if ka != kb {
            let _ = write!(
                s,
                "<p>Not compared: {} is {ka} and {} is {kb}; only files of one kind compare.</p>",
                escape(first.name),
                escape(other.name)
            );
            continue;
        }
        let r = match pte_diff::diff_bytes(first.bytes, other.bytes, &Default::default()) {
            Ok(r) => r,
            Err(e) => {
                unreadable.push(format!("comparison with file {k}: {e}"));
                s.push_str(&crate::html::unreadable("the comparison", &e.to_string()));
                continue;
            }
        };
        if r.is_equal() {
            let how = if r.bitwise_equal { "the same bytes" } else { "equal" };
            let _ = write!(s, "<p>No difference: {how}.</p>");
            continue;
        }
        let cats = [pte_diff::Category::Layout, pte_diff::Category::Program, pte_diff::Category::Data];
        let counts: Vec<String> = cats.iter().map(|c| format!("{} {}", r.of(*c).count(), c.name())).collect();
        let _ = write!(
            s,
            "<p>{} ({}).</p><div class=\"scroll\"><table class=\"differences\">",
            counted(r.differences.len() as u64, "difference"),
            counts.join(", ")
        );
        s.push_str(&head_row(&[
            "category",
            "where",
            "what differs",
            "elements differing",
            "max |a - b|",
            "mean |a - b|",
        ]));
        for d in r.differences.iter().take(MAX_ROWS) {
            let (n, max, mean) = match &d.tensor {
                Some(t) => (
                    format!("{} of {}", thousands(t.num_differing), thousands(t.num_elements)),
                    float(t.max_abs_diff),
                    float(t.mean_abs_diff),
                ),
                None => ("-".into(), "-".into(), "-".into()),
            };
            s.push_str(&row(None, &[d.category.name().to_string(), d.path.clone(), d.message.clone(), n, max, mean]));
        }
        s.push_str("</table></div>");
        if r.differences.len() > MAX_ROWS {
            let _ = write!(
                s,
                "<p>… {} more differences (<code>pte diff</code> lists them all).</p>",
                thousands(r.differences.len().saturating_sub(MAX_ROWS) as u64)
            );
        }
    }
    s.push_str("</section>\n");
    s
}
