//! A zero-copy view of a verified `program.ptg`, for tools that only need
//! names and counts without building the owned model.

use crate::fenced::nb;
use crate::limits::Limits;
use pte_core::{Error, ErrorKind, Result};

use super::decode::{verify_native_root, MAX_GRAPH_NESTING};

/// A verified native program borrowed from its bytes.
///
/// ```
/// use pte_schema::native::*;
/// let p = NativeProgram { version: Some("1".into()), methods: vec![NativeMethod::named("forward")] };
/// let bytes = encode_native_program(&p)?;
/// let v = NativeProgramView::new(&bytes, &Default::default())?;
/// assert_eq!(v.version(), Some("1"));
/// assert_eq!(v.method_names().collect::<Vec<_>>(), ["forward"]);
/// # Ok::<(), pte_schema::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct NativeProgramView<'a> {
    root: nb::Program<'a>,
}

impl std::fmt::Debug for NativeProgramView<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NativeProgramView")
            .field("version", &self.version())
            .field("methods", &self.method_count())
            .finish()
    }
}

/// One method of a [`NativeProgramView`].
///
/// ```
/// use pte_schema::native::*;
/// let bytes = encode_native_program(&NativeProgram { version: None, methods: vec![NativeMethod::named("f")] })?;
/// let m = NativeProgramView::new(&bytes, &Default::default())?.method(0).unwrap();
/// assert_eq!((m.name(), m.node_count(), m.constant_count()), ("f", 0, 0));
/// # Ok::<(), pte_schema::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct NativeMethodView<'a> {
    method: nb::Method<'a>,
}

impl std::fmt::Debug for NativeMethodView<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NativeMethodView").field("name", &self.name()).finish()
    }
}

impl<'a> NativeProgramView<'a> {
    /// Verifies `bytes` under `limits`.
    ///
    /// ```
    /// assert!(pte_schema::native::NativeProgramView::new(b"nope", &Default::default()).is_err());
    /// ```
    pub fn new(bytes: &'a [u8], limits: &Limits) -> Result<Self> {
        Ok(NativeProgramView { root: verify_native_root(bytes, limits)? })
    }

    /// The schema version string.
    ///
    /// ```
    /// # let bytes = pte_schema::native::encode_native_program(&Default::default())?;
    /// let v = pte_schema::native::NativeProgramView::new(&bytes, &Default::default())?;
    /// assert_eq!(v.version(), None);
    /// # Ok::<(), pte_schema::Error>(())
    /// ```
    pub fn version(&self) -> Option<&'a str> {
        self.root.version()
    }

    /// Number of methods.
    ///
    /// ```
    /// # let bytes = pte_schema::native::encode_native_program(&Default::default())?;
    /// assert_eq!(pte_schema::native::NativeProgramView::new(&bytes, &Default::default())?.method_count(), 0);
    /// # Ok::<(), pte_schema::Error>(())
    /// ```
    pub fn method_count(&self) -> usize {
        self.root.methods().len()
    }

    /// Method `i`, `None` when out of range.
    ///
    /// ```
    /// # let bytes = pte_schema::native::encode_native_program(&Default::default())?;
    /// assert!(pte_schema::native::NativeProgramView::new(&bytes, &Default::default())?.method(0).is_none());
    /// # Ok::<(), pte_schema::Error>(())
    /// ```
    pub fn method(&self, i: usize) -> Option<NativeMethodView<'a>> {
        let methods = self.root.methods();
        (i < methods.len()).then(|| NativeMethodView { method: methods.get(i) })
    }

    /// Method names in file order.
    ///
    /// ```
    /// # let bytes = pte_schema::native::encode_native_program(&Default::default())?;
    /// assert_eq!(pte_schema::native::NativeProgramView::new(&bytes, &Default::default())?.method_names().count(), 0);
    /// # Ok::<(), pte_schema::Error>(())
    /// ```
    pub fn method_names(&self) -> impl Iterator<Item = &'a str> + 'a + use<'a> {
        self.root.methods().iter().map(|m| m.name())
    }
}

