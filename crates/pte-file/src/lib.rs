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
//! The crate is laid out one folder per format, plus the verifier:
//!
//! * `pte/`: [`PteFile`], [`WriteOptions`], [`PteParts`] (the program);
//! * [`ptd`]: `.ptd` tensor-data files, and [`external`], the link between a
//!   program's EXTERNAL tensors and them (externalize, internalize);
//! * [`bpte`]: bundled programs, which embed a `.pte`;
//! * [`verify`]: the load rules of all three;
//! * [`memory`]: a program's memory plan (buffers, tensors, lifetimes).
//! * [`operators`]: the operators and delegates each method calls, and the
//!   selected-operators file of ExecuTorch's selective build.
//!
//! It does not own the schemas (`pte-schema`), the header and segment
//! arithmetic (`pte-segments`), errors, maps and saves (`pte-core`), or `.ptn`
//! packages (`pte-ptn`, a format of its own beside this one).
//!
//! ```
//! use pte_file::{PteFile, WriteOptions};
//! let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/linear/model.pte"))?;
//! let pte = PteFile::from_bytes(&bytes)?;
//! assert_eq!(pte.constants()?.len(), 3); // placeholder, weight, bias
//! let out = pte.to_bytes(&WriteOptions::default())?;
//! assert_eq!(PteFile::from_bytes(&out)?, pte);
//! # Ok::<(), pte_file::Error>(())
//! ```

#![forbid(unsafe_code)]

pub mod bpte;
pub mod delegate_payload;
mod exir_view;
mod keep;
pub mod memory;
mod naming;
pub mod operators;
pub mod pack;
pub mod ptd;
mod pte;
pub mod size;
pub mod verify;

// The aggregate's modules keep their short crate paths (`crate::read`).
use pte::{access, build, options, read, transform, write};

pub use ptd::external;

pub use access::{ConstantRef, DelegateBlob, NamedBlob};
pub use build::{NamedEntry, PteParts};
pub use exir_view::exir_program;
pub use options::{ConstantPlacement, DelegatePlacement, SegmentLayout, WriteOptions};
pub use pte::keep_rewrite::{KeepRewrite, PrefilledRewrite};
pub use pte::sparse::SparsePte;
pub use pte::tensors::{tensor_label, TensorEntry, TensorStorage, Unnamed};
pub use pte_core::{write_atomically, write_atomically_file, EditLock, LockWait};
pub use pte_schema::MappedFile;
pub use pte_schema::{Bytes, Error, ErrorKind, Limits, Result};
pub use read::ReadOptions;
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
