//! Where the bytes of a `.pte`, `.ptd` or `.bpte` go (`pte size`): every
//! byte attributed once, to a header, the program's tables, padding, a
//! constant, a mutable buffer, a named blob, a delegate blob or a constant
//! inside an XNNPACK payload, and the parts adding up to the file size.
//!
//! The program is read through its zero-copy view ([`ProgramView`]), never
//! decoded, so a program of any size costs a few bytes per value. References
//! that do not fit (a constant past its segment, a segment past the file,
//! two blobs overlapping) are cut and reported in the report's `notes`
//! rather than refused: a damaged file gets a report too, as long as its
//! header and program tables can be read. `.ptn` packages are partitioned
//! by [`ptn_size_report`](super::ptn_size_report), the same report.
//!
//! ```
//! let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
//! let r = pte_analysis::size::pte_size_report(&bytes)?;
//! assert_eq!(r.total(), bytes.len() as u64);
//! let weight = r.parts.iter().find(|p| p.name == "constant[1]").unwrap();
//! assert_eq!((&*weight.kind, weight.bytes), ("constant", 48));
//! # Ok::<(), pte_file::Error>(())
//! ```

use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt;
use std::ops::Range;

use pte_schema::bundled::{BundledValue, BundledView, Side};
use pte_schema::ptd::decode_flat_tensor;
use pte_schema::xnnpack::{XnnPayload, XNNPACK_BACKEND_ID};
use pte_schema::{DataLocation, InstructionRef, Limits, PlanView, ProgramView, Result, ValueRef};
use pte_segments::ExtendedHeader;

use super::{kinds, Claim, Label, Name, Partition, Pattern, SizeReport};

use crate::delegate_payload::builtin_registry;
use pte_file::program_region;

/// The report of a `.pte`: its headers, the program's tables, each
/// constant, mutable buffer, named blob and delegate blob (and the constants
/// inside an XNNPACK payload), and the padding between. Which kind a file is
/// is the caller's question (the door's `pte::size` asks it once); bytes of
/// another kind fail to read as a program.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("xnnpack_mlp/model.pte"))?;
/// let r = pte_analysis::size::pte_size_report(&bytes)?;
/// assert_eq!(r.parts.iter().filter(|p| p.kind == "xnnpack_constant").count(), 4);
/// assert!(pte_analysis::size::pte_size_report(b"not a file").is_err());
/// # Ok::<(), pte_file::Error>(())
/// ```
pub fn pte_size_report(bytes: &[u8]) -> Result<SizeReport> {
    Ok(pte_partition(bytes)?.finish("pte"))
}

/// The report of a `.ptd`: its `FH01` header, its `FT01` tables and each
/// named tensor's bytes.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("external/_default_external_constant.ptd"))?;
/// let r = pte_analysis::size::ptd_size_report(&bytes)?;
/// assert_eq!(r.total(), bytes.len() as u64);
/// assert!(pte_analysis::size::ptd_size_report(b"not a file").is_err());
/// # Ok::<(), pte_file::Error>(())
/// ```
pub fn ptd_size_report(bytes: &[u8]) -> Result<SizeReport> {
    Ok(ptd_partition(bytes)?.finish("ptd"))
}

/// The report of a `.bpte`: the bundle's tables and test data, and its
/// program partitioned as [`pte_size_report`] partitions a `.pte`.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("bundled/model.bpte"))?;
/// let r = pte_analysis::size::bpte_size_report(&bytes)?;
/// assert_eq!(r.total(), bytes.len() as u64);
/// assert!(pte_analysis::size::bpte_size_report(b"not a file").is_err());
/// # Ok::<(), pte_file::Error>(())
/// ```
pub fn bpte_size_report(bytes: &[u8]) -> Result<SizeReport> {
    Ok(bpte_partition(bytes)?.finish("bpte"))
}

/// Where `inner` starts inside `outer`, when it is borrowed from it.
fn offset_in(outer: &[u8], inner: &[u8]) -> Option<Range<u64>> {
    let start = (inner.as_ptr() as usize).checked_sub(outer.as_ptr() as usize)?;
    let end = start.checked_add(inner.len())?;
    (end <= outer.len()).then_some(start as u64..end as u64)
}

