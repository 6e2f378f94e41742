//! The verifier: the runtime's load rules (format facts §3) plus the
//! cross-reference checks a correct file satisfies, each violation reported
//! with its rule name, field path and (where known) byte offset.
//!
//! Rule names are stable; [`RULES`] lists them with what each checks.

use std::fmt;

use pte_schema::{
    decode_program, DataLocation, ErrorKind, ExecutionPlan, InstructionArguments, KernelTypes, Limits, Program, Tensor,
    TensorDataLocation, TensorShapeDynamism,
};
use pte_segments::ExtendedHeader;

pub use crate::read::program_region;

pub use pte_core::{Report, Violation};

/// Every rule: name and what it checks (with the runtime rule it mirrors).
pub const RULES: &[(&str, &str)] = &[
    ("file.min_size", "the file is at least 64 bytes (H1: loaders read 64 header bytes)"),
    ("header.length", "an eh00 header's length is at least 24 (H3)"),
    ("header.program_size", "program_size is between 8 and the file size (H6, H8)"),
    ("header.file_size", "segment_base_offset + segment_data_size fits in the file, without overflow (H5)"),
    ("header.segment_base", "segment_base_offset is not inside the flatbuffer region"),
    ("header.required", "a file whose segments hold data has an extended header (trap 6)"),
    ("flatbuffer.identifier", "bytes 4..8 are ET12 (H9)"),
    ("flatbuffer.root_offset", "the root offset is within [8, program_size - 4] (H11)"),
    ("flatbuffer.structure", "the flatbuffer passes the verifier within the limits (H10)"),
    ("flatbuffer.union_tag", "every union tag is one the schema declares (M4)"),
    ("program.version", "the schema version is 0 (H12)"),
    ("program.execution_plan", "execution_plan is present (validate_program)"),
    ("program.constant_segment", "constant_segment has offsets, else the deprecated constant_buffer path is taken (P3); a warning, since only some runtime builds compile that path out"),
    ("program.constant_buffer", "constant_buffer is empty when constant_segment holds constants (P2)"),
    ("program.named_data_segments", "named_data requires the segments vector (P1)"),
    ("segment.index", "every segment reference is within the segment table (P2, P5, T10, named data)"),
    ("segment.bounds", "every segment lies inside the file and inside segment_data_size (3.8)"),
    ("segment.overlap", "non-empty segments do not overlap (3.8)"),
    ("subsegment.offsets", "sub-segment offsets are non-decreasing and inside their segment (3.8)"),
    ("constant.bounds", "each constant tensor's bytes lie inside its sub-segment or buffer (P4)"),
    ("mutable.bounds", "each mutable tensor's initial data lies inside mutable segment 0, in a file with a segment base, copied into a planned buffer of non-zero size (T10)"),
    ("delegate.fields", "delegates have an id, a processed reference and complete compile specs (M5)"),
    ("delegate.data", "inline and segment delegate references resolve (P5, P6)"),
    ("payload.structure", "a delegate payload of a backend with a reader (XnnpackBackend, NativeBackend) parses as that backend reads it: XNNPACK's XH00 header ranges inside the payload and the flatbuffer's, an XN01/XN00 (NPTG) flatbuffer passing the verifier, no unknown union tag, xvalues and xnodes present, no empty node"),
    ("payload.ids", "every value id a node names is defined by a value; external ids are below num_externs (at most 4096) and unique; value ids are unique"),
    ("payload.value", "values carry what the backend dereferences: a tensor, quantization parameters, scales, 2 dims for blockwise quantization, only the external input/output flags"),
    ("payload.constant", "every constant index a value uses is in the constant table, every constant's bytes lie inside the payload's constant data, and every constant (in the payload or a named blob) holds the bytes the backend reads"),
    ("payload.named_key", "a key a payload needs is in the program's named data; a warning, since a .ptd may provide it at load time (`--ptd` checks it: link.payload_key)"),
    ("plan.name", "each plan has a name (M1, M2)"),
    ("plan.fields", "values, inputs, outputs and non_const_buffer_sizes are present (M2, M3)"),
    ("plan.io_index", "method inputs and outputs refer to existing values (MethodMeta)"),
    ("plan.chains", "chains are present and non-empty, instructions present (M6)"),
    ("plan.buffer_sizes", "planned buffer sizes are non-negative (M10)"),
    ("value.null", "every value has a payload; None is the Null table (M3)"),
    ("value.list", "list and string payloads are present; list items refer to valid values (M4)"),
    ("value.tensor_list", "tensor list items refer to earlier Tensor (or, optional, Null) values (M4)"),
    ("instruction.args", "instruction arguments are present and refer to existing values (M7, M8, M9)"),
    ("instruction.operator", "kernel calls name an existing operator whose lookup name is under 100 bytes (M7)"),
    ("instruction.delegate", "delegate calls name an existing delegate (M8)"),
    ("tensor.storage_offset", "storage_offset is 0 (T1)"),
    ("tensor.scalar_type", "the scalar type is one the runtime accepts, 0..=29 (T2)"),
    ("tensor.dynamism", "shape_dynamism is not DYNAMIC_UNBOUND (T3)"),
    ("tensor.sizes", "sizes are present, at most 16, non-negative, and numel × size fits (T4, T5)"),
    ("tensor.dim_order", "dim_order is a permutation of the dimensions (T4, T6)"),
    ("tensor.memory_plan", "planned tensors name an existing buffer and fit inside it (T8)"),
    ("tensor.external", "EXTERNAL tensors carry a fully qualified name (T11)"),
    ("ptd.header", "a .ptd has a valid FH01 header whose flatbuffer region and segment data fit the file (D1-D4)"),
    ("ptd.identifier", "bytes 4..8 of a .ptd are FT01 (D5)"),
    ("ptd.structure", "the FT01 flatbuffer passes the verifier (the runtime runs none: D7)"),
    ("ptd.fields", "named_data and segments are present, every key is set (D8, D10)"),
    ("ptd.version", "the .ptd schema version is 0 (D9)"),
    ("ptd.segment", "every key's segment exists and lies inside segment_data_size (D10)"),
    ("ptd.duplicate_key", "no key appears twice (the runtime silently takes the first)"),
    ("ptd.layout", "tensor layouts have sizes and a dim_order of the same rank, a permutation, sizes >= 0 (D12)"),
    ("ptd.size", "a tensor blob holds exactly its layout's byte size (D13)"),
    ("link.missing", "every EXTERNAL tensor's key is found in the given .ptd files (T11)"),
    (
        "link.duplicate",
        "no key is found in more than one .ptd, nor in both a .ptd and the program's named data (D15, 3.7)",
    ),
    ("link.layout", "the .ptd layout matches the tensor: dtype, sizes, dim_order (T11)"),
    ("link.size", "the .ptd blob holds exactly the tensor's byte size (the runtime does not check this)"),
    ("link.payload_key", "every named-data key a delegate payload needs is in the program's named data or a given .ptd; the message names the key and the delegate"),
    ("bpte.structure", "a .bpte is a BP08 flatbuffer passing the flatbuffers verifier within the limits, with no unknown union tag (stops verification)"),
    ("bpte.program", "the embedded program is present and decodes; its own violations are reported under the program rules with a `program:` path and file offsets"),
    ("bpte.alignment", "the embedded program starts at a multiple of 16 (the runtime needs a 16-aligned program); not a multiple of 32 as the schema asks, or tensor data not 16-aligned, is a warning"),
    ("bpte.suite_method", "each suite names a method the program has (a second suite for the same method is a warning: the runtime uses the first)"),
    ("bpte.case_count", "each case holds exactly as many inputs and expected outputs as the method has inputs and outputs, and at least one output (the runtime indexes them without bounds checks)"),
    ("bpte.value_kind", "each input matches the kind of the method's input value (tensor, int, bool, double; never an empty value) and each expected output is a tensor for a tensor output"),
    ("bpte.tensor", "each tensor matches the method's: dtype, rank, sizes (equal when static, within the bound when dynamic), dim_order, and data of exactly numel × element size bytes"),
];

