//! Integration tests of pte-report, one binary: the page and the graph layout.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs
)]

#[path = "../support/graphs.rs"]
mod graphs;
mod layout;
mod page;
