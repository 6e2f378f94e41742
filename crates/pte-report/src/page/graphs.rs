//! The graphs part: every method's dataflow laid out and drawn by
//! [`crate::layout`], with dtype and shape on the edges.
//!
//! Large graphs stay usable: a drawing of more than [`FOLDED`] nodes is put
//! in a closed `<details>`, so the browser parses it but neither lays it
//! out nor paints it until it is opened (the search opens it on a match);
//! a graph of more than [`MAX_DRAWN`] nodes is not drawn at all, its nodes
//! listed instead, since no one reads a drawing of that many boxes.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use pte_file::PteFile;

use super::file::{open, Ctx};
use super::summary::method_name;
use crate::graph::{Graph, NodeKind};
use crate::html::{escape, thousands};

/// Drawings of more nodes than this start folded.
pub const FOLDED: usize = 1_500;
/// Graphs of more nodes than this are listed, not drawn.
pub const MAX_DRAWN: usize = 100_000;

/// `aten::add.out ×3, aten::relu.out ×1`: the most called operators.
fn census(g: &Graph) -> String {
    let mut calls: BTreeMap<&str, u64> = BTreeMap::new();
    for n in g.nodes.iter().filter(|n| matches!(n.kind, NodeKind::Operator | NodeKind::Delegate)) {
        let e = calls.entry(n.label.as_str()).or_default();
        *e = e.saturating_add(1);
    }
    let mut v: Vec<(&str, u64)> = calls.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let mut parts: Vec<String> = v.iter().take(8).map(|(n, c)| format!("{n} ×{c}")).collect();
    if v.len() > 8 {
        parts.push(format!("{} more", v.len().saturating_sub(8)));
    }
    parts.join(", ")
}

/// Appends one method's figure to `s` (a drawing is large: it is copied
/// once); returns the nodes drawn.
pub(super) fn figure(s: &mut String, cx: &Ctx, m: usize, method: &str, g: &Graph) -> usize {
    let k = cx.k;
    let (nodes, edges) = (g.nodes.len(), g.edges.len());
    let drawn = nodes <= MAX_DRAWN;
    let (dn, de) = if drawn { (nodes, edges) } else { (0, 0) };
    let _ = write!(
        s,
        "<figure class=\"graph\" id=\"graph-{k}-{m}\" data-method=\"{}\" data-nodes=\"{dn}\" data-edges=\"{de}\">",
        escape(method)
    );
    let caption = format!(
        "{}: {} nodes, {} edges{}{}",
        method,
        thousands(nodes as u64),
        thousands(edges as u64),
        if census(g).is_empty() { String::new() } else { "; calls ".to_string() },
        census(g)
    );
    let _ = write!(s, "<figcaption>{}</figcaption>", escape(&caption));
    if drawn {
        let layout = crate::layout::layout(g);
        // ids stay unique when several graphs share the page
        let options = crate::layout::SvgOptions { id_prefix: format!("g{k}-{m}-"), ..Default::default() };
        let svg = crate::layout::svg_with(g, &layout, &options);
        let tools = "<div class=\"tools\" role=\"toolbar\" aria-label=\"zoom\">\
            <button type=\"button\" data-zoom=\"in\" aria-label=\"zoom in\">+</button>\
            <button type=\"button\" data-zoom=\"out\" aria-label=\"zoom out\">−</button>\
            <button type=\"button\" data-zoom=\"reset\">actual size</button>\
            <span class=\"hint\">drag to pan; ctrl + wheel to zoom</span></div>";
        let folded = nodes > FOLDED;
        if folded {
            let _ = write!(
                s,
                "<details class=\"big\"><summary>Show the drawing ({} nodes; large drawings are folded so the page opens fast)</summary>",
                thousands(nodes as u64)
            );
        }
        s.reserve(svg.len().saturating_add(1024));
        let _ = write!(
            s,
            "{tools}<div class=\"viewport\" tabindex=\"0\" role=\"group\" aria-label=\"dataflow of {}\">",
            escape(method)
        );
        s.push_str(&svg);
        s.push_str("</div>");
        if folded {
            s.push_str("</details>");
        }
    } else {
        let _ = write!(
            s,
            "<svg class=\"undrawn\" role=\"img\" width=\"420\" height=\"40\"><title>not drawn</title><text x=\"8\" y=\"24\">{} nodes: too many to draw, listed below</text></svg>",
            thousands(nodes as u64)
        );
        s.push_str("<details><summary>Nodes in program order</summary><ol class=\"nodelist\">");
        for n in &g.nodes {
            let _ = write!(s, "<li>{} <span class=\"kind\">{}</span></li>", escape(&n.label), n.kind.name());
        }
        s.push_str("</ol></details>");
    }
    s.push_str("</figure>\n");
    dn
}

/// The part for the graphs of `list` (method name, graph); returns it, the
/// methods and the nodes drawn.
pub(super) fn section(cx: &Ctx, list: &[(String, Graph)], empty: &str) -> (String, usize, usize) {
    let mut s = open(cx, "graphs", "Graphs");
    if list.is_empty() {
        let _ = write!(s, "<p>{}</p>", escape(empty));
    } else {
        s.push_str(
            "<p>Nodes are the method's inputs and outputs, its stored tensors, its kernel calls, delegate calls \
             and moves, in program order; each edge is a value, labelled with its dtype and shape.</p>",
        );
    }
    let mut nodes = 0usize;
    for (m, (name, g)) in list.iter().enumerate() {
        let n = figure(&mut s, cx, m, name, g);
        nodes = nodes.saturating_add(n);
    }
    s.push_str("</section>\n");
    (s, list.len(), nodes)
}

/// The graphs of a program (none when it could not be read).
pub(super) fn program(cx: &mut Ctx, pte: Option<&PteFile<'_>>) -> (String, usize, usize) {
    let Some(pte) = pte else {
        let note = cx.fail("the graphs", "the program could not be read");
        return (format!("{}{note}</section>\n", open(cx, "graphs", "Graphs")), 0, 0);
    };
    let list: Vec<(String, Graph)> = pte
        .program
        .plans()
        .iter()
        .enumerate()
        .map(|(p, plan)| (method_name(plan, p), crate::graph::of_plan(plan)))
        .collect();
    section(cx, &list, "The program has no method.")
}
