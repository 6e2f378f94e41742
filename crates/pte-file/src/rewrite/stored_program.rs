//! What the two keep-program rewrites ([`crate::PteFile`] and
//! [`crate::SparsePte`]) share: the stored program flatbuffer is written back
//! as it is, only its `eh00` header refreshed, then padded to the segment
//! base. Keeping one copy keeps their outputs byte-identical to each other.

use std::fs::File;
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use pte_schema::{Error, ErrorKind, Result};
use pte_segments::{ExtendedHeader, HEADER_OFFSET, HEADER_WRITTEN_LENGTH};

use crate::read::program_region;
use crate::write::{copy_from, write_zeros};

/// Bytes [`StoredProgram::prefill`] copies between two looks at its stop
/// flag: a few milliseconds of copying.
const PREFILL_PIECE: usize = 4 << 20;

/// Bytes of the `eh00` header this crate writes (and exir writes).
const HEADER_LEN: usize = HEADER_WRITTEN_LENGTH as usize;

/// The program region of a stored file, cut around its `eh00` header.
pub(crate) struct StoredProgram<'a> {
    /// The header as stored.
    header: ExtendedHeader,
    /// The bytes before the header.
    head: &'a [u8],
    /// The bytes after a header of [`HEADER_LEN`] bytes, to the program's end.
    tail: &'a [u8],
    /// Bytes of the whole region, header included.
    size: u64,
}

impl<'a> StoredProgram<'a> {
    /// The program region of `bytes` cut around its header; `None` when it
    /// has no header or is too short to hold one, as then there is no header
    /// to refresh and the program cannot be kept.
    pub(crate) fn split(bytes: &'a [u8]) -> Result<Option<Self>> {
        let (header, region) = program_region(bytes)?;
        let end = HEADER_OFFSET.saturating_add(HEADER_LEN);
        let (Some(header), Some(head), Some(tail)) = (header, region.get(..HEADER_OFFSET), region.get(end..)) else {
            return Ok(None);
        };
        Ok(Some(Self { header, head, tail, size: region.len() as u64 }))
    }

    /// Whether the stored header is as long as the one written in its place:
    /// any other length would shift the flatbuffer behind it.
    pub(crate) fn header_fits(&self) -> bool {
        usize::try_from(self.header.length).ok() == Some(HEADER_LEN)
    }

    /// Bytes of the flatbuffer behind the header, copied as they are.
    pub(crate) fn tail_len(&self) -> usize {
        self.tail.len()
    }

    /// Copies the flatbuffer behind the header into `dst` where
    /// [`StoredProgram::write_prologue`] puts it, so that copy can run before
    /// the rest of the file is known (while the program is verified).
    /// Checks `stop` between pieces: a program that fails verification
    /// early must not cost a copy of all of it. Returns whether it copied
    /// everything.
    pub(crate) fn prefill(&self, dst: &File, (source, bytes): (&File, &[u8]), stop: &AtomicBool) -> Result<bool> {
        let mut at = dst;
        at.seek(SeekFrom::Start(self.tail_offset()))?;
        let mut w = BufWriter::with_capacity(1 << 16, dst);
        for piece in self.tail.chunks(PREFILL_PIECE) {
            if stop.load(Ordering::Relaxed) {
                return Ok(false);
            }
            copy_from(source, bytes, &mut w, piece)?;
        }
        w.flush()?;
        Ok(true)
    }

    fn tail_offset(&self) -> u64 {
        self.head.len().saturating_add(HEADER_LEN) as u64
    }

