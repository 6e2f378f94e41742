//! The flatc-compatible JSON of [`crate::program_to_json`], written while
//! walking the verified buffer: no model and no JSON tree, so memory stays
//! bounded by the writer's buffer and the nesting depth whatever the
//! program's size. Keys come out sorted, as `serde_json`'s map orders them,
//! so the pretty form is byte-identical to `to_string_pretty` of the tree.

use std::cell::Cell;
use std::io;

use flatbuffers::{Follow, ForwardsUOffset, Vector};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use crate::fenced::et;
use crate::fenced::structure::Findings;
use crate::limits::Limits;
use crate::program::codec::decode::decode_program;
use crate::program::verify::verify_root_found;
use crate::program::view::ProgramView;
use pte_core::Result;

/// A verified program, ready to be written as JSON.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
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
    found: Findings,
}

/// Segment data folded into a program's JSON the way exir's
/// `deserialize_pte_binary` folds it into the program (what to fold is
/// decided by `pte_file::exir_restore`'s rules; this only says it): blobs
/// appended to `backend_delegate_data`, delegates pointed at them, the
/// constant segment's pieces as `constant_buffer`, `mutable_data_segments`
/// dropped, `named_data` and `segments` emptied.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
/// let json = pte_schema::ProgramJson::new(&bytes, &Default::default())?;
/// let mut out = vec![];
/// json.write_pretty_folded(&mut out, &pte_schema::ExirFold::default())?;
/// assert!(String::from_utf8(out)?.contains("\"segments\": []"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExirFold<'a> {
    /// Blobs appended to `backend_delegate_data` (an absent vector becomes
    /// one), in order.
    pub delegate_blobs: Vec<&'a [u8]>,
    /// For each delegate, plans then delegates in order: the index of the
    /// INLINE blob its `processed` reference now names, or `None` to keep
    /// the stored reference.
    pub delegate_refs: Vec<Option<u32>>,
    /// The pieces replacing `constant_buffer`, with `constant_segment` then
    /// at segment 0 with no offsets; `None` keeps both as stored.
    pub constant_pieces: Option<Vec<&'a [u8]>>,
    /// Whether `mutable_data_segments` is dropped (written `null`).
    pub drop_mutable: bool,
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
        let (root, found) = verify_root_found(buf, limits, None)?;
        if !decodable(root, limits) {
            // the decoder names the problem; it cannot succeed here
            decode_program(buf, limits)?;
        }
        Ok(ProgramJson { root, found })
    }

    /// The verified program as a view (verified once, read both ways).
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
    /// let json = pte_schema::ProgramJson::new(&bytes, &Default::default())?;
    /// assert_eq!(json.view().plan_count(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn view(&self) -> ProgramView<'a> {
        ProgramView::from_verified(self.root, self.found)
    }

    /// Writes the pretty-printed JSON of the program with `fold` applied:
    /// byte-identical to [`ProgramJson::write_pretty`] of the folded program
    /// encoded again, without building it.
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
    /// let json = pte_schema::ProgramJson::new(&bytes, &Default::default())?;
    /// let mut out = vec![];
    /// json.write_pretty_folded(&mut out, &pte_schema::ExirFold { drop_mutable: true, ..Default::default() })?;
    /// assert!(String::from_utf8(out)?.contains("\"mutable_data_segments\": null"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write_pretty_folded<W: io::Write>(&self, w: W, fold: &ExirFold<'_>) -> io::Result<()> {
        let next = Cell::new(0);
        let folded = Folded { root: self.root, fold, next: &next };
        serde_json::to_writer_pretty(w, &Json(folded)).map_err(io::Error::from)
    }

    /// Writes the pretty-printed JSON (two-space indent, no final newline).
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
    /// let mut out = vec![];
    /// pte_schema::ProgramJson::new(&bytes, &Default::default())?.write_pretty(&mut out)?;
    /// assert!(out.starts_with(b"{\n  \"backend_delegate_data\": []"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write_pretty<W: io::Write>(&self, w: W) -> io::Result<()> {
        serde_json::to_writer_pretty(w, &Json(self.root)).map_err(io::Error::from)
    }

    /// Writes the same document compactly (no whitespace).
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
    /// let mut out = vec![];
    /// pte_schema::ProgramJson::new(&bytes, &Default::default())?.write_compact(&mut out)?;
    /// assert!(out.starts_with(b"{\"backend_delegate_data\":[]"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write_compact<W: io::Write>(&self, w: W) -> io::Result<()> {
        serde_json::to_writer(w, &Json(self.root)).map_err(io::Error::from)
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

