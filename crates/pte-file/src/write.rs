//! Streaming writer: the program flatbuffer is built once in memory (it is
//! small); segment bytes go straight from the input to the output.

use std::io::Write;

use pte_schema::{encode_program_with, Error, ErrorKind, Result};
use pte_segments::layout::file_layout;
use pte_segments::{ExtendedHeader, HEADER_OFFSET};

use crate::options::WriteOptions;
use crate::transform::{Chunk, Prepared};
use crate::PteFile;

const ZEROS: [u8; 4096] = [0u8; 4096];

pub(crate) fn write_zeros(w: &mut impl Write, mut n: u64) -> Result<()> {
    while n > 0 {
        let k = n.min(ZEROS.len() as u64);
        let len = usize::try_from(k).unwrap_or(ZEROS.len());
        w.write_all(ZEROS.get(..len).unwrap_or(&ZEROS))?;
        n = n.saturating_sub(k);
    }
    Ok(())
}

fn limit(msg: String) -> Error {
    Error::new(ErrorKind::LimitExceeded, msg)
}

impl PteFile<'_> {
    /// Writes the file to `w` and returns the number of bytes written.
    ///
    /// With default options every segment keeps its bytes and its stored
    /// offset; the output is deterministic.
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let pte = pte_file::PteFile::from_bytes(&bytes)?;
    /// let mut out = Vec::new();
    /// let n = pte.write_to(&mut out, &pte_file::WriteOptions::default())?;
    /// assert_eq!(n as usize, out.len());
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn write_to(&self, mut w: impl Write, options: &WriteOptions) -> Result<u64> {
        let prep = Prepared::new(self, options)?;
        encode_program_with(&prep.program, &options.encode_options(), |fb| {
            stream(&mut w, &prep, fb, options, &mut plain)
        })?
    }

    /// Writes the file into a new vector.
    ///
    /// ```
    /// let bytes = pte_file::PteFile::default().to_bytes(&pte_file::WriteOptions::default())?;
    /// assert_eq!(&bytes[4..8], b"ET12");
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn to_bytes(&self, options: &WriteOptions) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        self.write_to(&mut out, options)?;
        Ok(out)
    }

    /// Writes the file to `path` atomically (temp file beside it, fsync,
    /// rename): an existing file is replaced only by a complete new one.
    /// Returns the number of bytes written.
    ///
    /// A file read with [`PteFile::from_map`] has its segment bytes that lie
    /// in the map copied file to file by the kernel (`copy_file_range` on
    /// Linux) instead of through user space; the output is the same.
    ///
    /// ```
    /// let src = pte_testkit::corpus("linear/model.pte");
    /// let map = pte_file::MappedFile::open(src)?;
    /// let pte = pte_file::PteFile::from_map(&map)?;
    /// let dir = tempfile::tempdir()?;
    /// let path = dir.path().join("copy.pte");
    /// let n = pte.save(&path, &pte_file::WriteOptions::default())?;
    /// assert_eq!(std::fs::read(&path)?, pte.to_bytes(&Default::default())?);
    /// assert_eq!(n, std::fs::metadata(&path)?.len());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn save(&self, path: impl AsRef<std::path::Path>, options: &WriteOptions) -> Result<u64> {
        match self.origin.0.and_then(|m| Some((m.file()?, m.bytes()))) {
            Some((source, bytes)) => pte_core::write_atomically_file(path.as_ref(), |dst| {
                self.write_copying_from(dst, options, source, bytes)
            }),
            None => pte_core::write_atomically(path.as_ref(), |w| self.write_to(w, options)),
        }
    }

    /// Writes the file into `dst`, copying the bytes that lie in
    /// `source_bytes` (a map of `source`) file to file.
    pub(crate) fn write_copying_from(
        &self,
        dst: &std::fs::File,
        options: &WriteOptions,
        source: &std::fs::File,
        source_bytes: &[u8],
    ) -> Result<u64> {
        let mut w = std::io::BufWriter::with_capacity(1 << 20, dst);
        let prep = Prepared::new(self, options)?;
        let mut copy = |w: &mut std::io::BufWriter<&std::fs::File>, d: &[u8]| copy_from(source, source_bytes, w, d);
        encode_program_with(&prep.program, &options.encode_options(), |fb| {
            stream(&mut w, &prep, fb, options, &mut copy)
        })?
    }
}

