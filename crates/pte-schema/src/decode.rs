//! Verified decoding of an `ET12` flatbuffer into the owned model.

use std::borrow::Cow;

use flatbuffers::{ErrorTraceDetail, ForwardsUOffset, InvalidFlatbuffer, Vector};

use crate::fenced::et;
use crate::limits::Limits;
use crate::model::*;
use crate::structure::Findings;
use pte_core::{Error, ErrorKind, Result};

/// The four identifier bytes of a program flatbuffer.
pub const PROGRAM_IDENTIFIER: &[u8; 4] = b"ET12";

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

/// Checks the identifier, then runs the flatbuffers verifier with `limits`.
pub(crate) fn verify_root<'a>(buf: &'a [u8], limits: &Limits) -> Result<et::Program<'a>> {
    verify_root_found(buf, limits, None).map(|(root, _)| root)
}

/// [`verify_root`], with what the structural walk noticed on the way.
pub(crate) fn verify_root_found<'a>(
    buf: &'a [u8],
    limits: &Limits,
    checks: Option<&dyn crate::ElementChecks>,
) -> Result<(et::Program<'a>, Findings)> {
    crate::decode::check_identifier(buf, PROGRAM_IDENTIFIER)?;
    match crate::structure::check_program(buf, limits, checks) {
        Ok(checked) => Ok((crate::fenced::program_root(checked), checked.findings())),
        Err(refused) => Err(explain_refusal(buf, limits, refused.at)),
    }
}

/// Why the structural verifier refused `buf`, in the words of the generic
/// verifier and the offset walk (their field paths and offsets). Both accept
/// exactly what it accepts, so the fallback error is never expected.
fn explain_refusal(buf: &[u8], limits: &Limits, at: usize) -> Error {
    match verify_root_generic(buf, limits) {
        Err(e) => e,
        Ok(_) => Error::new(ErrorKind::Malformed, "the program's flatbuffer structure is invalid".to_string())
            .at_offset(at as u64),
    }
}

/// Verifies a program flatbuffer the generic way: the flatbuffers crate's
/// verifier, then the runtime's offset rules in a second walk. Every reader
/// here uses the faster structural verifier instead; this one is its
/// reference, gives the same verdict on every input (the differential tests
/// hold them to it) and supplies the detailed error when a buffer is refused.
/// Useful to compare the two, and in benchmarks.
///
/// ```
/// use pte_schema::{verify_program_reference, Limits, ProgramView};
/// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte"))?;
/// assert!(verify_program_reference(&bytes, &Limits::default()).is_ok());
/// let mut broken = bytes.clone();
/// broken[0] ^= 0x80; // the root offset now points outside
/// let reference = verify_program_reference(&broken, &Limits::default()).unwrap_err();
/// let fast = ProgramView::new(&broken, &Limits::default()).err().unwrap();
/// assert_eq!(fast.to_string(), reference.to_string());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn verify_program_reference(buf: &[u8], limits: &Limits) -> Result<()> {
    verify_root_generic(buf, limits).map(drop)
}

/// [`verify_program_reference`], returning the root.
pub(crate) fn verify_root_generic<'a>(buf: &'a [u8], limits: &Limits) -> Result<et::Program<'a>> {
    crate::decode::check_identifier(buf, PROGRAM_IDENTIFIER)?;
    let opts = limits.verifier_options(buf.len());
    let root = et::root_as_program_with_opts(&opts, buf).map_err(from_verifier)?;
    crate::offsets::check_offsets(buf, crate::offsets::Schema::Program, limits.max_depth)?;
    Ok(root)
}

/// Checks that `buf` is long enough for a flatbuffer and carries `id` at
/// bytes 4..8 (the file identifier), as every schema here requires.
pub(crate) fn check_identifier(buf: &[u8], id: &[u8; 4]) -> Result<()> {
    match buf.get(4..8) {
        Some(found) if found == id => Ok(()),
        Some(found) => Err(Error::new(
            ErrorKind::Malformed,
            format!(
                "file identifier is {:?}, expected {:?}",
                String::from_utf8_lossy(found),
                String::from_utf8_lossy(id)
            ),
        )
        .at_offset(4)),
        None => Err(Error::new(
            ErrorKind::Malformed,
            format!("{} bytes is too short for a flatbuffer (need at least 8)", buf.len()),
        )),
    }
}

