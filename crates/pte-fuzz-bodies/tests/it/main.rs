//! Integration tests of pte-fuzz-bodies, one binary: a seeded smoke test of
//! every fuzz body, and the sweeps and replays that run the bodies over the
//! corpus and the regression files (here, not in the format crates' tests:
//! the bodies depend on those crates, so those crates' tests cannot depend
//! on the bodies without a cycle).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs
)]

mod file_sweeps;
mod ptn_sweeps;
mod regressions;
mod regressions_flatbuffer;
mod samples_sweeps;
mod smoke;
mod structured;
