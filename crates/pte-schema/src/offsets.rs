//! The offset rules of the C++ flatbuffers verifier that the Rust verifier
//! leaves out.
//!
//! The ExecuTorch runtime verifies programs, `.ptd` files and bundled
//! programs with the C++ verifier, which refuses an offset of 0 (it would
//! point at itself) and an offset with its sign bit set. The Rust verifier
//! follows both, so a zeroed offset reads as an empty vector, an empty string
//! or a field-less table, and a file we accepted would be `InvalidProgram` to
//! the runtime. No builder ever writes either, so refusing them costs no real
//! file. This walk runs after the Rust verifier has passed, over the same
//! tables it visited, so its work is bounded by the same limits.

use crate::fenced::{bp, et, ft};
use pte_core::{Error, ErrorKind, Result};

/// One offset-typed field of a table, by its vtable slot.
#[derive(Clone, Copy)]
enum Field {
    /// A string or a vector of scalars or structs: only the offset to check.
    Leaf(u16, &'static str),
    /// A sub-table.
    Table(u16, &'static str, &'static Desc),
    /// A vector of tables.
    Tables(u16, &'static str, &'static Desc),
    /// A union: tag slot, value slot, name, and the members that have offsets.
    Union(u16, u16, &'static str, &'static [(u8, &'static Desc)]),
}

/// The offset-typed fields of one table type.
struct Desc(&'static [Field]);

static LEAF: Desc = Desc(&[]);

mod program {
    use super::*;
    use et::*;

    static CONTAINER_META: Desc = Desc(&[
        Field::Leaf(ContainerMetadata::VT_ENCODED_INP_STR, "encoded_inp_str"),
        Field::Leaf(ContainerMetadata::VT_ENCODED_OUT_STR, "encoded_out_str"),
    ]);
    static EXTRA_INFO: Desc = Desc(&[Field::Leaf(ExtraTensorInfo::VT_FULLY_QUALIFIED_NAME, "fully_qualified_name")]);
    static TENSOR: Desc = Desc(&[
        Field::Leaf(Tensor::VT_SIZES, "sizes"),
        Field::Leaf(Tensor::VT_DIM_ORDER, "dim_order"),
        Field::Table(Tensor::VT_ALLOCATION_INFO, "allocation_info", &LEAF),
        Field::Table(Tensor::VT_EXTRA_TENSOR_INFO, "extra_tensor_info", &EXTRA_INFO),
    ]);
    static STRING: Desc = Desc(&[Field::Leaf(String::VT_STRING_VAL, "string_val")]);
    static INT_LIST: Desc = Desc(&[Field::Leaf(IntList::VT_ITEMS, "items")]);
    static DOUBLE_LIST: Desc = Desc(&[Field::Leaf(DoubleList::VT_ITEMS, "items")]);
    static BOOL_LIST: Desc = Desc(&[Field::Leaf(BoolList::VT_ITEMS, "items")]);
    static TENSOR_LIST: Desc = Desc(&[Field::Leaf(TensorList::VT_ITEMS, "items")]);
    static OPT_TENSOR_LIST: Desc = Desc(&[Field::Leaf(OptionalTensorList::VT_ITEMS, "items")]);
    static EVALUE: Desc = Desc(&[Field::Union(
        EValue::VT_VAL_TYPE,
        EValue::VT_VAL,
        "val",
        &[
            (KernelTypes::Null.0, &LEAF),
            (KernelTypes::Int.0, &LEAF),
            (KernelTypes::Bool.0, &LEAF),
            (KernelTypes::Double.0, &LEAF),
            (KernelTypes::Tensor.0, &TENSOR),
            (KernelTypes::String.0, &STRING),
            (KernelTypes::IntList.0, &INT_LIST),
            (KernelTypes::DoubleList.0, &DOUBLE_LIST),
            (KernelTypes::BoolList.0, &BOOL_LIST),
            (KernelTypes::TensorList.0, &TENSOR_LIST),
            (KernelTypes::OptionalTensorList.0, &OPT_TENSOR_LIST),
        ],
    )]);
    static OPERATOR: Desc =
        Desc(&[Field::Leaf(Operator::VT_NAME, "name"), Field::Leaf(Operator::VT_OVERLOAD, "overload")]);
    static KERNEL_CALL: Desc = Desc(&[Field::Leaf(KernelCall::VT_ARGS, "args")]);
    static DELEGATE_CALL: Desc = Desc(&[Field::Leaf(DelegateCall::VT_ARGS, "args")]);
    static INSTRUCTION: Desc = Desc(&[Field::Union(
        Instruction::VT_INSTR_ARGS_TYPE,
        Instruction::VT_INSTR_ARGS,
        "instr_args",
        &[
            (InstructionArguments::KernelCall.0, &KERNEL_CALL),
            (InstructionArguments::DelegateCall.0, &DELEGATE_CALL),
            (InstructionArguments::MoveCall.0, &LEAF),
            (InstructionArguments::JumpFalseCall.0, &LEAF),
            (InstructionArguments::FreeCall.0, &LEAF),
        ],
    )]);
    static FRAME: Desc = Desc(&[
        Field::Leaf(Frame::VT_FILENAME, "filename"),
        Field::Leaf(Frame::VT_NAME, "name"),
        Field::Leaf(Frame::VT_CONTEXT, "context"),
    ]);
    static FRAME_LIST: Desc = Desc(&[Field::Tables(FrameList::VT_ITEMS, "items", &FRAME)]);
    static CHAIN: Desc = Desc(&[
        Field::Leaf(Chain::VT_INPUTS, "inputs"),
        Field::Leaf(Chain::VT_OUTPUTS, "outputs"),
        Field::Tables(Chain::VT_INSTRUCTIONS, "instructions", &INSTRUCTION),
        Field::Tables(Chain::VT_STACKTRACE, "stacktrace", &FRAME_LIST),
    ]);
    static COMPILE_SPEC: Desc =
        Desc(&[Field::Leaf(CompileSpec::VT_KEY, "key"), Field::Leaf(CompileSpec::VT_VALUE, "value")]);
    static DELEGATE: Desc = Desc(&[
        Field::Leaf(BackendDelegate::VT_ID, "id"),
        Field::Table(BackendDelegate::VT_PROCESSED, "processed", &LEAF),
        Field::Tables(BackendDelegate::VT_COMPILE_SPECS, "compile_specs", &COMPILE_SPEC),
    ]);
    static PLAN: Desc = Desc(&[
        Field::Leaf(ExecutionPlan::VT_NAME, "name"),
        Field::Table(ExecutionPlan::VT_CONTAINER_META_TYPE, "container_meta_type", &CONTAINER_META),
        Field::Tables(ExecutionPlan::VT_VALUES, "values", &EVALUE),
        Field::Leaf(ExecutionPlan::VT_INPUTS, "inputs"),
        Field::Leaf(ExecutionPlan::VT_OUTPUTS, "outputs"),
        Field::Tables(ExecutionPlan::VT_CHAINS, "chains", &CHAIN),
        Field::Tables(ExecutionPlan::VT_OPERATORS, "operators", &OPERATOR),
        Field::Tables(ExecutionPlan::VT_DELEGATES, "delegates", &DELEGATE),
        Field::Leaf(ExecutionPlan::VT_NON_CONST_BUFFER_SIZES, "non_const_buffer_sizes"),
        Field::Tables(ExecutionPlan::VT_NON_CONST_BUFFER_DEVICE, "non_const_buffer_device", &LEAF),
    ]);
    static BUFFER: Desc = Desc(&[Field::Leaf(Buffer::VT_STORAGE, "storage")]);
    static INLINE_DATA: Desc = Desc(&[Field::Leaf(BackendDelegateInlineData::VT_DATA, "data")]);
    static SUBSEGMENTS: Desc = Desc(&[Field::Leaf(SubsegmentOffsets::VT_OFFSETS, "offsets")]);
    static NAMED: Desc = Desc(&[Field::Leaf(NamedData::VT_KEY, "key")]);
    pub(super) static ROOT: Desc = Desc(&[
        Field::Tables(Program::VT_EXECUTION_PLAN, "execution_plan", &PLAN),
        Field::Tables(Program::VT_CONSTANT_BUFFER, "constant_buffer", &BUFFER),
        Field::Tables(Program::VT_BACKEND_DELEGATE_DATA, "backend_delegate_data", &INLINE_DATA),
        Field::Tables(Program::VT_SEGMENTS, "segments", &LEAF),
        Field::Table(Program::VT_CONSTANT_SEGMENT, "constant_segment", &SUBSEGMENTS),
        Field::Tables(Program::VT_MUTABLE_DATA_SEGMENTS, "mutable_data_segments", &SUBSEGMENTS),
        Field::Tables(Program::VT_NAMED_DATA, "named_data", &NAMED),
    ]);
}

mod flat_tensor {
    use super::*;
    use ft::*;

    static LAYOUT: Desc =
        Desc(&[Field::Leaf(TensorLayout::VT_SIZES, "sizes"), Field::Leaf(TensorLayout::VT_DIM_ORDER, "dim_order")]);
    static NAMED: Desc = Desc(&[
        Field::Leaf(NamedData::VT_KEY, "key"),
        Field::Table(NamedData::VT_TENSOR_LAYOUT, "tensor_layout", &LAYOUT),
    ]);
    pub(super) static ROOT: Desc = Desc(&[
        Field::Tables(FlatTensor::VT_SEGMENTS, "segments", &LEAF),
        Field::Tables(FlatTensor::VT_NAMED_DATA, "named_data", &NAMED),
    ]);
}

mod bundled {
    use super::*;
    use bp::*;

    static TENSOR: Desc = Desc(&[
        Field::Leaf(Tensor::VT_SIZES, "sizes"),
        Field::Leaf(Tensor::VT_DATA, "data"),
        Field::Leaf(Tensor::VT_DIM_ORDER, "dim_order"),
    ]);
    static VALUE: Desc = Desc(&[Field::Union(
        Value::VT_VAL_TYPE,
        Value::VT_VAL,
        "val",
        &[
            (ValueUnion::Tensor.0, &TENSOR),
            (ValueUnion::Int.0, &LEAF),
            (ValueUnion::Bool.0, &LEAF),
            (ValueUnion::Double.0, &LEAF),
        ],
    )]);
    static CASE: Desc = Desc(&[
        Field::Tables(BundledMethodTestCase::VT_INPUTS, "inputs", &VALUE),
        Field::Tables(BundledMethodTestCase::VT_EXPECTED_OUTPUTS, "expected_outputs", &VALUE),
    ]);
    static SUITE: Desc = Desc(&[
        Field::Leaf(BundledMethodTestSuite::VT_METHOD_NAME, "method_name"),
        Field::Tables(BundledMethodTestSuite::VT_TEST_CASES, "test_cases", &CASE),
    ]);
    pub(super) static ROOT: Desc = Desc(&[
        Field::Tables(BundledProgram::VT_METHOD_TEST_SUITES, "method_test_suites", &SUITE),
        Field::Leaf(BundledProgram::VT_PROGRAM, "program"),
    ]);
}

/// Which schema a buffer holds.
#[derive(Clone, Copy)]
pub(crate) enum Schema {
    Program,
    FlatTensor,
    Bundled,
}

/// Checks every offset reachable from the root of a buffer the Rust verifier
/// has already accepted: none may be 0 or have its sign bit set.
pub(crate) fn check_offsets(buf: &[u8], schema: Schema, max_depth: usize) -> Result<()> {
    let root = match schema {
        Schema::Program => &program::ROOT,
        Schema::FlatTensor => &flat_tensor::ROOT,
        Schema::Bundled => &bundled::ROOT,
    };
    let mut walk = Walk { buf, path: Vec::new(), max_depth };
    let table = walk.follow(0)?;
    walk.table(table, root, 0)
}

struct Walk<'a> {
    buf: &'a [u8],
    /// Where the walk is, as steps: rendered to text only for an error, so a
    /// valid buffer costs no formatting.
    path: Vec<Step>,
    max_depth: usize,
}

#[derive(Clone, Copy)]
enum Step {
    Field(&'static str),
    Index(usize),
}

fn render(steps: &[Step]) -> String {
    let mut path = String::new();
    for step in steps {
        match step {
            Step::Field(name) => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(name);
            }
            Step::Index(i) => {
                path.push('[');
                path.push_str(&i.to_string());
                path.push(']');
            }
        }
    }
    path
}

impl Walk<'_> {
    fn bytes<const N: usize>(&self, at: usize) -> Result<[u8; N]> {
        at.checked_add(N)
            .and_then(|end| self.buf.get(at..end))
            .and_then(|b| b.try_into().ok())
            .ok_or_else(|| self.error(at, format!("{N} bytes at {at} lie outside the buffer")))
    }

    fn error(&self, at: usize, message: String) -> Error {
        let err = Error::new(ErrorKind::Malformed, message).at_offset(at as u64);
        if self.path.is_empty() {
            err
        } else {
            err.at_path(render(&self.path))
        }
    }

    /// Reads the offset stored at `at` and returns the position it names.
    fn follow(&self, at: usize) -> Result<usize> {
        let o = u32::from_le_bytes(self.bytes(at)?);
        if o == 0 {
            return Err(self.error(at, "offset 0 points at itself (the runtime's verifier refuses it)".into()));
        }
        if o > i32::MAX as u32 {
            return Err(self.error(at, format!("offset {o} has its sign bit set (the runtime's verifier refuses it)")));
        }
        at.checked_add(o as usize).ok_or_else(|| self.error(at, format!("offset {o} overflows")))
    }

    /// The position of a present field's slot in the table at `table`.
    /// The position and size of the vtable of the table at `table`.
    fn vtable(&self, table: usize) -> Result<(usize, u16)> {
        let back = i32::from_le_bytes(self.bytes(table)?);
        let vtable = (table as i64)
            .checked_sub(i64::from(back))
            .and_then(|v| usize::try_from(v).ok())
            .ok_or_else(|| self.error(table, format!("vtable offset {back} points outside the buffer")))?;
        Ok((vtable, u16::from_le_bytes(self.bytes(vtable)?)))
    }

    /// The position of a present field's slot, given the table's vtable.
    fn slot(&self, table: usize, (vtable, vsize): (usize, u16), vtable_slot: u16) -> Result<Option<usize>> {
        if vtable_slot.saturating_add(2) > vsize {
            return Ok(None);
        }
        let at = vtable
            .checked_add(usize::from(vtable_slot))
            .ok_or_else(|| self.error(vtable, "vtable slot overflows".into()))?;
        match u16::from_le_bytes(self.bytes(at)?) {
            0 => Ok(None),
            field => Ok(table.checked_add(usize::from(field))),
        }
    }

    fn table(&mut self, table: usize, desc: &Desc, depth: usize) -> Result<()> {
        if depth > self.max_depth {
            return Err(Error::new(ErrorKind::LimitExceeded, "tables nest deeper than the limit".to_string())
                .at_offset(table as u64));
        }
        let vt = self.vtable(table)?;
        for field in desc.0 {
            let (slot, name) = match *field {
                Field::Leaf(s, n) | Field::Table(s, n, _) | Field::Tables(s, n, _) => (s, n),
                Field::Union(_, s, n, _) => (s, n),
            };
            let Some(at) = self.slot(table, vt, slot)? else { continue };
            let mark = self.path.len();
            self.path.push(Step::Field(name));
            match *field {
                Field::Leaf(..) => {
                    self.follow(at)?;
                }
                Field::Table(_, _, sub) => {
                    let t = self.follow(at)?;
                    self.table(t, sub, depth.saturating_add(1))?;
                }
                Field::Tables(_, _, sub) => self.tables(at, sub, depth.saturating_add(1))?,
                Field::Union(tag_slot, _, _, members) => {
                    let tag = match self.slot(table, vt, tag_slot)? {
                        Some(t) => {
                            let [tag] = self.bytes::<1>(t)?;
                            tag
                        }
                        None => 0,
                    };
                    if let Some((_, sub)) = members.iter().find(|(m, _)| *m == tag) {
                        let t = self.follow(at)?;
                        self.table(t, sub, depth.saturating_add(1))?;
                    }
                }
            }
            self.path.truncate(mark);
        }
        Ok(())
    }

    /// Follows the vector of tables whose offset is at `at` and walks every
    /// element, with `[i]` on the path.
    fn tables(&mut self, at: usize, desc: &Desc, depth: usize) -> Result<()> {
        let vec = self.follow(at)?;
        let len = u32::from_le_bytes(self.bytes(vec)?) as usize;
        let mark = self.path.len();
        for i in 0..len {
            let elem = i
                .checked_mul(4)
                .and_then(|o| o.checked_add(4))
                .and_then(|o| o.checked_add(vec))
                .ok_or_else(|| self.error(vec, "vector element offset overflows".into()))?;
            self.path.truncate(mark);
            self.path.push(Step::Index(i));
            let t = self.follow(elem)?;
            self.table(t, desc, depth)?;
        }
        self.path.truncate(mark);
        Ok(())
    }
}
