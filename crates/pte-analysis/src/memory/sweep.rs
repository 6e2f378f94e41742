//! Sweeps over the planned tensors' lifetimes: the bytes live at once in
//! each buffer, and the pairs of tensors that share bytes while both hold
//! data. Both cost a sort of the tensors plus a logarithmic step per tensor
//! (and per pair found), whatever the file claims; a buffer's peak is added
//! up per instruction when its instructions are few for its tensors, else
//! from sorted changes.

use std::collections::BTreeMap;

use super::walk::Planned;
use super::Overlap;

/// The most overlapping pairs reported per method; past it the sweep stops.
///
/// ```
/// assert_eq!(pte_analysis::memory::MAX_OVERLAPS, 100);
/// ```
pub const MAX_OVERLAPS: usize = 100;

/// The tensors that hold data at some point, by buffer id, then first
/// instruction, then value: the order both sweeps walk. Views are left out:
/// their bytes are their base's, whose lifetime already covers them.
pub(crate) fn in_sweep_order(tensors: &[Planned]) -> Vec<&Planned> {
    // the tensors are in value order: two stable sorts, by first
    // instruction and then by buffer, give the order of the three keys
    // sized for all: a filtered collect would grow (and copy) it step by step
    let mut order: Vec<&Planned> = Vec::with_capacity(tensors.len());
    order.extend(tensors.iter().filter(|t| t.nbytes > 0 && t.lifetime().is_some() && !t.is_view()));
    sort_by_instruction(&mut order, |t| t.lifetime().map_or(0, |l| l.0));
    // a plan of one buffer (the usual) is already in order
    if !order.is_sorted_by_key(|t| t.arena) {
        order.sort_by_key(|t| t.arena);
    }
    order
}

/// Sorts `items` by an instruction number, stably: by counting when the
/// numbers span no more than a few slots per item (as a plan's do: every
/// tensor is named by some of its instructions), else by comparison. Either
/// way the work follows the items, not the numbers the file claims.
pub(crate) fn sort_by_instruction<T: Copy>(items: &mut [T], key: impl Fn(&T) -> u64) {
    let max = items.iter().map(&key).max().unwrap_or(0);
    let slots = usize::try_from(max)
        .ok()
        .and_then(|m| m.checked_add(2))
        .filter(|&s| s <= items.len().saturating_mul(4).saturating_add(1024));
    let Some(slots) = slots else {
        items.sort_by_key(key);
        return;
    };
    let slot = |t: &T| usize::try_from(key(t)).unwrap_or(0);
    // starts[k + 1] counts the items of key k, then becomes where key k + 1 starts
    let mut starts = vec![0usize; slots];
    for t in items.iter() {
        if let Some(c) = starts.get_mut(slot(t).saturating_add(1)) {
            *c = c.saturating_add(1);
        }
    }
    let mut total = 0usize;
    for c in &mut starts {
        total = total.saturating_add(*c);
        *c = total;
    }
    let copy = items.to_vec();
    for t in copy {
        if let Some(at) = starts.get_mut(slot(&t)) {
            if let Some(out) = items.get_mut(*at) {
                *out = t;
            }
            *at = at.saturating_add(1);
        }
    }
}

/// The runs of `order` (see [`in_sweep_order`]) that share one buffer id.
fn by_arena<'p, 'a>(order: &'a [&'p Planned]) -> impl Iterator<Item = (u32, &'a [&'p Planned])> {
    let mut rest = order;
    std::iter::from_fn(move || {
        let arena = rest.first()?.arena;
        let n = rest.iter().take_while(|t| t.arena == arena).count();
        let (group, tail) = rest.split_at(n);
        rest = tail;
        Some((arena, group))
    })
}

/// Per buffer id: the most bytes live at one instruction, and the first
/// instruction where that many are. `order` is [`in_sweep_order`]'s.
pub(crate) fn peaks(order: &[&Planned]) -> BTreeMap<u32, (u64, Option<u64>)> {
    let mut out: BTreeMap<u32, (u64, Option<u64>)> = BTreeMap::new();
    for (arena, group) in by_arena(order) {
        if let Some(peak) = peak_of(group) {
            out.insert(arena, peak);
        }
    }
    out
}

