//! The `ET12` program schema as the structural verifier sees it: every
//! table, every field, in the order of `schema/program.fbs`. Slots come from
//! the generated code, and a test reads the generated verifiers to prove
//! nothing is missing or typed differently here.

use super::{Field, Kind, Step, Table, Walk, Width};
use crate::fenced::et;

const BOOL: Kind = Kind::Scalar(Width::of::<bool>());
const I8: Kind = Kind::Scalar(Width::of::<i8>());
const I32: Kind = Kind::Scalar(Width::of::<i32>());
const U32: Kind = Kind::Scalar(Width::of::<u32>());
const I64: Kind = Kind::Scalar(Width::of::<i64>());
const U64: Kind = Kind::Scalar(Width::of::<u64>());
const F64: Kind = Kind::Scalar(Width::of::<f64>());
/// Every enum in the schema is stored as one byte.
const ENUM: Kind = I8;
const BYTES: Kind = Kind::Scalars(Width::of::<u8>());
const BOOLS: Kind = Kind::Scalars(Width::of::<bool>());
const I32S: Kind = Kind::Scalars(Width::of::<i32>());
const I64S: Kind = Kind::Scalars(Width::of::<i64>());
const U64S: Kind = Kind::Scalars(Width::of::<u64>());
const F64S: Kind = Kind::Scalars(Width::of::<f64>());

const fn f(slot: u16, name: &'static str, kind: Kind) -> Field {
    Field { slot, name, kind }
}

/// A table type's description, and its walk written out field by field
/// (each field a constant, so its checks compile to straight-line code).
/// `#n` is the type's [`Table::id`], its own below [`TABLE_TYPES`].
/// `member_table!` is the same for a member of the two unions whose
/// elements the [`ElementChecks`](crate::ElementChecks) read: its walk also
/// notes the table for them.
macro_rules! table {
    (#$id:literal $name:ident, $ty:ident, [$($field:expr),* $(,)?]) => {
        table!(@ $id, $name, $ty, [$($field),*], false);
    };
    (@ $id:literal, $name:ident, $ty:ident, [$($field:expr),*], $member:literal) => {
        pub(crate) static $name: Table = Table {
            name: stringify!($ty),
            id: $id,
            member: $member,
            fields: &[$($field),*],
            walk: {
                fn walk(w: &mut Walk<'_>, pos: usize) -> Step {
                    let at = w.enter(pos, $id)?;
                    if $member {
                        w.member_is(at);
                    }
                    $( if !w.next_field(at, const { $field })? { return w.leave(); } )*
                    w.leave()
                }
                walk
            },
        };
    };
}
macro_rules! member_table {
    (#$id:literal $name:ident, $ty:ident, [$($field:expr),* $(,)?]) => {
        table!(@ $id, $name, $ty, [$($field),*], true);
    };
}

use et::*;

