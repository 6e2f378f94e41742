//! Segments, constants, named data and delegate blobs are the decoded
//! file's bytes, read in place: pointers into the handle's own bytes.

use std::mem::MaybeUninit;

use pte_c::*;

use crate::support::{open, open_bytes, slice, text};

fn whole(h: *const PteHandle) -> (usize, usize) {
    let (mut d, mut n) = (std::ptr::null(), 0);
    assert_eq!(unsafe { pte_bytes(h, &mut d, &mut n) }, PteStatus::Ok);
    (d as usize, n)
}

fn inside(h: *const PteHandle, data: *const u8, len: usize, offset: u64) {
    let (start, n) = whole(h);
    if len > 0 {
        assert_eq!(data as usize, start + offset as usize, "a copy, not the file's bytes");
        assert!(offset as usize + len <= n);
    }
}

fn count(f: unsafe extern "C" fn(*const PteHandle, *mut usize) -> PteStatus, h: *const PteHandle) -> usize {
    let mut n = 0;
    assert_eq!(unsafe { f(h, &mut n) }, PteStatus::Ok, "{}", crate::support::last_error());
    n
}

/// Entry `i` as the getter `f` gives it, which must succeed.
fn entry<T>(f: unsafe extern "C" fn(*const PteHandle, usize, *mut T) -> PteStatus, h: *const PteHandle, i: usize) -> T {
    let mut out = MaybeUninit::uninit();
    assert_eq!(unsafe { f(h, i, out.as_mut_ptr()) }, PteStatus::Ok, "{}", crate::support::last_error());
    // SAFETY: the getter succeeded, so it wrote the entry.
    unsafe { out.assume_init() }
}

#[test]
fn programs_answer_as_the_decoded_file() {
    for path in pte_testkit::corpus_programs() {
        let bytes = std::fs::read(&path).unwrap();
        let want = pte_file::PteFile::from_bytes(&bytes).unwrap();
        for h in [open(&path), open_bytes(&bytes).unwrap()] {
            let h = h.0 as *const PteHandle;
            let n = count(pte_segment_count, h);
            assert_eq!(n, want.segments.len(), "{}", path.display());
            for (i, seg) in want.segments.iter().enumerate() {
                let b = entry(pte_segment, h, i);
                assert_eq!(slice(b.data, b.len), &seg[..]);
                inside(h, b.data, b.len, b.offset);
            }
            let constants = want.constants().unwrap();
            assert_eq!(count(pte_constant_count, h), constants.len(), "{}", path.display());
            for c in &constants {
                let b = entry(pte_constant, h, c.index);
                assert_eq!(slice(b.data, b.len), c.bytes, "{} constant {}", path.display(), c.index);
                inside(h, b.data, b.len, b.offset);
            }
            let named = want.named_data().unwrap();
            assert_eq!(count(pte_named_data_count, h), named.len());
            for (i, blob) in named.iter().enumerate() {
                let d = entry(pte_named_data, h, i);
                assert_eq!(text(d.key), blob.key);
                assert_eq!(d.segment, blob.segment_index);
                assert_eq!(slice(d.data, d.len), blob.bytes);
                let key = std::ffi::CString::new(blob.key).unwrap();
                let mut found = MaybeUninit::uninit();
                assert_eq!(unsafe { pte_named_data_find(h, key.as_ptr(), found.as_mut_ptr()) }, PteStatus::Ok);
            }
            let delegates = want.delegate_blobs().unwrap();
            assert_eq!(count(pte_delegate_count, h), delegates.len());
            for (i, blob) in delegates.iter().enumerate() {
                let d = entry(pte_delegate, h, i);
                assert_eq!(text(d.id), blob.id);
                assert_eq!((d.plan, d.index), (blob.plan, blob.delegate));
                assert_eq!(slice(d.data, d.len), blob.bytes);
                inside(h, d.data, d.len, d.offset);
            }
        }
    }
}

#[test]
fn the_corpus_has_every_table() {
    let xnn = open(&pte_testkit::model("xnnpack_mlp"));
    assert!(count(pte_delegate_count, xnn.0) > 0);
    let legacy = open(&pte_testkit::model("legacy_inline_constants"));
    assert!(count(pte_constant_count, legacy.0) > 1);
    assert_eq!(count(pte_segment_count, legacy.0), 0);
}

#[test]
fn data_files_list_their_entries() {
    let path = pte_testkit::corpus("external/_default_external_constant.ptd");
    let bytes = std::fs::read(&path).unwrap();
    let want = pte_file::ptd::PtdFile::from_bytes(&bytes).unwrap();
    let h = open(&path);
    let keys = want.keys();
    assert!(!keys.is_empty());
    assert_eq!(count(pte_named_data_count, h.0), keys.len());
    for (i, key) in keys.iter().enumerate() {
        let d = entry(pte_named_data, h.0, i);
        assert_eq!(text(d.key), *key);
        assert_eq!(Some(slice(d.data, d.len)), want.get(key).unwrap().map(|(_, b)| b));
        inside(h.0, d.data, d.len, d.offset);
    }
    assert_eq!(count(pte_segment_count, h.0), want.segments.len());
}
