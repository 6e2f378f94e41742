//! Integration tests of pte-file, one binary: round trips and property
//! tests, the planus oracle, the strict reader, tensors and the view.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs
)]

mod differential;
mod exir_view;
mod roundtrip;
mod strict_check;
mod tensors;
mod view;
