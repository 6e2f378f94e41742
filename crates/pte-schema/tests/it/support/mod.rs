//! What several test files of this crate share.

#![allow(clippy::unwrap_used, clippy::indexing_slicing, dead_code)]

/// Every corpus program: (name, its flatbuffer region).
pub fn corpus_programs() -> Vec<(String, Vec<u8>)> {
    let root = pte_testkit::corpus_dir();
    let mut out = vec![];
    let mut dirs: Vec<_> = std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).collect();
    dirs.sort();
    for dir in dirs {
        let Ok(bytes) = std::fs::read(dir.join("model.pte")) else { continue };
        // the eh00 header's program_size, when there is one
        let len = if &bytes[8..12] == b"eh00" {
            usize::try_from(u64::from_le_bytes(bytes[16..24].try_into().unwrap())).unwrap()
        } else {
            bytes.len()
        };
        out.push((dir.file_name().unwrap().to_string_lossy().into_owned(), bytes[..len].to_vec()));
    }
    assert!(out.len() >= 12, "{} corpus programs", out.len());
    out
}

/// `buf` with the vector of 8-byte `items` moved to where its elements
/// start 4 bytes off an 8-byte boundary, as ExecuTorch's writer leaves some:
/// a copy of it is appended (its length word 8-aligned) and the one offset
/// that pointed to the original points to the copy instead. With `empty`,
/// the copy's length is 0. Returns the new buffer and where the copy's
/// elements start.
pub fn misalign_vector(buf: &[u8], items: &[[u8; 8]], empty: bool) -> (Vec<u8>, usize) {
    let wanted: Vec<u8> = items.iter().flatten().copied().collect();
    let found: Vec<usize> = (0..buf.len().saturating_sub(wanted.len()))
        .filter(|&at| buf[at..].starts_with(&wanted) && at >= 4)
        .filter(|&at| u32::from_le_bytes(buf[at - 4..at].try_into().unwrap()) as usize == items.len())
        .collect();
    assert_eq!(found.len(), 1, "the items occur once as a vector");
    let len_word = found[0] - 4;
    let fields: Vec<usize> = (0..len_word)
        .step_by(4)
        .filter(|&f| f + u32::from_le_bytes(buf[f..f + 4].try_into().unwrap()) as usize == len_word)
        .collect();
    assert_eq!(fields.len(), 1, "one offset points to the vector");
    let mut out = buf.to_vec();
    out.resize(buf.len().next_multiple_of(8), 0);
    let copy = out.len();
    let len = if empty { 0 } else { items.len() };
    out.extend_from_slice(&u32::try_from(len).unwrap().to_le_bytes());
    out.extend_from_slice(&wanted[..len * 8]);
    let field = fields[0];
    out[field..field + 4].copy_from_slice(&u32::try_from(copy - field).unwrap().to_le_bytes());
    assert_eq!((copy + 4) % 8, 4);
    (out, copy + 4)
}
