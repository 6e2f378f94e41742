//! Integration tests of pte-core, one binary: inputs and the one save path.
//! (`lock.rs` is a binary of its own: see why at its top.)

#![cfg(unix)]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs
)]

mod folder;
mod input;
mod interrupt;
mod save;
