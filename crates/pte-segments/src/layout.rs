//! Where segments and sub-buffers go, following exir's serializer exactly.

use crate::align::{aligned, lcm, padding};
use crate::{Error, ErrorKind, Result};

/// One segment to place: its size and its own alignment requirement.
///
/// ```
/// let s = pte_segments::SegmentSpec::new(100, 1);
/// assert_eq!((s.size, s.alignment), (100, 1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SegmentSpec {
    /// Bytes of data.
    pub size: u64,
    /// Required alignment of its offset (any positive integer; 0 counts as 1).
    pub alignment: u64,
}

impl SegmentSpec {
    /// A segment of `size` bytes aligned to `alignment`.
    ///
    /// ```
    /// assert_eq!(pte_segments::SegmentSpec::new(1, 0).alignment, 0);
    /// ```
    pub fn new(size: u64, alignment: u64) -> Self {
        SegmentSpec { size, alignment }
    }
}

/// The result of placing segments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SegmentPlan {
    /// Offset of each segment relative to the segment base.
    pub offsets: Vec<u64>,
    /// End of the last segment (no trailing padding): the header's `segment_data_size`.
    pub data_size: u64,
}

fn overflow(what: &str) -> Error {
    Error::new(ErrorKind::LimitExceeded, format!("{what} overflows 64 bits"))
}

/// Places segments in order, each at `aligned(previous end, lcm(segment_alignment,
/// its alignment))`; zero-size segments get an offset like any other, so one
/// may share its offset with the next.
///
/// ```
/// use pte_segments::{layout::plan_segments, SegmentSpec};
/// // exir's test: constant (33 bytes), two delegates, named data aligned 3 and 256
/// let specs = [SegmentSpec::new(33, 1), SegmentSpec::new(64, 1), SegmentSpec::new(129, 1),
///              SegmentSpec::new(10, 3), SegmentSpec::new(5, 256)];
/// let plan = plan_segments(&specs, 128).unwrap();
/// assert_eq!(plan.offsets, vec![0, 128, 256, 768, 1024]);
/// ```
pub fn plan_segments(specs: &[SegmentSpec], segment_alignment: u64) -> Result<SegmentPlan> {
    let mut offsets = Vec::with_capacity(specs.len());
    let mut end = 0u64;
    for s in specs {
        let a = lcm(segment_alignment, s.alignment).ok_or_else(|| overflow("segment alignment"))?;
        let off = aligned(end, a).ok_or_else(|| overflow("segment offset"))?;
        offsets.push(off);
        end = off.checked_add(s.size).ok_or_else(|| overflow("segment end"))?;
    }
    Ok(SegmentPlan { offsets, data_size: end })
}

/// Packs sub-buffers of the given lengths into one segment: each starts at a
/// multiple of `alignment`, zero padding goes between buffers but not after
/// the last. Returns the offsets and the segment size.
///
/// ```
/// use pte_segments::layout::pack_subsegments;
/// // exir's test: blobs of 0, A/2, A-1, A, A+1 with A = 16
/// let (offs, size) = pack_subsegments(&[0, 8, 15, 16, 17], 16).unwrap();
/// assert_eq!(offs, vec![0, 0, 16, 32, 48]);
/// assert_eq!(size, 3 * 16 + 17);
/// ```
pub fn pack_subsegments(lengths: &[u64], alignment: u64) -> Result<(Vec<u64>, u64)> {
    let mut offsets = Vec::with_capacity(lengths.len());
    let mut at = 0u64;
    let last = lengths.len().saturating_sub(1);
    for (i, &len) in lengths.iter().enumerate() {
        offsets.push(at);
        at = at.checked_add(len).ok_or_else(|| overflow("sub-segment end"))?;
        if i != last {
            at = at.checked_add(padding(len, alignment)).ok_or_else(|| overflow("sub-segment padding"))?;
        }
    }
    Ok((offsets, at))
}

