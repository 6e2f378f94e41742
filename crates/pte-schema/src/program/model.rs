//! The owned program model: one Rust type per schema table, field for field.
//!
//! Presence is kept: a vector, string or table that is absent on the wire is
//! `None`, an empty one is `Some(empty)`, because the runtime treats the two
//! differently (an empty `named_data` with absent `segments` fails to load).
//! Large byte payloads (`Buffer.storage`, inline delegate data) borrow from the
//! input when decoded, so decoding costs what the program costs, not its data.

use std::borrow::Cow;

pub use crate::program::enums::{DataLocation, DeviceType, ScalarType, TensorDataLocation, TensorShapeDynamism};

use pte_core::Bytes;

/// Root table of a `.pte` program.
///
/// ```
/// use pte_schema::{Program, SubsegmentOffsets};
/// let p = Program {
///     execution_plan: Some(vec![]),
///     constant_segment: Some(SubsegmentOffsets { segment_index: 0, offsets: Some(vec![0]) }),
///     ..Program::default()
/// };
/// let bytes = pte_schema::encode_program(&p, &pte_schema::EncodeOptions::default()).unwrap();
/// let back = pte_schema::decode_program(&bytes, &pte_schema::Limits::default()).unwrap();
/// assert_eq!(back, p);
/// ```
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Program<'a> {
    /// Schema version; the 1.5.1 runtime only loads 0.
    pub version: u32,
    /// The methods.
    pub execution_plan: Option<Vec<ExecutionPlan>>,
    /// Legacy inline constants (deprecated: the stock runtime refuses them).
    pub constant_buffer: Option<Vec<Buffer<'a>>>,
    /// Inline delegate payloads, indexed by INLINE delegate references.
    pub backend_delegate_data: Option<Vec<BackendDelegateInlineData<'a>>>,
    /// The segment table: byte ranges after the flatbuffer.
    pub segments: Option<Vec<DataSegment>>,
    /// Where constant tensors live inside their segment.
    pub constant_segment: Option<SubsegmentOffsets>,
    /// Initial data of mutable tensors (the runtime only reads entry 0).
    pub mutable_data_segments: Option<Vec<SubsegmentOffsets>>,
    /// Named blobs (delegate weights), each one segment.
    pub named_data: Option<Vec<NamedData>>,
}

impl Program<'_> {
    /// Copies every borrowed byte payload so the program no longer borrows the input.
    ///
    /// ```
    /// let p: pte_schema::Program<'static> = pte_schema::Program::default().into_owned();
    /// assert_eq!(p.version, 0);
    /// ```
    pub fn into_owned(self) -> Program<'static> {
        Program {
            version: self.version,
            execution_plan: self.execution_plan,
            constant_buffer: self.constant_buffer.map(|v| {
                v.into_iter().map(|b| Buffer { storage: b.storage.map(|s| Cow::Owned(s.into_owned())) }).collect()
            }),
            backend_delegate_data: self.backend_delegate_data.map(|v| {
                v.into_iter()
                    .map(|b| BackendDelegateInlineData { data: b.data.map(|s| Cow::Owned(s.into_owned())) })
                    .collect()
            }),
            segments: self.segments,
            constant_segment: self.constant_segment,
            mutable_data_segments: self.mutable_data_segments,
            named_data: self.named_data,
        }
    }

    /// The execution plans, or an empty slice when the vector is absent.
    ///
    /// ```
    /// assert!(pte_schema::Program::default().plans().is_empty());
    /// ```
    pub fn plans(&self) -> &[ExecutionPlan] {
        self.execution_plan.as_deref().unwrap_or(&[])
    }

    /// The segment table, or an empty slice when absent.
    ///
    /// ```
    /// assert!(pte_schema::Program::default().segment_table().is_empty());
    /// ```
    pub fn segment_table(&self) -> &[DataSegment] {
        self.segments.as_deref().unwrap_or(&[])
    }
}

/// One method of the program.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ExecutionPlan {
    /// Method name, looked up by exact byte comparison.
    pub name: Option<String>,
    /// Encoded pytree specs of inputs and outputs.
    pub container_meta_type: Option<ContainerMetadata>,
    /// Every value the method uses.
    pub values: Option<Vec<EValue>>,
    /// Value indices of the method inputs.
    pub inputs: Option<Vec<i32>>,
    /// Value indices of the method outputs.
    pub outputs: Option<Vec<i32>>,
    /// Instruction chains (in practice one).
    pub chains: Option<Vec<Chain>>,
    /// Operators referenced by `KernelCall.op_index`.
    pub operators: Option<Vec<Operator>>,
    /// Delegates referenced by `DelegateCall.delegate_index`.
    pub delegates: Option<Vec<BackendDelegate>>,
    /// Planned buffer sizes; entry 0 is reserved.
    pub non_const_buffer_sizes: Option<Vec<i64>>,
    /// Sparse device placement of planned buffers.
    pub non_const_buffer_device: Option<Vec<NonConstBufferDevice>>,
}

