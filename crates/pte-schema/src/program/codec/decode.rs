//! Decoding a verified `ET12` flatbuffer into the owned model.

use std::borrow::Cow;

use crate::decode_common::{infallible, scalars, string, tables};
use crate::fenced::et;
use crate::limits::Limits;
use crate::program::model::*;
use crate::program::verify::verify_root;
use pte_core::{Error, ErrorKind, Result};

/// Verifies `buf` (a program flatbuffer, header bytes allowed at 8..) and
/// decodes it. Byte payloads borrow from `buf`.
///
/// The identifier must be `ET12`. Unknown enum values are kept; an unknown
/// union tag is an [`ErrorKind::Unsupported`] error naming the field, never
/// silently dropped.
///
/// ```
/// let err = pte_schema::decode_program(&[0u8; 16], &pte_schema::Limits::default()).unwrap_err();
/// assert_eq!(err.kind(), pte_schema::ErrorKind::Malformed);
/// ```
pub fn decode_program<'a>(buf: &'a [u8], limits: &Limits) -> Result<Program<'a>> {
    let root = verify_root(buf, limits)?;
    let p = program(root)?;
    limits.check_program(&p)?;
    Ok(p)
}

fn unknown_tag(path: String, tag: u8, loc: usize) -> Error {
    Error::new(ErrorKind::Unsupported, format!("unknown union tag {tag}")).at_path(path).at_offset(loc as u64)
}

pub(crate) fn program<'a>(p: et::Program<'a>) -> Result<Program<'a>> {
    Ok(Program {
        version: p.version(),
        execution_plan: tables(p.execution_plan(), plan)?,
        constant_buffer: infallible(p.constant_buffer(), |b| Buffer {
            storage: b.storage().map(|s| Cow::Borrowed(s.bytes())),
        }),
        backend_delegate_data: infallible(p.backend_delegate_data(), |b| BackendDelegateInlineData {
            data: b.data().map(|s| Cow::Borrowed(s.bytes())),
        }),
        segments: infallible(p.segments(), |s| DataSegment { offset: s.offset(), size: s.size() }),
        constant_segment: p.constant_segment().map(subsegment),
        mutable_data_segments: infallible(p.mutable_data_segments(), subsegment),
        named_data: infallible(p.named_data(), |n| NamedData {
            key: string(n.key()),
            segment_index: n.segment_index(),
        }),
    })
}

pub(crate) fn subsegment(s: et::SubsegmentOffsets<'_>) -> SubsegmentOffsets {
    SubsegmentOffsets { segment_index: s.segment_index(), offsets: scalars(s.offsets()) }
}

pub(crate) fn plan(i: usize, p: et::ExecutionPlan<'_>) -> Result<ExecutionPlan> {
    plan_with(i, p, true)
}

/// The plan without its values and its chains' instructions (both `None`).
pub(crate) fn outline(i: usize, p: et::ExecutionPlan<'_>) -> Result<ExecutionPlan> {
    plan_with(i, p, false)
}

/// The plan, its values and instructions included when `whole`.
fn plan_with(i: usize, p: et::ExecutionPlan<'_>, whole: bool) -> Result<ExecutionPlan> {
    Ok(ExecutionPlan {
        name: string(p.name()),
        container_meta_type: p.container_meta_type().map(|c| ContainerMetadata {
            encoded_inp_str: string(c.encoded_inp_str()),
            encoded_out_str: string(c.encoded_out_str()),
        }),
        values: if whole { tables(p.values(), |j, v| evalue(i, j, v))? } else { None },
        inputs: scalars(p.inputs()),
        outputs: scalars(p.outputs()),
        chains: tables(p.chains(), |j, c| chain(i, j, c, whole))?,
        operators: infallible(p.operators(), |o| Operator { name: string(o.name()), overload: string(o.overload()) }),
        delegates: infallible(p.delegates(), |d| BackendDelegate {
            id: string(d.id()),
            processed: d
                .processed()
                .map(|r| BackendDelegateDataReference { location: DataLocation(r.location().0), index: r.index() }),
            compile_specs: infallible(d.compile_specs(), |c| CompileSpec {
                key: string(c.key()),
                value: c.value().map(|v| v.bytes().to_vec()),
            }),
        }),
        non_const_buffer_sizes: scalars(p.non_const_buffer_sizes()),
        non_const_buffer_device: infallible(p.non_const_buffer_device(), |d| NonConstBufferDevice {
            buffer_idx: d.buffer_idx(),
            device_type: DeviceType(d.device_type().0),
            device_index: d.device_index(),
        }),
    })
}

