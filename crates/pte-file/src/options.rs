//! Options of the writer, validated when set.

use pte_schema::{EncodeOptions, Result, MAX_INLINE_ALIGNMENT};
use pte_segments::align::{require_positive, require_power_of_two};

/// Largest segment alignment accepted (1 MiB): past every page size a
/// loader maps segments at (4 KiB to 64 KiB), and small enough that the
/// padding it puts before each segment cannot turn a small program into
/// gigabytes. `pte rewrite`, `pte pack` and `pte_rewrite` all check through
/// [`WriteOptions::with_segment_alignment`].
///
/// ```
/// use pte_file::{WriteOptions, MAX_SEGMENT_ALIGNMENT};
/// assert!(WriteOptions::default().with_segment_alignment(MAX_SEGMENT_ALIGNMENT).is_ok());
/// assert!(WriteOptions::default().with_segment_alignment(MAX_SEGMENT_ALIGNMENT + 1).is_err());
/// assert!(WriteOptions::default().with_segment_alignment(1 << 30).is_err());
/// ```
pub const MAX_SEGMENT_ALIGNMENT: u64 = 1 << 20;

/// How segment offsets are chosen.
///
/// ```
/// assert_eq!(pte_file::SegmentLayout::default(), pte_file::SegmentLayout::Keep);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SegmentLayout {
    /// Keep the offsets stored in the segment table (relative to the base).
    #[default]
    Keep,
    /// Place segments anew in table order, exir's way: each at
    /// `lcm(segment_alignment, its alignment)` after the previous one.
    Repack,
}

/// What becomes of legacy inline constants (`Program.constant_buffer`).
///
/// ```
/// assert_eq!(pte_file::ConstantPlacement::default(), pte_file::ConstantPlacement::Segment);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ConstantPlacement {
    /// Moved into a constant segment placed first (and a program with neither
    /// form gets the placeholder segment), because the stock runtime builds
    /// compile the inline path out.
    #[default]
    Segment,
    /// Left as they are: the program's constant form is not touched.
    Keep,
}

/// Where delegate blobs go.
///
/// ```
/// assert_eq!(pte_file::DelegatePlacement::default(), pte_file::DelegatePlacement::Keep);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum DelegatePlacement {
    /// As read.
    #[default]
    Keep,
    /// Every delegate blob inline in the flatbuffer.
    Inline,
    /// Every non-empty delegate blob in its own segment (exir's
    /// `extract_delegate_segments=True`); identical blobs share one segment.
    Segment,
}

/// Write options. Defaults match exir's: segment alignment 128, constant
/// tensor alignment 16, inline delegate alignment 16, layout kept as read.
///
/// ```
/// use pte_file::WriteOptions;
/// let o = WriteOptions::default().with_tensor_alignment(64)?;
/// assert_eq!(o.tensor_alignment(), 64);
/// assert!(WriteOptions::default().with_tensor_alignment(14).is_err());
/// assert!(WriteOptions::default().with_segment_alignment(0).is_err());
/// # Ok::<(), pte_file::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    segment_alignment: u64,
    tensor_alignment: u32,
    delegate_alignment: u32,
    layout: SegmentLayout,
    delegates: DelegatePlacement,
    repack_constants: bool,
    constants: ConstantPlacement,
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions {
            segment_alignment: 128,
            tensor_alignment: 16,
            delegate_alignment: 16,
            layout: SegmentLayout::Keep,
            delegates: DelegatePlacement::Keep,
            repack_constants: false,
            constants: ConstantPlacement::Segment,
        }
    }
}

impl WriteOptions {
    /// exir's `serialize_pte_binary` defaults with `extract_delegate_segments=True`
    /// and every segment placed anew: writing a corpus file with these
    /// reproduces the exporter's segment region byte for byte.
    ///
    /// ```
    /// let o = pte_file::WriteOptions::exir_defaults();
    /// assert_eq!(o.layout(), pte_file::SegmentLayout::Repack);
    /// ```
    pub fn exir_defaults() -> Self {
        WriteOptions {
            layout: SegmentLayout::Repack,
            delegates: DelegatePlacement::Segment,
            repack_constants: true,
            ..WriteOptions::default()
        }
    }

