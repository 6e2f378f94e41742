//! Running the two halves of a large check on two cores.
//!
//! A program-heavy file is one long vector (values, instructions) checked
//! element by element, with no element depending on another's check. When
//! the machine has a second core, the halves can be checked at once; the
//! callers split only vectors long enough to repay a thread (tens of
//! microseconds), so small files never start one.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

use rayon_core::{ThreadPool, ThreadPoolBuilder};

/// Fewest elements worth the helper thread: well above the cost of handing
/// it work, well below the program-heavy files that need it.
///
/// ```
/// // below it, both halves run on the calling thread
/// let here = std::thread::current().id();
/// let (a, _) = pte_core::join(pte_core::SPLIT_MIN - 1, || std::thread::current().id(), || ());
/// assert_eq!(a, here);
/// ```
pub const SPLIT_MIN: usize = 2048;

/// The helper of this process's long checks: one thread (the caller does
/// the other half), when there is a second core and a thread could be
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

/// Runs `a` and `b`, at the same time when there is a second core and `work`
/// (the elements the two cover) reaches [`SPLIT_MIN`] (`a` on the helper
/// thread, `b` on the caller's), else one after the other. The results are
/// the same either way; only the time differs.
///
/// ```
/// let v: Vec<u64> = (0..10_000).collect();
/// let (front, back) = v.split_at(v.len() / 2);
/// let (a, b) = pte_core::join(v.len(), || front.iter().sum::<u64>(), || back.iter().sum::<u64>());
/// assert_eq!(a + b, v.iter().sum::<u64>());
/// ```
pub fn join<A: Send, B>(work: usize, a: impl Fn() -> A + Sync, b: impl FnOnce() -> B) -> (A, B) {
    let Some(pool) = pool().filter(|_| work >= SPLIT_MIN) else { return (a(), b()) };
    // Checks running on several threads at once (a batch of files) share
    // the one helper: a caller that finds it taken does both halves itself
    // rather than queue behind another file's half.
    let Some(_helper) = Helper::take() else { return (a(), b()) };
    // `b` runs here while the pool's thread takes `a`: no hand-over of the
    // caller's own half, and one helper is all two cores can use
    let mut first = None;
    let a = &a;
    let second = pool.in_place_scope(|s| {
        let first = &mut first;
        s.spawn(move |_| *first = Some(a()));
        b()
    });
    // the scope returns only once its task has run, so `first` is set; the
    // fallback keeps this function total without a panic path
    (first.unwrap_or_else(a), second)
}

/// The helper thread, held by one caller at a time; released on drop, so a
/// panicking half cannot keep it taken.
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

    #[test]
    fn small_work_stays_on_the_calling_thread() {
        let here = std::thread::current().id();
        let (a, b) = join(SPLIT_MIN - 1, || std::thread::current().id(), || std::thread::current().id());
        assert_eq!((a, b), (here, here));
    }

    #[test]
    fn a_caller_that_finds_the_helper_taken_does_both_halves() {
        let _turn = TURN.lock();
        let outer = join(
            SPLIT_MIN,
            || (),
            || {
                // the helper is busy with the outer `a` or already released;
                // either way the inner halves both come back, in order
                let inner = join(SPLIT_MIN, || 1, || 2);
                let taken_now = Helper::take().is_none();
                (inner, taken_now)
            },
        );
        assert_eq!(outer.1 .0, (1, 2));
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        // inside the outer join the helper is held by it
        assert_eq!(outer.1 .1, cores > 1);
        assert!(Helper::take().is_some(), "released after the join");
    }

    #[test]
    fn long_work_goes_to_the_pool_when_there_is_a_second_core() {
        let _turn = TURN.lock();
        let (a, b) = join(SPLIT_MIN, || (thread_name(), 1), || (thread_name(), 2));
        assert_eq!((a.1, b.1), (1, 2));
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        if cores > 1 {
            assert_eq!(a.0.as_deref(), Some("pte-split"));
        } else {
            assert_eq!(a.0, thread_name());
        }
    }
}