pub(crate) fn evalue(plan: usize, index: usize, v: et::EValue<'_>) -> Result<EValue> {
    let tag = v.val_type();
    let val = match tag {
        et::KernelTypes::NONE => None,
        et::KernelTypes::Null => Some(KernelTypes::Null),
        et::KernelTypes::Int => v.val_as_int().map(|x| KernelTypes::Int(x.int_val())),
        et::KernelTypes::Bool => v.val_as_bool().map(|x| KernelTypes::Bool(x.bool_val())),
        et::KernelTypes::Double => v.val_as_double().map(|x| KernelTypes::Double(x.double_val())),
        et::KernelTypes::Tensor => v.val_as_tensor().map(|t| KernelTypes::Tensor(tensor(t))),
        et::KernelTypes::String => v.val_as_string().map(|s| KernelTypes::String(string(s.string_val()))),
        et::KernelTypes::IntList => v.val_as_int_list().map(|l| KernelTypes::IntList(scalars(l.items()))),
        et::KernelTypes::DoubleList => v.val_as_double_list().map(|l| KernelTypes::DoubleList(scalars(l.items()))),
        et::KernelTypes::BoolList => v.val_as_bool_list().map(|l| KernelTypes::BoolList(scalars(l.items()))),
        et::KernelTypes::TensorList => v.val_as_tensor_list().map(|l| KernelTypes::TensorList(scalars(l.items()))),
        et::KernelTypes::OptionalTensorList => {
            v.val_as_optional_tensor_list().map(|l| KernelTypes::OptionalTensorList(scalars(l.items())))
        }
        other => {
            return Err(unknown_tag(format!("execution_plan[{plan}].values[{index}].val_type"), other.0, v._tab.loc()))
        }
    };
    Ok(EValue { val })
}

fn tensor(t: et::Tensor<'_>) -> Tensor {
    Tensor {
        scalar_type: ScalarType(t.scalar_type().0),
        storage_offset: t.storage_offset(),
        sizes: scalars(t.sizes()),
        dim_order: t.dim_order().map(|d| d.bytes().to_vec()),
        requires_grad: t.requires_grad(),
        data_buffer_idx: t.data_buffer_idx(),
        allocation_info: t.allocation_info().map(|a| AllocationDetails {
            memory_id: a.memory_id(),
            memory_offset_low: a.memory_offset_low(),
            memory_offset_high: a.memory_offset_high(),
        }),
        layout: t.layout(),
        shape_dynamism: TensorShapeDynamism(t.shape_dynamism().0),
        extra_tensor_info: t.extra_tensor_info().map(|e| ExtraTensorInfo {
            mutable_data_segments_idx: e.mutable_data_segments_idx(),
            fully_qualified_name: string(e.fully_qualified_name()),
            location: TensorDataLocation(e.location().0),
            device_type: DeviceType(e.device_type().0),
            device_index: e.device_index(),
        }),
    }
}

fn chain(plan: usize, index: usize, c: et::Chain<'_>, whole: bool) -> Result<Chain> {
    Ok(Chain {
        inputs: scalars(c.inputs()),
        outputs: scalars(c.outputs()),
        instructions: if whole { tables(c.instructions(), |k, ins| instruction(plan, index, k, ins))? } else { None },
        stacktrace: infallible(c.stacktrace(), |fl| FrameList {
            items: infallible(fl.items(), |f| Frame {
                filename: string(f.filename()),
                lineno: f.lineno(),
                name: string(f.name()),
                context: string(f.context()),
            }),
        }),
    })
}

fn instruction(plan: usize, chain: usize, index: usize, i: et::Instruction<'_>) -> Result<Instruction> {
    use et::InstructionArguments as T;
    let args = match i.instr_args_type() {
        T::NONE => None,
        T::KernelCall => i
            .instr_args_as_kernel_call()
            .map(|k| InstructionArguments::KernelCall { op_index: k.op_index(), args: scalars(k.args()) }),
        T::DelegateCall => i.instr_args_as_delegate_call().map(|d| InstructionArguments::DelegateCall {
            delegate_index: d.delegate_index(),
            args: scalars(d.args()),
        }),
        T::MoveCall => i
            .instr_args_as_move_call()
            .map(|m| InstructionArguments::MoveCall { move_from: m.move_from(), move_to: m.move_to() }),
        T::JumpFalseCall => i.instr_args_as_jump_false_call().map(|j| InstructionArguments::JumpFalseCall {
            cond_value_index: j.cond_value_index(),
            destination_instruction: j.destination_instruction(),
        }),
        T::FreeCall => {
            i.instr_args_as_free_call().map(|f| InstructionArguments::FreeCall { value_index: f.value_index() })
        }
        other => {
            return Err(unknown_tag(
                format!("execution_plan[{plan}].chains[{chain}].instructions[{index}].instr_args_type"),
                other.0,
                i._tab.loc(),
            ))
        }
    };
    Ok(Instruction { instr_args: args })
}
