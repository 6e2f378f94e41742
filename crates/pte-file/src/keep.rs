//! The rewrite that keeps the program as stored: when the options change
//! nothing in the program table, its flatbuffer is copied byte for byte (the
//! `eh00` header refreshed in place) instead of being decoded and re-encoded,
//! so a program-heavy file rewrites at copy speed.

use std::borrow::Cow;
use std::io::Write;
use std::path::Path;

use pte_schema::Result;

use crate::pte::stored_program::StoredProgram;
use crate::transform::Prepared;
use crate::write::{copy_from, data_size, write_segments};
use crate::{PteFile, WriteOptions};

impl PteFile<'_> {
    /// Like [`PteFile::save_copying_from`], but when `options` change nothing
    /// in the program (no constant repacking, delegates left where they are,
    /// segments at their stored offsets, the stored alignments), the program
    /// flatbuffer of `source_bytes` is copied as stored, with only its
    /// `eh00` header updated, instead of being re-encoded. Otherwise it is
    /// [`PteFile::save_copying_from`].
    ///
    /// `self` must be what [`PteFile::from_bytes`] read from `source_bytes`,
    /// unchanged: on the copying path the stored program is what is written.
    /// The output then reads back as the same program and segments as the
    /// input, byte-identical to it when the input's segment base is where the
    /// options' segment alignment puts it.
    ///
    /// ```
    /// let src = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/linear/model.pte");
    /// let map = pte_file::MappedFile::open(src)?;
    /// let pte = pte_file::PteFile::from_bytes(map.bytes())?;
    /// let o = pte_file::WriteOptions::matching(&pte, map.bytes());
    /// let dir = tempfile::tempdir()?;
    /// let out = dir.path().join("copy.pte");
    /// pte.save_keeping_program(&out, &o, &std::fs::File::open(src)?, map.bytes())?;
    /// assert_eq!(std::fs::read(&out)?, std::fs::read(src)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn save_keeping_program(
        &self,
        path: impl AsRef<Path>,
        options: &WriteOptions,
        source: &std::fs::File,
        source_bytes: &[u8],
    ) -> Result<u64> {
        pte_core::write_atomically_file(path.as_ref(), |dst| {
            self.write_keeping_program(dst, options, source, source_bytes)
        })
    }

    /// Writes into `dst` what [`PteFile::save_keeping_program`] saves, for
    /// callers that own the save (an in-place edit under an
    /// [`EditLock`](pte_core::EditLock)); returns the bytes written.
    ///
    /// ```
    /// let src = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/linear/model.pte");
    /// let map = pte_file::MappedFile::open(src)?;
    /// let pte = pte_file::PteFile::from_bytes(map.bytes())?;
    /// let o = pte_file::WriteOptions::matching(&pte, map.bytes());
    /// let dst = tempfile::tempfile()?;
    /// let n = pte.write_keeping_program(&dst, &o, &std::fs::File::open(src)?, map.bytes())?;
    /// assert_eq!(n, std::fs::metadata(src)?.len());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write_keeping_program(
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
