//! The dataflow of a `.ptn` method, from its native (NPTG) graph, in the
//! same shape `pte graph` draws for a `.pte`: the method's inputs and
//! outputs, its constants and buffers (by data key or fqn) and every
//! operator call as nodes; tensor values as edges labelled with dtype and
//! shape. Unlike a `.pte`, the graph names each value and its producer, so
//! nothing is inferred.

use std::collections::BTreeMap;

use pte_schema::native::{ArgumentValue, NativeMethod, OpKind, TensorMeta};

use crate::dataflow::Graph;
use crate::style;

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

/// The dataflow of one native method.
pub(crate) fn build(m: &NativeMethod) -> Graph {
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
    let mut producer: BTreeMap<&str, String> = BTreeMap::new();
    for (k, name) in m.graph.inputs.iter().flatten().enumerate() {
        let id = format!("in{k}");
        g.nodes.push((id.clone(), format!("input {k}: {name}"), "input"));
        producer.insert(name.as_str(), id);
    }
    let (mut n, mut stored_n) = (0usize, 0usize);
    for node in &m.graph.nodes {
        match node.op_kind {
            OpKind::PLACEHOLDER => {
                for o in node.outputs.iter().flatten() {
                    if producer.contains_key(o.name.as_str()) {
                        continue;
                    }
                    let id = format!("v{stored_n}");
                    stored_n = stored_n.saturating_add(1);
                    let shown = stored.get(o.name.as_str()).cloned().unwrap_or_else(|| o.name.clone());
                    g.nodes.push((id.clone(), shown, "data"));
                    producer.insert(o.name.as_str(), id);
                }
            }
            OpKind::CALL_FUNCTION => {
                let id = format!("op{n}");
                n = n.saturating_add(1);
                let target = node.target.as_deref().unwrap_or(&node.name);
                g.nodes.push((id.clone(), target.strip_prefix("torch.ops.").unwrap_or(target).to_string(), "op"));
                for a in node.inputs.iter().flatten() {
                    for t in a.arg.value.as_ref().map(tensors_read).unwrap_or_default() {
                        if let Some(from) = producer.get(t) {
                            g.edges.push((from.clone(), id.clone(), label(t)));
                        }
                    }
                }
                let outs = node.outputs.iter().flatten();
                for name in outs.flat_map(|o| std::iter::once(&o.name).chain(o.names.iter().flatten())) {
                    if !name.is_empty() {
                        producer.insert(name.as_str(), id.clone());
                    }
                }
            }
            // the graph's output list says the same, in order
            _ => {}
        }
    }
    for (k, name) in m.graph.outputs.iter().flatten().enumerate() {
        let id = format!("out{k}");
        g.nodes.push((id.clone(), format!("output {k}"), "output"));
        if let Some(from) = producer.get(name.as_str()) {
            g.edges.push((from.clone(), id, label(name)));
        }
    }
    g
}
