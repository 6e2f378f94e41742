//! Self-contained HTML reports of ExecuTorch files.
//!
//! (Crate documentation to be completed with the page builder.)

pub mod graph;
pub mod layout;
