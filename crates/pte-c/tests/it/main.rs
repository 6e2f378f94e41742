//! The C ABI called as C calls it: status codes for every bad input, the
//! answers on the corpus, samples, saves, and the header's drift check.

// Calling the extern functions is `unsafe`; a test's misuse is its own.
#![allow(unsafe_code, clippy::undocumented_unsafe_blocks)]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![allow(clippy::arithmetic_side_effects)]

mod bad_input;
mod blobs;
mod header;
mod samples;
mod save;
mod support;
mod verify;