/// Options of the verifier.
///
/// ```
/// assert_eq!(pte_file::verify::VerifyOptions::default().limits, pte_file::Limits::default());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VerifyOptions {
    /// Flatbuffer verifier bounds.
    pub limits: Limits,
}

struct Checker<'r> {
    out: &'r mut Vec<Violation>,
    warnings: Vec<Violation>,
}

impl Checker<'_> {
    fn warn(&mut self, rule: &'static str, path: impl Into<String>, message: impl Into<String>) {
        self.warnings.push(Violation { rule, path: path.into(), offset: None, message: message.into() });
    }

    fn add(&mut self, rule: &'static str, path: impl Into<String>, offset: Option<u64>, message: impl Into<String>) {
        self.out.push(Violation { rule, path: path.into(), offset, message: message.into() });
    }
}

/// Verifies a `.pte` held in memory.
///
/// ```
/// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte"))?;
/// assert!(pte_file::verify::verify_bytes(&bytes, &Default::default()).is_ok());
/// let report = pte_file::verify::verify_bytes(&bytes[..40], &Default::default());
/// assert!(report.breaks("file.min_size"));
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn verify_bytes(bytes: &[u8], options: &VerifyOptions) -> Report {
    verify_with(bytes, options, true)
}

/// [`verify_bytes`] without its clean-file pass: every rule is checked on
/// the decoded model. The report is the same; this is the reference the
/// quick pass is tested against.
///
/// ```
/// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte"))?;
/// let o = Default::default();
/// assert_eq!(pte_file::verify::verify_bytes_full(&bytes, &o), pte_file::verify::verify_bytes(&bytes, &o));
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn verify_bytes_full(bytes: &[u8], options: &VerifyOptions) -> Report {
    verify_with(bytes, options, false)
}

