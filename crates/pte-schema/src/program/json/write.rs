//! The flatc-compatible JSON form exir uses for programs.
//!
//! Every field is present: absent tables, vectors and strings are `null`,
//! scalars at their default are written out, enums are integers, unions are a
//! `<field>_type` name string (`"NONE"` when unset) beside `<field>`. Byte
//! vectors are integer arrays unless the caller asks for another rendering.
//! Non-finite doubles become the strings `"inf"`, `"-inf"` and `"nan"`, which
//! JSON numbers cannot express.

use serde_json::{json, Map, Value};

use crate::program::model::*;
use pte_core::Bytes;

/// How the two large byte vectors (`Buffer.storage`,
/// `BackendDelegateInlineData.data`) are rendered.
///
/// ```
/// use pte_schema::{program_to_json, JsonBytes, Program};
/// let v = program_to_json(&Program::default(), JsonBytes::Integers);
/// assert_eq!(v["version"], 0);
/// assert!(v["execution_plan"].is_null());
/// ```
pub enum JsonBytes<'f> {
    /// As an array of integers, like flatc.
    Integers,
    /// Through the given function (for example a `{len, sha256}` digest).
    With(&'f dyn Fn(&[u8]) -> Value),
}

/// Renders `program` as flatc-compatible JSON.
///
/// ```
/// use pte_schema::*;
/// let p = Program { segments: Some(vec![DataSegment { offset: 0, size: 4 }]), ..Default::default() };
/// let v = program_to_json(&p, JsonBytes::Integers);
/// assert_eq!(v["segments"][0]["size"], 4);
/// ```
pub fn program_to_json(program: &Program<'_>, bytes: JsonBytes<'_>) -> Value {
    let big = |b: &Option<Bytes<'_>>| -> Value {
        match (b, &bytes) {
            (None, _) => Value::Null,
            (Some(b), JsonBytes::Integers) => json!(b.as_ref()),
            (Some(b), JsonBytes::With(f)) => f(b),
        }
    };
    json!({
        "version": program.version,
        "execution_plan": list(&program.execution_plan, plan),
        "constant_buffer": list(&program.constant_buffer, |b| json!({ "storage": big(&b.storage) })),
        "backend_delegate_data": list(&program.backend_delegate_data, |b| json!({ "data": big(&b.data) })),
        "segments": list(&program.segments, |s| json!({ "offset": s.offset, "size": s.size })),
        "constant_segment": program.constant_segment.as_ref().map(subsegment),
        "mutable_data_segments": list(&program.mutable_data_segments, subsegment),
        "named_data": list(&program.named_data, |n| json!({ "key": n.key, "segment_index": n.segment_index })),
    })
}

fn list<T>(v: &Option<Vec<T>>, f: impl Fn(&T) -> Value) -> Value {
    match v {
        None => Value::Null,
        Some(v) => Value::Array(v.iter().map(f).collect()),
    }
}

fn subsegment(s: &SubsegmentOffsets) -> Value {
    json!({ "segment_index": s.segment_index, "offsets": s.offsets })
}

pub(crate) fn double(x: f64) -> Value {
    if x.is_nan() {
        json!("nan")
    } else if x == f64::INFINITY {
        json!("inf")
    } else if x == f64::NEG_INFINITY {
        json!("-inf")
    } else {
        json!(x)
    }
}

fn plan(p: &ExecutionPlan) -> Value {
    json!({
        "name": p.name,
        "container_meta_type": p.container_meta_type.as_ref().map(|c| json!({
            "encoded_inp_str": c.encoded_inp_str,
            "encoded_out_str": c.encoded_out_str,
        })),
        "values": list(&p.values, evalue),
        "inputs": p.inputs,
        "outputs": p.outputs,
        "chains": list(&p.chains, chain),
        "operators": list(&p.operators, |o| json!({ "name": o.name, "overload": o.overload })),
        "delegates": list(&p.delegates, delegate),
        "non_const_buffer_sizes": p.non_const_buffer_sizes,
        "non_const_buffer_device": list(&p.non_const_buffer_device, |d| json!({
            "buffer_idx": d.buffer_idx,
            "device_type": d.device_type.0,
            "device_index": d.device_index,
        })),
    })
}

