//! Moves for a flatbuffer our reader cannot decode: a schema-less walk
//! from the root finds the tables, vtables, vectors and the offsets between
//! them; a move drops a field (zeroes its vtable slot) or cuts a stretch of
//! bytes out and moves every known offset across the cut with it, so what
//! a damaged file still says stays said.

use std::collections::{BTreeSet, HashSet};

use super::search::Search;

/// Walks stop after this many tables, so a hostile buffer costs little.
const MAX_TABLES: usize = 1 << 14;
/// Vector elements looked at when guessing whether they are tables.
const MAX_ELEMENTS: usize = 1 << 12;

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    b.get(at..at.checked_add(4)?).and_then(|w| <[u8; 4]>::try_from(w).ok()).map(u32::from_le_bytes)
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    b.get(at..at.checked_add(2)?).and_then(|w| <[u8; 2]>::try_from(w).ok()).map(u16::from_le_bytes)
}

fn put(b: &mut [u8], at: usize, v: &[u8]) -> Option<()> {
    b.get_mut(at..at.checked_add(v.len())?)?.copy_from_slice(v);
    Some(())
}

/// An offset the walk found: an unsigned forward offset stored at a
/// position, or a table's signed offset to its vtable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Ref {
    Forward(usize),
    Vtable(usize),
}

/// What the walk found in a buffer.
#[derive(Debug, Default)]
pub(crate) struct Graph {
    refs: Vec<Ref>,
    /// Where each table, vtable and vector starts.
    starts: BTreeSet<usize>,
    /// The vtable slots naming a field (their positions).
    slots: Vec<usize>,
    /// Every table found and its vtable: (table, vtable).
    tables: Vec<(usize, usize)>,
}

impl Graph {
    /// Every table whose vtable reads in `b`: (table, vtable, vtable size).
    fn vtables<'a>(&'a self, b: &'a [u8]) -> impl Iterator<Item = (usize, usize, usize)> + 'a {
        self.tables.iter().filter_map(move |&(t, vt)| Some((t, vt, table(b, t)?.1)))
    }
}

/// A table at `t` whose vtable lies in the buffer: (vtable, vtable size, table size).
fn table(b: &[u8], t: usize) -> Option<(usize, usize, usize)> {
    if !t.is_multiple_of(4) {
        return None;
    }
    let soffset = i64::from(u32_at(b, t)? as i32);
    let vt = usize::try_from(i64::try_from(t).ok()?.checked_sub(soffset)?).ok()?;
    let vt_size = usize::from(u16_at(b, vt)?);
    let size = usize::from(u16_at(b, vt.checked_add(2)?)?);
    // the table size is not checked: flatbuffers' verifier does not read it
    // (a shrink that zeroed it still reproduced), only each field's bounds
    let fits = vt_size >= 4 && vt_size.is_multiple_of(2) && vt.checked_add(vt_size)? <= b.len();
    fits.then_some((vt, vt_size, size))
}

/// Where a forward offset stored at `at` points, when inside the buffer.
fn follow(b: &[u8], at: usize) -> Option<usize> {
    let to = at.checked_add(usize::try_from(u32_at(b, at)?).ok()?)?;
    (to < b.len() && to > at && to.is_multiple_of(4)).then_some(to)
}

