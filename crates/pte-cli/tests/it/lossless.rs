//! `pte rewrite` with no options gives back the file that went in: segment
//! table, segment bytes and the program's constant form; an option with
//! nothing to act on changes nothing.

use std::path::Path;

use pte_file::PteFile;

use crate::support::{corpus, corpus_programs, model, pte, s};

fn rewrite(input: &Path, out: &Path, options: &[&str]) {
    let mut args = vec!["rewrite", s(input), s(out)];
    args.extend_from_slice(options);
    let o = pte(&args);
    assert!(o.status.success(), "{}: {}", input.display(), String::from_utf8_lossy(&o.stderr));
}

/// What a lossless rewrite must keep.
fn assert_same_storage(name: &str, a: &PteFile<'_>, b: &PteFile<'_>) {
    assert_eq!(a.program.segments, b.program.segments, "{name}: segment table");
    assert_eq!(a.segments, b.segments, "{name}: segment bytes");
    assert_eq!(a.program.constant_buffer, b.program.constant_buffer, "{name}: constant_buffer");
    assert_eq!(a.program.constant_segment, b.program.constant_segment, "{name}: constant_segment");
    assert_eq!(a.program.mutable_data_segments, b.program.mutable_data_segments, "{name}: mutable segments");
    assert_eq!(a.program.named_data, b.program.named_data, "{name}: named data");
}

#[test]
fn rewrite_with_no_options_keeps_every_corpus_program_as_stored() {
    let dir = tempfile::tempdir().unwrap();
    let programs = corpus_programs();
    assert!(programs.len() >= 12, "{programs:?}");
    for input in programs {
        let out = dir.path().join("out.pte");
        rewrite(&input, &out, &[]);
        let (a, b) = (std::fs::read(&input).unwrap(), std::fs::read(&out).unwrap());
        assert_same_storage(
            &input.display().to_string(),
            &PteFile::from_bytes(&a).unwrap(),
            &PteFile::from_bytes(&b).unwrap(),
        );
    }
}

#[test]
fn legacy_inline_constants_stay_inline_unless_asked() {
    let dir = tempfile::tempdir().unwrap();
    let input = corpus("legacy_inline_constants/model.pte");
    let original = std::fs::read(&input).unwrap();
    let before = PteFile::from_bytes(&original).unwrap();
    assert!(before.program.constant_buffer.as_ref().is_some_and(|b| b.len() > 1));
    let kept = dir.path().join("kept.pte");
    rewrite(&input, &kept, &["--constants", "keep"]);
    let bytes = std::fs::read(&kept).unwrap();
    assert_eq!(PteFile::from_bytes(&bytes).unwrap().program.constant_buffer, before.program.constant_buffer);
    let moved = dir.path().join("moved.pte");
    rewrite(&input, &moved, &["--constants", "segment"]);
    let bytes = std::fs::read(&moved).unwrap();
    let after = PteFile::from_bytes(&bytes).unwrap();
    assert!(after.program.constant_buffer.as_ref().is_none_or(Vec::is_empty));
    let offsets = after.program.constant_segment.as_ref().and_then(|c| c.offsets.as_ref()).unwrap();
    assert_eq!(offsets.len(), before.program.constant_buffer.as_ref().unwrap().len());
    // the constants' bytes are the same either way
    let c = |p: &PteFile<'_>| p.constants().unwrap().iter().map(|c| c.bytes.to_vec()).collect::<Vec<_>>();
    assert_eq!(c(&after).len(), c(&before).len());
}

#[test]
fn a_delegate_option_on_a_program_without_delegates_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    for case in ["mutable_buffer", "linear", "multi_method"] {
        let input = model(case);
        let original = std::fs::read(&input).unwrap();
        let before = PteFile::from_bytes(&original).unwrap();
        assert!(before.delegate_blobs().unwrap().is_empty(), "{case} has delegates");
        for place in ["inline", "segment"] {
            let out = dir.path().join(format!("{case}-{place}.pte"));
            rewrite(&input, &out, &["--delegates", place]);
            let bytes = std::fs::read(&out).unwrap();
            assert_same_storage(&format!("{case} --delegates {place}"), &before, &PteFile::from_bytes(&bytes).unwrap());
        }
    }
}