/// What writing a table's entries gives.
type Done<M> = std::result::Result<(), <M as SerializeMap>::Error>;

/// A table (or a union's value) written as a JSON object: `entries` puts
/// its fields, keys in sorted order, into the object [`Json`] opens and
/// closes, so each table states only its fields.
trait Fields: Copy {
    fn entries<M: SerializeMap>(self, m: &mut M) -> Done<M>;
}

/// `T` as a JSON object.
struct Json<T>(T);

impl<T: Fields> Serialize for Json<T> {
    fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
        let mut m = s.serialize_map(None)?;
        self.0.entries(&mut m)?;
        m.end()
    }
}

/// An optional vector as a JSON array, each element as `item` renders it;
/// `null` when absent.
fn seq<'a, Z: Serializer, T: Follow<'a> + 'a, E: Serialize>(
    s: Z,
    v: Option<Vector<'a, T>>,
    item: impl Fn(T::Inner) -> E,
) -> std::result::Result<Z::Ok, Z::Error> {
    let Some(v) = v else { return s.serialize_none() };
    let mut seq = s.serialize_seq(Some(v.len()))?;
    for x in v.iter() {
        seq.serialize_element(&item(x))?;
    }
    seq.end()
}

/// An optional vector of tables.
struct Tables<'a, T: 'a>(Option<Vector<'a, ForwardsUOffset<T>>>);

impl<'a, T: Fields + 'a> Serialize for Tables<'a, T>
where
    ForwardsUOffset<T>: Follow<'a, Inner = T>,
{
    fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
        seq(s, self.0, Json)
    }
}

/// An optional vector of scalars.
struct Scalars<'a, T: 'a>(Option<Vector<'a, T>>);

impl<'a, T: Follow<'a> + 'a> Serialize for Scalars<'a, T>
where
    T::Inner: Serialize,
{
    fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
        seq(s, self.0, |x| x)
    }
}

/// An optional vector of doubles, each as [`Double`] renders it.
struct Doubles<'a>(Option<Vector<'a, f64>>);

impl Serialize for Doubles<'_> {
    fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
        seq(s, self.0, Double)
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

/// The program with an [`ExirFold`] applied; `next` counts the delegates
/// written, to find each one's entry of `delegate_refs`.
#[derive(Clone, Copy)]
struct Folded<'a, 'f> {
    root: et::Program<'a>,
    fold: &'f ExirFold<'f>,
    next: &'f Cell<usize>,
}

impl Fields for Folded<'_, '_> {
    fn entries<M: SerializeMap>(self, m: &mut M) -> Done<M> {
        let (p, fold) = (self.root, self.fold);
        m.serialize_entry("backend_delegate_data", &Appended(p.backend_delegate_data(), &fold.delegate_blobs))?;
        match &fold.constant_pieces {
            Some(pieces) => {
                m.serialize_entry("constant_buffer", &Pieces(pieces))?;
                m.serialize_entry("constant_segment", &Json(FirstSegment))?;
            }
            None => {
                m.serialize_entry("constant_buffer", &Tables(p.constant_buffer()))?;
                m.serialize_entry("constant_segment", &p.constant_segment().map(Json))?;
            }
        }
        m.serialize_entry("execution_plan", &FoldedPlans(self))?;
        if fold.drop_mutable {
            m.serialize_entry("mutable_data_segments", &None::<()>)?;
        } else {
            m.serialize_entry("mutable_data_segments", &Tables(p.mutable_data_segments()))?;
        }
        m.serialize_entry("named_data", &[] as &[u8])?;
        m.serialize_entry("segments", &[] as &[u8])?;
        m.serialize_entry("version", &p.version())
    }
}