impl ExecutionPlan {
    /// The values, or an empty slice when absent.
    ///
    /// ```
    /// assert!(pte_schema::ExecutionPlan::default().value_list().is_empty());
    /// ```
    pub fn value_list(&self) -> &[EValue] {
        self.values.as_deref().unwrap_or(&[])
    }
}

/// Encoded input and output tree specs.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ContainerMetadata {
    /// Input spec.
    pub encoded_inp_str: Option<String>,
    /// Output spec.
    pub encoded_out_str: Option<String>,
}

/// A program value: a tagged union, `None` when the union tag is NONE (0).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct EValue {
    /// The payload.
    pub val: Option<KernelTypes>,
}

/// Payload of an [`EValue`] (`KernelTypes` union).
#[derive(Clone, Debug)]
pub enum KernelTypes {
    /// The None value.
    Null,
    /// 64-bit integer.
    Int(i64),
    /// Boolean.
    Bool(bool),
    /// Double; compared by bit pattern so NaN payloads round-trip.
    Double(f64),
    /// Tensor.
    Tensor(Tensor),
    /// String (`String.string_val`).
    String(Option<String>),
    /// Indices of Int values.
    IntList(Option<Vec<i64>>),
    /// Literal doubles.
    DoubleList(Option<Vec<f64>>),
    /// Literal booleans.
    BoolList(Option<Vec<bool>>),
    /// Indices of Tensor values.
    TensorList(Option<Vec<i32>>),
    /// Indices of Tensor values or -1 for None.
    OptionalTensorList(Option<Vec<i32>>),
}

impl PartialEq for KernelTypes {
    fn eq(&self, other: &Self) -> bool {
        use KernelTypes as K;
        match (self, other) {
            (K::Null, K::Null) => true,
            (K::Int(a), K::Int(b)) => a == b,
            (K::Bool(a), K::Bool(b)) => a == b,
            (K::Double(a), K::Double(b)) => a.to_bits() == b.to_bits(),
            (K::Tensor(a), K::Tensor(b)) => a == b,
            (K::String(a), K::String(b)) => a == b,
            (K::IntList(a), K::IntList(b)) => a == b,
            (K::DoubleList(a), K::DoubleList(b)) => match (a, b) {
                (Some(a), Some(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits()),
                (None, None) => true,
                _ => false,
            },
            (K::BoolList(a), K::BoolList(b)) => a == b,
            (K::TensorList(a), K::TensorList(b)) => a == b,
            (K::OptionalTensorList(a), K::OptionalTensorList(b)) => a == b,
            _ => false,
        }
    }
}

impl KernelTypes {
    /// The union type name as flatc spells it (`"Tensor"`, `"IntList"`, ...).
    ///
    /// ```
    /// assert_eq!(pte_schema::KernelTypes::Int(3).type_name(), "Int");
    /// ```
    pub fn type_name(&self) -> &'static str {
        match self {
            KernelTypes::Null => "Null",
            KernelTypes::Int(_) => "Int",
            KernelTypes::Bool(_) => "Bool",
            KernelTypes::Double(_) => "Double",
            KernelTypes::Tensor(_) => "Tensor",
            KernelTypes::String(_) => "String",
            KernelTypes::IntList(_) => "IntList",
            KernelTypes::DoubleList(_) => "DoubleList",
            KernelTypes::BoolList(_) => "BoolList",
            KernelTypes::TensorList(_) => "TensorList",
            KernelTypes::OptionalTensorList(_) => "OptionalTensorList",
        }
    }

    /// The union tag on the wire (1 for Null through 11 for OptionalTensorList).
    ///
    /// ```
    /// assert_eq!(pte_schema::KernelTypes::Null.tag(), 1);
    /// ```
    pub fn tag(&self) -> u8 {
        match self {
            KernelTypes::Null => 1,
            KernelTypes::Int(_) => 2,
            KernelTypes::Bool(_) => 3,
            KernelTypes::Double(_) => 4,
            KernelTypes::Tensor(_) => 5,
            KernelTypes::String(_) => 6,
            KernelTypes::IntList(_) => 7,
            KernelTypes::DoubleList(_) => 8,
            KernelTypes::BoolList(_) => 9,
            KernelTypes::TensorList(_) => 10,
            KernelTypes::OptionalTensorList(_) => 11,
        }
    }
}

