//! A `.pte` read for `info` through the zero-copy views of its verified
//! program: constants, mutable buffers, named data, delegates and the tensor
//! table are read in place with the meaning the `PteFile` accessors give
//! them, and no model is decoded. What stays on the heap is what the output
//! holds, plus 16 bytes per tensor value for the tensor table.

use std::collections::{BTreeMap, HashMap, HashSet};

use pte_file::{tensor_label, Result, SparsePte, Unnamed};
use pte_schema::{DataLocation, DataSegment, Limits, List, PlanView, ProgramView, TensorView, ValueRef};
use pte_segments::ranges::segment_bytes;
use pte_segments::ExtendedHeader;

/// Which segment list the summary follows where the two readers differ:
/// `info FILE` reads the program with only the segments it refers to
/// ([`SparsePte`]), the batch reads the whole table (`PteFile`). They
/// disagree only on whether "no segment" means no referenced entry or an
/// empty table (the lone constant placeholder).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Table {
    Referenced,
    Whole,
}

/// A verified `.pte`, read on demand.
pub(crate) struct PteView<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) view: ProgramView<'a>,
    pub(crate) header: Option<ExtendedHeader>,
    /// The extended header's segment base (0 without one).
    pub(crate) base: u64,
    /// Whether the reader's segment list is empty, by [`Table`]'s rule.
    no_segments: bool,
}

/// One constant or mutable sub-buffer, as `PteFile::constants` gives it.
#[derive(Clone, Copy)]
pub(crate) struct Sub {
    pub(crate) index: usize,
    pub(crate) offset: u64,
    pub(crate) len: u64,
    pub(crate) span: u64,
}

enum SubKind<'a> {
    /// The constant table of a program with no segment: its placeholder only.
    Placeholder,
    Offsets {
        seg_len: u64,
        offsets: Option<List<'a, u64>>,
        sizes: Vec<Option<u64>>,
    },
    /// The legacy inline `constant_buffer`, by its byte lengths.
    Inline(Vec<u64>),
}

/// The sub-buffers of one segment (or of the inline buffers), every one of
/// which was checked to lie in its segment.
pub(crate) struct Subs<'a> {
    /// The segment they lie in (stored table index); `None` when inline.
    pub(crate) segment: Option<u32>,
    kind: SubKind<'a>,
}

impl Subs<'_> {
    pub(crate) fn len(&self) -> usize {
        match &self.kind {
            SubKind::Placeholder => 1,
            SubKind::Offsets { offsets, .. } => offsets.map_or(0, |o| o.len()),
            SubKind::Inline(lens) => lens.len(),
        }
    }

    /// Sub-buffer `i`; `None` past the end or when it does not fit its segment.
    pub(crate) fn get(&self, i: usize) -> Option<Sub> {
        match &self.kind {
            SubKind::Placeholder => (i == 0).then_some(Sub { index: 0, offset: 0, len: 0, span: 0 }),
            SubKind::Inline(lens) => lens.get(i).map(|&n| Sub { index: i, offset: 0, len: n, span: n }),
            SubKind::Offsets { seg_len, offsets, sizes } => {
                let offsets = (*offsets)?;
                let off = offsets.get(i)?;
                let next = offsets.get(i.saturating_add(1)).filter(|&n| n >= off).unwrap_or(*seg_len);
                let span = next.max(off).saturating_sub(off);
                let room = seg_len.saturating_sub(off);
                let len = match sizes.get(i).copied().flatten() {
                    Some(n) if n <= room => n,
                    _ => span.min(room),
                };
                off.checked_add(len).filter(|&end| end <= *seg_len)?;
                Some(Sub { index: i, offset: off, len, span })
            }
        }
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = Sub> + '_ {
        (0..self.len()).filter_map(|i| self.get(i))
    }
}

/// A delegate's processed blob, as `PteFile::delegate_blobs` gives it.
pub(crate) struct DelegateRow<'a> {
    pub(crate) plan: usize,
    pub(crate) delegate: usize,
    pub(crate) id: &'a str,
    pub(crate) location: DataLocation,
    pub(crate) index: u32,
    pub(crate) bytes: &'a [u8],
}