/// The stored inline blobs, then the appended ones.
struct Appended<'a, 'f>(Option<Vector<'a, ForwardsUOffset<et::BackendDelegateInlineData<'a>>>>, &'f [&'f [u8]]);

impl Serialize for Appended<'_, '_> {
    fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
        let stored = self.0.map_or(0, |v| v.len());
        let mut seq = s.serialize_seq(Some(stored.saturating_add(self.1.len())))?;
        for x in self.0.iter().flat_map(|v| v.iter()) {
            seq.serialize_element(&Json(x))?;
        }
        for &blob in self.1 {
            seq.serialize_element(&Json(Blob("data", blob)))?;
        }
        seq.end()
    }
}

/// Bytes as a one-field table (`{"data": [...]}`, `{"storage": [...]}`).
#[derive(Clone, Copy)]
struct Blob<'f>(&'static str, &'f [u8]);

impl Fields for Blob<'_> {
    fn entries<M: SerializeMap>(self, m: &mut M) -> Done<M> {
        m.serialize_entry(self.0, self.1)
    }
}

/// The constant segment's pieces as `constant_buffer`.
struct Pieces<'f>(&'f [&'f [u8]]);

impl Serialize for Pieces<'_> {
    fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for &piece in self.0 {
            seq.serialize_element(&Json(Blob("storage", piece)))?;
        }
        seq.end()
    }
}

/// `constant_segment` once its pieces are folded in: segment 0, no offsets.
#[derive(Clone, Copy)]
struct FirstSegment;

impl Fields for FirstSegment {
    fn entries<M: SerializeMap>(self, m: &mut M) -> Done<M> {
        m.serialize_entry("offsets", &[] as &[u64])?;
        m.serialize_entry("segment_index", &0u32)
    }
}

/// The plans, their delegates' references folded.
struct FoldedPlans<'a, 'f>(Folded<'a, 'f>);

impl Serialize for FoldedPlans<'_, '_> {
    fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
        let f = self.0;
        seq(s, f.root.execution_plan(), |plan| Json(FoldedPlan(plan, f)))
    }
}

#[derive(Clone, Copy)]
struct FoldedPlan<'a, 'f>(et::ExecutionPlan<'a>, Folded<'a, 'f>);

impl Fields for FoldedPlan<'_, '_> {
    fn entries<M: SerializeMap>(self, m: &mut M) -> Done<M> {
        let f = self.1;
        plan_entries(self.0, m, &FoldedDelegates(self.0.delegates(), f))
    }
}

struct FoldedDelegates<'a, 'f>(Option<Vector<'a, ForwardsUOffset<et::BackendDelegate<'a>>>>, Folded<'a, 'f>);

impl Serialize for FoldedDelegates<'_, '_> {
    fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
        let f = self.1;
        seq(s, self.0, |d| Json(FoldedDelegate(d, f)))
    }
}

