//! `libpte`: the pte crates behind a C ABI, for C and C++ tools.
//!
//! Built as `libpte.so` and `libpte.a` with the header `include/pte.h`
//! (generated from this crate by cbindgen, checked in, and checked for
//! drift by the crate's tests); `scripts/install-c.sh PREFIX` installs
//! them with pkg-config (`pte`) and CMake (`find_package(pte)`, target
//! `pte::pte`) files. It wraps the one library door (`pte`): a file is
//! opened from a path (memory-mapped) or from bytes (copied once), known by
//! its content, and then
//!
//! * verified (`pte_verify`, with `.ptd` data files), its findings counted
//!   per severity (`pte_report_count`), read one by one (rule id,
//!   severity, field path, byte offset, the runtime's error code) or as
//!   `pte verify --json`'s text;
//! * summarised (`pte_summary_json`, `pte info --json`'s text), sized,
//!   planned and listed (`pte_size_json`, `pte_memory_json`, `pte_ops_json`:
//!   `pte size`, `pte memory` and `pte ops` as JSON) or dumped
//!   (`pte_dump_json`, `pte dump`'s);
//! * read without copying: segments, constants, named data and delegate
//!   blobs are pointers into the mapping, valid while the handle lives;
//! * replayed: a package's sample sets, samples, calls, values and tensors
//!   (zero-copy where stored), each call with its resolved tolerance;
//! * saved as it is, or rewritten with another layout, atomically.
//!
//! # Conventions
//!
//! * Every function returns a [`PteStatus`] (a few that cannot fail return
//!   their answer). The message of the last call on a thread is
//!   [`pte_last_error`]: per thread, valid until that thread's next call.
//! * Results go through out-pointers, checked before any work: a null one
//!   is `PTE_STATUS_NULL_POINTER`, as is a null handle; a zero length is
//!   `PTE_STATUS_INVALID_ARGUMENT`; an index past the end
//!   `PTE_STATUS_OUT_OF_RANGE`. Out-pointers for new objects are set to
//!   null on failure.
//! * Ownership: handles (`pte_open*`) are closed with [`pte_close`],
//!   reports with [`pte_report_free`], strings with [`pte_string_free`];
//!   each takes the address of the caller's pointer and nulls it, so a
//!   second close of the same variable does nothing. Every other pointer
//!   (names, blobs, tensors, findings) is borrowed from the handle or
//!   report that gave it and dies with it. Using a handle after closing it
//!   is undefined behaviour, as is passing a pointer this library did not
//!   give.
//! * Threads: a handle is immutable once opened; any number of threads may
//!   call the functions taking `const PteHandle *` on it at once (the lazily
//!   read tables are built once, under a lock). Closing needs every other
//!   use to have finished. Reports likewise.
//! * No panic crosses the boundary: each entry point catches one and returns
//!   `PTE_STATUS_INTERNAL`.
//!
//! ```
//! use std::ffi::{CStr, CString};
//! let path = CString::new(pte_testkit::corpus("xnnpack_mlp/model.pte").to_string_lossy().as_bytes())?;
//! let mut h = std::ptr::null_mut();
//! unsafe {
//!     assert_eq!(pte_c::pte_open(path.as_ptr(), &mut h), pte_c::PteStatus::Ok);
//!     let mut n = 0;
//!     assert_eq!(pte_c::pte_delegate_count(h, &mut n), pte_c::PteStatus::Ok);
//!     let mut d = std::mem::MaybeUninit::uninit();
//!     assert_eq!(pte_c::pte_delegate(h, 0, d.as_mut_ptr()), pte_c::PteStatus::Ok);
//!     let d = d.assume_init();
//!     assert_eq!(CStr::from_ptr(d.id).to_str()?, "XnnpackBackend");
//!     assert!(d.len > 0);
//!     pte_c::pte_close(&mut h);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]

mod error;
mod handle;
mod report;
mod samples;
mod save;
mod tables;
mod types;

// The only module allowed `unsafe` (and `#[unsafe(no_mangle)]`, which the lint
// counts as unsafe): the entry points and the pointer helpers they share.
#[allow(unsafe_code)]
mod ffi;

pub use error::PteStatus;
pub use ffi::answers::{pte_memory_json, pte_ops_json, pte_size_json};
pub use ffi::blobs::{
    pte_constant, pte_constant_count, pte_delegate, pte_delegate_count, pte_named_data, pte_named_data_count,
    pte_named_data_find, pte_segment, pte_segment_count,
};
pub use ffi::files::{
    pte_abi_version, pte_bytes, pte_close, pte_dump_json, pte_identify, pte_kind, pte_kind_name, pte_last_error,
    pte_last_status, pte_open, pte_open_bytes, pte_rewrite, pte_save, pte_string_free, pte_summary_json, pte_version,
};
pub use ffi::samples::{
    pte_call, pte_call_input, pte_call_input_tensor, pte_call_output, pte_call_output_tensor, pte_sample,
    pte_sample_set, pte_sample_set_count,
};
pub use ffi::verify::{
    pte_report_count, pte_report_finding, pte_report_free, pte_report_json, pte_report_len, pte_report_valid,
    pte_verify,
};
pub use handle::PteHandle;
pub use report::{PteReport, PteSeverity};
pub use samples::PteToleranceLevel;
pub use save::{PteConstantPlacement, PteDelegatePlacement, PteLayoutOptions};
pub use types::{
    PteBlob, PteCallInfo, PteDelegate, PteFinding, PteKind, PteNamedData, PteSampleInfo, PteSampleSetInfo, PteTensor,
    PteTolerance, PteValue, PteValueKind, PTE_ABI_VERSION,
};
