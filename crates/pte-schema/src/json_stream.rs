//! The flatc-compatible JSON of [`crate::program_to_json`], written while
//! walking the verified buffer: no model and no JSON tree, so memory stays
//! bounded by the writer's buffer and the nesting depth whatever the
//! program's size. Keys come out sorted, as `serde_json`'s map orders them,
//! so the pretty form is byte-identical to `to_string_pretty` of the tree.

use std::io;

use flatbuffers::{Follow, Vector};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use crate::decode::{decode_program, verify_root};
use crate::fenced::et;
use crate::limits::Limits;
use pte_core::Result;

/// A verified program, ready to be written as JSON.
///
/// ```
/// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte"))?;
/// let mut out = vec![];
/// pte_schema::ProgramJson::new(&bytes, &Default::default())?.write_pretty(&mut out)?;
/// let tree = pte_schema::program_to_json(
///     &pte_schema::decode_program(&bytes, &Default::default())?,
///     pte_schema::JsonBytes::Integers,
/// );
/// assert_eq!(out, serde_json::to_vec_pretty(&tree)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy)]
pub struct ProgramJson<'a> {
    root: et::Program<'a>,
}

impl<'a> ProgramJson<'a> {
    /// Verifies `buf` and checks it the way [`decode_program`] does (known
    /// union tags, the limits on tables and keys), so that writing cannot
    /// fail on the program's account; a program `decode_program` refuses is
    /// refused here with the same error.
    ///
    /// ```
    /// assert!(pte_schema::ProgramJson::new(b"not a program", &Default::default()).is_err());
    /// ```
    pub fn new(buf: &'a [u8], limits: &Limits) -> Result<Self> {
        let root = verify_root(buf, limits)?;
        if !decodable(root, limits) {
            // the decoder names the problem; it cannot succeed here
            decode_program(buf, limits)?;
        }
        Ok(ProgramJson { root })
    }

    /// Writes the pretty-printed JSON (two-space indent, no final newline).
    ///
    /// ```
    /// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte"))?;
    /// let mut out = vec![];
    /// pte_schema::ProgramJson::new(&bytes, &Default::default())?.write_pretty(&mut out)?;
    /// assert!(out.starts_with(b"{\n  \"backend_delegate_data\": []"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write_pretty<W: io::Write>(&self, w: W) -> io::Result<()> {
        serde_json::to_writer_pretty(w, &Root(self.root)).map_err(io::Error::from)
    }
}

/// The checks of [`decode_program`] beyond the flatbuffers verifier.
fn decodable(p: et::Program<'_>, limits: &Limits) -> bool {
    let key_ok = |k: Option<&str>| k.is_none_or(|k| k.len() <= limits.max_key_len);
    if p.segments().map_or(0, |v| v.len()) > limits.max_segments
        || p.named_data().map_or(0, |v| v.len()) > limits.max_named_data
        || p.named_data().iter().flat_map(|v| v.iter()).any(|n| !key_ok(n.key()))
    {
        return false;
    }
    p.execution_plan().iter().flat_map(|v| v.iter()).all(|plan| {
        let values_ok = plan.values().iter().flat_map(|v| v.iter()).all(|v| match v.val_type() {
            et::KernelTypes::Tensor => {
                v.val_as_tensor().and_then(|t| t.extra_tensor_info()).is_none_or(|e| key_ok(e.fully_qualified_name()))
            }
            t => t.0 <= et::KernelTypes::OptionalTensorList.0,
        });
        values_ok
            && plan.chains().iter().flat_map(|v| v.iter()).all(|c| {
                c.instructions()
                    .iter()
                    .flat_map(|v| v.iter())
                    .all(|i| i.instr_args_type().0 <= et::InstructionArguments::FreeCall.0)
            })
    })
}

/// A JSON object with its keys in sorted order, each value serializable.
macro_rules! object {
    ($s:expr, { $($k:literal : $v:expr),* $(,)? }) => {{
        let mut m = $s.serialize_map(None)?;
        $( m.serialize_entry($k, &$v)?; )*
        m.end()
    }};
}

/// An optional vector of tables, each rendered by `F`.
struct Tables<'a, T: 'a, F>(Option<Vector<'a, flatbuffers::ForwardsUOffset<T>>>, F);

impl<'a, T: 'a, F, S: Serialize> Serialize for Tables<'a, T, F>
where
    flatbuffers::ForwardsUOffset<T>: Follow<'a, Inner = T>,
    F: Fn(T) -> S,
{
    fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
        match self.0 {
            None => s.serialize_none(),
            Some(v) => {
                let mut seq = s.serialize_seq(Some(v.len()))?;
                for t in v.iter() {
                    seq.serialize_element(&(self.1)(t))?;
                }
                seq.end()
            }
        }
    }
}

