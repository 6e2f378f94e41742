//! Opening files and reading C strings in tests.

use std::ffi::{c_char, CStr, CString};
use std::path::Path;

use pte_c::*;

/// An open handle, closed on drop.
pub struct Handle(pub *mut PteHandle);

impl Drop for Handle {
    fn drop(&mut self) {
        assert_eq!(unsafe { pte_close(&mut self.0) }, PteStatus::Ok);
    }
}

pub fn open(path: &Path) -> Handle {
    let p = CString::new(path.to_str().unwrap()).unwrap();
    let mut h = std::ptr::null_mut();
    let s = unsafe { pte_open(p.as_ptr(), &mut h) };
    assert_eq!(s, PteStatus::Ok, "{}: {}", path.display(), last_error());
    Handle(h)
}

pub fn open_bytes(bytes: &[u8]) -> Result<Handle, PteStatus> {
    let mut h = std::ptr::null_mut();
    match unsafe { pte_open_bytes(bytes.as_ptr(), bytes.len(), &mut h) } {
        PteStatus::Ok => Ok(Handle(h)),
        s => {
            assert!(h.is_null());
            Err(s)
        }
    }
}

pub fn text(p: *const c_char) -> String {
    assert!(!p.is_null());
    unsafe { CStr::from_ptr(p) }.to_str().unwrap().to_string()
}

pub fn last_error() -> String {
    text(pte_last_error())
}

/// A string the library gave, read and freed.
pub fn take(mut s: *mut c_char) -> String {
    let t = text(s);
    assert_eq!(unsafe { pte_string_free(&mut s) }, PteStatus::Ok);
    assert!(s.is_null());
    t
}

pub fn slice<'a>(data: *const u8, len: usize) -> &'a [u8] {
    assert!(!data.is_null());
    unsafe { std::slice::from_raw_parts(data, len) }
}
