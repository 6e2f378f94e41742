//! A layered drawing of a dataflow [`Graph`], computed
//! here so that no Graphviz is needed, and its SVG.
//!
//! Sugiyama's method, each step linear or `n log n` per sweep: a depth-first
//! search reverses back edges (damaged files may have cycles); layers are
//! longest paths from the sources, constants just above their first consumer,
//! outputs at the bottom; long edges run through dummy vertices, one trunk per
//! producer, within a budget past which they are drawn straight; a bounded
//! number of weighted-median sweeps reduces crossings, keeping the best order;
//! x coordinates are Brandes and Köpf's (vertical blocks aligned on median
//! neighbours, packed, four runs balanced), which keeps long chains straight.

mod acyclic;
mod chains;
mod csr;
mod draw;
mod labels;
mod layers;
mod order;
mod position;
mod route;
pub(crate) mod text;

use crate::graph::Graph;
use acyclic::Route;

/// Where one node is drawn: its box, top-left corner and size, in SVG units.
///
/// ```
/// let p = pte_report::layout::Placed { x: 8.0, y: 8.0, width: 80.0, height: 28.0 };
/// assert_eq!(p.x + p.width, 88.0);
/// ```
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
/// one polyline per edge (same order as the graph's edges; empty for an edge
/// whose endpoint is out of range).
///
/// ```
/// use pte_report::graph::{Edge, Graph, Node, NodeKind};
/// let node = |id: &str, kind| Node { id: id.into(), label: id.into(), kind };
/// let g = Graph {
///     name: "forward".into(),
///     nodes: vec![node("in0", NodeKind::Input), node("out0", NodeKind::Output)],
///     edges: vec![Edge { from: 0, to: 1, label: "float32 [2]".into() }],
/// };
/// let l = pte_report::layout::layout(&g);
/// assert_eq!((l.nodes.len(), l.edges.len()), (2, 1));
/// assert!(l.nodes[0].y < l.nodes[1].y);
/// ```
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

/// Sizes and effort of [`layout_with`].
///
/// ```
/// let o = pte_report::layout::LayoutOptions { order_sweeps: 2, ..Default::default() };
/// assert_eq!(o.max_label_chars, 40);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct LayoutOptions {
    /// Height of every box.
    pub node_height: f64,
    /// Horizontal gap between two boxes of a layer.
    pub node_gap: f64,
    /// Horizontal gap next to an edge passing through a layer.
    pub edge_gap: f64,
    /// Vertical gap between layers.
    pub layer_gap: f64,
    /// Empty border around the drawing.
    pub margin: f64,
    /// Labels longer than this are cut (with `…`) in their box.
    pub max_label_chars: usize,
    /// Most sweeps of crossing reduction (each one layer by layer, down or
    /// up); graphs with hundreds of thousands of vertices and dummies get
    /// fewer, down to 2, so that the work stays bounded.
    pub order_sweeps: usize,
    /// Most dummy vertices for long edges; `None` for `4 * (nodes + edges) +
    /// 1000`. Edges left without any are drawn straight.
    pub max_dummies: Option<usize>,
}

impl Default for LayoutOptions {
    /// Sizes for 12-unit monospace labels and enough sweeps for a readable
    /// drawing of 20,000 nodes in well under a second.
    ///
    /// ```
    /// assert_eq!(pte_report::layout::LayoutOptions::default().node_height, 28.0);
    /// ```
    fn default() -> Self {
        LayoutOptions {
            node_height: 28.0,
            node_gap: 16.0,
            edge_gap: 8.0,
            layer_gap: 40.0,
            margin: 8.0,
            max_label_chars: 40,
            order_sweeps: 12,
            max_dummies: None,
        }
    }
}

/// How [`svg_with`] writes the drawing.
///
/// ```
/// let o = pte_report::layout::SvgOptions { id_prefix: "m1-".into(), ..Default::default() };
/// assert_eq!(o.edge_labels_up_to, 300);
/// assert!(!o.standalone);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SvgOptions {
    /// Put before every `id` (node groups `PREFIX n-ID`, the arrow marker),
    /// so that several graphs can share one page.
    pub id_prefix: String,
    /// Graphs with at most this many edges show each edge's label as text,
    /// not only as its tooltip.
    pub edge_labels_up_to: usize,
    /// Write a file of its own rather than an element of a page: an XML
    /// prolog before the `<svg>`, the method's name as its `<title>`, and a
    /// white background under the drawing (the edge labels' halo is white).
    /// `pte graph --svg` writes this.
    pub standalone: bool,
}

impl Default for SvgOptions {
    /// No prefix; edge labels up to 300 edges; an element of a page.
    ///
    /// ```
    /// assert!(pte_report::layout::SvgOptions::default().id_prefix.is_empty());
    /// ```
    fn default() -> Self {
        SvgOptions { id_prefix: String::new(), edge_labels_up_to: 300, standalone: false }
    }
}