/// Converts a flatbuffers verifier error into ours, keeping path and offset.
pub fn from_verifier(e: InvalidFlatbuffer) -> Error {
    use InvalidFlatbuffer as I;
    let (kind, message, offset, trace) = match &e {
        I::MissingRequiredField { required, error_trace } => {
            (ErrorKind::Malformed, format!("missing required field {required}"), None, Some(error_trace))
        }
        I::InconsistentUnion { field, field_type, error_trace } => (
            ErrorKind::Malformed,
            format!("union {field} and its tag {field_type} disagree on presence"),
            None,
            Some(error_trace),
        ),
        I::Utf8Error { error, range, error_trace } => {
            (ErrorKind::Malformed, format!("string is not valid UTF-8: {error}"), Some(range.start), Some(error_trace))
        }
        I::MissingNullTerminator { range, error_trace } => {
            (ErrorKind::Malformed, "string lacks its NUL terminator".to_string(), Some(range.start), Some(error_trace))
        }
        I::Unaligned { position, unaligned_type, error_trace } => {
            (ErrorKind::Malformed, format!("{unaligned_type} is misaligned"), Some(*position), Some(error_trace))
        }
        I::RangeOutOfBounds { range, error_trace } => (
            ErrorKind::Malformed,
            format!("range {}..{} is outside the buffer", range.start, range.end),
            Some(range.start),
            Some(error_trace),
        ),
        I::SignedOffsetOutOfBounds { soffset, position, error_trace } => (
            ErrorKind::Malformed,
            format!("vtable offset {soffset} points outside the buffer"),
            Some(*position),
            Some(error_trace),
        ),
        I::TooManyTables => (ErrorKind::LimitExceeded, "more tables than the limit allows".to_string(), None, None),
        I::ApparentSizeTooLarge => (
            ErrorKind::LimitExceeded,
            "apparent size (shared objects expanded) exceeds the limit".to_string(),
            None,
            None,
        ),
        I::DepthLimitReached => (ErrorKind::LimitExceeded, "tables nest deeper than the limit".to_string(), None, None),
    };
    let mut err = Error::new(kind, message);
    if let Some(t) = trace {
        err = err.at_path(trace_path(t.as_ref()));
    }
    if let Some(o) = offset {
        err = err.at_offset(o as u64);
    }
    err
}

fn trace_path(trace: &[ErrorTraceDetail]) -> String {
    let mut path = String::new();
    for d in trace.iter().rev() {
        match d {
            ErrorTraceDetail::TableField { field_name, .. } => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(field_name);
            }
            ErrorTraceDetail::VectorElement { index, .. } => {
                path.push_str(&format!("[{index}]"));
            }
            ErrorTraceDetail::UnionVariant { variant, .. } => {
                path.push_str(&format!("<{variant}>"));
            }
        }
    }
    path
}

fn unknown_tag(path: String, tag: u8, loc: usize) -> Error {
    Error::new(ErrorKind::Unsupported, format!("unknown union tag {tag}")).at_path(path).at_offset(loc as u64)
}

pub(crate) fn scalars<'a, T: flatbuffers::Follow<'a> + 'a>(v: Option<Vector<'a, T>>) -> Option<Vec<T::Inner>> {
    v.map(|v| v.iter().collect())
}

pub(crate) fn string(s: Option<&str>) -> Option<String> {
    s.map(str::to_owned)
}

pub(crate) fn tables<'a, T: 'a, U>(
    v: Option<Vector<'a, ForwardsUOffset<T>>>,
    mut f: impl FnMut(usize, T) -> Result<U>,
) -> Result<Option<Vec<U>>>
where
    ForwardsUOffset<T>: flatbuffers::Follow<'a, Inner = T>,
{
    match v {
        None => Ok(None),
        Some(v) => {
            let mut out = Vec::with_capacity(v.len());
            for (i, t) in v.iter().enumerate() {
                out.push(f(i, t)?);
            }
            Ok(Some(out))
        }
    }
}

pub(crate) fn infallible<'a, T: 'a, U>(v: Option<Vector<'a, ForwardsUOffset<T>>>, f: impl Fn(T) -> U) -> Option<Vec<U>>
where
    ForwardsUOffset<T>: flatbuffers::Follow<'a, Inner = T>,
{
    v.map(|v| v.iter().map(f).collect())
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
    Ok(ExecutionPlan {
        name: string(p.name()),
        container_meta_type: p.container_meta_type().map(|c| ContainerMetadata {
            encoded_inp_str: string(c.encoded_inp_str()),
            encoded_out_str: string(c.encoded_out_str()),
        }),
        values: tables(p.values(), |j, v| evalue(i, j, v))?,
        inputs: scalars(p.inputs()),
        outputs: scalars(p.outputs()),
        chains: tables(p.chains(), |j, c| chain(i, j, c))?,
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

fn chain(plan: usize, index: usize, c: et::Chain<'_>) -> Result<Chain> {
    Ok(Chain {
        inputs: scalars(c.inputs()),
        outputs: scalars(c.outputs()),
        instructions: tables(c.instructions(), |k, ins| instruction(plan, index, k, ins))?,
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