/// Writes `d` to `w`: bytes lying in `source_bytes` (a map of `source`) are
/// copied file to file by the kernel, others written plainly.
pub(crate) fn copy_from(
    source: &std::fs::File,
    source_bytes: &[u8],
    w: &mut std::io::BufWriter<&std::fs::File>,
    d: &[u8],
) -> Result<()> {
    use std::io::{Seek, SeekFrom};
    let start = source_bytes.as_ptr() as usize;
    let end = start.saturating_add(source_bytes.len());
    let p = d.as_ptr() as usize;
    if d.len() < (1 << 16) || p < start || p.saturating_add(d.len()) > end {
        return plain(w, d);
    }
    w.flush()?;
    let mut src = source;
    src.seek(SeekFrom::Start(p.saturating_sub(start) as u64))?;
    let want = d.len() as u64;
    if pte_core::copy_with_writeback(src, want, w.get_ref())? != want {
        return Err(Error::new(ErrorKind::Io, "source file shrank while being copied"));
    }
    Ok(())
}

/// Writes a finished flatbuffer with `header` inserted at byte 8, padded with
/// zeros to `padded` bytes: the root offset grows by `padded`, every other
/// offset is relative and stays valid (both `eh00` and `FH01` work this way).
pub(crate) fn splice_header(w: &mut impl Write, fb: &[u8], header: &[u8], padded: u64) -> Result<()> {
    let (head, rest) = fb.split_at(HEADER_OFFSET.min(fb.len()));
    let root = head.get(..4).and_then(|b| <[u8; 4]>::try_from(b).ok()).map(u32::from_le_bytes).unwrap_or(0);
    let root = u32::try_from(padded)
        .ok()
        .and_then(|p| root.checked_add(p))
        .ok_or_else(|| limit("root offset overflows 32 bits after inserting the header".into()))?;
    w.write_all(&root.to_le_bytes())?;
    w.write_all(head.get(4..).unwrap_or(&[]))?;
    w.write_all(header)?;
    write_zeros(w, padded.saturating_sub(header.len() as u64))?;
    w.write_all(rest)?;
    Ok(())
}

/// Writes `file` to `w` with its program flatbuffer replaced by `flatbuffer`,
/// keeping the segment region byte for byte: the segment data lands at a new
/// segment base (aligned as `options` says), so every offset relative to the
/// base still finds the same bytes. Returns the number of bytes written.
///
/// This is for tools that edit the program table (rename a method, change an
/// operator, or break one rule on purpose, as `pte mutate` does) without
/// touching the data: unlike [`PteFile::write_to`], nothing is repacked or
/// repaired, so the flatbuffer is trusted to agree with the segments. A file
/// without an `eh00` header has no segment region; the output is then the
/// flatbuffer alone. A header of the legacy 24-byte form (no
/// `segment_data_size`) keeps everything after a non-zero base.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
/// let pte = pte_file::PteFile::from_bytes(&bytes)?;
/// let fb = pte_schema::encode_program(&pte.program, &Default::default())?;
/// let mut out = Vec::new();
/// pte_file::splice_flatbuffer(&mut out, &bytes, &fb, &Default::default())?;
/// assert_eq!(pte_file::PteFile::from_bytes(&out)?, pte);
/// # Ok::<(), pte_file::Error>(())
/// ```
pub fn splice_flatbuffer(w: &mut impl Write, file: &[u8], flatbuffer: &[u8], options: &WriteOptions) -> Result<u64> {
    let Some(old) = ExtendedHeader::parse(file)? else {
        w.write_all(flatbuffer)?;
        w.flush()?;
        return Ok(flatbuffer.len() as u64);
    };
    let base = old.segment_base_offset;
    let data = if old.has_segment_data_size() {
        pte_segments::ranges::segment_bytes(file, base, 0, old.segment_data_size, "eh00.segment_data_size")?
    } else if base == 0 {
        &[]
    } else {
        usize::try_from(base).ok().and_then(|b| file.get(b..)).unwrap_or(&[])
    };
    let padded = ExtendedHeader::padded_length(u64::from(options.encode_options().max_alignment()))
        .ok_or_else(|| limit("header padding overflows".into()))?;
    let program_size =
        (flatbuffer.len() as u64).checked_add(padded).ok_or_else(|| limit("program size overflows".into()))?;
    let new_base = pte_segments::align::aligned(program_size, options.segment_alignment())
        .ok_or_else(|| limit("segment base overflows".into()))?;
    let header = ExtendedHeader::new(program_size, new_base, data.len() as u64);
    splice_header(w, flatbuffer, &header.to_bytes(), padded)?;
    write_zeros(w, new_base.saturating_sub(program_size))?;
    w.write_all(data)?;
    w.flush()?;
    new_base.checked_add(data.len() as u64).ok_or_else(|| limit("file size overflows".into()))
}