#[derive(Clone, Copy)]
struct FoldedDelegate<'a, 'f>(et::BackendDelegate<'a>, Folded<'a, 'f>);

impl Fields for FoldedDelegate<'_, '_> {
    fn entries<M: SerializeMap>(self, m: &mut M) -> Done<M> {
        let (d, f) = (self.0, self.1);
        let n = f.next.get();
        f.next.set(n.saturating_add(1));
        match f.fold.delegate_refs.get(n).copied().flatten() {
            Some(index) => delegate_entries(d, m, &Some(Json(InlineRef(index)))),
            None => delegate_entries(d, m, &d.processed().map(Json)),
        }
    }
}

/// A reference to inline blob `index` (location INLINE, 0).
#[derive(Clone, Copy)]
struct InlineRef(u32);

impl Fields for InlineRef {
    fn entries<M: SerializeMap>(self, m: &mut M) -> Done<M> {
        m.serialize_entry("index", &self.0)?;
        m.serialize_entry("location", &et::DataLocation::INLINE.0)
    }
}

impl Fields for et::Program<'_> {
    fn entries<M: SerializeMap>(self, m: &mut M) -> Done<M> {
        m.serialize_entry("backend_delegate_data", &Tables(self.backend_delegate_data()))?;
        m.serialize_entry("constant_buffer", &Tables(self.constant_buffer()))?;
        m.serialize_entry("constant_segment", &self.constant_segment().map(Json))?;
        m.serialize_entry("execution_plan", &Tables(self.execution_plan()))?;
        m.serialize_entry("mutable_data_segments", &Tables(self.mutable_data_segments()))?;
        m.serialize_entry("named_data", &Tables(self.named_data()))?;
        m.serialize_entry("segments", &Tables(self.segments()))?;
        m.serialize_entry("version", &self.version())
    }
}

impl Fields for et::BackendDelegateInlineData<'_> {
    fn entries<M: SerializeMap>(self, m: &mut M) -> Done<M> {
        m.serialize_entry("data", &Scalars(self.data()))
    }
}

impl Fields for et::Buffer<'_> {
    fn entries<M: SerializeMap>(self, m: &mut M) -> Done<M> {
        m.serialize_entry("storage", &Scalars(self.storage()))
    }
}

impl Fields for et::SubsegmentOffsets<'_> {
    fn entries<M: SerializeMap>(self, m: &mut M) -> Done<M> {
        m.serialize_entry("offsets", &Scalars(self.offsets()))?;
        m.serialize_entry("segment_index", &self.segment_index())
    }
}

impl Fields for et::NamedData<'_> {
    fn entries<M: SerializeMap>(self, m: &mut M) -> Done<M> {
        m.serialize_entry("key", &self.key())?;
        m.serialize_entry("segment_index", &self.segment_index())
    }
}

impl Fields for et::DataSegment<'_> {
    fn entries<M: SerializeMap>(self, m: &mut M) -> Done<M> {
        m.serialize_entry("offset", &self.offset())?;
        m.serialize_entry("size", &self.size())
    }
}

impl Fields for et::ExecutionPlan<'_> {
    fn entries<M: SerializeMap>(self, m: &mut M) -> Done<M> {
        plan_entries(self, m, &Tables(self.delegates()))
    }
}

/// A plan's fields, its delegates as `delegates` writes them.
fn plan_entries<M: SerializeMap>(plan: et::ExecutionPlan<'_>, m: &mut M, delegates: &impl Serialize) -> Done<M> {
    m.serialize_entry("chains", &Tables(plan.chains()))?;
    m.serialize_entry("container_meta_type", &plan.container_meta_type().map(Json))?;
    m.serialize_entry("delegates", delegates)?;
    m.serialize_entry("inputs", &Scalars(plan.inputs()))?;
    m.serialize_entry("name", &plan.name())?;
    m.serialize_entry("non_const_buffer_device", &Tables(plan.non_const_buffer_device()))?;
    m.serialize_entry("non_const_buffer_sizes", &Scalars(plan.non_const_buffer_sizes()))?;
    m.serialize_entry("operators", &Tables(plan.operators()))?;
    m.serialize_entry("outputs", &Scalars(plan.outputs()))?;
    m.serialize_entry("values", &Tables(plan.values()))
}

impl Fields for et::ContainerMetadata<'_> {
    fn entries<M: SerializeMap>(self, m: &mut M) -> Done<M> {
        m.serialize_entry("encoded_inp_str", &self.encoded_inp_str())?;
        m.serialize_entry("encoded_out_str", &self.encoded_out_str())
    }
}

impl Fields for et::NonConstBufferDevice<'_> {
    fn entries<M: SerializeMap>(self, m: &mut M) -> Done<M> {
        m.serialize_entry("buffer_idx", &self.buffer_idx())?;
        m.serialize_entry("device_index", &self.device_index())?;
        m.serialize_entry("device_type", &self.device_type().0)
    }
}

