//! The typed parts of a program's [`Summary`](crate::Summary): what it
//! aggregates ([`ProgramHead`]: header, methods, delegates, the EXTERNAL
//! groups) and the rows of the lists that grow with the file
//! ([`SegmentRow`], [`ConstantRow`], [`MutableRow`], [`NamedRow`]).
//!
//! Serialized, each is the object `pte info --json` prints. Fields are
//! declared in alphabetical order because that is the order the JSON has
//! always had (the keys of a `serde_json` map), so the text stays the same.

use std::collections::BTreeMap;

use serde::Serialize;

use pte_analysis::delegate_payload::builtin_registry;
use pte_file::view::PteView;
use pte_schema::{DeviceType, InstructionRef, List, PlanView, TensorView, ValueRef};

/// What a program's summary aggregates: everything but the lists that grow
/// with the file (segments, constants, mutable buffers, named data,
/// tensors), which [`Summary`](crate::Summary) reads row by row.
///
/// ```
/// # let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
/// let summary = pte::Summary::read(&bytes, &Default::default())?;
/// let head = summary.head();
/// assert_eq!((head.format, head.file_size), ("pte", bytes.len()));
/// assert_eq!(head.methods[0].name.as_deref(), Some("forward"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct ProgramHead {
    /// Every delegate of every method, with what its payload holds.
    pub delegates: Vec<DelegateRow>,
    /// The `eh00` header, if the file has one.
    pub extended_header: Option<HeaderRow>,
    /// The EXTERNAL tensors' keys grouped by the `.ptd` beside the program
    /// that holds them (a null tag for keys none holds).
    pub external_data: Vec<ExternalGroup>,
    /// The file's length in bytes.
    pub file_size: usize,
    /// Always `"pte"`.
    pub format: &'static str,
    /// How many inline delegate blobs the flatbuffer carries.
    pub inline_delegate_data: usize,
    /// How many legacy inline constant buffers it carries.
    pub legacy_constant_buffer: usize,
    /// One entry per execution plan.
    pub methods: Vec<MethodRow>,
    /// The program's schema version.
    pub version: u32,
}

/// The `eh00` header's fields.
///
/// ```
/// # let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
/// let head = pte::Summary::read(&bytes, &Default::default())?.head().clone();
/// let h = head.extended_header.unwrap();
/// assert_eq!(h.segment_base_offset + h.segment_data_size, bytes.len() as u64);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct HeaderRow {
    /// The header's declared length.
    pub length: u32,
    /// The program flatbuffer's size.
    pub program_size: u64,
    /// Where segment data starts.
    pub segment_base_offset: u64,
    /// How many bytes of segment data follow.
    pub segment_data_size: u64,
}

/// One method (execution plan).
///
/// ```
/// # let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
/// let summary = pte::Summary::read(&bytes, &Default::default())?;
/// let m = &summary.head().methods[0];
/// assert_eq!((m.inputs.len(), m.outputs.len()), (2, 1));
/// assert!(m.kernel_calls <= m.instructions);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct MethodRow {
    /// The device of each planned buffer that names one.
    pub buffer_devices: Vec<DeviceRow>,
    /// Its inputs, in order.
    pub inputs: Vec<IoRow>,
    /// Instructions over all its chains.
    pub instructions: usize,
    /// How many of them call a kernel.
    pub kernel_calls: usize,
    /// Its name (`None` when unset).
    pub name: Option<String>,
    /// The operators it lists, `name.overload`.
    pub operators: Vec<String>,
    /// Its outputs, in order.
    pub outputs: Vec<IoRow>,
    /// The planned buffers' sizes (buffer 0, reserved, left out).
    pub planned_buffers: Vec<i64>,
    /// How many values it has.
    pub values: usize,
}

