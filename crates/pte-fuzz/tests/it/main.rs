//! Integration tests of pte-fuzz, one binary: the seeded smoke run of the
//! mutator and cross-over (safe API and C entry points).

#![allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing, clippy::arithmetic_side_effects, missing_docs)]

mod smoke;
