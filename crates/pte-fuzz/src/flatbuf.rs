//! Edits inside a flatbuffer without its schema: follow offsets from the
//! root (table fields, then vector elements) a random number of steps and
//! overwrite what is found there. The bytes around stay valid, so the
//! verifier's deeper checks see the change, not a broken root.

use pte_gen::Rng;

use crate::bytes::{put, WIDE, WORDS};

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    b.get(at..at.checked_add(4)?).and_then(|w| <[u8; 4]>::try_from(w).ok()).map(u32::from_le_bytes)
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    b.get(at..at.checked_add(2)?).and_then(|w| <[u8; 2]>::try_from(w).ok()).map(u16::from_le_bytes)
}

/// A table at `t`: its fields' positions and widths (the gap to the next
/// field, at most 8), when its vtable lies in the buffer.
fn fields(b: &[u8], t: usize) -> Option<Vec<(usize, usize)>> {
    let soffset = i64::from(u32_at(b, t)? as i32);
    let vt = usize::try_from(i64::try_from(t).ok()?.checked_sub(soffset)?).ok()?;
    let vt_size = usize::from(u16_at(b, vt)?);
    let table_size = usize::from(u16_at(b, vt.checked_add(2)?)?);
    if vt_size < 4 || vt_size % 2 != 0 || vt.checked_add(vt_size)? > b.len() || t.checked_add(table_size)? > b.len() {
        return None;
    }
    let mut offs: Vec<usize> = (4..vt_size)
        .step_by(2)
        .filter_map(|i| u16_at(b, vt.checked_add(i)?))
        .map(usize::from)
        .filter(|&o| o >= 4)
        .collect();
    offs.sort_unstable();
    offs.dedup();
    let mut out = Vec::with_capacity(offs.len());
    for (i, &o) in offs.iter().enumerate() {
        let next = offs.get(i.saturating_add(1)).copied().unwrap_or(table_size);
        let width = next.saturating_sub(o).clamp(1, 8);
        out.push((t.checked_add(o)?, width));
    }
    Some(out)
}

/// Where an offset field at `at` points, when inside the buffer.
fn follow(b: &[u8], at: usize) -> Option<usize> {
    let to = at.checked_add(usize::try_from(u32_at(b, at)?).ok()?)?;
    (to < b.len() && to != at).then_some(to)
}

/// Overwrites one field (or vector element) reached from the root.
pub(crate) fn mutate(data: &[u8], rng: &mut Rng) -> Option<Vec<u8>> {
    let mut b = data.to_vec();
    let mut table = follow(&b, 0)?;
    let mut target: Option<(usize, usize)> = None;
    for _ in 0..1usize.saturating_add(rng.below(7)) {
        let fs = fields(&b, table)?;
        let &(at, width) = fs.get(rng.below(fs.len()))?;
        target = Some((at, width));
        if width != 4 || rng.below(4) == 0 {
            break;
        }
        let Some(to) = follow(&b, at) else { break };
        // A table (its vtable checks out) or a vector (a length word, then
        // elements): step into a random element, itself maybe an offset.
        if fields(&b, to).is_some() && rng.below(3) != 0 {
            table = to;
            continue;
        }
        let len = usize::try_from(u32_at(&b, to)?).ok()?;
        if len == 0 || len > b.len() {
            break;
        }
        let elem = to.checked_add(4)?.checked_add(rng.below(len.min(b.len() / 4)).checked_mul(4)?)?;
        target = Some((elem, 4));
        match follow(&b, elem) {
            Some(t) if fields(&b, t).is_some() && rng.below(4) != 0 => table = t,
            _ => break,
        }
    }
    let (at, width) = target?;
    overwrite(&mut b, at, width, rng);
    (b != data).then_some(b)
}

/// A new value for a field of `width` bytes: an edge value, a small step
/// from the old one, or a byte of it flipped.
fn overwrite(b: &mut [u8], at: usize, width: usize, rng: &mut Rng) {
    match rng.below(4) {
        0 if width >= 8 => put(b, at, &WIDE.get(rng.below(WIDE.len())).copied().unwrap_or(0).to_le_bytes()),
        0 | 1 if width >= 4 => put(b, at, &WORDS.get(rng.below(WORDS.len())).copied().unwrap_or(0).to_le_bytes()),
        2 if width >= 4 => {
            if let Some(old) = u32_at(b, at) {
                let delta = (rng.below(9) as u32).wrapping_sub(4);
                put(b, at, &old.wrapping_add(delta).to_le_bytes());
            }
        }
        _ => {
            let i = at.saturating_add(rng.below(width));
            let v = [0u8, 1, 0x7F, 0x80, 0xFF].get(rng.below(5)).copied().unwrap_or(0);
            if let Some(x) = b.get_mut(i) {
                *x = if rng.below(2) == 0 { v } else { *x ^ (1u8 << rng.below(8)) };
            }
        }
    }
}

/// An extended-header value (`eh00` in a `.pte`, `FH01` in a `.ptd`): its
/// length, offsets and sizes set to edge values or nudged.
pub(crate) fn header(data: &[u8], rng: &mut Rng) -> Option<Vec<u8>> {
    let magic = data.get(8..12)?;
    if magic != b"eh00" && magic != b"FH01" {
        return None;
    }
    let len = usize::try_from(u32_at(data, 12)?).ok()?.min(64);
    let mut b = data.to_vec();
    // Fields after magic and length are 64-bit.
    let fields = len.saturating_sub(8) / 8;
    let at = match fields {
        0 => 12,
        _ if rng.below(5) == 0 => 12,
        n => 16usize.saturating_add(rng.below(n).saturating_mul(8)),
    };
    if at == 12 {
        put(&mut b, at, &WORDS.get(rng.below(WORDS.len())).copied().unwrap_or(0).to_le_bytes());
    } else {
        let old = b.get(at..at.saturating_add(8)).and_then(|w| <[u8; 8]>::try_from(w).ok()).map(u64::from_le_bytes)?;
        let new = match rng.below(3) {
            0 => WIDE.get(rng.below(WIDE.len())).copied().unwrap_or(0),
            1 => old.wrapping_add((rng.below(65) as u64).wrapping_sub(32)),
            _ => (data.len() as u64).wrapping_add((rng.below(3) as u64).wrapping_sub(1)),
        };
        put(&mut b, at, &new.to_le_bytes());
    }
    (b != data).then_some(b)
}

/// Where entry `i` of a program's segment table (`Program.segments`, vtable
/// slot 12, a vector of 16-byte `DataSegment` structs) starts.
pub(crate) fn segment_entry(b: &[u8], i: usize) -> Option<usize> {
    let root = follow(b, 0)?;
    let soffset = i64::from(u32_at(b, root)? as i32);
    let vt = usize::try_from(i64::try_from(root).ok()?.checked_sub(soffset)?).ok()?;
    if u16_at(b, vt)? <= 12 {
        return None;
    }
    let field = usize::from(u16_at(b, vt.checked_add(12)?)?);
    if field == 0 {
        return None;
    }
    let vector = follow(b, root.checked_add(field)?)?;
    let len = usize::try_from(u32_at(b, vector)?).ok()?;
    if i >= len {
        return None;
    }
    let at = vector.checked_add(4)?.checked_add(i.checked_mul(16)?)?;
    (at.checked_add(16)? <= b.len()).then_some(at)
}
