//! A method's dataflow drawing, independent of the kind of file it came
//! from (`pte graph` builds one from a `.pte` plan or a `.ptn`'s native
//! method), and its two output syntaxes: Graphviz DOT and Mermaid.

/// The graph of one method, independent of the output syntax.
#[derive(Default)]
pub(crate) struct Graph {
    pub(crate) name: String,
    /// (id, label, kind) where kind is "input", "output", "data" or "op".
    pub(crate) nodes: Vec<(String, String, &'static str)>,
    /// (from, to, label).
    pub(crate) edges: Vec<(String, String, String)>,
}

fn dot_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Graphviz DOT.
pub(crate) fn dot(g: &Graph) -> String {
    let mut s = format!("digraph \"{}\" {{\n  rankdir=TB;\n  node [fontname=\"Helvetica\", fontsize=11];\n  edge [fontname=\"Helvetica\", fontsize=9];\n", dot_escape(&g.name));
    for (id, label, kind) in &g.nodes {
        let shape = match *kind {
            "input" | "output" => "shape=oval, style=filled, fillcolor=\"#e8f0fe\"",
            "data" => "shape=note, style=filled, fillcolor=\"#fff4e0\"",
            _ => "shape=box, style=\"rounded,filled\", fillcolor=\"#f2f2f2\"",
        };
        s.push_str(&format!("  {id} [label=\"{}\", {shape}];\n", dot_escape(label)));
    }
    for (a, b, label) in &g.edges {
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
    for (id, label, kind) in &g.nodes {
        let l = mermaid_escape(label);
        s.push_str(&match *kind {
            "input" | "output" => format!("  {id}([\"{l}\"])\n"),
            "data" => format!("  {id}[(\"{l}\")]\n"),
            _ => format!("  {id}[\"{l}\"]\n"),
        });
    }
    for (a, b, label) in &g.edges {
        s.push_str(&format!("  {a} -->|\"{}\"| {b}\n", mermaid_escape(label)));
    }
    s
}