/// Walks `b` from the root offset at 0. Bytes before `from` (a header) are
/// never taken for objects.
pub(crate) fn walk(b: &[u8], from: usize) -> Graph {
    let mut g = Graph::default();
    let mut seen = HashSet::new();
    let mut work = Vec::new();
    // the root offset moves with cuts even when it names no valid table (a
    // reproducer of a bad vtable offset is such a root)
    if let Some(root) = follow(b, 0) {
        g.refs.push(Ref::Forward(0));
        if root >= from {
            g.starts.insert(root);
        }
        work.push(root);
    }
    while let Some(t) = work.pop() {
        if !seen.insert(t) || seen.len() > MAX_TABLES {
            continue;
        }
        let Some((vt, vt_size, _)) = table(b, t) else { continue };
        g.refs.push(Ref::Vtable(t));
        g.tables.push((t, vt));
        g.starts.extend([t, vt].into_iter().filter(|&p| p >= from));
        let end = b.len();
        for slot in (4..vt_size).step_by(2).filter_map(|i| vt.checked_add(i)) {
            let Some(o) = u16_at(b, slot).map(usize::from).filter(|&o| o >= 4) else { continue };
            g.slots.push(slot);
            let at = t.saturating_add(o);
            if !at.is_multiple_of(4) || at.saturating_add(4) > end {
                continue;
            }
            let Some(to) = follow(b, at) else { continue };
            if table(b, to).is_some() {
                g.refs.push(Ref::Forward(at));
                work.push(to);
                continue;
            }
            // a vector or string: a length, then at least a byte an element
            let Some(len) = u32_at(b, to).and_then(|l| usize::try_from(l).ok()) else { continue };
            if to.saturating_add(4).saturating_add(len) > b.len() {
                continue;
            }
            g.refs.push(Ref::Forward(at));
            g.starts.insert(to);
            let elems: Vec<usize> =
                (0..len.min(MAX_ELEMENTS)).filter_map(|i| to.checked_add(4)?.checked_add(i.checked_mul(4)?)).collect();
            if len > 0 && elems.iter().all(|&e| follow(b, e).is_some_and(|x| table(b, x).is_some())) {
                for e in elems {
                    g.refs.push(Ref::Forward(e));
                    work.extend(follow(b, e));
                }
            }
        }
    }
    g.slots.sort_unstable();
    g.slots.dedup();
    g.tables.sort_unstable();
    g
}

/// `b` with `cut` removed and every offset of `g` that crosses it shortened;
/// `header` lists 64-bit fields (an `eh00` header's program size and
/// segment base) that hold positions after the cut.
pub(crate) fn cut(b: &[u8], g: &Graph, cut: std::ops::Range<usize>, header: &[usize]) -> Option<Vec<u8>> {
    let k = cut.end.checked_sub(cut.start)?;
    let map = |x: usize| -> Option<usize> {
        if x < cut.start {
            Some(x)
        } else if x >= cut.end {
            x.checked_sub(k)
        } else {
            None
        }
    };
    let mut out = [b.get(..cut.start)?, b.get(cut.end..)?].concat();
    for r in &g.refs {
        match *r {
            Ref::Forward(at) => {
                let (Some(new_at), Some(to)) = (map(at), follow_raw(b, at)) else { continue };
                let Some(new_to) = map(to) else { continue };
                let v = u32::try_from(new_to.checked_sub(new_at)?).ok()?;
                put(&mut out, new_at, &v.to_le_bytes())?;
            }
            Ref::Vtable(t) => {
                let Some(new_t) = map(t) else { continue };
                let soffset = i64::from(u32_at(b, t)? as i32);
                let vt = usize::try_from(i64::try_from(t).ok()?.checked_sub(soffset)?).ok()?;
                let Some(new_vt) = map(vt) else { continue };
                let s = i64::try_from(new_t).ok()?.checked_sub(i64::try_from(new_vt).ok()?)?;
                put(&mut out, new_t, &i32::try_from(s).ok()?.to_le_bytes())?;
            }
        }
    }
    // a cut inside a table moves the fields after it nearer the table's
    // start: their vtable slots (and the table's size) follow, when every
    // table sharing the vtable agrees on the new values
    let mut slots: std::collections::BTreeMap<usize, u16> = std::collections::BTreeMap::new();
    for &(t, vt) in &g.tables {
        let (Some(new_vt), Some(_)) = (map(vt), map(t)) else { continue };
        let Some((_, vt_size, size)) = table(b, t) else { continue };
        let mut want = |pos: usize, v: u16| -> Option<()> {
            match slots.insert(pos, v) {
                Some(old) if old != v => None,
                _ => Some(()),
            }
        };
        if t < cut.start && t.saturating_add(size) > cut.start {
            let inside = t.saturating_add(size).min(cut.end).saturating_sub(cut.start);
            want(new_vt.checked_add(2)?, u16::try_from(size.checked_sub(inside)?).ok()?)?;
        }
        for i in (4..vt_size).step_by(2) {
            let o = usize::from(u16_at(b, vt.checked_add(i)?)?);
            let at = t.checked_add(o)?;
            let new_o = if o < 4 || t >= cut.start || at < cut.start {
                o
            } else if at >= cut.end {
                o.checked_sub(k)?
            } else {
                0
            };
            want(new_vt.checked_add(i)?, u16::try_from(new_o).ok()?)?;
        }
    }
    for (pos, v) in slots {
        put(&mut out, pos, &v.to_le_bytes())?;
    }
    for &at in header {
        let v = b.get(at..at.checked_add(8)?).and_then(|w| <[u8; 8]>::try_from(w).ok()).map(u64::from_le_bytes)?;
        if v >= cut.end as u64 {
            put(&mut out, at, &v.saturating_sub(k as u64).to_le_bytes())?;
        }
    }
    Some(out)
}

