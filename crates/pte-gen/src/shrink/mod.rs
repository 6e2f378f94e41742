//! Test-case reduction for ExecuTorch files: the smallest file found that a
//! predicate still calls interesting (a crash reproduced, a verifier rule
//! still broken, an operator still present).
//!
//! Structure goes first: a file our readers decode is edited as a model
//! (methods, chains, instructions, values, operators, delegates, segments,
//! named data and constants dropped; lists, strings, tensors and delegate
//! payloads, XNNPACK's included, shortened; a bundle's test cases and
//! program; a `.ptd`'s entries; a package's tensors and members) and every
//! candidate is written by our writers, so it still reads. Any flatbuffer
//! (one our reader refuses, and then every program the structural moves
//! leave) is also edited without its schema: fields dropped, fields naming
//! one object sharing a word, vtables replaced by alike bytes elsewhere,
//! stretches between tables and single words cut, with the offsets, vtable
//! slots and table sizes across a cut moved. Bytes come first, for a few
//! hundred runs of plain delta debugging (some predicates hold on a torn
//! buffer no structural move reaches), and last: chunks deleted, then
//! zeroed.
//!
//! The search is deterministic: the same input and predicate give the same
//! result. Budgets on predicate runs and time stop it early with the best
//! file so far.
//!
//! ```
//! let program = pte_gen::generate(3)?.to_bytes()?;
//! // interesting: still a program that reads and has a method
//! let keeps_a_method = |b: &[u8]| {
//!     pte_file::PteFile::from_bytes(b).is_ok_and(|p| p.program.execution_plan.is_some_and(|v| !v.is_empty()))
//! };
//! let out = pte_gen::shrink::shrink(&program, &Default::default(), keeps_a_method)?;
//! assert!(out.bytes.len() < program.len());
//! assert!(keeps_a_method(&out.bytes));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod flatbuf;
mod other;
mod program;
mod search;

use std::time::{Duration, Instant};

use search::{without, Search};

/// Budgets and mode of a shrink.
///
/// ```
/// let o = pte_gen::shrink::Options { max_runs: Some(100), ..Default::default() };
/// assert!(!o.bytes_only && o.time.is_none());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Stop after this many predicate runs (the check of the input included).
    pub max_runs: Option<u64>,
    /// Stop starting new predicate runs after this long.
    pub time: Option<Duration>,
    /// Plain byte-level delta debugging only (chunk deletion, no structure):
    /// the baseline the structural search is measured against.
    pub bytes_only: bool,
}

/// Where a shrink is, reported after every predicate run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Predicate runs so far.
    pub runs: u64,
    /// Size of the smallest interesting file so far.
    pub bytes: usize,
    /// The pass running: `structure`, `flatbuffer`, `bytes` or `zero`.
    pub phase: &'static str,
}

/// Which budget ended a shrink early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// [`Options::max_runs`].
    Runs,
    /// [`Options::time`].
    Time,
}

/// The result of a shrink.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shrunk {
    /// The smallest interesting file found.
    pub bytes: Vec<u8>,
    /// Predicate runs, the check of the input included.
    pub runs: u64,
    /// The budget that stopped the search, if one did (else it ran until
    /// no move made the file smaller).
    pub stopped: Option<Stop>,
}

/// The input itself is not interesting: there is nothing to shrink towards.
///
/// ```
/// let e = pte_gen::shrink::shrink(b"abc", &Default::default(), |_| false).unwrap_err();
/// assert!(e.to_string().contains("not interesting"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotInteresting;

impl std::fmt::Display for NotInteresting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the input is not interesting (the predicate says no to it)")
    }
}

impl std::error::Error for NotInteresting {}

/// Shrinks `input` to a small file `interesting` still accepts.
///
/// ```
/// let out = pte_gen::shrink::shrink(b"xxxxAxxxx", &Default::default(), |b| b.contains(&b'A'))?;
/// assert_eq!(out.bytes, b"A");
/// # Ok::<(), pte_gen::shrink::NotInteresting>(())
/// ```
pub fn shrink(
    input: &[u8],
    options: &Options,
    interesting: impl FnMut(&[u8]) -> bool,
) -> Result<Shrunk, NotInteresting> {
    shrink_with_progress(input, options, interesting, |_| {})
}

