//! Bounds-checked access to segment bytes.

use crate::{Error, ErrorKind, Result};

/// The bytes of a segment at `base + offset`, `size` long, inside `file`.
///
/// Every sum is checked; a range that leaves the file is a
/// [`ErrorKind::Malformed`] error naming `field` and the offending offset.
///
/// ```
/// use pte_segments::ranges::segment_bytes;
/// let file = [0u8, 1, 2, 3, 4, 5];
/// assert_eq!(segment_bytes(&file, 2, 1, 2, "segments[0]").unwrap(), &[3, 4]);
/// assert!(segment_bytes(&file, 2, 3, 2, "segments[0]").is_err());
/// assert!(segment_bytes(&file, u64::MAX, 1, 1, "segments[0]").is_err());
/// ```
pub fn segment_bytes<'a>(file: &'a [u8], base: u64, offset: u64, size: u64, field: &str) -> Result<&'a [u8]> {
    let start = base.checked_add(offset);
    let end = start.and_then(|s| s.checked_add(size));
    let (Some(start), Some(end)) = (start, end) else {
        return Err(Error::new(ErrorKind::Malformed, "segment range overflows 64 bits").at_path(field));
    };
    let range = usize::try_from(start).ok().zip(usize::try_from(end).ok());
    match range.and_then(|(s, e)| file.get(s..e)) {
        Some(b) => Ok(b),
        None => Err(Error::new(
            ErrorKind::Malformed,
            format!("segment bytes {start}..{end} extend past the end of the file ({} bytes)", file.len()),
        )
        .at_path(field)
        .at_offset(start)),
    }
}

/// The sub-range `offset..offset+len` of a segment's bytes.
///
/// ```
/// use pte_segments::ranges::sub_range;
/// assert_eq!(sub_range(&[1, 2, 3], 1, 2, "c").unwrap(), &[2, 3]);
/// assert!(sub_range(&[1, 2, 3], 2, 2, "c").is_err());
/// ```
pub fn sub_range<'a>(segment: &'a [u8], offset: u64, len: u64, field: &str) -> Result<&'a [u8]> {
    let end = offset.checked_add(len);
    let r = usize::try_from(offset).ok().zip(end.and_then(|e| usize::try_from(e).ok()));
    r.and_then(|(s, e)| segment.get(s..e)).ok_or_else(|| {
        Error::new(
            ErrorKind::Malformed,
            format!("{len} bytes at offset {offset} do not fit in a {}-byte segment", segment.len()),
        )
        .at_path(field)
    })
}
