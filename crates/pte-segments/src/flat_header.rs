//! The `FH01` header of a `.ptd` (always present, at byte 8).

use crate::align::aligned;
use crate::{Error, ErrorKind, Result};
use pte_core::LeBytes;

/// Magic bytes of the tensor-data header.
pub const FLAT_HEADER_MAGIC: &[u8; 4] = b"FH01";
/// The header's length field as written, and its minimum.
pub const FLAT_HEADER_LENGTH: u32 = 40;

/// The parsed `FH01` header.
///
/// Trap: `flatbuffer_offset` holds the *padded header length* (48 as Python
/// writes it), not where the flatbuffer starts (it starts at 0). The
/// flatbuffer region is `[0, flatbuffer_offset + flatbuffer_size)`, and
/// `flatbuffer_size` excludes the inserted header.
///
/// ```
/// use pte_segments::FlatTensorHeader;
/// let h = FlatTensorHeader::new(48, 360, 512, 268);
/// let mut file = vec![0u8; 64];
/// file[4..8].copy_from_slice(b"FT01");
/// file[8..48].copy_from_slice(&h.to_bytes());
/// assert_eq!(FlatTensorHeader::parse(&file)?, h);
/// assert_eq!(h.flatbuffer_end(), Some(408));
/// # Ok::<(), pte_segments::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct FlatTensorHeader {
    /// Stored length (40; longer accepted).
    pub length: u32,
    /// Bytes inserted at offset 8 (header plus padding).
    pub flatbuffer_offset: u64,
    /// Length of the flatbuffer before the header was inserted.
    pub flatbuffer_size: u64,
    /// Absolute offset of the segment data.
    pub segment_base_offset: u64,
    /// Bytes of segment data.
    pub segment_data_size: u64,
}

impl FlatTensorHeader {
    /// A header in the written form.
    ///
    /// ```
    /// assert_eq!(pte_segments::FlatTensorHeader::new(48, 1, 2, 3).length, 40);
    /// ```
    pub fn new(flatbuffer_offset: u64, flatbuffer_size: u64, segment_base_offset: u64, segment_data_size: u64) -> Self {
        FlatTensorHeader {
            length: FLAT_HEADER_LENGTH,
            flatbuffer_offset,
            flatbuffer_size,
            segment_base_offset,
            segment_data_size,
        }
    }

    /// Parses the header; it is mandatory, so a missing magic is an error.
    ///
    /// ```
    /// let e = pte_segments::FlatTensorHeader::parse(&[0u8; 64]).unwrap_err();
    /// assert_eq!(e.kind(), pte_segments::ErrorKind::Malformed);
    /// ```
    pub fn parse(file: &[u8]) -> Result<FlatTensorHeader> {
        match file.get(8..12) {
            Some(m) if m == FLAT_HEADER_MAGIC => {}
            _ => {
                return Err(Error::new(ErrorKind::Malformed, "no FH01 tensor-data header at byte 8")
                    .at_path("fh01.magic")
                    .at_offset(8))
            }
        }
        let le = LeBytes::new(file, "fh01").named("the FH01 header");
        let length = le.u32(12, "length")?;
        if length < FLAT_HEADER_LENGTH {
            return Err(Error::new(
                ErrorKind::Malformed,
                format!("FH01 header length {length} is below {FLAT_HEADER_LENGTH}"),
            )
            .at_path("fh01.length")
            .at_offset(12));
        }
        Ok(FlatTensorHeader {
            length,
            flatbuffer_offset: le.u64(16, "flatbuffer_offset")?,
            flatbuffer_size: le.u64(24, "flatbuffer_size")?,
            segment_base_offset: le.u64(32, "segment_base_offset")?,
            segment_data_size: le.u64(40, "segment_data_size")?,
        })
    }

    /// The 40 header bytes as written (magic, 40, four fields).
    ///
    /// ```
    /// assert_eq!(&pte_segments::FlatTensorHeader::new(48, 0, 0, 0).to_bytes()[..8], b"FH01\x28\0\0\0");
    /// ```
    pub fn to_bytes(&self) -> [u8; 40] {
        let mut out = [0u8; 40];
        let fields: [&[u8]; 6] = [
            FLAT_HEADER_MAGIC,
            &FLAT_HEADER_LENGTH.to_le_bytes(),
            &self.flatbuffer_offset.to_le_bytes(),
            &self.flatbuffer_size.to_le_bytes(),
            &self.segment_base_offset.to_le_bytes(),
            &self.segment_data_size.to_le_bytes(),
        ];
        let mut at = 0usize;
        for f in fields {
            if let Some(d) = out.get_mut(at..at.saturating_add(f.len())) {
                d.copy_from_slice(f);
            }
            at = at.saturating_add(f.len());
        }
        out
    }

    /// End of the flatbuffer region (`flatbuffer_offset + flatbuffer_size`).
    ///
    /// ```
    /// assert_eq!(pte_segments::FlatTensorHeader::new(u64::MAX, 1, 0, 0).flatbuffer_end(), None);
    /// ```
    pub fn flatbuffer_end(&self) -> Option<u64> {
        self.flatbuffer_offset.checked_add(self.flatbuffer_size)
    }

    /// The padded header length a writer inserts for a given alignment
    /// (Python: 16 → 48; C++ `save_ptd`: its tensor alignment).
    ///
    /// ```
    /// assert_eq!(pte_segments::FlatTensorHeader::padded_length(16), Some(48));
    /// assert_eq!(pte_segments::FlatTensorHeader::padded_length(64), Some(64));
    /// ```
    pub fn padded_length(alignment: u64) -> Option<u64> {
        aligned(u64::from(FLAT_HEADER_LENGTH), alignment)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;

    #[test]
    fn real_python_header_bytes() {
        // 1.5.1 file: 44000000 "FT01" "FH01" 28000000 | 48 | 360 | 512 | 268
        let mut f = vec![0x44, 0, 0, 0];
        f.extend_from_slice(b"FT01FH01\x28\0\0\0");
        for v in [48u64, 360, 512, 268] {
            f.extend_from_slice(&v.to_le_bytes());
        }
        f.resize(64, 0);
        let h = FlatTensorHeader::parse(&f).unwrap();
        assert_eq!(h, FlatTensorHeader::new(48, 360, 512, 268));
        assert_eq!(h.to_bytes().as_slice(), &f[8..48]);
    }

    #[test]
    fn short_length_and_truncation_are_errors() {
        let mut f = vec![0u8; 64];
        f[8..12].copy_from_slice(b"FH01");
        f[12..16].copy_from_slice(&39u32.to_le_bytes());
        assert_eq!(FlatTensorHeader::parse(&f).unwrap_err().offset(), Some(12));
        f[12..16].copy_from_slice(&40u32.to_le_bytes());
        for n in 0..48 {
            assert!(FlatTensorHeader::parse(&f[..n]).is_err());
        }
        assert!(FlatTensorHeader::parse(&f).is_ok());
    }
}