fn verify_with(bytes: &[u8], options: &VerifyOptions, quick: bool) -> Report {
    let mut violations = vec![];
    let mut c = Checker { out: &mut violations, warnings: vec![] };
    let len = bytes.len() as u64;
    if len < 64 {
        c.add("file.min_size", "", None, format!("file is {len} bytes; loaders need at least 64"));
    }
    let header = match ExtendedHeader::parse(bytes) {
        Ok(h) => h,
        Err(e) => {
            c.add("header.length", e.path(), e.offset(), e.message());
            return Report { violations, warnings: vec![] };
        }
    };
    if let Some(h) = &header {
        check_header(&mut c, h, len);
    }
    let region = match program_region(bytes) {
        Ok((_, r)) => r,
        Err(e) => {
            if !c.out.iter().any(|v| v.rule == "header.program_size") {
                c.add("header.program_size", e.path(), e.offset(), e.message());
            }
            return Report { violations, warnings: vec![] };
        }
    };
    if region.get(4..8).is_some_and(|id| id != b"ET12") {
        c.add("flatbuffer.identifier", "", Some(4), "file identifier is not ET12");
        return Report { violations, warnings: vec![] };
    }
    if let Some(r) = region.get(..4).and_then(|b| <[u8; 4]>::try_from(b).ok()).map(u32::from_le_bytes) {
        let max = (region.len() as u64).saturating_sub(4);
        if u64::from(r) < 8 || u64::from(r) > max {
            c.add("flatbuffer.root_offset", "", Some(0), format!("root offset {r} is outside [8, {max}]"));
            return Report { violations, warnings: vec![] };
        }
    }
    // the quick pass's verification serves the full pass too: a file that
    // breaks a rule is verified once, as before
    let verified = (quick && c.out.is_empty()).then(|| pte_schema::ProgramView::new(region, &options.limits));
    if let Some(Ok(view)) = &verified {
        // Delegate payloads are judged only by the full pass's backend readers.
        let has_delegates = (0..view.plan_count())
            .filter_map(|i| view.plan(i))
            .any(|plan| plan.delegates().is_some_and(|d| d.len() > 0));
        if !has_delegates && fast::clean(view, header.as_ref(), len, &options.limits) {
            return Report::default();
        }
    }
    let decoded = match verified {
        Some(Ok(view)) => view.to_model().and_then(|p| options.limits.check_program(&p).map(|()| p)),
        Some(Err(e)) => Err(e),
        None => decode_program(region, &options.limits),
    };
    let program = match decoded {
        Ok(p) => p,
        Err(e) => {
            let rule = if e.kind() == ErrorKind::Unsupported { "flatbuffer.union_tag" } else { "flatbuffer.structure" };
            c.add(rule, e.path(), e.offset(), e.message());
            return Report { violations, warnings: vec![] };
        }
    };
    check_program(&mut c, &program, header.as_ref(), bytes);
    // delegate payloads, as each backend with a reader will parse them
    let payloads = crate::delegate_payload::check_payloads(
        &program,
        bytes,
        crate::delegate_payload::builtin_registry(),
        &options.limits,
    );
    c.out.extend(payloads.violations);
    c.warnings.extend(payloads.warnings);
    let mut warnings = std::mem::take(&mut c.warnings);
    if let Some(locator) = pte_schema::Locator::new(region, &options.limits) {
        for v in violations.iter_mut().chain(warnings.iter_mut()).filter(|v| v.offset.is_none() && !v.path.is_empty()) {
            v.offset = locator.locate(&v.path);
        }
    }
    Report { violations, warnings }
}

/// Verifies an already-decoded program against the file bytes it came from.
///
/// ```
/// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/linear/model.pte"))?;
/// let pte = pte_file::PteFile::from_bytes(&bytes)?;
/// assert!(pte_file::verify::verify_program(&pte.program, &bytes).is_ok());
/// # Ok::<(), pte_file::Error>(())
/// ```
pub fn verify_program(program: &Program<'_>, bytes: &[u8]) -> Report {
    let mut violations = vec![];
    let header = ExtendedHeader::parse(bytes).ok().flatten();
    let mut c = Checker { out: &mut violations, warnings: vec![] };
    check_program(&mut c, program, header.as_ref(), bytes);
    let warnings = c.warnings;
    Report { violations, warnings }
}

