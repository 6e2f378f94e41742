//! Running the two halves of a large check on two cores.
//!
//! A program-heavy file is one long vector (values, instructions) checked
//! element by element, with no element depending on another's check. When
//! the machine has a second core, the halves can be checked at once; the
//! callers split only vectors long enough to repay a thread (tens of
//! microseconds), so small files never start one.

use std::sync::OnceLock;

use rayon_core::{ThreadPool, ThreadPoolBuilder};

/// Fewest elements worth a second thread: well above the cost of handing
/// work to one, well below the program-heavy files that need it.
pub const SPLIT_MIN: usize = 2048;

/// The pool of this process's long checks, when there is a second core and
/// a thread could be started for it. Kept for the life of the process: a
/// thread started per check costs more than a small program's whole check.
fn pool() -> Option<&'static ThreadPool> {
    static POOL: OnceLock<Option<ThreadPool>> = OnceLock::new();
    POOL.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        (cores > 1)
            .then(|| ThreadPoolBuilder::new().num_threads(2).thread_name(|_| "pte-split".into()).build().ok())
            .flatten()
    })
    .as_ref()
}

/// Runs `a` and `b`, at the same time when there is a second core and `work`
/// (the elements the two cover) reaches [`SPLIT_MIN`], else one after the
/// other. The results are the same either way; only the time differs.
///
/// ```
/// let v: Vec<u64> = (0..10_000).collect();
/// let (front, back) = v.split_at(v.len() / 2);
/// let (a, b) = pte_core::join(v.len(), || front.iter().sum::<u64>(), || back.iter().sum::<u64>());
/// assert_eq!(a + b, v.iter().sum::<u64>());
/// ```
pub fn join<A: Send, B: Send>(work: usize, a: impl FnOnce() -> A + Send, b: impl FnOnce() -> B + Send) -> (A, B) {
    match pool() {
        Some(pool) if work >= SPLIT_MIN => pool.join(a, b),
        _ => (a(), b()),
    }
}
