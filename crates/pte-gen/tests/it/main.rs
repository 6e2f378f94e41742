//! Integration tests of pte-gen, one binary: the corruption catalogue, the
//! structured generator and the hostile packages.

#![allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing, missing_docs)]

mod catalogue;
mod generate;
mod hostile_packages;
mod shrink;
mod suite;
