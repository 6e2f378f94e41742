//! An independent reader and writer of `ET12` programs, built on planus
//! (its own code generator, builder and safe reader), used only by tests and
//! fuzz targets to cross-check the main `flatbuffers`-based path. Like the
//! flatc output in pte-schema, the generated module is the only place
//! `unsafe` appears (planus needs it in its writers).
//!
//! It owns nothing the published crates use: it is a second opinion, not a
//! dependency of any of them.

#![deny(unsafe_code)]

#[allow(unsafe_code, missing_docs, clippy::all, clippy::pedantic, unused_imports, dead_code, non_camel_case_types)]
#[rustfmt::skip]
#[path = "generated/program.rs"]
mod generated;

pub use generated::executorch_flatbuffer as schema;

use planus::ReadAsRoot;

/// Decodes a program flatbuffer (header bytes at 8.. allowed) into planus's owned model.
///
/// ```
/// assert!(pte_oracle::decode(&[0u8; 8]).is_err());
/// ```
pub fn decode(buf: &[u8]) -> Result<schema::Program, planus::Error> {
    let r = schema::ProgramRef::read_as_root(buf)?;
    schema::Program::try_from(r)
}

/// Encodes with planus and repairs its identifier placement (planus 1.3.0
/// writes the identifier before the root offset; see docs/rust-toolchain.md).
///
/// ```
/// let bytes = pte_oracle::encode(&Default::default());
/// assert_eq!(&bytes[4..8], b"ET12");
/// assert!(pte_oracle::decode(&bytes).is_ok());
/// ```
pub fn encode(program: &schema::Program) -> Vec<u8> {
    let mut b = planus::Builder::new();
    let out = b.finish(program, Some(*b"ET12")).to_vec();
    repair_identifier(out, *b"ET12")
}

fn repair_identifier(mut out: Vec<u8>, id: [u8; 4]) -> Vec<u8> {
    if out.len() >= 8 && out.get(..4) == Some(id.as_slice()) {
        let mut root = [0u8; 4];
        root.copy_from_slice(&out[4..8]);
        let fixed = u32::from_le_bytes(root).wrapping_add(4);
        out[..4].copy_from_slice(&fixed.to_le_bytes());
        out[4..8].copy_from_slice(&id);
    }
    out
}

#[allow(unsafe_code, missing_docs, clippy::all, clippy::pedantic, unused_imports, dead_code, non_camel_case_types)]
#[rustfmt::skip]
#[path = "generated/native_graph.rs"]
mod native_generated;

/// The `NPTG` native-program schema through planus.
pub mod native {
    pub use crate::native_generated::native_backend as schema;

    use planus::ReadAsRoot;

    /// Decodes an `NPTG` flatbuffer into planus's owned model.
    ///
    /// ```
    /// assert!(pte_oracle::native::decode(&[0u8; 8]).is_err());
    /// ```
    pub fn decode(buf: &[u8]) -> Result<schema::Program, planus::Error> {
        schema::Program::try_from(schema::ProgramRef::read_as_root(buf)?)
    }

    /// Encodes with planus, with the identifier repaired as in [`crate::encode`].
    ///
    /// ```
    /// let bytes = pte_oracle::native::encode(&Default::default());
    /// assert_eq!(&bytes[4..8], b"NPTG");
    /// ```
    pub fn encode(program: &schema::Program) -> Vec<u8> {
        let mut b = planus::Builder::new();
        let out = b.finish(program, Some(*b"NPTG")).to_vec();
        crate::repair_identifier(out, *b"NPTG")
    }
}

#[allow(unsafe_code, missing_docs, clippy::all, clippy::pedantic, unused_imports, dead_code, non_camel_case_types)]
#[rustfmt::skip]
#[path = "generated/bundled_program_schema.rs"]
mod bundled_generated;

/// The `BP08` bundled-program schema through planus.
pub mod bundled {
    pub use crate::bundled_generated::bundled_program_flatbuffer as schema;

    use planus::ReadAsRoot;

    /// Decodes a `BP08` flatbuffer into planus's owned model.
    ///
    /// ```
    /// assert!(pte_oracle::bundled::decode(&[0u8; 8]).is_err());
    /// ```
    pub fn decode(buf: &[u8]) -> Result<schema::BundledProgram, planus::Error> {
        schema::BundledProgram::try_from(schema::BundledProgramRef::read_as_root(buf)?)
    }

    /// Encodes with planus (which ignores `force_align`, so alignments are
    /// whatever falls out: useful for testing the alignment rules).
    ///
    /// ```
    /// let bytes = pte_oracle::bundled::encode(&Default::default());
    /// assert_eq!(&bytes[4..8], b"BP08");
    /// ```
    pub fn encode(b: &schema::BundledProgram) -> Vec<u8> {
        let mut builder = planus::Builder::new();
        let out = builder.finish(b, Some(*b"BP08")).to_vec();
        crate::repair_identifier(out, *b"BP08")
    }
}