/// `start..start + len`, `None` on overflow.
fn span(start: u64, len: u64) -> Option<Range<u64>> {
    Some(start..start.checked_add(len)?)
}

/// What a stored datum of the program is, by `data_buffer_idx`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Datum {
    Constant(u32),
    Mutable(u32),
}

/// What a value of a plan is, for the walk of its instructions.
#[derive(Clone, Copy)]
enum Slot {
    Other,
    Datum(Datum),
    /// A list of tensors (`aten::cat`'s input): its items are read.
    List,
}

/// What the program's tensors say about one datum: the first user's name
/// (borrowed from the program) and byte size, and the first instruction
/// consuming it.
#[derive(Default)]
struct DatumInfo<'a> {
    /// Whether a tensor refers to it (the first one names and sizes it).
    used: bool,
    fqn: Option<&'a str>,
    nbytes: Option<u64>,
    operator: Option<Label>,
    delegate: Option<Label>,
}

/// The datum a tensor value refers to, as `PteFile::tensors` classifies it.
fn datum(t: &pte_schema::TensorView<'_>) -> Option<Datum> {
    if t.is_external() {
        return None;
    }
    match (t.allocation_info().is_some(), t.data_buffer_idx()) {
        (_, 0) => None,
        (false, i) => Some(Datum::Constant(i)),
        (true, i) => Some(Datum::Mutable(i)),
    }
}

/// A delegate's name in the report: `XnnpackBackend[forward.0]`.
fn delegate_name(id: &str, method: &str, d: usize) -> String {
    format!("{id}[{method}.{d}]")
}

fn method_name(plan: &PlanView<'_>, p: usize) -> String {
    plan.name().map_or_else(|| format!("plan{p}"), str::to_string)
}

/// What the tensors say about every entry of the constant table and of the
/// first mutable segment (the tables the runtime ties to tensors), indexed
/// by `data_buffer_idx`; tensors naming entries past a table are counted.
struct Data<'a> {
    constants: Vec<DatumInfo<'a>>,
    mutable: Vec<DatumInfo<'a>>,
    past_constants: BTreeSet<u32>,
    past_mutable: BTreeSet<u32>,
}

impl<'a> Data<'a> {
    /// What the tensors say about `d`, taken out (each entry is claimed once).
    fn take(&mut self, d: Datum) -> DatumInfo<'a> {
        let e = match d {
            Datum::Constant(i) => usize::try_from(i).ok().and_then(|i| self.constants.get_mut(i)),
            Datum::Mutable(i) => usize::try_from(i).ok().and_then(|i| self.mutable.get_mut(i)),
        };
        e.map(std::mem::take).unwrap_or_default()
    }

    /// The entry of `d`; `None` (and `d` counted) past its table.
    fn get_mut(&mut self, d: Datum) -> Option<&mut DatumInfo<'a>> {
        let (table, past, i) = match d {
            Datum::Constant(i) => (&mut self.constants, &mut self.past_constants, i),
            Datum::Mutable(i) => (&mut self.mutable, &mut self.past_mutable, i),
        };
        let e = usize::try_from(i).ok().and_then(|i| table.get_mut(i));
        if e.is_none() {
            past.insert(i);
        }
        e
    }
}

