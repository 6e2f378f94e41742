//! The layout facts an extract folder records so that packing it gives the
//! source's bytes back.

use serde_json::Value;

use pte_schema::Result;

use super::Layout;
use pte_file::ptd::{PtdFile, PtdLayout, PtdWriteOptions};
use pte_file::view::PteView;
use pte_file::{PteFile, SegmentLayout, WriteOptions};

impl Layout {
    /// The layout of a `.pte` read from `bytes`: whether it has an extended
    /// header and the alignments [`WriteOptions::matching`] finds.
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let pte = pte_file::PteFile::from_bytes(&bytes)?;
    /// assert_eq!(pte_pack::Layout::of_pte(&pte, &bytes).extended_header, Some(true));
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn of_pte(pte: &PteFile<'_>, bytes: &[u8]) -> Self {
        let o = WriteOptions::matching(pte, bytes);
        Layout {
            extended_header: Some(matches!(pte_segments::ExtendedHeader::parse(bytes), Ok(Some(_)))),
            segment_alignment: Some(o.segment_alignment()),
            constant_alignment: Some(u64::from(o.tensor_alignment())),
            delegate_alignment: Some(u64::from(o.delegate_alignment())),
        }
    }

    /// [`Layout::of_pte`] read from a view of the file, without decoding
    /// its program.
    ///
    /// ```
    /// use pte_file::view::{PteView, SegmentTable};
    /// let bytes = std::fs::read(pte_testkit::corpus("inline_delegate/model.pte"))?;
    /// let view = PteView::read(&bytes, SegmentTable::Referenced)?;
    /// let pte = pte_file::PteFile::from_bytes(&bytes)?;
    /// assert_eq!(pte_pack::Layout::of_view(&view), pte_pack::Layout::of_pte(&pte, &bytes));
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn of_view(view: &PteView<'_>) -> Self {
        let program = view.program();
        let inline = (0..program.inline_delegate_count().unwrap_or(0))
            .filter_map(move |i| program.inline_delegate_data(i).flatten());
        let o = WriteOptions::matching_inline(view.bytes(), inline);
        Layout {
            extended_header: Some(view.header().is_some()),
            segment_alignment: Some(o.segment_alignment()),
            constant_alignment: Some(u64::from(o.tensor_alignment())),
            delegate_alignment: Some(u64::from(o.delegate_alignment())),
        }
    }

    /// The layout of a `.ptd` read from `bytes`: the alignment of its segment base.
    ///
    /// ```
    /// assert_eq!(pte_pack::Layout::of_ptd(&[]).segment_alignment, Some(128));
    /// ```
    pub fn of_ptd(bytes: &[u8]) -> Self {
        let base = pte_segments::FlatTensorHeader::parse(bytes).map_or(0, |h| h.segment_base_offset);
        let a = if base > 0 { pte_segments::align::power_of_two_dividing(base, 1 << 16).max(1) } else { 128 };
        Layout { segment_alignment: Some(a), ..Default::default() }
    }

    /// Options for packing a `.pte` (absent fields at exir's defaults), and
    /// whether to write the bare flatbuffer.
    pub(crate) fn pte_options(&self) -> Result<(WriteOptions, bool)> {
        // the program's constants stay in the form it has: packing is lossless
        let mut o = WriteOptions::default().with_constants(pte_file::ConstantPlacement::Keep);
        if let Some(a) = self.segment_alignment {
            // keeps the stored offsets: only the base moves to this alignment
            o = o.with_segment_alignment(a)?.with_layout(SegmentLayout::Keep);
        }
        if let Some(a) = self.constant_alignment {
            o = o.with_tensor_alignment(a)?;
        }
        if let Some(a) = self.delegate_alignment {
            o = o.with_delegate_alignment(a)?;
        }
        Ok((o, self.extended_header == Some(false)))
    }

    /// Options for packing a `.ptd`.
    pub(crate) fn ptd_options(&self) -> Result<PtdWriteOptions> {
        PtdWriteOptions::new(PtdLayout::Keep { segment_alignment: self.segment_alignment.unwrap_or(128) })
    }
}

/// The layout of a `.pte` read from `bytes`, as the `layout` object of an
/// extract manifest ([`Layout::of_pte`] as JSON).
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
/// let pte = pte_file::PteFile::from_bytes(&bytes)?;
/// let l = pte_pack::layout_json(&pte, &bytes);
/// assert_eq!(l["extended_header"], true);
/// # Ok::<(), pte_file::Error>(())
/// ```
pub fn layout_json(pte: &PteFile<'_>, bytes: &[u8]) -> Value {
    serde_json::to_value(Layout::of_pte(pte, bytes)).unwrap_or_default()
}

/// The layout of a `.ptd`: the alignment of its segment base ([`Layout::of_ptd`] as JSON).
///
/// ```
/// let l = pte_pack::ptd_layout_json(&Default::default(), &[]);
/// assert_eq!(l["segment_alignment"], 128);
/// ```
pub fn ptd_layout_json(_ptd: &PtdFile<'_>, bytes: &[u8]) -> Value {
    serde_json::to_value(Layout::of_ptd(bytes)).unwrap_or_default()
}
