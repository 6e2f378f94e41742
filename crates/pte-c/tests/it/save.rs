//! Saving as stored and rewriting with another layout, atomically.

use std::ffi::CString;
use std::ptr::{null, null_mut};

use pte_c::*;

use crate::support::{last_error, open, open_bytes};

fn c(path: &std::path::Path) -> CString {
    CString::new(path.to_str().unwrap()).unwrap()
}

#[test]
fn save_writes_the_bytes() {
    let dir = tempfile::tempdir().unwrap();
    for rel in ["add/model.pte", "native_ptn/model.ptn", "bundled/model.bpte"] {
        let bytes = pte_testkit::corpus_bytes(rel);
        let h = open_bytes(&bytes).unwrap();
        let out = dir.path().join("out");
        let mut n = 0u64;
        assert_eq!(unsafe { pte_save(h.0, c(&out).as_ptr(), &mut n) }, PteStatus::Ok, "{}", last_error());
        assert_eq!(std::fs::read(&out).unwrap(), bytes);
        assert_eq!(n, bytes.len() as u64);
    }
    let h = open(&pte_testkit::model("add"));
    let missing = dir.path().join("no/such/dir/out.pte");
    assert_eq!(unsafe { pte_save(h.0, c(&missing).as_ptr(), null_mut()) }, PteStatus::Io);
}

#[test]
fn rewrite_keeps_or_changes_the_layout() {
    let dir = tempfile::tempdir().unwrap();
    let src = pte_testkit::model("xnnpack_mlp");
    let bytes = std::fs::read(&src).unwrap();
    for h in [open(&src), open_bytes(&bytes).unwrap()] {
        let same = dir.path().join("same.pte");
        assert_eq!(
            unsafe { pte_rewrite(h.0, c(&same).as_ptr(), null(), null_mut()) },
            PteStatus::Ok,
            "{}",
            last_error()
        );
        let want = pte_file::PteFile::from_bytes(&bytes).unwrap();
        let got_bytes = std::fs::read(&same).unwrap();
        let got = pte_file::PteFile::from_bytes(&got_bytes).unwrap();
        assert_eq!(got.program, want.program);

        let inline = dir.path().join("inline.pte");
        let options = PteLayoutOptions {
            segment_alignment: 4096,
            delegates: PteDelegatePlacement::Inline as u32,
            ..Default::default()
        };
        let mut n = 0;
        assert_eq!(
            unsafe { pte_rewrite(h.0, c(&inline).as_ptr(), &options, &mut n) },
            PteStatus::Ok,
            "{}",
            last_error()
        );
        let written = std::fs::read(&inline).unwrap();
        assert_eq!(n, written.len() as u64);
        let r = pte_file::PteFile::from_bytes(&written).unwrap();
        let blobs = r.delegate_blobs().unwrap();
        assert!(blobs.iter().all(|b| b.location == pte_schema::DataLocation::INLINE));
        assert_eq!(blobs.len(), want.delegate_blobs().unwrap().len());
        assert!(pte::verify(&written, &[]).unwrap().is_ok());
    }
}

#[test]
fn rewrite_over_its_own_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.pte");
    std::fs::copy(pte_testkit::model("linear"), &path).unwrap();
    let h = open(&path);
    let options = PteLayoutOptions { segment_alignment: 1024, ..Default::default() };
    assert_eq!(unsafe { pte_rewrite(h.0, c(&path).as_ptr(), &options, null_mut()) }, PteStatus::Ok, "{}", last_error());
    // the handle still reads the content it opened
    let mut r = null_mut();
    assert_eq!(unsafe { pte_verify(h.0, null(), 0, &mut r) }, PteStatus::Ok);
    unsafe { pte_report_free(&mut r) };
    assert!(pte::verify(&std::fs::read(&path).unwrap(), &[]).unwrap().is_ok());
}

#[test]
fn packages_rewrite_without_layout_options() {
    let dir = tempfile::tempdir().unwrap();
    let h = open(&pte_testkit::corpus("native_ptn/model.ptn"));
    let out = dir.path().join("p.ptn");
    assert_eq!(unsafe { pte_rewrite(h.0, c(&out).as_ptr(), null(), null_mut()) }, PteStatus::Ok, "{}", last_error());
    assert!(pte::verify(&std::fs::read(&out).unwrap(), &[]).unwrap().is_ok());
    let options = PteLayoutOptions { segment_alignment: 64, ..Default::default() };
    assert_eq!(unsafe { pte_rewrite(h.0, c(&out).as_ptr(), &options, null_mut()) }, PteStatus::InvalidArgument);
}
