//! The owned payload model. Field names follow the schema; optional vectors
//! and strings are `Option` so absent and empty stay distinct.
//!
//! Node bodies are kept as a list of named fields in schema order rather than
//! one struct per table: the 47 node kinds share 15 table shapes, and the
//! consumers here (the verifier, `info`, JSON) walk fields by name.

use super::enums::{XNodeKind, XnnDatatype};

/// A decoded `XNNGraph`.
///
/// ```
/// let g = pte_schema::xnnpack::XnnGraph::default();
/// assert!(g.named_keys().next().is_none());
/// ```
#[derive(Clone, Debug, PartialEq, Default)]
pub struct XnnGraph {
    /// Schema version string.
    pub version: Option<String>,
    /// Nodes in definition order.
    pub xnodes: Option<Vec<XNode>>,
    /// Values in definition order (the runtime defines them before any node).
    pub xvalues: Option<Vec<XValue>>,
    /// Number of external values (inputs and outputs) of the subgraph.
    pub num_externs: u32,
    /// External input ids.
    pub input_ids: Option<Vec<u32>>,
    /// External output ids.
    pub output_ids: Option<Vec<u32>>,
    /// Legacy inline constants (payloads without an XH00 header).
    pub constant_buffer: Option<Vec<Buffer>>,
    /// Legacy memory-plan sizes (unused by the runtime).
    pub mem_buffer_sizes: Option<Vec<u32>>,
    /// Where each constant is; index 0 is reserved for "no constant".
    pub constant_data: Option<Vec<ConstantDataOffset>>,
}

impl XnnGraph {
    /// The named-data keys the payload's constants refer to, in table order
    /// (the exporter gives the reserved entry 0 an empty key, which is skipped).
    ///
    /// ```
    /// use pte_schema::xnnpack::*;
    /// let g = XnnGraph { constant_data: Some(vec![
    ///     ConstantDataOffset::default(),
    ///     ConstantDataOffset { offset: u64::MAX, size: 4, named_key: Some("w".into()) },
    /// ]), ..Default::default() };
    /// assert_eq!(g.named_keys().collect::<Vec<_>>(), ["w"]);
    /// ```
    pub fn named_keys(&self) -> impl Iterator<Item = &str> {
        self.constant_data.iter().flatten().filter_map(|c| c.named_key.as_deref()).filter(|k| !k.is_empty())
    }

    /// The tensor of every value, in value order (`None` for a value whose
    /// union is empty or whose quantized wrapper has no tensor).
    ///
    /// ```
    /// let g = pte_schema::xnnpack::XnnGraph::default();
    /// assert_eq!(g.tensors().count(), 0);
    /// ```
    pub fn tensors(&self) -> impl Iterator<Item = Option<&XnnTensorValue>> {
        self.xvalues.iter().flatten().map(XValue::tensor)
    }
}

/// A legacy inline constant.
///
/// ```
/// let b = pte_schema::xnnpack::Buffer { storage: Some(vec![1, 2]) };
/// assert_eq!(b.storage.unwrap().len(), 2);
/// ```
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Buffer {
    /// The constant's bytes.
    pub storage: Option<Vec<u8>>,
}

/// Where one constant's bytes are.
///
/// ```
/// let c = pte_schema::xnnpack::ConstantDataOffset { offset: 64, size: 16, named_key: None };
/// assert!(c.named_key.is_none());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ConstantDataOffset {
    /// Offset into the payload's constant data (when `named_key` is absent).
    pub offset: u64,
    /// Byte length.
    pub size: u64,
    /// The named-data key holding the bytes, when they live outside the payload.
    pub named_key: Option<String>,
}

