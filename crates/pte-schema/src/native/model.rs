//! The owned native-program model. Field names follow the schema; optional
//! vectors and strings are `Option` so absent and empty stay distinct.

use std::collections::BTreeSet;

use super::enums::*;

/// Root of `program.ptg`: one or more named methods sharing constant data.
///
/// ```
/// use pte_schema::native::*;
/// let p = NativeProgram { version: Some("1".into()), methods: vec![NativeMethod::named("forward")] };
/// assert_eq!(p.methods[0].name, "forward");
/// ```
#[derive(Clone, Debug, PartialEq, Default)]
pub struct NativeProgram {
    /// Schema version (`"1"` for the current exporter).
    pub version: Option<String>,
    /// Methods, in file order.
    pub methods: Vec<NativeMethod>,
}

/// A named method: its graph and the bindings that carry state.
///
/// ```
/// let m = pte_schema::native::NativeMethod::named("decode");
/// assert!(m.graph.nodes.is_empty());
/// ```
#[derive(Clone, Debug, PartialEq, Default)]
pub struct NativeMethod {
    /// Method name (`forward`).
    pub name: String,
    /// The method body.
    pub graph: Graph,
    /// Placeholders bound to tensors in the package's constant file.
    pub constants: Option<Vec<NamedTensorRef>>,
    /// Classification of each graph output.
    pub output_specs: Option<Vec<OutputSpec>>,
    /// State without stored bytes (zero-initialised at load).
    pub mutable_buffers: Option<Vec<MutableBufferSpec>>,
}

impl NativeMethod {
    /// An empty method with the given name.
    ///
    /// ```
    /// assert_eq!(pte_schema::native::NativeMethod::named("f").name, "f");
    /// ```
    pub fn named(name: impl Into<String>) -> Self {
        NativeMethod { name: name.into(), ..Default::default() }
    }
}

/// An fx graph in topological order; also the body of a subgraph operand.
///
/// ```
/// let g = pte_schema::native::Graph::default();
/// assert!(g.inputs.is_none());
/// ```
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Graph {
    /// Nodes in topological order.
    pub nodes: Vec<Node>,
    /// Input value names, in order.
    pub inputs: Option<Vec<String>>,
    /// Output value names, in order.
    pub outputs: Option<Vec<String>>,
    /// Tensor metadata per value name.
    pub tensor_values: Option<Vec<TensorValue>>,
}

/// One fx node.
///
/// ```
/// let n = pte_schema::native::Node { name: "add".into(), ..Default::default() };
/// assert_eq!(n.op_kind, pte_schema::native::OpKind::CALL_FUNCTION);
/// ```
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Node {
    /// SSA name of the node's value.
    pub name: String,
    /// Node kind.
    pub op_kind: OpKind,
    /// Operator (`torch.ops.aten.add.Tensor`).
    pub target: Option<String>,
    /// Arguments.
    pub inputs: Option<Vec<NamedArgument>>,
    /// Produced values.
    pub outputs: Option<Vec<Output>>,
    /// Free-form key/value metadata.
    pub metadata: Option<Vec<KeyValue>>,
}

/// A positional or keyword argument.
///
/// ```
/// use pte_schema::native::*;
/// let a = NamedArgument { name: Some("alpha".into()), arg: Argument { value: Some(ArgumentValue::Int { value: 1, r#ref: None }) }, mutated: false };
/// assert!(!a.mutated);
/// ```
#[derive(Clone, Debug, PartialEq, Default)]
pub struct NamedArgument {
    /// Operator parameter name.
    pub name: Option<String>,
    /// The value.
    pub arg: Argument,
    /// Whether the operator writes this input in place.
    pub mutated: bool,
}

/// Wrapper of the `ArgumentValue` union; `None` when no member is set.
///
/// ```
/// assert!(pte_schema::native::Argument::default().value.is_none());
/// ```
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Argument {
    /// The union member.
    pub value: Option<ArgumentValue>,
}

