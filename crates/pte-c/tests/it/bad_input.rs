//! Every entry point given a null pointer, a zero length, an index past
//! the end or the wrong kind answers with a status, never a crash.

use std::mem::MaybeUninit;
use std::ptr::{null, null_mut};

use pte_c::*;

use crate::support::{last_error, open, open_bytes};

fn program() -> crate::support::Handle {
    open(&pte_testkit::model("linear"))
}

#[test]
fn null_handles() {
    let h: *const PteHandle = null();
    let mut n = 0usize;
    let mut kind = PteKind::Pte;
    let mut s = null_mut();
    let mut blob = PteBlob::empty();
    let mut r = null_mut();
    unsafe {
        assert_eq!(pte_kind(h, &mut kind), PteStatus::NullPointer);
        assert_eq!(pte_segment_count(h, &mut n), PteStatus::NullPointer);
        assert_eq!(pte_segment(h, 0, &mut blob), PteStatus::NullPointer);
        assert_eq!(pte_constant_count(h, &mut n), PteStatus::NullPointer);
        assert_eq!(pte_constant(h, 0, &mut blob), PteStatus::NullPointer);
        assert_eq!(pte_named_data_count(h, &mut n), PteStatus::NullPointer);
        assert_eq!(pte_delegate_count(h, &mut n), PteStatus::NullPointer);
        assert_eq!(pte_sample_set_count(h, &mut n), PteStatus::NullPointer);
        assert_eq!(pte_summary_json(h, &mut s), PteStatus::NullPointer);
        assert_eq!(pte_dump_json(h, &mut s), PteStatus::NullPointer);
        assert_eq!(pte_verify(h, null(), 0, &mut r), PteStatus::NullPointer);
        assert_eq!(pte_save(h, c"/tmp/x".as_ptr(), null_mut()), PteStatus::NullPointer);
        assert_eq!(pte_rewrite(h, c"/tmp/x".as_ptr(), null(), null_mut()), PteStatus::NullPointer);
        let mut report = 0usize;
        assert_eq!(pte_report_len(null(), &mut report), PteStatus::NullPointer);
    }
    assert!(s.is_null() && r.is_null());
    assert!(last_error().contains("null"));
    assert_eq!(pte_last_status(), PteStatus::NullPointer);
}

#[test]
fn null_out_pointers() {
    let h = program();
    unsafe {
        assert_eq!(pte_kind(h.0, null_mut()), PteStatus::NullPointer);
        assert_eq!(pte_bytes(h.0, null_mut(), null_mut()), PteStatus::NullPointer);
        assert_eq!(pte_segment_count(h.0, null_mut()), PteStatus::NullPointer);
        assert_eq!(pte_segment(h.0, 0, null_mut()), PteStatus::NullPointer);
        assert_eq!(pte_constant(h.0, 0, null_mut()), PteStatus::NullPointer);
        assert_eq!(pte_named_data(h.0, 0, null_mut()), PteStatus::NullPointer);
        assert_eq!(pte_named_data_find(h.0, c"k".as_ptr(), null_mut()), PteStatus::NullPointer);
        assert_eq!(pte_delegate(h.0, 0, null_mut()), PteStatus::NullPointer);
        assert_eq!(pte_summary_json(h.0, null_mut()), PteStatus::NullPointer);
        assert_eq!(pte_dump_json(h.0, null_mut()), PteStatus::NullPointer);
        assert_eq!(pte_verify(h.0, null(), 0, null_mut()), PteStatus::NullPointer);
        assert_eq!(pte_identify(b"x".as_ptr(), 1, null_mut()), PteStatus::NullPointer);
        assert_eq!(pte_save(h.0, null(), null_mut()), PteStatus::NullPointer);
        assert_eq!(pte_rewrite(h.0, null(), null(), null_mut()), PteStatus::NullPointer);
        assert_eq!(pte_named_data_find(h.0, null(), MaybeUninit::uninit().as_mut_ptr()), PteStatus::NullPointer);
        assert_eq!(pte_report_free(null_mut()), PteStatus::NullPointer);
        assert_eq!(pte_close(null_mut()), PteStatus::NullPointer);
        assert_eq!(pte_string_free(null_mut()), PteStatus::NullPointer);
        assert_eq!(pte_report_valid(null(), null_mut()), PteStatus::NullPointer);
    }
}