fn follow_raw(b: &[u8], at: usize) -> Option<usize> {
    at.checked_add(usize::try_from(u32_at(b, at)?).ok()?)
}

/// Where the flatbuffer of a file lies and what of it is a header: (end of
/// the header, end of the flatbuffer, positions of 64-bit header fields
/// holding positions).
pub(crate) type Frame = (usize, usize, Vec<usize>);

/// The frame of a `.pte`/`.ptd`/any flatbuffer: with an `eh00`/`FH01`
/// header, the program region; else the whole buffer.
pub(crate) fn frame(b: &[u8]) -> Frame {
    let magic = b.get(8..12);
    let header_len = u32_at(b, 12).and_then(|l| usize::try_from(l).ok());
    match (magic, header_len) {
        (Some(b"eh00"), Some(len)) => {
            let end = b
                .get(16..24)
                .and_then(|w| <[u8; 8]>::try_from(w).ok())
                .map(u64::from_le_bytes)
                .and_then(|n| usize::try_from(n).ok())
                .filter(|&n| n <= b.len())
                .unwrap_or(b.len());
            (8usize.saturating_add(len), end, vec![16, 24])
        }
        (Some(b"FH01"), Some(len)) => (8usize.saturating_add(len), b.len(), vec![]),
        _ => (8.min(b.len()), b.len(), vec![]),
    }
}

/// Flatbuffer-aware moves on the part of the best file that `lens` selects:
/// fields dropped, then stretches between objects cut. True on progress.
pub(crate) fn pass(s: &mut Search<'_>, lens: &dyn super::Lens) -> bool {
    let mut any = false;
    loop {
        let mut progress = false;
        let Some(inner) = lens.get(&s.best) else { return any };
        let (from, _, _) = frame(&inner);
        let n_slots = walk(&inner, from).slots.len();
        progress |= s.reduce(n_slots, 1, |best, r| {
            let mut inner = lens.get(best)?;
            let (from, _, _) = frame(&inner);
            let g = walk(&inner, from);
            for &slot in g.slots.get(r)? {
                put(&mut inner, slot, &[0, 0])?;
            }
            lens.put(best, &inner)
        });
        let regions = |inner: &[u8]| -> Vec<std::ops::Range<usize>> {
            let (from, end, _) = frame(inner);
            let g = walk(inner, from);
            let mut bounds: Vec<usize> = g.starts.iter().copied().filter(|&p| p >= from && p < end).collect();
            bounds.insert(0, from);
            bounds.push(end);
            bounds.dedup();
            bounds.windows(2).filter_map(|w| Some(*w.first()?..*w.get(1)?)).collect()
        };
        let Some(inner) = lens.get(&s.best) else { return any };
        let n_regions = regions(&inner).len();
        progress |= s.reduce(n_regions, 1, |best, r| {
            let inner = lens.get(best)?;
            let rs = regions(&inner);
            let span = rs.get(r.start)?.start..rs.get(r.end.checked_sub(1)?)?.end;
            // keep 4-byte alignment of what follows
            if !span.end.checked_sub(span.start)?.is_multiple_of(4) {
                return None;
            }
            let (from, _, header) = frame(&inner);
            let g = walk(&inner, from);
            lens.put(best, &cut(&inner, &g, span, &header)?)
        });
        progress |= alias(s, lens);
        progress |= retarget(s, lens);
        progress |= share_vtables(s, lens);
        progress |= words(s, lens);
        any |= progress;
        if !progress || s.stop.is_some() {
            return any;
        }
    }
}