/// One buffer's peak. When the group's instructions span no more than a few
/// slots per tensor, the byte changes are added up per instruction in one
/// pass (the common case, and the cheap one); otherwise the changes are
/// sorted. Either way the work and memory follow the tensors, not what the
/// file claims its instruction numbers are.
fn peak_of(group: &[&Planned]) -> Option<(u64, Option<u64>)> {
    let first = group.first()?.lifetime()?.0;
    let end = group.iter().filter_map(|t| t.lifetime()).map(|l| l.1).max()?.saturating_add(2);
    let span = usize::try_from(end.saturating_sub(first)).unwrap_or(usize::MAX);
    let changes: Vec<(u64, i128)> = if span <= group.len().saturating_mul(4).saturating_add(1024) {
        let mut delta = vec![0i128; span];
        for t in group {
            let Some((f, l)) = t.lifetime() else { continue };
            let at = |i: u64| usize::try_from(i.saturating_sub(first)).ok();
            if let Some(d) = at(f).and_then(|i| delta.get_mut(i)) {
                *d = d.saturating_add(i128::from(t.nbytes));
            }
            if let Some(d) = at(l.saturating_add(1)).and_then(|i| delta.get_mut(i)) {
                *d = d.saturating_sub(i128::from(t.nbytes));
            }
        }
        delta.into_iter().zip(first..).filter(|(d, _)| *d != 0).map(|(d, i)| (i, d)).collect()
    } else {
        let mut events: Vec<(u64, i128)> = Vec::with_capacity(group.len().saturating_mul(2));
        for t in group {
            let Some((f, l)) = t.lifetime() else { continue };
            events.push((f, i128::from(t.nbytes)));
            events.push((l.saturating_add(1), i128::from(t.nbytes).saturating_neg()));
        }
        events.sort_unstable_by_key(|e| e.0);
        events
    };
    let mut best: (u64, Option<u64>) = (0, None);
    let mut live: i128 = 0;
    let mut k = 0usize;
    // every change at one instruction, then the total
    while let Some(&(at, _)) = changes.get(k) {
        while let Some(&(_, d)) = changes.get(k).filter(|e| e.0 == at) {
            live = live.saturating_add(d);
            k = k.saturating_add(1);
        }
        let now = u64::try_from(live.max(0)).unwrap_or(u64::MAX);
        if now > best.0 {
            best = (now, Some(at));
        }
    }
    Some(best)
}

/// A tensor as the overlap sweep holds it.
#[derive(Clone, Copy)]
struct Live {
    value: usize,
    start: u64,
    end: u64,
    last: u64,
}

/// Pairs of tensors of one buffer whose bytes and lifetimes both
/// intersect, in the order the sweep meets them; at most [`MAX_OVERLAPS`],
/// and `true` when it stopped there. `order` is [`in_sweep_order`]'s.
pub(crate) fn overlaps(order: &[&Planned]) -> (Vec<Overlap>, bool) {
    let mut found = vec![];
    for (arena, group) in by_arena(order) {
        if sweep(arena, group, &mut found) {
            return (found, true);
        }
    }
    (found, false)
}

/// The live tensors that overlap nothing, each by its start offset (so
/// disjoint: sorted by start they are sorted by end too, and the ones a new
/// tensor meets are those starting before its end and ending after its
/// start): an unordered vector while few are live at once (exporters'
/// plans keep a handful, and a scan of a few costs less than keeping them
/// sorted), a B-tree once more are, so the work stays logarithmic whatever
/// the file holds.
enum Disjoint {
    Few(Vec<Live>),
    Tree(BTreeMap<u64, Live>),
}

/// Live disjoint tensors a [`Disjoint`] holds in a vector.
const FEW_MAX: usize = 16;

