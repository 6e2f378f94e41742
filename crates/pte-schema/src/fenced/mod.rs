//! The only module of this crate allowed to use `unsafe` (the workspace's
//! other is `pte-core`'s fenced module: memory maps and two libc calls).
//!
//! It holds the flatc-generated accessors (which read without bounds checks
//! once a buffer is verified), the unchecked program root taken from the
//! structural verifier's proof (`trusted`), that verifier itself
//! (`structure`: safe code, but the root's soundness rests on it, so it sits
//! inside the fence where only it can make the proof), the aligned byte-vector writer
//! needed to honour `force_align`, which neither Rust code generator
//! implements, and the element type that lets the generated verifiers take
//! 8-byte scalar vectors at any alignment, as the runtime does (`unaligned`).
//! Nothing here is public outside the crate.

/// flatc's output, one module tree per schema; the lints it trips are allowed once here.
#[allow(
    unsafe_code,
    unused_imports,
    missing_docs,
    dead_code,
    non_camel_case_types,
    non_snake_case,
    non_upper_case_globals,
    unsafe_op_in_unsafe_fn,
    clippy::all,
    clippy::pedantic,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]
mod generated {
    #[rustfmt::skip]
    #[path = "program/mod.rs"]
    pub(crate) mod program;

    #[rustfmt::skip]
    #[path = "flat_tensor/mod.rs"]
    pub(crate) mod flat_tensor;

    #[rustfmt::skip]
    #[path = "native_graph/mod.rs"]
    pub(crate) mod native_graph;

    #[rustfmt::skip]
    #[path = "bundled_program_schema/mod.rs"]
    pub(crate) mod bundled_program_schema;

    #[rustfmt::skip]
    #[path = "xnnpack/mod.rs"]
    pub(crate) mod xnnpack;
}

pub(crate) use generated::bundled_program_schema::bundled_program_flatbuffer as bp;
pub(crate) use generated::bundled_program_schema::executorch_flatbuffer::ScalarType as BpScalarType;
pub(crate) use generated::flat_tensor::executorch_flatbuffer::ScalarType as FtScalarType;
pub(crate) use generated::flat_tensor::flat_tensor_flatbuffer as ft;
pub(crate) use generated::native_graph::native_backend as nb;
pub(crate) use generated::program::executorch_flatbuffer as et;
pub(crate) use generated::xnnpack::fb_xnnpack as xn;

mod aligned;
pub(crate) use aligned::create_aligned_bytes;

pub(crate) mod structure;

mod trusted;
pub(crate) use trusted::program_root;

mod unaligned;
pub(crate) use unaligned::Unaligned;
