//! Rewriting a stored `.pte` with some of its layout changed (or none): the
//! one entry point that picks the cheapest correct path. A program the
//! change leaves alone is copied as stored (while it is verified, when
//! nothing changes at all); one it touches is decoded and encoded again.

// The paths a rewrite can take, cheapest first: the stored program copied
// for a file read whole (`copy_stored`) or read with its table left in place
// (`table_in_place`), both over `stored_program`; a program read without its
// plans decoded (`undecoded_plans`); otherwise a full decode and encode.
mod copy_stored;
mod stored_program;
mod table_in_place;
mod undecoded_plans;

use std::fs::File;

use pte_core::MappedFile;
use pte_schema::{Error, ErrorKind, Result};

use crate::options::{ConstantPlacement, DelegatePlacement, SegmentLayout, WriteOptions};
use crate::PteFile;
use undecoded_plans::KeepRewrite;

/// What a rewrite changes in a file's stored layout. The default changes
/// nothing: each field left `None` (or [`DelegatePlacement::Keep`]) keeps
/// what the file shows ([`WriteOptions::matching`]).
///
/// ```
/// use pte_file::{DelegatePlacement, LayoutChange};
/// assert!(LayoutChange::default().is_none());
/// let inline = LayoutChange { delegates: DelegatePlacement::Inline, ..Default::default() };
/// assert!(!inline.is_none());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LayoutChange {
    /// A new segment alignment ([`WriteOptions::with_segment_alignment`]).
    pub segment_alignment: Option<u64>,
    /// A new constant tensor alignment, repacking the constant segment
    /// ([`WriteOptions::with_constant_alignment`]).
    pub constant_alignment: Option<u64>,
    /// A new inline delegate alignment ([`WriteOptions::with_delegate_alignment`]).
    pub delegate_alignment: Option<u64>,
    /// Where delegate blobs go ([`WriteOptions::with_delegates`]).
    pub delegates: DelegatePlacement,
    /// What becomes of legacy inline constants ([`WriteOptions::with_constants`]).
    pub constants: Option<ConstantPlacement>,
    /// A new alignment for constants laid out anew and for inline
    /// `Buffer.storage` ([`WriteOptions::with_tensor_alignment`]).
    pub tensor_alignment: Option<u64>,
    /// [`SegmentLayout::Repack`] places the segments anew, exir's way;
    /// `Keep` (the default) keeps the stored offsets
    /// ([`WriteOptions::with_layout`]).
    pub layout: SegmentLayout,
}

impl LayoutChange {
    /// Whether the change keeps everything as stored.
    ///
    /// ```
    /// let c = pte_file::LayoutChange { segment_alignment: Some(4096), ..Default::default() };
    /// assert!(!c.is_none());
    /// assert!(c.keeps_all_but_segments());
    /// ```
    pub fn is_none(&self) -> bool {
        self.segment_alignment.is_none() && self.layout == SegmentLayout::Keep && self.keeps_all_but_segments()
    }

    /// Whether the change touches nothing but the segment alignment.
    ///
    /// ```
    /// assert!(pte_file::LayoutChange::default().keeps_all_but_segments());
    /// ```
    pub fn keeps_all_but_segments(&self) -> bool {
        self.constant_alignment.is_none()
            && self.tensor_alignment.is_none()
            && self.delegate_alignment.is_none()
            && self.delegates == DelegatePlacement::Keep
            && self.constants.is_none()
    }

    /// `base` with this change applied; fails as the `with_` setters do on
    /// an alignment that is not a power of two or is out of range.
    ///
    /// ```
    /// use pte_file::{LayoutChange, WriteOptions};
    /// let o = LayoutChange { segment_alignment: Some(4096), ..Default::default() }.apply(WriteOptions::default())?;
    /// assert_eq!(o.segment_alignment(), 4096);
    /// assert!(LayoutChange { constant_alignment: Some(3), ..Default::default() }.apply(o).is_err());
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn apply(&self, base: WriteOptions) -> Result<WriteOptions> {
        let mut o = base;
        if let Some(p) = self.constants {
            o = o.with_constants(p);
        }
        if let Some(a) = self.segment_alignment {
            o = o.with_segment_alignment(a)?;
        }
        // before the constant alignment, which sets the tensor alignment too
        if let Some(a) = self.tensor_alignment {
            o = o.with_tensor_alignment(a)?;
        }
        if let Some(a) = self.constant_alignment {
            o = o.with_constant_alignment(a)?;
        }
        if let Some(a) = self.delegate_alignment {
            o = o.with_delegate_alignment(a)?;
        }
        if self.layout == SegmentLayout::Repack {
            o = o.with_layout(SegmentLayout::Repack);
        }
        Ok(o.with_delegates(self.delegates))
    }
}

/// Writes the `.pte` mapped in `source` into `dst` (an empty file, such as
/// the temporary file of [`write_atomically_file`](pte_core::write_atomically_file)
/// or of an [`EditLock`](pte_core::EditLock)) with `change` applied to its
/// stored layout, and returns the bytes written.
///
/// The program is read and verified without decoding its plans where the
/// views allow. When `change` leaves the program as stored, its flatbuffer
/// is copied byte for byte (beside the verification, on a second core, when
/// nothing changes) and only the `eh00` header is refreshed; segment bytes
/// go file to file through the kernel. Otherwise the program is decoded and
/// written anew. Either way the output reads back as the same program and
/// segments as the input, laid out as `change` says; with no change it is
/// the input byte for byte when the input's segment base is where its own
/// segment alignment puts it.
///
/// A file that does not read fails with the reader's error (never an
/// [`ErrorKind::Io`] one); `dst` may then hold part of a copy.
///
/// ```
/// let src = pte_testkit::corpus("linear/model.pte");
/// let map = pte_file::MappedFile::open(&src)?;
/// let dir = tempfile::tempdir()?;
/// let out = dir.path().join("copy.pte");
/// let n = pte_file::write_atomically_file(&out, |dst| {
///     pte_file::rewrite(&map, dst, &pte_file::LayoutChange::default())
/// })?;
/// assert_eq!(std::fs::read(&out)?, std::fs::read(src)?);
/// assert_eq!(n, map.bytes().len() as u64);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn rewrite(source: &MappedFile, dst: &File, change: &LayoutChange) -> Result<u64> {
    let bytes = source.bytes();
    let Some(file) = source.file() else {
        // an empty mapping has no file handle; it is no program either
        return Err(KeepRewrite::from_bytes(bytes).err().unwrap_or_else(|| {
            Error::new(ErrorKind::InvalidUse, "the mapped file has no handle to copy segment bytes from")
        }));
    };
    if change.is_none() {
        let read = KeepRewrite::read_prefilling(bytes, file, dst)?;
        let options = read.read().matching_options();
        if let Some(n) = read.finish(&options)? {
            return Ok(n);
        }
        return PteFile::from_bytes(bytes)?.write_keeping_program(dst, &options, file, bytes);
    }
    let stored = KeepRewrite::from_bytes(bytes)?;
    let options = change.apply(stored.matching_options())?;
    if let Some(n) = stored.write_keeping_program(dst, &options, file)? {
        return Ok(n);
    }
    PteFile::from_bytes(bytes)?.write_keeping_program(dst, &options, file, bytes)
}
