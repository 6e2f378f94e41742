//! The dataflow of a `.ptn` method, from its native (NPTG) graph, in the
//! same shape as a `.pte` plan's: the method's inputs and outputs, its
//! constants and buffers (by data key or fqn) and every operator call as
//! nodes; tensor values as edges labelled with dtype and shape. Unlike a
//! `.pte`, the graph names each value and its producer, so nothing is
//! inferred.

use std::collections::BTreeMap;

use pte_schema::native::{ArgumentValue, NativeMethod, OpKind, TensorMeta};

use super::{Endpoint, Graph, NodeId, NodeKind, Sink};
use pte_core::style;
use std::fmt::Write as _;

/// `float32 [1..16, 4]`.
fn meta_label(m: &TensorMeta) -> String {
    format!(
        "{} {}",
        style::dtype(&m.dtype.to_string()),
        style::shape(m.sizes.iter().flatten().map(|d| style::dim_range(d.min, d.max)))
    )
}

/// The tensor names an argument reads (lists included; subgraphs are not drawn).
fn tensors_read(v: &ArgumentValue) -> Vec<&str> {
    match v {
        ArgumentValue::Tensor { name } => vec![name.as_str()],
        ArgumentValue::TensorList(names) => names.iter().map(String::as_str).collect(),
        ArgumentValue::OptionalTensorList { names, has_value } => names
            .iter()
            .zip(has_value.iter().chain(std::iter::repeat(&false)))
            .filter(|&(_, &has)| has)
            .map(|(n, _)| n.as_str())
            .collect(),
        _ => vec![],
    }
}

/// The dataflow of one native method.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("native_ptn/model.ptn"))?;
/// let ptn = pte_ptn::PtnFile::from_bytes(&bytes)?;
/// let program = ptn.native_program(&Default::default())?;
/// let g = pte_report::graph::of_native(&program.methods[0]);
/// assert_eq!(g.name, "forward");
/// assert!(g.nodes.iter().any(|n| n.kind == pte_report::graph::NodeKind::Data && n.label == "seq.0.weight"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn of_native(m: &NativeMethod) -> Graph {
    let mut g = Graph::default();
    walk_native(m, &mut g);
    g
}

/// Tells `sink` the dataflow [`of_native`] builds, node by node and edge
/// by edge.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("native_ptn/model.ptn"))?;
/// let ptn = pte_ptn::PtnFile::from_bytes(&bytes)?;
/// let program = ptn.native_program(&Default::default())?;
/// let mut g = pte_report::graph::Graph::default();
/// pte_report::graph::walk_native(&program.methods[0], &mut g);
/// assert_eq!(g, pte_report::graph::of_native(&program.methods[0]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn walk_native(m: &NativeMethod, sink: &mut dyn Sink) {
    let mut metas: BTreeMap<&str, &TensorMeta> =
        m.graph.tensor_values.iter().flatten().map(|t| (t.name.as_str(), &t.meta)).collect();
    // stored tensors: the placeholder's name, the label it is known by outside
    let mut stored: BTreeMap<&str, &str> = BTreeMap::new();
    for c in m.constants.iter().flatten() {
        metas.entry(c.name.as_str()).or_insert(&c.meta);
        stored.insert(c.name.as_str(), c.data_key.as_str());
    }
    for b in m.mutable_buffers.iter().flatten() {
        stored.entry(b.name.as_str()).or_insert(b.fqn.as_str());
    }
    let want_labels = sink.wants_edge_labels();
    let label = |name: &str| {
        if !want_labels {
            return String::new();
        }
        metas.get(name).map_or_else(|| name.to_string(), |m| meta_label(m))
    };
    sink.method(&m.name);
    let mut nodes = 0usize;
    let mut node = |sink: &mut dyn Sink, id: NodeId, kind: NodeKind, label: &str| {
        let at = Endpoint { index: nodes, id };
        nodes = nodes.saturating_add(1);
        sink.node(at, kind, label);
        at
    };
    let mut producer: BTreeMap<&str, Endpoint> = BTreeMap::new();
    let mut text = String::new();
    for (k, name) in m.graph.inputs.iter().flatten().enumerate() {
        text.clear();
        let _ = write!(text, "input {k}: {name}");
        let n = node(sink, NodeId::input(k), NodeKind::Input, &text);
        producer.insert(name.as_str(), n);
    }
    let (mut n, mut stored_n) = (0usize, 0u64);
    for gn in &m.graph.nodes {
        match gn.op_kind {
            OpKind::PLACEHOLDER => {
                for o in gn.outputs.iter().flatten() {
                    if producer.contains_key(o.name.as_str()) {
                        continue;
                    }
                    let shown = stored.get(o.name.as_str()).copied().unwrap_or(o.name.as_str());
                    let d = node(sink, NodeId::value(stored_n), NodeKind::Data, shown);
                    stored_n = stored_n.saturating_add(1);
                    producer.insert(o.name.as_str(), d);
                }
            }
            OpKind::CALL_FUNCTION => {
                let target = gn.target.as_deref().unwrap_or(&gn.name);
                let shown = target.strip_prefix("torch.ops.").unwrap_or(target);
                let op = node(sink, NodeId::op(n), NodeKind::Operator, shown);
                n = n.saturating_add(1);
                for a in gn.inputs.iter().flatten() {
                    for t in a.arg.value.as_ref().map(tensors_read).unwrap_or_default() {
                        if let Some(&from) = producer.get(t) {
                            sink.edge(from, op, &label(t));
                        }
                    }
                }
                let outs = gn.outputs.iter().flatten();
                for name in outs.flat_map(|o| std::iter::once(&o.name).chain(o.names.iter().flatten())) {
                    if !name.is_empty() {
                        producer.insert(name.as_str(), op);
                    }
                }
            }
            // the graph's output list says the same, in order
            _ => {}
        }
    }
    for (k, name) in m.graph.outputs.iter().flatten().enumerate() {
        text.clear();
        let _ = write!(text, "output {k}");
        let out = node(sink, NodeId::output(k), NodeKind::Output, &text);
        if let Some(&from) = producer.get(name.as_str()) {
            sink.edge(from, out, &label(name));
        }
    }
}
