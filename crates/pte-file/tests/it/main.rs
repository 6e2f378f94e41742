//! Integration tests of pte-file, one binary: the corpus, round trips and
//! property tests, the verifier, `.ptd` and `.bpte`, the keep-layout
//! rewrites, the memory plan and the fuzz-body sweeps.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs
)]

mod bpte;
mod clean_file_pass;
mod corpus;
mod delegate_payload;
mod differential;
mod exir_view;
mod external;
mod keep;
mod manifest;
mod memory;
mod ptd;
mod roundtrip;
mod splice;
mod stored_layout;
mod strict_check;
mod tensors;
mod verifier_rules;
mod view;