/// The members of the `ArgumentValue` union, in schema order (tags 1 to 13).
///
/// ```
/// use pte_schema::native::ArgumentValue;
/// assert_eq!(ArgumentValue::None.tag(), 2);
/// assert_eq!(ArgumentValue::FloatList(vec![]).type_name(), "FloatListArg");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum ArgumentValue {
    /// A tensor value by SSA name.
    Tensor {
        /// Value name.
        name: String,
    },
    /// Python `None`.
    None,
    /// An int literal, or a reference to an in-graph int when `ref` is non-empty.
    Int {
        /// Literal.
        value: i64,
        /// Reference overriding the literal.
        r#ref: Option<String>,
    },
    /// A float literal or reference.
    Float {
        /// Literal.
        value: f64,
        /// Reference overriding the literal.
        r#ref: Option<String>,
    },
    /// A bool literal or reference.
    Bool {
        /// Literal.
        value: bool,
        /// Reference overriding the literal.
        r#ref: Option<String>,
    },
    /// A string.
    String(String),
    /// A dtype operand.
    ScalarType(NativeScalarType),
    /// A list of ints, with optional per-element references.
    IntList {
        /// Literals.
        values: Vec<i64>,
        /// Parallel references; a non-empty entry overrides the literal.
        refs: Option<Vec<String>>,
    },
    /// A list of floats.
    FloatList(Vec<f64>),
    /// A list of bools.
    BoolList(Vec<bool>),
    /// A list of tensor names.
    TensorList(Vec<String>),
    /// A list of optional tensor names.
    OptionalTensorList {
        /// Names, meaningful where `has_value` is true.
        names: Vec<String>,
        /// Presence flags.
        has_value: Vec<bool>,
    },
    /// A subgraph operand of a higher-order op.
    Graph {
        /// Submodule label (debug only).
        name: String,
        /// The subgraph.
        graph: Box<Graph>,
    },
}

impl ArgumentValue {
    /// The union tag on the wire.
    ///
    /// ```
    /// assert_eq!(pte_schema::native::ArgumentValue::TensorList(vec![]).tag(), 11);
    /// ```
    pub fn tag(&self) -> u8 {
        match self {
            Self::Tensor { .. } => 1,
            Self::None => 2,
            Self::Int { .. } => 3,
            Self::Float { .. } => 4,
            Self::Bool { .. } => 5,
            Self::String(_) => 6,
            Self::ScalarType(_) => 7,
            Self::IntList { .. } => 8,
            Self::FloatList(_) => 9,
            Self::BoolList(_) => 10,
            Self::TensorList(_) => 11,
            Self::OptionalTensorList { .. } => 12,
            Self::Graph { .. } => 13,
        }
    }

    /// The schema's table name of the member (`IntArg`).
    ///
    /// ```
    /// assert_eq!(pte_schema::native::ArgumentValue::None.type_name(), "NoneArg");
    /// ```
    pub fn type_name(&self) -> &'static str {
        ARGUMENT_TYPE_NAMES.get(usize::from(self.tag())).copied().unwrap_or("NONE")
    }
}

/// `ArgumentValue` type names indexed by tag (0 is `NONE`).
pub(crate) const ARGUMENT_TYPE_NAMES: [&str; 14] = [
    "NONE",
    "TensorArg",
    "NoneArg",
    "IntArg",
    "FloatArg",
    "BoolArg",
    "StringArg",
    "ScalarTypeArg",
    "IntListArg",
    "FloatListArg",
    "BoolListArg",
    "TensorListArg",
    "OptionalTensorListArg",
    "GraphArg",
];

/// A value a node produces.
///
/// ```
/// let o = pte_schema::native::Output { name: "x".into(), ..Default::default() };
/// assert_eq!(o.kind, pte_schema::native::OutputValueKind::TENSOR);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Output {
    /// SSA name (empty for a tensor list).
    pub name: String,
    /// Input this output shares storage with.
    pub alias_of: Option<String>,
    /// What is produced.
    pub kind: OutputValueKind,
    /// Element names of a tensor list.
    pub names: Option<Vec<String>>,
}

/// A metadata entry.
///
/// ```
/// let kv = pte_schema::native::KeyValue { key: "stack".into(), value: "".into() };
/// assert_eq!(kv.key, "stack");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct KeyValue {
    /// Key.
    pub key: String,
    /// Value.
    pub value: String,
}

/// A placeholder bound to a tensor in the constant file.
///
/// ```
/// let r = pte_schema::native::NamedTensorRef { name: "p_w".into(), data_key: "w".into(), ..Default::default() };
/// assert!(!r.mutated);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct NamedTensorRef {
    /// Placeholder name in the method graph.
    pub name: String,
    /// Key in `program.safetensors` (or `aliases.json`).
    pub data_key: String,
    /// Declared dtype and shape.
    pub meta: TensorMeta,
    /// Parameter, buffer or constant.
    pub kind: InputKind,
    /// A persistent buffer the method updates: its bytes are state.
    pub mutated: bool,
}

