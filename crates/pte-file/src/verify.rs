//! The verifier (filled in below).
pub use crate::read::program_region;
