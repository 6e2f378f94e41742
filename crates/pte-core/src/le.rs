//! Little-endian fields at fixed offsets, for the binary headers (`eh00`,
//! `FH01`, zip records, the safetensors length): every read is bounds-checked
//! and a short input is an error naming the field and its byte offset.

use crate::error::{Error, ErrorKind, Result};

/// A bounds-checked view of a header's bytes.
///
/// ```
/// let r = pte_core::LeBytes::new(b"\x01\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00", "hdr");
/// assert_eq!(r.u32(0, "length")?, 1);
/// assert_eq!(r.u64(4, "size")?, 2);
/// let e = r.u64(8, "size").unwrap_err();
/// assert_eq!((e.path(), e.offset()), ("hdr.size", Some(8)));
/// # Ok::<(), pte_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct LeBytes<'a> {
    bytes: &'a [u8],
    what: &'a str,
    name: &'a str,
}

impl<'a> LeBytes<'a> {
    /// Wraps `bytes`; `what` names the structure in errors (`eh00`).
    ///
    /// ```
    /// assert_eq!(pte_core::LeBytes::new(b"ab", "x").len(), 2);
    /// ```
    pub fn new(bytes: &'a [u8], what: &'a str) -> Self {
        LeBytes { bytes, what, name: what }
    }

    /// Names the structure in messages ("file ends inside the extended
    /// header"), keeping `what` as the field-path prefix.
    ///
    /// ```
    /// let e = pte_core::LeBytes::new(b"", "eh00").named("the extended header").u32(12, "length").unwrap_err();
    /// assert_eq!(e.to_string(), "file ends inside the extended header at eh00.length (byte 12)");
    /// ```
    pub fn named(self, name: &'a str) -> Self {
        LeBytes { name, ..self }
    }

    /// The number of bytes available.
    ///
    /// ```
    /// assert!(pte_core::LeBytes::new(b"", "x").is_empty());
    /// ```
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether no byte is available.
    ///
    /// ```
    /// assert!(!pte_core::LeBytes::new(b"a", "x").is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// `N` bytes at `at`, or an error naming `field`.
    ///
    /// ```
    /// assert_eq!(pte_core::LeBytes::new(b"eh00", "x").array::<4>(0, "magic")?, *b"eh00");
    /// # Ok::<(), pte_core::Error>(())
    /// ```
    pub fn array<const N: usize>(&self, at: usize, field: &str) -> Result<[u8; N]> {
        at.checked_add(N).and_then(|end| self.bytes.get(at..end)).and_then(|s| <[u8; N]>::try_from(s).ok()).ok_or_else(
            || {
                Error::new(ErrorKind::Malformed, format!("file ends inside {}", self.name))
                    .at_path(format!("{}.{field}", self.what))
                    .at_offset(at as u64)
            },
        )
    }

    /// A little-endian `u16` at `at`.
    ///
    /// ```
    /// assert_eq!(pte_core::LeBytes::new(b"\x34\x12", "x").u16(0, "f")?, 0x1234);
    /// # Ok::<(), pte_core::Error>(())
    /// ```
    pub fn u16(&self, at: usize, field: &str) -> Result<u16> {
        self.array(at, field).map(u16::from_le_bytes)
    }

    /// A little-endian `u32` at `at`.
    ///
    /// ```
    /// assert_eq!(pte_core::LeBytes::new(b"\x20\0\0\0", "x").u32(0, "f")?, 32);
    /// # Ok::<(), pte_core::Error>(())
    /// ```
    pub fn u32(&self, at: usize, field: &str) -> Result<u32> {
        self.array(at, field).map(u32::from_le_bytes)
    }

    /// A little-endian `u64` at `at`.
    ///
    /// ```
    /// assert!(pte_core::LeBytes::new(b"\0\0\0\0", "x").u64(0, "f").is_err());
    /// ```
    pub fn u64(&self, at: usize, field: &str) -> Result<u64> {
        self.array(at, field).map(u64::from_le_bytes)
    }
}