/// Where one planned buffer lives.
///
/// ```
/// let d = pte::DeviceRow::default();
/// assert_eq!(serde_json::to_value(&d)?["cpu"], false);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize)]
#[non_exhaustive]
pub struct DeviceRow {
    /// The planned buffer's index.
    pub buffer: i32,
    /// Whether the device is the CPU.
    pub cpu: bool,
    /// The device type's name.
    pub device: String,
    /// The device index.
    pub device_index: i8,
    /// The buffer's size, when the plan lists it.
    pub size: Option<i64>,
}

/// One input or output of a method.
///
/// ```
/// # let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
/// let summary = pte::Summary::read(&bytes, &Default::default())?;
/// let input = &summary.head().methods[0].inputs[0];
/// assert_eq!(input.kind, Some("Tensor"));
/// assert_eq!(input.tensor.as_ref().map(|t| t.dtype.as_str()), Some("FLOAT"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct IoRow {
    /// The value's index.
    pub index: i32,
    /// The value's kind as the model names it (`None` for an unset union
    /// or an index past the values).
    pub kind: Option<&'static str>,
    /// The tensor, when the value is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tensor: Option<TensorHead>,
}

/// A tensor's metadata, as an input or output shows it.
///
/// ```
/// # let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
/// let summary = pte::Summary::read(&bytes, &Default::default())?;
/// let t = summary.head().methods[0].outputs[0].tensor.clone().unwrap();
/// assert!(!t.external);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct TensorHead {
    /// Its dimension order, when stored.
    pub dim_order: Option<Vec<u8>>,
    /// Its element type's name (`ScalarType(N)` for one the schema lacks).
    pub dtype: String,
    /// Its shape dynamism's name (the number for one the schema lacks).
    pub dynamism: String,
    /// Whether its data lives in a `.ptd`.
    pub external: bool,
    /// Its fully qualified name, when stored.
    pub fqn: Option<String>,
    /// Its size in bytes, when the sizes and type give one.
    pub nbytes: Option<u64>,
    /// Its dimension sizes, when stored.
    pub sizes: Option<Vec<i32>>,
}

/// One delegate of one method.
///
/// ```
/// # let bytes = std::fs::read(pte_testkit::corpus("xnnpack_mlp/model.pte"))?;
/// let summary = pte::Summary::read(&bytes, &Default::default())?;
/// let d = &summary.head().delegates[0];
/// assert_eq!(d.id, "XnnpackBackend");
/// assert!(matches!(d.payload, Some(pte::PayloadRow::Read { .. })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct DelegateRow {
    /// Its index among the method's delegates.
    pub delegate: usize,
    /// The backend id.
    pub id: String,
    /// Its index in the inline data or in the segment table.
    pub index: u32,
    /// `INLINE`, `SEGMENT` or `unknown`.
    pub location: String,
    /// The method (plan index) it belongs to.
    pub method: usize,
    /// What its payload holds (`None` when no reader knows the backend).
    pub payload: Option<PayloadRow>,
    /// The blob's length.
    pub size: usize,
}

/// What a delegate payload holds, as the built-in reader of its backend
/// says.
///
/// ```
/// let row = pte::PayloadRow::of("XnnpackBackend", b"nonsense").unwrap();
/// assert!(matches!(row, pte::PayloadRow::Unreadable { .. }));
/// assert!(pte::PayloadRow::of("NoSuchBackend", b"").is_none());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum PayloadRow {
    /// The payload did not parse.
    Unreadable {
        /// Why.
        error: String,
    },
    /// The payload's summary.
    Read {
        /// Format name and version.
        format: String,
        /// The named-data keys it needs.
        named_keys: Vec<String>,
        /// Node count per node kind.
        nodes: BTreeMap<String, usize>,
        /// One line per tensor.
        tensors: Vec<String>,
    },
}

impl PayloadRow {
    /// The payload `bytes` of backend `id` read by its built-in reader;
    /// `None` when no reader knows the backend.
    ///
    /// ```
    /// assert!(pte::PayloadRow::of("NoSuchBackend", b"").is_none());
    /// ```
    pub fn of(id: &str, bytes: &[u8]) -> Option<PayloadRow> {
        let reader = builtin_registry().get(id)?;
        Some(match reader.summary(bytes, &Default::default()) {
            Err(e) => PayloadRow::Unreadable { error: e.to_string() },
            Ok(s) => {
                PayloadRow::Read { format: s.format, named_keys: s.named_keys, nodes: s.nodes, tensors: s.tensors }
            }
        })
    }
}

