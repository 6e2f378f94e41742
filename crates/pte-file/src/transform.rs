//! Layout transforms applied on the way out: each works on a borrowed copy of
//! the program and a list of output chunks per segment, so segment bytes are
//! never copied, only referenced.

use std::borrow::Cow;
use std::collections::HashMap;

use pte_schema::{
    BackendDelegateDataReference, BackendDelegateInlineData, Buffer, DataLocation, DataSegment, Error, ErrorKind,
    Program, Result, SubsegmentOffsets,
};
use pte_segments::align::padding;
use pte_segments::layout::{pack_subsegments, plan_segments};
use pte_segments::SegmentSpec;

use crate::options::{ConstantPlacement, DelegatePlacement, SegmentLayout, WriteOptions};
use crate::PteFile;

/// A piece of a segment to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Chunk<'s> {
    Data(&'s [u8]),
    Zeros(u64),
}

impl Chunk<'_> {
    pub(crate) fn len(&self) -> u64 {
        match self {
            Chunk::Data(d) => d.len() as u64,
            Chunk::Zeros(n) => *n,
        }
    }
}

/// What the writer emits: the program to encode and each segment's chunks.
pub(crate) struct Prepared<'s> {
    /// Borrowed until a transform changes it, so a plain rewrite never copies the model.
    pub(crate) program: Cow<'s, Program<'s>>,
    pub(crate) segments: Vec<Vec<Chunk<'s>>>,
    /// A transform moved a blob into or out of the segments, so stored
    /// offsets no longer describe them.
    relayout: bool,
}