impl Fields for et::Operator<'_> {
    fn entries<M: SerializeMap>(self, m: &mut M) -> Done<M> {
        m.serialize_entry("name", &self.name())?;
        m.serialize_entry("overload", &self.overload())
    }
}

impl Fields for et::BackendDelegate<'_> {
    fn entries<M: SerializeMap>(self, m: &mut M) -> Done<M> {
        delegate_entries(self, m, &self.processed().map(Json))
    }
}

/// A delegate's fields, its reference as `processed` writes it.
fn delegate_entries<M: SerializeMap>(d: et::BackendDelegate<'_>, m: &mut M, processed: &impl Serialize) -> Done<M> {
    m.serialize_entry("compile_specs", &Tables(d.compile_specs()))?;
    m.serialize_entry("id", &d.id())?;
    m.serialize_entry("processed", processed)
}

impl Fields for et::BackendDelegateDataReference<'_> {
    fn entries<M: SerializeMap>(self, m: &mut M) -> Done<M> {
        m.serialize_entry("index", &self.index())?;
        m.serialize_entry("location", &self.location().0)
    }
}

impl Fields for et::CompileSpec<'_> {
    fn entries<M: SerializeMap>(self, m: &mut M) -> Done<M> {
        m.serialize_entry("key", &self.key())?;
        m.serialize_entry("value", &Scalars(self.value()))
    }
}

impl Fields for et::Chain<'_> {
    fn entries<M: SerializeMap>(self, m: &mut M) -> Done<M> {
        m.serialize_entry("inputs", &Scalars(self.inputs()))?;
        m.serialize_entry("instructions", &Tables(self.instructions()))?;
        m.serialize_entry("outputs", &Scalars(self.outputs()))?;
        m.serialize_entry("stacktrace", &Tables(self.stacktrace()))
    }
}

impl Fields for et::FrameList<'_> {
    fn entries<M: SerializeMap>(self, m: &mut M) -> Done<M> {
        m.serialize_entry("items", &Tables(self.items()))
    }
}

impl Fields for et::Frame<'_> {
    fn entries<M: SerializeMap>(self, m: &mut M) -> Done<M> {
        m.serialize_entry("context", &self.context())?;
        m.serialize_entry("filename", &self.filename())?;
        m.serialize_entry("lineno", &self.lineno())?;
        m.serialize_entry("name", &self.name())
    }
}

impl Fields for et::Instruction<'_> {
    fn entries<M: SerializeMap>(self, m: &mut M) -> Done<M> {
        use et::InstructionArguments as T;
        let i = self;
        // an unknown tag never gets here: `ProgramJson::new` refuses it
        let (name, args) = match i.instr_args_type() {
            T::KernelCall => some("KernelCall", i.instr_args_as_kernel_call().map(Args::Kernel)),
            T::DelegateCall => some("DelegateCall", i.instr_args_as_delegate_call().map(Args::Delegate)),
            T::MoveCall => some("MoveCall", i.instr_args_as_move_call().map(Args::Move)),
            T::JumpFalseCall => some("JumpFalseCall", i.instr_args_as_jump_false_call().map(Args::Jump)),
            T::FreeCall => some("FreeCall", i.instr_args_as_free_call().map(Args::Free)),
            _ => ("NONE", None),
        };
        m.serialize_entry("instr_args", &args.map(Json))?;
        m.serialize_entry("instr_args_type", name)
    }
}

/// The union's type name and value; an absent value reads as `NONE`.
fn some<T>(name: &'static str, v: Option<T>) -> (&'static str, Option<T>) {
    match v {
        Some(v) => (name, Some(v)),
        None => ("NONE", None),
    }
}

