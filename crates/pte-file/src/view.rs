//! A verified `.pte` read in place: [`PteView`].
//!
//! [`PteFile`](crate::PteFile) decodes the whole program into an owned model,
//! which on a program of a million values takes hundreds of megabytes. A
//! [`PteView`] verifies the same bytes, fails where `PteFile::from_bytes`
//! fails, and then answers from the flatbuffer itself through
//! [`pte_schema::ProgramView`]: the constants, the mutable sub-buffers, the
//! named data, the delegates' blobs and the tensor table keep the meaning the
//! `PteFile` accessors give them, and nothing grows with the program but the
//! few tables an accessor documents (16 bytes a tensor value for
//! [`PteView::tensor_uses`], 16 bytes a constant for [`PteView::constants`]).
//!
//! Every accessor is bounded by the bytes present and never panics; one that
//! the decoded model would refuse answers `None`.
//!
//! ```
//! use pte_file::view::{PteView, SegmentTable};
//! let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
//! let view = PteView::read(&bytes, SegmentTable::Whole)?;
//! let constants = view.constants().expect("the constants fit their segment");
//! assert_eq!(constants.len(), 3); // placeholder, weight, bias
//! let decoded = pte_file::PteFile::from_bytes(&bytes)?;
//! assert_eq!(constants.get(1).map(|c| c.len), decoded.constants()?.get(1).map(|c| c.bytes.len() as u64));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::{BTreeMap, HashMap, HashSet};

use pte_schema::{DataLocation, DataSegment, Limits, List, PlanView, ProgramView, TensorView, ValueRef};
use pte_segments::ranges::segment_bytes;
use pte_segments::ExtendedHeader;

use crate::{tensor_label, Result, SparsePte, Unnamed};

/// Which segment list a [`PteView`] follows where the two readers differ.
///
/// The sparse reader (behind [`rewrite`](crate::rewrite) and `pte info`) reads only the segments the program refers to,
/// [`PteFile`](crate::PteFile) the whole stored table. They disagree on one
/// thing only: whether a program has "no segment" (and so a constant table
/// that is its lone placeholder) when no entry is referenced, or only when
/// the table is empty.
///
/// ```
/// use pte_file::view::{PteView, SegmentTable};
/// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
/// for table in [SegmentTable::Referenced, SegmentTable::Whole] {
///     assert!(PteView::read(&bytes, table)?.constants().is_some());
/// }
/// # Ok::<(), pte_file::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SegmentTable {
    /// The segments the program refers to, as the sparse reader reads them
    /// (what `pte info FILE` shows).
    #[default]
    Referenced,
    /// The whole stored table, as [`PteFile`](crate::PteFile) reads it.
    Whole,
}

/// A verified `.pte`, read on demand without decoding its program.
///
/// ```
/// use pte_file::view::{PteView, SegmentTable};
/// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
/// let view = PteView::read(&bytes, SegmentTable::Referenced)?;
/// assert_eq!(view.program().plan_count(), 1);
/// assert_eq!(view.method_name(0), "forward");
/// assert!(view.header().is_some());
/// # Ok::<(), pte_file::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct PteView<'a> {
    bytes: &'a [u8],
    view: ProgramView<'a>,
    header: Option<ExtendedHeader>,
    base: u64,
    /// Whether the reader's segment list is empty, by [`SegmentTable`]'s rule.
    no_segments: bool,
}

impl std::fmt::Debug for PteView<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PteView")
            .field("len", &self.bytes.len())
            .field("header", &self.header)
            .field("plans", &self.view.plan_count())
            .field("segments", &self.view.segment_count())
            .finish()
    }
}

/// What a walk over a program's values already learned that
/// [`PteView::constants_and_external_names_known`] would otherwise pass over
/// the values for.
///
/// ```
/// let known = pte_file::view::KnownValues { constant_sizes: vec![None, Some(64)], external: false };
/// assert_eq!(known.constant_sizes.len(), 2);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KnownValues {
    /// For each constant the segment's offsets list (the placeholder at 0
    /// included), the bytes of the first tensor reading it, in plan then
    /// value order, not EXTERNAL and not planned; `None` where none does.
    pub constant_sizes: Vec<Option<u64>>,
    /// Whether some tensor is EXTERNAL: their names need a pass of their own.
    pub external: bool,
}