fn check_header(c: &mut Checker<'_>, h: &ExtendedHeader, len: u64) {
    if h.program_size < 8 || h.program_size > len {
        c.add(
            "header.program_size",
            "eh00.program_size",
            Some(16),
            format!("program_size {} is outside [8, {len}]", h.program_size),
        );
    }
    let (sbo, sds) = (h.segment_base_offset, h.segment_data_size);
    if (sds == 0 && sbo == 0) || sds > 0 {
        match sbo.checked_add(sds) {
            None => c.add(
                "header.file_size",
                "eh00.segment_data_size",
                Some(32),
                "segment_base_offset + segment_data_size overflows",
            ),
            Some(end) => {
                let expected = if sbo == 0 { h.program_size } else { end };
                if expected > len {
                    c.add(
                        "header.file_size",
                        "eh00",
                        Some(24),
                        format!("header says the file has {expected} bytes, it has {len}"),
                    );
                }
            }
        }
    }
    if sbo != 0 && sbo < h.program_size {
        c.add(
            "header.segment_base",
            "eh00.segment_base_offset",
            Some(24),
            format!("segment base {sbo} lies inside the {}-byte program", h.program_size),
        );
    }
}

fn check_program(c: &mut Checker<'_>, p: &Program<'_>, header: Option<&ExtendedHeader>, bytes: &[u8]) {
    if p.version != 0 {
        c.add(
            "program.version",
            "version",
            None,
            format!("schema version {} is newer than the runtime supports (0)", p.version),
        );
    }
    if p.execution_plan.is_none() {
        c.add("program.execution_plan", "execution_plan", None, "execution_plan is absent");
    }
    if p.named_data.is_some() && p.segments.is_none() {
        c.add("program.named_data_segments", "segments", None, "named_data is present but segments is absent");
    }
    let nseg = p.segment_table().len();
    check_segments(c, p, header, bytes);
    let seg_size = |i: u32| usize::try_from(i).ok().and_then(|i| p.segment_table().get(i)).map(|s| s.size);
    let cs_offsets = p.constant_segment.as_ref().and_then(|c| c.offsets.as_deref()).unwrap_or(&[]);
    if cs_offsets.is_empty() {
        c.warn(
            "program.constant_segment",
            "constant_segment.offsets",
            "no constant segment offsets: the runtime takes the deprecated constant_buffer path, which stock CMake builds and the pip wheels compile out (pte rewrite moves the constants into a segment)",
        );
    }
    if let Some(cs) = &p.constant_segment {
        if cs_offsets.len() > 1 {
            if p.constant_buffer.as_ref().is_some_and(|b| !b.is_empty()) {
                c.add(
                    "program.constant_buffer",
                    "constant_buffer",
                    None,
                    "constant_buffer must be empty when the constant segment holds constants",
                );
            }
            if seg_size(cs.segment_index).is_none() {
                c.add(
                    "segment.index",
                    "constant_segment.segment_index",
                    None,
                    format!("segment {} of {nseg}", cs.segment_index),
                );
            }
        }
        check_offsets(c, cs_offsets, seg_size(cs.segment_index), "constant_segment.offsets");
    }
    for (k, m) in p.mutable_data_segments.iter().flatten().enumerate() {
        let path = format!("mutable_data_segments[{k}]");
        if seg_size(m.segment_index).is_none() {
            c.add(
                "segment.index",
                format!("{path}.segment_index"),
                None,
                format!("segment {} of {nseg}", m.segment_index),
            );
        }
        check_offsets(c, m.offsets.as_deref().unwrap_or(&[]), seg_size(m.segment_index), &format!("{path}.offsets"));
    }
    for (i, n) in p.named_data.iter().flatten().enumerate() {
        if n.key.is_none() {
            c.add("delegate.fields", format!("named_data[{i}].key"), None, "named data without key");
        }
        if seg_size(n.segment_index).is_none() {
            c.add(
                "segment.index",
                format!("named_data[{i}].segment_index"),
                None,
                format!("segment {} of {nseg}", n.segment_index),
            );
        }
    }

    let ctx = DataContext {
        constant_offsets: cs_offsets,
        constant_segment_size: p.constant_segment.as_ref().and_then(|c| seg_size(c.segment_index)),
        constant_buffer: p
            .constant_buffer
            .as_deref()
            .map(|b| b.iter().map(|s| s.storage.as_ref().map_or(0, |d| d.len() as u64)).collect()),
        mutable0: p
            .mutable_data_segments
            .as_ref()
            .and_then(|m| m.first())
            .map(|m| (m.offsets.as_deref().unwrap_or(&[]), seg_size(m.segment_index))),
        segment_base: header.is_some_and(|h| h.segment_base_offset != 0),
    };
    for (i, plan) in p.plans().iter().enumerate() {
        check_plan(c, p, plan, &format!("execution_plan[{i}]"), &ctx);
    }
}