/// The EXTERNAL keys one `.ptd` beside the program holds (`tag` and `file`
/// null for the keys none holds).
///
/// ```
/// # let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
/// let summary = pte::Summary::read(&bytes, &Default::default())?;
/// assert!(summary.head().external_data.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct ExternalGroup {
    /// The data file's name.
    pub file: Option<String>,
    /// The keys it holds.
    pub keys: Vec<String>,
    /// The exporter's tag (the file's stem).
    pub tag: Option<String>,
}

/// One segment-table entry.
///
/// ```
/// # let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
/// let summary = pte::Summary::read(&bytes, &Default::default())?;
/// assert_eq!(summary.segment_rows().next().unwrap().used_by, ["constant"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct SegmentRow {
    /// Its index in the table.
    pub index: usize,
    /// Its offset from the segment base.
    pub offset: u64,
    /// Its size.
    pub size: u64,
    /// What refers to it (`constant`, `mutable`, a delegate, named data).
    pub used_by: Vec<String>,
}

/// One constant buffer, its offsets in its segment.
///
/// ```
/// # let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
/// let summary = pte::Summary::read(&bytes, &Default::default())?;
/// assert!(summary.constant_rows().all(|c| c.size <= c.span));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct ConstantRow {
    /// Its index (`data_buffer_idx`).
    pub index: usize,
    /// Its offset in its segment.
    pub offset: u64,
    /// Its bytes.
    pub size: u64,
    /// From its offset to the next one, padding included.
    pub span: u64,
}

/// One buffer of a mutable segment.
///
/// ```
/// # let bytes = std::fs::read(pte_testkit::corpus("mutable_buffer/model.pte"))?;
/// let summary = pte::Summary::read(&bytes, &Default::default())?;
/// assert!(summary.mutable_rows().next().unwrap().count() > 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct MutableRow {
    /// Its index.
    pub index: usize,
    /// Its offset in its segment.
    pub offset: u64,
    /// Its bytes.
    pub size: u64,
}

/// One named-data entry.
///
/// ```
/// # let bytes = std::fs::read(pte_testkit::corpus("xnnpack_mlp/model.pte"))?;
/// let summary = pte::Summary::read(&bytes, &Default::default())?;
/// assert!(summary.named_rows().all(|n| !n.key.is_empty()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct NamedRow<'a> {
    /// Its key.
    pub key: &'a str,
    /// The segment holding its bytes.
    pub segment_index: u32,
    /// Its length.
    pub size: usize,
}

/// The head of the summary of `p`; `external_data` is filled by the caller,
/// which knows where the program lies.
pub(super) fn head(p: &PteView<'_>) -> ProgramHead {
    let v = p.program();
    let delegates = p
        .delegates()
        .unwrap_or_default()
        .iter()
        .map(|d| DelegateRow {
            delegate: d.delegate,
            id: d.id.to_string(),
            index: d.index,
            location: d.location.name().unwrap_or("unknown").to_string(),
            method: d.plan,
            payload: PayloadRow::of(d.id, d.bytes),
            size: d.bytes.len(),
        })
        .collect();
    let extended_header = p.header().map(|h| HeaderRow {
        length: h.length,
        program_size: h.program_size,
        segment_base_offset: h.segment_base_offset,
        segment_data_size: h.segment_data_size,
    });
    ProgramHead {
        delegates,
        extended_header,
        external_data: vec![],
        file_size: p.bytes().len(),
        format: "pte",
        inline_delegate_data: v.inline_delegate_count().unwrap_or(0),
        legacy_constant_buffer: v.constant_buffer().map_or(0, |b| b.len()),
        methods: p.plans().map(|plan| method_row(&plan)).collect(),
        version: v.version(),
    }
}