/// Lays out `graph` top to bottom with the default [`LayoutOptions`].
///
/// ```
/// use pte_report::graph::{Edge, Graph, Node, NodeKind};
/// let node = |id: &str, kind| Node { id: id.into(), label: id.into(), kind };
/// let g = Graph {
///     name: "forward".into(),
///     nodes: vec![node("in0", NodeKind::Input), node("op0", NodeKind::Operator), node("out0", NodeKind::Output)],
///     edges: vec![
///         Edge { from: 0, to: 1, label: "float32 [2]".into() },
///         Edge { from: 1, to: 2, label: "float32 [2]".into() },
///         Edge { from: 1, to: 9, label: "damaged".into() },
///     ],
/// };
/// let l = pte_report::layout::layout(&g);
/// let (op, out) = (l.nodes[1], l.nodes[2]);
/// assert_eq!(l.edges[1].first().unwrap().1, op.y + op.height);
/// assert_eq!(l.edges[1].last().unwrap().1, out.y);
/// assert!(l.edges[2].is_empty());
/// ```
pub fn layout(graph: &Graph) -> Layout {
    layout_with(graph, &LayoutOptions::default())
}

/// Lays out `graph` top to bottom.
///
/// ```
/// use pte_report::graph::{Edge, Graph, Node, NodeKind};
/// use pte_report::layout::{layout_with, LayoutOptions};
/// let g = Graph {
///     name: "loop".into(),
///     nodes: vec![Node { id: "op0".into(), label: "aten::relu".into(), kind: NodeKind::Operator }],
///     edges: vec![Edge { from: 0, to: 0, label: "float32 [1]".into() }],
/// };
/// let l = layout_with(&g, &LayoutOptions { margin: 20.0, ..Default::default() });
/// assert_eq!((l.nodes[0].x, l.nodes[0].y), (20.0, 20.0));
/// assert_eq!(l.edges[0].len(), 4); // a loop on the box's right side
/// ```
pub fn layout_with(graph: &Graph, options: &LayoutOptions) -> Layout {
    const LOOP_WIDTH: f64 = 12.0;
    let n = graph.nodes.len();
    let (routes, topological) = acyclic::orient(n, &graph.edges);
    let links: Vec<acyclic::Link> =
        routes.iter().filter_map(|r| if let Route::Link(l) = r { Some(*l) } else { None }).collect();
    let kinds: Vec<_> = graph.nodes.iter().map(|node| node.kind).collect();
    let (layer, layer_count) = layers::assign(&kinds, &links, &topological);
    let budget = options
        .max_dummies
        .unwrap_or_else(|| n.saturating_add(graph.edges.len()).saturating_mul(4).saturating_add(1000));
    let chains = chains::build(&layer, &routes, budget);
    let vertices = chains.layer.len();

    let mut by_layer = vec![Vec::new(); layer_count];
    for (v, &l) in chains.layer.iter().enumerate() {
        if let Some(list) = by_layer.get_mut(l) {
            list.push(v);
        }
    }
    let reversed: Vec<(usize, usize)> = chains.edges.iter().map(|&(a, b)| (b, a)).collect();
    let above = csr::Csr::new(vertices, &reversed);
    let below = csr::Csr::new(vertices, &chains.edges);
    // About a tenth of a second of sweeps at most, however big the graph.
    const SWEEP_WORK: usize = 4_000_000;
    let work = vertices.saturating_add(chains.edges.len()).max(1);
    let sweeps = options.order_sweeps.min(SWEEP_WORK.checked_div(work).unwrap_or(0).max(2));
    order::reduce(&mut by_layer, &above, &below, vertices, sweeps);

    let mut width: Vec<f64> =
        graph.nodes.iter().map(|node| text::box_width(&node.label, options.max_label_chars)).collect();
    width.resize(vertices, 0.0);
    let mut right = vec![0.0; vertices];
    for r in &routes {
        if let Route::Loop(v) = r
            && let Some(room) = right.get_mut(*v)
        {
            *room = LOOP_WIDTH + 4.0;
        }
    }
    let light: Vec<bool> = kinds.iter().map(|&k| k == crate::graph::NodeKind::Data).collect();
    let spacing = position::Spacing {
        width: &width,
        right: &right,
        nodes: n,
        light: &light,
        node_gap: options.node_gap,
        edge_gap: options.edge_gap,
    };
    let mut x = position::place(&by_layer, &spacing, &above, &below);
    position::straighten(&by_layer, &spacing, &chains.trunks, &mut x);

    // Shift so that the leftmost box or edge starts at the margin.
    let half = |v: usize| width.get(v).copied().unwrap_or(0.0) / 2.0;
    let extra = |v: usize| right.get(v).copied().unwrap_or(0.0);
    let left = x.iter().enumerate().map(|(v, &c)| c - half(v)).fold(f64::INFINITY, f64::min);
    let shift = if left.is_finite() { options.margin - left } else { 0.0 };
    x.iter_mut().for_each(|c| *c += shift);
    let right_end = x.iter().enumerate().map(|(v, &c)| c + half(v) + extra(v)).fold(options.margin, f64::max);

    let pitch = options.node_height + options.layer_gap;
    let boxes: Vec<Placed> = (0..n)
        .map(|v| Placed {
            x: x.get(v).copied().unwrap_or(0.0) - half(v),
            y: options.margin + layer.get(v).copied().unwrap_or(0) as f64 * pitch,
            width: width.get(v).copied().unwrap_or(0.0),
            height: options.node_height,
        })
        .collect();
    let geometry = route::Geometry {
        boxes: &boxes,
        x: &x,
        layer: &chains.layer,
        top: options.margin,
        height: options.node_height,
        pitch,
        loop_width: LOOP_WIDTH,
    };
    let edges = route::polylines(&routes, &chains.paths, &geometry);
    let height = if layer_count == 0 {
        2.0 * options.margin
    } else {
        2.0 * options.margin + layer_count as f64 * pitch - options.layer_gap
    };
    Layout { width: right_end + options.margin, height, nodes: boxes, edges }
}