/// [`shrink`], calling `progress` after every predicate run.
///
/// ```
/// let mut last = None;
/// let o = pte_gen::shrink::Options { max_runs: Some(3), ..Default::default() };
/// let out = pte_gen::shrink::shrink_with_progress(&[1u8; 64], &o, |b| !b.is_empty(), |p| last = Some(*p))?;
/// assert_eq!(out.runs, 3);
/// assert_eq!(out.stopped, Some(pte_gen::shrink::Stop::Runs));
/// assert_eq!(last.map(|p| p.runs), Some(3));
/// # Ok::<(), pte_gen::shrink::NotInteresting>(())
/// ```
pub fn shrink_with_progress(
    input: &[u8],
    options: &Options,
    mut interesting: impl FnMut(&[u8]) -> bool,
    mut progress: impl FnMut(&Progress),
) -> Result<Shrunk, NotInteresting> {
    let deadline = options.time.and_then(|t| Instant::now().checked_add(t));
    let mut s = Search::new(input.to_vec(), options.max_runs, deadline, &mut interesting, &mut progress);
    if !s.ask(input) {
        return Err(NotInteresting);
    }
    s.report();
    if options.bytes_only {
        s.phase = "bytes";
        delete(&mut s, 1);
    } else {
        structured(&mut s);
    }
    Ok(Shrunk { bytes: s.best, runs: s.runs, stopped: s.stop })
}

/// Coarse byte deletion, then structure, flatbuffer and byte passes until
/// none helps, then zeroing.
fn structured(s: &mut Search<'_>) {
    // plain delta debugging first, for its first runs: some predicates hold
    // on a torn buffer no structural move reaches, and when its pass ends
    // within them the structural search starts where `--bytes-only` ends,
    // so it can only do better in the same runs (a pass cut short is
    // undone: its torn half-way file would hide the structure)
    s.phase = "bytes";
    s.capped(BYTES_FIRST, |s| {
        delete(s, 1);
    });
    loop {
        let before = s.best.len();
        s.phase = "structure";
        // the kind its identifier names (the door's): a program whose
        // identifier the predicate needs broken has no structure to walk
        let kind = ::pte::identify(&s.best).named_kind();
        if kind.is_pte() {
            program::pass(s, &Whole);
        } else if kind.is_bpte() {
            other::bpte(s);
        } else if kind.is_ptd() {
            other::ptd(s);
        } else if kind.is_ptn() {
            other::ptn(s);
        }
        if !::pte::identify(&s.best).named_kind().is_ptn() {
            s.phase = "flatbuffer";
            flatbuf::pass(s, &Whole);
        }
        s.phase = "bytes";
        // large files are cut coarsely: the structure did the fine work
        let n = s.best.len();
        delete(s, if n > 1 << 16 { n / 4096 } else { 1 });
        if s.stop.is_some() || s.best.len() >= before {
            break;
        }
    }
    s.phase = "zero";
    zero(s);
}

/// Predicate runs the structural search gives plain delta debugging before
/// its own moves.
const BYTES_FIRST: u64 = 256;

/// A view of part of a file: what the moves edit, and how the edited part
/// goes back into the file.
pub(crate) trait Lens {
    /// The part, from the whole file.
    fn get(&self, outer: &[u8]) -> Option<Vec<u8>>;
    /// The whole file with the part replaced.
    fn put(&self, outer: &[u8], inner: &[u8]) -> Option<Vec<u8>>;
}

/// The whole file.
pub(crate) struct Whole;

impl Lens for Whole {
    fn get(&self, outer: &[u8]) -> Option<Vec<u8>> {
        Some(outer.to_vec())
    }
    fn put(&self, _: &[u8], inner: &[u8]) -> Option<Vec<u8>> {
        Some(inner.to_vec())
    }
}

/// Byte chunks deleted, halves first, down to `min_chunk` bytes.
fn delete(s: &mut Search<'_>, min_chunk: usize) -> bool {
    let n = s.best.len();
    s.reduce(n, min_chunk, without)
}

/// Byte chunks set to zero, halves first, down to 1/256th of the file.
fn zero(s: &mut Search<'_>) {
    let n = s.best.len();
    let min_chunk = (n / 256).max(1);
    let mut chunk = n;
    while chunk >= min_chunk && s.stop.is_none() && chunk > 0 {
        let mut i = 0usize;
        while i < n && s.stop.is_none() {
            let end = i.saturating_add(chunk).min(n);
            let mut c = s.best.clone();
            if let Some(part) = c.get_mut(i..end)
                && part.iter().any(|&x| x != 0)
            {
                part.fill(0);
                s.offer(c);
            }
            i = end;
        }
        if chunk == min_chunk {
            break;
        }
        chunk = (chunk / 2).max(min_chunk);
    }
}