/// Classification of one graph output.
///
/// ```
/// let s = pte_schema::native::OutputSpec { name: "out".into(), ..Default::default() };
/// assert!(s.target.is_none());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct OutputSpec {
    /// Output value name.
    pub name: String,
    /// Result or mutation.
    pub kind: OutputKind,
    /// Mutated buffer fqn or user-input name.
    pub target: Option<String>,
}

/// State with no stored bytes.
///
/// ```
/// let b = pte_schema::native::MutableBufferSpec { name: "b_cache".into(), fqn: "cache".into() };
/// assert_eq!(b.fqn, "cache");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct MutableBufferSpec {
    /// Placeholder name in the method graph.
    pub name: String,
    /// Cross-method identity.
    pub fqn: String,
}

/// Tensor metadata of one graph value.
///
/// ```
/// let v = pte_schema::native::TensorValue { name: "x".into(), meta: Default::default() };
/// assert_eq!(v.name, "x");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct TensorValue {
    /// Value name.
    pub name: String,
    /// Metadata.
    pub meta: TensorMeta,
}

/// dtype, shape ranges, layout and quantization of a tensor.
///
/// ```
/// use pte_schema::native::*;
/// let m = TensorMeta { dtype: NativeScalarType::FLOAT, sizes: Some(vec![Dim::fixed(2), Dim::fixed(3)]), ..Default::default() };
/// assert_eq!(m.static_shape(), Some(vec![2, 3]));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct TensorMeta {
    /// Element type (the storage type when quantized).
    pub dtype: NativeScalarType,
    /// Logical shape as ranges.
    pub sizes: Option<Vec<Dim>>,
    /// Dimension order; absent or empty means contiguous.
    pub dim_order: Option<Vec<i32>>,
    /// Quantization; absent means not quantized.
    pub quant: Option<QuantSpec>,
}

impl TensorMeta {
    /// The shape when every dimension is static and non-negative.
    ///
    /// ```
    /// use pte_schema::native::*;
    /// let m = TensorMeta { sizes: Some(vec![Dim { min: 1, max: 8 }]), ..Default::default() };
    /// assert_eq!(m.static_shape(), None);
    /// ```
    pub fn static_shape(&self) -> Option<Vec<u64>> {
        self.sizes
            .as_deref()
            .unwrap_or(&[])
            .iter()
            .map(|d| (d.min == d.max).then(|| u64::try_from(d.min).ok()).flatten())
            .collect()
    }
}

/// One dimension as a range (`max < 0`: unbounded).
///
/// ```
/// assert_eq!(pte_schema::native::Dim::default().max, -1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dim {
    /// Smallest size.
    pub min: i64,
    /// Largest size, negative when unbounded.
    pub max: i64,
}

impl Default for Dim {
    fn default() -> Self {
        Dim { min: 0, max: -1 }
    }
}

impl Dim {
    /// A static dimension.
    ///
    /// ```
    /// assert_eq!(pte_schema::native::Dim::fixed(4).max, 4);
    /// ```
    pub fn fixed(n: i64) -> Self {
        Dim { min: n, max: n }
    }
}

/// Wrapper of the `QuantScheme` union.
///
/// ```
/// assert!(pte_schema::native::QuantSpec::default().scheme.is_none());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct QuantSpec {
    /// The scheme; `None` when the union is unset.
    pub scheme: Option<QuantScheme>,
}

/// Members of the `QuantScheme` union.
///
/// ```
/// let s = pte_schema::native::QuantScheme::PackedQuant { codec: "mxfp4".into() };
/// assert!(matches!(s, pte_schema::native::QuantScheme::PackedQuant { .. }));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuantScheme {
    /// Group-wise affine quantization.
    AffineGroup(AffineGroup),
    /// Codec-defined packing.
    PackedQuant {
        /// Codec name (`gguf:q4k`).
        codec: String,
    },
}