struct DataContext<'p> {
    constant_offsets: &'p [u64],
    constant_segment_size: Option<u64>,
    constant_buffer: Option<Vec<u64>>,
    mutable0: Option<(&'p [u64], Option<u64>)>,
    /// Whether the file has a segment base (an eh00 header with a non-zero
    /// segment_base_offset): the runtime loads no segment without one.
    segment_base: bool,
}

fn check_offsets(c: &mut Checker<'_>, offsets: &[u64], seg: Option<u64>, path: &str) {
    let mut prev = 0u64;
    for (i, &o) in offsets.iter().enumerate() {
        if o < prev {
            c.add(
                "subsegment.offsets",
                format!("{path}[{i}]"),
                None,
                format!("offset {o} is below the previous offset {prev}"),
            );
        }
        if let Some(size) = seg {
            if o > size {
                c.add(
                    "subsegment.offsets",
                    format!("{path}[{i}]"),
                    None,
                    format!("offset {o} is past the {size}-byte segment"),
                );
            }
        }
        prev = prev.max(o);
    }
}

fn check_segments(c: &mut Checker<'_>, p: &Program<'_>, header: Option<&ExtendedHeader>, bytes: &[u8]) {
    let table = p.segment_table();
    let len = bytes.len() as u64;
    let base = header.map_or(0, |h| h.segment_base_offset);
    let sds = header.map_or(0, |h| h.segment_data_size);
    let mut spans = vec![];
    for (i, s) in table.iter().enumerate() {
        let path = format!("segments[{i}]");
        if s.size == 0 {
            continue;
        }
        if base == 0 {
            c.add(
                "header.required",
                &path,
                None,
                format!("segment holds {} bytes but the file has no segment base", s.size),
            );
            continue;
        }
        match base.checked_add(s.offset).and_then(|a| a.checked_add(s.size).map(|e| (a, e))) {
            None => c.add("segment.bounds", &path, None, "segment range overflows 64 bits"),
            Some((start, end)) => {
                if end > len {
                    c.add(
                        "segment.bounds",
                        &path,
                        Some(start),
                        format!("segment ends at byte {end}, past the {len}-byte file"),
                    );
                }
                if sds > 0 && s.offset.saturating_add(s.size) > sds {
                    c.add("segment.bounds", &path, Some(start), format!("segment ends past segment_data_size {sds}"));
                }
                spans.push((s.offset, s.offset.saturating_add(s.size), i, start));
            }
        }
    }
    spans.sort_unstable();
    for w in spans.windows(2) {
        if let [(s0, end, a, _), (start, e1, b, off)] = w {
            // the same range named twice is sharing, not overlap
            if start < end && !(s0 == start && end == e1) {
                c.add("segment.overlap", format!("segments[{b}]"), Some(*off), format!("overlaps segments[{a}]"));
            }
        }
    }
}

/// `parent.field[index]`, rendered only when a violation needs it.
/// `parent` plus a fixed suffix, rendered lazily.
struct Suffix<'p>(&'p dyn fmt::Display, &'static str);

impl fmt::Display for Suffix<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.0, self.1)
    }
}

struct At<'p>(&'p dyn fmt::Display, &'static str, usize);

impl fmt::Display for At<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}[{}]", self.0, self.1, self.2)
    }
}

fn in_range(i: i64, n: usize) -> bool {
    usize::try_from(i).is_ok_and(|i| i < n)
}

