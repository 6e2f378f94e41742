//! Self-contained HTML reports of ExecuTorch files.
//!
//! (Crate documentation to be completed with the page builder.)

pub mod findings;
pub mod graph;
pub mod layout;
pub mod payload;
pub mod style;
pub mod verify;