impl Disjoint {
    fn get(&self, start: u64) -> Option<&Live> {
        match self {
            Disjoint::Few(v) => v.iter().find(|l| l.start == start),
            Disjoint::Tree(t) => t.get(&start),
        }
    }

    fn remove(&mut self, start: u64) {
        match self {
            Disjoint::Few(v) => {
                if let Some(k) = v.iter().position(|l| l.start == start) {
                    v.swap_remove(k);
                }
            }
            Disjoint::Tree(t) => {
                t.remove(&start);
            }
        }
    }

    /// Adds `x`, replacing one of the same start; past `few_max` held, the
    /// vector becomes a tree.
    fn insert(&mut self, x: Live, few_max: usize) {
        match self {
            Disjoint::Few(v) if v.len() < few_max => match v.iter_mut().find(|l| l.start == x.start) {
                Some(slot) => *slot = x,
                None => v.push(x),
            },
            Disjoint::Few(v) => {
                let mut t: BTreeMap<u64, Live> = v.drain(..).map(|l| (l.start, l)).collect();
                t.insert(x.start, x);
                *self = Disjoint::Tree(t);
            }
            Disjoint::Tree(t) => {
                t.insert(x.start, x);
            }
        }
    }

    /// Those starting before `end` and ending after `start`, the last
    /// first, each passed to `meet` until it says stop; whether it did.
    fn meeting(&self, start: u64, end: u64, meet: impl FnMut(&Live) -> bool) -> bool {
        match self {
            Disjoint::Few(v) => {
                let meets = |y: &&Live| y.start < end && y.end > start;
                // the usual answer: none
                if !v.iter().any(|y| meets(&y)) {
                    return false;
                }
                let mut met: Vec<&Live> = v.iter().filter(meets).collect();
                met.sort_unstable_by_key(|y| std::cmp::Reverse(y.start));
                met.into_iter().any(meet)
            }
            Disjoint::Tree(t) => t.range(..end).rev().map(|(_, y)| y).take_while(|y| y.end > start).any(meet),
        }
    }
}

/// One buffer's sweep, in order of first instruction. The live tensors
/// that overlap nothing are kept by start offset ([`Disjoint`]); the few
/// that did overlap are kept aside and compared one by one. A tensor leaves
/// the disjoint ones after its last instruction: the group sorted by last
/// instruction says when, read with a cursor. Returns whether it stopped at
/// [`MAX_OVERLAPS`].
fn sweep(arena: u32, group: &[&Planned], found: &mut Vec<Overlap>) -> bool {
    sweep_with(arena, group, found, FEW_MAX)
}