fn check_plan(c: &mut Checker<'_>, p: &Program<'_>, plan: &ExecutionPlan, path: &str, ctx: &DataContext<'_>) {
    if plan.name.is_none() {
        c.add("plan.name", format!("{path}.name"), None, "plan has no name");
    }
    for (field, present) in [
        ("values", plan.values.is_some()),
        ("inputs", plan.inputs.is_some()),
        ("outputs", plan.outputs.is_some()),
        ("non_const_buffer_sizes", plan.non_const_buffer_sizes.is_some()),
    ] {
        if !present {
            c.add("plan.fields", format!("{path}.{field}"), None, format!("{field} is absent"));
        }
    }
    let values = plan.value_list();
    let n = values.len();
    for (field, list) in [("inputs", &plan.inputs), ("outputs", &plan.outputs)] {
        for (k, &v) in list.iter().flatten().enumerate() {
            if !in_range(i64::from(v), n) {
                c.add("plan.io_index", format!("{path}.{field}[{k}]"), None, format!("value index {v} of {n}"));
            }
        }
    }
    let sizes = plan.non_const_buffer_sizes.as_deref().unwrap_or(&[]);
    for (k, &s) in sizes.iter().enumerate().skip(1) {
        if s < 0 {
            c.add(
                "plan.buffer_sizes",
                format!("{path}.non_const_buffer_sizes[{k}]"),
                None,
                format!("size {s} is negative"),
            );
        }
    }
    for (j, v) in values.iter().enumerate() {
        let vpath = At(&path, "values", j);
        match &v.val {
            None => c.add("value.null", format!("{vpath}.val"), None, "value has tag NONE; use the Null table"),
            Some(KernelTypes::Tensor(t)) => check_tensor(c, t, sizes, &Suffix(&vpath, ".val"), ctx),
            Some(KernelTypes::String(None)) => {
                c.add("value.list", format!("{vpath}.val.string_val"), None, "string is absent")
            }
            Some(KernelTypes::IntList(items)) => match items {
                None => c.add("value.list", format!("{vpath}.val.items"), None, "items are absent"),
                Some(items) => {
                    for (k, &x) in items.iter().enumerate() {
                        if !in_range(x, n) {
                            c.add(
                                "value.list",
                                format!("{vpath}.val.items[{k}]"),
                                None,
                                format!("value index {x} of {n}"),
                            );
                        }
                    }
                }
            },
            Some(KernelTypes::DoubleList(None)) | Some(KernelTypes::BoolList(None)) => {
                c.add("value.list", format!("{vpath}.val.items"), None, "items are absent")
            }
            Some(KernelTypes::TensorList(items)) | Some(KernelTypes::OptionalTensorList(items)) => {
                let optional = matches!(v.val, Some(KernelTypes::OptionalTensorList(_)));
                let Some(items) = items else {
                    c.add("value.tensor_list", format!("{vpath}.val.items"), None, "items are absent");
                    continue;
                };
                for (k, &x) in items.iter().enumerate() {
                    if optional && x == -1 {
                        continue;
                    }
                    let ok = usize::try_from(x).ok().filter(|&i| i < j).and_then(|i| values.get(i)).is_some_and(|t| {
                        matches!(t.val, Some(KernelTypes::Tensor(_)))
                            || (optional && matches!(t.val, Some(KernelTypes::Null)))
                    });
                    if !ok {
                        c.add(
                            "value.tensor_list",
                            format!("{vpath}.val.items[{k}]"),
                            None,
                            format!("item {x} is not an earlier tensor value"),
                        );
                    }
                }
            }
            Some(_) => {}
        }
    }
    check_chains(c, plan, path, n);
    check_delegates(c, p, plan, path);
}

fn check_chains(c: &mut Checker<'_>, plan: &ExecutionPlan, path: &str, n: usize) {
    let chains = match &plan.chains {
        Some(ch) if !ch.is_empty() => ch,
        _ => {
            c.add("plan.chains", format!("{path}.chains"), None, "no chains");
            return;
        }
    };
    let ops = plan.operators.as_deref();
    let ndel = plan.delegates.as_ref().map_or(0, Vec::len);
    for (ci, chain) in chains.iter().enumerate() {
        let cpath = At(&path, "chains", ci);
        let Some(instrs) = &chain.instructions else {
            c.add("plan.chains", format!("{cpath}.instructions"), None, "instructions are absent");
            continue;
        };
        for (ii, ins) in instrs.iter().enumerate() {
            let ipath = At(&cpath, "instructions", ii);
            let idx = |c: &mut Checker<'_>, field: &str, v: i32| {
                if !in_range(i64::from(v), n) {
                    c.add(
                        "instruction.args",
                        format!("{ipath}.instr_args.{field}"),
                        None,
                        format!("value index {v} of {n}"),
                    );
                }
            };
            match &ins.instr_args {
                None => c.add("plan.chains", format!("{ipath}.instr_args"), None, "instruction has no arguments"),
                Some(InstructionArguments::KernelCall { op_index, args }) => {
                    match args {
                        None => c.add("instruction.args", format!("{ipath}.instr_args.args"), None, "args are absent"),
                        Some(a) => a.iter().enumerate().for_each(|(k, &v)| idx(c, &format!("args[{k}]"), v)),
                    }
                    match ops.and_then(|o| usize::try_from(*op_index).ok().and_then(|i| o.get(i))) {
                        None => c.add(
                            "instruction.operator",
                            format!("{ipath}.instr_args.op_index"),
                            None,
                            format!("operator {op_index} does not exist"),
                        ),
                        Some(op) => match &op.name {
                            None => c.add(
                                "instruction.operator",
                                format!("{path}.operators[{op_index}].name"),
                                None,
                                "operator has no name",
                            ),
                            Some(name) => {
                                let ov = op.overload.as_deref().unwrap_or("");
                                let full = if ov.is_empty() {
                                    name.len()
                                } else {
                                    name.len().saturating_add(1).saturating_add(ov.len())
                                };
                                if full >= 100 {
                                    c.add(
                                        "instruction.operator",
                                        format!("{path}.operators[{op_index}]"),
                                        None,
                                        format!("lookup name is {full} bytes; the runtime allows fewer than 100"),
                                    );
                                }
                            }
                        },
                    }
                }
                Some(InstructionArguments::DelegateCall { delegate_index, args }) => {
                    match args {
                        None => c.add("instruction.args", format!("{ipath}.instr_args.args"), None, "args are absent"),
                        Some(a) => a.iter().enumerate().for_each(|(k, &v)| idx(c, &format!("args[{k}]"), v)),
                    }
                    if !in_range(i64::from(*delegate_index), ndel) {
                        c.add(
                            "instruction.delegate",
                            format!("{ipath}.instr_args.delegate_index"),
                            None,
                            format!("delegate {delegate_index} of {ndel}"),
                        );
                    }
                }
                Some(InstructionArguments::MoveCall { move_from, move_to }) => {
                    idx(c, "move_from", *move_from);
                    idx(c, "move_to", *move_to);
                }
                Some(InstructionArguments::JumpFalseCall { cond_value_index, .. }) => {
                    idx(c, "cond_value_index", *cond_value_index)
                }
                Some(InstructionArguments::FreeCall { value_index }) => idx(c, "value_index", *value_index),
            }
        }
    }
}