/// Where the pieces of a `.pte` go once the flatbuffer size is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileLayout {
    /// Bytes inserted at offset 8 (header plus padding); 0 when no header is written.
    pub inserted_header: u64,
    /// End of the flatbuffer region (the header's `program_size`).
    pub program_size: u64,
    /// Absolute offset of the segment data (0 when there is none).
    pub segment_base_offset: u64,
    /// Total bytes of the file.
    pub file_size: u64,
}

/// Computes the file layout: a header is written only when the segment data
/// is non-empty, as exir does; the segment base is aligned to `segment_alignment`.
///
/// ```
/// use pte_segments::layout::file_layout;
/// // the linear corpus file: 1584-byte flatbuffer, 60 bytes of segments
/// let l = file_layout(1584, 32, 60, 128).unwrap();
/// assert_eq!((l.program_size, l.segment_base_offset, l.file_size), (1616, 1664, 1724));
/// assert_eq!(file_layout(1000, 32, 0, 128).unwrap().file_size, 1000);
/// ```
pub fn file_layout(
    flatbuffer_len: u64,
    padded_header: u64,
    segment_data_size: u64,
    segment_alignment: u64,
) -> Result<FileLayout> {
    if segment_data_size == 0 {
        return Ok(FileLayout {
            inserted_header: 0,
            program_size: flatbuffer_len,
            segment_base_offset: 0,
            file_size: flatbuffer_len,
        });
    }
    let program_size = flatbuffer_len.checked_add(padded_header).ok_or_else(|| overflow("program size"))?;
    let base = aligned(program_size, segment_alignment).ok_or_else(|| overflow("segment base"))?;
    let file_size = base.checked_add(segment_data_size).ok_or_else(|| overflow("file size"))?;
    Ok(FileLayout { inserted_header: padded_header, program_size, segment_base_offset: base, file_size })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn named_data_with_segment_alignment_twelve() {
        // exir's test_named_data_segments: segment alignment 12, named alignments 8, 16, 24
        let specs = [SegmentSpec::new(5, 8), SegmentSpec::new(7, 16), SegmentSpec::new(9, 24)];
        let plan = plan_segments(&specs, 12).unwrap();
        assert_eq!(plan.offsets, vec![0, 48, 72]);
    }

    #[test]
    fn zero_size_segment_shares_offset_with_next() {
        let plan = plan_segments(&[SegmentSpec::new(0, 1), SegmentSpec::new(1264, 1)], 128).unwrap();
        assert_eq!(plan.offsets, vec![0, 0]);
    }

    #[test]
    fn huge_values_overflow_into_errors() {
        let e = plan_segments(&[SegmentSpec::new(u64::MAX, 1), SegmentSpec::new(1, 1)], 128).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::LimitExceeded);
        assert!(pack_subsegments(&[u64::MAX, 1], 16).is_err());
    }

    proptest! {
        #[test]
        fn plan_respects_alignment_and_order(sizes in proptest::collection::vec((0u64..5000, 1u64..300), 0..20), sa in 1u64..300) {
            let specs: Vec<_> = sizes.iter().map(|&(s, a)| SegmentSpec::new(s, a)).collect();
            let plan = plan_segments(&specs, sa).unwrap();
            let mut end = 0;
            for (s, &o) in specs.iter().zip(&plan.offsets) {
                prop_assert!(o >= end);
                prop_assert_eq!(o % lcm(sa, s.alignment).unwrap(), 0);
                prop_assert!(o - end < lcm(sa, s.alignment).unwrap());
                end = o + s.size;
            }
            prop_assert_eq!(plan.data_size, end);
        }

        #[test]
        fn packed_subsegments_are_aligned_and_unpadded_at_end(lens in proptest::collection::vec(0u64..1000, 1..20), p in 0u32..8) {
            let a = 1u64 << p;
            let (offs, size) = pack_subsegments(&lens, a).unwrap();
            for o in &offs { prop_assert_eq!(o % a, 0); }
            prop_assert_eq!(size, offs[offs.len() - 1] + lens[lens.len() - 1]);
        }
    }
}
