//! What the memory plan needs of a method, gathered by the verifier's own
//! walk ([`pte_schema::ElementChecks`]) rather than by a second pass over
//! its values and instructions: each planned tensor's place and each
//! value's first and last use. The walk may visit elements from two threads
//! in no set order, so every slot is an atomic written by one element (a
//! value) or merged with `fetch_max` (a use), which gives the same result in
//! any order; the rare records whose order matters (views, loops) are kept
//! with their position and sorted afterwards.
//!
//! Everything is sized from the plan's value count, which the caller holds
//! to the bytes of the buffer ([`PlanFacts::new`]).

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;

use pte_schema::{InstructionRef, PlanView};

use super::instruction::{back_jump, named_values};

/// `kinds` of a value that is no planned tensor and no list.
const OTHER: u32 = 0;
/// `kinds` of a tensor list, optional or not.
const LIST: u32 = 1;
/// `kinds` of a planned tensor: `PLANNED | STATE?`, its `memory_id` in
/// [`PlanFacts::arenas`].
const PLANNED: u32 = 2;
/// Added to [`PLANNED`] for a mutable buffer (initial data or a name).
const STATE: u32 = 4;

/// A two-level position as one number, the outer index in the high half
/// and the inner in the low (each held to 32 bits), so that comparing the
/// numbers compares the positions: a chain and an instruction here, a plan
/// and a value in the verifier's note of each constant's first reader.
///
/// ```
/// use pte_analysis::memory::gather::{packed, unpacked};
/// assert!(packed([0, 9]) < packed([1, 0]));
/// assert_eq!(unpacked(packed([2, 7])), [2, 7]);
/// ```
pub fn packed([outer, inner]: [usize; 2]) -> u64 {
    let half = |x: usize| u64::try_from(x).unwrap_or(u64::MAX).min(u64::from(u32::MAX));
    half(outer) << 32 | half(inner)
}

/// The two indices [`packed`] joined.
///
/// ```
/// assert_eq!(pte_analysis::memory::gather::unpacked(5 << 32 | 3), [5, 3]);
/// ```
pub fn unpacked(pos: u64) -> [usize; 2] {
    let at = |x: u64| usize::try_from(x).unwrap_or(usize::MAX);
    [at(pos >> 32), at(pos & u64::from(u32::MAX))]
}

/// `(position, first argument, last argument)` of a view call.
type ViewCall = (u64, Option<i32>, Option<i32>);

/// The gathered facts of one plan.
pub struct PlanFacts {
    values: Values,
    views: Mutex<Vec<ViewCall>>,
    /// `(chain, destination, jump index)` of each backward jump.
    loops: Mutex<Vec<(usize, u64, usize)>>,
    /// The operator indices whose calls are views.
    view_ops: Vec<i32>,
}

/// A planned tensor as the verifier read it.
pub struct PlacedTensor {
    pub memory_id: u32,
    pub offset: u64,
    pub nbytes: u64,
    /// Whether it keeps a value between calls (initial data or a name).
    pub state: bool,
}

impl PlanFacts {
    /// Room for `values` values; `view_ops` are the plan's view operators.
    /// It takes 40 bytes per value, before the buffer is verified: the
    /// caller bounds `values` by the buffer's size (one per 32 bytes,
    /// across all plans).
    pub fn new(values: usize, view_ops: Vec<i32>) -> Self {
        let zeros32 = || (0..values).map(|_| AtomicU32::new(0)).collect::<Vec<_>>();
        let zeros64 = || (0..values).map(|_| AtomicU64::new(0)).collect::<Vec<_>>();
        PlanFacts {
            values: Values {
                kinds: zeros32(),
                arenas: zeros32(),
                offsets: zeros64(),
                nbytes: zeros64(),
                first: zeros64(),
                last: zeros64(),
            },
            views: Mutex::new(vec![]),
            loops: Mutex::new(vec![]),
            view_ops,
        }
    }

    /// Records that value `j` is a planned tensor placed as `t`.
    pub fn tensor(&self, j: usize, t: PlacedTensor) {
        let (Some(kind), Some(arena), Some(offset), Some(nbytes)) = (
            self.values.kinds.get(j),
            self.values.arenas.get(j),
            self.values.offsets.get(j),
            self.values.nbytes.get(j),
        ) else {
            return;
        };
        kind.store(if t.state { PLANNED | STATE } else { PLANNED }, Ordering::Relaxed);
        arena.store(t.memory_id, Ordering::Relaxed);
        offset.store(t.offset, Ordering::Relaxed);
        nbytes.store(t.nbytes, Ordering::Relaxed);
    }

    /// Records that value `j` is a tensor list.
    pub fn list(&self, j: usize) {
        if let Some(kind) = self.values.kinds.get(j) {
            kind.store(LIST, Ordering::Relaxed);
        }
    }