/// Where a tensor-table entry's data lives, in the table's order.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Kind {
    Constant,
    Mutable,
    External,
    /// A named memory-planned buffer with no initial data.
    Planned,
}

/// One tensor value that the tensor table lists: several sharing a datum
/// (`kind`, `id`) are one entry.
#[derive(Clone, Copy)]
pub(crate) struct Use {
    pub(crate) kind: Kind,
    /// `data_buffer_idx` for constants and mutable buffers; order of first
    /// use for the others.
    pub(crate) id: u32,
    pub(crate) plan: u32,
    pub(crate) value: u32,
}

fn entry(bytes: &[u8], base: u64, s: DataSegment) -> Option<&[u8]> {
    if s.size == 0 {
        // even an empty segment's offset must lie in the file
        segment_bytes(bytes, base, s.offset, 0, "").ok().map(|_| &[][..])
    } else if base == 0 {
        None
    } else {
        segment_bytes(bytes, base, s.offset, s.size, "").ok()
    }
}

fn over<T: Copy>(n: usize) -> impl Fn(T) -> bool
where
    usize: TryFrom<T>,
{
    move |i| usize::try_from(i).is_ok_and(|i| i < n)
}

impl<'a> PteView<'a> {
    /// Verifies and reads `bytes`; fails exactly where `PteFile::from_bytes`
    /// fails, with the same error.
    pub(crate) fn read(bytes: &'a [u8], table: Table) -> Result<Self> {
        let (header, region) = pte_file::verify::program_region(bytes)?;
        let view = ProgramView::new(region, &Limits::default())?;
        let base = header.map_or(0, |h| h.segment_base_offset);
        if !SparsePte::would_read(bytes, &view, &Limits::default()) {
            // the reader names the first problem; it is read only when there is one
            SparsePte::from_bytes(bytes)?;
        }
        let n = view.segment_count();
        let no_segments = match table {
            Table::Whole => n == 0,
            Table::Referenced => !references(&view).any(over(n)),
        };
        Ok(PteView { bytes, view, header, base, no_segments })
    }

    /// The plans in order.
    pub(crate) fn plans(&self) -> impl Iterator<Item = PlanView<'a>> + 'a {
        let view = self.view;
        (0..view.plan_count()).filter_map(move |i| view.plan(i))
    }