/// One constant or mutable sub-buffer, as `PteFile::constants` gives it.
///
/// ```
/// use pte_file::view::{PteView, SegmentTable};
/// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
/// let c = PteView::read(&bytes, SegmentTable::Whole)?.constants().and_then(|c| c.get(1)).unwrap();
/// assert_eq!(c.index, 1);
/// assert!(c.len <= c.span);
/// # Ok::<(), pte_file::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubBuffer {
    /// Its index (`data_buffer_idx` for the tensors that use it).
    pub index: usize,
    /// Its offset in its segment (0 when inline).
    pub offset: u64,
    /// Its bytes: the size its tensor gives it, else up to the next offset.
    pub len: u64,
    /// From its offset to the next one (or the segment's end), padding included.
    pub span: u64,
}

enum Pieces<'a> {
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

/// The sub-buffers of one segment (or of the legacy inline buffers), every
/// one of which was checked to lie in its segment.
///
/// ```
/// use pte_file::view::{PteView, SegmentTable};
/// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
/// let view = PteView::read(&bytes, SegmentTable::Whole)?;
/// let constants = view.constants().unwrap();
/// assert_eq!(constants.segment(), Some(0));
/// assert_eq!(constants.iter().count(), constants.len());
/// assert!(constants.get(constants.len()).is_none());
/// # Ok::<(), pte_file::Error>(())
/// ```
pub struct SubBuffers<'a> {
    segment: Option<u32>,
    pieces: Pieces<'a>,
}

impl std::fmt::Debug for SubBuffers<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SubBuffers").field("segment", &self.segment).field("len", &self.len()).finish()
    }
}

impl SubBuffers<'_> {
    /// The segment they lie in (its index in the stored table); `None` when inline.
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// # let view = pte_file::view::PteView::read(&bytes, Default::default())?;
    /// assert_eq!(view.constants().unwrap().segment(), Some(0));
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn segment(&self) -> Option<u32> {
        self.segment
    }

    /// How many there are (the placeholder at index 0 included).
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// # let view = pte_file::view::PteView::read(&bytes, Default::default())?;
    /// assert_eq!(view.constants().unwrap().len(), 3);
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn len(&self) -> usize {
        match &self.pieces {
            Pieces::Placeholder => 1,
            Pieces::Offsets { offsets, .. } => offsets.map_or(0, |o| o.len()),
            Pieces::Inline(lens) => lens.len(),
        }
    }

    /// Whether there are none.
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// # let view = pte_file::view::PteView::read(&bytes, Default::default())?;
    /// assert!(!view.constants().unwrap().is_empty());
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Sub-buffer `i`; `None` past the end.
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// # let view = pte_file::view::PteView::read(&bytes, Default::default())?;
    /// let placeholder = view.constants().unwrap().get(0).unwrap();
    /// assert_eq!((placeholder.offset, placeholder.len), (0, 0));
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn get(&self, i: usize) -> Option<SubBuffer> {
        match &self.pieces {
            Pieces::Placeholder => (i == 0).then_some(SubBuffer { index: 0, offset: 0, len: 0, span: 0 }),
            Pieces::Inline(lens) => lens.get(i).map(|&n| SubBuffer { index: i, offset: 0, len: n, span: n }),
            Pieces::Offsets { seg_len, offsets, sizes } => {
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
                Some(SubBuffer { index: i, offset: off, len, span })
            }
        }
    }

    /// Every sub-buffer in index order.
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// # let view = pte_file::view::PteView::read(&bytes, Default::default())?;
    /// let indices: Vec<usize> = view.constants().unwrap().iter().map(|c| c.index).collect();
    /// assert_eq!(indices, [0, 1, 2]);
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = SubBuffer> + '_ {
        (0..self.len()).filter_map(|i| self.get(i))
    }
}