/// Tensor metadata (data lives in segments, external files or planned memory).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Tensor {
    /// Element type.
    pub scalar_type: ScalarType,
    /// Must be 0 for the runtime.
    pub storage_offset: i32,
    /// Dimension sizes.
    pub sizes: Option<Vec<i32>>,
    /// Permutation of dimensions, outermost first.
    pub dim_order: Option<Vec<u8>>,
    /// Autograd flag (unused by the runtime).
    pub requires_grad: bool,
    /// Constant or mutable subsegment index; 0 means no stored data.
    pub data_buffer_idx: u32,
    /// Memory plan placement, for non-constant tensors.
    pub allocation_info: Option<AllocationDetails>,
    /// Layout tag (unused by the runtime).
    pub layout: i8,
    /// Shape dynamism.
    pub shape_dynamism: TensorShapeDynamism,
    /// Rare attributes: name, external location, device.
    pub extra_tensor_info: Option<ExtraTensorInfo>,
}

impl Tensor {
    /// Number of elements, or `None` when sizes are absent, negative or overflow.
    ///
    /// ```
    /// let t = pte_schema::Tensor { sizes: Some(vec![3, 4]), ..Default::default() };
    /// assert_eq!(t.numel(), Some(12));
    /// ```
    pub fn numel(&self) -> Option<u64> {
        self.sizes.as_ref()?.iter().try_fold(1u64, |acc, &s| acc.checked_mul(u64::try_from(s).ok()?))
    }

    /// Bytes of data (`numel × element size`), or `None` if unknown or overflowing.
    ///
    /// ```
    /// let t = pte_schema::Tensor {
    ///     scalar_type: pte_schema::ScalarType::FLOAT,
    ///     sizes: Some(vec![3, 4]),
    ///     ..Default::default()
    /// };
    /// assert_eq!(t.nbytes(), Some(48));
    /// ```
    pub fn nbytes(&self) -> Option<u64> {
        self.numel()?.checked_mul(self.scalar_type.element_size()?)
    }

    /// Whether the tensor's data is in external data (`.ptd`).
    ///
    /// ```
    /// assert!(!pte_schema::Tensor::default().is_external());
    /// ```
    pub fn is_external(&self) -> bool {
        self.extra_tensor_info.as_ref().is_some_and(|e| e.location == TensorDataLocation::EXTERNAL)
    }

    /// The fully qualified name, if any.
    ///
    /// ```
    /// assert_eq!(pte_schema::Tensor::default().fqn(), None);
    /// ```
    pub fn fqn(&self) -> Option<&str> {
        self.extra_tensor_info.as_ref()?.fully_qualified_name.as_deref()
    }
}

/// Memory plan placement of a tensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct AllocationDetails {
    /// 1-based planned buffer id.
    pub memory_id: u32,
    /// Low 32 bits of the byte offset.
    pub memory_offset_low: u32,
    /// High 32 bits of the byte offset.
    pub memory_offset_high: u32,
}

impl AllocationDetails {
    /// The full 64-bit byte offset.
    ///
    /// ```
    /// let a = pte_schema::AllocationDetails { memory_id: 1, memory_offset_low: 8, memory_offset_high: 1 };
    /// assert_eq!(a.offset(), (1u64 << 32) + 8);
    /// ```
    pub fn offset(&self) -> u64 {
        (u64::from(self.memory_offset_high) << 32) | u64::from(self.memory_offset_low)
    }
}

/// Rare tensor attributes.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ExtraTensorInfo {
    /// Mutable segment index (ignored by the runtime).
    pub mutable_data_segments_idx: u64,
    /// Unique name, the key for external data.
    pub fully_qualified_name: Option<String>,
    /// Data location.
    pub location: TensorDataLocation,
    /// Device type.
    pub device_type: DeviceType,
    /// Device index.
    pub device_index: i8,
}

/// An operator referenced by kernel calls.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Operator {
    /// Name, e.g. `aten::add`.
    pub name: Option<String>,
    /// Overload, e.g. `out`.
    pub overload: Option<String>,
}

/// One instruction; `None` when the union tag is NONE.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Instruction {
    /// The arguments.
    pub instr_args: Option<InstructionArguments>,
}

