//! `PteView` reads a program in place with the meaning the decoded
//! `PteFile` gives it: on every corpus program and on damaged copies of
//! them it fails where `PteFile::from_bytes` fails, with the same error, and
//! its constants, mutable buffers, named data, delegates, segments and
//! tensor table equal the decoded file's (or fail where those fail).

use std::path::{Path, PathBuf};

use pte_file::view::{PteView, SegmentTable};
use pte_file::PteFile;

/// The corpus programs and damaged copies of them (bytes of the program
/// overwritten, a few at a time, from a fixed seed).
fn programs() -> Vec<(PathBuf, Vec<u8>)> {
    let root = pte_testkit::corpus_dir();
    let mut out = vec![];
    for e in std::fs::read_dir(root).unwrap().flatten() {
        let path = e.path().join("model.pte");
        if let Ok(bytes) = std::fs::read(&path) {
            out.push((path, bytes));
        }
    }
    let mut next = pte_testkit::xorshift(0x9e37_79b9_7f4a_7c15);
    let whole = out.clone();
    for (path, bytes) in &whole {
        let end = pte_file::program_region(bytes).map_or(bytes.len(), |(_, r)| r.len());
        for _ in 0..40 {
            let mut b = bytes.clone();
            for _ in 0..=next() % 3 {
                let i = 8 + (next() as usize) % (end - 8);
                b[i] = [0, 1, 2, 0xff, 0x7f, next() as u8][(next() % 6) as usize];
            }
            out.push((path.clone(), b));
        }
    }
    out
}

fn agree(path: &Path, bytes: &[u8], view: &PteView<'_>, full: &PteFile<'_>) {
    let at = path.display();
    let constants = view.constants();
    assert_eq!(constants.is_some(), full.constants().is_ok(), "{at}");
    if let (Some(got), Ok(want)) = (&constants, full.constants()) {
        assert_eq!(got.len(), want.len(), "{at}");
        for w in &want {
            let g = got.get(w.index).unwrap();
            assert_eq!((g.index, g.offset, g.len, g.span), (w.index, w.offset, w.bytes.len() as u64, w.span), "{at}");
            assert_eq!(view.sub_buffer_bytes(got, w.index), Some(w.bytes), "{at}");
        }
    }
    let mutable = view.mutable_segments();
    assert_eq!(mutable.is_some(), full.mutable_segments().is_ok(), "{at}");
    if let (Some(got), Ok(want)) = (&mutable, full.mutable_segments()) {
        assert_eq!(got.len(), want.len(), "{at}");
        for (g, w) in got.iter().zip(&want) {
            let bytes: Vec<_> = g.iter().map(|c| view.sub_buffer_bytes(g, c.index)).collect();
            assert_eq!(bytes, w.iter().map(|c| Some(c.bytes)).collect::<Vec<_>>(), "{at}");
            let g: Vec<_> = g.iter().map(|c| (c.index, c.offset, c.len)).collect();
            let w: Vec<_> = w.iter().map(|c| (c.index, c.offset, c.bytes.len() as u64)).collect();
            assert_eq!(g, w, "{at}");
        }
    }
    match (view.named_data(), full.named_data()) {
        (Some(got), Ok(want)) => {
            let got: Vec<_> = got.collect();
            let want: Vec<_> = want.iter().map(|n| (n.key, n.segment_index, n.bytes)).collect();
            assert_eq!(got, want, "{at}");
        }
        (None, Err(_)) => {}
        (got, want) => panic!("{at}: named data {:?} vs {:?}", got.is_some(), want.map(|_| ())),
    }
    match (view.delegates(), full.delegate_blobs()) {
        (Some(got), Ok(want)) => {
            let got: Vec<_> = got.iter().map(|d| (d.plan, d.delegate, d.id, d.location, d.index, d.bytes)).collect();
            let want: Vec<_> = want.iter().map(|d| (d.plan, d.delegate, d.id, d.location, d.index, d.bytes)).collect();
            assert_eq!(got, want, "{at}");
        }
        (None, Err(_)) => {}
        (got, want) => panic!("{at}: delegates {:?} vs {:?}", got.is_some(), want.map(|_| ())),
    }
    assert_eq!(view.segments().count(), full.segments.len(), "{at}");
    for (i, s) in full.segments.iter().enumerate() {
        assert_eq!(view.segment(i as u32), Some(&s[..]), "{at} segment {i}");
    }
    assert_eq!(view.segment(full.segments.len() as u32), None, "{at}");
    // the tensor table: one entry per group of uses, each with its users
    if let (Some(_), Some(_), Ok(want)) = (&constants, &mutable, full.tensors()) {
        let uses = view.tensor_uses();
        let groups: Vec<_> = uses.chunk_by(|a, b| (a.kind, a.id) == (b.kind, b.id)).collect();
        assert_eq!(groups.len(), want.len(), "{at}");
        for (g, w) in groups.iter().zip(&want) {
            let users: Vec<_> = g.iter().map(|u| (view.method_name(u.plan), u.value as usize)).collect();
            assert_eq!(users, w.users, "{at} {}", w.name);
            assert_eq!(w.data_buffer_idx, view.tensor(g[0].plan, g[0].value).unwrap().data_buffer_idx(), "{at}");
        }
        let external: Vec<_> =
            want.iter().filter(|t| t.storage == pte_file::TensorStorage::External).map(|t| t.name.clone()).collect();
        assert_eq!(view.external_names(), external, "{at}");
    }
    assert_eq!(view.bytes().len(), bytes.len());
}

#[test]
fn a_view_means_what_the_decoded_file_means() {
    let (mut read, mut refused) = (0, 0);
    for (path, bytes) in programs() {
        let got = PteView::read(&bytes, SegmentTable::Whole);
        let full = match PteFile::from_bytes(&bytes) {
            Ok(full) => full,
            Err(e) => {
                assert_eq!(got.err().map(|e| e.to_string()), Some(e.to_string()), "{}", path.display());
                assert!(PteView::read(&bytes, SegmentTable::Referenced).is_err());
                refused += 1;
                continue;
            }
        };
        agree(&path, &bytes, &got.unwrap(), &full);
        read += 1;
    }
    assert!(read > 100 && refused > 100, "{read} read, {refused} refused");
}

#[test]
fn the_two_segment_tables_differ_only_on_an_unreferenced_table() {
    // every corpus program refers to its segments: both readings agree
    for (path, bytes) in programs().into_iter().filter(|(_, b)| PteFile::from_bytes(b).is_ok()) {
        let whole = PteView::read(&bytes, SegmentTable::Whole).unwrap();
        let referenced = PteView::read(&bytes, SegmentTable::Referenced).unwrap();
        let lens = |v: &PteView<'_>| v.constants().map(|c| c.iter().map(|c| (c.index, c.len)).collect::<Vec<_>>());
        if whole.segment_users().is_empty() == (whole.segments().count() == 0) {
            assert_eq!(lens(&whole), lens(&referenced), "{}", path.display());
        }
    }
}
