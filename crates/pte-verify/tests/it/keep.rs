//! The rewrite that keeps the program as stored (`pte_file::rewrite`):
//! the output reads back as the input's program and segments, is the input
//! itself when the layout allows, and options that change the program fall
//! back to the re-encoding rewrite.

use std::path::PathBuf;

use pte_file::{DelegatePlacement, LayoutChange, MappedFile, PteFile, WriteOptions};

fn corpus_programs() -> Vec<PathBuf> {
    let root = pte_testkit::corpus_dir();
    let mut out: Vec<PathBuf> =
        std::fs::read_dir(root).unwrap().map(|e| e.unwrap().path().join("model.pte")).filter(|p| p.exists()).collect();
    out.sort();
    assert!(out.len() >= 14);
    out
}

#[test]
fn every_corpus_program_reads_back_the_same_and_most_come_out_identical() {
    let dir = tempfile::tempdir().unwrap();
    let mut identical = 0;
    for src in corpus_programs() {
        let map = MappedFile::open(&src).unwrap();
        let pte = PteFile::from_bytes(map.bytes()).unwrap();
        let out = dir.path().join("out.pte");
        let n = pte_file::write_atomically_file(&out, |dst| pte_file::rewrite(&map, dst, &LayoutChange::default()))
            .unwrap();
        let bytes = std::fs::read(&out).unwrap();
        assert_eq!(n as usize, bytes.len(), "{}", src.display());
        let back = PteFile::from_bytes(&bytes).unwrap();
        let name = src.display().to_string();
        // the legacy layout is moved into a segment, as the re-encoding rewrite does
        if !name.contains("legacy") {
            assert_eq!(back.segments, pte.segments, "{name}");
            assert_eq!(back.program, pte.program, "{name}");
        }
        let verdict = |b: &[u8]| pte_verify::verify_bytes(b, &Default::default()).is_ok();
        assert!(verdict(&bytes) || !verdict(map.bytes()), "{name}");
        identical += usize::from(bytes == map.bytes());
    }
    // exporter files with segments keep every byte (deep_program among them)
    assert!(identical >= 8, "{identical} identical");
}

#[test]
fn options_that_change_the_program_re_encode() {
    let dir = tempfile::tempdir().unwrap();
    let src = pte_testkit::corpus("xnnpack_mlp/model.pte");
    let map = MappedFile::open(&src).unwrap();
    let pte = PteFile::from_map(&map).unwrap();
    let o = WriteOptions::matching(&pte, map.bytes()).with_delegates(DelegatePlacement::Inline);
    let (a, b) = (dir.path().join("a.pte"), dir.path().join("b.pte"));
    let inline = LayoutChange { delegates: DelegatePlacement::Inline, ..Default::default() };
    pte_file::write_atomically_file(&a, |dst| pte_file::rewrite(&map, dst, &inline)).unwrap();
    pte.save(&b, &o).unwrap();
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    assert_ne!(std::fs::read(&a).unwrap(), map.bytes());
}