fn delegate(d: &BackendDelegate) -> Value {
    json!({
        "id": d.id,
        "processed": d.processed.map(|r| json!({ "location": r.location.0, "index": r.index })),
        "compile_specs": list(&d.compile_specs, |c| json!({ "key": c.key, "value": c.value })),
    })
}

fn union(field: &str, type_name: &str, value: Value) -> Value {
    let mut m = Map::new();
    m.insert(format!("{field}_type"), json!(type_name));
    m.insert(field.to_string(), value);
    Value::Object(m)
}

fn evalue(v: &EValue) -> Value {
    match &v.val {
        None => union("val", "NONE", Value::Null),
        Some(k) => union("val", k.type_name(), kernel_value(k)),
    }
}

fn kernel_value(k: &KernelTypes) -> Value {
    match k {
        KernelTypes::Null => json!({}),
        KernelTypes::Int(x) => json!({ "int_val": x }),
        KernelTypes::Bool(x) => json!({ "bool_val": x }),
        KernelTypes::Double(x) => json!({ "double_val": double(*x) }),
        KernelTypes::Tensor(t) => tensor(t),
        KernelTypes::String(s) => json!({ "string_val": s }),
        KernelTypes::IntList(v) => json!({ "items": v }),
        KernelTypes::DoubleList(v) => {
            json!({ "items": v.as_ref().map(|v| v.iter().map(|x| double(*x)).collect::<Vec<_>>()) })
        }
        KernelTypes::BoolList(v) => json!({ "items": v }),
        KernelTypes::TensorList(v) | KernelTypes::OptionalTensorList(v) => json!({ "items": v }),
    }
}

fn tensor(t: &Tensor) -> Value {
    json!({
        "scalar_type": t.scalar_type.0,
        "storage_offset": t.storage_offset,
        "sizes": t.sizes,
        "dim_order": t.dim_order,
        "requires_grad": t.requires_grad,
        "data_buffer_idx": t.data_buffer_idx,
        "allocation_info": t.allocation_info.map(|a| json!({
            "memory_id": a.memory_id,
            "memory_offset_low": a.memory_offset_low,
            "memory_offset_high": a.memory_offset_high,
        })),
        "layout": t.layout,
        "shape_dynamism": t.shape_dynamism.0,
        "extra_tensor_info": t.extra_tensor_info.as_ref().map(|e| json!({
            "mutable_data_segments_idx": e.mutable_data_segments_idx,
            "fully_qualified_name": e.fully_qualified_name,
            "location": e.location.0,
            "device_type": e.device_type.0,
            "device_index": e.device_index,
        })),
    })
}

fn chain(c: &Chain) -> Value {
    json!({
        "inputs": c.inputs,
        "outputs": c.outputs,
        "instructions": list(&c.instructions, instruction),
        "stacktrace": list(&c.stacktrace, |fl| json!({
            "items": list(&fl.items, |f| json!({
                "filename": f.filename,
                "lineno": f.lineno,
                "name": f.name,
                "context": f.context,
            })),
        })),
    })
}

fn instruction(i: &Instruction) -> Value {
    let Some(a) = &i.instr_args else {
        return union("instr_args", "NONE", Value::Null);
    };
    let v = match a {
        InstructionArguments::KernelCall { op_index, args } => {
            json!({ "op_index": op_index, "args": args })
        }
        InstructionArguments::DelegateCall { delegate_index, args } => {
            json!({ "delegate_index": delegate_index, "args": args })
        }
        InstructionArguments::MoveCall { move_from, move_to } => {
            json!({ "move_from": move_from, "move_to": move_to })
        }
        InstructionArguments::JumpFalseCall { cond_value_index, destination_instruction } => json!({
            "cond_value_index": cond_value_index,
            "destination_instruction": destination_instruction,
        }),
        InstructionArguments::FreeCall { value_index } => json!({ "value_index": value_index }),
    };
    union("instr_args", a.type_name(), v)
}
