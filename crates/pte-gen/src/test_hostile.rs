//! Damaged copies of a valid file for the tests that must answer every one
//! of them without a panic (the report's, the CLI's): every corruption class
//! of its kind that applies, and seeded blind mutants.
//!
//! Unstable and test-only, never for users: built with the `test-hostile`
//! feature, hidden from the docs. Here rather than in `pte-testkit`, so the
//! kit stays below every format crate; the regression files come from the
//! kit (`pte_testkit::regression_inputs`).

use crate::FileKind;

/// Every class of the catalogue for `kind` that applies to `bytes`, then
/// `mutants` blind mutants seeded with `seed`; each named `"{name} {what}"`
/// for the failure message.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
/// let damaged = pte_gen::test_hostile::damaged("add", &bytes, pte_gen::FileKind::Pte, 1, 2);
/// assert!(damaged.len() > 2 && damaged.iter().all(|(name, b)| name.starts_with("add ") && *b != bytes));
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn damaged(name: &str, bytes: &[u8], kind: FileKind, seed: u64, mutants: usize) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = crate::classes()
        .filter(|c| c.input == kind)
        .filter_map(|c| c.apply(bytes).ok().map(|b| (format!("{name} {}", c.name), b)))
        .collect();
    let blind = crate::random_mutants(bytes, seed, mutants);
    out.extend(blind.into_iter().map(|(n, b)| (format!("{name} {n}"), b)));
    out
}