/// An optional vector of scalars.
struct Scalars<'a, T: 'a>(Option<Vector<'a, T>>);

impl<'a, T: Follow<'a> + 'a> Serialize for Scalars<'a, T>
where
    T::Inner: Serialize,
{
    fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
        match self.0 {
            None => s.serialize_none(),
            Some(v) => {
                let mut seq = s.serialize_seq(Some(v.len()))?;
                for x in v.iter() {
                    seq.serialize_element(&x)?;
                }
                seq.end()
            }
        }
    }
}

/// A double as [`crate::program_to_json`] renders it: non-finite values as strings.
struct Double(f64);

impl Serialize for Double {
    fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
        let x = self.0;
        if x.is_nan() {
            s.serialize_str("nan")
        } else if x == f64::INFINITY {
            s.serialize_str("inf")
        } else if x == f64::NEG_INFINITY {
            s.serialize_str("-inf")
        } else {
            s.serialize_f64(x)
        }
    }
}

/// An optional value: `null` when absent.
struct Opt<T>(Option<T>);

impl<T: Serialize> Serialize for Opt<T> {
    fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
        match &self.0 {
            None => s.serialize_none(),
            Some(v) => v.serialize(s),
        }
    }
}

struct Root<'a>(et::Program<'a>);

impl Serialize for Root<'_> {
    fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
        let p = self.0;
        object!(s, {
            "backend_delegate_data": Tables(p.backend_delegate_data(), InlineData),
            "constant_buffer": Tables(p.constant_buffer(), Buffer),
            "constant_segment": Opt(p.constant_segment().map(Subsegment)),
            "execution_plan": Tables(p.execution_plan(), Plan),
            "mutable_data_segments": Tables(p.mutable_data_segments(), Subsegment),
            "named_data": Tables(p.named_data(), NamedData),
            "segments": Tables(p.segments(), |d: et::DataSegment<'_>| Segment(d.offset(), d.size())),
            "version": p.version(),
        })
    }
}

struct InlineData<'a>(et::BackendDelegateInlineData<'a>);

impl Serialize for InlineData<'_> {
    fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
        object!(s, { "data": Scalars(self.0.data()) })
    }
}

struct Buffer<'a>(et::Buffer<'a>);

impl Serialize for Buffer<'_> {
    fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
        object!(s, { "storage": Scalars(self.0.storage()) })
    }
}

struct Subsegment<'a>(et::SubsegmentOffsets<'a>);

impl Serialize for Subsegment<'_> {
    fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
        object!(s, { "offsets": Scalars(self.0.offsets()), "segment_index": self.0.segment_index() })
    }
}

struct NamedData<'a>(et::NamedData<'a>);

impl Serialize for NamedData<'_> {
    fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
        object!(s, { "key": self.0.key(), "segment_index": self.0.segment_index() })
    }
}

struct Segment(u64, u64);

impl Serialize for Segment {
    fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
        object!(s, { "offset": self.0, "size": self.1 })
    }
}

struct Plan<'a>(et::ExecutionPlan<'a>);

impl Serialize for Plan<'_> {
    fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
        let p = self.0;
        object!(s, {
            "chains": Tables(p.chains(), Chain),
            "container_meta_type": Opt(p.container_meta_type().map(ContainerMeta)),
            "delegates": Tables(p.delegates(), Delegate),
            "inputs": Scalars(p.inputs()),
            "name": p.name(),
            "non_const_buffer_device": Tables(p.non_const_buffer_device(), BufferDevice),
            "non_const_buffer_sizes": Scalars(p.non_const_buffer_sizes()),
            "operators": Tables(p.operators(), Operator),
            "outputs": Scalars(p.outputs()),
            "values": Tables(p.values(), Value),
        })
    }
}

struct ContainerMeta<'a>(et::ContainerMetadata<'a>);

impl Serialize for ContainerMeta<'_> {
    fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
        object!(s, { "encoded_inp_str": self.0.encoded_inp_str(), "encoded_out_str": self.0.encoded_out_str() })
    }
}

struct BufferDevice<'a>(et::NonConstBufferDevice<'a>);

