//! Integration tests of pte-pack, one binary: manifests and stored layouts.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs
)]

mod manifest;
mod stored_layout;
