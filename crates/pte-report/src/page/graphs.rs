//! The graphs part: every method's dataflow laid out and drawn by
//! [`crate::layout`], with dtype and shape on the edges.
//!
//! Large graphs stay usable: a drawing of more than [`FOLDED`] nodes is put
//! in a closed `<details>`, so the browser parses it but neither lays it
//! out nor paints it until it is opened (the search opens it on a match);
//! a graph of more than [`MAX_DRAWN`] nodes is not drawn at all, its first
//! [`MAX_LISTED`] nodes listed instead, since no one reads a drawing of that
//! many boxes. Each method is first walked only to be counted, so a graph
//! too large to draw is never built.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use pte_file::view::PteView;

use super::context::{open, Ctx};
use crate::graph::{Endpoint, Graph, NodeKind, Sink};
use crate::html::{escape, thousands};

/// Drawings of more nodes than this start folded.
pub const FOLDED: usize = 1_500;
/// Graphs of more nodes than this are listed, not drawn.
pub const MAX_DRAWN: usize = 100_000;
/// Nodes listed of a graph too large to draw.
pub const MAX_LISTED: usize = 10_000;

/// A method's walk: tells its dataflow to a [`Sink`], as often as asked.
pub(super) type Walk<'w> = Box<dyn Fn(&mut dyn Sink) + 'w>;

/// What a first walk learns: the size, and the calls by label.
#[derive(Default)]
struct Census {
    nodes: usize,
    edges: usize,
    calls: BTreeMap<String, u64>,
}

impl Sink for Census {
    fn wants_edge_labels(&self) -> bool {
        false
    }
    fn node(&mut self, _: Endpoint, kind: NodeKind, label: &str) {
        self.nodes = self.nodes.saturating_add(1);
        if matches!(kind, NodeKind::Operator | NodeKind::Delegate) {
            match self.calls.get_mut(label) {
                Some(c) => *c = c.saturating_add(1),
                None => {
                    self.calls.insert(label.to_string(), 1);
                }
            }
        }
    }
    fn edge(&mut self, _: Endpoint, _: Endpoint, _: &str) {
        self.edges = self.edges.saturating_add(1);
    }
}

/// The first [`MAX_LISTED`] nodes as list items.
struct Listing<'s> {
    s: &'s mut String,
    listed: usize,
}

impl Sink for Listing<'_> {
    fn wants_edge_labels(&self) -> bool {
        false
    }
    fn node(&mut self, _: Endpoint, kind: NodeKind, label: &str) {
        if self.listed < MAX_LISTED {
            self.listed = self.listed.saturating_add(1);
            let _ = write!(self.s, "<li>{} <span class=\"kind\">{}</span></li>", escape(label), kind.name());
        }
    }
    fn edge(&mut self, _: Endpoint, _: Endpoint, _: &str) {}
}

/// `aten::add.out ×3, aten::relu.out ×1`: the most called operators.
fn census(calls: &BTreeMap<String, u64>) -> String {
    let mut v: Vec<(&str, u64)> = calls.iter().map(|(n, &c)| (n.as_str(), c)).collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let mut parts: Vec<String> = v.iter().take(8).map(|(n, c)| format!("{n} ×{c}")).collect();
    if v.len() > 8 {
        parts.push(format!("{} more", v.len().saturating_sub(8)));
    }
    parts.join(", ")
}

/// Appends one method's figure to `s` (a drawing is large: it is copied
/// once); returns the nodes drawn.
pub(super) fn figure(s: &mut String, cx: &Ctx, m: usize, method: &str, walk: &dyn Fn(&mut dyn Sink)) -> usize {
    let k = cx.k;
    let mut count = Census::default();
    walk(&mut count);
    let (nodes, edges) = (count.nodes, count.edges);
    let drawn = nodes <= MAX_DRAWN;
    let (dn, de) = if drawn { (nodes, edges) } else { (0, 0) };
    let _ = write!(
        s,
        "<figure class=\"graph\" id=\"graph-{k}-{m}\" data-method=\"{}\" data-nodes=\"{dn}\" data-edges=\"{de}\">",
        escape(method)
    );
    let calls = census(&count.calls);
    let caption = format!(
        "{}: {} nodes, {} edges{}{}",
        method,
        thousands(nodes as u64),
        thousands(edges as u64),
        if calls.is_empty() { "" } else { "; calls " },
        calls
    );
    let _ = write!(s, "<figcaption>{}</figcaption>", escape(&caption));
    if drawn {
        let mut graph = Graph::default();
        walk(&mut graph);
        let g = &graph;
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
        walk(&mut Listing { s, listed: 0 });
        s.push_str("</ol>");
        if nodes > MAX_LISTED {
            let _ = write!(
                s,
                "<p>… {} more nodes not listed (<code>pte graph</code> prints them all).</p>",
                thousands(nodes.saturating_sub(MAX_LISTED) as u64)
            );
        }
        s.push_str("</details>");
    }
    s.push_str("</figure>\n");
    dn
}

/// The part for the graphs of `list` (method name, graph); returns it, the
/// methods and the nodes drawn.
pub(super) fn section(cx: &Ctx, list: &[(String, Walk<'_>)], empty: &str) -> (String, usize, usize) {
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
    for (m, (name, walk)) in list.iter().enumerate() {
        let n = figure(&mut s, cx, m, name, walk.as_ref());
        nodes = nodes.saturating_add(n);
    }
    s.push_str("</section>\n");
    (s, list.len(), nodes)
}

/// The graphs of a program (none when it could not be read), read in place.
pub(super) fn program(cx: &mut Ctx, pte: Option<&PteView<'_>>) -> (String, usize, usize) {
    let Some(pte) = pte else {
        return (cx.failed_part("graphs", "Graphs", "the graphs", "the program could not be read"), 0, 0);
    };
    let program = pte.program();
    let list: Vec<(String, Walk<'_>)> = (0..program.plan_count())
        .filter_map(|p| program.plan(p).map(|plan| (p, plan)))
        .map(|(p, plan)| {
            let name = plan.name().filter(|n| !n.is_empty()).map_or_else(|| format!("plan{p}"), str::to_string);
            let walk: Walk<'_> = Box::new(move |sink: &mut dyn Sink| crate::graph::walk_plan_view(&plan, sink));
            (name, walk)
        })
        .collect();
    section(cx, &list, "The program has no method.")
}
