//! A `.pte` read for a rewrite. A rewrite that keeps the program copies the
//! stored flatbuffer, so it needs the program verified, its segment table and
//! the positions of its inline delegate data, not its plans decoded into the
//! model. When a few checks over the views show the decoding read would
//! succeed, that read is skipped; otherwise it runs, and its errors are the
//! ones reported, so a file fails a rewrite exactly as before.

use std::borrow::Cow;
use std::fs::File;
use std::sync::atomic::{AtomicBool, Ordering};

use pte_schema::{BackendDelegateInlineData, Error, ErrorKind, Limits, Program, ProgramView, Result};

use super::stored_program::StoredProgram;
use crate::read::{program_region, ReadOptions};
use crate::sparse::SparsePte;
use crate::{PteFile, WriteOptions};

/// A `.pte` read for [`KeepRewrite::write_keeping_program`].
pub(crate) struct KeepRewrite<'a> {
    sparse: SparsePte<'a>,
    /// Whether the plans were decoded; tests hold sound programs to `false`.
    #[cfg_attr(not(test), allow(dead_code))]
    decoded: bool,
}

impl<'a> KeepRewrite<'a> {
    /// Reads `bytes` with default limits; fails exactly where
    /// [`SparsePte::from_bytes`] fails, with the same error.
    pub(crate) fn from_bytes(bytes: &'a [u8]) -> Result<Self> {
        let options = ReadOptions::default();
        if let Some(sparse) = read_without_plans(bytes, &options.limits)? {
            return Ok(KeepRewrite { sparse, decoded: false });
        }
        Ok(KeepRewrite { sparse: SparsePte::from_bytes_with(bytes, &options)?, decoded: true })
    }

    /// [`KeepRewrite::from_bytes`] of `bytes` (mapped from `source`) for a
    /// rewrite into `dst`, an empty file: while the program is verified, a
    /// second thread copies its flatbuffer into `dst` where a keep-layout
    /// write puts it (when the flatbuffer is large and there is a second
    /// core), so the copy costs no time of its own. Fails only as
    /// [`KeepRewrite::from_bytes`] fails (then `dst` may hold part of the
    /// copy); an error of the copy, a write to `dst`, is returned by
    /// [`PrefilledRewrite::finish`] with the other errors of the write.
    pub(crate) fn read_prefilling<'f>(
        bytes: &'a [u8],
        source: &'f File,
        dst: &'f File,
    ) -> Result<PrefilledRewrite<'a, 'f>> {
        let stored = StoredProgram::split(bytes).ok().flatten().filter(|p| p.tail_len() >= PREFILL_MIN);
        let two_cores = || std::thread::available_parallelism().is_ok_and(|n| n.get() > 1);
        let Some(stored) = stored.filter(|_| two_cores()) else {
            return Ok(PrefilledRewrite { read: Self::from_bytes(bytes)?, dst, source, copy: Ok(false) });
        };
        let stop = AtomicBool::new(false);
        let (read, copied) = std::thread::scope(|s| {
            let copier = std::thread::Builder::new()
                .name("pte-prefill".into())
                .spawn_scoped(s, || stored.prefill(dst, (source, bytes), &stop));
            let read = Self::from_bytes(bytes);
            if read.is_err() {
                // the copy is wasted: stop it rather than wait for all of it
                stop.store(true, Ordering::Relaxed);
            }
            (read, copier.ok().map(|c| c.join()))
        });
        let read = read?;
        let copy = match copied {
            // no thread, no copy: the write then copies the program itself
            None => Ok(false),
            // stopped only when the read failed, so never here; were it, the
            // part copied could not be written around
            Some(Ok(Ok(false))) => Err(Error::new(ErrorKind::Io, "the copy of the program stopped part way")),
            Some(Ok(copy)) => copy,
            Some(Err(_)) => Err(Error::new(ErrorKind::Io, "the thread copying the program panicked")),
        };
        Ok(PrefilledRewrite { read, dst, source, copy })
    }

    /// Whether the plans were decoded (the views found something only the
    /// decoding read can judge).
    #[cfg(test)]
    pub(crate) fn decoded(&self) -> bool {
        self.decoded
    }

    /// [`WriteOptions::matching`] the stored file: the alignments it shows.
    pub(crate) fn matching_options(&self) -> WriteOptions {
        WriteOptions::matching(&self.sparse.file, self.sparse.bytes)
    }

    /// [`SparsePte::write_keeping_program`]: the stored program and its
    /// segments, or `Ok(None)` when `options` change the program.
    pub(crate) fn write_keeping_program(
        &self,
        dst: &File,
        options: &WriteOptions,
        source: &File,
    ) -> Result<Option<u64>> {
        self.sparse.write_keeping_program(dst, options, source)
    }
}

/// Smallest program flatbuffer whose copy is worth a thread of its own
/// beside the program's verification: below it, starting the thread costs
/// about what the copy does.
const PREFILL_MIN: usize = 512 << 10;

/// A [`KeepRewrite`] whose program flatbuffer was copied into the output
/// while the program was verified ([`KeepRewrite::read_prefilling`]); the
/// output is bound to it, so the rest of the file can only be written
/// around that copy.
pub(crate) struct PrefilledRewrite<'a, 'f> {
    read: KeepRewrite<'a>,
    dst: &'f File,
    source: &'f File,
    /// Whether the program is in `dst`, or why the copy failed.
    copy: Result<bool>,
}

impl<'a> PrefilledRewrite<'a, '_> {
    /// The read, for the options of the write.
    pub(crate) fn read(&self) -> &KeepRewrite<'a> {
        &self.read
    }

    /// Writes the rest of the file, as [`KeepRewrite::write_keeping_program`]
    /// does. `Ok(None)` when `options` change the program: the output is
    /// then emptied again (length 0, position 0), ready for another writer.
    /// Fails with the copy's error when the copy beside the read failed.
    pub(crate) fn finish(self, options: &WriteOptions) -> Result<Option<u64>> {
        let prefilled = self.copy?;
        let written = self.read.sparse.write_keeping(self.dst, options, self.source, prefilled)?;
        if written.is_none() && prefilled {
            empty(self.dst)?;
        }
        Ok(written)
    }
}

/// Empties `dst` and puts its position back at the start.
fn empty(dst: &File) -> Result<()> {
    use std::io::{Seek, SeekFrom};
    dst.set_len(0)?;
    let mut at = dst;
    at.seek(SeekFrom::Start(0))?;
    Ok(())
}

/// A [`SparsePte`] without decoded plans (its program holds the inline
/// delegate data only, all the keep-layout writer reads), when the views
/// show that [`SparsePte::from_bytes_with`] would succeed: `Ok(None)` when
/// they find anything it might refuse. Errors are those of its first steps.
fn read_without_plans<'a>(bytes: &'a [u8], limits: &Limits) -> Result<Option<SparsePte<'a>>> {
    let (header, region) = program_region(bytes)?;
    let view = ProgramView::new(region, limits)?;
    if !SparsePte::would_read(bytes, &view, limits) {
        return Ok(None);
    }
    let base = header.map_or(0, |h| h.segment_base_offset);
    let inline = view.inline_delegate_count().map(|n| {
        (0..n)
            .map(|i| BackendDelegateInlineData { data: view.inline_delegate_data(i).flatten().map(Cow::Borrowed) })
            .collect()
    });
    let program = Program { backend_delegate_data: inline, ..Program::default() };
    Ok(Some(SparsePte { file: PteFile::new(program, vec![]), view, bytes, base }))
}

#[cfg(test)]
#[path = "undecoded_plans_tests.rs"]
#[allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]
mod tests;
