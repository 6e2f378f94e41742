//! Answers about ExecuTorch files, each read through the zero-copy views of
//! `pte-file` and `pte-schema` and never refusing a file it can read part of:
//!
//! * [`size`]: every byte of a `.pte`, `.ptd` or `.bpte` given to one named
//!   part (`pte size`), and the [`size::Partition`] a `.ptn` is cut with too.
//! * [`memory`]: a program's memory plan, its arenas, lifetimes and overlaps
//!   (`pte memory`).
//! * [`operators`]: the operators and kernels a program calls, and which
//!   runtime releases register them (`pte ops`).
//! * [`delegate_payload`]: what the XNNPACK and native delegate payloads
//!   hold, the constants they name and the links they make.
//!
//! The verifier (`pte-verify`) builds on these; the `pte` crate answers
//! through them for every kind of file.
//!
//! ```
//! let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
//! let report = pte_analysis::size::pte_size_report(&bytes)?;
//! assert_eq!(report.total(), bytes.len() as u64);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]

pub mod delegate_payload;
pub mod memory;
pub mod operators;
pub mod size;