/// The flatbuffer's 4-byte words (after its header) cut by delta debugging,
/// every offset, vtable slot and table size across a cut moved with it:
/// padding, fields no vtable names any more, and parts of objects the
/// predicate does not need. True on progress.
fn words(s: &mut Search<'_>, lens: &dyn super::Lens) -> bool {
    let span = |inner: &[u8]| {
        let (from, end, _) = frame(inner);
        let base = from.checked_add(3).map_or(from, |x| x & !3);
        (base, end.saturating_sub(base) / 4)
    };
    let Some((_, n)) = lens.get(&s.best).map(|inner| span(&inner)) else { return false };
    // a large buffer is cut coarsely: word by word would cost runs by the ten thousand
    s.reduce(n, (n / 1024).max(1), |best, r| {
        let inner = lens.get(best)?;
        let (base, _) = span(&inner);
        let cut_at = base.checked_add(r.start.checked_mul(4)?)?..base.checked_add(r.end.checked_mul(4)?)?;
        let (from, _, header) = frame(&inner);
        let g = walk(&inner, from);
        lens.put(best, &cut(&inner, &g, cut_at, &header)?)
    })
}

/// Each move `list` finds in the part `lens` selects (given with its walk
/// and the end of its flatbuffer), tried from the last
/// (a move taken leaves the earlier ones where they were listed): `apply`
/// makes it on the best file's current part, and the file with that part
/// is offered. True on progress.
fn each_move<M: Copy>(
    s: &mut Search<'_>,
    lens: &dyn super::Lens,
    list: impl Fn(&[u8], &Graph, usize) -> Vec<M>,
    apply: impl Fn(Vec<u8>, M) -> Option<Vec<u8>>,
) -> bool {
    let list = |inner: &[u8]| {
        let (from, end, _) = frame(inner);
        list(inner, &walk(inner, from), end)
    };
    let Some(n) = lens.get(&s.best).map(|inner| list(&inner).len()) else { return false };
    let mut progress = false;
    for i in (0..n).rev() {
        if s.stop.is_some() {
            break;
        }
        let c = lens.get(&s.best).and_then(|inner| {
            let &m = list(&inner).get(i)?;
            lens.put(&s.best, &apply(inner, m)?)
        });
        if let Some(c) = c {
            progress |= s.offer(c);
        }
    }
    progress
}

/// Fields of one table that name the same object take one field: the later
/// slot is pointed at the earlier field, so the word it used is free for
/// [`words`] to cut. True on progress.
fn alias(s: &mut Search<'_>, lens: &dyn super::Lens) -> bool {
    // (slot to change, the value to give it)
    let pairs = |inner: &[u8], g: &Graph, _| -> Vec<(usize, u16)> {
        let mut out = Vec::new();
        for (t, vt, vt_size) in g.vtables(inner) {
            let mut fields: Vec<(usize, u16, usize)> = Vec::new();
            for i in (4..vt_size).step_by(2) {
                let Some(slot) = vt.checked_add(i) else { continue };
                let Some(o) = u16_at(inner, slot).filter(|&o| o >= 4) else { continue };
                let Some(to) = t.checked_add(usize::from(o)).and_then(|at| follow(inner, at)) else { continue };
                match fields.iter().find(|f| f.2 == to && f.1 != o) {
                    Some(&(_, first, _)) => out.push((slot, first)),
                    None => fields.push((slot, o, to)),
                }
            }
        }
        out
    };
    each_move(s, lens, pairs, |mut inner, (slot, v)| {
        put(&mut inner, slot, &v.to_le_bytes())?;
        // the freed word goes in the same candidate: the same length
        // alone would not count as smaller
        let (from, _, header) = frame(&inner);
        let g = walk(&inner, from);
        let freed = freed_word(&inner, &g)?;
        cut(&inner, &g, freed, &header)
    })
}