    /// Records the uses of instruction `at` (`[chain, index]`).
    pub fn instruction(&self, at: [usize; 2], instruction: InstructionRef<'_>) {
        let pos = packed(at);
        named_values(instruction, |v| {
            let Some(j) = usize::try_from(v).ok() else { return };
            if let (Some(first), Some(last)) = (self.values.first.get(j), self.values.last.get(j)) {
                // each slot only grows: a plain read that finds it at or
                // above the new value spares the atomic read-modify-write
                // (a value's later uses rarely move its first use)
                if first.load(Ordering::Relaxed) < !pos {
                    first.fetch_max(!pos, Ordering::Relaxed);
                }
                if last.load(Ordering::Relaxed) <= pos {
                    last.fetch_max(pos.saturating_add(1), Ordering::Relaxed);
                }
            }
        });
        if let InstructionRef::KernelCall { op_index, args: Some(args) } = instruction
            && self.view_ops.contains(&op_index)
            && let Ok(mut views) = self.views.lock()
        {
            views.push((pos, args.iter().next(), args.iter().last()));
        }
        let [chain, index] = at;
        if let Some(d) = back_jump(instruction, index)
            && let Ok(mut loops) = self.loops.lock()
        {
            loops.push((chain, d, index));
        }
    }

    /// The value count the facts were sized for.
    pub fn values(&self) -> usize {
        self.values.kinds.len()
    }

    /// What was gathered, read once the walk is over, in the terms of the
    /// walk over `plan`: instruction numbers across its chains.
    pub(crate) fn read(self, plan: &PlanView<'_>) -> Gathered {
        // the instruction number of each chain's first instruction
        let mut bases: Vec<u64> = vec![];
        let mut total: u64 = 0;
        for chain in plan.chains().into_iter().flatten() {
            bases.push(total);
            total = total.saturating_add(chain.instructions().map_or(0, |i| i.len() as u64));
        }
        let mut views = self.views.into_inner().unwrap_or_default();
        views.sort_unstable_by_key(|v| v.0);
        let loops = self
            .loops
            .into_inner()
            .unwrap_or_default()
            .into_iter()
            .filter_map(|(chain, d, i)| {
                let base = *bases.get(chain)?;
                Some((base.saturating_add(d), base.saturating_add(i as u64)))
            })
            .collect();
        Gathered {
            facts: self.values,
            bases,
            views: views.into_iter().map(|(_, a, b)| (a, b)).collect(),
            loops,
            instructions: total,
        }
    }
}

/// The per-value facts, by value index.
struct Values {
    kinds: Vec<AtomicU32>,
    arenas: Vec<AtomicU32>,
    offsets: Vec<AtomicU64>,
    nbytes: Vec<AtomicU64>,
    /// `!position` of the first use, so that 0 is "unused" and the first use
    /// is a `fetch_max` too.
    first: Vec<AtomicU64>,
    /// `position + 1` of the last use; 0 is "unused".
    last: Vec<AtomicU64>,
}

/// What a value is to the memory plan.
pub(crate) enum Fact {
    Other,
    List,
    Planned(PlacedTensor),
}

/// The gathered facts of a plan, in instruction numbers across its chains.
pub(crate) struct Gathered {
    facts: Values,
    /// The instruction number of each chain's first instruction.
    bases: Vec<u64>,
    /// The first and last argument of each view call, in instruction order.
    pub(crate) views: Vec<(Option<i32>, Option<i32>)>,
    /// Backward jumps as `(destination, jump)`.
    pub(crate) loops: Vec<(u64, u64)>,
    /// Instructions across the chains.
    pub(crate) instructions: u64,
}

impl Gathered {
    /// Values in the plan.
    pub(crate) fn len(&self) -> usize {
        self.facts.kinds.len()
    }

    /// How many values are planned tensors.
    pub(crate) fn planned(&self) -> usize {
        self.facts.kinds.iter().filter(|k| k.load(Ordering::Relaxed) & PLANNED != 0).count()
    }

    /// What value `j` is.
    pub(crate) fn fact(&self, j: usize) -> Fact {
        let f = &self.facts;
        let load64 = |v: &[AtomicU64]| v.get(j).map_or(0, |a| a.load(Ordering::Relaxed));
        match f.kinds.get(j).map_or(OTHER, |k| k.load(Ordering::Relaxed)) {
            LIST => Fact::List,
            k if k & PLANNED != 0 => Fact::Planned(PlacedTensor {
                memory_id: f.arenas.get(j).map_or(0, |a| a.load(Ordering::Relaxed)),
                offset: load64(&f.offsets),
                nbytes: load64(&f.nbytes),
                state: k & STATE != 0,
            }),
            _ => Fact::Other,
        }
    }

    /// The first and last use of value `j`, if any instruction names it.
    pub(crate) fn uses(&self, j: usize) -> Option<(u64, u64)> {
        let f = &self.facts;
        let global = |pos: u64| {
            let [chain, index] = unpacked(pos);
            self.bases.get(chain).map_or(u64::MAX, |b| b.saturating_add(index as u64))
        };
        let load64 = |v: &[AtomicU64]| v.get(j).map_or(0, |a| a.load(Ordering::Relaxed));
        let last = load64(&f.last);
        (last > 0).then(|| (global(!load64(&f.first)), global(last.saturating_sub(1))))
    }
}
