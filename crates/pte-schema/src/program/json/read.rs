//! Reading a program back from JSON (and the reader the `.ptd`'s tables use
//! too): the inverse of
//! [`program_to_json`](crate::program_to_json) and of flatc's `--json`.
//!
//! Both dialects are accepted: every field present with `null` for absent
//! tables (our dump) or absent fields at their default (flatc); enums as
//! integers or as schema names; union tags as type names, tag numbers or
//! absent (`NONE`); doubles as numbers or `"inf"`, `"-inf"`, `"nan"`.
//! A field the schema does not have is an error, so a typo is not silently
//! dropped. Every error names the JSON path and the line it is on.

use std::collections::BTreeMap;

use serde_json::value::RawValue;

use crate::program::model::*;
use pte_core::Bytes;
use pte_core::{Error, ErrorKind, Result};

/// Reads a program from its JSON form ([`program_to_json`](crate::program_to_json)
/// output, or what `flatc --json --strict-json` writes from a `.pte`).
///
/// Errors are [`ErrorKind::Malformed`], with the JSON path as the error's
/// path, the byte position in `text` as its offset, and the line in the message.
///
/// ```
/// use pte_schema::*;
/// let p = Program { version: 0, execution_plan: Some(vec![ExecutionPlan {
///     name: Some("forward".into()), ..Default::default() }]), ..Default::default() };
/// let text = program_to_json(&p, JsonBytes::Integers).to_string();
/// assert_eq!(program_from_json(&text)?, p);
///
/// let e = program_from_json("{\n \"version\": \"x\"\n}").unwrap_err();
/// assert_eq!(e.path(), "version");
/// assert!(e.message().contains("line 2"));
/// # Ok::<(), pte_schema::Error>(())
/// ```
pub fn program_from_json(text: &str) -> Result<Program<'static>> {
    let root = Node::root(text)?;
    program(&root)
}

/// One JSON value, its path and the whole text (for positions).
pub(crate) struct Node<'a> {
    raw: &'a RawValue,
    src: &'a str,
    path: String,
}

/// 1-based line of byte `offset` in `src`.
fn line_of(src: &str, offset: usize) -> usize {
    src.get(..offset).map_or(0, |s| s.bytes().filter(|&b| b == b'\n').count()).saturating_add(1)
}

impl<'a> Node<'a> {
    pub(crate) fn root(src: &'a str) -> Result<Self> {
        let raw: &RawValue =
            serde_json::from_str(src).map_err(|e| Error::new(ErrorKind::Malformed, format!("invalid JSON: {e}")))?;
        Ok(Node { raw, src, path: String::new() })
    }

    fn offset(&self) -> usize {
        (self.raw.get().as_ptr() as usize).saturating_sub(self.src.as_ptr() as usize)
    }

    fn err(&self, msg: impl std::fmt::Display) -> Error {
        let at = self.offset();
        Error::new(ErrorKind::Malformed, format!("{msg} (JSON line {})", line_of(self.src, at)))
            .at_path(self.path.clone())
            .at_offset(at as u64)
    }

