//! The XNNPACK delegate payload: the `XH00` header, the `XNNGraph`
//! flatbuffer (identifier `XN01`, or `XN00` from older exporters) and the
//! constant data after it. Zero-copy view ([`XnnPayload`]), owned model
//! ([`XnnGraph`]) and flatc-compatible JSON ([`xnn_graph_to_json`]).
//!
//! A constant's bytes are found either at an offset into the payload's
//! constant data or, when its entry carries a `named_key`, in the named data
//! the backend is given at load time (the program's named data merged with
//! any linked `.ptd`).
//!
//! ```
//! use pte_schema::xnnpack::*;
//! let file = std::fs::read(pte_testkit::corpus("xnnpack_mlp/model.pte"))?;
//! let payload = XnnPayload::new(&file[1536..1536 + 1184], &pte_schema::Limits::default())?;
//! let graph = payload.decode()?;
//! assert_eq!(graph.named_keys().count(), 4);
//! assert_eq!(xnn_graph_to_json(&graph)["xnodes"][0]["xnode_union_type"], "XNNFullyConnected");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod decode;
// value names are the schema's, lower-case ones included
#[allow(non_upper_case_globals)]
mod enums;
mod header;
mod json;
mod model;
mod view;

pub use decode::decode_xnn_graph;
pub use enums::{XNodeKind, XnnDatatype};
pub use header::{XnnHeader, XNN_HEADER_MAGIC, XNN_HEADER_SIZE};
pub use json::xnn_graph_to_json;
pub use model::*;
pub use view::{XnnConstant, XnnPayload};

/// The delegate id the exporter gives XNNPACK payloads.
///
/// ```
/// assert_eq!(pte_schema::xnnpack::XNNPACK_BACKEND_ID, "XnnpackBackend");
/// ```
pub const XNNPACK_BACKEND_ID: &str = "XnnpackBackend";

/// The identifier the current exporter writes.
///
/// ```
/// assert_eq!(pte_schema::xnnpack::XNN_IDENTIFIER, b"XN01");
/// ```
pub const XNN_IDENTIFIER: &[u8; 4] = b"XN01";

/// The identifier of older exporters, which the runtime still accepts.
///
/// ```
/// assert_eq!(pte_schema::xnnpack::XNN_LEGACY_IDENTIFIER, b"XN00");
/// ```
pub const XNN_LEGACY_IDENTIFIER: &[u8; 4] = b"XN00";

/// Both identifiers the runtime accepts.
pub(crate) const XNN_IDENTIFIERS: [&[u8; 4]; 2] = [XNN_IDENTIFIER, XNN_LEGACY_IDENTIFIER];

/// A value id meaning "no value" (an absent bias, an internal value's external id).
///
/// ```
/// assert_eq!(pte_schema::xnnpack::XNN_INVALID_VALUE_ID, u32::MAX);
/// ```
pub const XNN_INVALID_VALUE_ID: u32 = u32::MAX;