/// A field or vector element naming a vector or string pointed at another
/// vector or string further on (an empty vector for a list the predicate
/// does not need filled, one string for two), the object no longer named
/// cut in the same candidate. True on progress.
fn retarget(s: &mut Search<'_>, lens: &dyn super::Lens) -> bool {
    // (where the offset is, the object it could name instead)
    let moves = |inner: &[u8], g: &Graph, _| -> Vec<(usize, usize)> {
        let structural: HashSet<usize> = g.tables.iter().flat_map(|&(t, v)| [t, v]).collect();
        let leaves: Vec<usize> = g.starts.iter().copied().filter(|p| !structural.contains(p)).collect();
        let mut out = Vec::new();
        for r in &g.refs {
            let Ref::Forward(at) = *r else { continue };
            let Some(x) = follow_raw(inner, at).filter(|x| leaves.contains(x)) else { continue };
            // the first alike object (as many items), and the first empty one
            let len = |p: usize| u32_at(inner, p);
            let later = || leaves.iter().copied().filter(|&y| y > at && y != x);
            out.extend(later().find(|&y| len(y) == len(x)).map(|y| (at, y)));
            out.extend(later().find(|&y| len(y) == Some(0) && len(x) != Some(0)).map(|y| (at, y)));
        }
        out.sort_unstable();
        out.dedup();
        out
    };
    each_move(s, lens, moves, |mut inner, (at, y)| {
        let x = follow_raw(&inner, at)?;
        put(&mut inner, at, &u32::try_from(y.checked_sub(at)?).ok()?.to_le_bytes())?;
        let (from, end, header) = frame(&inner);
        let g = walk(&inner, from);
        if g.starts.contains(&x)
            || g.refs.iter().any(|r| matches!(*r, Ref::Forward(a) if follow_raw(&inner, a) == Some(x)))
        {
            return Some(inner);
        }
        let e = g.starts.range(x.checked_add(1)?..).next().copied().unwrap_or(end);
        if !e.checked_sub(x)?.is_multiple_of(4) || g.starts.range(x..e).next().is_some() {
            return None;
        }
        cut(&inner, &g, x..e, &header)
    })
}

/// The first 4-byte word inside a table (after its vtable offset) that no
/// slot of its vtable names.
fn freed_word(b: &[u8], g: &Graph) -> Option<std::ops::Range<usize>> {
    for (t, vt, vt_size) in g.vtables(b) {
        let used: Vec<usize> =
            (4..vt_size).step_by(2).filter_map(|i| u16_at(b, vt.checked_add(i)?)).map(usize::from).collect();
        let last = used.iter().copied().filter(|&o| o >= 4).max().map_or(4, |o| o.saturating_add(4));
        // a word overlaps a field when each starts before the other ends
        let free = (4..last)
            .step_by(4)
            .find(|&w| !used.iter().any(|&o| o >= 4 && o < w.saturating_add(4) && w < o.saturating_add(4)));
        if let Some(w) = free {
            let at = t.checked_add(w)?;
            return Some(at..at.checked_add(4)?);
        }
    }
    None
}

