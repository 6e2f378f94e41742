//! The bodies of the fuzz targets in `fuzz/`, one function per target and
//! named after it, so that `fuzz/fuzz_targets/*.rs` are one line each and
//! `cargo test` runs the same code on stable: this crate's seeded smoke test
//! of every body, the corpus sweeps and the regression replays (`tests/it`).
//!
//! Each body returns normally for any input. A panic is how a body tells
//! libFuzzer that an invariant broke (our own output not reading back, two
//! verifiers disagreeing), which is why panicking is allowed here and nowhere
//! in the published crates. Not published: the bodies use only the public API
//! of the crates they exercise, plus `pte-schema`'s test-only reference
//! verifier (hidden from its docs).
//!
//! ```
//! pte_fuzz_bodies::pte(b"\x00\x01 anything");
//! pte_fuzz_bodies::headers(&[0u8; 3]);
//! ```

#![allow(clippy::panic)]

mod file;
mod r#gen;
mod ptn;
mod samples;
mod schema;

pub use file::{bpte, headers, native_payload, ptd, pte, xnnpack};
pub use ptn::{native, ptn, safetensors};
pub use r#gen::structured;
pub use samples::samples;
pub use schema::{differential, program_structure};
