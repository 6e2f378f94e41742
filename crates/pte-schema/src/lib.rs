//! The ExecuTorch `ET12` program schema for Rust.
//!
//! * [`decode_program`] verifies a flatbuffer (with [`Limits`] tied to the
//!   input size) and decodes it into the owned [`Program`] model, borrowing
//!   byte payloads from the input.
//! * [`encode_program`] writes the model back, honouring `force_align` on
//!   `Buffer.storage` and `BackendDelegateInlineData.data` at any power of two
//!   ([`EncodeOptions`]).
//! * [`program_to_json`] renders the program in the flatc-compatible JSON form
//!   exir uses.
//!
//! The flatc-generated code is private; the types here are the public API.
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
mod decode;
mod element_checks;
mod encode;
mod enums;
mod fenced;
mod json;
mod json_read;
mod json_stream;
mod limits;
mod locate;
mod model;
pub mod native;
mod offsets;
mod preview;
pub mod ptd;
mod structure;
mod view;
mod view_devices;
mod view_items;
mod view_raw;
pub mod xnnpack;

pub use decode::{decode_program, from_verifier, verify_program_reference, PROGRAM_IDENTIFIER};
pub use element_checks::ElementChecks;
pub use encode::{encode_program, encode_program_with, EncodeOptions, MAX_FLATBUFFER_SIZE, MAX_INLINE_ALIGNMENT};
pub use json::{program_to_json, JsonBytes};
pub use json_read::{flat_tensor_from_json, program_from_json};
pub use json_stream::ProgramJson;
pub use limits::Limits;
pub use locate::{locate, Locator};
pub use model::*;
pub use preview::{PlanPreview, ProgramPreview};
pub use pte_core::{Error, ErrorKind, MappedFile, Result};
pub use view::{PlanView, ProgramView};
pub use view_items::{ChainView, DelegateView, InstructionRef, TensorView, ValueRef};
pub use view_raw::{List, ListItem};
