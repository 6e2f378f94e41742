//! What the workspace's tests, benches and examples share, so that each of
//! them stops carrying its own copy: where the corpus and the regression
//! files are (the one road to them), digests as hex, and seeds.
//!
//! Not published: it is only ever a dev-dependency, and its paths point into
//! this repository. It depends on nothing of the workspace, so any crate's
//! tests can use it; inputs built with a format crate (programs, damaged
//! copies) are that crate's test features (`pte_file::test_programs`,
//! `pte_gen::test_hostile`).
//!
//! ```
//! let add = pte_testkit::corpus_bytes("add/model.pte");
//! assert_eq!(&add[4..8], b"ET12");
//! ```

// Test support: a missing corpus file or an unreadable folder is a broken
// checkout, and the clearest answer to it is the panic naming the path; the
// generators count small, fixed sizes that cannot overflow.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::arithmetic_side_effects)]

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// The repository's root, found from this crate's place in it (the kit is
/// never packaged, so the path always holds).
///
/// ```
/// assert!(pte_testkit::repo_root().join("Cargo.toml").is_file());
/// ```
pub fn repo_root() -> PathBuf {
    let kit = Path::new(env!("CARGO_MANIFEST_DIR"));
    kit.parent().and_then(Path::parent).map_or_else(|| kit.join("../.."), Path::to_path_buf)
}

/// The corpus folder, `tests/corpus/`: one folder per case.
///
/// ```
/// assert!(pte_testkit::corpus_dir().join("add").is_dir());
/// ```
pub fn corpus_dir() -> PathBuf {
    repo_root().join("tests").join("corpus")
}

/// `rel` under the corpus: a case folder, or a file in one (`add/model.pte`).
///
/// ```
/// assert!(pte_testkit::corpus("add/model.pte").is_file());
/// ```
pub fn corpus(rel: &str) -> PathBuf {
    corpus_dir().join(rel)
}

/// The bytes of the corpus file `rel`; panics naming it when it cannot be read.
///
/// ```
/// assert!(!pte_testkit::corpus_bytes("linear/model.pte").is_empty());
/// ```
pub fn corpus_bytes(rel: &str) -> Vec<u8> {
    let path = corpus(rel);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The program of the corpus case `case` (`CASE/model.pte`).
///
/// ```
/// assert!(pte_testkit::model("linear").ends_with("linear/model.pte"));
/// ```
pub fn model(case: &str) -> PathBuf {
    corpus(case).join("model.pte")
}

/// The bytes of the program of the corpus case `case`.
///
/// ```
/// assert_eq!(&pte_testkit::model_bytes("add")[4..8], b"ET12");
/// ```
pub fn model_bytes(case: &str) -> Vec<u8> {
    corpus_bytes(&format!("{case}/model.pte"))
}

/// The case folders of the corpus, sorted by name.
///
/// ```
/// assert!(pte_testkit::corpus_cases().iter().any(|c| c.ends_with("add")));
/// ```
pub fn corpus_cases() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> =
        std::fs::read_dir(corpus_dir()).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
    out.sort();
    out
}

/// The program of every corpus case that has one, sorted.
///
/// ```
/// assert!(pte_testkit::corpus_programs().len() >= 12);
/// ```
pub fn corpus_programs() -> Vec<PathBuf> {
    corpus_cases().into_iter().map(|c| c.join("model.pte")).filter(|p| p.exists()).collect()
}

/// Every corpus program as (case name, bytes), sorted by case.
///
/// ```
/// let (name, bytes) = &pte_testkit::corpus_program_bytes()[0];
/// assert!(!name.is_empty() && !bytes.is_empty());
/// ```
pub fn corpus_program_bytes() -> Vec<(String, Vec<u8>)> {
    corpus_programs()
        .into_iter()
        .map(|p| {
            let case = p.parent().and_then(Path::file_name).map(|n| n.to_string_lossy().into_owned());
            (case.unwrap_or_default(), std::fs::read(&p).unwrap())
        })
        .collect()
}

