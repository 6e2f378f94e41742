//! Segment layout of ExecuTorch files.
//!
//! * [`ExtendedHeader`]: the `eh00` header at byte 8 of a `.pte` (parse every
//!   variant in the wild, write the 32-byte form).
//! * [`align`]: checked alignment, padding and lcm arithmetic.
//! * [`layout`]: where segments and sub-buffers go (exir's rules).
//! * [`ranges`]: bounds-checked access to a segment's bytes.
//!
//! It owns header and layout arithmetic only, and depends on nothing but
//! `pte-core`: it never looks inside
//! a program flatbuffer.
//!
//! ```
//! use pte_segments::{layout::plan_segments, SegmentSpec};
//! let plan = plan_segments(&[SegmentSpec::new(60, 1), SegmentSpec::new(10, 256)], 128).unwrap();
//! assert_eq!(plan.offsets, vec![0, 256]);
//! assert_eq!(plan.data_size, 266);
//! ```

#![forbid(unsafe_code)]

pub mod align;
mod flat_header;
mod header;
pub mod layout;
pub mod ranges;

pub use flat_header::{FlatTensorHeader, FLAT_HEADER_LENGTH, FLAT_HEADER_MAGIC};
pub use header::{ExtendedHeader, HEADER_MAGIC, HEADER_OFFSET, HEADER_WRITTEN_LENGTH, MIN_HEADER_LENGTH};
pub use layout::SegmentSpec;
pub use pte_core::{Error, ErrorKind, Result};