    /// Writes the program with a header for `data_size` bytes of segment
    /// data at the next `segment_alignment` boundary, and the zeros up to
    /// that boundary. Returns the writer, positioned at the segment base,
    /// and the size the whole file will have. The flatbuffer is copied from
    /// `source` (the file `bytes` maps) by the kernel, as segments are: most
    /// of a program-heavy file is its program. With `prefilled`, it is in
    /// `dst` already ([`StoredProgram::prefill`]) and only the bytes around
    /// it are written.
    pub(crate) fn write_prologue<'f>(
        &self,
        dst: &'f File,
        (source, bytes): (&File, &[u8]),
        segment_alignment: u64,
        data_size: u64,
        prefilled: bool,
    ) -> Result<(BufWriter<&'f File>, u64)> {
        let limit = |what: &str| Error::new(ErrorKind::LimitExceeded, format!("{what} overflows"));
        let base = pte_segments::align::aligned(self.size, segment_alignment).ok_or_else(|| limit("segment base"))?;
        let file_size = base.checked_add(data_size).ok_or_else(|| limit("file size"))?;
        let new_header = ExtendedHeader::new(self.size, base, data_size).to_bytes();
        let mut w = BufWriter::with_capacity(1 << 20, dst);
        if prefilled {
            w.seek(SeekFrom::Start(0))?;
        }
        w.write_all(self.head)?;
        w.write_all(&new_header)?;
        if prefilled {
            w.seek(SeekFrom::Start(self.tail_offset().saturating_add(self.tail.len() as u64)))?;
        } else {
            copy_from(source, bytes, &mut w, self.tail)?;
        }
        write_zeros(&mut w, base.saturating_sub(self.size))?;
        Ok((w, file_size))
    }
}

/// Copies `bytes` (a map of `source`) into `dst` when the file is a bare
/// program, with no `eh00` header and no segment data (`data_size` 0): it
/// is then its flatbuffer alone, which both keep-program rewrites copy as
/// stored rather than encode again (its writer may have laid it out
/// otherwise than an encoder would). `Ok(None)`, with nothing written, for
/// any other file.
pub(crate) fn copy_if_bare(dst: &File, (source, bytes): (&File, &[u8]), data_size: u64) -> Result<Option<u64>> {
    if data_size != 0 || ExtendedHeader::parse(bytes)?.is_some() {
        return Ok(None);
    }
    let mut w = BufWriter::with_capacity(1 << 20, dst);
    copy_from(source, bytes, &mut w, bytes)?;
    w.flush()?;
    Ok(Some(bytes.len() as u64))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::arithmetic_side_effects)]

    use std::io::{Read, Seek, Write};
    use std::sync::atomic::AtomicBool;

    use super::*;

    /// A stored program of `size` bytes whose flatbuffer bytes count up.
    fn stored(size: usize) -> Vec<u8> {
        let mut bytes: Vec<u8> = (0..size).map(|i| (i % 251) as u8).collect();
        bytes[4..8].copy_from_slice(b"ET12");
        let header = ExtendedHeader::new(size as u64, size as u64, 0).to_bytes();
        bytes[8..8 + header.len()].copy_from_slice(&header);
        bytes
    }

    #[test]
    fn the_copy_puts_the_flatbuffer_where_the_write_leaves_room_for_it() {
        let bytes = stored(3 * PREFILL_PIECE + 77);
        let mut source = tempfile::tempfile().unwrap();
        source.write_all(&bytes).unwrap();
        let program = StoredProgram::split(&bytes).unwrap().unwrap();
        let mut dst = tempfile::tempfile().unwrap();
        assert!(program.prefill(&dst, (&source, &bytes), &AtomicBool::new(false)).unwrap());
        let mut out = vec![];
        dst.rewind().unwrap();
        dst.read_to_end(&mut out).unwrap();
        assert_eq!(out.len(), bytes.len());
        assert_eq!(out[..40], [0; 40]);
        assert_eq!(out[40..], bytes[40..]);
    }

    #[test]
    fn a_stopped_copy_copies_nothing_more() {
        let bytes = stored(3 * PREFILL_PIECE);
        let mut source = tempfile::tempfile().unwrap();
        source.write_all(&bytes).unwrap();
        let program = StoredProgram::split(&bytes).unwrap().unwrap();
        let dst = tempfile::tempfile().unwrap();
        assert!(!program.prefill(&dst, (&source, &bytes), &AtomicBool::new(true)).unwrap());
        assert_eq!(dst.metadata().unwrap().len(), 0);
    }
}