/// One node.
///
/// ```
/// use pte_schema::xnnpack::*;
/// let n = XNode { kind: XNodeKind::XNNAdd, fields: vec![("input1_id", Field::U32(0))], ..Default::default() };
/// assert_eq!(n.field("input1_id"), Some(&Field::U32(0)));
/// ```
#[derive(Clone, Debug, PartialEq, Default)]
pub struct XNode {
    /// The union tag.
    pub kind: XNodeKind,
    /// The body's fields in schema order; absent vectors are left out.
    /// Empty when the tag is NONE.
    pub fields: Vec<(&'static str, Field)>,
    /// Links the node back to the exported graph.
    pub debug_handle: u32,
    /// Output clamping, when set.
    pub output_min_max: Option<OutputMinMax>,
}

impl XNode {
    /// The field called `name`.
    ///
    /// ```
    /// assert!(pte_schema::xnnpack::XNode::default().field("output_id").is_none());
    /// ```
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|(n, _)| *n == name).map(|(_, f)| f)
    }

    /// The value ids this node reads or writes, as the runtime looks them up:
    /// `(field name, id)`. Concatenations list only the inputs their arity uses.
    ///
    /// ```
    /// use pte_schema::xnnpack::*;
    /// let n = XNode { kind: XNodeKind::XNNConcatenate2, fields: vec![
    ///     ("input1_id", Field::U32(1)), ("input2_id", Field::U32(2)), ("input3_id", Field::U32(0)),
    ///     ("output_id", Field::U32(3))], ..Default::default() };
    /// assert_eq!(n.value_ids(), [("input1_id", 1), ("input2_id", 2), ("output_id", 3)]);
    /// ```
    pub fn value_ids(&self) -> Vec<(&'static str, u32)> {
        let cat_inputs = match self.kind {
            XNodeKind::XNNConcatenate2 => Some(2u8),
            XNodeKind::XNNConcatenate3 => Some(3),
            XNodeKind::XNNConcatenate4 => Some(4),
            XNodeKind::XNNConcatenate5 => Some(5),
            _ => None,
        };
        self.fields
            .iter()
            .filter(|(name, _)| name.ends_with("_id"))
            .filter(|(name, _)| match (cat_inputs, name.strip_prefix("input").and_then(|r| r.strip_suffix("_id"))) {
                (Some(n), Some(k)) => k.parse::<u8>().is_ok_and(|k| k <= n),
                _ => true,
            })
            .filter_map(|(name, f)| match f {
                Field::U32(v) => Some((*name, *v)),
                _ => None,
            })
            .collect()
    }
}

/// One scalar or vector field of a node body.
///
/// ```
/// assert_ne!(pte_schema::xnnpack::Field::U32(1), pte_schema::xnnpack::Field::I32(1));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Field {
    /// `uint`.
    U32(u32),
    /// `int`.
    I32(i32),
    /// `float`.
    F32(f32),
    /// `[uint]`.
    U32s(Vec<u32>),
}

/// Output clamping bounds.
///
/// ```
/// let m = pte_schema::xnnpack::OutputMinMax { output_min: 0.0, output_max: 6.0 };
/// assert!(m.output_min < m.output_max);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct OutputMinMax {
    /// Lower bound.
    pub output_min: f32,
    /// Upper bound.
    pub output_max: f32,
}

/// One value: the `XValueUnion`.
///
/// ```
/// let v = pte_schema::xnnpack::XValue::default();
/// assert!(v.tensor().is_none());
/// ```
#[derive(Clone, Debug, PartialEq, Default)]
pub struct XValue {
    /// The union member, `None` for the NONE tag.
    pub value: Option<XValueUnion>,
}

impl XValue {
    /// The tensor, plain or inside the quantized wrapper.
    ///
    /// ```
    /// use pte_schema::xnnpack::*;
    /// let v = XValue { value: Some(XValueUnion::XNNTensorValue(XnnTensorValue { id_out: 3, ..Default::default() })) };
    /// assert_eq!(v.tensor().map(|t| t.id_out), Some(3));
    /// ```
    pub fn tensor(&self) -> Option<&XnnTensorValue> {
        match &self.value {
            Some(XValueUnion::XNNTensorValue(t)) => Some(t),
            Some(XValueUnion::XNNQuantizedTensorValue(q)) => q.tensor_value.as_ref(),
            None => None,
        }
    }
}

/// The members of `XValueUnion`.
///
/// ```
/// let v = pte_schema::xnnpack::XValueUnion::XNNTensorValue(Default::default());
/// assert_eq!(v.type_name(), "XNNTensorValue");
/// ```
#[derive(Clone, Debug, PartialEq)]
#[allow(clippy::large_enum_variant)]
pub enum XValueUnion {
    /// A plain tensor.
    XNNTensorValue(XnnTensorValue),
    /// A quantized tensor.
    XNNQuantizedTensorValue(XnnQuantizedTensorValue),
}

impl XValueUnion {
    /// The schema's name of the member.
    ///
    /// ```
    /// let q = pte_schema::xnnpack::XValueUnion::XNNQuantizedTensorValue(Default::default());
    /// assert_eq!(q.type_name(), "XNNQuantizedTensorValue");
    /// ```
    pub fn type_name(&self) -> &'static str {
        match self {
            XValueUnion::XNNTensorValue(_) => "XNNTensorValue",
            XValueUnion::XNNQuantizedTensorValue(_) => "XNNQuantizedTensorValue",
        }
    }
}

/// A tensor value.
///
/// ```
/// let t = pte_schema::xnnpack::XnnTensorValue { dims: Some(vec![2, 3]), ..Default::default() };
/// assert_eq!(t.numel(), Some(6));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct XnnTensorValue {
    /// Element type.
    pub datatype: XnnDatatype,
    /// Rank as recorded (the runtime uses `dims` alone).
    pub num_dims: u32,
    /// Shape.
    pub dims: Option<Vec<u32>>,
    /// Index into `constant_data` (or the legacy `constant_buffer`); 0: no constant.
    pub constant_buffer_idx: u32,
    /// External index, or `u32::MAX` for an internal value.
    pub external_id: u32,
    /// Bit 0: external input; bit 1: external output.
    pub flags: u32,
    /// The id nodes use for this value.
    pub id_out: u32,
    /// Legacy run-time quantization target.
    pub dq_datatype: XnnDatatype,
}

