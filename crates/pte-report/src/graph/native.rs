//! The dataflow of a `.ptn` method, from its native (NPTG) graph, in the
//! same shape as a `.pte` plan's: the method's inputs and outputs, its
//! constants and buffers (by data key or fqn) and every operator call as
//! nodes; tensor values as edges labelled with dtype and shape. Unlike a
//! `.pte`, the graph names each value and its producer, so nothing is
//! inferred.

use std::collections::BTreeMap;

use pte_schema::native::{ArgumentValue, NativeMethod, OpKind, TensorMeta};

use super::{Edge, Graph, Node, NodeKind};
use pte_core::style;

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
            .filter(|(_, &has)| has)
            .map(|(n, _)| n.as_str())
            .collect(),
        _ => vec![],
    }
}

fn push(g: &mut Graph, id: String, label: String, kind: NodeKind) -> usize {
    g.nodes.push(Node { id, label, kind });
    g.nodes.len().saturating_sub(1)
}

/// The dataflow of one native method.
///
/// ```
/// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/native_ptn/model.ptn"))?;
/// let ptn = pte_ptn::PtnFile::from_bytes(&bytes)?;
/// let program = ptn.native_program(&Default::default())?;
/// let g = pte_report::graph::of_native(&program.methods[0]);
/// assert_eq!(g.name, "forward");
/// assert!(g.nodes.iter().any(|n| n.kind == pte_report::graph::NodeKind::Data && n.label == "seq.0.weight"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn of_native(m: &NativeMethod) -> Graph {
    let mut metas: BTreeMap<&str, &TensorMeta> =
        m.graph.tensor_values.iter().flatten().map(|t| (t.name.as_str(), &t.meta)).collect();
    // stored tensors: the placeholder's name, the label it is known by outside
    let mut stored: BTreeMap<&str, String> = BTreeMap::new();
    for c in m.constants.iter().flatten() {
        metas.entry(c.name.as_str()).or_insert(&c.meta);
        stored.insert(c.name.as_str(), c.data_key.clone());
    }
    for b in m.mutable_buffers.iter().flatten() {
        stored.entry(b.name.as_str()).or_insert_with(|| b.fqn.clone());
    }
    let label = |name: &str| metas.get(name).map_or_else(|| name.to_string(), |m| meta_label(m));
    let mut g = Graph { name: m.name.clone(), ..Graph::default() };
    let mut producer: BTreeMap<&str, usize> = BTreeMap::new();
    for (k, name) in m.graph.inputs.iter().flatten().enumerate() {
        let n = push(&mut g, format!("in{k}"), format!("input {k}: {name}"), NodeKind::Input);
        producer.insert(name.as_str(), n);
    }
    let (mut n, mut stored_n) = (0usize, 0usize);
    for node in &m.graph.nodes {
        match node.op_kind {
            OpKind::PLACEHOLDER => {
                for o in node.outputs.iter().flatten() {
                    if producer.contains_key(o.name.as_str()) {
                        continue;
                    }
                    let shown = stored.get(o.name.as_str()).cloned().unwrap_or_else(|| o.name.clone());
                    let d = push(&mut g, format!("v{stored_n}"), shown, NodeKind::Data);
                    stored_n = stored_n.saturating_add(1);
                    producer.insert(o.name.as_str(), d);
                }
            }
            OpKind::CALL_FUNCTION => {
                let target = node.target.as_deref().unwrap_or(&node.name);
                let shown = target.strip_prefix("torch.ops.").unwrap_or(target).to_string();
                let op = push(&mut g, format!("op{n}"), shown, NodeKind::Operator);
                n = n.saturating_add(1);
                for a in node.inputs.iter().flatten() {
                    for t in a.arg.value.as_ref().map(tensors_read).unwrap_or_default() {
                        if let Some(&from) = producer.get(t) {
                            g.edges.push(Edge { from, to: op, label: label(t) });
                        }
                    }
                }
                let outs = node.outputs.iter().flatten();
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
        let out = push(&mut g, format!("out{k}"), format!("output {k}"), NodeKind::Output);
        if let Some(&from) = producer.get(name.as_str()) {
            g.edges.push(Edge { from, to: out, label: label(name) });
        }
    }
    g
}