/// The graph drawn as one `<svg>` element, with the default [`SvgOptions`].
///
/// ```
/// use pte_report::graph::{Edge, Graph, Node, NodeKind};
/// let g = Graph {
///     name: "forward".into(),
///     nodes: vec![
///         Node { id: "in0".into(), label: "x <input>".into(), kind: NodeKind::Input },
///         Node { id: "out0".into(), label: "y".into(), kind: NodeKind::Output },
///     ],
///     edges: vec![Edge { from: 0, to: 1, label: "float32 [2, 2]".into() }],
/// };
/// let s = pte_report::layout::svg(&g, &pte_report::layout::layout(&g));
/// assert!(s.starts_with("<svg ") && s.trim_end().ends_with("</svg>"));
/// assert!(s.contains(r#"<g class="node input" id="n-in0" data-label="x &lt;input&gt;">"#));
/// assert!(s.contains("<title>float32 [2, 2]</title>"));
/// ```
pub fn svg(graph: &Graph, layout: &Layout) -> String {
    svg_with(graph, layout, &SvgOptions::default())
}

/// The graph drawn as one `<svg>` element: edges (`<path class="edge">` with
/// a `<title>`), then their labels when the graph has few edges
/// (`<text class="edge-label">` beside the line, on a white halo, where no
/// box, line or other label is when such a place is near), then nodes
/// (`<g class="node KIND" id="n-ID">` with a `<title>`, a `<rect>` and a
/// `<text>`). The drawing widens to the right for labels that need it.
///
/// ```
/// use pte_report::graph::{Graph, Node, NodeKind};
/// use pte_report::layout::{layout, svg_with, SvgOptions};
/// let g = Graph {
///     name: "forward".into(),
///     nodes: vec![Node { id: "c0".into(), label: "weight".into(), kind: NodeKind::Data }],
///     edges: vec![],
/// };
/// let s = svg_with(&g, &layout(&g), &SvgOptions { id_prefix: "m0-".into(), ..Default::default() });
/// assert!(s.contains(r#"id="m0-n-c0""#) && s.contains(r#"id="m0-arrow""#));
/// ```
pub fn svg_with(graph: &Graph, layout: &Layout, options: &SvgOptions) -> String {
    draw::svg(graph, layout, options)
}

/// The graph laid out ([`layout`]) and drawn as a file of its own: an XML
/// prolog, then the `<svg>` in the SVG namespace as [`svg_with`] writes it
/// with [`SvgOptions::standalone`], which any SVG viewer opens. What
/// `pte graph --svg` writes; no Graphviz is involved.
///
/// ```
/// use pte_report::graph::{Edge, Graph, Node, NodeKind};
/// let g = Graph {
///     name: "forward".into(),
///     nodes: vec![
///         Node { id: "in0".into(), label: "x".into(), kind: NodeKind::Input },
///         Node { id: "out0".into(), label: "y".into(), kind: NodeKind::Output },
///     ],
///     edges: vec![Edge { from: 0, to: 1, label: "float32 [2]".into() }],
/// };
/// let file = pte_report::layout::svg_file(&g);
/// assert!(file.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\""));
/// assert!(file.contains("<title>forward</title>") && file.contains(r#"id="n-out0""#));
/// ```
pub fn svg_file(graph: &Graph) -> String {
    svg_with(graph, &layout(graph), &SvgOptions { standalone: true, ..Default::default() })
}
