//! The `.pte` aggregate: a program plus every byte of its segments.
//!
//! [`PteFile`] keeps the program exactly as stored (its segment table,
//! constant and mutable sub-segment offsets, named data and delegate
//! references) and the bytes of each segment, borrowed from the input. Reading
//! then writing with default options keeps every segment byte and every
//! offset relative to the segment base; explicit [`WriteOptions`] repack the
//! segments, change the constant or inline alignment, or move delegate blobs
//! between the flatbuffer and segments.
//!
//! The crate reads, writes and transforms the three flatbuffer formats:
//!
//! * [`PteFile`], [`WriteOptions`], [`PteParts`]: the program, read whole,
//!   built from parts, written with any layout; [`rewrite`] picks the
//!   cheapest path for a layout change of a stored file;
//! * [`ptd`]: `.ptd` tensor-data files, and [`external`], the link between a
//!   program's EXTERNAL tensors and them (externalize, internalize);
//! * [`bpte`]: bundled programs, which embed a `.pte`;
//! * [`view`]: [`PteView`], a program read in place (no decoded model), with
//!   the meaning the `PteFile` accessors give its parts;
//! * [`rules`]: every load rule of the three formats, named, with the
//!   runtime's error code.
//!
//! It does not own the schemas (`pte-schema`), the header and segment
//! arithmetic (`pte-segments`), errors, maps and saves (`pte-core`), the
//! verifier (`pte-verify`), the answers about a file (`pte-analysis`: size,
//! memory plan, operators, delegate payloads), extract and pack
//! (`pte-pack`), or `.ptn` packages (`pte-ptn`).
//!
//! ```
//! use pte_file::{PteFile, WriteOptions};
//! let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
//! let pte = PteFile::from_bytes(&bytes)?;
//! assert_eq!(pte.constants()?.len(), 3); // placeholder, weight, bias
//! let out = pte.to_bytes(&WriteOptions::default())?;
//! assert_eq!(PteFile::from_bytes(&out)?, pte);
//! # Ok::<(), pte_file::Error>(())
//! ```

#![forbid(unsafe_code)]

mod access;
pub mod bpte;
mod build;
mod exir_view;
mod exir_write;
mod naming;
mod options;
pub mod ptd;
mod read;
mod rewrite;
pub mod rules;
mod sparse;
mod tensors;
#[cfg(any(test, feature = "test-programs"))]
#[doc(hidden)]
pub mod test_programs;
mod transform;
pub mod view;
mod write;

pub use ptd::external;

pub use access::{ConstantRef, DelegateBlob, NamedBlob};
pub use build::{NamedEntry, PteParts};
pub use exir_view::{exir_program, exir_restore, exir_segment_base, ExirData, ExirJson};
pub use exir_write::{exir_serialize, ExirFile, ExirNamed, ExirOptions, ExirParts};
pub use options::{ConstantPlacement, DelegatePlacement, SegmentLayout, WriteOptions, MAX_SEGMENT_ALIGNMENT};
pub use pte_core::{write_atomically, write_atomically_file, EditLock, LockWait};
pub use pte_schema::MappedFile;
pub use pte_schema::{Bytes, Error, ErrorKind, Limits, Result};
pub use read::{program_region, ReadOptions};
pub use rewrite::{rewrite, LayoutChange};
pub(crate) use sparse::SparsePte;
pub use tensors::{tensor_label, TensorEntry, TensorStorage, Unnamed};
pub use view::PteView;
pub use write::splice_flatbuffer;

use pte_schema::Program;

/// A `.pte` program with the bytes of every segment it lists.
///
/// Read one with [`PteFile::from_bytes`] or, from a memory map,
/// [`PteFile::from_map`]; build one with [`PteFile::new`] or [`PteParts`];
/// write it with [`PteFile::write_to`], [`PteFile::to_bytes`] or
/// [`PteFile::save`]. Two files are equal when their programs and segment
/// bytes are, wherever they were read from.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct PteFile<'a> {
    /// The program as stored, segment table and references included.
    pub program: Program<'a>,
    /// The bytes of `program.segments[i]`, one entry per segment-table entry.
    pub segments: Vec<Bytes<'a>>,
    /// The mapped file this was read from, if any: saving copies the segment
    /// bytes that lie in it file to file instead of through user space.
    origin: Origin<'a>,
}

/// Where a [`PteFile`] was read from; it takes no part in equality.
#[derive(Clone, Copy, Default)]
struct Origin<'a>(pub(crate) Option<&'a MappedFile>);

impl PartialEq for Origin<'_> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for Origin<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() { "Mapped" } else { "Unmapped" })
    }
}

impl<'a> PteFile<'a> {
    /// A file of `program` with `segments[i]` the bytes of the program's
    /// segment-table entry `i`.
    ///
    /// ```
    /// let pte = pte_file::PteFile::new(Default::default(), vec![]);
    /// assert_eq!(pte, pte_file::PteFile::default());
    /// ```
    pub fn new(program: Program<'a>, segments: Vec<Bytes<'a>>) -> Self {
        PteFile { program, segments, origin: Origin::default() }
    }

    /// Copies every borrowed byte so the file no longer borrows its input.
    ///
    /// ```
    /// let owned: pte_file::PteFile<'static> = pte_file::PteFile::default().into_owned();
    /// assert!(owned.segments.is_empty());
    /// ```
    pub fn into_owned(self) -> PteFile<'static> {
        PteFile::new(
            self.program.into_owned(),
            self.segments.into_iter().map(|s| Bytes::Owned(s.into_owned())).collect(),
        )
    }
}
