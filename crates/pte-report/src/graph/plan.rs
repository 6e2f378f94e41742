//! The dataflow of a `.pte` execution plan (also the program a `.bpte`
//! embeds). A program does not mark which arguments a kernel writes: a value
//! is taken to be produced by the first instruction that names it (the
//! out-variant convention the exporter follows) and consumed by later ones.

use pte_schema::{
    ExecutionPlan, InstructionArguments, InstructionRef, KernelTypes, PlanView, Tensor, TensorView, ValueRef,
};

use super::labels::Labels;
use super::{Endpoint, Graph, NodeId, NodeKind, Sink};
use pte_core::style;
use std::fmt::Write as _;

/// What an edge and a stored-data node need of a tensor, read from the
/// decoded model or in place.
trait TensorFacts {
    /// `float32 [<=2, 16]`: the dtype and shape an edge carries.
    fn label(&self) -> String;
    /// Whether the value's data is stored (a constant, a mutable buffer,
    /// an EXTERNAL tensor) rather than computed.
    fn is_stored(&self) -> bool;
    /// Writes the stored-data node's name: its key, else its constant index.
    fn data_name(&self, out: &mut String);
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
    fn data_name(&self, out: &mut String) {
        match self.fqn() {
            Some(n) => out.push_str(n),
            None => {
                let _ = write!(out, "constant {}", self.data_buffer_idx);
            }
        }
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
    fn data_name(&self, out: &mut String) {
        match self.fqn() {
            Some(n) => out.push_str(n),
            None => {
                let _ = write!(out, "constant {}", self.data_buffer_idx());
            }
        }
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
    fn name(&self) -> &str;
    fn value_count(&self) -> usize;
    fn tensor(&self, i: i32) -> Option<Self::Tensor>;
    /// Appends the tensors argument `i` passes: a list's members one by
    /// one (an optional list's present ones), else `i` itself.
    fn members(&self, i: i32, out: &mut Vec<i32>);
    fn inputs(&self) -> Vec<i32>;
    fn outputs(&self) -> Vec<i32>;
    /// The operator's name and overload.
    fn operator(&self, op_index: i32) -> Option<(Option<&str>, Option<&str>)>;
    fn delegate_id(&self, delegate_index: i32) -> Option<&str>;
    /// Calls `f` with each drawn instruction and its arguments, in order.
    fn each_instruction(&self, f: &mut dyn FnMut(Step, &mut dyn Iterator<Item = i32>));
}

/// Writes `aten::add.out` (an operator's name with its overload).
fn operator_label(out: &mut String, name: Option<&str>, overload: Option<&str>) {
    out.push_str(name.unwrap_or(""));
    if let Some(ov) = overload.filter(|ov| !ov.is_empty()) {
        out.push('.');
        out.push_str(ov);
    }
}

fn at<T>(list: Option<&Vec<T>>, i: i32) -> Option<&T> {
    usize::try_from(i).ok().and_then(|i| list?.get(i))
}

impl<'p> PlanFacts for &'p ExecutionPlan {
    type Tensor = &'p Tensor;
    fn name(&self) -> &str {
        self.name.as_deref().unwrap_or_default()
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
    fn operator(&self, op_index: i32) -> Option<(Option<&str>, Option<&str>)> {
        at(self.operators.as_ref(), op_index).map(|o| (o.name.as_deref(), o.overload.as_deref()))
    }
    fn delegate_id(&self, delegate_index: i32) -> Option<&str> {
        at(self.delegates.as_ref(), delegate_index).and_then(|d| d.id.as_deref())
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

/// A plan read in place, with its delegates' ids gathered once (the view
/// reaches the n-th delegate by walking to it).
struct InPlace<'a> {
    plan: PlanView<'a>,
    delegates: Vec<Option<&'a str>>,
}

impl<'a> PlanFacts for InPlace<'a> {
    type Tensor = TensorView<'a>;
    fn name(&self) -> &str {
        self.plan.name().unwrap_or_default()
    }
    fn value_count(&self) -> usize {
        self.plan.value_count()
    }
    fn tensor(&self, i: i32) -> Option<TensorView<'a>> {
        match usize::try_from(i).ok().and_then(|i| self.plan.value_ref(i)) {
            Some(ValueRef::Tensor(t)) => Some(t),
            _ => None,
        }
    }
    fn members(&self, i: i32, out: &mut Vec<i32>) {
        match usize::try_from(i).ok().and_then(|i| self.plan.value_ref(i)) {
            Some(ValueRef::TensorList(Some(items))) => out.extend(items.iter()),
            Some(ValueRef::OptionalTensorList(Some(items))) => out.extend(items.iter().filter(|&x| x >= 0)),
            _ => out.push(i),
        }
    }
    fn inputs(&self) -> Vec<i32> {
        self.plan.inputs()
    }
    fn outputs(&self) -> Vec<i32> {
        self.plan.outputs()
    }
    fn operator(&self, op_index: i32) -> Option<(Option<&str>, Option<&str>)> {
        usize::try_from(op_index).ok().and_then(|o| self.plan.operator(o))
    }
    fn delegate_id(&self, delegate_index: i32) -> Option<&str> {
        usize::try_from(delegate_index).ok().and_then(|d| self.delegates.get(d)).copied().flatten()
    }
    fn each_instruction(&self, f: &mut dyn FnMut(Step, &mut dyn Iterator<Item = i32>)) {
        for chain in self.plan.chains().into_iter().flatten() {
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

/// The dataflow of one plan: its inputs, every instruction (kernel calls,
/// delegate calls, moves), the stored tensors they read and its outputs, in
/// program order; an edge per value flowing between them, labelled with
/// its dtype and shape.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
/// let pte = pte_file::PteFile::from_bytes(&bytes)?;
/// let g = pte_report::graph::of_plan(&pte.program.plans()[0]);
/// let labels: Vec<&str> = g.nodes.iter().map(|n| n.label.as_str()).collect();
/// assert_eq!(labels, ["input 0", "input 1", "aten::add.out", "output 0"]);
/// assert_eq!(g.edges.len(), 3);
/// assert_eq!(g.edges[0].label, "float32 [3, 5]");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn of_plan(plan: &ExecutionPlan) -> Graph {
    let mut g = Graph::default();
    walk_plan(plan, &mut g);
    g
}

/// [`of_plan`] of a plan read in place: the same graph, from a
/// [`pte_schema::ProgramView`] rather than the decoded model, so drawing a
/// method holds the graph and a label per value, not the program.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
/// let view = pte_file::view::PteView::read(&bytes, Default::default())?;
/// let g = pte_report::graph::of_plan_view(&view.program().plan(0).unwrap());
/// let pte = pte_file::PteFile::from_bytes(&bytes)?;
/// assert_eq!(g, pte_report::graph::of_plan(&pte.program.plans()[0]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn of_plan_view(plan: &PlanView<'_>) -> Graph {
    let mut g = Graph::default();
    walk_plan_view(plan, &mut g);
    g
}

/// Tells `sink` the dataflow [`of_plan`] builds, node by node and edge by
/// edge, holding nothing per node: a receiver that writes as it is told
/// prints a graph of any size in little memory.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
/// let pte = pte_file::PteFile::from_bytes(&bytes)?;
/// let mut g = pte_report::graph::Graph::default();
/// pte_report::graph::walk_plan(&pte.program.plans()[0], &mut g);
/// assert_eq!(g, pte_report::graph::of_plan(&pte.program.plans()[0]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn walk_plan(plan: &ExecutionPlan, sink: &mut dyn Sink) {
    walk(&plan, sink);
}

/// [`walk_plan`] of a plan read in place.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
/// let view = pte_file::view::PteView::read(&bytes, Default::default())?;
/// let mut g = pte_report::graph::Graph::default();
/// pte_report::graph::walk_plan_view(&view.program().plan(0).unwrap(), &mut g);
/// assert_eq!(g.nodes.len(), 4);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn walk_plan_view(plan: &PlanView<'_>, sink: &mut dyn Sink) {
    let delegates = plan.delegates().map(|d| d.map(|d| d.id()).collect()).unwrap_or_default();
    walk(&InPlace { plan: *plan, delegates }, sink);
}

/// Numbers the nodes as they are told.
struct Told<'s> {
    sink: &'s mut dyn Sink,
    nodes: usize,
}

impl Told<'_> {
    fn node(&mut self, id: NodeId, kind: NodeKind, label: &str) -> Endpoint {
        let at = Endpoint { index: self.nodes, id };
        self.nodes = self.nodes.saturating_add(1);
        self.sink.node(at, kind, label);
        at
    }
}

