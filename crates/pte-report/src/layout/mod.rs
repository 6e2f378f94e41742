//! A layered drawing of a dataflow [`Graph`](crate::graph::Graph), computed
//! here so that no Graphviz is needed, and its SVG.
//!
//! (To be written: see the interface below.)

use crate::graph::Graph;

/// Where one node is drawn: its box, top-left corner and size, in SVG units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placed {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
}

/// A laid-out graph: one box per node (same order as the graph's nodes) and
/// one polyline per edge (same order as the graph's edges).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Layout {
    /// Width of the whole drawing.
    pub width: f64,
    /// Height of the whole drawing.
    pub height: f64,
    /// One box per node.
    pub nodes: Vec<Placed>,
    /// One polyline per edge, from the producer's box to the consumer's.
    pub edges: Vec<Vec<(f64, f64)>>,
}

/// Lays out `graph` top to bottom.
pub fn layout(graph: &Graph) -> Layout {
    let _ = graph;
    Layout::default()
}

/// The graph drawn as one `<svg>` element.
pub fn svg(graph: &Graph, layout: &Layout) -> String {
    let _ = (graph, layout);
    String::new()
}
