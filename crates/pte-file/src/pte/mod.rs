//! The `.pte` aggregate: reading, the segment accessors, building from
//! parts, write options, layout transforms and streaming writing.

pub(crate) mod access;
pub(crate) mod build;
pub(crate) mod keep_rewrite;
pub(crate) mod options;
pub(crate) mod read;
pub(crate) mod rewrite;
pub(crate) mod sparse;
pub(crate) mod sparse_keep;
pub(crate) mod stored_program;
pub(crate) mod tensors;
pub(crate) mod transform;
pub(crate) mod write;
