//! The rewrite that keeps the program as stored: when the options change
//! nothing in the program table, its flatbuffer is copied byte for byte (the
//! `eh00` header refreshed in place) instead of being decoded and re-encoded,
//! so a program-heavy file rewrites at copy speed.

use std::borrow::Cow;
use std::io::Write;

use pte_schema::Result;

use super::stored_program::{copy_if_bare, StoredProgram};
use crate::transform::Prepared;
use crate::write::{copy_from, data_size, write_segments};
use crate::{PteFile, WriteOptions};

impl PteFile<'_> {
    /// Writes into `dst` the file read from `source_bytes` (a map of
    /// `source`): when `options` change nothing in the program (no constant
    /// repacking, delegates left where they are, segments at their stored
    /// offsets, the stored alignments), the stored program flatbuffer is
    /// copied with only its `eh00` header updated instead of being
    /// re-encoded (a bare program, [`copy_if_bare`], is copied whole);
    /// otherwise the file is written anew. `self` must be what
    /// [`PteFile::from_bytes`] read from `source_bytes`, unchanged.
    pub(crate) fn write_keeping_program(
        &self,
        dst: &std::fs::File,
        options: &WriteOptions,
        source: &std::fs::File,
        source_bytes: &[u8],
    ) -> Result<u64> {
        let prep = Prepared::new(self, options)?;
        let program = StoredProgram::split(source_bytes)?;
        let data_size = data_size(&prep)?;
        let stored = WriteOptions::matching(self, source_bytes);
        let unchanged = matches!(prep.program, Cow::Borrowed(_))
            && options.tensor_alignment() == stored.tensor_alignment()
            && options.delegate_alignment() == stored.delegate_alignment();
        if unchanged && let Some(n) = copy_if_bare(dst, (source, source_bytes), data_size)? {
            return Ok(n);
        }
        let (true, Some(program), true) = (unchanged, program.filter(StoredProgram::header_fits), data_size > 0) else {
            return self.write_copying_from(dst, options, source, source_bytes);
        };
        let (mut w, file_size) =
            program.write_prologue(dst, (source, source_bytes), options.segment_alignment(), data_size, false)?;
        let mut copy = |w: &mut std::io::BufWriter<&std::fs::File>, d: &[u8]| copy_from(source, source_bytes, w, d);
        write_segments(&mut w, &prep, data_size, &mut copy)?;
        w.flush()?;
        Ok(file_size)
    }
}
