//! The flatc-compatible JSON form of a program: written from the model
//! (`write`) or streamed from a verified buffer (`stream`), and read back
//! (`read`, which also reads a `.ptd`'s tables: they share the program's
//! segment and scalar-type vocabulary).

pub(crate) mod read;
pub(crate) mod stream;
pub(crate) mod write;
