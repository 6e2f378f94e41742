//! The layout facts an extract folder records so that packing it gives the
//! source's bytes back.

use serde_json::{json, Value};

use pte_schema::Result;

use crate::ptd::{PtdFile, PtdLayout, PtdWriteOptions};
use crate::{PteFile, SegmentLayout, WriteOptions};

/// The layout of a `.pte` read from `bytes`, as the `layout` object of an
/// extract manifest: whether it has an extended header and the alignments
/// [`WriteOptions::matching`] finds.
///
/// ```
/// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/linear/model.pte"))?;
/// let pte = pte_file::PteFile::from_bytes(&bytes)?;
/// let l = pte_file::pack::layout_json(&pte, &bytes);
/// assert_eq!(l["extended_header"], true);
/// # Ok::<(), pte_file::Error>(())
/// ```
pub fn layout_json(pte: &PteFile<'_>, bytes: &[u8]) -> Value {
    let o = WriteOptions::matching(pte, bytes);
    let header = matches!(pte_segments::ExtendedHeader::parse(bytes), Ok(Some(_)));
    json!({
        "extended_header": header,
        "segment_alignment": o.segment_alignment(),
        "constant_alignment": o.tensor_alignment(),
        "delegate_alignment": o.delegate_alignment(),
    })
}

/// The layout of a `.ptd`: the alignment of its segment base.
///
/// ```
/// let l = pte_file::pack::ptd_layout_json(&Default::default(), &[]);
/// assert_eq!(l["segment_alignment"], 128);
/// ```
pub fn ptd_layout_json(_ptd: &PtdFile<'_>, bytes: &[u8]) -> Value {
    let base = pte_segments::FlatTensorHeader::parse(bytes).map_or(0, |h| h.segment_base_offset);
    let a = if base > 0 { pte_segments::align::power_of_two_dividing(base, 1 << 16).max(1) } else { 128 };
    json!({ "segment_alignment": a })
}

/// Options from a manifest's `layout` object (absent fields at exir's defaults).
pub(crate) fn pte_options(layout: &Value) -> Result<(WriteOptions, bool)> {
    // the program's constants stay in the form it has: packing is lossless
    let mut o = WriteOptions::default().with_constants(crate::ConstantPlacement::Keep);
    if let Some(a) = layout.get("segment_alignment").and_then(Value::as_u64) {
        // keeps the stored offsets: only the base moves to this alignment
        o = o.with_segment_alignment(a)?.with_layout(SegmentLayout::Keep);
    }
    if let Some(a) = layout.get("constant_alignment").and_then(Value::as_u64) {
        o = o.with_tensor_alignment(a)?;
    }
    if let Some(a) = layout.get("delegate_alignment").and_then(Value::as_u64) {
        o = o.with_delegate_alignment(a)?;
    }
    let bare = layout.get("extended_header").and_then(Value::as_bool) == Some(false);
    Ok((o, bare))
}

pub(crate) fn ptd_options(layout: &Value) -> Result<PtdWriteOptions> {
    let a = layout.get("segment_alignment").and_then(Value::as_u64).unwrap_or(128);
    PtdWriteOptions::new(PtdLayout::Keep { segment_alignment: a })
}