/// A table's vtable replaced by the same slots found elsewhere in the
/// buffer (another vtable, or any bytes that read alike; the table size a
/// reader never needs is not compared), the vtable left unused cut in the
/// same candidate. True on progress.
fn share_vtables(s: &mut Search<'_>, lens: &dyn super::Lens) -> bool {
    // (table, the place its vtable could be)
    let moves = |inner: &[u8], g: &Graph, end: usize| -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (t, vt, vt_size) in g.vtables(inner) {
            let Some(want) = inner.get(vt..vt.saturating_add(vt_size)) else { continue };
            let fits = |p: usize| {
                p != vt
                    && inner.get(p..p.saturating_add(2)) == want.get(..2)
                    && inner.get(p.saturating_add(4)..p.saturating_add(vt_size)) == want.get(4..)
            };
            if let Some(p) = (0..end).step_by(2).find(|&p| fits(p)) {
                out.push((t, p));
            }
        }
        out
    };
    each_move(s, lens, moves, |mut inner, (t, p)| {
        let (_, vt_size, _) = table(&inner, t)?;
        let soffset_old = i64::from(u32_at(&inner, t)? as i32);
        let old = usize::try_from(i64::try_from(t).ok()?.checked_sub(soffset_old)?).ok()?;
        let soffset = i32::try_from(i64::try_from(t).ok()?.checked_sub(i64::try_from(p).ok()?)?).ok()?;
        put(&mut inner, t, &soffset.to_le_bytes())?;
        let (from, _, header) = frame(&inner);
        let g = walk(&inner, from);
        // the old vtable's words cut, when nothing starts in them any more
        let lo = old & !3;
        let hi = old.checked_add(vt_size)?.checked_add(3)? & !3;
        if g.starts.range(lo..hi).next().is_some() || g.tables.iter().any(|&(_, v)| (lo..hi).contains(&v)) {
            return None;
        }
        cut(&inner, &g, lo..hi, &header)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stock runtime's SEGV as the structural shrink left it before
    /// these moves: table sizes zeroed, every plan field but one pointing at
    /// one empty vector through its own word.
    fn reproducer() -> Vec<u8> {
        std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/shrink-segv-177.pte")).unwrap()
    }

    fn program(b: &[u8]) -> pte_schema::Program<'_> {
        pte_file::PteFile::from_bytes(b).unwrap().program
    }

    #[test]
    fn a_root_without_a_valid_table_still_moves_with_a_cut() {
        // exir's reproducer of a vtable before the buffer's start: the root
        // table at 60 says its vtable is 61 bytes before it
        let mut b = vec![0u8; 64];
        b[0] = 60;
        b[60] = 61;
        let g = walk(&b, 8);
        let out = cut(&b, &g, 8..60, &[]).unwrap();
        assert_eq!(out, [8, 0, 0, 0, 0, 0, 0, 0, 61, 0, 0, 0]);
    }

    #[test]
    fn tables_with_a_zero_size_are_walked() {
        let b = reproducer();
        let g = walk(&b, 8);
        // program, constant segment, plan, delegate
        assert_eq!(g.tables.len(), 4, "{:?}", g.tables);
    }

    #[test]
    fn a_cut_inside_a_table_moves_the_slots_after_it() {
        let b = reproducer();
        let g = walk(&b, 8);
        // the plan table's unused word between its sizes and name fields
        let free = freed_word(&b, &g).unwrap();
        let out = cut(&b, &g, free, &[]).unwrap();
        assert_eq!(out.len() + 4, b.len());
        assert_eq!(program(&out), program(&b));
    }

    #[test]
    fn fields_naming_one_object_share_a_word() {
        let b = reproducer();
        let mut reads = |c: &[u8]| pte_file::PteFile::from_bytes(c).is_ok();
        let mut quiet = |_: &super::super::Progress| {};
        let mut s = Search::new(b.clone(), None, None, &mut reads, &mut quiet);
        assert!(alias(&mut s, &super::super::Whole));
        // name, values, inputs and outputs: three words saved, the same program
        assert!(s.best.len() + 12 <= b.len(), "{} of {}", s.best.len(), b.len());
        assert_eq!(program(&s.best), program(&b));
    }
}