impl<'a> NativeMethodView<'a> {
    /// Method name.
    ///
    /// ```
    /// # let bytes = pte_schema::native::encode_native_program(&pte_schema::native::NativeProgram { version: None, methods: vec![pte_schema::native::NativeMethod::named("g")] })?;
    /// assert_eq!(pte_schema::native::NativeProgramView::new(&bytes, &Default::default())?.method(0).unwrap().name(), "g");
    /// # Ok::<(), pte_schema::Error>(())
    /// ```
    pub fn name(&self) -> &'a str {
        self.method.name()
    }

    /// Nodes in the top-level graph.
    ///
    /// ```
    /// # let bytes = pte_schema::native::encode_native_program(&pte_schema::native::NativeProgram { version: None, methods: vec![pte_schema::native::NativeMethod::named("g")] })?;
    /// assert_eq!(pte_schema::native::NativeProgramView::new(&bytes, &Default::default())?.method(0).unwrap().node_count(), 0);
    /// # Ok::<(), pte_schema::Error>(())
    /// ```
    pub fn node_count(&self) -> usize {
        self.method.graph().nodes().len()
    }

    /// Constant bindings.
    ///
    /// ```
    /// # let bytes = pte_schema::native::encode_native_program(&pte_schema::native::NativeProgram { version: None, methods: vec![pte_schema::native::NativeMethod::named("g")] })?;
    /// assert_eq!(pte_schema::native::NativeProgramView::new(&bytes, &Default::default())?.method(0).unwrap().constant_count(), 0);
    /// # Ok::<(), pte_schema::Error>(())
    /// ```
    pub fn constant_count(&self) -> usize {
        self.method.constants().map_or(0, |c| c.len())
    }

    /// `(placeholder name, data key)` of each constant binding.
    ///
    /// ```
    /// # let bytes = pte_schema::native::encode_native_program(&pte_schema::native::NativeProgram { version: None, methods: vec![pte_schema::native::NativeMethod::named("g")] })?;
    /// let m = pte_schema::native::NativeProgramView::new(&bytes, &Default::default())?.method(0).unwrap();
    /// assert_eq!(m.data_keys().count(), 0);
    /// # Ok::<(), pte_schema::Error>(())
    /// ```
    pub fn data_keys(&self) -> impl Iterator<Item = (&'a str, &'a str)> + 'a + use<'a> {
        self.method.constants().into_iter().flatten().map(|c| (c.name(), c.data_key()))
    }

    /// Graph input names.
    ///
    /// ```
    /// # let bytes = pte_schema::native::encode_native_program(&pte_schema::native::NativeProgram { version: None, methods: vec![pte_schema::native::NativeMethod::named("g")] })?;
    /// let m = pte_schema::native::NativeProgramView::new(&bytes, &Default::default())?.method(0).unwrap();
    /// assert_eq!(m.inputs().count(), 0);
    /// # Ok::<(), pte_schema::Error>(())
    /// ```
    pub fn inputs(&self) -> impl Iterator<Item = &'a str> + 'a + use<'a> {
        self.method.graph().inputs().into_iter().flatten()
    }

    /// Graph output names.
    ///
    /// ```
    /// # let bytes = pte_schema::native::encode_native_program(&pte_schema::native::NativeProgram { version: None, methods: vec![pte_schema::native::NativeMethod::named("g")] })?;
    /// let m = pte_schema::native::NativeProgramView::new(&bytes, &Default::default())?.method(0).unwrap();
    /// assert_eq!(m.outputs().count(), 0);
    /// # Ok::<(), pte_schema::Error>(())
    /// ```
    pub fn outputs(&self) -> impl Iterator<Item = &'a str> + 'a + use<'a> {
        self.method.graph().outputs().into_iter().flatten()
    }

    /// Hands `f` the target of every operator call (`CALL_FUNCTION` node)
    /// of the method in graph order, the calls inside the subgraph operands
    /// of a higher-order operator right after that operator's own call.
    /// Subgraphs nested deeper than [`MAX_GRAPH_NESTING`] are a
    /// `LimitExceeded` error.
    ///
    /// ```
    /// use pte_schema::native::*;
    /// let mut m = NativeMethod::named("forward");
    /// m.graph.nodes.push(Node { name: "x".into(), op_kind: OpKind::PLACEHOLDER, ..Default::default() });
    /// m.graph.nodes.push(Node { name: "y".into(), target: Some("torch.ops.aten.relu.default".into()), ..Default::default() });
    /// let bytes = encode_native_program(&NativeProgram { version: None, methods: vec![m] })?;
    /// let view = NativeProgramView::new(&bytes, &Default::default())?;
    /// let mut targets = vec![];
    /// view.method(0).unwrap().visit_calls(&mut |t| targets.push(t))?;
    /// assert_eq!(targets, [Some("torch.ops.aten.relu.default")]);
    /// # Ok::<(), pte_schema::Error>(())
    /// ```
    pub fn visit_calls(&self, f: &mut dyn FnMut(Option<&'a str>)) -> Result<()> {
        visit_graph(self.method.graph(), 0, f)
    }
}

/// [`NativeMethodView::visit_calls`] over one graph at nesting `depth`.
fn visit_graph<'a>(g: nb::Graph<'a>, depth: usize, f: &mut dyn FnMut(Option<&'a str>)) -> Result<()> {
    if depth > MAX_GRAPH_NESTING {
        return Err(Error::new(
            ErrorKind::LimitExceeded,
            format!("subgraphs nest deeper than {MAX_GRAPH_NESTING} levels"),
        ));
    }
    for node in g.nodes() {
        if node.op_kind() != nb::OpKind::CALL_FUNCTION {
            continue;
        }
        f(node.target());
        for arg in node.inputs().into_iter().flatten() {
            if let Some(sub) = arg.arg().value_as_graph_arg() {
                visit_graph(sub.graph(), depth.saturating_add(1), f)?;
            }
        }
    }
    Ok(())
}