#[test]
fn open_refuses_bad_arguments() {
    let mut h = null_mut();
    unsafe {
        assert_eq!(pte_open(null(), &mut h), PteStatus::NullPointer);
        assert_eq!(pte_open(c"".as_ptr(), &mut h), PteStatus::InvalidArgument);
        assert_eq!(pte_open(c"/nonexistent/model.pte".as_ptr(), &mut h), PteStatus::Io);
        assert!(last_error().contains("/nonexistent/model.pte"), "{}", last_error());
        // a directory is no input file
        assert_eq!(pte_open(c"/".as_ptr(), &mut h), PteStatus::InvalidArgument);
        assert_eq!(pte_open(c"/nonexistent".as_ptr(), null_mut()), PteStatus::NullPointer);
        assert_eq!(pte_open_bytes(null(), 10, &mut h), PteStatus::NullPointer);
        assert_eq!(pte_open_bytes(b"x".as_ptr(), 0, &mut h), PteStatus::InvalidArgument);
        assert_eq!(pte_identify(b"x".as_ptr(), 0, &mut PteKind::Pte), PteStatus::InvalidArgument);
        assert_eq!(pte_identify(null(), 3, &mut PteKind::Pte), PteStatus::NullPointer);
    }
    assert!(h.is_null());
    assert_eq!(open_bytes(b"plain text, not a model").err(), Some(PteStatus::Unsupported));
    assert!(last_error().contains("not"), "{}", last_error());
    let manifest = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).unwrap();
    assert_eq!(open_bytes(&manifest).err(), Some(PteStatus::Unsupported));
}

#[test]
fn close_twice_is_harmless() {
    let mut h = null_mut();
    let path = pte_testkit::model("add");
    let p = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    unsafe {
        assert_eq!(pte_open(p.as_ptr(), &mut h), PteStatus::Ok);
        assert_eq!(pte_close(&mut h), PteStatus::Ok);
        assert!(h.is_null());
        assert_eq!(pte_close(&mut h), PteStatus::Ok);
        let mut r = null_mut();
        assert_eq!(pte_report_free(&mut r), PteStatus::Ok);
        let mut s = null_mut();
        assert_eq!(pte_string_free(&mut s), PteStatus::Ok);
    }
}

#[test]
fn indices_past_the_end() {
    let h = program();
    let mut n = 0usize;
    let mut blob = PteBlob::empty();
    unsafe {
        assert_eq!(pte_segment_count(h.0, &mut n), PteStatus::Ok);
        assert_eq!(pte_segment(h.0, n, &mut blob), PteStatus::OutOfRange);
        assert_eq!(pte_segment(h.0, usize::MAX, &mut blob), PteStatus::OutOfRange);
        assert_eq!(pte_constant_count(h.0, &mut n), PteStatus::Ok);
        assert_eq!(pte_constant(h.0, n, &mut blob), PteStatus::OutOfRange);
        assert_eq!(pte_named_data(h.0, 0, MaybeUninit::uninit().as_mut_ptr()), PteStatus::OutOfRange);
        assert_eq!(
            pte_named_data_find(h.0, c"nope".as_ptr(), MaybeUninit::uninit().as_mut_ptr()),
            PteStatus::OutOfRange
        );
        assert_eq!(pte_delegate(h.0, 0, MaybeUninit::uninit().as_mut_ptr()), PteStatus::OutOfRange);
        let mut r = null_mut();
        assert_eq!(pte_verify(h.0, null(), 0, &mut r), PteStatus::Ok);
        assert_eq!(pte_report_finding(r, 0, MaybeUninit::uninit().as_mut_ptr()), PteStatus::OutOfRange);
        assert_eq!(pte_report_free(&mut r), PteStatus::Ok);
    }
    assert!(last_error().is_empty(), "a success clears the message");
}