    /// Sets the alignment of the segment base and of every segment offset
    /// (any positive integer, as exir allows, up to [`MAX_SEGMENT_ALIGNMENT`])
    /// and repacks the segments.
    ///
    /// ```
    /// let o = pte_file::WriteOptions::default().with_segment_alignment(4096)?;
    /// assert_eq!(o.segment_alignment(), 4096);
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn with_segment_alignment(mut self, a: u64) -> Result<Self> {
        require_positive("segment alignment", a, MAX_SEGMENT_ALIGNMENT)?;
        self.segment_alignment = a;
        self.layout = SegmentLayout::Repack;
        Ok(self)
    }

    /// Sets the constant tensor alignment (a power of two) used wherever
    /// constants are laid out anew: legacy inline constants moved into a
    /// segment, [`PteParts::build`](crate::PteParts::build), and the force_align
    /// of inline `Buffer.storage`. An existing constant segment keeps its layout;
    /// see [`WriteOptions::with_constant_alignment`].
    ///
    /// ```
    /// assert!(pte_file::WriteOptions::default().with_tensor_alignment(128).is_ok());
    /// ```
    pub fn with_tensor_alignment(mut self, a: u64) -> Result<Self> {
        require_power_of_two("constant tensor alignment", a, u64::from(MAX_INLINE_ALIGNMENT))?;
        self.tensor_alignment = u32::try_from(a).unwrap_or(MAX_INLINE_ALIGNMENT);
        Ok(self)
    }

    /// Sets the constant tensor alignment and repacks the existing constant
    /// segment with it: each tensor (its referencing tensor's byte size, or the
    /// span to the next offset) at a multiple of `a`, padding between tensors
    /// only. Segments are placed anew.
    ///
    /// ```
    /// let o = pte_file::WriteOptions::default().with_constant_alignment(64)?;
    /// assert!(o.repacks_constants());
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn with_constant_alignment(self, a: u64) -> Result<Self> {
        let mut o = self.with_tensor_alignment(a)?;
        o.repack_constants = true;
        // repacking lays constants out in a segment
        o.constants = ConstantPlacement::Segment;
        o.layout = SegmentLayout::Repack;
        Ok(o)
    }

    /// Sets the alignment of inline delegate data, a power of two.
    ///
    /// ```
    /// assert!(pte_file::WriteOptions::default().with_delegate_alignment(3).is_err());
    /// ```
    pub fn with_delegate_alignment(mut self, a: u64) -> Result<Self> {
        require_power_of_two("delegate alignment", a, u64::from(MAX_INLINE_ALIGNMENT))?;
        self.delegate_alignment = u32::try_from(a).unwrap_or(MAX_INLINE_ALIGNMENT);
        Ok(self)
    }

    /// Sets where delegate blobs go. Segments are placed anew only when a
    /// blob actually moves: a program with nothing to move keeps its layout.
    ///
    /// ```
    /// use pte_file::{DelegatePlacement, WriteOptions};
    /// let o = WriteOptions::default().with_delegates(DelegatePlacement::Inline);
    /// assert_eq!(o.delegates(), DelegatePlacement::Inline);
    /// ```
    pub fn with_delegates(mut self, p: DelegatePlacement) -> Self {
        self.delegates = p;
        self
    }

    /// Sets what becomes of legacy inline constants.
    ///
    /// ```
    /// use pte_file::{ConstantPlacement, WriteOptions};
    /// let o = WriteOptions::default().with_constants(ConstantPlacement::Keep);
    /// assert_eq!(o.constants(), ConstantPlacement::Keep);
    /// ```
    pub fn with_constants(mut self, p: ConstantPlacement) -> Self {
        self.constants = p;
        self
    }

    /// What becomes of legacy inline constants.
    ///
    /// ```
    /// assert_eq!(pte_file::WriteOptions::default().constants(), pte_file::ConstantPlacement::Segment);
    /// ```
    pub fn constants(&self) -> ConstantPlacement {
        self.constants
    }

    /// Sets the segment layout policy.
    ///
    /// ```
    /// use pte_file::{SegmentLayout, WriteOptions};
    /// assert_eq!(WriteOptions::default().with_layout(SegmentLayout::Repack).layout(), SegmentLayout::Repack);
    /// ```
    pub fn with_layout(mut self, l: SegmentLayout) -> Self {
        self.layout = l;
        self
    }

    /// Segment alignment.
    ///
    /// ```
    /// assert_eq!(pte_file::WriteOptions::default().segment_alignment(), 128);
    /// ```
    pub fn segment_alignment(&self) -> u64 {
        self.segment_alignment
    }

