//! Integration tests of pte-ptn, one binary: the corpus package, property
//! round trips, hostile archives and the fuzz-body sweeps.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs
)]

mod caps;
mod corpus;
mod hostile;
mod roundtrip;
