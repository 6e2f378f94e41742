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

/// The kind of node a [`NodeId`] names, which gives its prefix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Prefix {
    In,
    Op,
    Value,
    Out,
}

/// A node's identifier (`in0`, `op3`, `v12`, `out0`), made from its prefix
/// and number when written: a graph of a million nodes stores no id text.
///
/// ```
/// use pte_report::graph::{Endpoint, Graph, Sink};
/// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
/// let pte = pte_file::PteFile::from_bytes(&bytes)?;
/// struct Ids(Vec<String>);
/// impl Sink for Ids {
///     fn node(&mut self, at: Endpoint, _: pte_report::graph::NodeKind, _: &str) {
///         self.0.push(at.id.to_string());
///     }
///     fn edge(&mut self, _: Endpoint, _: Endpoint, _: &str) {}
/// }
/// let mut ids = Ids(vec![]);
/// pte_report::graph::walk_plan(&pte.program.plans()[0], &mut ids);
/// assert_eq!(ids.0, ["in0", "in1", "op0", "out0"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NodeId {
    prefix: Prefix,
    n: u64,
}

impl NodeId {
    pub(crate) fn input(n: usize) -> Self {
        NodeId { prefix: Prefix::In, n: n as u64 }
    }
    pub(crate) fn op(n: usize) -> Self {
        NodeId { prefix: Prefix::Op, n: n as u64 }
    }
    pub(crate) fn value(n: u64) -> Self {
        NodeId { prefix: Prefix::Value, n }
    }
    pub(crate) fn output(n: usize) -> Self {
        NodeId { prefix: Prefix::Out, n: n as u64 }
    }
}

impl std::fmt::Display for NodeId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let prefix = match self.prefix {
            Prefix::In => "in",
            Prefix::Op => "op",
            Prefix::Value => "v",
            Prefix::Out => "out",
        };
        write!(f, "{prefix}{}", self.n)
    }
}

/// A node as a walk gives it: its place among the nodes (the index
/// [`Edge::from`] and [`Edge::to`] use) and its identifier.
///
/// ```
/// let g = pte_report::graph::Graph::default();
/// assert!(g.nodes.is_empty());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Endpoint {
    /// The node's index in program order, from 0.
    pub index: usize,
    /// Its identifier.
    pub id: NodeId,
}

/// What a walk of a method's dataflow ([`walk_plan`], [`walk_plan_view`],
/// [`walk_native`]) tells, in order: the method's name, then every node and
/// edge as [`Graph`] would hold them (an edge comes after both its nodes).
/// A receiver that writes or counts as it is told holds nothing per node:
/// the text of a million-node graph need not be built to be printed.
///
/// ```
/// use pte_report::graph::{Endpoint, NodeKind, Sink};
/// #[derive(Default)]
/// struct Count { nodes: usize, edges: usize }
/// impl Sink for Count {
///     fn wants_edge_labels(&self) -> bool { false }
///     fn node(&mut self, _: Endpoint, _: NodeKind, _: &str) { self.nodes += 1 }
///     fn edge(&mut self, _: Endpoint, _: Endpoint, _: &str) { self.edges += 1 }
/// }
/// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
/// let view = pte_file::view::PteView::read(&bytes, Default::default())?;
/// let mut count = Count::default();
/// pte_report::graph::walk_plan_view(&view.program().plan(0).unwrap(), &mut count);
/// assert_eq!((count.nodes, count.edges), (4, 3));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Sink {
    /// The method's name, before anything else.
    fn method(&mut self, name: &str) {
        let _ = name;
    }
    /// Whether [`Sink::edge`] wants the edges' labels: without them (`""`
    /// is passed) the walk formats none.
    fn wants_edge_labels(&self) -> bool {
        true
    }
    /// A node, in program order.
    fn node(&mut self, at: Endpoint, kind: NodeKind, label: &str);
    /// An edge: a value flowing from one node to another, labelled with its
    /// dtype and shape.
    fn edge(&mut self, from: Endpoint, to: Endpoint, label: &str);
}

/// A [`Graph`] is built by being told its walk.
impl Sink for Graph {
    fn method(&mut self, name: &str) {
        self.name = name.to_string();
    }
    fn node(&mut self, at: Endpoint, kind: NodeKind, label: &str) {
        debug_assert_eq!(at.index, self.nodes.len());
        self.nodes.push(Node { id: at.id.to_string(), label: label.to_string(), kind });
    }
    fn edge(&mut self, from: Endpoint, to: Endpoint, label: &str) {
        self.edges.push(Edge { from: from.index, to: to.index, label: label.to_string() });
    }
}

mod labels;
mod native;
mod plan;

pub use native::{of_native, walk_native};
pub use plan::{of_plan, of_plan_view, walk_plan, walk_plan_view};
