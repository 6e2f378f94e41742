//! Running a large check on two cores.
//!
//! A program-heavy file is one long vector (values, instructions) checked
//! element by element, with no element depending on another's check. When
//! the machine has a second core, two threads can take its chunks in turn;
//! the callers share only vectors long enough to repay a thread (tens of
//! microseconds), so small files never start one.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::OnceLock;

use rayon_core::{ThreadPool, ThreadPoolBuilder};

/// Fewest elements worth the helper thread: well above the cost of handing
/// it work, well below the program-heavy files that need it.
///
/// ```
/// // below it, every chunk is checked on the calling thread
/// let here = std::thread::current().id();
/// let n = pte_schema::SPLIT_MIN - 1;
/// let (mine, theirs) = pte_schema::share(n, Vec::new, |seen, _| {
///     seen.push(std::thread::current().id());
///     true
/// });
/// assert!(theirs.is_empty() && mine.len() == n.div_ceil(pte_schema::CHUNK));
/// assert!(mine.iter().all(|&t| t == here));
/// ```
pub const SPLIT_MIN: usize = 2048;

/// The helper of this process's long checks: one thread (the caller is the
/// other), when there is a second core and a thread could be
/// started. Kept for the life of the process: a thread started per check
/// costs more than a small program's whole check.
fn pool() -> Option<&'static ThreadPool> {
    static POOL: OnceLock<Option<ThreadPool>> = OnceLock::new();
    POOL.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        (cores > 1)
            .then(|| ThreadPoolBuilder::new().num_threads(1).thread_name(|_| "pte-split".into()).build().ok())
            .flatten()
    })
    .as_ref()
}

/// Elements each turn of [`share`] takes: small enough that the two
/// threads end close together, large enough that taking one costs nothing
/// next to checking it.
pub const CHUNK: usize = 1024;

/// Works through the elements `0..n` in chunks of [`CHUNK`], taken in turn
/// by the calling thread and, when there is a second core and `n` reaches
/// [`SPLIT_MIN`], the helper thread. Each thread makes its own state with
/// `start` and hands it to `step` with every chunk it takes, in increasing
/// order; `step` returns `false` to stop both threads (a check that failed).
/// Returns the caller's state and the helper's (`start()` untouched when
/// the helper took nothing).
///
/// Taking chunks in turn, rather than a fixed half each, keeps both threads
/// busy to the end when halves cost differently or the helper wakes late.
/// What each state saw depends on timing; what they saw together does not.
///
/// ```
/// let v: Vec<u64> = (0..10_000).collect();
/// let (mine, theirs) = pte_schema::share(v.len(), || 0u64, |sum, r| {
///     *sum += v[r].iter().sum::<u64>();
///     true
/// });
/// assert_eq!(mine + theirs, v.iter().sum::<u64>());
///
/// // a step that fails stops the work: is any element 3?
/// let (a, b) = pte_schema::share(v.len(), || true, |none, r| {
///     *none = v[r].iter().all(|&x| x != 3);
///     *none
/// });
/// assert!(!(a && b));
/// ```
pub fn share<S: Send>(
    n: usize,
    start: impl Fn() -> S + Sync,
    step: impl Fn(&mut S, Range<usize>) -> bool + Sync,
) -> (S, S) {
    let turns = Turns { next: AtomicUsize::new(0), stop: AtomicBool::new(false), n };
    let Some(pool) = pool().filter(|_| n >= SPLIT_MIN) else { return (turns.run(start(), &step), start()) };
    // Checks running on several threads at once (a batch of files) share
    // the one helper: a caller that finds it taken does all the work itself
    // rather than queue behind another file's.
    let Some(_helper) = Helper::take() else { return (turns.run(start(), &step), start()) };
    let mut theirs = None;
    let done = AtomicBool::new(false);
    let mine = pool.in_place_scope(|s| {
        let (theirs, done, turns, start, step) = (&mut theirs, &done, &turns, &start, &step);
        s.spawn(move |_| {
            *theirs = Some(turns.run(start(), step));
            done.store(true, Ordering::Release);
        });
        let mine = turns.run(start(), step);
        wait_briefly(done);
        mine
    });
    // the scope returns only once its task has run, so `theirs` is set; the
    // fallback keeps this function total without a panic path
    (mine, theirs.unwrap_or_else(start))
}

/// The chunks of one [`share`], handed out in order.
struct Turns {
    next: AtomicUsize,
    stop: AtomicBool,
    n: usize,
}

impl Turns {
    fn run<S>(&self, mut state: S, step: &impl Fn(&mut S, Range<usize>) -> bool) -> S {
        while !self.stop.load(Ordering::Relaxed) {
            let from = self.next.fetch_add(CHUNK, Ordering::Relaxed);
            if from >= self.n {
                break;
            }
            if !step(&mut state, from..from.saturating_add(CHUNK).min(self.n)) {
                self.stop.store(true, Ordering::Relaxed);
            }
        }
        state
    }
}

