//! Byte-level edits: the fallback for inputs no format reads, and a share of
//! every run so the corpus never depends on the structure being intact.

use pte_gen::Rng;

/// Interesting 32-bit values: offsets and lengths at the edges.
pub(crate) const WORDS: [u32; 14] =
    [0, 1, 2, 4, 8, 16, 0x7F, 0xFF, 0x100, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, 0xFFFF_FFFE, 0xFFFF_FFF0];

/// Interesting 64-bit values for `eh00`/`FH01` offsets and sizes.
pub(crate) const WIDE: [u64; 9] =
    [0, 1, 16, 0x7FFF_FFFF_FFFF_FFFF, 0x8000_0000_0000_0000, u64::MAX, u64::MAX - 15, 1 << 32, 1 << 40];

/// The formats' magic values and common field values (also in `pte.dict`).
pub(crate) const TOKENS: [&[u8]; 20] = [
    b"ET12",
    b"eh00",
    b"FT01",
    b"FH01",
    b"BP08",
    b"NPTG",
    b"XH00",
    b"PK\x03\x04",
    b"PK\x01\x02",
    b"PK\x05\x06",
    b"program.pte",
    b"__metadata__",
    b"\"dtype\"",
    b"\"shape\"",
    b"\"data_offsets\"",
    b"\"F32\"",
    b"forward",
    b"aten::add",
    b"XnnpackBackend",
    b"\x80\x00\x00\x00",
];

/// One to four byte-level edits of `data`, cut to `max_size`.
pub(crate) fn mutate(data: &[u8], max_size: usize, rng: &mut Rng) -> Vec<u8> {
    let mut b = data.to_vec();
    let edits = 1usize.saturating_add(rng.below(4));
    for _ in 0..edits {
        edit(&mut b, max_size, rng);
    }
    if b == data {
        // Every edit can be a no-op (a word written over itself); the caller
        // asked for a change, so flip one bit or grow by one byte.
        match b.get_mut(rng.below(data.len())) {
            Some(x) => *x ^= 1u8 << rng.below(8),
            None => b.push(rng.below(256) as u8),
        }
    }
    b.truncate(max_size);
    b
}

fn edit(b: &mut Vec<u8>, max_size: usize, rng: &mut Rng) {
    let at = rng.below(b.len());
    match rng.below(11) {
        0 | 1 => {
            if let Some(x) = b.get_mut(at) {
                *x ^= 1u8 << rng.below(8);
            }
        }
        2 => {
            let v = [0u8, 0xFF, 0x7F, 0x80, 1].get(rng.below(5)).copied().unwrap_or(0);
            if let Some(x) = b.get_mut(at) {
                *x = v;
            }
        }
        3 | 4 => {
            // Flatbuffer and header fields are 4-aligned; misaligned words
            // hit the high bytes of 64-bit fields too.
            let at = if rng.below(4) == 0 { at } else { at & !3 };
            let v = WORDS.get(rng.below(WORDS.len())).copied().unwrap_or(0);
            put(b, at, &v.to_le_bytes());
        }
        5 => {
            let at = at & !3;
            let old = b.get(at..at.saturating_add(4)).and_then(|w| <[u8; 4]>::try_from(w).ok());
            if let Some(old) = old {
                let delta = (rng.below(33) as u32).wrapping_sub(16);
                put(b, at, &u32::from_le_bytes(old).wrapping_add(delta).to_le_bytes());
            }
        }
        6 => {
            let at = at & !7;
            let v = WIDE.get(rng.below(WIDE.len())).copied().unwrap_or(0);
            put(b, at, &v.to_le_bytes());
        }
        7 => {
            let t = TOKENS.get(rng.below(TOKENS.len())).copied().unwrap_or(b"");
            if rng.below(2) == 0 {
                put(b, at, t);
            } else if b.len().saturating_add(t.len()) <= max_size {
                let at = at.min(b.len());
                b.splice(at..at, t.iter().copied());
            }
        }
        8 => {
            let n = 1usize.saturating_add(rng.below(64));
            let end = at.saturating_add(n).min(b.len());
            if at < end {
                b.drain(at..end);
            }
        }
        9 => {
            // Duplicate a chunk: repeated tables and vectors.
            let n = 1usize.saturating_add(rng.below(64));
            let end = at.saturating_add(n).min(b.len());
            let chunk = b.get(at..end).map(<[u8]>::to_vec).unwrap_or_default();
            if b.len().saturating_add(chunk.len()) <= max_size {
                let to = rng.below(b.len().saturating_add(1)).min(b.len());
                b.splice(to..to, chunk);
            }
        }
        _ => {
            if rng.below(2) == 0 {
                b.truncate(at);
            } else if b.len() < max_size {
                let n = rng.below(max_size.saturating_sub(b.len()).min(32)).saturating_add(1);
                let at = at.min(b.len());
                b.splice(at..at, (0..n).map(|_| rng.below(256) as u8));
            }
        }
    }
}

/// Overwrites bytes at `at` with as much of `v` as fits.
pub(crate) fn put(b: &mut [u8], at: usize, v: &[u8]) {
    let n = v.len().min(b.len().saturating_sub(at));
    if let (Some(dst), Some(src)) = (b.get_mut(at..at.saturating_add(n)), v.get(..n)) {
        dst.copy_from_slice(src);
    }
}