/// A delegate's processed blob, as `PteFile::delegate_blobs` gives it.
///
/// ```
/// use pte_file::view::{PteView, SegmentTable};
/// let bytes = std::fs::read(pte_testkit::corpus("xnnpack_mlp/model.pte"))?;
/// let blobs = PteView::read(&bytes, SegmentTable::Whole)?.delegates().unwrap();
/// assert_eq!(blobs[0].id, "XnnpackBackend");
/// assert!(!blobs[0].bytes.is_empty());
/// # Ok::<(), pte_file::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DelegateData<'a> {
    /// The method (plan index) it belongs to.
    pub plan: usize,
    /// Its index among the method's delegates.
    pub delegate: usize,
    /// The backend id ("" when unset).
    pub id: &'a str,
    /// INLINE (in the flatbuffer) or SEGMENT.
    pub location: DataLocation,
    /// Its index in the inline data or in the segment table.
    pub index: u32,
    /// The blob.
    pub bytes: &'a [u8],
}

/// Where a tensor-table entry's data lives, in the order the table lists them.
///
/// ```
/// use pte_file::view::EntryKind;
/// assert!(EntryKind::Constant < EntryKind::Mutable && EntryKind::External < EntryKind::Planned);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EntryKind {
    /// A constant (`data_buffer_idx` > 0, no allocation info).
    Constant,
    /// A mutable buffer with initial data (`data_buffer_idx` > 0, allocation info).
    Mutable,
    /// EXTERNAL data, looked up by the tensor's name.
    External,
    /// A named memory-planned buffer with no initial data.
    Planned,
}

/// One tensor value the tensor table lists: values sharing a datum
/// (same `kind` and `id`) are one entry.
///
/// ```
/// use pte_file::view::{EntryKind, PteView, SegmentTable};
/// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
/// let uses = PteView::read(&bytes, SegmentTable::Whole)?.tensor_uses();
/// assert!(uses.iter().all(|u| u.kind == EntryKind::Constant));
/// assert_eq!(uses.len(), pte_file::PteFile::from_bytes(&bytes)?.tensors()?.len());
/// # Ok::<(), pte_file::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TensorUse {
    /// Where its data lives.
    pub kind: EntryKind,
    /// `data_buffer_idx` for constants and mutable buffers; the order of
    /// first use for the others.
    pub id: u32,
    /// The plan (method) index of the value.
    pub plan: u32,
    /// The value's index in its plan.
    pub value: u32,
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

fn below<T: Copy>(n: usize) -> impl Fn(T) -> bool
where
    usize: TryFrom<T>,
{
    move |i| usize::try_from(i).is_ok_and(|i| i < n)
}

