//! Integration tests of pte-fuzz-bodies, one binary: a seeded smoke test of
//! every fuzz body.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs
)]

mod smoke;
