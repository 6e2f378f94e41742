//! Integration tests of pte-samples, one binary: the corpus and bundled
//! samples, round trips, signatures, tolerances, the LLM flow, hostile
//! inputs, the sweeps and the docs they must match.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs,
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation
)]

mod bundled;
mod corpus;
mod docs;
mod hostile;
mod llm;
mod roundtrip;
mod signature;
mod tolerance;
