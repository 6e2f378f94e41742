//! The dataflow of a `.pte` execution plan (also the program a `.bpte`
//! embeds). A program does not mark which arguments a kernel writes: a value
//! is taken to be produced by the first instruction that names it (the
//! out-variant convention the exporter follows) and consumed by later ones.

use pte_schema::{
    ExecutionPlan, InstructionArguments, InstructionRef, KernelTypes, PlanView, Tensor, TensorView, ValueRef,
};

use super::{Edge, Graph, Node, NodeKind};
use pte_core::style;

/// What an edge and a stored-data node need of a tensor, read from the
/// decoded model or in place.
trait TensorFacts {
    /// `float32 [<=2, 16]`: the dtype and shape an edge carries.
    fn label(&self) -> String;
    /// Whether the value's data is stored (a constant, a mutable buffer,
    /// an EXTERNAL tensor) rather than computed.
    fn is_stored(&self) -> bool;
    /// The stored-data node's name: its key, else its constant index.
    fn data_name(&self) -> String;
}

impl TensorFacts for &Tensor {
    fn label(&self) -> String {
        let dynamism = self.shape_dynamism.name().unwrap_or("");
        format!(
            "{} {}",
            style::dtype(&self.scalar_type.to_string()),
            style::dynamic_shape(self.sizes.iter().flatten(), dynamism)
        )
    }
    fn is_stored(&self) -> bool {
        self.is_external() || self.data_buffer_idx > 0 || (self.allocation_info.is_some() && self.fqn().is_some())
    }
    fn data_name(&self) -> String {
        self.fqn().map_or_else(|| format!("constant {}", self.data_buffer_idx), str::to_string)
    }
}

impl TensorFacts for TensorView<'_> {
    fn label(&self) -> String {
        let dynamism = self.shape_dynamism().name().unwrap_or("");
        let sizes = self.sizes().into_iter().flat_map(|s| s.iter());
        format!("{} {}", style::dtype(&self.scalar_type().to_string()), style::dynamic_shape(sizes, dynamism))
    }
    fn is_stored(&self) -> bool {
        self.is_external() || self.data_buffer_idx() > 0 || (self.allocation_info().is_some() && self.fqn().is_some())
    }
    fn data_name(&self) -> String {
        self.fqn().map_or_else(|| format!("constant {}", self.data_buffer_idx()), str::to_string)
    }
}

/// One instruction as the graph draws it.
enum Step {
    Kernel(i32),
    Delegate(i32),
    Move,
}

/// What the graph reads of a plan, from the decoded model or in place:
/// one walk serves both, so the two cannot drift.
trait PlanFacts {
    type Tensor: TensorFacts;
    fn name(&self) -> String;
    fn value_count(&self) -> usize;
    fn tensor(&self, i: i32) -> Option<Self::Tensor>;
    /// Appends the tensors argument `i` passes: a list's members one by
    /// one (an optional list's present ones), else `i` itself.
    fn members(&self, i: i32, out: &mut Vec<i32>);
    fn inputs(&self) -> Vec<i32>;
    fn outputs(&self) -> Vec<i32>;
    fn operator_count(&self) -> usize;
    /// The operator's name with its overload (`aten::add.out`).
    fn operator_name(&self, op_index: i32) -> String;
    fn delegate_id(&self, delegate_index: i32) -> Option<String>;
    /// Calls `f` with each drawn instruction and its arguments, in order.
    fn each_instruction(&self, f: &mut dyn FnMut(Step, &mut dyn Iterator<Item = i32>));
}

fn operator_label(name: Option<&str>, overload: Option<&str>) -> String {
    match overload {
        Some(ov) if !ov.is_empty() => format!("{}.{ov}", name.unwrap_or("")),
        _ => name.unwrap_or_default().to_string(),
    }
}

