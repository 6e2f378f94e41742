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
mod encode;
mod enums;
mod error;
mod fenced;
mod json;
mod json_stream;
mod limits;
mod locate;
mod model;
pub mod native;
mod offsets;
pub mod ptd;
mod view;
mod view_items;

pub use decode::{decode_program, from_verifier, PROGRAM_IDENTIFIER};
pub use encode::{encode_program, encode_program_with, EncodeOptions, MAX_FLATBUFFER_SIZE, MAX_INLINE_ALIGNMENT};
pub use error::{Error, ErrorKind, Result};
pub use fenced::MappedFile;
pub use json::{program_to_json, JsonBytes};
pub use json_stream::ProgramJson;
pub use limits::Limits;
pub use locate::{locate, Locator};
pub use model::*;
pub use view::{PlanView, ProgramView};
pub use view_items::{ChainView, DelegateView, InstructionRef, List, TensorView, ValueRef};