fn index_u32(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

impl<'a> PteView<'a> {
    /// Verifies `bytes` as a program; fails exactly where
    /// `PteFile::from_bytes` fails, with the same error.
    ///
    /// ```
    /// use pte_file::view::{PteView, SegmentTable};
    /// assert!(PteView::read(b"not a program", SegmentTable::Whole).is_err());
    /// ```
    pub fn read(bytes: &'a [u8], table: SegmentTable) -> Result<Self> {
        let (_, region) = crate::read::program_region(bytes)?;
        Self::read_verified(bytes, ProgramView::new(region, &Limits::default())?, table)
    }

    /// [`PteView::read`] of a program whose flatbuffer the caller already
    /// verified within the default limits (the verifier's view, as
    /// `pte_verify::Verified::view` gives it), so it is not verified again.
    ///
    /// ```
    /// use pte_file::view::{PteView, SegmentTable};
    /// use pte_schema::{Limits, ProgramView};
    /// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let (_, region) = pte_file::program_region(&bytes)?;
    /// let verified = ProgramView::new(region, &Limits::default())?;
    /// let view = PteView::read_verified(&bytes, verified, SegmentTable::Whole)?;
    /// assert_eq!(view.program().plan_count(), PteView::read(&bytes, SegmentTable::Whole)?.program().plan_count());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn read_verified(bytes: &'a [u8], view: ProgramView<'a>, table: SegmentTable) -> Result<Self> {
        let (header, _) = crate::read::program_region(bytes)?;
        let base = header.map_or(0, |h| h.segment_base_offset);
        if !SparsePte::would_read(bytes, &view, &Limits::default()) {
            // the reader names the first problem; it is read only when there is one
            SparsePte::from_bytes(bytes)?;
        }
        let n = view.segment_count();
        let no_segments = match table {
            SegmentTable::Whole => n == 0,
            SegmentTable::Referenced => !references(&view).any(below(n)),
        };
        Ok(PteView { bytes, view, header, base, no_segments })
    }

    /// The whole file's bytes.
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
    /// let view = pte_file::view::PteView::read(&bytes, Default::default())?;
    /// assert_eq!(view.bytes().len(), bytes.len());
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// What the decoding reader ([`PteFile`](crate::PteFile)'s accessors)
    /// says of the constant, mutable, named and delegate blobs: the first
    /// one lying outside its segment, `None` when they all resolve. It reads
    /// the program again, so ask only of a file already found wanting.
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
    /// let view = pte_file::view::PteView::read(&bytes, Default::default())?;
    /// assert!(view.blob_error().is_none());
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn blob_error(&self) -> Option<pte_schema::Error> {
        SparsePte::from_bytes(self.bytes)
            .and_then(|s| {
                s.file.constants()?;
                s.file.mutable_segments()?;
                s.file.named_data()?;
                s.file.delegate_blobs()?;
                Ok(())
            })
            .err()
    }

    /// The verified program, for what the accessors here do not cover.
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
    /// let view = pte_file::view::PteView::read(&bytes, Default::default())?;
    /// assert_eq!(view.program().plan(0).and_then(|p| p.name()), Some("forward"));
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn program(&self) -> ProgramView<'a> {
        self.view
    }

    /// The extended header, when the file has one.
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let view = pte_file::view::PteView::read(&bytes, Default::default())?;
    /// assert_eq!(view.header().map(|h| h.segment_base_offset), Some(view.segment_base()));
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn header(&self) -> Option<ExtendedHeader> {
        self.header
    }

    /// The extended header's segment base offset (0 without a header).
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let view = pte_file::view::PteView::read(&bytes, Default::default())?;
    /// assert!(view.segment_base() > 0);
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn segment_base(&self) -> u64 {
        self.base
    }

    /// The plans in order.
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
    /// let view = pte_file::view::PteView::read(&bytes, Default::default())?;
    /// assert_eq!(view.plans().count(), 1);
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn plans(&self) -> impl Iterator<Item = PlanView<'a>> + 'a + use<'a> {
        let view = self.view;
        (0..view.plan_count()).filter_map(move |i| view.plan(i))
    }

    /// The bytes of stored segment `i`; `None` past the table or outside the file.
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let view = pte_file::view::PteView::read(&bytes, Default::default())?;
    /// let decoded = pte_file::PteFile::from_bytes(&bytes)?;
    /// assert_eq!(view.segment(0), Some(&decoded.segments[0][..]));
    /// assert_eq!(view.segment(1), None);
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn segment(&self, i: u32) -> Option<&'a [u8]> {
        self.view.segment(usize::try_from(i).ok()?).and_then(|s| entry(self.bytes, self.base, s))
    }

    /// Every entry of the stored segment table (offsets from the segment base).
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let view = pte_file::view::PteView::read(&bytes, Default::default())?;
    /// assert_eq!(view.segments().count(), 1);
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn segments(&self) -> impl Iterator<Item = DataSegment> + 'a + use<'a> {
        self.view.segments()
    }

    /// Byte sizes that tensors give each constant (or mutable) index below `n`.
    fn tensor_sizes(&self, mutable: bool, n: usize) -> Vec<Option<u64>> {
        self.scan_values(mutable, n, None)
    }

    /// One pass over every plan's values: the byte sizes tensors give each
    /// constant (or mutable) index below `n`, and the EXTERNAL tensors'
    /// names into `names` when asked for.
    fn scan_values(&self, mutable: bool, n: usize, mut names: Option<&mut ExternalNames<'a>>) -> Vec<Option<u64>> {
        let mut out = vec![None; n];
        for (p, plan) in self.plans().enumerate() {
            for (j, v) in plan.value_refs().enumerate() {
                let ValueRef::Tensor(t) = v else { continue };
                if t.is_external() {
                    if let Some(names) = names.as_deref_mut() {
                        names.note(self, p, j, &t);
                    }
                    continue;
                }
                let idx = t.data_buffer_idx();
                if idx == 0 || t.allocation_info().is_some() != mutable {
                    continue;
                }
                if let Some(slot @ None) = usize::try_from(idx).ok().and_then(|i| out.get_mut(i)) {
                    *slot = t.nbytes();
                }
            }
        }
        out
    }

    fn subsegments(
        &self,
        index: u32,
        offsets: Option<List<'a, u64>>,
        sizes: Vec<Option<u64>>,
    ) -> Option<SubBuffers<'a>> {
        let seg_len = self.segment(index)?.len() as u64;
        let subs = SubBuffers { segment: Some(index), pieces: Pieces::Offsets { seg_len, offsets, sizes } };
        (0..subs.len()).all(|i| subs.get(i).is_some()).then_some(subs)
    }

    /// The constants as `PteFile::constants` lists them (the placeholder at
    /// index 0 included); `None` where it fails. Holds 16 bytes a constant.
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let view = pte_file::view::PteView::read(&bytes, Default::default())?;
    /// let total: u64 = view.constants().unwrap().iter().map(|c| c.len).sum();
    /// assert!(total > 0);
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn constants(&self) -> Option<SubBuffers<'a>> {
        self.constants_scanning(None, None)
    }

    /// [`constants`](Self::constants) and
    /// [`external_names`](Self::external_names) from one pass over the
    /// values, for a caller that needs both (a summary).
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("external/model.pte"))?;
    /// let view = pte_file::view::PteView::read(&bytes, Default::default())?;
    /// let (constants, names) = view.constants_and_external_names();
    /// assert_eq!(constants.map(|c| c.len()), view.constants().map(|c| c.len()));
    /// assert_eq!(names, view.external_names());
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn constants_and_external_names(&self) -> (Option<SubBuffers<'a>>, Vec<String>) {
        self.constants_and_external_names_known(None)
    }

    /// [`constants_and_external_names`](Self::constants_and_external_names)
    /// from what a walk over the values already learned (the verifier's,
    /// `pte_verify::Verified::known_values`): the values are passed over
    /// again only for what `known` leaves open (EXTERNAL names when some
    /// tensor is EXTERNAL, the constants' sizes when they were not known for
    /// every offset). The answer is the same as without it.
    ///
    /// ```
    /// use pte_file::view::{KnownValues, PteView};
    /// # let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let view = PteView::read(&bytes, Default::default())?;
    /// let (constants, _) = view.constants_and_external_names();
    /// let sizes = constants.as_ref().map(|c| c.iter().map(|c| Some(c.len)).collect()).unwrap();
    /// let known = KnownValues { constant_sizes: sizes, external: false };
    /// let (again, names) = view.constants_and_external_names_known(Some(known));
    /// assert_eq!(again.map(|c| c.iter().collect::<Vec<_>>()), constants.map(|c| c.iter().collect()));
    /// assert!(names.is_empty());
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn constants_and_external_names_known(
        &self,
        known: Option<KnownValues>,
    ) -> (Option<SubBuffers<'a>>, Vec<String>) {
        let mut names = ExternalNames::default();
        let (sizes, external) = match known {
            Some(k) => (Some(k.constant_sizes), k.external),
            None => (None, true),
        };
        let constants = self.constants_scanning(external.then_some(&mut names), sizes);
        (constants, names.out)
    }

    /// [`constants`](Self::constants), collecting the EXTERNAL names into
    /// `names` when given: on the pass the constants' sizes need, else on
    /// a pass of their own.
    fn constants_scanning(
        &self,
        mut names: Option<&mut ExternalNames<'a>>,
        known_sizes: Option<Vec<Option<u64>>>,
    ) -> Option<SubBuffers<'a>> {
        let constants = match self.view.constant_offsets() {
            Some((index, Some(offsets))) if !offsets.is_empty() => {
                if offsets.len() == 1 && self.no_segments {
                    Some(SubBuffers { segment: Some(index), pieces: Pieces::Placeholder })
                } else {
                    let sizes = match known_sizes {
                        Some(sizes) if sizes.len() == offsets.len() => sizes,
                        // taken: the names are collected on this pass
                        _ => self.scan_values(false, offsets.len(), names.take()),
                    };
                    self.subsegments(index, Some(offsets), sizes)
                }
            }
            _ => {
                let lens = self.view.constant_buffer().map(|b| b.map(|s| s.map_or(0, |s| s.len() as u64)).collect());
                Some(SubBuffers { segment: None, pieces: Pieces::Inline(lens.unwrap_or_default()) })
            }
        };
        if let Some(names) = names {
            self.scan_values(false, 0, Some(names));
        }
        constants
    }

    /// The bytes of sub-buffer `i` of `subs` (this view's constants or one
    /// of its mutable segments), as `PteFile::constants` gives them; `None`
    /// past the end.
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let view = pte_file::view::PteView::read(&bytes, Default::default())?;
    /// let constants = view.constants().unwrap();
    /// let decoded = pte_file::PteFile::from_bytes(&bytes)?;
    /// assert_eq!(view.sub_buffer_bytes(&constants, 1), Some(decoded.constants()?[1].bytes));
    /// assert_eq!(view.sub_buffer_bytes(&constants, 3), None);
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn sub_buffer_bytes(&self, subs: &SubBuffers<'a>, i: usize) -> Option<&'a [u8]> {
        let c = subs.get(i)?;
        match (&subs.pieces, subs.segment) {
            (Pieces::Placeholder, _) => Some(&[]),
            (Pieces::Inline(_), _) => self.view.constant_buffer_entry(i).map(|b| b.unwrap_or(&[])),
            (Pieces::Offsets { .. }, Some(segment)) => {
                let start = usize::try_from(c.offset).ok()?;
                let end = start.checked_add(usize::try_from(c.len).ok()?)?;
                self.segment(segment)?.get(start..end)
            }
            (Pieces::Offsets { .. }, None) => None,
        }
    }

    /// Every mutable segment's sub-buffers as `PteFile::mutable_segments`
    /// lists them; `None` where it fails.
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let view = pte_file::view::PteView::read(&bytes, Default::default())?;
    /// assert!(view.mutable_segments().unwrap().is_empty());
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn mutable_segments(&self) -> Option<Vec<SubBuffers<'a>>> {
        let mut out = vec![];
        for (k, (index, offsets)) in self.view.mutable_offsets().into_iter().flatten().enumerate() {
            let sizes = if k == 0 { self.tensor_sizes(true, offsets.map_or(0, |o| o.len())) } else { vec![] };
            out.push(self.subsegments(index, offsets, sizes)?);
        }
        Some(out)
    }

    /// The named blobs as `(key, segment index, bytes)`, as
    /// `PteFile::named_data` lists them; `None` where it fails (a blob's
    /// segment is missing).
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let view = pte_file::view::PteView::read(&bytes, Default::default())?;
    /// assert_eq!(view.named_data().map(|n| n.count()), Some(0));
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn named_data(&self) -> Option<impl Iterator<Item = (&'a str, u32, &'a [u8])> + '_> {
        let ok = self.view.named_data().all(|(_, i)| self.segment(i).is_some());
        ok.then(|| self.view.named_data().map(|(k, i)| (k.unwrap_or(""), i, self.segment(i).unwrap_or(&[]))))
    }

    /// The delegates' blobs as `PteFile::delegate_blobs` lists them; `None` where it fails.
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let view = pte_file::view::PteView::read(&bytes, Default::default())?;
    /// assert_eq!(view.delegates().map(|d| d.len()), Some(0));
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn delegates(&self) -> Option<Vec<DelegateData<'a>>> {
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
                out.push(DelegateData { plan: p, delegate: d, id, location, index, bytes: bytes.unwrap_or(&[]) });
            }
        }
        Some(out)
    }

    /// What uses each stored segment (`constant`, `mutable[k]`,
    /// `named:KEY`, `delegate:ID[plan.delegate]`), by its index in the
    /// table: only referenced segments appear.
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let view = pte_file::view::PteView::read(&bytes, Default::default())?;
    /// assert_eq!(view.segment_users().get(&0), Some(&vec!["constant".to_string()]));
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn segment_users(&self) -> BTreeMap<u32, Vec<String>> {
        let in_table = below(self.view.segment_count());
        let mut users: BTreeMap<u32, Vec<String>> = BTreeMap::new();
        let mut mark = |i: u32, what: String| {
            if in_table(i) {
                users.entry(i).or_default().push(what);
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
        users
    }

    /// Tensor `value` of plan `plan`; `None` when it is no tensor.
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let view = pte_file::view::PteView::read(&bytes, Default::default())?;
    /// let first = view.tensor_uses()[0];
    /// assert!(view.tensor(first.plan, first.value).is_some());
    /// assert!(view.tensor(99, 0).is_none());
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn tensor(&self, plan: u32, value: u32) -> Option<TensorView<'a>> {
        let plan = self.view.plan(usize::try_from(plan).ok()?)?;
        match plan.value_ref(usize::try_from(value).ok()?)? {
            ValueRef::Tensor(t) => Some(t),
            _ => None,
        }
    }

    /// A method's name, or `plan{p}` for an unnamed plan.
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
    /// let view = pte_file::view::PteView::read(&bytes, Default::default())?;
    /// assert_eq!(view.method_name(0), "forward");
    /// assert_eq!(view.method_name(7), "plan7");
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn method_name(&self, plan: u32) -> String {
        let name = usize::try_from(plan).ok().and_then(|p| self.view.plan(p)).and_then(|p| p.name());
        name.map_or_else(|| format!("plan{plan}"), str::to_string)
    }

    /// Every tensor value the tensor table lists, grouped by entry in the
    /// table's order (the order of `PteFile::tensors`), each entry's uses
    /// in program order. Holds 16 bytes a listed value.
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let view = pte_file::view::PteView::read(&bytes, Default::default())?;
    /// let ids: Vec<u32> = view.tensor_uses().iter().map(|u| u.id).collect();
    /// assert_eq!(ids, [1, 2]);
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn tensor_uses(&self) -> Vec<TensorUse> {
        let mut out = vec![];
        let mut external: HashMap<&'a str, u32> = HashMap::new();
        let mut planned = 0u32;
        for (p, plan) in self.plans().enumerate() {
            for (j, v) in plan.value_refs().enumerate() {
                let ValueRef::Tensor(t) = v else { continue };
                let Some((kind, id)) = classify(&t, &mut external, &mut planned) else { continue };
                out.push(TensorUse { kind, id, plan: index_u32(p), value: index_u32(j) });
            }
        }
        // stable: each entry keeps its uses in program order
        out.sort_by_key(|u| (u.kind, u.id));
        out
    }

    /// The names of the EXTERNAL entries of the tensor table, in order of
    /// first use (unnamed ones labelled as `PteFile::tensors` labels them).
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("external/model.pte"))?;
    /// let view = pte_file::view::PteView::read(&bytes, Default::default())?;
    /// assert!(!view.external_names().is_empty());
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn external_names(&self) -> Vec<String> {
        let mut names = ExternalNames::default();
        self.scan_values(false, 0, Some(&mut names));
        names.out
    }
}

