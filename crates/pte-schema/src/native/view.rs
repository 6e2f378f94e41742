//! A zero-copy view of a verified `program.ptg`, for tools that only need
//! names and counts without building the owned model.

use crate::fenced::nb;
use crate::limits::Limits;
use pte_core::Result;

use super::decode::verify_native_root;

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
    pub fn method_names(&self) -> impl Iterator<Item = &'a str> + 'a {
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
    pub fn data_keys(&self) -> impl Iterator<Item = (&'a str, &'a str)> + 'a {
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
    pub fn inputs(&self) -> impl Iterator<Item = &'a str> + 'a {
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
    pub fn outputs(&self) -> impl Iterator<Item = &'a str> + 'a {
        self.method.graph().outputs().into_iter().flatten()
    }
}
