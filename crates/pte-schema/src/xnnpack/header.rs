//! The `XH00` header that opens an XNNPACK payload and locates its flatbuffer
//! and constant data.
//!
//! Layout (little-endian): bytes 0..4 unused, 4..8 the magic `XH00`, 8..10
//! the header length, 10..14 the flatbuffer offset, 14..18 its size, 18..22
//! the constant-data offset, 22..30 its size. Offsets count from the start of
//! the payload. Without the magic, the whole payload is the flatbuffer.

use pte_core::{Error, ErrorKind, Result};

/// The magic at bytes 4..8 of a payload that starts with a header.
///
/// ```
/// assert_eq!(&pte_schema::xnnpack::XnnHeader::default().to_bytes()[4..8], pte_schema::xnnpack::XNN_HEADER_MAGIC);
/// ```
pub const XNN_HEADER_MAGIC: &[u8; 4] = b"XH00";

/// Bytes the runtime reads for a header.
///
/// ```
/// assert_eq!(pte_schema::xnnpack::XnnHeader::default().to_bytes().len(), pte_schema::xnnpack::XNN_HEADER_SIZE);
/// ```
pub const XNN_HEADER_SIZE: usize = 30;

/// The smallest flatbuffer the runtime accepts: a root offset and an identifier.
const MIN_FLATBUFFER: u32 = 8;

/// A parsed `XH00` header.
///
/// ```
/// use pte_schema::xnnpack::XnnHeader;
/// let h = XnnHeader { length: 30, flatbuffer_offset: 32, flatbuffer_size: 8, constant_data_offset: 40, constant_data_size: 0 };
/// let mut payload = h.to_bytes().to_vec();
/// payload.resize(40, 0);
/// assert_eq!(XnnHeader::parse(&payload)?, Some(h));
/// assert_eq!(XnnHeader::parse(b"\x08\0\0\0XN01\0\0\0\0")?, None);
/// # Ok::<(), pte_schema::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct XnnHeader {
    /// The header's own length field (30 from the current exporter; the runtime ignores it).
    pub length: u16,
    /// Where the flatbuffer starts in the payload.
    pub flatbuffer_offset: u32,
    /// Flatbuffer length.
    pub flatbuffer_size: u32,
    /// Where the constant data starts in the payload.
    pub constant_data_offset: u32,
    /// Constant data length.
    pub constant_data_size: u64,
}

fn le<const N: usize>(b: &[u8], at: usize) -> Option<[u8; N]> {
    b.get(at..at.checked_add(N)?).and_then(|s| <[u8; N]>::try_from(s).ok())
}

fn bad(path: &str, offset: u64, message: String) -> Error {
    Error::new(ErrorKind::Malformed, message).at_path(path).at_offset(offset)
}

impl XnnHeader {
    /// Reads the header of `payload`: `Ok(None)` when bytes 4..8 are not the
    /// magic (a bare flatbuffer), an error when the header is truncated, or
    /// when its flatbuffer or constant-data range leaves the payload, is too
    /// small for a flatbuffer, or the constant data starts inside the
    /// flatbuffer (the runtime's own checks).
    ///
    /// ```
    /// use pte_schema::xnnpack::XnnHeader;
    /// let e = XnnHeader::parse(b"\0\0\0\0XH00\x1e\0").unwrap_err();
    /// assert_eq!(e.path(), "xh00");
    /// ```
    pub fn parse(payload: &[u8]) -> Result<Option<XnnHeader>> {
        if payload.get(4..8) != Some(XNN_HEADER_MAGIC.as_slice()) {
            return Ok(None);
        }
        let (Some(length), Some(fo), Some(fs), Some(co), Some(cs)) = (
            le::<2>(payload, 8),
            le::<4>(payload, 10),
            le::<4>(payload, 14),
            le::<4>(payload, 18),
            le::<8>(payload, 22),
        ) else {
            return Err(bad(
                "xh00",
                0,
                format!("a {}-byte payload is too short for its {XNN_HEADER_SIZE}-byte XH00 header", payload.len()),
            ));
        };
        let h = XnnHeader {
            length: u16::from_le_bytes(length),
            flatbuffer_offset: u32::from_le_bytes(fo),
            flatbuffer_size: u32::from_le_bytes(fs),
            constant_data_offset: u32::from_le_bytes(co),
            constant_data_size: u64::from_le_bytes(cs),
        };
        h.check(payload.len() as u64)?;
        Ok(Some(h))
    }

    fn check(&self, len: u64) -> Result<()> {
        if self.flatbuffer_size < MIN_FLATBUFFER {
            return Err(bad(
                "xh00.flatbuffer_size",
                14,
                format!("flatbuffer size {} is below {MIN_FLATBUFFER}", self.flatbuffer_size),
            ));
        }
        let fb_end = u64::from(self.flatbuffer_offset).saturating_add(u64::from(self.flatbuffer_size));
        if fb_end > len {
            return Err(bad(
                "xh00.flatbuffer_offset",
                10,
                format!("flatbuffer {}..{fb_end} runs past the {len}-byte payload", self.flatbuffer_offset),
            ));
        }
        let cd_end = u64::from(self.constant_data_offset).saturating_add(self.constant_data_size);
        if u64::from(self.constant_data_offset) > len || cd_end > len {
            return Err(bad(
                "xh00.constant_data_offset",
                18,
                format!("constant data {}..{cd_end} runs past the {len}-byte payload", self.constant_data_offset),
            ));
        }
        if u64::from(self.constant_data_offset) < fb_end {
            return Err(bad(
                "xh00.constant_data_offset",
                18,
                format!(
                    "constant data at {} starts inside the flatbuffer {}..{fb_end}",
                    self.constant_data_offset, self.flatbuffer_offset
                ),
            ));
        }
        Ok(())
    }

    /// The 30 header bytes (bytes 0..4 zero).
    ///
    /// ```
    /// let b = pte_schema::xnnpack::XnnHeader::default().to_bytes();
    /// assert_eq!(&b[4..8], b"XH00");
    /// ```
    pub fn to_bytes(&self) -> [u8; XNN_HEADER_SIZE] {
        let mut out = [0u8; XNN_HEADER_SIZE];
        let parts: [(usize, &[u8]); 6] = [
            (4, XNN_HEADER_MAGIC),
            (8, &self.length.to_le_bytes()),
            (10, &self.flatbuffer_offset.to_le_bytes()),
            (14, &self.flatbuffer_size.to_le_bytes()),
            (18, &self.constant_data_offset.to_le_bytes()),
            (22, &self.constant_data_size.to_le_bytes()),
        ];
        for (at, bytes) in parts {
            if let Some(dst) = out.get_mut(at..at.saturating_add(bytes.len())) {
                dst.copy_from_slice(bytes);
            }
        }
        out
    }
}
