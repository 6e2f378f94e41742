//! A `.pte` read for a rewrite. A rewrite that keeps the program copies the
//! stored flatbuffer, so it needs the program verified, its segment table and
//! the positions of its inline delegate data, not its plans decoded into the
//! model. When a few checks over the views show the decoding read would
//! succeed, that read is skipped; otherwise it runs, and its errors are the
//! ones reported, so a file fails a rewrite exactly as before.

use std::borrow::Cow;
use std::fs::File;

use pte_schema::{BackendDelegateInlineData, Limits, Program, ProgramView, Result};

use super::sparse::SparsePte;
use crate::read::{program_region, ReadOptions};
use crate::{PteFile, WriteOptions};

/// A `.pte` read for [`KeepRewrite::write_keeping_program`].
///
/// ```
/// let src = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/deep_program/model.pte");
/// let map = pte_file::MappedFile::open(src)?;
/// let read = pte_file::KeepRewrite::from_bytes(map.bytes())?;
/// assert!(!read.decoded()); // a sound program is copied, never decoded
/// let dst = tempfile::tempfile()?;
/// let n = read.write_keeping_program(&dst, &read.matching_options(), &std::fs::File::open(src)?)?;
/// assert_eq!(n, Some(std::fs::metadata(src)?.len()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct KeepRewrite<'a> {
    sparse: SparsePte<'a>,
    decoded: bool,
}

impl<'a> KeepRewrite<'a> {
    /// Reads `bytes` with default limits; fails exactly where
    /// [`SparsePte::from_bytes`] fails, with the same error.
    ///
    /// ```
    /// assert!(pte_file::KeepRewrite::from_bytes(b"short").is_err());
    /// ```
    pub fn from_bytes(bytes: &'a [u8]) -> Result<Self> {
        let options = ReadOptions::default();
        if let Some(sparse) = light(bytes, &options.limits)? {
            return Ok(KeepRewrite { sparse, decoded: false });
        }
        Ok(KeepRewrite { sparse: SparsePte::from_bytes_with(bytes, &options)?, decoded: true })
    }

    /// Whether the plans were decoded (the views found something only the
    /// decoding read can judge).
    ///
    /// ```
    /// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte"))?;
    /// assert!(!pte_file::KeepRewrite::from_bytes(&bytes)?.decoded());
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn decoded(&self) -> bool {
        self.decoded
    }

    /// [`WriteOptions::matching`] the stored file: the alignments it shows.
    ///
    /// ```
    /// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte"))?;
    /// let read = pte_file::KeepRewrite::from_bytes(&bytes)?;
    /// let full = pte_file::PteFile::from_bytes(&bytes)?;
    /// assert_eq!(read.matching_options(), pte_file::WriteOptions::matching(&full, &bytes));
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn matching_options(&self) -> WriteOptions {
        WriteOptions::matching(&self.sparse.file, self.sparse.bytes)
    }

    /// [`SparsePte::write_keeping_program`]: the stored program and its
    /// segments, or `Ok(None)` when `options` change the program.
    ///
    /// ```
    /// let src = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/linear/model.pte");
    /// let bytes = std::fs::read(src)?;
    /// let read = pte_file::KeepRewrite::from_bytes(&bytes)?;
    /// let moved = read.matching_options().with_delegates(pte_file::DelegatePlacement::Inline);
    /// let dst = tempfile::tempfile()?;
    /// assert_eq!(read.write_keeping_program(&dst, &moved, &std::fs::File::open(src)?)?, None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write_keeping_program(&self, dst: &File, options: &WriteOptions, source: &File) -> Result<Option<u64>> {
        self.sparse.write_keeping_program(dst, options, source)
    }
}

/// A [`SparsePte`] without decoded plans (its program holds the inline
/// delegate data only, all the keep-layout writer reads), when the views
/// show that [`SparsePte::from_bytes_with`] would succeed: `Ok(None)` when
/// they find anything it might refuse. Errors are those of its first steps.
fn light<'a>(bytes: &'a [u8], limits: &Limits) -> Result<Option<SparsePte<'a>>> {
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
    Ok(Some(SparsePte { file: PteFile { program, segments: vec![] }, view, bytes, base, kept: vec![] }))
}
