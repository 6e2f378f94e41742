//! Integration tests of pte-verify, one binary: the corpus verifies and
//! keeps its verdict through every rewrite, each rule fires where it should,
//! the quick clean-file pass agrees with the full verifier, `.ptd` and
//! `.bpte` verification and links, and the memory-plan and delegate-payload
//! checks.

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
mod external;
mod keep;
mod memory;
mod ptd;
mod splice;
mod verifier_rules;