fn chunks_len(c: &[Chunk<'_>]) -> u64 {
    c.iter().fold(0u64, |a, c| a.saturating_add(c.len()))
}

fn invalid(msg: String) -> Error {
    Error::new(ErrorKind::InvalidUse, msg)
}

fn borrow_bytes<'s>(b: &'s Option<Cow<'_, [u8]>>) -> Option<Cow<'s, [u8]>> {
    b.as_deref().map(Cow::Borrowed)
}

/// A copy of `p` whose byte payloads borrow from `p`.
pub(crate) fn borrowed<'s>(p: &'s Program<'_>) -> Program<'s> {
    Program {
        version: p.version,
        execution_plan: p.execution_plan.clone(),
        constant_buffer: p
            .constant_buffer
            .as_ref()
            .map(|v| v.iter().map(|b| Buffer { storage: borrow_bytes(&b.storage) }).collect()),
        backend_delegate_data: p
            .backend_delegate_data
            .as_ref()
            .map(|v| v.iter().map(|b| BackendDelegateInlineData { data: borrow_bytes(&b.data) }).collect()),
        segments: p.segments.clone(),
        constant_segment: p.constant_segment.clone(),
        mutable_data_segments: p.mutable_data_segments.clone(),
        named_data: p.named_data.clone(),
    }
}

/// Rewrites every reference to a segment index through `map`.
pub(crate) fn remap_segment_refs(p: &mut Program<'_>, map: impl Fn(u32) -> u32) {
    if let Some(c) = &mut p.constant_segment {
        c.segment_index = map(c.segment_index);
    }
    for m in p.mutable_data_segments.iter_mut().flatten() {
        m.segment_index = map(m.segment_index);
    }
    for n in p.named_data.iter_mut().flatten() {
        n.segment_index = map(n.segment_index);
    }
    for plan in p.execution_plan.iter_mut().flatten() {
        for d in plan.delegates.iter_mut().flatten() {
            if let Some(r) = &mut d.processed
                && r.location == DataLocation::SEGMENT
            {
                r.index = map(r.index);
            }
        }
    }
}

fn seg_count(n: usize) -> Result<u32> {
    u32::try_from(n).map_err(|_| invalid(format!("{n} segments exceed the u32 index range")))
}

impl<'s> Prepared<'s> {
    fn program_mut(&mut self) -> &mut Program<'s> {
        if let Cow::Borrowed(p) = self.program {
            self.program = Cow::Owned(borrowed(p));
        }
        self.program.to_mut()
    }

    pub(crate) fn new(file: &'s PteFile<'_>, options: &WriteOptions) -> Result<Self> {
        let table = file.program.segment_table();
        if table.len() != file.segments.len() {
            return Err(invalid(format!(
                "the segment table lists {} segments but {} byte buffers are attached",
                table.len(),
                file.segments.len()
            )));
        }
        let mut prep = Prepared {
            program: Cow::Borrowed(&file.program),
            segments: file.segments.iter().map(|s| vec![Chunk::Data(s.as_ref())]).collect(),
            relayout: false,
        };
        if options.constants() == ConstantPlacement::Segment {
            prep.segment_form_constants(file, options)?;
        }
        if options.repacks_constants() {
            prep.repack_constants(file, options)?;
        }
        match options.delegates() {
            DelegatePlacement::Keep => {}
            DelegatePlacement::Segment => prep.delegates_to_segments()?,
            DelegatePlacement::Inline => prep.delegates_inline(file)?,
        }
        prep.place_segments(options)?;
        Ok(prep)
    }

    /// The stock runtime refuses programs without constant segment offsets,
    /// so unless asked to keep them, legacy inline constants are moved into a
    /// segment (placed first, as exir places it), and a missing constant
    /// segment gets its placeholder.
    fn segment_form_constants(&mut self, file: &'s PteFile<'_>, options: &WriteOptions) -> Result<()> {
        let has_offsets =
            self.program.constant_segment.as_ref().is_some_and(|c| c.offsets.as_ref().is_some_and(|o| !o.is_empty()));
        if has_offsets {
            return Ok(());
        }
        let mut datas: Vec<&'s [u8]> =
            file.program.constant_buffer.iter().flatten().map(|b| b.storage.as_deref().unwrap_or(&[])).collect();
        if datas.is_empty() {
            datas.push(&[]);
        }
        let lens: Vec<u64> = datas.iter().map(|d| d.len() as u64).collect();
        let (offsets, _) = pack_subsegments(&lens, u64::from(options.tensor_alignment()))?;
        let mut chunks = Vec::with_capacity(datas.len().saturating_mul(2));
        let last = datas.len().saturating_sub(1);
        for (i, d) in datas.iter().enumerate() {
            chunks.push(Chunk::Data(d));
            let pad = padding(d.len() as u64, u64::from(options.tensor_alignment()));
            if i != last && pad > 0 {
                chunks.push(Chunk::Zeros(pad));
            }
        }
        seg_count(self.segments.len().saturating_add(1))?;
        remap_segment_refs(self.program_mut(), |i| i.saturating_add(1));
        self.segments.insert(0, chunks);
        let mut table = self.program_mut().segments.take().unwrap_or_default();
        table.insert(0, DataSegment::default());
        self.program_mut().segments = Some(table);
        self.program_mut().constant_segment = Some(SubsegmentOffsets { segment_index: 0, offsets: Some(offsets) });
        self.program_mut().constant_buffer = Some(vec![]);
        Ok(())
    }

    /// Repacks the constant segment: each tensor at a multiple of the tensor
    /// alignment, padding between tensors but not after the last.
    fn repack_constants(&mut self, file: &'s PteFile<'_>, options: &WriteOptions) -> Result<()> {
        let Some(cs) = &self.program.constant_segment else { return Ok(()) };
        let idx = usize::try_from(cs.segment_index).unwrap_or(usize::MAX);
        let Some(Chunk::Data(seg)) = self.segments.get(idx).and_then(|c| c.first()).copied() else {
            return Ok(());
        };
        if self.segments.get(idx).map(Vec::len) != Some(1) {
            return Ok(());
        }
        let offsets = cs.offsets.clone().unwrap_or_default();
        let sizes = file.tensor_sizes(false);
        let seg_len = seg.len() as u64;
        let mut datas = Vec::with_capacity(offsets.len());
        for (i, &off) in offsets.iter().enumerate() {
            let next = offsets.get(i.saturating_add(1)).copied().filter(|&n| n >= off).unwrap_or(seg_len);
            let span = next.saturating_sub(off);
            let len = u32::try_from(i).ok().and_then(|k| sizes.get(&k)).copied().filter(|&n| n <= span).unwrap_or(span);
            let d = pte_segments::ranges::sub_range(seg, off, len, &format!("constant_segment.offsets[{i}]"))?;
            datas.push(d);
        }
        let lens: Vec<u64> = datas.iter().map(|d| d.len() as u64).collect();
        let align = u64::from(options.tensor_alignment());
        let (new_offsets, _) = pack_subsegments(&lens, align)?;
        let last = datas.len().saturating_sub(1);
        let mut chunks = Vec::with_capacity(datas.len().saturating_mul(2));
        for (i, d) in datas.into_iter().enumerate() {
            chunks.push(Chunk::Data(d));
            let pad = padding(d.len() as u64, align);
            if i != last && pad > 0 {
                chunks.push(Chunk::Zeros(pad));
            }
        }
        if let Some(slot) = self.segments.get_mut(idx) {
            *slot = chunks;
        }
        if let Some(cs) = &mut self.program_mut().constant_segment {
            cs.offsets = Some(new_offsets);
        }
        Ok(())
    }

    /// Moves every non-empty inline delegate blob into a segment (identical
    /// blobs share one), placed after the other segments but before named
    /// data, as exir orders them. Empty blobs stay inline, re-indexed.
    fn delegates_to_segments(&mut self) -> Result<()> {
        let inline: Vec<Option<Cow<'s, [u8]>>> =
            self.program_mut().backend_delegate_data.take().unwrap_or_default().into_iter().map(|b| b.data).collect();
        let named: Vec<u32> = self.program.named_data.iter().flatten().map(|n| n.segment_index).collect();
        let first_named =
            named.iter().copied().min().map_or(self.segments.len(), |m| usize::try_from(m).unwrap_or(usize::MAX));
        let insert_at = if named.iter().all(|&i| usize::try_from(i).is_ok_and(|i| i >= first_named)) {
            first_named.min(self.segments.len())
        } else {
            self.segments.len()
        };
        // Walk delegates in order (as exir does) and give each referenced,
        // non-empty inline blob a new segment; identical bytes share one.
        let mut new_segments: Vec<&'s [u8]> = vec![];
        let mut by_content: HashMap<&'s [u8], u32> = HashMap::new();
        let mut segment_of_blob: HashMap<u32, u32> = HashMap::new();
        for (p, plan) in self.program.execution_plan.iter().flatten().enumerate() {
            for (d, del) in plan.delegates.iter().flatten().enumerate() {
                let Some(r) = del.processed.filter(|r| r.location == DataLocation::INLINE) else { continue };
                let Some(Some(data)) = usize::try_from(r.index).ok().and_then(|i| inline.get(i)) else {
                    return Err(invalid(format!(
                        "execution_plan[{p}].delegates[{d}] refers to inline blob {} of {}",
                        r.index,
                        inline.len()
                    )));
                };
                // the program was re-borrowed from the file, so its bytes are borrowed
                let Cow::Borrowed(bytes) = data else {
                    return Err(invalid("inline delegate data must borrow from the file".into()));
                };
                if bytes.is_empty() || segment_of_blob.contains_key(&r.index) {
                    continue;
                }
                let next = seg_count(new_segments.len())?;
                let k = *by_content.entry(bytes).or_insert_with(|| {
                    new_segments.push(bytes);
                    next
                });
                segment_of_blob.insert(r.index, k);
            }
        }
        // Blobs that stay inline (empty or unreferenced) keep their order.
        let mut kept_inline: Vec<BackendDelegateInlineData<'s>> = vec![];
        let mut inline_map: HashMap<u32, u32> = HashMap::new();
        for (i, b) in inline.iter().enumerate() {
            let blob_index = seg_count(i)?;
            if !segment_of_blob.contains_key(&blob_index) {
                inline_map.insert(blob_index, seg_count(kept_inline.len())?);
                kept_inline.push(BackendDelegateInlineData { data: b.clone() });
            }
        }
        let n_new = seg_count(new_segments.len())?;
        let at = seg_count(insert_at)?;
        seg_count(self.segments.len().saturating_add(new_segments.len()))?;
        remap_segment_refs(self.program_mut(), |i| if i >= at { i.saturating_add(n_new) } else { i });
        for plan in self.program_mut().execution_plan.iter_mut().flatten() {
            for del in plan.delegates.iter_mut().flatten() {
                let Some(r) = del.processed.as_mut().filter(|r| r.location == DataLocation::INLINE) else { continue };
                if let Some(&k) = segment_of_blob.get(&r.index) {
                    *r = BackendDelegateDataReference { location: DataLocation::SEGMENT, index: at.saturating_add(k) };
                } else if let Some(&ni) = inline_map.get(&r.index) {
                    r.index = ni;
                }
            }
        }
        self.relayout |= !new_segments.is_empty();
        let mut table = self.program_mut().segments.take().unwrap_or_default();
        for (j, bytes) in new_segments.iter().enumerate() {
            let pos = insert_at.saturating_add(j);
            table.insert(pos, DataSegment { offset: 0, size: bytes.len() as u64 });
            self.segments.insert(pos, vec![Chunk::Data(bytes)]);
        }
        self.program_mut().segments = Some(table);
        self.program_mut().backend_delegate_data = Some(kept_inline);
        Ok(())
    }

    /// Moves every segment-stored delegate blob inline (a segment shared by
    /// several delegates becomes one shared inline blob) and drops segments no
    /// longer referenced by anything.
    fn delegates_inline(&mut self, file: &'s PteFile<'_>) -> Result<()> {
        let mut inline = self.program_mut().backend_delegate_data.take().unwrap_or_default();
        let mut seg_to_inline: HashMap<u32, u32> = HashMap::new();
        let mut moved_segments = vec![];
        for plan in self.program_mut().execution_plan.iter_mut().flatten() {
            for del in plan.delegates.iter_mut().flatten() {
                let Some(r) = &mut del.processed else { continue };
                if r.location != DataLocation::SEGMENT {
                    continue;
                }
                let bytes: &'s [u8] = file.segment(r.index)?;
                let next = seg_count(inline.len())?;
                let k = *seg_to_inline.entry(r.index).or_insert_with(|| {
                    inline.push(BackendDelegateInlineData { data: Some(Cow::Borrowed(bytes)) });
                    moved_segments.push(r.index);
                    next
                });
                *r = BackendDelegateDataReference { location: DataLocation::INLINE, index: k };
            }
        }
        self.program_mut().backend_delegate_data = Some(inline);
        self.relayout |= !moved_segments.is_empty();
        let still_used = |p: &Program<'_>, s: u32| {
            p.constant_segment.as_ref().is_some_and(|c| c.segment_index == s)
                || p.mutable_data_segments.iter().flatten().any(|m| m.segment_index == s)
                || p.named_data.iter().flatten().any(|n| n.segment_index == s)
        };
        let mut drop: Vec<u32> = moved_segments.into_iter().filter(|&s| !still_used(&self.program, s)).collect();
        drop.sort_unstable();
        for &s in drop.iter().rev() {
            let i = usize::try_from(s).unwrap_or(usize::MAX);
            if i < self.segments.len() {
                self.segments.remove(i);
                if let Some(t) = &mut self.program_mut().segments {
                    t.remove(i);
                }
            }
        }
        remap_segment_refs(self.program_mut(), |i| {
            let below = drop.iter().filter(|&&d| d < i).count();
            i.saturating_sub(u32::try_from(below).unwrap_or(u32::MAX))
        });
        Ok(())
    }

    /// Sets every segment's size from its chunks and its offset from the
    /// stored table (`Keep`) or anew (`Repack`).
    fn place_segments(&mut self, options: &WriteOptions) -> Result<()> {
        let sizes: Vec<u64> = self.segments.iter().map(|c| chunks_len(c)).collect();
        let Some(table) = self.program.segments.as_ref() else { return Ok(()) };
        let keep = options.layout() == SegmentLayout::Keep
            && !self.relayout
            && table.iter().zip(&sizes).all(|(t, &s)| t.size == s);
        if keep {
            return check_keepable(table, &self.segments);
        }
        let specs: Vec<SegmentSpec> = sizes.iter().map(|&s| SegmentSpec::new(s, 1)).collect();
        let plan = plan_segments(&specs, options.segment_alignment())?;
        let Some(table) = self.program_mut().segments.as_mut() else { return Ok(()) };
        for ((t, &size), &offset) in table.iter_mut().zip(&sizes).zip(&plan.offsets) {
            *t = DataSegment { offset, size };
        }
        Ok(())
    }
}

/// Stored offsets can be kept when the non-empty segments do not overlap;
/// two entries may name the very same range when they hold the same bytes
/// (a writer sharing one blob between several references).
fn check_keepable(table: &[DataSegment], segments: &[Vec<Chunk<'_>>]) -> Result<()> {
    let mut ranges: Vec<(u64, u64, usize)> = table
        .iter()
        .enumerate()
        .filter(|(_, s)| s.size > 0)
        .map(|(i, s)| (s.offset, s.offset.saturating_add(s.size), i))
        .collect();
    ranges.sort_unstable();
    for w in ranges.windows(2) {
        if let [(s0, end, a), (start, e1, b)] = w {
            let same_range = s0 == start && end == e1;
            if same_range && segments.get(*a) == segments.get(*b) {
                continue;
            }
            if start < end {
                return Err(invalid(format!(
                    "segments[{a}] and segments[{b}] overlap, so their stored offsets cannot be kept; write with SegmentLayout::Repack"
                )));
            }
        }
    }
    Ok(())
}
