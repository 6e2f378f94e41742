//! The verifier: the runtime's load rules (format facts §3) plus the
//! cross-reference checks a correct file satisfies, each violation reported
//! with its rule name, field path and (where known) byte offset.
//!
//! Rule names are stable; [`rules`] declares every one, and [`CATALOGUES`]
//! groups them by format for the documentation.

use std::fmt;

use pte_schema::{
    decode_program, DataLocation, ErrorKind, ExecutionPlan, InstructionArguments, KernelTypes, Limits, Program, Tensor,
    TensorDataLocation, TensorShapeDynamism,
};
use pte_segments::ExtendedHeader;

pub use crate::read::program_region;

pub use pte_core::{Catalogue, Report, Rule, Violation};
pub use rules::CATALOGUES;

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
    fn warn(&mut self, rule: Rule, path: impl Into<String>, message: impl Into<String>) {
        self.warnings.push(Violation { rule, path: path.into(), offset: None, message: message.into() });
    }

    fn add(&mut self, rule: Rule, path: impl Into<String>, offset: Option<u64>, message: impl Into<String>) {
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
        c.add(rules::FILE_MIN_SIZE, "", None, format!("file is {len} bytes; loaders need at least 64"));
    }
    let header = match ExtendedHeader::parse(bytes) {
        Ok(h) => h,
        Err(e) => {
            c.add(rules::HEADER_LENGTH, e.path(), e.offset(), e.message());
            return Report { violations, warnings: vec![] };
        }
    };
    if let Some(h) = &header {
        check_header(&mut c, h, len);
    }
    let region = match program_region(bytes) {
        Ok((_, r)) => r,
        Err(e) => {
            if !c.out.iter().any(|v| v.rule == rules::HEADER_PROGRAM_SIZE) {
                c.add(rules::HEADER_PROGRAM_SIZE, e.path(), e.offset(), e.message());
            }
            return Report { violations, warnings: vec![] };
        }
    };
    if region.get(4..8).is_some_and(|id| id != b"ET12") {
        c.add(rules::FLATBUFFER_IDENTIFIER, "", Some(4), "file identifier is not ET12");
        return Report { violations, warnings: vec![] };
    }
    if let Some(r) = region.get(..4).and_then(|b| <[u8; 4]>::try_from(b).ok()).map(u32::from_le_bytes) {
        let max = (region.len() as u64).saturating_sub(4);
        if u64::from(r) < 8 || u64::from(r) > max {
            c.add(rules::FLATBUFFER_ROOT_OFFSET, "", Some(0), format!("root offset {r} is outside [8, {max}]"));
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
            let rule = if e.kind() == ErrorKind::Unsupported {
                rules::FLATBUFFER_UNION_TAG
            } else {
                rules::FLATBUFFER_STRUCTURE
            };
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
            rules::HEADER_PROGRAM_SIZE,
            "eh00.program_size",
            Some(16),
            format!("program_size {} is outside [8, {len}]", h.program_size),
        );
    }
    let (sbo, sds) = (h.segment_base_offset, h.segment_data_size);
    if (sds == 0 && sbo == 0) || sds > 0 {
        match sbo.checked_add(sds) {
            None => c.add(
                rules::HEADER_FILE_SIZE,
                "eh00.segment_data_size",
                Some(32),
                "segment_base_offset + segment_data_size overflows",
            ),
            Some(end) => {
                let expected = if sbo == 0 { h.program_size } else { end };
                if expected > len {
                    c.add(
                        rules::HEADER_FILE_SIZE,
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
            rules::HEADER_SEGMENT_BASE,
            "eh00.segment_base_offset",
            Some(24),
            format!("segment base {sbo} lies inside the {}-byte program", h.program_size),
        );
    }
}

fn check_program(c: &mut Checker<'_>, p: &Program<'_>, header: Option<&ExtendedHeader>, bytes: &[u8]) {
    if p.version != 0 {
        c.add(
            rules::PROGRAM_VERSION,
            "version",
            None,
            format!("schema version {} is newer than the runtime supports (0)", p.version),
        );
    }
    if p.execution_plan.is_none() {
        c.add(rules::PROGRAM_EXECUTION_PLAN, "execution_plan", None, "execution_plan is absent");
    }
    if p.named_data.is_some() && p.segments.is_none() {
        c.add(rules::PROGRAM_NAMED_DATA_SEGMENTS, "segments", None, "named_data is present but segments is absent");
    }
    let nseg = p.segment_table().len();
    check_segments(c, p, header, bytes);
    let seg_size = |i: u32| usize::try_from(i).ok().and_then(|i| p.segment_table().get(i)).map(|s| s.size);
    let cs_offsets = p.constant_segment.as_ref().and_then(|c| c.offsets.as_deref()).unwrap_or(&[]);
    if cs_offsets.is_empty() {
        c.warn(
            rules::PROGRAM_CONSTANT_SEGMENT,
            "constant_segment.offsets",
            "no constant segment offsets: the runtime takes the deprecated constant_buffer path, which stock CMake builds and the pip wheels compile out (pte rewrite moves the constants into a segment)",
        );
    }
    if let Some(cs) = &p.constant_segment {
        if cs_offsets.len() > 1 {
            if p.constant_buffer.as_ref().is_some_and(|b| !b.is_empty()) {
                c.add(
                    rules::PROGRAM_CONSTANT_BUFFER,
                    "constant_buffer",
                    None,
                    "constant_buffer must be empty when the constant segment holds constants",
                );
            }
            if seg_size(cs.segment_index).is_none() {
                c.add(
                    rules::SEGMENT_INDEX,
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
                rules::SEGMENT_INDEX,
                format!("{path}.segment_index"),
                None,
                format!("segment {} of {nseg}", m.segment_index),
            );
        }
        check_offsets(c, m.offsets.as_deref().unwrap_or(&[]), seg_size(m.segment_index), &format!("{path}.offsets"));
    }
    for (i, n) in p.named_data.iter().flatten().enumerate() {
        if n.key.is_none() {
            c.add(rules::DELEGATE_FIELDS, format!("named_data[{i}].key"), None, "named data without key");
        }
        if seg_size(n.segment_index).is_none() {
            c.add(
                rules::SEGMENT_INDEX,
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
                rules::SUBSEGMENT_OFFSETS,
                format!("{path}[{i}]"),
                None,
                format!("offset {o} is below the previous offset {prev}"),
            );
        }
        if let Some(size) = seg {
            if o > size {
                c.add(
                    rules::SUBSEGMENT_OFFSETS,
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
                rules::HEADER_REQUIRED,
                &path,
                None,
                format!("segment holds {} bytes but the file has no segment base", s.size),
            );
            continue;
        }
        match base.checked_add(s.offset).and_then(|a| a.checked_add(s.size).map(|e| (a, e))) {
            None => c.add(rules::SEGMENT_BOUNDS, &path, None, "segment range overflows 64 bits"),
            Some((start, end)) => {
                if end > len {
                    c.add(
                        rules::SEGMENT_BOUNDS,
                        &path,
                        Some(start),
                        format!("segment ends at byte {end}, past the {len}-byte file"),
                    );
                }
                if sds > 0 && s.offset.saturating_add(s.size) > sds {
                    c.add(
                        rules::SEGMENT_BOUNDS,
                        &path,
                        Some(start),
                        format!("segment ends past segment_data_size {sds}"),
                    );
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
                c.add(rules::SEGMENT_OVERLAP, format!("segments[{b}]"), Some(*off), format!("overlaps segments[{a}]"));
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
        c.add(rules::PLAN_NAME, format!("{path}.name"), None, "plan has no name");
    }
    for (field, present) in [
        ("values", plan.values.is_some()),
        ("inputs", plan.inputs.is_some()),
        ("outputs", plan.outputs.is_some()),
        ("non_const_buffer_sizes", plan.non_const_buffer_sizes.is_some()),
    ] {
        if !present {
            c.add(rules::PLAN_FIELDS, format!("{path}.{field}"), None, format!("{field} is absent"));
        }
    }
    let values = plan.value_list();
    let n = values.len();
    for (field, list) in [("inputs", &plan.inputs), ("outputs", &plan.outputs)] {
        for (k, &v) in list.iter().flatten().enumerate() {
            if !in_range(i64::from(v), n) {
                c.add(rules::PLAN_IO_INDEX, format!("{path}.{field}[{k}]"), None, format!("value index {v} of {n}"));
            }
        }
    }
    let sizes = plan.non_const_buffer_sizes.as_deref().unwrap_or(&[]);
    for (k, &s) in sizes.iter().enumerate().skip(1) {
        if s < 0 {
            c.add(
                rules::PLAN_BUFFER_SIZES,
                format!("{path}.non_const_buffer_sizes[{k}]"),
                None,
                format!("size {s} is negative"),
            );
        }
    }
    for (j, v) in values.iter().enumerate() {
        let vpath = At(&path, "values", j);
        match &v.val {
            None => c.add(rules::VALUE_NULL, format!("{vpath}.val"), None, "value has tag NONE; use the Null table"),
            Some(KernelTypes::Tensor(t)) => check_tensor(c, t, sizes, &Suffix(&vpath, ".val"), ctx),
            Some(KernelTypes::String(None)) => {
                c.add(rules::VALUE_LIST, format!("{vpath}.val.string_val"), None, "string is absent")
            }
            Some(KernelTypes::IntList(items)) => match items {
                None => c.add(rules::VALUE_LIST, format!("{vpath}.val.items"), None, "items are absent"),
                Some(items) => {
                    for (k, &x) in items.iter().enumerate() {
                        if !in_range(x, n) {
                            c.add(
                                rules::VALUE_LIST,
                                format!("{vpath}.val.items[{k}]"),
                                None,
                                format!("value index {x} of {n}"),
                            );
                        }
                    }
                }
            },
            Some(KernelTypes::DoubleList(None)) | Some(KernelTypes::BoolList(None)) => {
                c.add(rules::VALUE_LIST, format!("{vpath}.val.items"), None, "items are absent")
            }
            Some(KernelTypes::TensorList(items)) | Some(KernelTypes::OptionalTensorList(items)) => {
                let optional = matches!(v.val, Some(KernelTypes::OptionalTensorList(_)));
                let Some(items) = items else {
                    c.add(rules::VALUE_TENSOR_LIST, format!("{vpath}.val.items"), None, "items are absent");
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
                            rules::VALUE_TENSOR_LIST,
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
            c.add(rules::PLAN_CHAINS, format!("{path}.chains"), None, "no chains");
            return;
        }
    };
    let ops = plan.operators.as_deref();
    let ndel = plan.delegates.as_ref().map_or(0, Vec::len);
    for (ci, chain) in chains.iter().enumerate() {
        let cpath = At(&path, "chains", ci);
        let Some(instrs) = &chain.instructions else {
            c.add(rules::PLAN_CHAINS, format!("{cpath}.instructions"), None, "instructions are absent");
            continue;
        };
        for (ii, ins) in instrs.iter().enumerate() {
            let ipath = At(&cpath, "instructions", ii);
            let idx = |c: &mut Checker<'_>, field: &str, v: i32| {
                if !in_range(i64::from(v), n) {
                    c.add(
                        rules::INSTRUCTION_ARGS,
                        format!("{ipath}.instr_args.{field}"),
                        None,
                        format!("value index {v} of {n}"),
                    );
                }
            };
            match &ins.instr_args {
                None => c.add(rules::PLAN_CHAINS, format!("{ipath}.instr_args"), None, "instruction has no arguments"),
                Some(InstructionArguments::KernelCall { op_index, args }) => {
                    match args {
                        None => {
                            c.add(rules::INSTRUCTION_ARGS, format!("{ipath}.instr_args.args"), None, "args are absent")
                        }
                        Some(a) => a.iter().enumerate().for_each(|(k, &v)| idx(c, &format!("args[{k}]"), v)),
                    }
                    match ops.and_then(|o| usize::try_from(*op_index).ok().and_then(|i| o.get(i))) {
                        None => c.add(
                            rules::INSTRUCTION_OPERATOR,
                            format!("{ipath}.instr_args.op_index"),
                            None,
                            format!("operator {op_index} does not exist"),
                        ),
                        Some(op) => match &op.name {
                            None => c.add(
                                rules::INSTRUCTION_OPERATOR,
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
                                        rules::INSTRUCTION_OPERATOR,
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
                        None => {
                            c.add(rules::INSTRUCTION_ARGS, format!("{ipath}.instr_args.args"), None, "args are absent")
                        }
                        Some(a) => a.iter().enumerate().for_each(|(k, &v)| idx(c, &format!("args[{k}]"), v)),
                    }
                    if !in_range(i64::from(*delegate_index), ndel) {
                        c.add(
                            rules::INSTRUCTION_DELEGATE,
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
        c.add(rules::PLAN_FIELDS, format!("{path}.delegates"), None, "delegates is absent");
    }
    let inline = p.backend_delegate_data.as_deref();
    let nseg = p.segment_table().len();
    for (d, del) in plan.delegates.iter().flatten().enumerate() {
        let dpath = At(&path, "delegates", d);
        if del.id.is_none() {
            c.add(rules::DELEGATE_FIELDS, format!("{dpath}.id"), None, "delegate has no id");
        }
        for (k, cs) in del.compile_specs.iter().flatten().enumerate() {
            if cs.key.is_none() || cs.value.is_none() {
                c.add(
                    rules::DELEGATE_FIELDS,
                    format!("{dpath}.compile_specs[{k}]"),
                    None,
                    "compile spec lacks key or value",
                );
            }
        }
        let Some(r) = del.processed else {
            c.add(rules::DELEGATE_FIELDS, format!("{dpath}.processed"), None, "delegate has no processed reference");
            continue;
        };
        match r.location {
            DataLocation::INLINE => match inline.and_then(|b| usize::try_from(r.index).ok().and_then(|i| b.get(i))) {
                None => c.add(
                    rules::DELEGATE_DATA,
                    format!("{dpath}.processed.index"),
                    None,
                    format!("inline blob {} of {}", r.index, inline.map_or(0, <[_]>::len)),
                ),
                Some(b) if b.data.is_none() => c.add(
                    rules::DELEGATE_DATA,
                    format!("backend_delegate_data[{}].data", r.index),
                    None,
                    "inline blob has no data",
                ),
                Some(_) => {}
            },
            DataLocation::SEGMENT => {
                if !in_range(i64::from(r.index), nseg) {
                    c.add(
                        rules::SEGMENT_INDEX,
                        format!("{dpath}.processed.index"),
                        None,
                        format!("segment {} of {nseg}", r.index),
                    );
                }
            }
            other => c.add(
                rules::DELEGATE_DATA,
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
            rules::TENSOR_STORAGE_OFFSET,
            format!("{path}.storage_offset"),
            None,
            format!("storage_offset {} is not 0", t.storage_offset),
        );
    }
    if !t.scalar_type.is_runtime_valid() {
        c.add(
            rules::TENSOR_SCALAR_TYPE,
            format!("{path}.scalar_type"),
            None,
            format!("scalar type {} is not one the runtime accepts", t.scalar_type.0),
        );
    }
    if t.shape_dynamism == TensorShapeDynamism::DYNAMIC_UNBOUND {
        c.add(
            rules::TENSOR_DYNAMISM,
            format!("{path}.shape_dynamism"),
            None,
            "DYNAMIC_UNBOUND tensors are not supported",
        );
    }
    let rank = match &t.sizes {
        None => {
            c.add(rules::TENSOR_SIZES, format!("{path}.sizes"), None, "sizes are absent");
            None
        }
        Some(s) => {
            if s.len() > 16 {
                c.add(rules::TENSOR_SIZES, format!("{path}.sizes"), None, format!("rank {} exceeds 16", s.len()));
            }
            if let Some(k) = s.iter().position(|&x| x < 0) {
                c.add(rules::TENSOR_SIZES, format!("{path}.sizes[{k}]"), None, "size is negative");
            } else if t.nbytes().is_none() && t.scalar_type.is_runtime_valid() {
                c.add(rules::TENSOR_SIZES, format!("{path}.sizes"), None, "numel × element size overflows");
            }
            Some(s.len())
        }
    };
    match (&t.dim_order, rank) {
        (None, _) => c.add(rules::TENSOR_DIM_ORDER, format!("{path}.dim_order"), None, "dim_order is absent"),
        (Some(d), Some(r)) => {
            let mut seen = vec![false; d.len()];
            let perm = d.len() == r
                && d.iter().all(|&x| seen.get_mut(usize::from(x)).is_some_and(|s| !std::mem::replace(s, true)));
            if !perm {
                c.add(
                    rules::TENSOR_DIM_ORDER,
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
                rules::TENSOR_EXTERNAL,
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
                rules::TENSOR_MEMORY_PLAN,
                format!("{path}.allocation_info.memory_id"),
                None,
                format!("memory_id {} names none of the {nbuf} planned buffers", a.memory_id),
            ),
            Some(&size) => {
                let fits =
                    a.offset().checked_add(nbytes).is_some_and(|end| u64::try_from(size).is_ok_and(|s| end <= s));
                if !fits {
                    c.add(
                        rules::TENSOR_MEMORY_PLAN,
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
                    rules::MUTABLE_BOUNDS,
                    format!("{path}.data_buffer_idx"),
                    None,
                    format!("initial data {} does not resolve inside mutable segment 0", t.data_buffer_idx),
                );
            } else if !ctx.segment_base {
                // exir omits the header when every segment is empty, which
                // happens when all initial data is zero bytes long
                c.add(
                    rules::MUTABLE_BOUNDS,
                    format!("{path}.data_buffer_idx"),
                    None,
                    "initial data needs a segment base, but the file has no extended header (the runtime: NotFound)",
                );
            }
            let buffer = usize::try_from(a.memory_id).ok().and_then(|id| buffer_sizes.get(id));
            if buffer == Some(&0) {
                c.add(
                    rules::MUTABLE_BOUNDS,
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
                rules::CONSTANT_BOUNDS,
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
pub mod rules;

pub use bpte::verify_bpte_bytes;
pub use needs::{device_needs, external_needs};
pub use ptd::{verify_link, verify_ptd_bytes};