impl<'p> PlanFacts for &'p ExecutionPlan {
    type Tensor = &'p Tensor;
    fn name(&self) -> String {
        self.name.clone().unwrap_or_default()
    }
    fn value_count(&self) -> usize {
        self.value_list().len()
    }
    fn tensor(&self, i: i32) -> Option<&'p Tensor> {
        match usize::try_from(i).ok().and_then(|i| self.value_list().get(i)).and_then(|v| v.val.as_ref()) {
            Some(KernelTypes::Tensor(t)) => Some(t),
            _ => None,
        }
    }
    fn members(&self, i: i32, out: &mut Vec<i32>) {
        match usize::try_from(i).ok().and_then(|i| self.value_list().get(i)).and_then(|v| v.val.as_ref()) {
            Some(KernelTypes::TensorList(Some(items))) => out.extend_from_slice(items),
            Some(KernelTypes::OptionalTensorList(Some(items))) => out.extend(items.iter().copied().filter(|&x| x >= 0)),
            _ => out.push(i),
        }
    }
    fn inputs(&self) -> Vec<i32> {
        self.inputs.clone().unwrap_or_default()
    }
    fn outputs(&self) -> Vec<i32> {
        self.outputs.clone().unwrap_or_default()
    }
    fn operator_count(&self) -> usize {
        self.operators.as_ref().map_or(0, Vec::len)
    }
    fn operator_name(&self, op_index: i32) -> String {
        let op = usize::try_from(op_index).ok().and_then(|o| self.operators.as_ref()?.get(o));
        op.map_or_else(|| format!("operator {op_index}"), |o| operator_label(o.name.as_deref(), o.overload.as_deref()))
    }
    fn delegate_id(&self, delegate_index: i32) -> Option<String> {
        let d = usize::try_from(delegate_index).ok().and_then(|d| self.delegates.as_ref()?.get(d));
        d.and_then(|d| d.id.clone())
    }
    fn each_instruction(&self, f: &mut dyn FnMut(Step, &mut dyn Iterator<Item = i32>)) {
        for ins in self.chains.iter().flatten().flat_map(|c| c.instructions.iter().flatten()) {
            match &ins.instr_args {
                Some(InstructionArguments::KernelCall { op_index, args }) => {
                    f(Step::Kernel(*op_index), &mut args.iter().flatten().copied())
                }
                Some(InstructionArguments::DelegateCall { delegate_index, args }) => {
                    f(Step::Delegate(*delegate_index), &mut args.iter().flatten().copied())
                }
                Some(InstructionArguments::MoveCall { move_from, move_to }) => {
                    f(Step::Move, &mut [*move_from, *move_to].into_iter())
                }
                _ => {}
            }
        }
    }
}

impl<'a> PlanFacts for PlanView<'a> {
    type Tensor = TensorView<'a>;
    fn name(&self) -> String {
        PlanView::name(self).unwrap_or_default().to_string()
    }
    fn value_count(&self) -> usize {
        PlanView::value_count(self)
    }
    fn tensor(&self, i: i32) -> Option<TensorView<'a>> {
        match usize::try_from(i).ok().and_then(|i| self.value_ref(i)) {
            Some(ValueRef::Tensor(t)) => Some(t),
            _ => None,
        }
    }
    fn members(&self, i: i32, out: &mut Vec<i32>) {
        match usize::try_from(i).ok().and_then(|i| self.value_ref(i)) {
            Some(ValueRef::TensorList(Some(items))) => out.extend(items.iter()),
            Some(ValueRef::OptionalTensorList(Some(items))) => out.extend(items.iter().filter(|&x| x >= 0)),
            _ => out.push(i),
        }
    }
    fn inputs(&self) -> Vec<i32> {
        PlanView::inputs(self)
    }
    fn outputs(&self) -> Vec<i32> {
        PlanView::outputs(self)
    }
    fn operator_count(&self) -> usize {
        PlanView::operator_count(self)
    }
    fn operator_name(&self, op_index: i32) -> String {
        match usize::try_from(op_index).ok().and_then(|o| self.operator(o)) {
            Some((name, overload)) => operator_label(name, overload),
            None => format!("operator {op_index}"),
        }
    }
    fn delegate_id(&self, delegate_index: i32) -> Option<String> {
        let d = usize::try_from(delegate_index).ok()?;
        self.delegates()?.nth(d)?.id().map(str::to_string)
    }
    fn each_instruction(&self, f: &mut dyn FnMut(Step, &mut dyn Iterator<Item = i32>)) {
        for chain in self.chains().into_iter().flatten() {
            for ins in chain.instructions().into_iter().flatten() {
                match ins {
                    InstructionRef::KernelCall { op_index, args } => {
                        f(Step::Kernel(op_index), &mut args.into_iter().flat_map(|a| a.iter()))
                    }
                    InstructionRef::DelegateCall { delegate_index, args } => {
                        f(Step::Delegate(delegate_index), &mut args.into_iter().flat_map(|a| a.iter()))
                    }
                    InstructionRef::MoveCall { move_from, move_to } => {
                        f(Step::Move, &mut [move_from, move_to].into_iter())
                    }
                    _ => {}
                }
            }
        }
    }
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
    graph_of(&plan)
}