    fn child(&self, raw: &'a RawValue, step: std::fmt::Arguments<'_>) -> Node<'a> {
        let path = if self.path.is_empty() { step.to_string() } else { format!("{}{step}", self.path) };
        Node { raw, src: self.src, path }
    }

    fn text(&self) -> &'a str {
        self.raw.get().trim()
    }

    fn is_null(&self) -> bool {
        self.text() == "null"
    }

    pub(crate) fn object(&self, fields: &[&str]) -> Result<Obj<'a>> {
        let map: BTreeMap<String, &'a RawValue> =
            serde_json::from_str(self.raw.get()).map_err(|_| self.err("expected an object"))?;
        let mut out = BTreeMap::new();
        for (k, v) in map {
            let node = self.child(v, format_args!(".{k}"));
            let node = if self.path.is_empty() { Node { path: k.clone(), ..node } } else { node };
            if !fields.contains(&k.as_str()) {
                return Err(node.err(format!("unknown field `{k}`")));
            }
            out.insert(k, node);
        }
        Ok(Obj { map: out, node: Node { raw: self.raw, src: self.src, path: self.path.clone() } })
    }

    fn array(&self) -> Result<Vec<Node<'a>>> {
        let items: Vec<&'a RawValue> =
            serde_json::from_str(self.raw.get()).map_err(|_| self.err("expected an array"))?;
        Ok(items.into_iter().enumerate().map(|(i, v)| self.child(v, format_args!("[{i}]"))).collect())
    }

    pub(crate) fn num<T: TryFrom<i64> + TryFrom<u64>>(&self) -> Result<T> {
        let bad = || self.err(format!("expected an integer in range, got {}", self.text()));
        let n: serde_json::Number = serde_json::from_str(self.raw.get()).map_err(|_| bad())?;
        if let Some(u) = n.as_u64() {
            T::try_from(u).map_err(|_| bad())
        } else if let Some(i) = n.as_i64() {
            T::try_from(i).map_err(|_| bad())
        } else {
            Err(bad())
        }
    }

    fn boolean(&self) -> Result<bool> {
        match self.text() {
            "true" => Ok(true),
            "false" => Ok(false),
            // flatc accepts 0 and 1 for bools
            "0" => Ok(false),
            "1" => Ok(true),
            t => Err(self.err(format!("expected a boolean, got {t}"))),
        }
    }

    fn double(&self) -> Result<f64> {
        if let Ok(s) = serde_json::from_str::<String>(self.raw.get()) {
            return match s.as_str() {
                "inf" | "+inf" | "infinity" => Ok(f64::INFINITY),
                "-inf" | "-infinity" => Ok(f64::NEG_INFINITY),
                "nan" | "+nan" | "-nan" => Ok(f64::NAN),
                _ => Err(self.err(format!("expected a number, got \"{s}\""))),
            };
        }
        serde_json::from_str::<f64>(self.raw.get())
            .map_err(|_| self.err(format!("expected a number, got {}", self.text())))
    }

    fn string(&self) -> Result<String> {
        serde_json::from_str(self.raw.get()).map_err(|_| self.err(format!("expected a string, got {}", self.text())))
    }
}

/// A JSON object whose keys were checked against the table's fields.
pub(crate) struct Obj<'a> {
    map: BTreeMap<String, Node<'a>>,
    node: Node<'a>,
}