#[test]
fn wrong_kinds() {
    let ptd = open(&pte_testkit::corpus("external/_default_external_constant.ptd"));
    let ptn = open(&pte_testkit::corpus("native_ptn/model.ptn"));
    let pte = program();
    let mut n = 0usize;
    let mut s = null_mut();
    let mut r = null_mut();
    unsafe {
        // every kind has a summary
        assert_eq!(pte_summary_json(ptd.0, &mut s), PteStatus::Ok);
        assert_eq!(pte_string_free(&mut s), PteStatus::Ok);
        assert_eq!(pte_constant_count(ptd.0, &mut n), PteStatus::WrongKind);
        assert_eq!(pte_segment_count(ptn.0, &mut n), PteStatus::WrongKind);
        assert_eq!(pte_sample_set_count(pte.0, &mut n), PteStatus::WrongKind);
        assert_eq!(pte_sample_set_count(ptd.0, &mut n), PteStatus::WrongKind);
        // data files link to programs only
        let data = [pte.0 as *const PteHandle];
        assert_eq!(pte_verify(ptd.0, data.as_ptr(), 1, &mut r), PteStatus::WrongKind);
        assert_eq!(pte_verify(pte.0, null(), 1, &mut r), PteStatus::NullPointer);
        let nulls = [null::<PteHandle>()];
        assert_eq!(pte_verify(pte.0, nulls.as_ptr(), 1, &mut r), PteStatus::NullPointer);
        assert_eq!(pte_rewrite(ptd.0, c"/tmp/never-written.ptd".as_ptr(), null(), null_mut()), PteStatus::WrongKind);
    }
    assert!(s.is_null() && r.is_null());
}

#[test]
fn damaged_files_give_statuses() {
    for path in pte_testkit::regressions() {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(h) = open_bytes(&bytes) else { continue };
        let mut n = 0usize;
        let mut s = null_mut();
        let mut r = null_mut();
        unsafe {
            assert_eq!(pte_verify(h.0, null(), 0, &mut r), PteStatus::Ok, "{}: {}", path.display(), last_error());
            let mut valid = true;
            assert_eq!(pte_report_valid(r, &mut valid), PteStatus::Ok);
            assert!(!valid, "{} verifies as valid", path.display());
            let mut len = 0;
            assert_eq!(pte_report_len(r, &mut len), PteStatus::Ok);
            assert!(len > 0);
            pte_report_free(&mut r);
            // every other reader answers with a status (any), without crashing
            let counts: [unsafe extern "C" fn(*const PteHandle, *mut usize) -> PteStatus; 5] =
                [pte_segment_count, pte_constant_count, pte_named_data_count, pte_delegate_count, pte_sample_set_count];
            for count in counts {
                let status = count(h.0, &mut n);
                assert_ne!(status, PteStatus::Internal, "{}: {}", path.display(), last_error());
                assert_eq!(status == PteStatus::Ok, last_error().is_empty());
            }
            let texts: [unsafe extern "C" fn(*const PteHandle, *mut *mut std::ffi::c_char) -> PteStatus; 2] =
                [pte_summary_json, pte_dump_json];
            for text in texts {
                let status = text(h.0, &mut s);
                assert_ne!(status, PteStatus::Internal, "{}: {}", path.display(), last_error());
                if status == PteStatus::Ok {
                    crate::support::take(std::mem::replace(&mut s, null_mut()));
                } else {
                    assert!(s.is_null() && !last_error().is_empty());
                }
            }
            pte_string_free(&mut s);
        }
    }
}

#[test]
fn bad_layout_options_touch_nothing() {
    let h = program();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.pte");
    let c = std::ffi::CString::new(out.to_str().unwrap()).unwrap();
    for bad in [
        PteLayoutOptions { delegates: 3, ..Default::default() },
        PteLayoutOptions { constants: 9, ..Default::default() },
        PteLayoutOptions { constant_alignment: 3, ..Default::default() },
        PteLayoutOptions { delegate_alignment: 6, ..Default::default() },
        // the library's one cap: a 6 KB program padded to gigabytes before
        PteLayoutOptions { segment_alignment: 1 << 30, ..Default::default() },
        PteLayoutOptions { segment_alignment: pte_file::MAX_SEGMENT_ALIGNMENT + 1, ..Default::default() },
        PteLayoutOptions { constant_alignment: 1 << 17, ..Default::default() },
    ] {
        assert_eq!(unsafe { pte_rewrite(h.0, c.as_ptr(), &bad, null_mut()) }, PteStatus::InvalidArgument, "{bad:?}");
        assert!(!out.exists());
    }
}