fn method_row(plan: &PlanView<'_>) -> MethodRow {
    let chains = || plan.chains().into_iter().flatten();
    let instructions: usize = chains().map(|c| c.instruction_count()).sum();
    let kernel_calls = chains()
        .flat_map(|c| c.instructions().into_iter().flatten())
        .filter(|i| matches!(i, InstructionRef::KernelCall { .. }))
        .count();
    let operators = (0..plan.operator_count())
        .filter_map(|i| plan.operator(i))
        .map(|(name, overload)| match overload {
            Some(ov) if !ov.is_empty() => format!("{}.{ov}", name.unwrap_or("")),
            _ => name.unwrap_or("").to_string(),
        })
        .collect();
    let sizes = plan.buffer_sizes();
    let buffer_devices = plan
        .buffer_devices()
        .into_iter()
        .flatten()
        .map(|d| DeviceRow {
            buffer: d.buffer_idx,
            cpu: d.device_type == DeviceType::CPU,
            device: d.device_type.to_string(),
            device_index: d.device_index,
            size: usize::try_from(d.buffer_idx).ok().and_then(|i| sizes.and_then(|s| s.get(i))),
        })
        .collect();
    MethodRow {
        buffer_devices,
        inputs: io_rows(plan, plan.input_list()),
        instructions,
        kernel_calls,
        name: plan.name().map(str::to_string),
        operators,
        outputs: io_rows(plan, plan.output_list()),
        planned_buffers: sizes.into_iter().flat_map(|s| s.iter().skip(1)).collect(),
        values: plan.value_count(),
    }
}

fn io_rows(plan: &PlanView<'_>, list: Option<List<'_, i32>>) -> Vec<IoRow> {
    list.into_iter()
        .flat_map(|l| l.iter())
        .map(|index| {
            let value = usize::try_from(index).ok().and_then(|j| plan.value_ref(j));
            let tensor = match &value {
                Some(ValueRef::Tensor(t)) => Some(tensor_head(t)),
                _ => None,
            };
            IoRow { index, kind: value.as_ref().and_then(type_name), tensor }
        })
        .collect()
}

/// The model's name of a value's kind (`KernelTypes::type_name`); `None`
/// for an unset union (null in `pte info --json`, and the page's
/// `value N?`).
///
/// ```
/// assert_eq!(pte::summary::type_name(&pte_schema::ValueRef::Int(3)), Some("Int"));
/// assert_eq!(pte::summary::type_name(&pte_schema::ValueRef::None), None);
/// ```
pub fn type_name(v: &ValueRef<'_>) -> Option<&'static str> {
    Some(match v {
        ValueRef::None | ValueRef::Unknown(_) => return None,
        ValueRef::Null => "Null",
        ValueRef::Int(_) => "Int",
        ValueRef::Bool(_) => "Bool",
        ValueRef::Double(_) => "Double",
        ValueRef::Tensor(_) => "Tensor",
        ValueRef::String(_) => "String",
        ValueRef::IntList(_) => "IntList",
        ValueRef::DoubleList(_) => "DoubleList",
        ValueRef::BoolList(_) => "BoolList",
        ValueRef::TensorList(_) => "TensorList",
        ValueRef::OptionalTensorList(_) => "OptionalTensorList",
    })
}

fn tensor_head(t: &TensorView<'_>) -> TensorHead {
    let (dtype, dynamism) = (t.scalar_type(), t.shape_dynamism());
    TensorHead {
        dim_order: t.dim_order().map(<[u8]>::to_vec),
        dtype: dtype.name().map_or_else(|| format!("ScalarType({})", dtype.0), str::to_string),
        dynamism: dynamism.name().map_or_else(|| dynamism.0.to_string(), str::to_string),
        external: t.is_external(),
        fqn: t.fqn().map(str::to_string),
        nbytes: t.nbytes(),
        sizes: t.sizes().map(|l| l.iter().collect()),
    }
}