fn walk<P: PlanFacts>(plan: &P, sink: &mut dyn Sink) {
    let nvalues = plan.value_count();
    let want_labels = sink.wants_edge_labels();
    // each distinct label is made once, however many edges carry it
    let mut labels = Labels::new(if want_labels { nvalues } else { 0 });
    sink.method(plan.name());
    let mut told = Told { sink, nodes: 0 };
    // the node that holds each value now: the one that produced it
    let mut producer: Vec<Option<Endpoint>> = vec![None; nvalues];
    let slot = |i: i32| usize::try_from(i).ok();
    let mut text = String::new();
    for (k, &i) in plan.inputs().iter().enumerate() {
        text.clear();
        let _ = write!(text, "input {k}");
        let n = told.node(NodeId::input(k), NodeKind::Input, &text);
        if let Some(p) = slot(i).and_then(|i| producer.get_mut(i)) {
            *p = Some(n);
        }
    }
    let mut n = 0usize;
    let mut members: Vec<i32> = vec![];
    let mut produced: Vec<i32> = vec![];
    plan.each_instruction(&mut |step, args| {
        text.clear();
        let kind = match step {
            Step::Kernel(op_index) => {
                match plan.operator(op_index) {
                    Some((name, overload)) => operator_label(&mut text, name, overload),
                    None => {
                        let _ = write!(text, "operator {op_index}");
                    }
                }
                NodeKind::Operator
            }
            Step::Delegate(delegate_index) => {
                let _ = match plan.delegate_id(delegate_index) {
                    Some(id) => write!(text, "delegate {id}"),
                    None => write!(text, "delegate delegate {delegate_index}"),
                };
                NodeKind::Delegate
            }
            Step::Move => {
                text.push_str("move");
                NodeKind::Move
            }
        };
        let op = told.node(NodeId::op(n), kind, &text);
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
                    text.clear();
                    t.data_name(&mut text);
                    let id = NodeId::value(u64::try_from(a).unwrap_or(0));
                    let d = told.node(id, NodeKind::Data, &text);
                    if let Some(p) = slot(a).and_then(|i| producer.get_mut(i)) {
                        *p = Some(d);
                    }
                    Some(d)
                }
                None => None,
            };
            match from {
                Some(f) if f.index != op.index => {
                    let l = if want_labels { labels.get(a, || t.label()) } else { "" };
                    told.sink.edge(f, op, l);
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
        text.clear();
        let _ = write!(text, "output {k}");
        let out = told.node(NodeId::output(k), NodeKind::Output, &text);
        let from = slot(o).and_then(|i| producer.get(i)).copied().flatten();
        if let (Some(from), Some(t)) = (from, plan.tensor(o)) {
            let l = if want_labels { labels.get(o, || t.label()) } else { "" };
            told.sink.edge(from, out, l);
        }
    }
}