impl Serialize for BufferDevice<'_> {
    fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
        let d = self.0;
        object!(s, {
            "buffer_idx": d.buffer_idx(),
            "device_index": d.device_index(),
            "device_type": d.device_type().0,
        })
    }
}

struct Operator<'a>(et::Operator<'a>);

impl Serialize for Operator<'_> {
    fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
        object!(s, { "name": self.0.name(), "overload": self.0.overload() })
    }
}

struct Delegate<'a>(et::BackendDelegate<'a>);

impl Serialize for Delegate<'_> {
    fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
        let d = self.0;
        object!(s, {
            "compile_specs": Tables(d.compile_specs(), CompileSpec),
            "id": d.id(),
            "processed": Opt(d.processed().map(|r| Reference(r.location().0, r.index()))),
        })
    }
}

struct Reference<T>(T, u32);

impl<T: Serialize> Serialize for Reference<T> {
    fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
        object!(s, { "index": self.1, "location": self.0 })
    }
}

struct CompileSpec<'a>(et::CompileSpec<'a>);

impl Serialize for CompileSpec<'_> {
    fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
        object!(s, { "key": self.0.key(), "value": Scalars(self.0.value()) })
    }
}

struct Chain<'a>(et::Chain<'a>);

impl Serialize for Chain<'_> {
    fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
        let c = self.0;
        object!(s, {
            "inputs": Scalars(c.inputs()),
            "instructions": Tables(c.instructions(), Instruction),
            "outputs": Scalars(c.outputs()),
            "stacktrace": Tables(c.stacktrace(), FrameList),
        })
    }
}

struct FrameList<'a>(et::FrameList<'a>);

impl Serialize for FrameList<'_> {
    fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
        object!(s, { "items": Tables(self.0.items(), Frame) })
    }
}

struct Frame<'a>(et::Frame<'a>);

impl Serialize for Frame<'_> {
    fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
        let f = self.0;
        object!(s, {
            "context": f.context(),
            "filename": f.filename(),
            "lineno": f.lineno(),
            "name": f.name(),
        })
    }
}

struct Instruction<'a>(et::Instruction<'a>);

impl Serialize for Instruction<'_> {
    fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
        use et::InstructionArguments as T;
        let i = self.0;
        // an unknown tag never gets here: `ProgramJson::new` refuses it
        let (name, args) = match i.instr_args_type() {
            T::KernelCall => some("KernelCall", i.instr_args_as_kernel_call().map(Args::Kernel)),
            T::DelegateCall => some("DelegateCall", i.instr_args_as_delegate_call().map(Args::Delegate)),
            T::MoveCall => some("MoveCall", i.instr_args_as_move_call().map(Args::Move)),
            T::JumpFalseCall => some("JumpFalseCall", i.instr_args_as_jump_false_call().map(Args::Jump)),
            T::FreeCall => some("FreeCall", i.instr_args_as_free_call().map(Args::Free)),
            _ => ("NONE", None),
        };
        object!(s, { "instr_args": Opt(args), "instr_args_type": name })
    }
}

/// The union's type name and value; an absent value reads as `NONE`.
fn some<T>(name: &'static str, v: Option<T>) -> (&'static str, Option<T>) {
    match v {
        Some(v) => (name, Some(v)),
        None => ("NONE", None),
    }
}