impl<'a> Obj<'a> {
    /// The field's value; `None` when absent or `null`.
    fn get(&self, name: &str) -> Option<&Node<'a>> {
        self.map.get(name).filter(|n| !n.is_null())
    }

    pub(crate) fn num<T: TryFrom<i64> + TryFrom<u64>>(&self, name: &str, default: T) -> Result<T> {
        self.get(name).map_or(Ok(default), Node::num)
    }

    fn boolean(&self, name: &str) -> Result<bool> {
        self.get(name).map_or(Ok(false), Node::boolean)
    }

    pub(crate) fn string(&self, name: &str) -> Result<Option<String>> {
        self.get(name).map(Node::string).transpose()
    }

    pub(crate) fn nums<T: TryFrom<i64> + TryFrom<u64>>(&self, name: &str) -> Result<Option<Vec<T>>> {
        self.list(name, Node::num)
    }

    pub(crate) fn list<T>(&self, name: &str, f: impl Fn(&Node<'a>) -> Result<T>) -> Result<Option<Vec<T>>> {
        let Some(n) = self.get(name) else { return Ok(None) };
        n.array()?.iter().map(f).collect::<Result<Vec<T>>>().map(Some)
    }

    pub(crate) fn table<T>(&self, name: &str, f: impl Fn(&Node<'a>) -> Result<T>) -> Result<Option<T>> {
        self.get(name).map(f).transpose()
    }

    /// An `int8` enum given as its number or its schema name.
    pub(crate) fn enumeration<E: Copy>(&self, name: &str, from_name: fn(&str) -> Option<E>) -> Result<i8>
    where
        i8: From<E>,
    {
        let Some(n) = self.get(name) else { return Ok(0) };
        if let Ok(s) = serde_json::from_str::<String>(n.raw.get()) {
            return from_name(&s).map(i8::from).ok_or_else(|| n.err(format!("unknown {name} name \"{s}\"")));
        }
        n.num()
    }

    /// A union: the tag from `<field>_type` (a type name or a number) and the value node.
    fn union(&self, field: &str, names: &[&str]) -> Result<Option<(usize, Option<&Node<'a>>)>> {
        let type_field = format!("{field}_type");
        let value = self.get(field);
        let tag = match self.get(&type_field) {
            None => 0,
            Some(t) => match serde_json::from_str::<String>(t.raw.get()) {
                Ok(s) if s == "NONE" => 0,
                Ok(s) => names
                    .iter()
                    .position(|n| *n == s)
                    .map(|p| p.saturating_add(1))
                    .ok_or_else(|| t.err(format!("unknown union type \"{s}\"")))?,
                Err(_) => t.num::<usize>()?,
            },
        };
        if tag == 0 {
            if let Some(v) = value {
                return Err(v.err(format!("value given but `{type_field}` is NONE or absent")));
            }
            return Ok(None);
        }
        if tag > names.len() {
            return Err(self.node.err(format!("union tag {tag} out of range")));
        }
        Ok(Some((tag, value)))
    }
}

macro_rules! enum_from {
    ($($t:ident),*) => {$(
        impl From<$t> for i8 {
            fn from(v: $t) -> i8 { v.0 }
        }
    )*};
}
enum_from!(ScalarType, TensorShapeDynamism, TensorDataLocation, DeviceType, DataLocation);

pub(crate) fn data_segment(n: &Node<'_>) -> Result<DataSegment> {
    let o = n.object(&["offset", "size"])?;
    Ok(DataSegment { offset: o.num("offset", 0)?, size: o.num("size", 0)? })
}

fn subsegment(n: &Node<'_>) -> Result<SubsegmentOffsets> {
    let o = n.object(&["segment_index", "offsets"])?;
    Ok(SubsegmentOffsets { segment_index: o.num("segment_index", 0)?, offsets: o.nums("offsets")? })
}

fn bytes(o: &Obj<'_>, name: &str) -> Result<Option<Bytes<'static>>> {
    Ok(o.nums::<u8>(name)?.map(Bytes::Owned))
}

fn program(n: &Node<'_>) -> Result<Program<'static>> {
    let o = n.object(&[
        "version",
        "execution_plan",
        "constant_buffer",
        "backend_delegate_data",
        "segments",
        "constant_segment",
        "mutable_data_segments",
        "named_data",
    ])?;
    Ok(Program {
        version: o.num("version", 0)?,
        execution_plan: o.list("execution_plan", plan)?,
        constant_buffer: o
            .list("constant_buffer", |n| Ok(Buffer { storage: bytes(&n.object(&["storage"])?, "storage")? }))?,
        backend_delegate_data: o.list("backend_delegate_data", |n| {
            Ok(BackendDelegateInlineData { data: bytes(&n.object(&["data"])?, "data")? })
        })?,
        segments: o.list("segments", data_segment)?,
        constant_segment: o.table("constant_segment", subsegment)?,
        mutable_data_segments: o.list("mutable_data_segments", subsegment)?,
        named_data: o.list("named_data", |n| {
            let o = n.object(&["key", "segment_index"])?;
            Ok(NamedData { key: o.string("key")?, segment_index: o.num("segment_index", 0)? })
        })?,
    })
}

fn plan(n: &Node<'_>) -> Result<ExecutionPlan> {
    let o = n.object(&[
        "name",
        "container_meta_type",
        "values",
        "inputs",
        "outputs",
        "chains",
        "operators",
        "delegates",
        "non_const_buffer_sizes",
        "non_const_buffer_device",
    ])?;
    Ok(ExecutionPlan {
        name: o.string("name")?,
        container_meta_type: o.table("container_meta_type", |n| {
            let o = n.object(&["encoded_inp_str", "encoded_out_str"])?;
            Ok(ContainerMetadata {
                encoded_inp_str: o.string("encoded_inp_str")?,
                encoded_out_str: o.string("encoded_out_str")?,
            })
        })?,
        values: o.list("values", evalue)?,
        inputs: o.nums("inputs")?,
        outputs: o.nums("outputs")?,
        chains: o.list("chains", chain)?,
        operators: o.list("operators", |n| {
            let o = n.object(&["name", "overload"])?;
            Ok(Operator { name: o.string("name")?, overload: o.string("overload")? })
        })?,
        delegates: o.list("delegates", delegate)?,
        non_const_buffer_sizes: o.nums("non_const_buffer_sizes")?,
        non_const_buffer_device: o.list("non_const_buffer_device", |n| {
            let o = n.object(&["buffer_idx", "device_type", "device_index"])?;
            Ok(NonConstBufferDevice {
                buffer_idx: o.num("buffer_idx", 0)?,
                device_type: DeviceType(o.enumeration("device_type", DeviceType::from_name)?),
                device_index: o.num("device_index", 0)?,
            })
        })?,
    })
}

fn delegate(n: &Node<'_>) -> Result<BackendDelegate> {
    let o = n.object(&["id", "processed", "compile_specs"])?;
    Ok(BackendDelegate {
        id: o.string("id")?,
        processed: o.table("processed", |n| {
            let o = n.object(&["location", "index"])?;
            Ok(BackendDelegateDataReference {
                location: DataLocation(o.enumeration("location", DataLocation::from_name)?),
                index: o.num("index", 0)?,
            })
        })?,
        compile_specs: o.list("compile_specs", |n| {
            let o = n.object(&["key", "value"])?;
            Ok(CompileSpec { key: o.string("key")?, value: o.nums("value")? })
        })?,
    })
}

const KERNEL_TYPES: &[&str] = &[
    "Null",
    "Int",
    "Bool",
    "Double",
    "Tensor",
    "String",
    "IntList",
    "DoubleList",
    "BoolList",
    "TensorList",
    "OptionalTensorList",
];

fn evalue(n: &Node<'_>) -> Result<EValue> {
    let o = n.object(&["val_type", "val"])?;
    let Some((tag, value)) = o.union("val", KERNEL_TYPES)? else { return Ok(EValue { val: None }) };
    // a union member table with every field at its default may be written as {} or left out
    let empty = Node::root("{}")?;
    let v = value.unwrap_or(&empty);
    let val = match tag {
        1 => {
            v.object(&[])?;
            KernelTypes::Null
        }
        2 => KernelTypes::Int(v.object(&["int_val"])?.num("int_val", 0)?),
        3 => KernelTypes::Bool(v.object(&["bool_val"])?.boolean("bool_val")?),
        4 => KernelTypes::Double(v.object(&["double_val"])?.get("double_val").map_or(Ok(0.0), Node::double)?),
        5 => KernelTypes::Tensor(tensor(v)?),
        6 => KernelTypes::String(v.object(&["string_val"])?.string("string_val")?),
        7 => KernelTypes::IntList(v.object(&["items"])?.nums("items")?),
        8 => KernelTypes::DoubleList(v.object(&["items"])?.list("items", Node::double)?),
        9 => KernelTypes::BoolList(v.object(&["items"])?.list("items", Node::boolean)?),
        10 => KernelTypes::TensorList(v.object(&["items"])?.nums("items")?),
        _ => KernelTypes::OptionalTensorList(v.object(&["items"])?.nums("items")?),
    };
    Ok(EValue { val: Some(val) })
}

fn tensor(n: &Node<'_>) -> Result<Tensor> {
    let o = n.object(&[
        "scalar_type",
        "storage_offset",
        "sizes",
        "dim_order",
        "requires_grad",
        "data_buffer_idx",
        "allocation_info",
        "layout",
        "shape_dynamism",
        "extra_tensor_info",
    ])?;
    Ok(Tensor {
        scalar_type: ScalarType(o.enumeration("scalar_type", ScalarType::from_name)?),
        storage_offset: o.num("storage_offset", 0)?,
        sizes: o.nums("sizes")?,
        dim_order: o.nums("dim_order")?,
        requires_grad: o.boolean("requires_grad")?,
        data_buffer_idx: o.num("data_buffer_idx", 0)?,
        allocation_info: o.table("allocation_info", |n| {
            let o = n.object(&["memory_id", "memory_offset_low", "memory_offset_high"])?;
            Ok(AllocationDetails {
                memory_id: o.num("memory_id", 0)?,
                memory_offset_low: o.num("memory_offset_low", 0)?,
                memory_offset_high: o.num("memory_offset_high", 0)?,
            })
        })?,
        layout: o.num("layout", 0)?,
        shape_dynamism: TensorShapeDynamism(o.enumeration("shape_dynamism", TensorShapeDynamism::from_name)?),
        extra_tensor_info: o.table("extra_tensor_info", |n| {
            let o = n.object(&[
                "mutable_data_segments_idx",
                "fully_qualified_name",
                "location",
                "device_type",
                "device_index",
            ])?;
            Ok(ExtraTensorInfo {
                mutable_data_segments_idx: o.num("mutable_data_segments_idx", 0)?,
                fully_qualified_name: o.string("fully_qualified_name")?,
                location: TensorDataLocation(o.enumeration("location", TensorDataLocation::from_name)?),
                device_type: DeviceType(o.enumeration("device_type", DeviceType::from_name)?),
                device_index: o.num("device_index", 0)?,
            })
        })?,
    })
}

fn chain(n: &Node<'_>) -> Result<Chain> {
    let o = n.object(&["inputs", "outputs", "instructions", "stacktrace"])?;
    Ok(Chain {
        inputs: o.nums("inputs")?,
        outputs: o.nums("outputs")?,
        instructions: o.list("instructions", instruction)?,
        stacktrace: o.list("stacktrace", |n| {
            let o = n.object(&["items"])?;
            Ok(FrameList {
                items: o.list("items", |n| {
                    let o = n.object(&["filename", "lineno", "name", "context"])?;
                    Ok(Frame {
                        filename: o.string("filename")?,
                        lineno: o.num("lineno", 0)?,
                        name: o.string("name")?,
                        context: o.string("context")?,
                    })
                })?,
            })
        })?,
    })
}

const INSTRUCTION_TYPES: &[&str] = &["KernelCall", "DelegateCall", "MoveCall", "JumpFalseCall", "FreeCall"];

fn instruction(n: &Node<'_>) -> Result<Instruction> {
    let o = n.object(&["instr_args_type", "instr_args"])?;
    let Some((tag, value)) = o.union("instr_args", INSTRUCTION_TYPES)? else {
        return Ok(Instruction { instr_args: None });
    };
    let empty = Node::root("{}")?;
    let v = value.unwrap_or(&empty);
    let args = match tag {
        1 => {
            let o = v.object(&["op_index", "args"])?;
            InstructionArguments::KernelCall { op_index: o.num("op_index", 0)?, args: o.nums("args")? }
        }
        2 => {
            let o = v.object(&["delegate_index", "args"])?;
            InstructionArguments::DelegateCall { delegate_index: o.num("delegate_index", 0)?, args: o.nums("args")? }
        }
        3 => {
            let o = v.object(&["move_from", "move_to"])?;
            InstructionArguments::MoveCall { move_from: o.num("move_from", 0)?, move_to: o.num("move_to", 0)? }
        }
        4 => {
            let o = v.object(&["cond_value_index", "destination_instruction"])?;
            InstructionArguments::JumpFalseCall {
                cond_value_index: o.num("cond_value_index", 0)?,
                destination_instruction: o.num("destination_instruction", 0)?,
            }
        }
        _ => InstructionArguments::FreeCall { value_index: v.object(&["value_index"])?.num("value_index", 0)? },
    };
    Ok(Instruction { instr_args: Some(args) })
}
