//! Integration tests of pte-schema, one binary: decoding and the views on
//! the corpus, the structure checks, the JSON stream, offsets, the native
//! graph and XNNPACK payloads, and 8-byte vectors at any alignment. (`amplification.rs` is a binary of its own:
//! see why at its top.)

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs
)]

mod bundled;
mod corpus_json;
mod json_stream;
mod native;
mod offsets;
mod structure;
mod support;
mod vector_alignment;
mod views;
mod xnnpack;
