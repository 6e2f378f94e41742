//! One file's section: its kind read from the bytes, then each part read
//! on its own, so what cannot be read is said where it would have been.

use std::fmt::Write as _;

use pte_file::view::{PteView, SegmentTable};

use super::context::{Ctx, FileSummary, Parts, Source};
use super::program::program;
use super::{extras, summary, verification};
use crate::html::escape;

/// Appends the section of input `k` to `s`; returns what it says in numbers.
pub(super) fn section(s: &mut String, k: usize, f: &Source<'_>, data: &[Source<'_>]) -> FileSummary {
    let bytes = f.bytes;
    let kind = pte::kind_of(bytes);
    let mut cx = Ctx { k, kind, unreadable: vec![], budget: crate::stats::Budget::new(crate::stats::Budget::PAGE) };
    // data files resolve programs only; other kinds are reported alone
    let linked: &[Source<'_>] = if kind.is_pte() { data } else { &[] };
    let (verification, violations, warnings) = verification::section(&mut cx, f, linked);
    let parts = if kind.is_pte() {
        program(&mut cx, bytes, bytes, PteView::read(bytes, SegmentTable::Whole), linked, 0)
    } else if kind.is_bpte() {
        extras::bundle(&mut cx, bytes)
    } else if kind.is_ptd() {
        extras::data_file(&mut cx, bytes)
    } else if kind.is_ptn() {
        extras::package(&mut cx, bytes)
    } else {
        Parts { summary: summary::unknown(&mut cx, bytes), ..Parts::default() }
    };
    let kind_name = kind.extension().unwrap_or("unknown");
    let parts_len: usize = [
        &parts.graphs,
        &parts.sizes,
        &parts.memory,
        &parts.tensors,
        &parts.delegates,
        &parts.samples,
        &parts.tests,
        &parts.external,
    ]
    .iter()
    .map(|p| p.as_ref().map_or(0, String::len))
    .sum();
    s.reserve(parts_len.saturating_add(parts.summary.len()).saturating_add(verification.len()).saturating_add(4096));
    let _ = write!(
        s,
        "<section class=\"file\" id=\"file-{k}\" data-kind=\"{kind_name}\" data-methods=\"{}\" data-nodes=\"{}\" data-tensors=\"{}\" data-violations=\"{violations}\" data-warnings=\"{warnings}\" aria-labelledby=\"file-{k}-h\">\n<h2 id=\"file-{k}-h\">{}</h2>\n",
        parts.methods,
        parts.nodes,
        parts.tensor_rows,
        escape(f.name)
    );
    let _ = writeln!(
        s,
        "<div class=\"search\" role=\"search\"><label for=\"search-{k}\">Find a node or tensor</label> \
         <input type=\"search\" id=\"search-{k}\" placeholder=\"name, operator, key\" autocomplete=\"off\" aria-describedby=\"search-{k}-status\"> \
         <button type=\"button\" class=\"next\" data-for=\"search-{k}\">next</button> \
         <output id=\"search-{k}-status\" aria-live=\"polite\"></output></div>"
    );
    let mut toc = vec![("summary", "Summary"), ("verification", "Verification")];
    let optional = [
        (&parts.graphs, "graphs", "Graphs"),
        (&parts.sizes, "sizes", "Sizes"),
        (&parts.memory, "memory", "Memory plan"),
        (&parts.tensors, "tensors", "Tensors"),
        (&parts.delegates, "delegates", "Delegates"),
        (&parts.samples, "samples", "Samples"),
        (&parts.tests, "tests", "Test cases"),
        (&parts.external, "external", "External tensors"),
    ];
    toc.extend(optional.iter().filter(|(p, _, _)| p.is_some()).map(|(_, id, title)| (*id, *title)));
    s.push_str("<nav class=\"parts\" aria-label=\"parts of this file\"><ul>");
    for (id, title) in toc {
        let _ = write!(s, "<li><a href=\"#{id}-{k}\">{title}</a></li>");
    }
    s.push_str("</ul></nav>\n");
    s.push_str(&parts.summary);
    s.push_str(&verification);
    for (p, _, _) in optional {
        if let Some(p) = p {
            s.push_str(p);
            s.push('\n');
        }
    }
    s.push_str("</section>\n");
    FileSummary {
        kind,
        methods: parts.methods,
        nodes: parts.nodes,
        tensors: parts.tensor_rows,
        violations,
        warnings,
        unreadable: cx.unreadable,
    }
}
