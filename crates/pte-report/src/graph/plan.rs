//! The dataflow of a `.pte` execution plan (also the program a `.bpte`
//! embeds). A program does not mark which arguments a kernel writes: a value
//! is taken to be produced by the first instruction that names it (the
//! out-variant convention the exporter follows) and consumed by later ones.

use pte_schema::{ExecutionPlan, InstructionArguments, KernelTypes, Tensor};

use super::{Edge, Graph, Node, NodeKind};
use pte_core::style;

/// `float32 [<=2, 16]`: the dtype and shape an edge carries.
fn tensor_label(t: &Tensor) -> String {
    let dynamism = t.shape_dynamism.name().unwrap_or("");
    format!("{} {}", style::dtype(&t.scalar_type.to_string()), style::dynamic_shape(t.sizes.iter().flatten(), dynamism))
}

/// Whether the value's data is stored (a constant, a mutable buffer, an
/// EXTERNAL tensor) rather than computed.
fn is_stored(t: &Tensor) -> bool {
    t.is_external() || t.data_buffer_idx > 0 || (t.allocation_info.is_some() && t.fqn().is_some())
}

/// The operator's name with its overload (`aten::add.out`).
fn operator_name(plan: &ExecutionPlan, op_index: i32) -> String {
    let op = usize::try_from(op_index).ok().and_then(|o| plan.operators.as_ref()?.get(o));
    op.map_or_else(
        || format!("operator {op_index}"),
        |o| match o.overload.as_deref() {
            Some(ov) if !ov.is_empty() => format!("{}.{ov}", o.name.as_deref().unwrap_or("")),
            _ => o.name.clone().unwrap_or_default(),
        },
    )
}

fn push(g: &mut Graph, id: String, label: String, kind: NodeKind) -> usize {
    g.nodes.push(Node { id, label, kind });
    g.nodes.len().saturating_sub(1)
}

/// The dataflow of one plan: its inputs, every instruction (kernel calls,
/// delegate calls, moves), the stored tensors they read and its outputs, in
/// program order; an edge per value flowing between them, labelled with
/// its dtype and shape.
///
/// ```
/// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte"))?;
/// let pte = pte_file::PteFile::from_bytes(&bytes)?;
/// let g = pte_report::graph::of_plan(&pte.program.plans()[0]);
/// let labels: Vec<&str> = g.nodes.iter().map(|n| n.label.as_str()).collect();
/// assert_eq!(labels, ["input 0", "input 1", "aten::add.out", "output 0"]);
/// assert_eq!(g.edges.len(), 3);
/// assert_eq!(g.edges[0].label, "float32 [3, 5]");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn of_plan(plan: &ExecutionPlan) -> Graph {
    let values = plan.value_list();
    let value = |i: i32| usize::try_from(i).ok().and_then(|i| values.get(i)).and_then(|v| v.val.as_ref());
    let tensor = |i: i32| match value(i) {
        Some(KernelTypes::Tensor(t)) => Some(t),
        _ => None,
    };
    // each value's label is made once, however many edges carry it
    let mut labels: Vec<Option<String>> = vec![None; values.len()];
    let mut label = |i: i32, t: &Tensor| -> String {
        match usize::try_from(i).ok().and_then(|i| labels.get_mut(i)) {
            Some(slot) => slot.get_or_insert_with(|| tensor_label(t)).clone(),
            None => tensor_label(t),
        }
    };
    let operators: Vec<String> = (0..plan.operators.as_ref().map_or(0, Vec::len))
        .map(|o| operator_name(plan, i32::try_from(o).unwrap_or(-1)))
        .collect();
    let mut g = Graph { name: plan.name.clone().unwrap_or_default(), ..Graph::default() };
    // the node that holds each value now: the one that produced it
    let mut producer: Vec<Option<usize>> = vec![None; values.len()];
    let slot = |i: i32| usize::try_from(i).ok();
    for (k, &i) in plan.inputs.iter().flatten().enumerate() {
        let n = push(&mut g, format!("in{k}"), format!("input {k}"), NodeKind::Input);
        if let Some(p) = slot(i).and_then(|i| producer.get_mut(i)) {
            *p = Some(n);
        }
    }
    let mut n = 0usize;
    let mut members: Vec<i32> = vec![];
    let mut produced: Vec<i32> = vec![];
    for ins in plan.chains.iter().flatten().flat_map(|c| c.instructions.iter().flatten()) {
        let move_args;
        let (label_text, kind, args): (String, NodeKind, &[i32]) = match &ins.instr_args {
            Some(InstructionArguments::KernelCall { op_index, args }) => {
                let name = usize::try_from(*op_index).ok().and_then(|o| operators.get(o)).cloned();
                (
                    name.unwrap_or_else(|| operator_name(plan, *op_index)),
                    NodeKind::Operator,
                    args.as_deref().unwrap_or(&[]),
                )
            }
            Some(InstructionArguments::DelegateCall { delegate_index, args }) => {
                let d = usize::try_from(*delegate_index).ok().and_then(|d| plan.delegates.as_ref()?.get(d));
                let id = d.and_then(|d| d.id.clone()).unwrap_or_else(|| format!("delegate {delegate_index}"));
                (format!("delegate {id}"), NodeKind::Delegate, args.as_deref().unwrap_or(&[]))
            }
            Some(InstructionArguments::MoveCall { move_from, move_to }) => {
                move_args = [*move_from, *move_to];
                ("move".into(), NodeKind::Move, &move_args[..])
            }
            _ => continue,
        };
        let op = push(&mut g, format!("op{n}"), label_text, kind);
        n = n.saturating_add(1);
        // a list's members are read one by one
        members.clear();
        for &i in args {
            match value(i) {
                Some(KernelTypes::TensorList(Some(items))) => members.extend_from_slice(items),
                Some(KernelTypes::OptionalTensorList(Some(items))) => {
                    members.extend(items.iter().copied().filter(|&x| x >= 0))
                }
                _ => members.push(i),
            }
        }
        produced.clear();
        for &a in &members {
            let Some(t) = tensor(a) else { continue };
            let held = slot(a).and_then(|i| producer.get(i)).copied().flatten();
            let from = match held {
                Some(p) => Some(p),
                None if is_stored(t) => {
                    let name = t.fqn().map_or_else(|| format!("constant {}", t.data_buffer_idx), str::to_string);
                    let d = push(&mut g, format!("v{a}"), name, NodeKind::Data);
                    if let Some(p) = slot(a).and_then(|i| producer.get_mut(i)) {
                        *p = Some(d);
                    }
                    Some(d)
                }
                None => None,
            };
            match from {
                Some(f) if f != op => {
                    let l = label(a, t);
                    g.edges.push(Edge { from: f, to: op, label: l });
                }
                Some(_) => {}
                None => produced.push(a),
            }
        }
        for &a in &produced {
            if let Some(p) = slot(a).and_then(|i| producer.get_mut(i)) {
                *p = Some(op);
            }
        }
    }
    for (k, &o) in plan.outputs.iter().flatten().enumerate() {
        let out = push(&mut g, format!("out{k}"), format!("output {k}"), NodeKind::Output);
        let from = slot(o).and_then(|i| producer.get(i)).copied().flatten();
        if let (Some(from), Some(t)) = (from, tensor(o)) {
            let l = label(o, t);
            g.edges.push(Edge { from, to: out, label: l });
        }
    }
    g
}