    /// The bytes of stored segment `i` (every entry was checked on reading).
    pub(crate) fn segment(&self, i: u32) -> Option<&'a [u8]> {
        self.view.segment(usize::try_from(i).ok()?).and_then(|s| entry(self.bytes, self.base, s))
    }

    /// Every entry of the stored segment table.
    pub(crate) fn segments(&self) -> impl Iterator<Item = DataSegment> + 'a {
        self.view.segments()
    }

    /// Byte sizes that tensors give each constant (or mutable) index below `n`.
    fn tensor_sizes(&self, mutable: bool, n: usize) -> Vec<Option<u64>> {
        let mut out = vec![None; n];
        for plan in self.plans() {
            for v in plan.value_refs() {
                let ValueRef::Tensor(t) = v else { continue };
                let idx = t.data_buffer_idx();
                if idx == 0 || t.allocation_info().is_some() != mutable || t.is_external() {
                    continue;
                }
                let slot = usize::try_from(idx).ok().and_then(|i| out.get_mut(i));
                if let (Some(slot @ None), Some(n)) = (slot, t.nbytes()) {
                    *slot = Some(n);
                }
            }
        }
        out
    }

    fn subsegments(&self, index: u32, offsets: Option<List<'a, u64>>, sizes: Vec<Option<u64>>) -> Option<Subs<'a>> {
        let seg_len = self.segment(index)?.len() as u64;
        let subs = Subs { segment: Some(index), kind: SubKind::Offsets { seg_len, offsets, sizes } };
        (0..subs.len()).all(|i| subs.get(i).is_some()).then_some(subs)
    }

    /// The constants as `PteFile::constants` lists them; `None` where it fails.
    pub(crate) fn constants(&self) -> Option<Subs<'a>> {
        match self.view.constant_offsets() {
            Some((index, Some(offsets))) if !offsets.is_empty() => {
                if offsets.len() == 1 && self.no_segments {
                    return Some(Subs { segment: Some(index), kind: SubKind::Placeholder });
                }
                self.subsegments(index, Some(offsets), self.tensor_sizes(false, offsets.len()))
            }
            _ => {
                let lens = self.view.constant_buffer().map(|b| b.map(|s| s.map_or(0, |s| s.len() as u64)).collect());
                Some(Subs { segment: None, kind: SubKind::Inline(lens.unwrap_or_default()) })
            }
        }
    }

    /// Every mutable segment as `PteFile::mutable_segments` lists them;
    /// `None` where it fails.
    pub(crate) fn mutable_segments(&self) -> Option<Vec<Subs<'a>>> {
        let mut out = vec![];
        for (k, (index, offsets)) in self.view.mutable_offsets().into_iter().flatten().enumerate() {
            let sizes = if k == 0 { self.tensor_sizes(true, offsets.map_or(0, |o| o.len())) } else { vec![] };
            out.push(self.subsegments(index, offsets, sizes)?);
        }
        Some(out)
    }

    /// Whether every named blob's segment exists (`PteFile::named_data` succeeds).
    pub(crate) fn named_ok(&self) -> bool {
        self.view.named_data().all(|(_, i)| self.segment(i).is_some())
    }

    /// The named blobs as `(key, segment index, bytes)`; check [`Self::named_ok`] first.
    pub(crate) fn named(&self) -> impl Iterator<Item = (&'a str, u32, &'a [u8])> + '_ {
        self.view.named_data().map(|(k, i)| (k.unwrap_or(""), i, self.segment(i).unwrap_or(&[])))
    }

    /// The delegates' blobs as `PteFile::delegate_blobs` lists them; `None` where it fails.
    pub(crate) fn delegates(&self) -> Option<Vec<DelegateRow<'a>>> {
        let mut out = vec![];
        for (p, plan) in self.plans().enumerate() {
            for (d, del) in plan.delegates().into_iter().flatten().enumerate() {
                let r = del.processed()?;
                let bytes = match r.location {
                    DataLocation::INLINE => self.view.inline_delegate_data(usize::try_from(r.index).ok()?)?,
                    DataLocation::SEGMENT => Some(self.segment(r.index)?),
                    _ => return None,
                };
                let id = del.id().unwrap_or("");
                let (location, index) = (r.location, r.index);
                out.push(DelegateRow { plan: p, delegate: d, id, location, index, bytes: bytes.unwrap_or(&[]) });
            }
        }
        Some(out)
    }

    /// What uses each stored segment: only referenced segments appear.
    pub(crate) fn segment_kinds(&self) -> BTreeMap<u32, Vec<String>> {
        let n = self.view.segment_count();
        let mut kinds: BTreeMap<u32, Vec<String>> = BTreeMap::new();
        let mut mark = |i: u32, what: String| {
            if over(n)(i) {
                kinds.entry(i).or_default().push(what);
            }
        };
        if let Some((i, _)) = self.view.constant_offsets() {
            mark(i, "constant".into());
        }
        for (k, (i, _)) in self.view.mutable_offsets().into_iter().flatten().enumerate() {
            mark(i, format!("mutable[{k}]"));
        }
        for (key, i) in self.view.named_data() {
            mark(i, format!("named:{}", key.unwrap_or("")));
        }
        for (pi, plan) in self.plans().enumerate() {
            for (d, del) in plan.delegates().into_iter().flatten().enumerate() {
                if let Some(r) = del.processed().filter(|r| r.location == DataLocation::SEGMENT) {
                    mark(r.index, format!("delegate:{}[{pi}.{d}]", del.id().unwrap_or("")));
                }
            }
        }
        kinds
    }

    /// Tensor `value` of plan `plan`.
    pub(crate) fn tensor(&self, plan: u32, value: u32) -> Option<TensorView<'a>> {
        let plan = self.view.plan(usize::try_from(plan).ok()?)?;
        match plan.value_ref(usize::try_from(value).ok()?)? {
            ValueRef::Tensor(t) => Some(t),
            _ => None,
        }
    }

    /// A method's name, or `plan{p}` for an unnamed plan.
    pub(crate) fn method_name(&self, plan: u32) -> String {
        let name = usize::try_from(plan).ok().and_then(|p| self.view.plan(p)).and_then(|p| p.name());
        name.map_or_else(|| format!("plan{plan}"), str::to_string)
    }

    /// Every listed tensor value, grouped by entry in the table's order (the
    /// order of `PteFile::tensors`), each group's uses in program order.
    pub(crate) fn tensor_uses(&self) -> Vec<Use> {
        let mut out = vec![];
        let mut external: HashMap<&'a str, u32> = HashMap::new();
        let mut planned = 0u32;
        for (p, plan) in self.plans().enumerate() {
            for (j, v) in plan.value_refs().enumerate() {
                let ValueRef::Tensor(t) = v else { continue };
                let Some((kind, id)) = classify(&t, &mut external, &mut planned) else { continue };
                let (plan, value) = (u32::try_from(p).unwrap_or(u32::MAX), u32::try_from(j).unwrap_or(u32::MAX));
                out.push(Use { kind, id, plan, value });
            }
        }
        // stable: each group keeps its uses in program order
        out.sort_by_key(|u| (u.kind, u.id));
        out
    }

    /// The names of the EXTERNAL entries of the tensor table, in order of
    /// first use (none when the table cannot be read).
    pub(crate) fn external_names(&self, table_ok: bool) -> Vec<String> {
        let mut seen = HashSet::new();
        let mut out = vec![];
        if !table_ok {
            return out;
        }
        for (p, plan) in self.plans().enumerate() {
            for (j, v) in plan.value_refs().enumerate() {
                let ValueRef::Tensor(t) = v else { continue };
                if t.is_external() && seen.insert(t.fqn().unwrap_or("")) {
                    let method = self.method_name(u32::try_from(p).unwrap_or(u32::MAX));
                    out.push(tensor_label(t.fqn(), Unnamed::Value { method: &method, value: j }));
                }
            }
        }
        out
    }
}

