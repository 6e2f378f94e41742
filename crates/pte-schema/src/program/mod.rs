//! The `ET12` program schema (`executorch_flatbuffer.Program`, the
//! flatbuffer of a `.pte`), laid out by job like [`native`](crate::native)
//! and [`xnnpack`](crate::xnnpack):
//!
//! * `model`, `enums`: the owned, editable model, one type per table;
//! * `codec`: verified decoding into the model and encoding back, with
//!   `force_align` honoured;
//! * `json`: the flatc-compatible JSON form, written from the model or
//!   streamed from the buffer, and read back;
//! * `view`: zero-copy views of a verified buffer, and previews of one not
//!   yet verified;
//! * `verify`: the structural verifier every reader runs first, the
//!   caller's per-element checks it runs, and byte offsets for field paths.
//!
//! Everything public is re-exported at the crate root.

pub(crate) mod codec;
pub(crate) mod enums;
pub(crate) mod json;
pub(crate) mod model;
pub(crate) mod verify;
pub(crate) mod view;

/// The four identifier bytes of a program flatbuffer.
///
/// ```
/// assert_eq!(pte_schema::PROGRAM_IDENTIFIER, b"ET12");
/// ```
pub const PROGRAM_IDENTIFIER: &[u8; 4] = b"ET12";