fn check_delegates(c: &mut Checker<'_>, p: &Program<'_>, plan: &ExecutionPlan, path: &str) {
    if plan.delegates.is_none() {
        c.add("plan.fields", format!("{path}.delegates"), None, "delegates is absent");
    }
    let inline = p.backend_delegate_data.as_deref();
    let nseg = p.segment_table().len();
    for (d, del) in plan.delegates.iter().flatten().enumerate() {
        let dpath = At(&path, "delegates", d);
        if del.id.is_none() {
            c.add("delegate.fields", format!("{dpath}.id"), None, "delegate has no id");
        }
        for (k, cs) in del.compile_specs.iter().flatten().enumerate() {
            if cs.key.is_none() || cs.value.is_none() {
                c.add(
                    "delegate.fields",
                    format!("{dpath}.compile_specs[{k}]"),
                    None,
                    "compile spec lacks key or value",
                );
            }
        }
        let Some(r) = del.processed else {
            c.add("delegate.fields", format!("{dpath}.processed"), None, "delegate has no processed reference");
            continue;
        };
        match r.location {
            DataLocation::INLINE => match inline.and_then(|b| usize::try_from(r.index).ok().and_then(|i| b.get(i))) {
                None => c.add(
                    "delegate.data",
                    format!("{dpath}.processed.index"),
                    None,
                    format!("inline blob {} of {}", r.index, inline.map_or(0, <[_]>::len)),
                ),
                Some(b) if b.data.is_none() => c.add(
                    "delegate.data",
                    format!("backend_delegate_data[{}].data", r.index),
                    None,
                    "inline blob has no data",
                ),
                Some(_) => {}
            },
            DataLocation::SEGMENT => {
                if !in_range(i64::from(r.index), nseg) {
                    c.add(
                        "segment.index",
                        format!("{dpath}.processed.index"),
                        None,
                        format!("segment {} of {nseg}", r.index),
                    );
                }
            }
            other => c.add(
                "delegate.data",
                format!("{dpath}.processed.location"),
                None,
                format!("unknown location {}", other.0),
            ),
        }
    }
}