/// Every file of a corpus case whose extension is one of `exts`, sorted.
///
/// ```
/// let bundles = pte_testkit::corpus_files(&["bpte"]);
/// assert!(bundles.iter().all(|p| p.extension().is_some_and(|e| e == "bpte")));
/// ```
pub fn corpus_files(exts: &[&str]) -> Vec<PathBuf> {
    let mut out = vec![];
    for case in corpus_cases() {
        for f in std::fs::read_dir(&case).unwrap() {
            let f = f.unwrap().path();
            if f.extension().and_then(|e| e.to_str()).is_some_and(|e| exts.contains(&e)) {
                out.push(f);
            }
        }
    }
    out.sort();
    out
}

/// The classes of `tests/regressions/`, one folder each.
pub const REGRESSION_CLASSES: [&str; 4] = ["out-of-bounds", "overflow", "out-of-memory", "hang"];

/// The folder of the regression files, `tests/regressions/`.
///
/// ```
/// assert!(pte_testkit::regressions_dir().join("hang").is_dir());
/// ```
pub fn regressions_dir() -> PathBuf {
    repo_root().join("tests").join("regressions")
}

/// Every regression file of every class, sorted; panics when a class has
/// none, since the replays would then pass without testing anything.
///
/// ```
/// assert!(pte_testkit::regressions().len() >= 8);
/// ```
pub fn regressions() -> Vec<PathBuf> {
    let mut out = vec![];
    for class in REGRESSION_CLASSES {
        let dir = regressions_dir().join(class);
        let before = out.len();
        out.extend(std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()));
        assert!(out.len() > before, "{} has no files", dir.display());
    }
    out.sort();
    out
}

/// Every regression file as (its path, its bytes), sorted: the inputs every
/// reader must refuse without a panic.
///
/// ```
/// let inputs = pte_testkit::regression_inputs();
/// assert!(inputs.iter().all(|(name, bytes)| name.contains("regressions") && !bytes.is_empty()));
/// ```
pub fn regression_inputs() -> Vec<(String, Vec<u8>)> {
    regressions()
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p.display().to_string(), bytes)
        })
        .collect()
}

/// Bytes as lower-case hex, two digits each.
///
/// ```
/// assert_eq!(pte_testkit::hex(&[0, 0xab]), "00ab");
/// ```
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The SHA-256 of `bytes` as hex, the form `truth.json` and the digest
/// files record.
///
/// ```
/// assert!(pte_testkit::sha256_hex(b"").starts_with("e3b0c442"));
/// ```
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// A seeded xorshift64 generator: the same numbers on every run, so a test
/// over damaged copies damages the same bytes each time.
///
/// ```
/// let mut a = pte_testkit::xorshift(7);
/// let mut b = pte_testkit::xorshift(7);
/// assert_eq!(a(), b());
/// ```
pub fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut state = seed;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

/// A writer that keeps nothing and counts the bytes it is given: what a
/// memory test serializes into, so that the output's own buffer is not
/// part of the peak it measures.
///
/// ```
/// use std::io::Write as _;
/// let mut w = pte_testkit::ByteCounter::default();
/// w.write_all(b"abc").unwrap();
/// assert_eq!(w.0, 3);
/// ```
#[derive(Debug, Default)]
pub struct ByteCounter(pub usize);

impl std::io::Write for ByteCounter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 = self.0.saturating_add(buf.len());
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// How a bench times an operation: one untimed call first (it warms the
/// page cache and whatever else a first run pays for), then the median of
/// `runs` timed calls, with the last call's result.
///
/// ```
/// let (d, n) = pte_testkit::time_median(3, || 2 + 2);
/// assert_eq!(n, 4);
/// assert!(d < std::time::Duration::from_secs(1));
/// ```
pub fn time_median<T>(runs: usize, mut f: impl FnMut() -> T) -> (std::time::Duration, T) {
    let mut last = f();
    let mut times: Vec<std::time::Duration> = (0..runs)
        .map(|_| {
            let t = std::time::Instant::now();
            last = f();
            t.elapsed()
        })
        .collect();
    times.sort_unstable();
    (times.get(runs / 2).copied().unwrap_or_default(), last)
}

/// The runs a bench times each measurement with: `PTE_BENCH_RUNS`, else 5.
pub fn bench_runs() -> usize {
    std::env::var("PTE_BENCH_RUNS").ok().and_then(|s| s.parse().ok()).unwrap_or(5)
}

/// A duration in milliseconds, as the benches print them.
///
/// ```
/// assert_eq!(pte_testkit::ms(std::time::Duration::from_micros(1500)), 1.5);
/// ```
pub fn ms(d: std::time::Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
