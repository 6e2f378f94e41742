//! The `eh00` extended header of a `.pte`.

use crate::align::aligned;
use crate::{Error, ErrorKind, Result};
use pte_core::LeBytes;

/// Magic bytes of the extended header.
pub const HEADER_MAGIC: &[u8; 4] = b"eh00";
/// Byte offset of the header in the file (right after root offset and identifier).
pub const HEADER_OFFSET: usize = 8;
/// Length field of headers without `segment_data_size` (pre-1.0 files).
pub const MIN_HEADER_LENGTH: u32 = 24;
/// Length the writer stores (and the bytes it writes before padding).
pub const HEADER_WRITTEN_LENGTH: u32 = 32;

/// The parsed extended header.
///
/// ```
/// use pte_segments::ExtendedHeader;
/// let h = ExtendedHeader::new(2752, 2816, 104);
/// let mut file = vec![0u8; 64];
/// file[4..8].copy_from_slice(b"ET12");
/// file[8..40].copy_from_slice(&h.to_bytes());
/// assert_eq!(ExtendedHeader::parse(&file).unwrap(), Some(h));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ExtendedHeader {
    /// The stored length field (24 for legacy files, 32 when written, larger allowed).
    pub length: u32,
    /// Bytes of the flatbuffer region from file offset 0, header and padding included.
    pub program_size: u64,
    /// Absolute offset of the first segment; 0 means no segments.
    pub segment_base_offset: u64,
    /// Bytes of segment data (0 for legacy 24-byte headers, which lack the field).
    pub segment_data_size: u64,
}

impl ExtendedHeader {
    /// A header in the written (32-byte) form.
    ///
    /// ```
    /// assert_eq!(pte_segments::ExtendedHeader::new(1, 2, 3).length, 32);
    /// ```
    pub fn new(program_size: u64, segment_base_offset: u64, segment_data_size: u64) -> Self {
        ExtendedHeader { length: HEADER_WRITTEN_LENGTH, program_size, segment_base_offset, segment_data_size }
    }

    /// Parses the header of `file` (the whole file or at least its first bytes).
    ///
    /// Returns `Ok(None)` when bytes 8..12 are not `eh00` (the file has no
    /// header, so no usable segments). With the magic present, a length below
    /// 24 or fewer bytes than the length's fields is a
    /// [`ErrorKind::Malformed`] error. `segment_data_size` is read only when
    /// the length is at least 32, as the runtime does.
    ///
    /// ```
    /// assert_eq!(pte_segments::ExtendedHeader::parse(&[0u8; 64]).unwrap(), None);
    /// ```
    pub fn parse(file: &[u8]) -> Result<Option<ExtendedHeader>> {
        if file.get(HEADER_OFFSET..12) != Some(HEADER_MAGIC.as_slice()) {
            return Ok(None);
        }
        let le = LeBytes::new(file, "eh00").named("the extended header");
        let length = le.u32(12, "length")?;
        if length < MIN_HEADER_LENGTH {
            return Err(Error::new(
                ErrorKind::Malformed,
                format!("extended header length {length} is below the minimum {MIN_HEADER_LENGTH}"),
            )
            .at_path("eh00.length")
            .at_offset(12));
        }
        let program_size = le.u64(16, "program_size")?;
        let segment_base_offset = le.u64(24, "segment_base_offset")?;
        let segment_data_size = if length >= HEADER_WRITTEN_LENGTH { le.u64(32, "segment_data_size")? } else { 0 };
        Ok(Some(ExtendedHeader { length, program_size, segment_base_offset, segment_data_size }))
    }

    /// The 32 header bytes the writer emits (magic, 32, the three fields);
    /// the stored `length` is ignored, as exir does.
    ///
    /// ```
    /// let b = pte_segments::ExtendedHeader::new(0, 0, 0).to_bytes();
    /// assert_eq!(&b[..8], b"eh00\x20\0\0\0");
    /// ```
    pub fn to_bytes(&self) -> [u8; 32] {
        let mut out = [0u8; 32];
        let parts: [&[u8]; 5] = [
            HEADER_MAGIC,
            &HEADER_WRITTEN_LENGTH.to_le_bytes(),
            &self.program_size.to_le_bytes(),
            &self.segment_base_offset.to_le_bytes(),
            &self.segment_data_size.to_le_bytes(),
        ];
        let mut at = 0usize;
        for p in parts {
            if let Some(dst) = out.get_mut(at..at.saturating_add(p.len())) {
                dst.copy_from_slice(p);
            }
            at = at.saturating_add(p.len());
        }
        out
    }

