//! The native-lowering program schema (`NPTG`, the `program.ptg` member of a
//! `.ptn` package): owned model, verified decoding, encoding, a zero-copy
//! view and flatc-compatible JSON.
//!
//! Its [`NativeScalarType`] is a separate enum from the program schema's
//! [`ScalarType`](crate::ScalarType): the unsigned types are numbered
//! differently.
//!
//! ```
//! use pte_schema::native::*;
//! let mut m = NativeMethod::named("forward");
//! m.graph.nodes.push(Node { name: "x".into(), op_kind: OpKind::PLACEHOLDER, ..Default::default() });
//! let p = NativeProgram { version: Some("1".into()), methods: vec![m] };
//! let bytes = encode_native_program(&p)?;
//! assert_eq!(decode_native_program(&bytes, &pte_schema::Limits::default())?, p);
//! # Ok::<(), pte_schema::Error>(())
//! ```

mod decode;
mod encode;
mod enums;
mod json;
mod model;
mod view;

pub use decode::{decode_native_program, MAX_GRAPH_NESTING};
pub use encode::encode_native_program;
pub use enums::*;
pub use json::native_program_to_json;
pub use model::*;
pub use view::{NativeMethodView, NativeProgramView};

/// The four identifier bytes of a native program flatbuffer.
pub const NATIVE_PROGRAM_IDENTIFIER: &[u8; 4] = b"NPTG";
