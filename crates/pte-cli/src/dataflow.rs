//! A method's dataflow ([`pte_report::graph::Graph`], built from a `.pte`
//! plan or a `.ptn`'s native method) in the two syntaxes of `pte graph`:
//! Graphviz DOT and Mermaid. Delegate calls and moves are drawn as
//! operators are.

use pte_report::graph::{Graph, NodeKind};

fn dot_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The endpoints' ids of every edge (an index past the nodes names nothing).
fn edge_ids(g: &Graph) -> impl Iterator<Item = (&str, &str, &str)> {
    let id = |i: usize| g.nodes.get(i).map_or("", |n| n.id.as_str());
    g.edges.iter().map(move |e| (id(e.from), id(e.to), e.label.as_str()))
}

/// Graphviz DOT.
pub(crate) fn dot(g: &Graph) -> String {
    let mut s = format!("digraph \"{}\" {{\n  rankdir=TB;\n  node [fontname=\"Helvetica\", fontsize=11];\n  edge [fontname=\"Helvetica\", fontsize=9];\n", dot_escape(&g.name));
    for n in &g.nodes {
        let shape = match n.kind {
            NodeKind::Input | NodeKind::Output => "shape=oval, style=filled, fillcolor=\"#e8f0fe\"",
            NodeKind::Data => "shape=note, style=filled, fillcolor=\"#fff4e0\"",
            _ => "shape=box, style=\"rounded,filled\", fillcolor=\"#f2f2f2\"",
        };
        s.push_str(&format!("  {} [label=\"{}\", {shape}];\n", n.id, dot_escape(&n.label)));
    }
    for (a, b, label) in edge_ids(g) {
        s.push_str(&format!("  {a} -> {b} [label=\"{}\"];\n", dot_escape(label)));
    }
    s.push_str("}\n");
    s
}

fn mermaid_escape(s: &str) -> String {
    s.replace('"', "#quot;")
}

/// Mermaid flowchart.
pub(crate) fn mermaid(g: &Graph) -> String {
    let mut s = String::from("flowchart TD\n");
    for n in &g.nodes {
        let (id, l) = (&n.id, mermaid_escape(&n.label));
        s.push_str(&match n.kind {
            NodeKind::Input | NodeKind::Output => format!("  {id}([\"{l}\"])\n"),
            NodeKind::Data => format!("  {id}[(\"{l}\")]\n"),
            _ => format!("  {id}[\"{l}\"]\n"),
        });
    }
    for (a, b, label) in edge_ids(g) {
        s.push_str(&format!("  {a} -->|\"{}\"| {b}\n", mermaid_escape(label)));
    }
    s
}
