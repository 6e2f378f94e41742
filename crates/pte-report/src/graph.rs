//! A method's dataflow, independent of the kind of file it came from and of
//! how it is drawn: nodes are the method's inputs and outputs, its stored
//! tensors and its instructions; edges are tensor values.

/// What a node stands for.
///
/// ```
/// assert_eq!(pte_report::graph::NodeKind::Operator.name(), "operator");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum NodeKind {
    /// A method input.
    Input,
    /// A method output.
    Output,
    /// A stored tensor: a constant, a mutable buffer or an EXTERNAL tensor.
    Data,
    /// A kernel call.
    Operator,
    /// A delegate call.
    Delegate,
    /// A move between two values.
    Move,
}

impl NodeKind {
    /// The lowercase name used in CSS classes and JSON.
    ///
    /// ```
    /// assert_eq!(pte_report::graph::NodeKind::Data.name(), "data");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            NodeKind::Input => "input",
            NodeKind::Output => "output",
            NodeKind::Data => "data",
            NodeKind::Operator => "operator",
            NodeKind::Delegate => "delegate",
            NodeKind::Move => "move",
        }
    }
}

/// One node of a dataflow graph.
///
/// ```
/// let n = pte_report::graph::Node { id: "op0".into(), label: "aten::add.out".into(), kind: pte_report::graph::NodeKind::Operator };
/// assert_eq!(n.kind.name(), "operator");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// A stable identifier, unique in the graph (`in0`, `op3`, `v12`, `out0`).
    pub id: String,
    /// What is drawn in the node: an operator name, a tensor name.
    pub label: String,
    /// What the node stands for.
    pub kind: NodeKind,
}

/// One edge: a tensor value flowing from one node to another.
///
/// ```
/// let e = pte_report::graph::Edge { from: 0, to: 1, label: "float32 [2, 2]".into() };
/// assert!(e.from < e.to);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    /// Index of the producing node in [`Graph::nodes`].
    pub from: usize,
    /// Index of the consuming node in [`Graph::nodes`].
    pub to: usize,
    /// The value's dtype and shape, as the CLI prints them.
    pub label: String,
}

/// The dataflow graph of one method.
///
/// ```
/// let g = pte_report::graph::Graph::default();
/// assert!(g.nodes.is_empty() && g.edges.is_empty());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Graph {
    /// The method's name.
    pub name: String,
    /// The nodes, in program order (inputs first, outputs last).
    pub nodes: Vec<Node>,
    /// The edges; their endpoints index `nodes`.
    pub edges: Vec<Edge>,
}

mod native;
mod plan;

pub use native::of_native;
pub use plan::{of_plan, of_plan_view};