/// [`of_plan`] of a plan read in place: the same graph, from a
/// [`pte_schema::ProgramView`] rather than the decoded model, so drawing a
/// method holds the graph and a label per value, not the program.
///
/// ```
/// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte"))?;
/// let view = pte_file::view::PteView::read(&bytes, Default::default())?;
/// let g = pte_report::graph::of_plan_view(&view.program().plan(0).unwrap());
/// let pte = pte_file::PteFile::from_bytes(&bytes)?;
/// assert_eq!(g, pte_report::graph::of_plan(&pte.program.plans()[0]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn of_plan_view(plan: &PlanView<'_>) -> Graph {
    graph_of(plan)
}

fn graph_of<P: PlanFacts>(plan: &P) -> Graph {
    let nvalues = plan.value_count();
    // each value's label is made once, however many edges carry it
    let mut labels: Vec<Option<String>> = vec![None; nvalues];
    let mut label = |i: i32, t: &P::Tensor| -> String {
        match usize::try_from(i).ok().and_then(|i| labels.get_mut(i)) {
            Some(slot) => slot.get_or_insert_with(|| t.label()).clone(),
            None => t.label(),
        }
    };
    let operators: Vec<String> =
        (0..plan.operator_count()).map(|o| plan.operator_name(i32::try_from(o).unwrap_or(-1))).collect();
    let mut g = Graph { name: plan.name(), ..Graph::default() };
    // the node that holds each value now: the one that produced it
    let mut producer: Vec<Option<usize>> = vec![None; nvalues];
    let slot = |i: i32| usize::try_from(i).ok();
    for (k, &i) in plan.inputs().iter().enumerate() {
        let n = push(&mut g, format!("in{k}"), format!("input {k}"), NodeKind::Input);
        if let Some(p) = slot(i).and_then(|i| producer.get_mut(i)) {
            *p = Some(n);
        }
    }
    let mut n = 0usize;
    let mut members: Vec<i32> = vec![];
    let mut produced: Vec<i32> = vec![];
    plan.each_instruction(&mut |step, args| {
        let (label_text, kind) = match step {
            Step::Kernel(op_index) => {
                let name = usize::try_from(op_index).ok().and_then(|o| operators.get(o)).cloned();
                (name.unwrap_or_else(|| plan.operator_name(op_index)), NodeKind::Operator)
            }
            Step::Delegate(delegate_index) => {
                let id = plan.delegate_id(delegate_index).unwrap_or_else(|| format!("delegate {delegate_index}"));
                (format!("delegate {id}"), NodeKind::Delegate)
            }
            Step::Move => ("move".into(), NodeKind::Move),
        };
        let op = push(&mut g, format!("op{n}"), label_text, kind);
        n = n.saturating_add(1);
        // a list's members are read one by one
        members.clear();
        for i in args {
            plan.members(i, &mut members);
        }
        produced.clear();
        for &a in &members {
            let Some(t) = plan.tensor(a) else { continue };
            let held = slot(a).and_then(|i| producer.get(i)).copied().flatten();
            let from = match held {
                Some(p) => Some(p),
                None if t.is_stored() => {
                    let d = push(&mut g, format!("v{a}"), t.data_name(), NodeKind::Data);
                    if let Some(p) = slot(a).and_then(|i| producer.get_mut(i)) {
                        *p = Some(d);
                    }
                    Some(d)
                }
                None => None,
            };
            match from {
                Some(f) if f != op => {
                    let l = label(a, &t);
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
    });
    for (k, &o) in plan.outputs().iter().enumerate() {
        let out = push(&mut g, format!("out{k}"), format!("output {k}"), NodeKind::Output);
        let from = slot(o).and_then(|i| producer.get(i)).copied().flatten();
        if let (Some(from), Some(t)) = (from, plan.tensor(o)) {
            let l = label(o, &t);
            g.edges.push(Edge { from, to: out, label: l });
        }
    }
    g
}
