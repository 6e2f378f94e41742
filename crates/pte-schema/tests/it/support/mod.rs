//! What several test files of this crate share.

#![allow(clippy::unwrap_used, clippy::indexing_slicing, dead_code)]

/// Every corpus program: (name, its flatbuffer region).
pub fn corpus_programs() -> Vec<(String, Vec<u8>)> {
    let root = format!("{}/corpus", env!("CARGO_MANIFEST_DIR"));
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