enum Args<'a> {
    Kernel(et::KernelCall<'a>),
    Delegate(et::DelegateCall<'a>),
    Move(et::MoveCall<'a>),
    Jump(et::JumpFalseCall<'a>),
    Free(et::FreeCall<'a>),
}

impl Serialize for Args<'_> {
    fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
        match self {
            Args::Kernel(k) => object!(s, { "args": Scalars(k.args()), "op_index": k.op_index() }),
            Args::Delegate(d) => object!(s, { "args": Scalars(d.args()), "delegate_index": d.delegate_index() }),
            Args::Move(m) => object!(s, { "move_from": m.move_from(), "move_to": m.move_to() }),
            Args::Jump(j) => object!(s, {
                "cond_value_index": j.cond_value_index(),
                "destination_instruction": j.destination_instruction(),
            }),
            Args::Free(f) => object!(s, { "value_index": f.value_index() }),
        }
    }
}

struct Value<'a>(et::EValue<'a>);

impl Serialize for Value<'_> {
    fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
        use et::KernelTypes as K;
        let v = self.0;
        // an unknown tag never gets here: `ProgramJson::new` refuses it
        let (name, val) = match v.val_type() {
            K::Null => ("Null", Some(Kernel::Null)),
            K::Int => some("Int", v.val_as_int().map(|x| Kernel::Int(x.int_val()))),
            K::Bool => some("Bool", v.val_as_bool().map(|x| Kernel::Bool(x.bool_val()))),
            K::Double => some("Double", v.val_as_double().map(|x| Kernel::Double(x.double_val()))),
            K::Tensor => some("Tensor", v.val_as_tensor().map(Kernel::Tensor)),
            K::String => some("String", v.val_as_string().map(|x| Kernel::String(x.string_val()))),
            K::IntList => some("IntList", v.val_as_int_list().map(|l| Kernel::IntList(l.items()))),
            K::DoubleList => some("DoubleList", v.val_as_double_list().map(|l| Kernel::DoubleList(l.items()))),
            K::BoolList => some("BoolList", v.val_as_bool_list().map(|l| Kernel::BoolList(l.items()))),
            K::TensorList => some("TensorList", v.val_as_tensor_list().map(|l| Kernel::Indices(l.items()))),
            K::OptionalTensorList => {
                some("OptionalTensorList", v.val_as_optional_tensor_list().map(|l| Kernel::Indices(l.items())))
            }
            _ => ("NONE", None),
        };
        object!(s, { "val": Opt(val), "val_type": name })
    }
}

enum Kernel<'a> {
    Null,
    Int(i64),
    Bool(bool),
    Double(f64),
    Tensor(et::Tensor<'a>),
    String(Option<&'a str>),
    IntList(Option<Vector<'a, i64>>),
    DoubleList(Option<Vector<'a, f64>>),
    BoolList(Option<Vector<'a, bool>>),
    Indices(Option<Vector<'a, i32>>),
}

struct Doubles<'a>(Option<Vector<'a, f64>>);

impl Serialize for Doubles<'_> {
    fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
        match self.0 {
            None => s.serialize_none(),
            Some(v) => {
                let mut seq = s.serialize_seq(Some(v.len()))?;
                for x in v.iter() {
                    seq.serialize_element(&Double(x))?;
                }
                seq.end()
            }
        }
    }
}

impl Serialize for Kernel<'_> {
    fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
        match *self {
            Kernel::Null => s.serialize_map(Some(0))?.end(),
            Kernel::Int(x) => object!(s, { "int_val": x }),
            Kernel::Bool(x) => object!(s, { "bool_val": x }),
            Kernel::Double(x) => object!(s, { "double_val": Double(x) }),
            Kernel::Tensor(t) => Tensor(t).serialize(s),
            Kernel::String(x) => object!(s, { "string_val": x }),
            Kernel::IntList(v) => object!(s, { "items": Scalars(v) }),
            Kernel::DoubleList(v) => object!(s, { "items": Doubles(v) }),
            Kernel::BoolList(v) => object!(s, { "items": Scalars(v) }),
            Kernel::Indices(v) => object!(s, { "items": Scalars(v) }),
        }
    }
}

struct Tensor<'a>(et::Tensor<'a>);

impl Serialize for Tensor<'_> {
    fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
        let t = self.0;
        object!(s, {
            "allocation_info": Opt(t.allocation_info().map(Allocation)),
            "data_buffer_idx": t.data_buffer_idx(),
            "dim_order": Scalars(t.dim_order()),
            "extra_tensor_info": Opt(t.extra_tensor_info().map(ExtraInfo)),
            "layout": t.layout(),
            "requires_grad": t.requires_grad(),
            "scalar_type": t.scalar_type().0,
            "shape_dynamism": t.shape_dynamism().0,
            "sizes": Scalars(t.sizes()),
            "storage_offset": t.storage_offset(),
        })
    }
}

struct Allocation<'a>(et::AllocationDetails<'a>);

impl Serialize for Allocation<'_> {
    fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
        let a = self.0;
        object!(s, {
            "memory_id": a.memory_id(),
            "memory_offset_high": a.memory_offset_high(),
            "memory_offset_low": a.memory_offset_low(),
        })
    }
}

struct ExtraInfo<'a>(et::ExtraTensorInfo<'a>);

impl Serialize for ExtraInfo<'_> {
    fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
        let e = self.0;
        object!(s, {
            "device_index": e.device_index(),
            "device_type": e.device_type().0,
            "fully_qualified_name": e.fully_qualified_name(),
            "location": e.location().0,
            "mutable_data_segments_idx": e.mutable_data_segments_idx(),
        })
    }
}
