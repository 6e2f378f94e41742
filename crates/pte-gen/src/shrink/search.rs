//! The search state every pass shares: the best file so far, the predicate,
//! the budgets, and the memory of candidates already asked about.

use std::collections::HashSet;
use std::hash::{Hash, Hasher};
use std::ops::Range;
use std::time::Instant;

use super::{Progress, Stop};

/// The shared state of one shrink.
pub(crate) struct Search<'p> {
    /// The smallest interesting file so far.
    pub best: Vec<u8>,
    /// Predicate runs so far.
    pub runs: u64,
    /// The pass running, for progress reports.
    pub phase: &'static str,
    /// Why the search stopped early, once it has.
    pub stop: Option<Stop>,
    max_runs: Option<u64>,
    deadline: Option<Instant>,
    seen: HashSet<u64>,
    interesting: &'p mut dyn FnMut(&[u8]) -> bool,
    progress: &'p mut dyn FnMut(&Progress),
}

/// `a` is a better result than `b`: shorter, or as long and smaller byte
/// by byte (so zeroing counts, and every accepted step makes progress).
fn better(a: &[u8], b: &[u8]) -> bool {
    (a.len(), a) < (b.len(), b)
}

fn digest(b: &[u8]) -> u64 {
    // SipHash with fixed keys: the same on every run, which keeps the
    // memory of tried candidates (and so the result) deterministic.
    let mut h = std::collections::hash_map::DefaultHasher::new();
    b.hash(&mut h);
    h.finish()
}

impl<'p> Search<'p> {
    pub(crate) fn new(
        best: Vec<u8>,
        max_runs: Option<u64>,
        deadline: Option<Instant>,
        interesting: &'p mut dyn FnMut(&[u8]) -> bool,
        progress: &'p mut dyn FnMut(&Progress),
    ) -> Self {
        let mut seen = HashSet::new();
        seen.insert(digest(&best));
        Search { best, runs: 0, phase: "start", stop: None, max_runs, deadline, seen, interesting, progress }
    }

    /// Runs the predicate on `candidate` (once per distinct candidate, only
    /// when it would improve on the best); true when it became the best.
    pub(crate) fn offer(&mut self, candidate: Vec<u8>) -> bool {
        if self.stop.is_some() || !better(&candidate, &self.best) || !self.seen.insert(digest(&candidate)) {
            return false;
        }
        if !self.may_run() {
            return false;
        }
        let yes = self.ask(&candidate);
        if yes {
            self.best = candidate;
        }
        self.report();
        yes
    }

    /// Runs the predicate on a file without comparing it with the best (the
    /// original, which must be interesting for the search to start).
    pub(crate) fn ask(&mut self, candidate: &[u8]) -> bool {
        self.runs = self.runs.saturating_add(1);
        (self.interesting)(candidate)
    }

    pub(crate) fn report(&mut self) {
        let p = Progress { runs: self.runs, bytes: self.best.len(), phase: self.phase };
        (self.progress)(&p);
    }

    /// Whether the budgets allow another run; records why not.
    fn may_run(&mut self) -> bool {
        if self.max_runs.is_some_and(|m| self.runs >= m) {
            self.stop = Some(Stop::Runs);
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stop = Some(Stop::Time);
        }
        self.stop.is_none()
    }

    /// Runs `f` with at most `runs` more predicate runs; the search goes on
    /// afterwards under its own budgets. When the cap (not the search's own
    /// budget) cut `f` short, the best file goes back to what it was before:
    /// a pass stopped halfway can leave a torn file the structural moves no
    /// longer read. True when `f` ran to its end.
    pub(crate) fn capped(&mut self, runs: u64, f: impl FnOnce(&mut Self)) -> bool {
        let own = self.max_runs;
        let before = self.best.clone();
        let cap = self.runs.saturating_add(runs);
        self.max_runs = Some(own.map_or(cap, |m| m.min(cap)));
        f(self);
        self.max_runs = own;
        if self.stop == Some(Stop::Runs) && own.is_none_or(|m| self.runs < m) {
            self.stop = None;
            self.best = before;
            return false;
        }
        true
    }

    /// Removes chunks of a list of `len` items, the whole list first, then
    /// halves, quarters, down to `min_chunk` items (delta debugging's
    /// chunk deletion). `make(best, range)` builds the candidate with the
    /// items of `range` gone from the current best, `None` when it cannot.
    /// True when anything was removed.
    pub(crate) fn reduce(
        &mut self,
        mut len: usize,
        min_chunk: usize,
        mut make: impl FnMut(&[u8], Range<usize>) -> Option<Vec<u8>>,
    ) -> bool {
        let min_chunk = min_chunk.max(1);
        let mut chunk = len;
        let mut removed = false;
        while chunk >= min_chunk && len > 0 && self.stop.is_none() {
            let mut i = 0usize;
            while i < len && self.stop.is_none() {
                let end = i.saturating_add(chunk).min(len);
                if make(&self.best, i..end).is_some_and(|c| self.offer(c)) {
                    len = len.saturating_sub(end.saturating_sub(i));
                    removed = true;
                } else {
                    i = end;
                }
            }
            if chunk == min_chunk {
                break;
            }
            chunk = (chunk / 2).max(min_chunk);
        }
        removed
    }
}

/// `v` without the items of `r`.
pub(crate) fn without<T: Clone>(v: &[T], r: Range<usize>) -> Option<Vec<T>> {
    let head = v.get(..r.start)?;
    let tail = v.get(r.end..)?;
    Some([head, tail].concat())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_capped_pass_stops_within_its_runs_and_the_search_goes_on() {
        let mut yes = |_: &[u8]| false;
        let mut quiet = |_: &Progress| {};
        let mut s = Search::new((0..64).collect(), Some(100), None, &mut yes, &mut quiet);
        let mut takes_one = |b: &[u8]| b.len() == 32 && b.first() == Some(&0);
        let mut quiet = |_: &Progress| {};
        let mut cut_short = Search::new((0..64).collect(), Some(100), None, &mut takes_one, &mut quiet);
        // the pass halves the list once, then the cap stops it: back to the input
        assert!(!cut_short.capped(5, |s| {
            s.reduce(64, 1, without);
        }));
        assert_eq!((cut_short.runs, cut_short.best.len()), (5, 64));
        assert!(!s.capped(10, |s| {
            s.reduce(64, 1, without);
        }));
        assert_eq!((s.runs, s.stop), (10, None));
        s.reduce(64, 1, without);
        assert_eq!((s.runs, s.stop), (100, Some(Stop::Runs)));
    }
}
