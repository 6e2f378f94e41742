//! The layered layout and its SVG on random graphs (DAGs, and graphs with
//! cycles, self-loops and out-of-range edges from damaged files), hostile
//! labels, and a 20,000-node graph.

use crate::graphs::{chain_and_fanout, wide};
use proptest::prelude::*;
use pte_report::graph::{Edge, Graph, Node, NodeKind};
use pte_report::layout::{layout, layout_with, svg, Layout, LayoutOptions, Placed};

const EPS: f64 = 1e-6;

const KINDS: [NodeKind; 6] =
    [NodeKind::Input, NodeKind::Output, NodeKind::Data, NodeKind::Operator, NodeKind::Delegate, NodeKind::Move];

fn hostile_label() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "a",
        "aten::add.out",
        "<",
        ">",
        "&",
        "\"",
        "'",
        "]]>",
        "&amp;",
        "\u{0}",
        "\u{1}",
        "\u{1b}",
        "\t",
        "\n",
        "\r",
        "\u{fffe}",
        "\u{ffff}",
        "é",
        "𝄞",
        " ",
        "<script>",
        "x".repeat(30).leak(),
    ]);
    prop_oneof![
        3 => prop::collection::vec(pieces, 0..8).prop_map(|p| p.concat()),
        1 => any::<String>(),
    ]
}

fn graph(max_nodes: usize, dag: bool) -> impl Strategy<Value = Graph> {
    (0..max_nodes).prop_flat_map(move |n| {
        let nodes = prop::collection::vec((prop::sample::select(KINDS.to_vec()), hostile_label()), n);
        let span = n + 3; // some endpoints out of range
        let edges = prop::collection::vec((0..span, 0..span, hostile_label()), 0..n * 3 + 1);
        (nodes, edges, hostile_label()).prop_map(move |(nodes, edges, name)| {
            let nodes = nodes
                .into_iter()
                .enumerate()
                .map(|(i, (kind, label))| Node { id: format!("v{i}"), label, kind })
                .collect();
            let edges = edges
                .into_iter()
                .filter_map(|(a, b, label)| {
                    let keep = !dag || (a < b && b < n);
                    keep.then_some(Edge { from: a, to: b, label })
                })
                .collect();
            Graph { name, nodes, edges }
        })
    })
}