/// Group-wise affine quantization along the last axis.
///
/// ```
/// let a = pte_schema::native::AffineGroup { scale_data_key: "w.scale".into(), ..Default::default() };
/// assert!(a.zero_point_data_key.is_none());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct AffineGroup {
    /// Key of the scales tensor.
    pub scale_data_key: String,
    /// dtype of the scales.
    pub scale_dtype: NativeScalarType,
    /// Logical range low end (also the storage offset).
    pub quant_min: i32,
    /// Logical range high end.
    pub quant_max: i32,
    /// Group length along the last axis; 0 means per channel.
    pub group_size: i32,
    /// Key of the zero points; absent or empty means symmetric.
    pub zero_point_data_key: Option<String>,
    /// dtype of the zero points.
    pub zero_point_dtype: NativeScalarType,
}

/// A data key the program references, with what it declares about the tensor.
///
/// ```
/// use pte_schema::native::*;
/// let mut m = NativeMethod::named("forward");
/// m.constants = Some(vec![NamedTensorRef { name: "p".into(), data_key: "w".into(), ..Default::default() }]);
/// let p = NativeProgram { version: None, methods: vec![m] };
/// let keys: Vec<_> = p.data_keys().into_iter().map(|r| r.key).collect();
/// assert_eq!(keys, ["w"]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataKeyRef<'p> {
    /// The key.
    pub key: &'p str,
    /// Field path of the reference (`methods[0].constants[1].data_key`).
    pub path: String,
    /// Declared dtype.
    pub dtype: Option<NativeScalarType>,
    /// Declared shape, when static and not quantized (a packed tensor's
    /// stored shape follows its scheme, not its logical sizes).
    pub shape: Option<Vec<u64>>,
}

impl NativeProgram {
    /// Every data key referenced: constant bindings and the scale and zero-point
    /// keys of quantization schemes anywhere (bindings, value metadata, subgraphs).
    ///
    /// ```
    /// assert!(pte_schema::native::NativeProgram::default().data_keys().is_empty());
    /// ```
    pub fn data_keys(&self) -> Vec<DataKeyRef<'_>> {
        let mut out = Vec::new();
        for (i, m) in self.methods.iter().enumerate() {
            for (j, c) in m.constants.iter().flatten().enumerate() {
                let path = format!("methods[{i}].constants[{j}]");
                let shape = if c.meta.quant.is_none() { c.meta.static_shape() } else { None };
                out.push(DataKeyRef {
                    key: &c.data_key,
                    path: format!("{path}.data_key"),
                    dtype: Some(c.meta.dtype),
                    shape,
                });
                quant_keys(&c.meta, &format!("{path}.meta"), &mut out);
            }
            graph_keys(&m.graph, &format!("methods[{i}].graph"), &mut out);
        }
        out
    }

    /// Data keys of persistent mutable buffers (`NamedTensorRef.mutated` in any
    /// method): mutability is package-wide.
    ///
    /// ```
    /// assert!(pte_schema::native::NativeProgram::default().mutable_keys().is_empty());
    /// ```
    pub fn mutable_keys(&self) -> BTreeSet<&str> {
        self.methods
            .iter()
            .flat_map(|m| m.constants.iter().flatten())
            .filter(|c| c.mutated)
            .map(|c| c.data_key.as_str())
            .collect()
    }
}

fn quant_keys<'p>(meta: &'p TensorMeta, path: &str, out: &mut Vec<DataKeyRef<'p>>) {
    if let Some(QuantSpec { scheme: Some(QuantScheme::AffineGroup(a)) }) = &meta.quant {
        let p = format!("{path}.quant.scheme");
        out.push(DataKeyRef {
            key: &a.scale_data_key,
            path: format!("{p}.scale_data_key"),
            dtype: Some(a.scale_dtype),
            shape: None,
        });
        if let Some(z) = a.zero_point_data_key.as_deref().filter(|z| !z.is_empty()) {
            out.push(DataKeyRef {
                key: z,
                path: format!("{p}.zero_point_data_key"),
                dtype: Some(a.zero_point_dtype),
                shape: None,
            });
        }
    }
}

fn graph_keys<'p>(g: &'p Graph, path: &str, out: &mut Vec<DataKeyRef<'p>>) {
    for (k, v) in g.tensor_values.iter().flatten().enumerate() {
        quant_keys(&v.meta, &format!("{path}.tensor_values[{k}].meta"), out);
    }
    for (n, node) in g.nodes.iter().enumerate() {
        for (a, arg) in node.inputs.iter().flatten().enumerate() {
            if let Some(ArgumentValue::Graph { graph, .. }) = &arg.arg.value {
                graph_keys(graph, &format!("{path}.nodes[{n}].inputs[{a}].arg.value.graph"), out);
            }
        }
    }
}
