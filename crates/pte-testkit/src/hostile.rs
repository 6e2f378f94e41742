//! Hostile and damaged inputs for the tests that must answer every one of
//! them without a panic: the regression files, every corruption class of
//! the generator on a corpus file of each kind, and seeded blind mutants.

use pte_gen::FileKind;

/// The regression files, then for each `(corpus file, kind)` of `bases`
/// every corruption class of that kind that applies and `mutants` blind
/// mutants seeded with `seed`; each named for the failure message.
///
/// ```
/// use pte_gen::FileKind;
/// let inputs = pte_testkit::hostile::inputs(&[("add/model.pte", FileKind::Pte)], 1, 2);
/// assert!(inputs.len() > pte_testkit::regressions().len());
/// ```
pub fn inputs(bases: &[(&str, FileKind)], seed: u64, mutants: usize) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = crate::regressions()
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap();
            (p.display().to_string(), bytes)
        })
        .collect();
    for &(rel, kind) in bases {
        let bytes = crate::corpus_bytes(rel);
        for class in pte_gen::classes().filter(|c| c.input == kind) {
            if let Ok(b) = class.apply(&bytes) {
                out.push((format!("{rel} {}", class.name), b));
            }
        }
        let blind = pte_gen::random_mutants(&bytes, seed, mutants);
        out.extend(blind.into_iter().map(|(n, b)| (format!("{rel} {n}"), b)));
    }
    out
}