/// Names, sizes and consumers of every stored datum, from one walk of the
/// values and one of the instructions of each plan.
fn data_info<'a>(view: &ProgramView<'a>) -> Data<'a> {
    let constants = match view.constant_offsets() {
        Some((_, Some(offsets))) if !offsets.is_empty() => offsets.len(),
        _ => view.constant_buffer().map_or(0, |b| b.len()),
    };
    let mutable = view.mutable_offsets().into_iter().flatten().next().and_then(|(_, o)| o).map_or(0, |o| o.len());
    let mut data = Data {
        constants: std::iter::repeat_with(DatumInfo::default).take(constants).collect(),
        mutable: std::iter::repeat_with(DatumInfo::default).take(mutable).collect(),
        past_constants: BTreeSet::new(),
        past_mutable: BTreeSet::new(),
    };
    for p in 0..view.plan_count() {
        let Some(plan) = view.plan(p) else { continue };
        let method = method_name(&plan, p);
        let mut slots: Vec<Slot> = Vec::with_capacity(plan.value_count());
        for v in plan.value_refs() {
            let slot = match v {
                ValueRef::Tensor(t) => match datum(&t) {
                    Some(d) => {
                        if let Some(e) = data.get_mut(d).filter(|e| !e.used) {
                            e.used = true;
                            e.fqn = t.fqn();
                            e.nbytes = t.nbytes();
                        }
                        Slot::Datum(d)
                    }
                    None => Slot::Other,
                },
                ValueRef::TensorList(_) | ValueRef::OptionalTensorList(_) => Slot::List,
                _ => Slot::Other,
            };
            slots.push(slot);
        }
        consumers(&plan, &method, &slots, &mut data);
    }
    data
}

/// Records, for each datum, the first instruction of `plan` reading it.
fn consumers(plan: &PlanView<'_>, method: &str, slots: &[Slot], data: &mut Data<'_>) {
    let operators: Vec<Label> = (0..plan.operator_count())
        .map(|i| match plan.operator(i) {
            Some((name, Some(ov))) if !ov.is_empty() => format!("{}.{ov}", name.unwrap_or("")).into(),
            Some((name, _)) => name.unwrap_or("").into(),
            None => format!("operator[{i}]").into(),
        })
        .collect();
    let delegates: Vec<Label> = plan
        .delegates()
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(d, x)| delegate_name(x.id().unwrap_or(""), method, d).into())
        .collect();
    let slot = |value: i32| usize::try_from(value).ok().and_then(|v| slots.get(v)).copied().unwrap_or(Slot::Other);
    let mut give = |d: Datum, who: &Label, delegate: bool| {
        let Some(e) = data.get_mut(d) else { return };
        if e.operator.is_none() {
            e.operator = Some(who.clone());
            if delegate {
                e.delegate = Some(who.clone());
            }
        }
    };
    for chain in plan.chains().into_iter().flatten() {
        for ins in chain.instructions().into_iter().flatten() {
            let (who, args, delegate): (Label, _, _) = match ins {
                InstructionRef::KernelCall { op_index, args } => {
                    let name = usize::try_from(op_index).ok().and_then(|i| operators.get(i));
                    (name.cloned().unwrap_or_else(|| format!("operator[{op_index}]").into()), args, false)
                }
                InstructionRef::DelegateCall { delegate_index, args } => {
                    let name = usize::try_from(delegate_index).ok().and_then(|i| delegates.get(i));
                    (name.cloned().unwrap_or_else(|| format!("delegate[{delegate_index}]").into()), args, true)
                }
                _ => continue,
            };
            for a in args.into_iter().flat_map(|l| l.iter()) {
                match slot(a) {
                    Slot::Datum(d) => give(d, &who, delegate),
                    Slot::List => {
                        let items = match usize::try_from(a).ok().and_then(|v| plan.value_ref(v)) {
                            Some(ValueRef::TensorList(Some(l)) | ValueRef::OptionalTensorList(Some(l))) => Some(l),
                            _ => None,
                        };
                        for item in items.into_iter().flat_map(|l| l.iter()) {
                            if let Slot::Datum(d) = slot(item) {
                                give(d, &who, delegate);
                            }
                        }
                    }
                    Slot::Other => {}
                }
            }
        }
    }
}

/// Who needs a named-data key: the delegate whose payload names it and,
/// for an XNNPACK constant, the node kind reading it.
struct NamedUser {
    operator: Option<Label>,
    delegate: Label,
    xnnpack: bool,
}

/// The named-data keys delegate payloads need.
type NamedUse = HashMap<String, NamedUser>;

/// The families of names given by number.
struct Names {
    segment: Pattern,
    constant: Pattern,
    mutable: Pattern,
    mutable_segment: Pattern,
}