/// [`sweep`], holding at most `few_max` disjoint tensors in a vector.
fn sweep_with(arena: u32, group: &[&Planned], found: &mut Vec<Overlap>, few_max: usize) -> bool {
    let mut disjoint = Disjoint::Few(vec![]);
    // (last instruction, start offset) of each tensor; one that has not
    // started yet cannot have ended, so the cursor never passes one early
    let mut expiry: Vec<(u64, u64)> = Vec::with_capacity(group.len());
    expiry.extend(group.iter().filter_map(|t| Some((t.lifetime()?.1, t.offset))));
    // all that end before a tensor starts leave together: their order
    // among themselves does not matter
    sort_by_instruction(&mut expiry, |e| e.0);
    let mut expired = 0usize;
    let mut aside: Vec<Live> = vec![];
    for t in group {
        let Some((first, last)) = t.lifetime() else { continue };
        let x = Live { value: t.value(), start: t.offset, end: t.offset.saturating_add(t.nbytes), last };
        while let Some(&(l, start)) = expiry.get(expired) {
            if l >= first {
                break;
            }
            expired = expired.saturating_add(1);
            if disjoint.get(start).is_some_and(|d| d.last == l) {
                disjoint.remove(start);
            }
        }
        if !aside.is_empty() {
            aside.retain(|a| a.last >= first);
        }
        let mut met = false;
        let mut meet = |y: &Live, found: &mut Vec<Overlap>| {
            met = true;
            found.push(Overlap {
                arena,
                values: [y.value, x.value],
                bytes: [x.start.max(y.start), x.end.min(y.end)],
                instructions: [first, x.last.min(y.last)],
            });
            found.len() >= MAX_OVERLAPS
        };
        if disjoint.meeting(x.start, x.end, |y| meet(y, found)) {
            return true;
        }
        for y in &aside {
            if y.start < x.end && x.start < y.end && meet(y, found) {
                return true;
            }
        }
        if met {
            aside.push(x);
        } else {
            disjoint.insert(x, few_max);
        }
    }
    false
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::arithmetic_side_effects)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The peak by brute force: the live bytes at every instruction.
    fn brute(tensors: &[Planned]) -> BTreeMap<u32, (u64, Option<u64>)> {
        let mut out = BTreeMap::new();
        let arenas: std::collections::BTreeSet<u32> =
            tensors.iter().filter(|t| t.nbytes > 0 && t.lifetime().is_some()).map(|t| t.arena).collect();
        for a in arenas {
            let ts: Vec<&Planned> = tensors.iter().filter(|t| t.arena == a && t.nbytes > 0).collect();
            let mut instants: Vec<u64> = ts.iter().filter_map(|t| t.lifetime()).map(|l| l.0).collect();
            instants.sort_unstable();
            let mut best = (0u64, None);
            for i in instants {
                let live: u64 =
                    ts.iter().filter(|t| t.lifetime().is_some_and(|(f, l)| f <= i && i <= l)).map(|t| t.nbytes).sum();
                if live > best.0 {
                    best = (live, Some(i));
                }
            }
            out.insert(a, best);
        }
        out
    }

    /// An overlap as the sweep reports it: buffer, values, bytes, instructions.
    type Pair = (u32, [usize; 2], [u64; 2], [u64; 2]);

    /// Every pair the sweeps report, in their order, holding at most
    /// `few_max` disjoint tensors in a vector; whether they stopped at the cap.
    fn swept(tensors: &[Planned], few_max: usize) -> (Vec<Pair>, bool) {
        let order = in_sweep_order(tensors);
        let mut found = vec![];
        let mut stopped = false;
        for (arena, group) in by_arena(&order) {
            if sweep_with(arena, group, &mut found, few_max) {
                stopped = true;
                break;
            }
        }
        (found.iter().map(|o| (o.arena, o.values, o.bytes, o.instructions)).collect(), stopped)
    }

    proptest! {
        // few live tensors in an unordered vector, or all in a tree: the
        // same pairs in the same order, the cap at the same place
        #[test]
        fn the_vector_and_the_tree_meet_the_same_tensors(
            spans in prop::collection::vec((0u32..2, 0u32..30, 0u32..8, 0u64..12, 1u64..6), 0..150),
        ) {
            let tensors: Vec<Planned> = spans
                .iter()
                .enumerate()
                .map(|(k, &(arena, first, len, offset, bytes))| {
                    Planned::for_test(k as u32, arena, offset * 4, bytes * 4, Some((first, first + len)))
                })
                .collect();
            prop_assert_eq!(swept(&tensors, FEW_MAX), swept(&tensors, 0));
            prop_assert_eq!(swept(&tensors, 3), swept(&tensors, 0));
        }

        // `stride` spreads the instructions: small strides take the
        // per-instruction path, large ones the sorted one.
        #[test]
        fn peaks_equal_the_brute_force(
            spans in prop::collection::vec((0u32..3, 0u32..40, 0u32..10, 0u64..100), 0..40),
            stride in prop::sample::select(vec![1u32, 1000, 1_000_000]),
        ) {
            let tensors: Vec<Planned> = spans
                .iter()
                .enumerate()
                .map(|(k, &(arena, first, len, bytes))| {
                    Planned::for_test(k as u32, arena, 0, bytes, Some((first * stride, (first + len) * stride)))
                })
                .collect();
            prop_assert_eq!(peaks(&in_sweep_order(&tensors)), brute(&tensors));
        }
    }
}