fn check_tensor(c: &mut Checker<'_>, t: &Tensor, buffer_sizes: &[i64], path: &dyn fmt::Display, ctx: &DataContext<'_>) {
    if t.storage_offset != 0 {
        c.add(
            "tensor.storage_offset",
            format!("{path}.storage_offset"),
            None,
            format!("storage_offset {} is not 0", t.storage_offset),
        );
    }
    if !t.scalar_type.is_runtime_valid() {
        c.add(
            "tensor.scalar_type",
            format!("{path}.scalar_type"),
            None,
            format!("scalar type {} is not one the runtime accepts", t.scalar_type.0),
        );
    }
    if t.shape_dynamism == TensorShapeDynamism::DYNAMIC_UNBOUND {
        c.add("tensor.dynamism", format!("{path}.shape_dynamism"), None, "DYNAMIC_UNBOUND tensors are not supported");
    }
    let rank = match &t.sizes {
        None => {
            c.add("tensor.sizes", format!("{path}.sizes"), None, "sizes are absent");
            None
        }
        Some(s) => {
            if s.len() > 16 {
                c.add("tensor.sizes", format!("{path}.sizes"), None, format!("rank {} exceeds 16", s.len()));
            }
            if let Some(k) = s.iter().position(|&x| x < 0) {
                c.add("tensor.sizes", format!("{path}.sizes[{k}]"), None, "size is negative");
            } else if t.nbytes().is_none() && t.scalar_type.is_runtime_valid() {
                c.add("tensor.sizes", format!("{path}.sizes"), None, "numel × element size overflows");
            }
            Some(s.len())
        }
    };
    match (&t.dim_order, rank) {
        (None, _) => c.add("tensor.dim_order", format!("{path}.dim_order"), None, "dim_order is absent"),
        (Some(d), Some(r)) => {
            let mut seen = vec![false; d.len()];
            let perm = d.len() == r
                && d.iter().all(|&x| seen.get_mut(usize::from(x)).is_some_and(|s| !std::mem::replace(s, true)));
            if !perm {
                c.add(
                    "tensor.dim_order",
                    format!("{path}.dim_order"),
                    None,
                    format!("{d:?} is not a permutation of 0..{r}"),
                );
            }
        }
        _ => {}
    }
    let external = t.is_external();
    if let Some(e) = &t.extra_tensor_info {
        if e.location == TensorDataLocation::EXTERNAL && e.fully_qualified_name.is_none() {
            c.add(
                "tensor.external",
                format!("{path}.extra_tensor_info.fully_qualified_name"),
                None,
                "EXTERNAL tensor has no name",
            );
        }
    }
    let nbytes = t.nbytes().unwrap_or(0);
    if let Some(a) = &t.allocation_info {
        let nbuf = buffer_sizes.len().saturating_sub(1);
        let id = usize::try_from(a.memory_id).unwrap_or(usize::MAX);
        match id.checked_sub(1).filter(|&b| b < nbuf).and_then(|b| buffer_sizes.get(b.saturating_add(1))) {
            None => c.add(
                "tensor.memory_plan",
                format!("{path}.allocation_info.memory_id"),
                None,
                format!("memory_id {} names none of the {nbuf} planned buffers", a.memory_id),
            ),
            Some(&size) => {
                let fits =
                    a.offset().checked_add(nbytes).is_some_and(|end| u64::try_from(size).is_ok_and(|s| end <= s));
                if !fits {
                    c.add(
                        "tensor.memory_plan",
                        format!("{path}.allocation_info"),
                        None,
                        format!("{nbytes} bytes at offset {} do not fit the {size}-byte buffer", a.offset()),
                    );
                }
            }
        }
        if t.data_buffer_idx > 0 && !external {
            let ok = ctx.mutable0.is_some_and(|(offs, seg)| {
                usize::try_from(t.data_buffer_idx)
                    .ok()
                    .and_then(|i| offs.get(i))
                    .is_some_and(|&o| seg.is_some_and(|s| o.checked_add(nbytes).is_some_and(|e| e <= s)))
            });
            if !ok {
                c.add(
                    "mutable.bounds",
                    format!("{path}.data_buffer_idx"),
                    None,
                    format!("initial data {} does not resolve inside mutable segment 0", t.data_buffer_idx),
                );
            } else if !ctx.segment_base {
                // exir omits the header when every segment is empty, which
                // happens when all initial data is zero bytes long
                c.add(
                    "mutable.bounds",
                    format!("{path}.data_buffer_idx"),
                    None,
                    "initial data needs a segment base, but the file has no extended header (the runtime: NotFound)",
                );
            }
            let buffer = usize::try_from(a.memory_id).ok().and_then(|id| buffer_sizes.get(id));
            if buffer == Some(&0) {
                c.add(
                    "mutable.bounds",
                    format!("{path}.allocation_info.memory_id"),
                    None,
                    format!(
                        "initial data is copied into planned buffer {}, of size 0, which has no address \
                         (the runtime: InvalidArgument)",
                        a.memory_id
                    ),
                );
            }
        }
    } else if t.data_buffer_idx > 0 && !external {
        let idx = usize::try_from(t.data_buffer_idx).unwrap_or(usize::MAX);
        let ok = if ctx.constant_offsets.len() > 1 {
            ctx.constant_offsets
                .get(idx)
                .is_some_and(|&o| ctx.constant_segment_size.is_some_and(|s| o <= s && nbytes <= s.saturating_sub(o)))
        } else if ctx.constant_offsets.is_empty() {
            ctx.constant_buffer.as_ref().and_then(|b| b.get(idx)).is_some_and(|&len| nbytes <= len)
        } else {
            false
        };
        if !ok {
            c.add(
                "constant.bounds",
                format!("{path}.data_buffer_idx"),
                None,
                format!("constant {} ({nbytes} bytes) does not resolve inside the constant data", t.data_buffer_idx),
            );
        }
    }
}
mod bpte;
mod fast;
mod needs;
mod ptd;

pub use bpte::verify_bpte_bytes;
pub use needs::{device_needs, external_needs, NEEDS_RULES};
pub use ptd::{verify_link, verify_ptd_bytes};