/// Writes header, flatbuffer, padding and segments in file order.
/// How segment bytes reach the output: plain writes, or kernel-side copies
/// from the source file when the bytes are a mapping of it.
pub(crate) type DataWriter<'c, W> = &'c mut dyn FnMut(&mut W, &[u8]) -> Result<()>;

pub(crate) fn plain<W: Write>(w: &mut W, d: &[u8]) -> Result<()> {
    w.write_all(d).map_err(Into::into)
}

fn stream<W: Write>(
    w: &mut W,
    prep: &Prepared<'_>,
    fb: &[u8],
    options: &WriteOptions,
    data: DataWriter<'_, W>,
) -> Result<u64> {
    let data_size = data_size(prep)?;
    let padded = ExtendedHeader::padded_length(u64::from(options.encode_options().max_alignment()))
        .ok_or_else(|| limit("header padding overflows".into()))?;
    let layout = file_layout(fb.len() as u64, padded, data_size, options.segment_alignment())?;

    if layout.inserted_header == 0 {
        w.write_all(fb)?;
    } else {
        let header = ExtendedHeader::new(layout.program_size, layout.segment_base_offset, data_size);
        splice_header(w, fb, &header.to_bytes(), layout.inserted_header)?;
        write_zeros(w, layout.segment_base_offset.saturating_sub(layout.program_size))?;
        write_segments(w, prep, data_size, data)?;
    }
    w.flush()?;
    Ok(layout.file_size)
}

/// The end of the segment data (`segment_data_size`) `prep`'s table implies.
pub(crate) fn data_size(prep: &Prepared<'_>) -> Result<u64> {
    prep.program.segment_table().iter().try_fold(0u64, |m, s| {
        s.offset.checked_add(s.size).map(|e| m.max(e)).ok_or_else(|| limit("segment end overflows 64 bits".into()))
    })
}

/// Writes the segment data, from the segment base on, in offset order.
pub(crate) fn write_segments<W: Write>(
    w: &mut W,
    prep: &Prepared<'_>,
    data_size: u64,
    data: DataWriter<'_, W>,
) -> Result<()> {
    let table = prep.program.segment_table();
    let mut order: Vec<usize> = (0..table.len()).collect();
    order.sort_by_key(|&i| table.get(i).map(|s| (s.offset, s.size)));
    let mut at = 0u64;
    for i in order {
        let (Some(s), Some(chunks)) = (table.get(i), prep.segments.get(i)) else { continue };
        // empty segments, and a second entry for a range already written
        // (checked identical before writing), add no bytes
        if s.size == 0 || s.offset.saturating_add(s.size) <= at {
            continue;
        }
        // a stop signal ends a long save between segments
        pte_core::check_interrupted()?;
        write_zeros(w, s.offset.saturating_sub(at))?;
        for c in chunks {
            match c {
                Chunk::Data(d) => data(w, d)?,
                Chunk::Zeros(n) => write_zeros(w, *n)?,
            }
        }
        at = s.offset.saturating_add(s.size);
    }
    // a trailing empty segment still owns its offset: the data runs up to it
    write_zeros(w, data_size.saturating_sub(at))
}