impl Names {
    fn new() -> Self {
        Names {
            segment: Pattern::one("segment[", "]"),
            // what `tensor_label` calls an unnamed tensor's data
            constant: Pattern::one("constant[", "]"),
            mutable: Pattern::one("mutable[", "]"),
            mutable_segment: Pattern::two("mutable_segment[", "][", "]"),
        }
    }
}

/// Partitions a `.pte`: its header and program region must read (the
/// errors `pte info` gives); everything else is attributed as far as it fits.
fn pte_partition(bytes: &[u8]) -> Result<Partition> {
    let (header, region) = program_region(bytes)?;
    let limits = Limits::default();
    let view = ProgramView::new(region, &limits)?;
    let names = Names::new();
    let mut p = Partition::new(bytes.len() as u64);
    let program = 0..region.len() as u64;
    p.add(Claim::new("program", kinds::PROGRAM, program.clone(), 0));
    if let Some(h) = header {
        let at = pte_segments::HEADER_OFFSET as u64;
        if let Some(r) = span(at, u64::from(h.length)) {
            p.add_within("program", program.clone(), Claim::new("eh00", kinds::HEADER, r, 1));
        }
    }
    let segments = Segments::new(&view, header, &names, &mut p);
    let mut info = data_info(&view);
    constants(&view, bytes, &program, &segments, &names, &mut info, &mut p);
    mutable(&view, &segments, &names, &mut info, &mut p);
    drop(info);
    let named_use = delegates(&view, bytes, &program, &segments, &limits, &mut p);
    named(&view, &segments, &named_use, &mut p);
    Ok(p)
}

/// The program's segment table, located in the file when asked.
struct Segments<'v, 'a> {
    view: &'v ProgramView<'a>,
    /// Where segment offsets count from (0 without an extended header).
    base: u64,
    name: Pattern,
}

impl<'v, 'a> Segments<'v, 'a> {
    /// Locates every entry and claims it as a container: `padding` for the
    /// constant and mutable segments (what their entries leave), `segment`
    /// for the others (what no reference covers).
    fn new(view: &'v ProgramView<'a>, header: Option<ExtendedHeader>, names: &Names, p: &mut Partition) -> Self {
        let base = header.map_or(0, |h| h.segment_base_offset);
        let segments = Segments { view, base, name: names.segment.clone() };
        let mut padded: HashSet<u32> = HashSet::new();
        padded.extend(view.constant_offsets().map(|(i, _)| i));
        padded.extend(view.mutable_offsets().into_iter().flatten().map(|(i, _)| i));
        let mut unlocated = 0u64;
        for (i, s) in view.segments().enumerate() {
            let name = segments.name.name(i as u64);
            if base == 0 && s.size > 0 {
                unlocated = unlocated.saturating_add(1);
                continue;
            }
            match base.checked_add(s.offset).and_then(|start| span(start, s.size)) {
                Some(r) => {
                    let padding = u32::try_from(i).is_ok_and(|i| padded.contains(&i));
                    p.add(Claim::new(name, if padding { kinds::PADDING } else { kinds::SEGMENT }, r, 0));
                }
                None => p.note(format!("{name}: offset {} and size {} overflow", s.offset, s.size)),
            }
        }
        if unlocated > 0 {
            p.note(format!("{unlocated} segments cannot be located: the file has no extended header"));
        }
        segments
    }

    /// File range of entry `i`, `None` where it cannot be located.
    fn range(&self, i: usize) -> Option<Range<u64>> {
        let s = self.view.segment(i)?;
        if self.base == 0 && s.size > 0 {
            return None;
        }
        self.base.checked_add(s.offset).and_then(|start| span(start, s.size))
    }

    /// Entry `i`'s name and file range, with a note when there is none.
    fn get(&self, i: u32, what: &str, p: &mut Partition) -> Option<(Name, Range<u64>)> {
        let r = usize::try_from(i).ok().and_then(|i| self.range(i));
        if r.is_none() {
            p.note(format!("{what} is in segment {i}, which the segment table does not locate: not counted"));
        }
        Some((self.name.name(u64::from(i)), r?))
    }
}

