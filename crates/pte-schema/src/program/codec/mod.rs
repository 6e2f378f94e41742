//! A program flatbuffer to the owned model and back.

pub(crate) mod decode;
pub(crate) mod encode;