    /// Constant tensor alignment.
    ///
    /// ```
    /// assert_eq!(pte_file::WriteOptions::default().tensor_alignment(), 16);
    /// ```
    pub fn tensor_alignment(&self) -> u32 {
        self.tensor_alignment
    }

    /// Inline delegate alignment.
    ///
    /// ```
    /// assert_eq!(pte_file::WriteOptions::default().delegate_alignment(), 16);
    /// ```
    pub fn delegate_alignment(&self) -> u32 {
        self.delegate_alignment
    }

    /// Segment layout policy.
    ///
    /// ```
    /// assert_eq!(pte_file::WriteOptions::default().layout(), pte_file::SegmentLayout::Keep);
    /// ```
    pub fn layout(&self) -> SegmentLayout {
        self.layout
    }

    /// Delegate placement.
    ///
    /// ```
    /// assert_eq!(pte_file::WriteOptions::default().delegates(), pte_file::DelegatePlacement::Keep);
    /// ```
    pub fn delegates(&self) -> DelegatePlacement {
        self.delegates
    }

    /// Whether the constant segment is repacked at the tensor alignment.
    ///
    /// ```
    /// assert!(!pte_file::WriteOptions::default().repacks_constants());
    /// ```
    pub fn repacks_constants(&self) -> bool {
        self.repack_constants
    }

    /// Options that keep the alignments `file` (read from `bytes`) shows: the
    /// segment base keeps the largest power of two (up to 64 KiB) dividing its
    /// offset, and inline delegate data the largest power of two (up to 4 KiB)
    /// dividing every blob's offset. Segments keep their stored offsets and
    /// legacy inline constants stay inline ([`ConstantPlacement::Keep`]):
    /// what `pte rewrite` uses when no option is given, so the file that
    /// comes back is the file that went in.
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("inline_delegate/model.pte"))?;
    /// let pte = pte_file::PteFile::from_bytes(&bytes)?;
    /// let o = pte_file::WriteOptions::matching(&pte, &bytes);
    /// assert!(o.delegate_alignment() >= 16);
    /// assert_eq!(o.layout(), pte_file::SegmentLayout::Keep);
    /// assert_eq!(o.constants(), pte_file::ConstantPlacement::Keep);
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn matching(file: &crate::PteFile<'_>, bytes: &[u8]) -> Self {
        let inline = file.program.backend_delegate_data.iter().flatten().filter_map(|b| b.data.as_deref());
        Self::matching_inline(bytes, inline)
    }

    /// [`WriteOptions::matching`] from the inline delegate blobs alone (as
    /// borrowed from `bytes`), so that a view of the program answers too.
    ///
    /// ```
    /// use pte_file::WriteOptions;
    /// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
    /// let pte = pte_file::PteFile::from_bytes(&bytes)?;
    /// let o = WriteOptions::matching_inline(&bytes, std::iter::empty());
    /// assert_eq!(o.segment_alignment(), WriteOptions::matching(&pte, &bytes).segment_alignment());
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn matching_inline<'b>(bytes: &[u8], inline: impl Iterator<Item = &'b [u8]>) -> Self {
        use pte_segments::align::power_of_two_dividing;
        let mut o = WriteOptions { constants: ConstantPlacement::Keep, ..WriteOptions::default() };
        if let Ok(Some(h)) = pte_segments::ExtendedHeader::parse(bytes)
            && h.segment_base_offset > 0
        {
            o.segment_alignment = power_of_two_dividing(h.segment_base_offset, 1 << 16).max(1);
        }
        let start = bytes.as_ptr() as usize;
        let end = start.saturating_add(bytes.len());
        let alignment = inline
            .filter(|d| !d.is_empty())
            .map(|d| d.as_ptr() as usize)
            .filter(|&p| p >= start && p < end)
            .map(|p| power_of_two_dividing(p.saturating_sub(start) as u64, 4096))
            .min();
        if let Some(a) = alignment {
            o.delegate_alignment = u32::try_from(a.max(4)).unwrap_or(16);
        }
        o
    }

    /// The flatbuffer encoder's share of these options (the alignments of
    /// constant and inline delegate data), for a caller encoding a program
    /// itself.
    ///
    /// ```
    /// let o = pte_file::WriteOptions::default().encode_options();
    /// assert_eq!(o.tensor_alignment, pte_file::WriteOptions::default().tensor_alignment());
    /// ```
    pub fn encode_options(&self) -> EncodeOptions {
        EncodeOptions { tensor_alignment: self.tensor_alignment, delegate_alignment: self.delegate_alignment }
    }
}
