//! Zero-copy reading from bytes or a memory-mapped file.

use std::borrow::Cow;

use pte_schema::{decode_program, Error, ErrorKind, Limits, Result};
use pte_segments::ranges::segment_bytes;
use pte_segments::ExtendedHeader;

use crate::MappedFile;

use crate::PteFile;

/// Options of the reader.
///
/// ```
/// let o = pte_file::ReadOptions::default();
/// assert_eq!(o.limits, pte_file::Limits::default());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// Verifier bounds for the program flatbuffer.
    pub limits: Limits,
}

/// The flatbuffer region of a `.pte` and its extended header, if any.
///
/// With a header, the region is `[0, program_size)`; without one the whole
/// file is the flatbuffer.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
/// let (header, region) = pte_file::program_region(&bytes)?;
/// assert!(header.is_none());
/// assert_eq!(region.len(), bytes.len());
/// # Ok::<(), pte_file::Error>(())
/// ```
pub fn program_region(bytes: &[u8]) -> Result<(Option<ExtendedHeader>, &[u8])> {
    let header = ExtendedHeader::parse(bytes)?;
    let region = match &header {
        None => bytes,
        Some(h) => {
            let end = usize::try_from(h.program_size).ok().filter(|&n| n >= 8 && n <= bytes.len());
            match end.and_then(|n| bytes.get(..n)) {
                Some(r) => r,
                None => {
                    return Err(Error::new(
                        ErrorKind::Malformed,
                        format!("program_size {} must be between 8 and the file size {}", h.program_size, bytes.len()),
                    )
                    .at_path("eh00.program_size")
                    .at_offset(16))
                }
            }
        }
    };
    Ok((header, region))
}

impl<'a> PteFile<'a> {
    /// Reads a `.pte` with default limits. Segment bytes borrow from `bytes`.
    ///
    /// ```
    /// assert_eq!(pte_file::PteFile::from_bytes(b"short").unwrap_err().kind(), pte_file::ErrorKind::Malformed);
    /// ```
    pub fn from_bytes(bytes: &'a [u8]) -> Result<Self> {
        Self::from_bytes_with(bytes, &ReadOptions::default())
    }

    /// Reads the `.pte` in a memory map with default limits. Segment bytes
    /// borrow from the map, and [`PteFile::save`] copies them file to file
    /// from the mapped file.
    ///
    /// ```
    /// let map = pte_file::MappedFile::open(pte_testkit::corpus("linear/model.pte"))?;
    /// let pte = pte_file::PteFile::from_map(&map)?;
    /// assert_eq!(pte, pte_file::PteFile::from_bytes(map.bytes())?);
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn from_map(map: &'a MappedFile) -> Result<Self> {
        Self::from_map_with(map, &ReadOptions::default())
    }

    /// [`PteFile::from_map`] with the given options.
    ///
    /// ```
    /// let map = pte_file::MappedFile::open(pte_testkit::corpus("add/model.pte"))?;
    /// let o = pte_file::ReadOptions { limits: pte_file::Limits::unlimited() };
    /// assert!(pte_file::PteFile::from_map_with(&map, &o).is_ok());
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn from_map_with(map: &'a MappedFile, options: &ReadOptions) -> Result<Self> {
        let mut pte = Self::from_bytes_with(map.bytes(), options)?;
        pte.origin = crate::Origin(Some(map));
        Ok(pte)
    }

    /// Reads a `.pte` with the given options.
    ///
    /// A segment with data in a file without extended header is an error:
    /// its bytes would have no defined location.
    ///
    /// ```
    /// let o = pte_file::ReadOptions { limits: pte_file::Limits::unlimited() };
    /// assert!(pte_file::PteFile::from_bytes_with(&[0u8; 64], &o).is_err());
    /// ```
    pub fn from_bytes_with(bytes: &'a [u8], options: &ReadOptions) -> Result<Self> {
        let (header, region) = program_region(bytes)?;
        let program = decode_program(region, &options.limits)?;
        let base = header.map_or(0, |h| h.segment_base_offset);
        let table = program.segment_table();
        let mut segments = Vec::with_capacity(table.len());
        for (i, s) in table.iter().enumerate() {
            let field = format!("segments[{i}]");
            if s.size == 0 {
                // even an empty segment's offset must lie in the file: a writer
                // pads up to it, so a hostile offset would make a rewrite unbounded
                segment_bytes(bytes, base, s.offset, 0, &field)?;
                segments.push(Cow::Borrowed(&[][..]));
            } else if base == 0 {
                return Err(Error::new(
                    ErrorKind::Malformed,
                    format!(
                        "segment of {} bytes listed, but the file has no segment base (no extended header)",
                        s.size
                    ),
                )
                .at_path(field));
            } else {
                segments.push(Cow::Borrowed(segment_bytes(bytes, base, s.offset, s.size, &field)?));
            }
        }
        Ok(PteFile::new(program, segments))
    }
}
