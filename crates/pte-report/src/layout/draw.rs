//! The SVG: edges, then their labels (placed by [`super::labels`]), then
//! nodes, edges and nodes each with a `<title>`; every attribute a
//! standalone viewer needs (colours, font) is on the elements, so the page's
//! CSS may restyle them by class but is not required.

use std::fmt::Write;

use super::labels::{self, LabelAt};
use super::text::{escape, escape_into, fit, Num, FONT_SIZE, MONOSPACE};
use super::{Layout, SvgOptions};
use crate::graph::{Graph, NodeKind};

/// Fill, stroke, corner radius (as a share of the box height) and extra
/// stroke attributes of each kind's box.
fn style(kind: NodeKind) -> (&'static str, &'static str, f64, &'static str) {
    match kind {
        NodeKind::Input => ("#e3f2fd", "#1565c0", 0.5, ""),
        NodeKind::Output => ("#e8f5e9", "#2e7d32", 0.5, ""),
        NodeKind::Data => ("#f5f5f5", "#757575", 0.0, ""),
        NodeKind::Operator => ("#fff8e1", "#e65100", 0.2, ""),
        NodeKind::Delegate => ("#f3e5f5", "#6a1b9a", 0.2, " stroke-width=\"2\""),
        NodeKind::Move => ("#ffffff", "#9e9e9e", 0.2, " stroke-dasharray=\"4 2\""),
    }
}

pub(crate) fn svg(graph: &Graph, layout: &Layout, options: &SvgOptions) -> String {
    let mut out = String::with_capacity(graph.nodes.len().saturating_mul(300).saturating_add(1024));
    let prefix = escape(&options.id_prefix);
    let (label_at, width) = if graph.edges.len() <= options.edge_labels_up_to {
        labels::place(graph, layout)
    } else {
        (Vec::new(), layout.width)
    };
    let (w, h) = (Num(width), Num(layout.height));
    if options.standalone {
        out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    }
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"graph\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" \
         height=\"{h}\" font-family=\"{MONOSPACE}\" font-size=\"{}\" role=\"img\" aria-label=\"",
        Num(FONT_SIZE)
    );
    escape_into(&mut out, &graph.name);
    out.push_str("\">");
    if options.standalone {
        out.push_str("<title>");
        escape_into(&mut out, &graph.name);
        out.push_str("</title><rect class=\"background\" width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>");
    }
    let _ = write!(
        out,
        "<defs><marker id=\"{prefix}arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" \
         markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\"><path d=\"M0,0L10,5L0,10z\" fill=\"#546e7a\"/>\
         </marker></defs>\n<g class=\"edges\">\n"
    );
    let node_id = |i: usize| graph.nodes.get(i).map_or(String::new(), |n| escape(&n.id));
    // over every line, so that a label's halo hides the lines it crosses
    let mut over = String::new();
    for (k, (edge, line)) in graph.edges.iter().zip(&layout.edges).enumerate() {
        let mut points = line.iter();
        let Some(&(x0, y0)) = points.next() else { continue };
        if line.len() < 2 {
            continue;
        }
        let _ = write!(
            out,
            "<path class=\"edge\" data-from=\"{}\" data-to=\"{}\" d=\"M{},{}",
            node_id(edge.from),
            node_id(edge.to),
            Num(x0),
            Num(y0)
        );
        for &(x, y) in points {
            let _ = write!(out, "L{},{}", Num(x), Num(y));
        }
        let _ = write!(
            out,
            "\" fill=\"none\" stroke=\"#546e7a\" stroke-width=\"1.2\" marker-end=\"url(#{prefix}arrow)\"><title>"
        );
        escape_into(&mut out, &edge.label);
        out.push_str("</title></path>\n");
        if let Some(Some(at)) = label_at.get(k) {
            let LabelAt { x, y, anchor } = *at;
            let _ = write!(
                over,
                "<text class=\"edge-label\" x=\"{}\" y=\"{}\" dy=\"0.35em\" font-size=\"{}\" text-anchor=\"{}\" \
                 fill=\"#37474f\" stroke=\"#ffffff\" stroke-width=\"4\" stroke-linejoin=\"round\" \
                 paint-order=\"stroke\">",
                Num(x),
                Num(y),
                Num(labels::FONT_SIZE),
                anchor
            );
            escape_into(&mut over, &edge.label);
            over.push_str("</text>\n");
        }
    }
    out.push_str("</g>\n");
    if !over.is_empty() {
        out.push_str("<g class=\"edge-labels\">\n");
        out.push_str(&over);
        out.push_str("</g>\n");
    }
    out.push_str("<g class=\"nodes\">\n");
    for (node, b) in graph.nodes.iter().zip(&layout.nodes) {
        let kind = node.kind.name();
        let (fill, stroke, round, extra) = style(node.kind);
        let _ = write!(out, "<g class=\"node {kind}\" id=\"{prefix}n-");
        escape_into(&mut out, &node.id);
        out.push_str("\" data-label=\"");
        escape_into(&mut out, &node.label);
        out.push_str("\"><title>");
        escape_into(&mut out, &node.label);
        let r = Num(round * b.height);
        let _ = write!(
            out,
            "</title><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{r}\" ry=\"{r}\" fill=\"{fill}\" \
             stroke=\"{stroke}\"{extra}/><text x=\"{}\" y=\"{}\" dy=\"0.35em\" text-anchor=\"middle\" fill=\"#212121\">",
            Num(b.x),
            Num(b.y),
            Num(b.width),
            Num(b.height),
            Num(b.x + b.width / 2.0),
            Num(b.y + b.height / 2.0)
        );
        escape_into(&mut out, &fit(&node.label, b.width));
        out.push_str("</text></g>\n");
    }
    out.push_str("</g>\n</svg>\n");
    out
}