#[derive(Clone, Copy)]
enum Args<'a> {
    Kernel(et::KernelCall<'a>),
    Delegate(et::DelegateCall<'a>),
    Move(et::MoveCall<'a>),
    Jump(et::JumpFalseCall<'a>),
    Free(et::FreeCall<'a>),
}

impl Fields for Args<'_> {
    fn entries<M: SerializeMap>(self, m: &mut M) -> Done<M> {
        match self {
            Args::Kernel(k) => {
                m.serialize_entry("args", &Scalars(k.args()))?;
                m.serialize_entry("op_index", &k.op_index())
            }
            Args::Delegate(d) => {
                m.serialize_entry("args", &Scalars(d.args()))?;
                m.serialize_entry("delegate_index", &d.delegate_index())
            }
            Args::Move(c) => {
                m.serialize_entry("move_from", &c.move_from())?;
                m.serialize_entry("move_to", &c.move_to())
            }
            Args::Jump(j) => {
                m.serialize_entry("cond_value_index", &j.cond_value_index())?;
                m.serialize_entry("destination_instruction", &j.destination_instruction())
            }
            Args::Free(f) => m.serialize_entry("value_index", &f.value_index()),
        }
    }
}

impl Fields for et::EValue<'_> {
    fn entries<M: SerializeMap>(self, m: &mut M) -> Done<M> {
        use et::KernelTypes as K;
        let v = self;
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
        m.serialize_entry("val", &val.map(Json))?;
        m.serialize_entry("val_type", name)
    }
}

#[derive(Clone, Copy)]
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

impl Fields for Kernel<'_> {
    fn entries<M: SerializeMap>(self, m: &mut M) -> Done<M> {
        match self {
            Kernel::Null => Ok(()),
            Kernel::Int(x) => m.serialize_entry("int_val", &x),
            Kernel::Bool(x) => m.serialize_entry("bool_val", &x),
            Kernel::Double(x) => m.serialize_entry("double_val", &Double(x)),
            Kernel::Tensor(t) => t.entries(m),
            Kernel::String(x) => m.serialize_entry("string_val", &x),
            Kernel::IntList(v) => m.serialize_entry("items", &Scalars(v)),
            Kernel::DoubleList(v) => m.serialize_entry("items", &Doubles(v)),
            Kernel::BoolList(v) => m.serialize_entry("items", &Scalars(v)),
            Kernel::Indices(v) => m.serialize_entry("items", &Scalars(v)),
        }
    }
}

impl Fields for et::Tensor<'_> {
    fn entries<M: SerializeMap>(self, m: &mut M) -> Done<M> {
        m.serialize_entry("allocation_info", &self.allocation_info().map(Json))?;
        m.serialize_entry("data_buffer_idx", &self.data_buffer_idx())?;
        m.serialize_entry("dim_order", &Scalars(self.dim_order()))?;
        m.serialize_entry("extra_tensor_info", &self.extra_tensor_info().map(Json))?;
        m.serialize_entry("layout", &self.layout())?;
        m.serialize_entry("requires_grad", &self.requires_grad())?;
        m.serialize_entry("scalar_type", &self.scalar_type().0)?;
        m.serialize_entry("shape_dynamism", &self.shape_dynamism().0)?;
        m.serialize_entry("sizes", &Scalars(self.sizes()))?;
        m.serialize_entry("storage_offset", &self.storage_offset())
    }
}

impl Fields for et::AllocationDetails<'_> {
    fn entries<M: SerializeMap>(self, m: &mut M) -> Done<M> {
        m.serialize_entry("memory_id", &self.memory_id())?;
        m.serialize_entry("memory_offset_high", &self.memory_offset_high())?;
        m.serialize_entry("memory_offset_low", &self.memory_offset_low())
    }
}

impl Fields for et::ExtraTensorInfo<'_> {
    fn entries<M: SerializeMap>(self, m: &mut M) -> Done<M> {
        m.serialize_entry("device_index", &self.device_index())?;
        m.serialize_entry("device_type", &self.device_type().0)?;
        m.serialize_entry("fully_qualified_name", &self.fully_qualified_name())?;
        m.serialize_entry("location", &self.location().0)?;
        m.serialize_entry("mutable_data_segments_idx", &self.mutable_data_segments_idx())
    }
}