/// What survives of `s` in an XML 1.0 document.
fn xml_visible(s: &str) -> String {
    s.chars()
        .filter(|&c| !matches!(c, '\u{0}'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}'))
        .collect()
}

fn on_boundary(p: (f64, f64), b: &Placed) -> bool {
    let (x, y) = p;
    let within_x = x >= b.x - EPS && x <= b.x + b.width + EPS;
    let within_y = y >= b.y - EPS && y <= b.y + b.height + EPS;
    let on_h = (y - b.y).abs() < EPS || (y - b.y - b.height).abs() < EPS;
    let on_v = (x - b.x).abs() < EPS || (x - b.x - b.width).abs() < EPS;
    (within_x && on_h) || (within_y && on_v)
}

fn strictly_inside(p: (f64, f64), b: &Placed) -> bool {
    p.0 > b.x + EPS && p.0 < b.x + b.width - EPS && p.1 > b.y + EPS && p.1 < b.y + b.height - EPS
}

fn overlap(a: &Placed, b: &Placed) -> bool {
    a.x < b.x + b.width - EPS && b.x < a.x + a.width - EPS && a.y < b.y + b.height - EPS && b.y < a.y + a.height - EPS
}

/// The geometric properties every layout must have.
fn check_layout(g: &Graph, l: &Layout, dag: bool, budgeted: bool) -> Result<(), TestCaseError> {
    let n = g.nodes.len();
    prop_assert_eq!(l.nodes.len(), n);
    prop_assert_eq!(l.edges.len(), g.edges.len());
    prop_assert!(l.width.is_finite() && l.height.is_finite() && l.width > 0.0 && l.height > 0.0);
    for b in &l.nodes {
        prop_assert!(b.x.is_finite() && b.y.is_finite() && b.width > 0.0 && b.height > 0.0);
        prop_assert!(b.x >= -EPS && b.y >= -EPS, "{:?}", b);
        prop_assert!(
            b.x + b.width <= l.width + EPS && b.y + b.height <= l.height + EPS,
            "{:?} in {}x{}",
            b,
            l.width,
            l.height
        );
    }
    for i in 0..n {
        for j in i + 1..n {
            prop_assert!(
                !overlap(&l.nodes[i], &l.nodes[j]),
                "boxes {} and {} overlap: {:?} {:?}",
                i,
                j,
                l.nodes[i],
                l.nodes[j]
            );
        }
    }
    for (e, line) in g.edges.iter().zip(&l.edges) {
        if e.from >= n || e.to >= n {
            prop_assert!(line.is_empty());
            continue;
        }
        prop_assert!(line.len() >= 2, "edge {:?} has {} points", (e.from, e.to), line.len());
        prop_assert!(line.iter().all(|p| p.0.is_finite() && p.1.is_finite()));
        prop_assert!(
            on_boundary(line[0], &l.nodes[e.from]),
            "{:?} starts off its producer {:?}",
            line,
            l.nodes[e.from]
        );
        prop_assert!(
            on_boundary(*line.last().unwrap(), &l.nodes[e.to]),
            "{:?} ends off its consumer {:?}",
            line,
            l.nodes[e.to]
        );
        if dag {
            prop_assert!(l.nodes[e.from].y + l.nodes[e.from].height < l.nodes[e.to].y, "DAG edges go down");
            prop_assert!(line.windows(2).all(|w| w[0].1 <= w[1].1 + EPS), "{:?} goes up", line);
        }
        if budgeted {
            // Bends run between boxes, never through one.
            for &p in &line[1..line.len() - 1] {
                prop_assert!(!l.nodes.iter().any(|b| strictly_inside(p, b)), "bend {:?} inside a box", p);
            }
        }
    }
    Ok(())
}

/// Every number in a drawing attribute has at most one decimal.
fn one_decimal(value: &str) -> bool {
    value
        .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .filter(|t| !t.is_empty())
        .all(|t| t.parse::<f64>().is_ok() && t.split('.').nth(1).is_none_or(|d| d.len() == 1))
}

fn check_svg(g: &Graph, l: &Layout, text: &str) -> Result<(), TestCaseError> {
    let doc = roxmltree::Document::parse(text).map_err(|e| TestCaseError::fail(format!("not XML: {e}\n{text}")))?;
    let root = doc.root_element();
    prop_assert_eq!(root.tag_name().name(), "svg");
    prop_assert!(
        root.attribute("viewBox").is_some() && root.attribute("width").is_some() && root.attribute("height").is_some()
    );
    prop_assert_eq!(doc.root().children().filter(|c| c.is_element()).count(), 1);
    for node in doc.descendants().filter(|d| d.is_element()) {
        prop_assert!(node.tag_name().name() != "script" && node.tag_name().name() != "foreignObject");
        for a in node.attributes() {
            prop_assert!(a.name() != "href", "external reference");
            if ["x", "y", "width", "height", "rx", "ry", "d", "viewBox"].contains(&a.name()) {
                prop_assert!(one_decimal(a.value()), "{}={:?}", a.name(), a.value());
            }
        }
    }
    let groups: Vec<_> = doc
        .descendants()
        .filter(|d| d.has_tag_name("g") && d.attribute("class").is_some_and(|c| c.starts_with("node ")))
        .collect();
    prop_assert_eq!(groups.len(), g.nodes.len());
    for (group, node) in groups.iter().zip(&g.nodes) {
        prop_assert_eq!(group.attribute("class").unwrap(), format!("node {}", node.kind.name()));
        prop_assert_eq!(group.attribute("id").unwrap(), format!("n-{}", xml_visible(&node.id)));
        prop_assert_eq!(group.attribute("data-label").unwrap(), xml_visible(&node.label));
        let title = group.children().find(|c| c.has_tag_name("title")).unwrap();
        prop_assert_eq!(title.text().unwrap_or(""), xml_visible(&node.label));
        prop_assert!(group.children().any(|c| c.has_tag_name("rect")));
        prop_assert!(group.children().any(|c| c.has_tag_name("text")));
    }
    let paths: Vec<_> =
        doc.descendants().filter(|d| d.has_tag_name("path") && d.attribute("class") == Some("edge")).collect();
    let drawn: Vec<_> = g.edges.iter().zip(&l.edges).filter(|(_, line)| line.len() >= 2).map(|(e, _)| e).collect();
    prop_assert_eq!(paths.len(), drawn.len());
    for (path, edge) in paths.iter().zip(drawn) {
        let title = path.children().find(|c| c.has_tag_name("title")).unwrap();
        prop_assert_eq!(title.text().unwrap_or(""), xml_visible(&edge.label));
        prop_assert!(path.attribute("marker-end").is_some_and(|m| m.starts_with("url(#")));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn random_dags(g in graph(40, true)) {
        let l = layout(&g);
        check_layout(&g, &l, true, true)?;
        let s = svg(&g, &l);
        check_svg(&g, &l, &s)?;
        prop_assert_eq!(&layout(&g), &l, "layout is deterministic");
        prop_assert_eq!(svg(&g, &l), s, "svg is deterministic");
    }

    #[test]
    fn damaged_graphs(g in graph(40, false)) {
        let l = layout(&g);
        check_layout(&g, &l, false, true)?;
        check_svg(&g, &l, &svg(&g, &l))?;
        prop_assert_eq!(layout(&g), l);
    }

    #[test]
    fn without_dummies_edges_are_straight(g in graph(30, false)) {
        let o = LayoutOptions { max_dummies: Some(0), order_sweeps: 1, ..Default::default() };
        let l = layout_with(&g, &o);
        check_layout(&g, &l, false, false)?;
        check_svg(&g, &l, &svg(&g, &l))?;
    }
}

/// Boxes of a layer do not overlap, checked by sorting (the graph is too
/// big for all pairs).
fn assert_layers_apart(l: &Layout) {
    let mut boxes = l.nodes.clone();
    boxes.sort_by(|a, b| a.y.total_cmp(&b.y).then(a.x.total_cmp(&b.x)));
    for w in boxes.windows(2) {
        if w[0].y == w[1].y {
            assert!(w[0].x + w[0].width <= w[1].x + EPS, "{:?} overlaps {:?}", w[0], w[1]);
        } else {
            assert!(w[0].y + w[0].height <= w[1].y, "layers overlap");
        }
    }
}

fn assert_edges_attached(g: &Graph, l: &Layout) {
    for (e, line) in g.edges.iter().zip(&l.edges) {
        assert!(on_boundary(line[0], &l.nodes[e.from]));
        assert!(on_boundary(*line.last().unwrap(), &l.nodes[e.to]));
        assert!(l.nodes[e.from].y < l.nodes[e.to].y);
    }
}

#[test]
fn twenty_thousand_nodes() {
    let g = chain_and_fanout(20_000);
    assert_eq!(g.nodes.len(), 20_000);
    let l = layout(&g);
    assert_eq!(l.nodes.len(), 20_000);
    assert_layers_apart(&l);
    assert_edges_attached(&g, &l);
    let s = svg(&g, &l);
    assert_eq!(s.matches("<g class=\"node ").count(), 20_000);
    assert_eq!(s.matches("<path class=\"edge\"").count(), g.edges.len());
    // The mask's long edges share one trunk: its out-port is one point.
    let mask_starts: Vec<_> = g
        .edges
        .iter()
        .zip(&l.edges)
        .filter(|(e, line)| e.from == 1 && line.len() > 2)
        .map(|(_, line)| line[0])
        .collect();
    assert!(mask_starts.len() > 100 && mask_starts.iter().all(|&p| p == mask_starts[0]));
}

#[test]
fn a_wide_layer_of_constants() {
    let mut g = wide(5001);
    g.nodes.push(Node { id: "out".into(), label: "out".into(), kind: NodeKind::Output });
    g.edges.push(Edge { from: 5000, to: 5001, label: "float32 [5000]".into() });
    let l = layout(&g);
    assert_layers_apart(&l);
    assert_edges_attached(&g, &l);
    // The consumer sits under the middle of its inputs.
    let centre = |b: &Placed| b.x + b.width / 2.0;
    let mut inputs: Vec<f64> = l.nodes[..5000].iter().map(centre).collect();
    inputs.sort_by(f64::total_cmp);
    let op = centre(&l.nodes[5000]);
    assert!(inputs[2400] <= op && op <= inputs[2600], "{op} not between {} and {}", inputs[2400], inputs[2600]);
}

#[test]
fn crossings_are_removed_from_a_twisted_graph() {
    // Two producers whose consumers come in the opposite order.
    let node = |i: usize, kind| Node { id: format!("v{i}"), label: format!("v{i}"), kind };
    let g = Graph {
        name: "twist".into(),
        nodes: vec![
            node(0, NodeKind::Input),
            node(1, NodeKind::Input),
            node(2, NodeKind::Operator),
            node(3, NodeKind::Operator),
        ],
        edges: vec![Edge { from: 0, to: 3, label: String::new() }, Edge { from: 1, to: 2, label: String::new() }],
    };
    let l = layout(&g);
    assert_eq!(l.nodes[0].x < l.nodes[1].x, l.nodes[3].x < l.nodes[2].x);
}

#[test]
fn long_labels_are_cut_in_the_box_and_whole_in_the_title() {
    let label = format!("{}<end>", "a".repeat(200));
    let g = Graph {
        name: "long".into(),
        nodes: vec![Node { id: "op0".into(), label: label.clone(), kind: NodeKind::Operator }],
        edges: vec![],
    };
    let l = layout(&g);
    let s = svg(&g, &l);
    let doc = roxmltree::Document::parse(&s).unwrap();
    let text = doc.descendants().find(|d| d.has_tag_name("text")).unwrap().text().unwrap();
    assert!(text.ends_with('…') && text.chars().count() == 40, "{text}");
    let title = doc.descendants().find(|d| d.has_tag_name("title")).unwrap().text().unwrap();
    assert_eq!(title, label);
    assert!(l.nodes[0].width < 40.0 * 8.0 + 20.0);
}

#[test]
fn edge_labels_only_on_small_graphs() {
    let small = chain_and_fanout(20);
    let big = chain_and_fanout(400);
    assert!(small.edges.len() <= 300 && big.edges.len() > 300);
    let small_svg = svg(&small, &layout(&small));
    assert_eq!(small_svg.matches("class=\"edge-label\"").count(), small.edges.len());
    assert_eq!(svg(&big, &layout(&big)).matches("class=\"edge-label\"").count(), 0);
}

#[test]
fn empty_graph() {
    let g = Graph::default();
    let l = layout(&g);
    assert!(l.nodes.is_empty() && l.edges.is_empty() && l.width > 0.0);
    roxmltree::Document::parse(&svg(&g, &l)).unwrap();
}

/// The points of a path's `d` (`M x,y L x,y ...`).
fn path_points(d: &str) -> Vec<(f64, f64)> {
    d.split(['M', 'L'])
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (x, y) = p.split_once(',').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect()
}

/// Whether the segment `a`-`b` meets the rectangle `[x0, x1] × [y0, y1]`
/// (sampled finely: the segments are short).
fn crosses(a: (f64, f64), b: (f64, f64), (x0, x1, y0, y1): (f64, f64, f64, f64)) -> bool {
    (0..=200).map(|i| f64::from(i) / 200.0).any(|t| {
        let (x, y) = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
        x > x0 && x < x1 && y > y0 && y < y1
    })
}

/// An edge's label is written beside its line, not over it: the text's box
/// (10 units high, 6 per character in the monospace font) misses every
/// segment of the edge it labels, and a halo keeps it readable over others.
#[test]
fn edge_labels_sit_beside_their_edge() {
    for g in [chain_and_fanout(60), wide(6)] {
        let s = svg(&g, &layout(&g));
        let doc = roxmltree::Document::parse(&s).unwrap();
        let edges: Vec<_> =
            doc.descendants().filter(|d| d.has_tag_name("path") && d.attribute("class") == Some("edge")).collect();
        let labels: Vec<_> = doc.descendants().filter(|d| d.attribute("class") == Some("edge-label")).collect();
        assert_eq!(edges.len(), labels.len());
        for (edge, label) in edges.iter().zip(&labels) {
            let points = path_points(edge.attribute("d").unwrap());
            let x: f64 = label.attribute("x").unwrap().parse().unwrap();
            let y: f64 = label.attribute("y").unwrap().parse().unwrap();
            assert_eq!(label.attribute("dy"), Some("0.35em"), "y is the text's middle");
            let width = label.text().unwrap().chars().count() as f64 * 6.0;
            let (x0, x1) = match label.attribute("text-anchor").unwrap() {
                "start" => (x, x + width),
                "end" => (x - width, x),
                _ => (x - width / 2.0, x + width / 2.0),
            };
            let area = (x0, x1, y - 5.0, y + 5.0);
            assert!(
                !points.windows(2).any(|w| crosses(w[0], w[1], area)),
                "label {:?} at {area:?} is over its edge {points:?}",
                label.text()
            );
            assert_eq!(label.attribute("stroke"), Some("#ffffff"), "a halo");
            assert_eq!(label.attribute("paint-order"), Some("stroke"));
        }
    }
}

/// `svg_file` is an SVG file of its own: an XML prolog, the root in the SVG
/// namespace, the method's name as its title, and the nodes of the graph.
#[test]
fn a_standalone_svg_file_has_its_prolog_and_namespace() {
    let g = chain_and_fanout(12);
    let file = pte_report::layout::svg_file(&g);
    assert!(file.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "), "{:.100}", file);
    let doc = roxmltree::Document::parse(&file).unwrap();
    let root = doc.root_element();
    assert_eq!(root.tag_name().namespace(), Some("http://www.w3.org/2000/svg"));
    assert_eq!(root.first_element_child().unwrap().text(), Some("forward"));
    let ids: Vec<&str> = doc
        .descendants()
        .filter(|d| d.attribute("class").is_some_and(|c| c.starts_with("node ")))
        .map(|d| d.attribute("id").unwrap())
        .collect();
    assert_eq!(ids, g.nodes.iter().map(|n| format!("n-{}", n.id)).collect::<Vec<_>>());
    // the page's drawing has neither
    assert!(svg(&g, &layout(&g)).starts_with("<svg "));
}

#[test]
fn the_bench_chain_stays_within_its_node_count() {
    let g = chain_and_fanout(100);
    assert!(g.nodes.len() <= 100 && g.edges.len() > 60);
}

#[test]
fn the_bench_wide_layer_feeds_one_operator() {
    let g = wide(11);
    assert_eq!((g.nodes.len(), g.edges.len()), (11, 10));
}