    /// Whether the header carries `segment_data_size` (length ≥ 32).
    ///
    /// ```
    /// let mut h = pte_segments::ExtendedHeader::new(0, 0, 0);
    /// h.length = 24;
    /// assert!(!h.has_segment_data_size());
    /// ```
    pub fn has_segment_data_size(&self) -> bool {
        self.length >= HEADER_WRITTEN_LENGTH
    }

    /// Bytes the writer inserts at offset 8: the 32-byte header padded to a
    /// multiple of the largest force_align used, so every aligned vector keeps
    /// its alignment relative to the file start.
    ///
    /// ```
    /// use pte_segments::ExtendedHeader;
    /// assert_eq!(ExtendedHeader::padded_length(16), Some(32));
    /// assert_eq!(ExtendedHeader::padded_length(64), Some(64));
    /// assert_eq!(ExtendedHeader::padded_length(128), Some(128));
    /// ```
    pub fn padded_length(max_alignment: u64) -> Option<u64> {
        aligned(u64::from(HEADER_WRITTEN_LENGTH), max_alignment)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;

    fn file_with(header: &[u8]) -> Vec<u8> {
        let mut f = vec![0u8; 8];
        f[4..8].copy_from_slice(b"ET12");
        f.extend_from_slice(header);
        f.resize(64, 0);
        f
    }

    #[test]
    fn exir_example_header_parses() {
        let mut h = b"eh00\x20\x00\x00\x00".to_vec();
        h.extend_from_slice(&0x0102030405060708u64.to_le_bytes());
        h.extend_from_slice(&0x1112131415161718u64.to_le_bytes());
        h.extend_from_slice(&0x2122232425262728u64.to_le_bytes());
        let p = ExtendedHeader::parse(&file_with(&h)).unwrap().unwrap();
        assert_eq!(p, ExtendedHeader::new(0x0102030405060708, 0x1112131415161718, 0x2122232425262728));
        assert_eq!(p.to_bytes().as_slice(), h.as_slice());
    }

    #[test]
    fn legacy_24_byte_header_has_no_segment_data_size() {
        let mut h = b"eh00\x18\x00\x00\x00".to_vec();
        h.extend_from_slice(&100u64.to_le_bytes());
        h.extend_from_slice(&128u64.to_le_bytes());
        h.extend_from_slice(&999u64.to_le_bytes()); // would be sds, but length says 24
        let p = ExtendedHeader::parse(&file_with(&h)).unwrap().unwrap();
        assert_eq!((p.length, p.program_size, p.segment_base_offset, p.segment_data_size), (24, 100, 128, 0));
        assert!(!p.has_segment_data_size());
    }

    #[test]
    fn longer_header_keeps_field_offsets() {
        let mut h = b"eh00\x21\x00\x00\x00".to_vec();
        for v in [1u64, 2, 3] {
            h.extend_from_slice(&v.to_le_bytes());
        }
        let p = ExtendedHeader::parse(&file_with(&h)).unwrap().unwrap();
        assert_eq!((p.length, p.program_size, p.segment_base_offset, p.segment_data_size), (33, 1, 2, 3));
    }

    #[test]
    fn short_length_is_malformed() {
        let h = b"eh00\x10\x00\x00\x00".to_vec();
        let e = ExtendedHeader::parse(&file_with(&h)).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Malformed);
        assert_eq!(e.offset(), Some(12));
    }

    #[test]
    fn truncated_header_is_malformed_not_a_panic() {
        let f = file_with(b"eh00\x20\x00\x00\x00\x01");
        for n in 0..40 {
            let r = ExtendedHeader::parse(&f[..n]);
            if n < 12 {
                assert_eq!(r.unwrap(), None);
            } else if n < 40 {
                assert_eq!(r.unwrap_err().kind(), ErrorKind::Malformed, "len {n}");
            }
        }
    }

    #[test]
    fn missing_magic_means_no_header() {
        assert_eq!(ExtendedHeader::parse(&file_with(b"eh01\x20\0\0\0")).unwrap(), None);
    }
}