impl XnnTensorValue {
    /// Product of the dims, `None` on overflow.
    ///
    /// ```
    /// assert_eq!(pte_schema::xnnpack::XnnTensorValue::default().numel(), Some(1));
    /// ```
    pub fn numel(&self) -> Option<u64> {
        self.dims.iter().flatten().try_fold(1u64, |n, &d| n.checked_mul(u64::from(d)))
    }

    /// Bytes of constant data the backend reads for this tensor (numel ×
    /// element bits, rounded up), `None` when the type has no plain storage.
    ///
    /// ```
    /// use pte_schema::xnnpack::*;
    /// let t = XnnTensorValue { datatype: XnnDatatype::xnn_datatype_fp32, dims: Some(vec![4, 2]), ..Default::default() };
    /// assert_eq!(t.nbytes(), Some(32));
    /// ```
    pub fn nbytes(&self) -> Option<u64> {
        let bits = self.numel()?.checked_mul(self.datatype.bits()?)?;
        Some(bits.div_ceil(8))
    }
}

/// A quantized tensor value.
///
/// ```
/// let q = pte_schema::xnnpack::XnnQuantizedTensorValue::default();
/// assert!(q.tensor_value.is_none() && q.quant_params.is_none());
/// ```
#[derive(Clone, Debug, PartialEq, Default)]
pub struct XnnQuantizedTensorValue {
    /// The tensor.
    pub tensor_value: Option<XnnTensorValue>,
    /// Its quantization, `None` for the NONE tag.
    pub quant_params: Option<QuantParams>,
}

/// The members of `XNNQuantParams`.
///
/// ```
/// let q = pte_schema::xnnpack::QuantParams::PerTensorQuant { scale: 0.5, zero_point: 0 };
/// assert_eq!(q.type_name(), "PerTensorQuant");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum QuantParams {
    /// Per-channel scales.
    PerChannelQuant {
        /// Inline fp32 scales.
        scale: Option<Vec<f32>>,
        /// The channel dimension.
        channel_dim: i32,
        /// `constant_data` index of the scales (0: inline).
        scale_buffer_idx: u32,
        /// Number of scales at `scale_buffer_idx`.
        num_scales: u32,
    },
    /// One scale and zero point.
    PerTensorQuant {
        /// Scale.
        scale: f32,
        /// Zero point.
        zero_point: i32,
    },
    /// Quantized at run time, per token.
    PerTokenDynamicQuant {
        /// Dimensions after the batch dimensions.
        num_nonbatch_dims: i32,
    },
    /// Blockwise scales.
    PerChannelGroupQuant {
        /// Inline fp32 scales.
        scale: Option<Vec<f32>>,
        /// The channel dimension.
        channel_dim: i32,
        /// Elements per block.
        group_size: i32,
        /// `constant_data` index of bf16 scales (0: inline fp32).
        scale_buffer_idx: u32,
        /// Number of scales at `scale_buffer_idx`.
        num_scales: u32,
    },
}

impl QuantParams {
    /// The schema's name of the member.
    ///
    /// ```
    /// let q = pte_schema::xnnpack::QuantParams::PerTokenDynamicQuant { num_nonbatch_dims: 1 };
    /// assert_eq!(q.type_name(), "PerTokenDynamicQuant");
    /// ```
    pub fn type_name(&self) -> &'static str {
        match self {
            QuantParams::PerChannelQuant { .. } => "PerChannelQuant",
            QuantParams::PerTensorQuant { .. } => "PerTensorQuant",
            QuantParams::PerTokenDynamicQuant { .. } => "PerTokenDynamicQuant",
            QuantParams::PerChannelGroupQuant { .. } => "PerChannelGroupQuant",
        }
    }

    /// The `constant_data` index holding the scales, when they are not inline.
    ///
    /// ```
    /// let q = pte_schema::xnnpack::QuantParams::PerTensorQuant { scale: 1.0, zero_point: 0 };
    /// assert_eq!(q.scale_buffer_idx(), None);
    /// ```
    pub fn scale_buffer_idx(&self) -> Option<u32> {
        match self {
            QuantParams::PerChannelQuant { scale_buffer_idx, .. }
            | QuantParams::PerChannelGroupQuant { scale_buffer_idx, .. } => Some(*scale_buffer_idx).filter(|&i| i != 0),
            _ => None,
        }
    }
}
