//! The flatbuffer schemas of ExecuTorch's files, for Rust: each verified
//! before it is read, decoded into an owned, editable model or viewed in
//! place, encoded back and rendered as flatc-compatible JSON.
//!
//! * The `ET12` program of a `.pte` sits at the crate root: [`decode_program`]
//!   verifies a flatbuffer (with [`Limits`] tied to the input size) and
//!   decodes it into the owned [`Program`], borrowing byte payloads from the
//!   input; [`ProgramView`] reads one in place; [`encode_program`] writes the
//!   model back, honouring `force_align` on `Buffer.storage` and
//!   `BackendDelegateInlineData.data` at any power of two ([`EncodeOptions`]);
//!   [`program_to_json`] and [`program_from_json`] convert to and from the
//!   JSON exir uses. Its code lives in `src/program/`, by job: model, codec,
//!   json, view, verify.
//! * [`ptd`]: the `FT01` tensor-data flatbuffer of a `.ptd`.
//! * [`bundled`]: the `BP08` bundled program of a `.bpte`.
//! * [`native`]: the `NPTG` native-lowering program of a `.ptn` package.
//! * [`xnnpack`]: the XNNPACK delegate payload (`XH00` header, `XN01` graph).
//!
//! What the schemas share stays at the top: [`Limits`], the open-enum
//! macro, the decoders' common helpers, the runtime's offset rules and
//! [`share`], which lets the verifier walk a program-heavy buffer's long
//! vectors on two cores.
//! flatc's generated code and the little `unsafe` it needs are private, in
//! `src/fenced/`; the types here are the public API.
//!
//! It owns the flatbuffer schemas only: headers and segments belong to
//! `pte-segments`, files and their segment bytes to `pte-file` and `pte-ptn`,
//! and the error type to `pte-core` (re-exported here).
//!
//! ```
//! use pte_schema::*;
//! let p = Program { version: 0, execution_plan: Some(vec![ExecutionPlan {
//!     name: Some("forward".into()), ..Default::default() }]), ..Default::default() };
//! let bytes = encode_program(&p, &EncodeOptions::default())?;
//! assert_eq!(decode_program(&bytes, &Limits::default())?, p);
//! # Ok::<(), pte_schema::Error>(())
//! ```

#![deny(unsafe_code)]

pub mod bundled;
mod decode_common;
mod fenced;
mod limits;
pub mod native;
mod offsets;
mod open_enum;
mod program;
pub mod ptd;
mod raw;
mod share;
pub mod xnnpack;

pub use limits::Limits;
pub use program::codec::decode::decode_program;
pub use program::codec::encode::{
    encode_program, encode_program_with, EncodeOptions, MAX_FLATBUFFER_SIZE, MAX_INLINE_ALIGNMENT,
};
pub use program::json::read::program_from_json;
pub use program::json::stream::{ExirFold, ProgramJson};
pub use program::json::write::{program_to_json, JsonBytes};
pub use program::model::*;
pub use program::verify::checks::ElementChecks;
pub use program::verify::locate::{locate, Locator};
#[doc(hidden)]
pub use program::verify::verify_program_reference;
pub use program::view::items::{ChainView, DelegateView, InstructionRef, TensorView, ValueRef};
pub use program::view::preview::{PlanPreview, ProgramPreview};
pub use program::view::{PlanView, ProgramView};
pub use program::PROGRAM_IDENTIFIER;
pub use ptd::flat_tensor_from_json;
pub use pte_core::{Bytes, Error, ErrorKind, MappedFile, Result};
pub use raw::{List, ListItem};
pub use share::{share, CHUNK, SPLIT_MIN};