member_table!(#0 NULL, Null, []);
member_table!(#1 INT, Int, [f(Int::VT_INT_VAL, "int_val", I64)]);
member_table!(#2 BOOL_T, Bool, [f(Bool::VT_BOOL_VAL, "bool_val", BOOL)]);
member_table!(#3 DOUBLE, Double, [f(Double::VT_DOUBLE_VAL, "double_val", F64)]);
member_table!(#4 STRING, String, [f(String::VT_STRING_VAL, "string_val", Kind::Str)]);
member_table!(#5 INT_LIST, IntList, [f(IntList::VT_ITEMS, "items", I64S)]);
member_table!(#6 DOUBLE_LIST, DoubleList, [f(DoubleList::VT_ITEMS, "items", F64S)]);
member_table!(#7 BOOL_LIST, BoolList, [f(BoolList::VT_ITEMS, "items", BOOLS)]);
member_table!(#8 TENSOR_LIST, TensorList, [f(TensorList::VT_ITEMS, "items", I32S)]);
member_table!(#9 OPTIONAL_TENSOR_LIST, OptionalTensorList, [f(OptionalTensorList::VT_ITEMS, "items", I32S)]);
table!(
    #10 ALLOCATION_DETAILS,
    AllocationDetails,
    [
        f(AllocationDetails::VT_MEMORY_ID, "memory_id", U32),
        f(AllocationDetails::VT_MEMORY_OFFSET_LOW, "memory_offset_low", U32),
        f(AllocationDetails::VT_MEMORY_OFFSET_HIGH, "memory_offset_high", U32),
    ]
);
table!(
    #11 EXTRA_TENSOR_INFO,
    ExtraTensorInfo,
    [
        f(ExtraTensorInfo::VT_MUTABLE_DATA_SEGMENTS_IDX, "mutable_data_segments_idx", U64),
        f(ExtraTensorInfo::VT_FULLY_QUALIFIED_NAME, "fully_qualified_name", Kind::Str),
        f(ExtraTensorInfo::VT_LOCATION, "location", ENUM),
        f(ExtraTensorInfo::VT_DEVICE_TYPE, "device_type", ENUM),
        f(ExtraTensorInfo::VT_DEVICE_INDEX, "device_index", I8),
    ]
);
member_table!(
    #12 TENSOR,
    Tensor,
    [
        f(Tensor::VT_SCALAR_TYPE, "scalar_type", ENUM),
        f(Tensor::VT_STORAGE_OFFSET, "storage_offset", I32),
        f(Tensor::VT_SIZES, "sizes", I32S),
        f(Tensor::VT_DIM_ORDER, "dim_order", BYTES),
        f(Tensor::VT_REQUIRES_GRAD, "requires_grad", BOOL),
        f(Tensor::VT_DATA_BUFFER_IDX, "data_buffer_idx", U32),
        f(Tensor::VT_ALLOCATION_INFO, "allocation_info", Kind::Table(&ALLOCATION_DETAILS)),
        f(Tensor::VT_LAYOUT, "layout", I8),
        f(Tensor::VT_SHAPE_DYNAMISM, "shape_dynamism", ENUM),
        f(Tensor::VT_EXTRA_TENSOR_INFO, "extra_tensor_info", Kind::Table(&EXTRA_TENSOR_INFO)),
    ]
);

/// `KernelTypes`, indexed by tag (0 is NONE).
static KERNEL_TYPES: [Option<&Table>; 12] = [
    None,
    Some(&NULL),
    Some(&INT),
    Some(&BOOL_T),
    Some(&DOUBLE),
    Some(&TENSOR),
    Some(&STRING),
    Some(&INT_LIST),
    Some(&DOUBLE_LIST),
    Some(&BOOL_LIST),
    Some(&TENSOR_LIST),
    Some(&OPTIONAL_TENSOR_LIST),
];
table!(#13 EVALUE, EValue, [f(EValue::VT_VAL, "val", Kind::Union { tag: EValue::VT_VAL_TYPE, members: &KERNEL_TYPES })]);

table!(#14 OPERATOR, Operator, [f(Operator::VT_NAME, "name", Kind::Str), f(Operator::VT_OVERLOAD, "overload", Kind::Str)]);
member_table!(
    #15 KERNEL_CALL,
    KernelCall,
    [f(KernelCall::VT_OP_INDEX, "op_index", I32), f(KernelCall::VT_ARGS, "args", I32S)]
);
member_table!(
    #16 DELEGATE_CALL,
    DelegateCall,
    [f(DelegateCall::VT_DELEGATE_INDEX, "delegate_index", I32), f(DelegateCall::VT_ARGS, "args", I32S)]
);
member_table!(
    #17 MOVE_CALL,
    MoveCall,
    [f(MoveCall::VT_MOVE_FROM, "move_from", I32), f(MoveCall::VT_MOVE_TO, "move_to", I32)]
);
member_table!(
    #18 JUMP_FALSE_CALL,
    JumpFalseCall,
    [
        f(JumpFalseCall::VT_COND_VALUE_INDEX, "cond_value_index", I32),
        f(JumpFalseCall::VT_DESTINATION_INSTRUCTION, "destination_instruction", I32),
    ]
);
member_table!(#19 FREE_CALL, FreeCall, [f(FreeCall::VT_VALUE_INDEX, "value_index", I32)]);

/// `InstructionArguments`, indexed by tag (0 is NONE).
static INSTRUCTION_ARGUMENTS: [Option<&Table>; 6] =
    [None, Some(&KERNEL_CALL), Some(&DELEGATE_CALL), Some(&MOVE_CALL), Some(&JUMP_FALSE_CALL), Some(&FREE_CALL)];
table!(
    #20 INSTRUCTION,
    Instruction,
    [f(
        Instruction::VT_INSTR_ARGS,
        "instr_args",
        Kind::Union { tag: Instruction::VT_INSTR_ARGS_TYPE, members: &INSTRUCTION_ARGUMENTS }
    )]
);

table!(
    #21 FRAME,
    Frame,
    [
        f(Frame::VT_FILENAME, "filename", Kind::Str),
        f(Frame::VT_LINENO, "lineno", I32),
        f(Frame::VT_NAME, "name", Kind::Str),
        f(Frame::VT_CONTEXT, "context", Kind::Str),
    ]
);
table!(#22 FRAME_LIST, FrameList, [f(FrameList::VT_ITEMS, "items", Kind::Tables(&FRAME))]);
table!(
    #23 CHAIN,
    Chain,
    [
        f(Chain::VT_INPUTS, "inputs", I32S),
        f(Chain::VT_OUTPUTS, "outputs", I32S),
        f(Chain::VT_INSTRUCTIONS, "instructions", Kind::Tables(&INSTRUCTION)),
        f(Chain::VT_STACKTRACE, "stacktrace", Kind::Tables(&FRAME_LIST)),
    ]
);

table!(
    #24 DATA_REFERENCE,
    BackendDelegateDataReference,
    [
        f(BackendDelegateDataReference::VT_LOCATION, "location", ENUM),
        f(BackendDelegateDataReference::VT_INDEX, "index", U32),
    ]
);
table!(#25 COMPILE_SPEC, CompileSpec, [f(CompileSpec::VT_KEY, "key", Kind::Str), f(CompileSpec::VT_VALUE, "value", BYTES)]);
table!(
    #26 BACKEND_DELEGATE,
    BackendDelegate,
    [
        f(BackendDelegate::VT_ID, "id", Kind::Str),
        f(BackendDelegate::VT_PROCESSED, "processed", Kind::Table(&DATA_REFERENCE)),
        f(BackendDelegate::VT_COMPILE_SPECS, "compile_specs", Kind::Tables(&COMPILE_SPEC)),
    ]
);
table!(
    #27 CONTAINER_METADATA,
    ContainerMetadata,
    [
        f(ContainerMetadata::VT_ENCODED_INP_STR, "encoded_inp_str", Kind::Str),
        f(ContainerMetadata::VT_ENCODED_OUT_STR, "encoded_out_str", Kind::Str),
    ]
);
table!(
    #28 NON_CONST_BUFFER_DEVICE,
    NonConstBufferDevice,
    [
        f(NonConstBufferDevice::VT_BUFFER_IDX, "buffer_idx", I32),
        f(NonConstBufferDevice::VT_DEVICE_TYPE, "device_type", ENUM),
        f(NonConstBufferDevice::VT_DEVICE_INDEX, "device_index", I8),
    ]
);
table!(
    #29 EXECUTION_PLAN,
    ExecutionPlan,
    [
        f(ExecutionPlan::VT_NAME, "name", Kind::Str),
        f(ExecutionPlan::VT_CONTAINER_META_TYPE, "container_meta_type", Kind::Table(&CONTAINER_METADATA)),
        f(ExecutionPlan::VT_VALUES, "values", Kind::Tables(&EVALUE)),
        f(ExecutionPlan::VT_INPUTS, "inputs", I32S),
        f(ExecutionPlan::VT_OUTPUTS, "outputs", I32S),
        f(ExecutionPlan::VT_CHAINS, "chains", Kind::Tables(&CHAIN)),
        f(ExecutionPlan::VT_OPERATORS, "operators", Kind::Tables(&OPERATOR)),
        f(ExecutionPlan::VT_DELEGATES, "delegates", Kind::Tables(&BACKEND_DELEGATE)),
        f(ExecutionPlan::VT_NON_CONST_BUFFER_SIZES, "non_const_buffer_sizes", I64S),
        f(ExecutionPlan::VT_NON_CONST_BUFFER_DEVICE, "non_const_buffer_device", Kind::Tables(&NON_CONST_BUFFER_DEVICE)),
    ]
);

table!(#30 BUFFER, Buffer, [f(Buffer::VT_STORAGE, "storage", BYTES)]);
table!(#31 BACKEND_DELEGATE_INLINE_DATA, BackendDelegateInlineData, [f(BackendDelegateInlineData::VT_DATA, "data", BYTES)]);
table!(#32 DATA_SEGMENT, DataSegment, [f(DataSegment::VT_OFFSET, "offset", U64), f(DataSegment::VT_SIZE, "size", U64)]);
table!(
    #33 SUBSEGMENT_OFFSETS,
    SubsegmentOffsets,
    [f(SubsegmentOffsets::VT_SEGMENT_INDEX, "segment_index", U32), f(SubsegmentOffsets::VT_OFFSETS, "offsets", U64S)]
);
table!(
    #34 NAMED_DATA,
    NamedData,
    [f(NamedData::VT_KEY, "key", Kind::Str), f(NamedData::VT_SEGMENT_INDEX, "segment_index", U32)]
);
table!(
    #35 PROGRAM,
    Program,
    [
        f(Program::VT_VERSION, "version", U32),
        f(Program::VT_EXECUTION_PLAN, "execution_plan", Kind::Tables(&EXECUTION_PLAN)),
        f(Program::VT_CONSTANT_BUFFER, "constant_buffer", Kind::Tables(&BUFFER)),
        f(Program::VT_BACKEND_DELEGATE_DATA, "backend_delegate_data", Kind::Tables(&BACKEND_DELEGATE_INLINE_DATA)),
        f(Program::VT_SEGMENTS, "segments", Kind::Tables(&DATA_SEGMENT)),
        f(Program::VT_CONSTANT_SEGMENT, "constant_segment", Kind::Table(&SUBSEGMENT_OFFSETS)),
        f(Program::VT_MUTABLE_DATA_SEGMENTS, "mutable_data_segments", Kind::Tables(&SUBSEGMENT_OFFSETS)),
        f(Program::VT_NAMED_DATA, "named_data", Kind::Tables(&NAMED_DATA)),
    ]
);

/// How many table types the schema has: every [`Table::id`] is below it.
pub(crate) const TABLE_TYPES: usize = 36;
