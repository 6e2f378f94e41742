//! Hostile but plausible ExecuTorch files, for testing parsers: ours (every
//! class must give its typed error) and other loaders (the stock runtime
//! included).
//!
//! [`CATALOGUE`] lists named corruption classes. Each takes a valid file of
//! one kind (`.pte`, `.ptd`, `.ptn`, `.bpte`) and breaks exactly one thing;
//! [`judge`] reads the result with this workspace's readers and verifiers, and
//! [`Corruption::expect`] says what they must report: an [`ErrorKind`] from the
//! reader or a named verifier rule, never a message to match.
//!
//! It owns no parsing: every class is judged by the format crates' own
//! readers and verifiers, which is what makes the catalogue a test of them.
//!
//! ```
//! let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
//! let class = pte_gen::find("pte.bad-identifier").unwrap();
//! let broken = class.apply(&bytes)?;
//! assert!(class.expect.is_met(&pte_gen::judge(class.input, &broken)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]

mod catalogue;
mod classes;
mod corruption;
mod edit;
mod generate;
pub mod hostile;
mod judge;
mod kind;
mod mutate;
mod payload;
mod rules;
pub mod shrink;
pub mod suite;
#[cfg(feature = "test-hostile")]
#[doc(hidden)]
pub mod test_hostile;

pub use catalogue::CATALOGUE;
pub use classes::{breaking, classes, find};
pub use corruption::Corruption;
pub use generate::{generate, generate_from, Entropy, Generated};
pub use judge::{judge, Expect, Judgement};
pub use mutate::{random_mutants, Rng};
pub use pte_core::FileKind;
pub use pte_schema::ErrorKind;

/// Why a corruption could not be applied to an input (it lacks what the class
/// breaks, or does not read as the class's file kind).
///
/// ```
/// let e = pte_gen::find("pte.bad-identifier").unwrap().apply(b"short").unwrap_err();
/// assert!(e.to_string().contains("pte.bad-identifier"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotApplicable {
    /// The class.
    pub class: &'static str,
    /// Why.
    pub reason: String,
}

impl std::fmt::Display for NotApplicable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} does not apply: {}", self.class, self.reason)
    }
}

impl std::error::Error for NotApplicable {}