/// A table index as a `data_buffer_idx`.
fn idx(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// Notes an entry whose offset lies past its segment (it then holds no bytes).
fn past_segment(off: u64, seg_len: u64, what: impl fmt::Display, seg_name: &Name, p: &mut Partition) {
    p.note(format!("{what} starts at offset {off}, past the {seg_len} bytes of {seg_name}: not counted"));
}

/// Notes the entries tensors name past a table of `n` (they hold no bytes here).
fn past_table(past: &BTreeSet<u32>, n: usize, mutable: bool, p: &mut Partition) {
    if !past.is_empty() {
        let table = if mutable { "the first mutable segment's" } else { "the constant" };
        p.note(format!(
            "{} data_buffer_idx values name entries past {table} table ({n} entries): their tensors hold no bytes here",
            past.len()
        ));
    }
}

/// The claim of a table entry, named (its fqn, else `unnamed`) and
/// attributed as its tensors say.
fn entry_claim(unnamed: Name, kind: &'static str, range: Range<u64>, d: DatumInfo<'_>) -> Claim {
    let name = d.fqn.map_or(unnamed, Name::from);
    Claim::new(name, kind, range, 1).with_operator(d.operator).with_delegate(d.delegate)
}

fn constants(
    view: &ProgramView<'_>,
    bytes: &[u8],
    program: &Range<u64>,
    segments: &Segments<'_, '_>,
    names: &Names,
    info: &mut Data<'_>,
    p: &mut Partition,
) {
    let label = |i: usize| names.constant.name(u64::from(idx(i)));
    match view.constant_offsets() {
        Some((index, Some(offsets))) if !offsets.is_empty() => {
            past_table(&info.past_constants, offsets.len(), false, p);
            let Some((seg_name, seg)) = segments.get(index, "the constant table", p) else { return };
            let seg_len = seg.end.saturating_sub(seg.start);
            for i in 0..offsets.len() {
                let Some(off) = offsets.get(i) else { continue };
                if off > seg_len {
                    past_segment(off, seg_len, label(i), &seg_name, p);
                }
                let next = offsets.get(i.saturating_add(1)).filter(|&n| n >= off).unwrap_or(seg_len);
                let room = next.max(off).saturating_sub(off);
                let d = info.take(Datum::Constant(idx(i)));
                let len = d.nbytes.unwrap_or(room);
                if let Some(r) = seg.start.checked_add(off).and_then(|s| span(s, len)) {
                    p.add_within(&seg_name, seg.clone(), entry_claim(label(i), kinds::CONSTANT, r, d));
                }
            }
        }
        _ => {
            past_table(&info.past_constants, view.constant_buffer().map_or(0, |b| b.len()), false, p);
            for (i, b) in view.constant_buffer().into_iter().flatten().enumerate() {
                if let Some(r) = b.and_then(|b| offset_in(bytes, b)) {
                    let d = info.take(Datum::Constant(idx(i)));
                    p.add_within("program", program.clone(), entry_claim(label(i), kinds::CONSTANT, r, d));
                }
            }
        }
    }
}

fn mutable(view: &ProgramView<'_>, segments: &Segments<'_, '_>, names: &Names, info: &mut Data<'_>, p: &mut Partition) {
    for (k, (index, offsets)) in view.mutable_offsets().into_iter().flatten().enumerate() {
        let Some(offsets) = offsets else { continue };
        if k == 0 {
            past_table(&info.past_mutable, offsets.len(), true, p);
        }
        let Some((seg_name, seg)) = segments.get(index, &format!("mutable segment {k}"), p) else { continue };
        let seg_len = seg.end.saturating_sub(seg.start);
        for i in 0..offsets.len() {
            let Some(off) = offsets.get(i) else { continue };
            if off > seg_len {
                past_segment(off, seg_len, format_args!("mutable segment {k} entry {i}"), &seg_name, p);
            }
            let next = offsets.get(i.saturating_add(1)).filter(|&n| n >= off).unwrap_or(seg_len);
            let room = next.max(off).saturating_sub(off);
            // only the first mutable segment is tied to tensors (as the runtime reads it)
            let d = if k == 0 { info.take(Datum::Mutable(idx(i))) } else { DatumInfo::default() };
            let len = d.nbytes.unwrap_or(room);
            if let Some(r) = seg.start.checked_add(off).and_then(|s| span(s, len)) {
                let unnamed = match k {
                    0 => names.mutable.name(u64::from(idx(i))),
                    _ => names.mutable_segment.name2(k as u64, i as u64),
                };
                p.add_within(&seg_name, seg.clone(), entry_claim(unnamed, kinds::MUTABLE, r, d));
            }
        }
    }
}

/// Claims every delegate blob and, inside XNNPACK payloads, each constant;
/// returns who consumes the named-data keys payloads need.
fn delegates(
    view: &ProgramView<'_>,
    bytes: &[u8],
    program: &Range<u64>,
    segments: &Segments<'_, '_>,
    limits: &Limits,
    p: &mut Partition,
) -> NamedUse {
    let mut named_use = NamedUse::new();
    for pi in 0..view.plan_count() {
        let Some(plan) = view.plan(pi) else { continue };
        let method = method_name(&plan, pi);
        for (d, del) in plan.delegates().into_iter().flatten().enumerate() {
            let id = del.id().unwrap_or("");
            let name = Label::from(delegate_name(id, &method, d));
            let Some(r) = del.processed() else { continue };
            let located = match r.location {
                DataLocation::INLINE => {
                    let data = usize::try_from(r.index).ok().and_then(|i| view.inline_delegate_data(i)).flatten();
                    if data.is_none() {
                        p.note(format!("{name}: inline delegate data {} does not exist: not counted", r.index));
                    }
                    data.and_then(|b| Some((b, Name::from("program"), program.clone(), offset_in(bytes, b)?)))
                }
                DataLocation::SEGMENT => segments.get(r.index, &name, p).and_then(|(seg_name, seg)| {
                    let b = bytes.get(usize::try_from(seg.start).ok()?..usize::try_from(seg.end).ok()?)?;
                    Some((b, seg_name, seg.clone(), seg))
                }),
                other => {
                    p.note(format!("{name}: unknown data location {}: not counted", other.0));
                    None
                }
            };
            let Some((blob, outer_name, outer, range)) = located else { continue };
            let start = range.start;
            p.add_within(
                &outer_name,
                outer,
                Claim::new(Name::from(&name), kinds::DELEGATE, range.clone(), 1).with_delegate(Some(name.clone())),
            );
            if id == XNNPACK_BACKEND_ID {
                xnnpack(blob, start, &name, limits, &mut named_use, p);
            } else if let Some(reader) = builtin_registry().get(id) {
                for key in reader.summary(blob, limits).map(|s| s.named_keys).unwrap_or_default() {
                    let user = NamedUser { operator: Some(name.clone()), delegate: name.clone(), xnnpack: false };
                    named_use.entry(key).or_insert(user);
                }
            }
        }
    }
    named_use
}

/// The constants of an XNNPACK payload that starts at `start` in the file.
fn xnnpack(blob: &[u8], start: u64, name: &Label, limits: &Limits, named_use: &mut NamedUse, p: &mut Partition) {
    let payload = match XnnPayload::new(blob, limits) {
        Ok(x) => x,
        Err(e) => {
            p.note(format!("{name}: the XNNPACK payload does not parse ({e}): its constants are not counted apart"));
            return;
        }
    };
    let nodes = node_consumers(&payload);
    let legacy = payload.header().is_none();
    let blob_range = start..start.saturating_add(blob.len() as u64);
    for c in payload.constants() {
        let operator = nodes.get(&c.index).cloned();
        if let Some(key) = c.named_key {
            let user = NamedUser { operator, delegate: name.clone(), xnnpack: true };
            named_use.entry(key.to_string()).or_insert(user);
            continue;
        }
        if c.index == 0 || c.size == 0 {
            continue;
        }
        let table = if legacy { "constant_buffer" } else { "constant_data" };
        let part = format!("{name}/{table}[{}]", c.index);
        let Some(r) = c.range.and_then(|r| Some(start.checked_add(r.start)?..start.checked_add(r.end)?)) else {
            p.note(format!(
                "{part}: {} bytes at offset outside the payload's constant data: not counted apart",
                c.size
            ));
            continue;
        };
        let claim =
            Claim::new(part, kinds::XNNPACK_CONSTANT, r, 2).with_operator(operator).with_delegate(Some(name.clone()));
        p.add_within(&**name, blob_range.clone(), claim);
    }
}

/// The operator (`XnnpackBackend:kind`) of the first node reading each
/// constant index of a payload (tensor data and per-channel scales).
fn node_consumers(payload: &XnnPayload<'_>) -> HashMap<usize, Label> {
    let mut out = HashMap::new();
    let Ok(graph) = payload.decode() else { return out };
    let mut by_id: HashMap<u32, Vec<usize>> = HashMap::new();
    for v in graph.xvalues.iter().flatten() {
        let Some(t) = v.tensor() else { continue };
        let scale = match &v.value {
            Some(pte_schema::xnnpack::XValueUnion::XNNQuantizedTensorValue(q)) => {
                q.quant_params.as_ref().and_then(|q| q.scale_buffer_idx())
            }
            _ => None,
        };
        for idx in [Some(t.constant_buffer_idx).filter(|&i| i != 0), scale].into_iter().flatten() {
            if let Ok(idx) = usize::try_from(idx) {
                by_id.entry(t.id_out).or_default().push(idx);
            }
        }
    }
    let mut labels: HashMap<String, Label> = HashMap::new();
    for n in graph.xnodes.iter().flatten() {
        for (_, id) in n.value_ids() {
            for &idx in by_id.get(&id).into_iter().flatten() {
                out.entry(idx).or_insert_with(|| {
                    let kind = n.kind.to_string();
                    labels.entry(kind).or_insert_with_key(|k| format!("{XNNPACK_BACKEND_ID}:{k}").into()).clone()
                });
            }
        }
    }
    out
}

fn named(view: &ProgramView<'_>, segments: &Segments<'_, '_>, named_use: &NamedUse, p: &mut Partition) {
    for (n, (key, index)) in view.named_data().enumerate() {
        let name = key.map_or_else(|| format!("named_data[{n}]"), str::to_string);
        let Some((seg_name, seg)) = segments.get(index, &format!("named data {name:?}"), p) else { continue };
        let user = key.and_then(|k| named_use.get(k));
        let kind = if user.is_some_and(|u| u.xnnpack) { kinds::XNNPACK_CONSTANT } else { kinds::NAMED_DATA };
        let claim = Claim::new(name, kind, seg.clone(), 1)
            .with_operator(user.and_then(|u| u.operator.clone()))
            .with_delegate(user.map(|u| u.delegate.clone()));
        p.add_within(&seg_name, seg, claim);
    }
}

/// Partitions a `.ptd`: the `FH01` header, its padding, the `FT01` tables,
/// each key's tensor (or blob) in its segment.
fn ptd_partition(bytes: &[u8]) -> Result<Partition> {
    let (h, region) = pte_file::ptd::flatbuffer_region(bytes)?;
    let len = bytes.len() as u64;
    let end = region.len() as u64;
    let ft = decode_flat_tensor(region, &Limits::default())?;
    let mut p = Partition::new(len);
    let tables = 0..end;
    p.add(Claim::new("tables", kinds::PTD_TABLES, tables.clone(), 0));
    if let Some(r) = span(8, u64::from(h.length)) {
        p.add_within("tables", tables.clone(), Claim::new("fh01", kinds::PTD_HEADER, r, 1));
    }
    // the writer inserts flatbuffer_offset bytes at 8: the header, then padding
    let pad = 8u64.checked_add(u64::from(h.length)).zip(8u64.checked_add(h.flatbuffer_offset));
    if let Some((s, e)) = pad.filter(|(s, e)| s < e) {
        p.add_within("tables", tables, Claim::new("fh01 padding", kinds::PADDING, s..e, 1));
    }
    let table = ft.segments.as_deref().unwrap_or(&[]);
    let mut keyed: HashSet<u32> = HashSet::new();
    keyed.extend(ft.named_data.iter().flatten().map(|n| n.segment_index));
    let mut ranges = Vec::with_capacity(table.len());
    for (i, s) in table.iter().enumerate() {
        let r = h.segment_base_offset.checked_add(s.offset).and_then(|start| span(start, s.size));
        match &r {
            Some(r) => {
                let used = u32::try_from(i).is_ok_and(|i| keyed.contains(&i));
                let kind = if used { kinds::PADDING } else { kinds::SEGMENT };
                p.add(Claim::new(format!("segment[{i}]"), kind, r.clone(), 0));
            }
            None => p.note(format!("segment[{i}]: offset {} and size {} overflow", s.offset, s.size)),
        }
        ranges.push(r);
    }
    for (n, e) in ft.named_data.iter().flatten().enumerate() {
        let name = e.key.clone().unwrap_or_else(|| format!("named_data[{n}]"));
        let seg = usize::try_from(e.segment_index).ok().and_then(|i| ranges.get(i)).cloned().flatten();
        let Some(seg) = seg else {
            p.note(format!("{name}: segment {} is not in the segment table: not counted", e.segment_index));
            continue;
        };
        let seg_len = seg.end.saturating_sub(seg.start);
        let (kind, len) = match &e.tensor_layout {
            Some(l) => (kinds::TENSOR, l.nbytes().filter(|&n| n <= seg_len).unwrap_or(seg_len)),
            None => (kinds::NAMED_DATA, seg_len),
        };
        if let Some(r) = span(seg.start, len) {
            p.add_within(format!("segment[{}]", e.segment_index), seg, Claim::new(name, kind, r, 1));
        }
    }
    Ok(p)
}

/// Partitions a `.bpte`: the `BP08` tables, each test-case tensor's data,
/// and the embedded program's own parts, named `program:...`. The cases
/// are read in place ([`BundledView`]), one value at a time.
fn bpte_partition(bytes: &[u8]) -> Result<Partition> {
    let b = BundledView::new(bytes, &Limits::default())?;
    let len = bytes.len() as u64;
    let mut p = Partition::new(len);
    p.add(Claim::new("bundle", kinds::BUNDLE, 0..len, 0));
    if let Some(program) = b.program() {
        match offset_in(bytes, program) {
            Some(at) => match pte_partition(program) {
                Ok(inner) => {
                    p.add(Claim::new("program:padding", kinds::PADDING, at.clone(), 1));
                    p.nest(inner, "program:", at.start, 2);
                }
                Err(e) => {
                    p.note(format!("the embedded program does not read ({e}): counted as one part"));
                    p.add(Claim::new("program", kinds::PROGRAM, at, 1));
                }
            },
            None => p.note("the embedded program is not stored in the file's bytes: not counted apart"),
        }
    }
    const SIDES: [Side; 2] = [Side::Inputs, Side::ExpectedOutputs];
    for suite in b.suites() {
        let method = suite.method_name().unwrap_or("");
        let names = SIDES.map(|side| Pattern::two(&format!("{method}.cases["), &format!("].{}[", side.field()), "]"));
        for (c, case) in suite.cases().enumerate() {
            for (side, name) in SIDES.iter().zip(&names) {
                for (k, v) in case.values(*side).into_iter().flatten().enumerate() {
                    let BundledValue::Tensor(t) = v? else { continue };
                    let Some(r) = t.data.as_deref().and_then(|d| offset_in(bytes, d)) else { continue };
                    p.add(Claim::new(name.name2(c as u64, k as u64), kinds::TEST_DATA, r, 1));
                }
            }
        }
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::Names;
    use pte_file::{tensor_label, Unnamed};

    #[test]
    fn unnamed_data_is_named_as_the_tensor_table_names_it() {
        let names = Names::new();
        assert_eq!(names.constant.name(3).to_string(), tensor_label(None, Unnamed::Constant(3)));
        assert_eq!(names.mutable.name(1).to_string(), tensor_label(None, Unnamed::Mutable(1)));
    }
}
