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
//! ```
//! use pte_file::{PteFile, WriteOptions};
//! let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/corpus/linear/model.pte"))?;
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
pub mod external;
pub mod fuzzing;
mod naming;
mod options;
pub mod ptd;
mod read;
mod save;
mod transform;
pub mod verify;
mod verify_bpte;
mod verify_ptd;
mod write;

pub use access::{ConstantRef, DelegateBlob, NamedBlob};
pub use build::{NamedEntry, PteParts};
pub use options::{ConstantPlacement, DelegatePlacement, SegmentLayout, WriteOptions};
pub use pte_schema::MappedFile;
pub use pte_schema::{Bytes, Error, ErrorKind, Limits, Result};
pub use read::ReadOptions;
pub use save::{write_atomically, write_atomically_file};
pub use write::splice_flatbuffer;

use pte_schema::Program;

/// A `.pte` program with the bytes of every segment it lists.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct PteFile<'a> {
    /// The program as stored, segment table and references included.
    pub program: Program<'a>,
    /// The bytes of `program.segments[i]`, one entry per segment-table entry.
    pub segments: Vec<Bytes<'a>>,
}

impl PteFile<'_> {
    /// Copies every borrowed byte so the file no longer borrows its input.
    ///
    /// ```
    /// let owned: pte_file::PteFile<'static> = pte_file::PteFile::default().into_owned();
    /// assert!(owned.segments.is_empty());
    /// ```
    pub fn into_owned(self) -> PteFile<'static> {
        PteFile {
            program: self.program.into_owned(),
            segments: self.segments.into_iter().map(|s| Bytes::Owned(s.into_owned())).collect(),
        }
    }
}