/// The EXTERNAL tensors' names a pass over the values collects, each once,
/// in order of first use.
#[derive(Default)]
struct ExternalNames<'a> {
    seen: HashSet<&'a str>,
    out: Vec<String>,
}

impl<'a> ExternalNames<'a> {
    fn note(&mut self, view: &PteView<'a>, plan: usize, value: usize, t: &TensorView<'a>) {
        if self.seen.insert(t.fqn().unwrap_or("")) {
            let method = view.method_name(index_u32(plan));
            self.out.push(tensor_label(t.fqn(), Unnamed::Value { method: &method, value }));
        }
    }
}

/// The table entry a tensor value belongs to, as `PteFile::tensors` classifies it.
fn classify<'a>(
    t: &TensorView<'a>,
    external: &mut HashMap<&'a str, u32>,
    planned: &mut u32,
) -> Option<(EntryKind, u32)> {
    if t.is_external() {
        let next = index_u32(external.len());
        return Some((EntryKind::External, *external.entry(t.fqn().unwrap_or("")).or_insert(next)));
    }
    match (t.allocation_info().is_some(), t.data_buffer_idx()) {
        (false, 0) => None,
        (false, i) => Some((EntryKind::Constant, i)),
        (true, 0) if t.fqn().is_some() => {
            let id = *planned;
            *planned = planned.saturating_add(1);
            Some((EntryKind::Planned, id))
        }
        (true, 0) => None,
        (true, i) => Some((EntryKind::Mutable, i)),
    }
}

/// Every segment index the program refers to.
fn references<'a>(view: &ProgramView<'a>) -> impl Iterator<Item = u32> + 'a + use<'a> {
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
