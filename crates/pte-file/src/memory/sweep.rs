//! Sweeps over the planned tensors' lifetimes: the bytes live at once in
//! each buffer, and the pairs of tensors that share bytes while both hold
//! data. Both cost a sort of the tensors plus a logarithmic step per tensor
//! (and per pair found), whatever the file claims.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

use super::walk::Planned;
use super::Overlap;

/// The most overlapping pairs reported per method; past it the sweep stops.
///
/// ```
/// assert_eq!(pte_file::memory::MAX_OVERLAPS, 100);
/// ```
pub const MAX_OVERLAPS: usize = 100;

/// Per buffer id: the most bytes live at one instruction, and the first
/// instruction where that many are.
pub(crate) fn peaks(tensors: &[Planned]) -> BTreeMap<u32, (u64, Option<u64>)> {
    // (buffer, instruction, +bytes at its first instruction / -bytes after its last)
    let mut events: Vec<(u32, u64, bool, u64)> = Vec::with_capacity(tensors.len().saturating_mul(2));
    for t in tensors.iter().filter(|t| t.nbytes > 0) {
        if let Some((f, l)) = t.lifetime() {
            events.push((t.arena, f, true, t.nbytes));
            events.push((t.arena, l.saturating_add(1), false, t.nbytes));
        }
    }
    events.sort_unstable_by_key(|e| (e.0, e.1));
    let mut out: BTreeMap<u32, (u64, Option<u64>)> = BTreeMap::new();
    let mut live: u128 = 0;
    let mut current = None;
    let mut k = 0usize;
    while let Some(&(arena, at, _, _)) = events.get(k) {
        if current != Some(arena) {
            live = 0;
            current = Some(arena);
        }
        // every change at this instruction, then the total
        while let Some(&(_, _, add, n)) = events.get(k).filter(|e| e.0 == arena && e.1 == at) {
            live = if add { live.saturating_add(u128::from(n)) } else { live.saturating_sub(u128::from(n)) };
            k = k.saturating_add(1);
        }
        let now = u64::try_from(live).unwrap_or(u64::MAX);
        let e = out.entry(arena).or_insert((0, None));
        if now > e.0 {
            *e = (now, Some(at));
        }
    }
    out
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
/// and `true` when it stopped there.
pub(crate) fn overlaps(tensors: &[Planned]) -> (Vec<Overlap>, bool) {
    let mut order: Vec<&Planned> = tensors.iter().filter(|t| t.nbytes > 0 && t.lifetime().is_some()).collect();
    order.sort_unstable_by_key(|t| (t.arena, t.lifetime().map_or(0, |l| l.0), t.value()));
    let mut found = vec![];
    let mut k = 0usize;
    while let Some(arena) = order.get(k).map(|t| t.arena) {
        let end = k.saturating_add(order.get(k..).map_or(0, |r| r.iter().take_while(|t| t.arena == arena).count()));
        let group = order.get(k..end).unwrap_or_default();
        if sweep(arena, group, &mut found) {
            return (found, true);
        }
        k = end;
    }
    (found, false)
}

/// One buffer's sweep, in order of first instruction. The live tensors
/// that overlap nothing are kept by start offset, so they are disjoint and
/// one lookup finds every one a new tensor meets; the few that did overlap
/// are kept aside and compared one by one. Returns whether it stopped at
/// [`MAX_OVERLAPS`].
fn sweep(arena: u32, group: &[&Planned], found: &mut Vec<Overlap>) -> bool {
    let mut disjoint: BTreeMap<u64, Live> = BTreeMap::new();
    let mut expiry: BinaryHeap<Reverse<(u64, u64)>> = BinaryHeap::new();
    let mut aside: Vec<Live> = vec![];
    for t in group {
        let Some((first, last)) = t.lifetime() else { continue };
        let x = Live { value: t.value(), start: t.offset, end: t.offset.saturating_add(t.nbytes), last };
        while let Some(&Reverse((l, start))) = expiry.peek() {
            if l >= first {
                break;
            }
            expiry.pop();
            if disjoint.get(&start).is_some_and(|d| d.last == l) {
                disjoint.remove(&start);
            }
        }
        aside.retain(|a| a.last >= first);
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
        for (_, y) in disjoint.range(..x.end).rev() {
            if y.end <= x.start {
                break;
            }
            if meet(y, found) {
                return true;
            }
        }
        for y in &aside {
            if y.start < x.end && x.start < y.end && meet(y, found) {
                return true;
            }
        }
        if met {
            aside.push(x);
        } else {
            disjoint.insert(x.start, x);
            expiry.push(Reverse((last, x.start)));
        }
    }
    false
}