/// Waits for `done` by spinning, for a bounded time. Leaving the scope
/// while the helper's part still runs puts this thread to sleep, and being
/// woken costs tens of microseconds on a virtual machine; the two threads
/// end close together, so a short spin nearly always avoids that cost.
fn wait_briefly(done: &AtomicBool) {
    let start = std::time::Instant::now();
    while !done.load(Ordering::Acquire) && start.elapsed() < SPIN_LIMIT {
        std::hint::spin_loop();
    }
}

/// How long [`share`]'s caller spins for the helper before sleeping.
const SPIN_LIMIT: std::time::Duration = std::time::Duration::from_micros(100);

/// The helper thread, held by one caller at a time; released on drop, so a
/// panicking step cannot keep it taken.
struct Helper;

static HELPER_TAKEN: AtomicBool = AtomicBool::new(false);

impl Helper {
    fn take() -> Option<Helper> {
        // built only when taken: a `Helper` dropped unused would release it
        if HELPER_TAKEN.swap(true, Ordering::Acquire) {
            return None;
        }
        Some(Helper)
    }
}

impl Drop for Helper {
    fn drop(&mut self) {
        HELPER_TAKEN.store(false, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The helper is process-wide; tests that watch it take turns.
    static TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());

    fn thread_name() -> Option<String> {
        std::thread::current().name().map(str::to_string)
    }

    /// The chunks one thread took, each with the thread's name.
    type Taken = Vec<(Option<String>, Range<usize>)>;

    /// Which thread took each chunk of a `share` of `n`, as (caller's, helper's).
    fn takers(n: usize) -> (Taken, Taken) {
        share(n, Vec::new, |seen, r| {
            seen.push((thread_name(), r));
            true
        })
    }

    #[test]
    fn small_work_stays_on_the_calling_thread() {
        let (mine, theirs) = takers(SPLIT_MIN - 1);
        assert!(theirs.is_empty());
        assert!(mine.iter().all(|(t, _)| *t == thread_name()));
        let ranges: Vec<_> = mine.into_iter().map(|(_, r)| r).collect();
        assert_eq!(ranges.len(), (SPLIT_MIN - 1).div_ceil(CHUNK));
        assert_eq!(ranges.last(), Some(&((SPLIT_MIN - 1) / CHUNK * CHUNK..SPLIT_MIN - 1)));
    }

    #[test]
    fn every_element_is_taken_once_in_increasing_chunks() {
        let _turn = TURN.lock();
        for n in [SPLIT_MIN, SPLIT_MIN + 1, 10 * SPLIT_MIN + 77] {
            let (mine, theirs) = takers(n);
            let mut all: Vec<Range<usize>> = Vec::new();
            for seen in [&mine, &theirs] {
                assert!(seen.windows(2).all(|w| w[0].1.start < w[1].1.start), "each thread's chunks in order");
                all.extend(seen.iter().map(|(_, r)| r.clone()));
            }
            all.sort_by_key(|r| r.start);
            assert_eq!(all.first().map(|r| r.start), Some(0));
            assert!(all.windows(2).all(|w| w[0].end == w[1].start), "no gap, no overlap");
            assert_eq!(all.last().map(|r| r.end), Some(n));
            assert!(mine.iter().all(|(t, _)| *t == thread_name()));
            assert!(theirs.iter().all(|(t, _)| t.as_deref() == Some("pte-split")));
        }
    }

    #[test]
    fn a_failed_step_stops_both_threads() {
        let _turn = TURN.lock();
        let n = 100 * SPLIT_MIN;
        let fails = 4 * CHUNK;
        let (mine, theirs) = share(n, Vec::new, |taken, r| {
            taken.push(r.start);
            std::thread::sleep(std::time::Duration::from_micros(50));
            r.start != fails
        });
        // the thread whose step failed took nothing after it, and the other
        // stopped long before the end
        let failed = if mine.contains(&fails) { &mine } else { &theirs };
        assert_eq!(failed.last(), Some(&fails));
        assert!(mine.len() + theirs.len() < n / CHUNK / 2, "{mine:?} {theirs:?}");
    }

    #[test]
    fn a_caller_that_finds_the_helper_taken_does_all_the_work() {
        let _turn = TURN.lock();
        let (outer, theirs_outer) = share(
            SPLIT_MIN,
            || None,
            |inner, r| {
                if r.start == 0 {
                    // whichever thread took the first chunk: the helper is
                    // held by this share (when there is one)
                    let taken_now = Helper::take().is_none();
                    *inner = Some((takers(SPLIT_MIN), taken_now));
                }
                true
            },
        );
        let ((mine, theirs), taken_now) = outer.or(theirs_outer).unwrap_or_else(|| (takers(0), false));
        assert!(theirs.is_empty());
        assert_eq!(mine.len(), SPLIT_MIN / CHUNK);
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(taken_now, cores > 1);
        assert!(Helper::take().is_some(), "released after the share");
    }
}