/// The table entry a tensor value belongs to, as `PteFile::tensors` classifies it.
fn classify<'a>(t: &TensorView<'a>, external: &mut HashMap<&'a str, u32>, planned: &mut u32) -> Option<(Kind, u32)> {
    if t.is_external() {
        let next = u32::try_from(external.len()).unwrap_or(u32::MAX);
        return Some((Kind::External, *external.entry(t.fqn().unwrap_or("")).or_insert(next)));
    }
    match (t.allocation_info().is_some(), t.data_buffer_idx()) {
        (false, 0) => None,
        (false, i) => Some((Kind::Constant, i)),
        (true, 0) if t.fqn().is_some() => {
            let id = *planned;
            *planned = planned.saturating_add(1);
            Some((Kind::Planned, id))
        }
        (true, 0) => None,
        (true, i) => Some((Kind::Mutable, i)),
    }
}

/// Every segment index the program refers to.
fn references<'a>(view: &ProgramView<'a>) -> impl Iterator<Item = u32> + 'a {
    let view = *view;
    let constant = view.constant_offsets().map(|(i, _)| i);
    let mutable = view.mutable_offsets().into_iter().flatten().map(|(i, _)| i);
    let named = view.named_data().map(|(_, i)| i);
    let delegates = (0..view.plan_count()).filter_map(move |i| view.plan(i)).flat_map(|plan| {
        plan.delegates()
            .into_iter()
            .flatten()
            .filter_map(|d| d.processed().filter(|r| r.location == DataLocation::SEGMENT).map(|r| r.index))
    });
    constant.into_iter().chain(mutable).chain(named).chain(delegates)
}