/// Payload of an [`Instruction`] (`InstructionArguments` union).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InstructionArguments {
    /// Call an operator kernel.
    KernelCall {
        /// Index into the plan's operators.
        op_index: i32,
        /// Value indices.
        args: Option<Vec<i32>>,
    },
    /// Call a delegate.
    DelegateCall {
        /// Index into the plan's delegates.
        delegate_index: i32,
        /// Value indices.
        args: Option<Vec<i32>>,
    },
    /// Copy one value into another.
    MoveCall {
        /// Source value index.
        move_from: i32,
        /// Destination value index.
        move_to: i32,
    },
    /// Conditional jump.
    JumpFalseCall {
        /// Value index of the condition.
        cond_value_index: i32,
        /// Instruction to jump to.
        destination_instruction: i32,
    },
    /// Free a tensor's memory.
    FreeCall {
        /// Value index.
        value_index: i32,
    },
}

impl InstructionArguments {
    /// The union type name as flatc spells it.
    ///
    /// ```
    /// let i = pte_schema::InstructionArguments::FreeCall { value_index: 0 };
    /// assert_eq!(i.type_name(), "FreeCall");
    /// ```
    pub fn type_name(&self) -> &'static str {
        match self {
            InstructionArguments::KernelCall { .. } => "KernelCall",
            InstructionArguments::DelegateCall { .. } => "DelegateCall",
            InstructionArguments::MoveCall { .. } => "MoveCall",
            InstructionArguments::JumpFalseCall { .. } => "JumpFalseCall",
            InstructionArguments::FreeCall { .. } => "FreeCall",
        }
    }
}

/// Stack frame of an instruction (emitted with `emit_stacktrace`).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Frame {
    /// Source file.
    pub filename: Option<String>,
    /// Line number.
    pub lineno: i32,
    /// Function name.
    pub name: Option<String>,
    /// Source text.
    pub context: Option<String>,
}

/// Frames of one instruction.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct FrameList {
    /// The frames.
    pub items: Option<Vec<Frame>>,
}

/// A sequence of instructions.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Chain {
    /// Value indices of chain inputs.
    pub inputs: Option<Vec<i32>>,
    /// Value indices of chain outputs.
    pub outputs: Option<Vec<i32>>,
    /// The instructions.
    pub instructions: Option<Vec<Instruction>>,
    /// One frame list per instruction, when recorded.
    pub stacktrace: Option<Vec<FrameList>>,
}

/// Reference to a delegate's processed blob.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct BackendDelegateDataReference {
    /// INLINE (index into `backend_delegate_data`) or SEGMENT (index into `segments`).
    pub location: DataLocation,
    /// The index.
    pub index: u32,
}

/// A backend compile option.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct CompileSpec {
    /// Option name.
    pub key: Option<String>,
    /// Option value bytes.
    pub value: Option<Vec<u8>>,
}

/// A lowered subgraph handled by a backend.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct BackendDelegate {
    /// Backend id, e.g. `XnnpackBackend`.
    pub id: Option<String>,
    /// Where its processed blob is.
    pub processed: Option<BackendDelegateDataReference>,
    /// Compile options.
    pub compile_specs: Option<Vec<CompileSpec>>,
}

/// Device placement of one planned buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct NonConstBufferDevice {
    /// Index into `non_const_buffer_sizes`.
    pub buffer_idx: i32,
    /// Device type.
    pub device_type: DeviceType,
    /// Device index.
    pub device_index: i8,
}

/// Legacy inline constant data.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Buffer<'a> {
    /// The bytes (force-aligned on the wire).
    pub storage: Option<Bytes<'a>>,
}

/// Inline delegate payload.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct BackendDelegateInlineData<'a> {
    /// The bytes (force-aligned on the wire).
    pub data: Option<Bytes<'a>>,
}

/// A segment-table entry: a byte range relative to the segment base offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub struct DataSegment {
    /// Offset from the segment base.
    pub offset: u64,
    /// Size in bytes, without padding.
    pub size: u64,
}

/// Offsets of sub-buffers inside one segment.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct SubsegmentOffsets {
    /// Index into `Program.segments`.
    pub segment_index: u32,
    /// Byte offsets; entry 0 is the placeholder.
    pub offsets: Option<Vec<u64>>,
}

/// A named blob stored in one segment.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct NamedData {
    /// The key.
    pub key: Option<String>,
    /// Index into `Program.segments`.
    pub segment_index: u32,
}
