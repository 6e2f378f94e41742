//! ExecuTorch `.ptn` packages: the uncompressed zip `exir.native.to_native`
//! saves, holding `program.ptg` (an `NPTG` native program), optionally
//! `program.safetensors` (its constants, byte-identical immutable tensors
//! stored once) and `aliases.json` (duplicate key → owner key).
//!
//! * [`PtnFile::from_bytes`] reads strictly: members are found through the
//!   central directory, stored members and every tensor are borrowed from the
//!   input (zero-copy from a [`MappedFile`]), and each ambiguity a zip or
//!   safetensors reader could resolve two ways is a typed [`Error`].
//! * [`PtnFile::from_constants`] builds a package the way exir does: sorted
//!   keys, immutable duplicates aliased to the first key, mutable keys never.
//! * [`PtnFile::write_to`] streams the package a tensor at a time with
//!   deterministic bytes; [`PtnFile::save`] replaces a file atomically.
//!
//! It owns the `.ptn` container and what it holds; it does not depend on the
//! `.pte` crates (`pte-file`), since neither format contains the other, and
//! leaves the `samples/` sidecar's meaning to `pte-samples`.
//!
//! ```
//! use pte_ptn::PtnFile;
//! let bytes = std::fs::read(pte_testkit::corpus("native_ptn/model.ptn"))?;
//! let ptn = PtnFile::from_bytes(&bytes)?;
//! assert_eq!(ptn.constant("seq.0.weight").map(|t| t.shape.clone()), Some(vec![32, 16]));
//! let again = ptn.to_bytes()?;
//! assert_eq!(PtnFile::from_bytes(&again)?, ptn);
//! # Ok::<(), pte_ptn::Error>(())
//! ```

#![forbid(unsafe_code)]

mod aliases;
mod budget;
mod build;
mod limits;
mod members;
mod program;
mod read;
pub mod rules;
mod safetensors_io;
mod strict_json;
mod tensor;
mod tensors;
pub mod verify;
mod write;

use std::collections::BTreeMap;

pub use limits::{PtnCaps, PtnLimits, MAX_INFLATED};
pub use members::{check_member_name, Member};
pub use program::{check_program, Finding, ProgramCheck};
pub use pte_schema::{Bytes, Error, ErrorKind, MappedFile, Result};
pub use safetensors_io::{read_safetensors_member, safetensors_to_bytes};
pub use tensor::{dtype_code, Dtype, PtnTensor, SUPPORTED_DTYPES};
pub use tensors::TensorEntry;

/// Member holding the native program flatbuffer.
pub const PROGRAM_MEMBER: &str = "program.ptg";
/// Member holding the owner tensors.
pub const SAFETENSORS_MEMBER: &str = "program.safetensors";
/// Member holding the alias map.
pub const ALIASES_MEMBER: &str = "aliases.json";
/// The safetensors key reserved for metadata, never a tensor or alias key.
pub const METADATA_KEY: &str = "__metadata__";

/// A `.ptn` package.
///
/// ```
/// let ptn = pte_ptn::PtnFile::default();
/// assert!(ptn.tensors.is_empty() && ptn.aliases.is_empty());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct PtnFile<'a> {
    /// The `program.ptg` bytes exactly as stored (decode with [`PtnFile::native_program`]).
    pub program: Bytes<'a>,
    /// The owner tensors of `program.safetensors`, by key.
    pub tensors: BTreeMap<String, PtnTensor<'a>>,
    /// The safetensors `__metadata__` map, when the file has one (exir writes none).
    pub metadata: Option<BTreeMap<String, String>>,
    /// Duplicate key → owner key (`aliases.json`).
    pub aliases: BTreeMap<String, String>,
    /// Every other member (for example the `samples/` sidecar), in stored
    /// order, written back unchanged.
    pub members: Vec<Member<'a>>,
}

impl<'a> PtnFile<'a> {
    /// The tensor a key names, resolving aliases (`aliases.get(key, key)`).
    ///
    /// ```
    /// use pte_ptn::*;
    /// let t = PtnTensor::new(Dtype::U8, vec![1], vec![1u8])?;
    /// let mut p = PtnFile::default();
    /// p.tensors.insert("a".into(), t.clone());
    /// p.aliases.insert("b".into(), "a".into());
    /// assert_eq!(p.constant("b"), Some(&t));
    /// assert_eq!(p.constant("c"), None);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn constant(&self, key: &str) -> Option<&PtnTensor<'a>> {
        let owner = self.aliases.get(key).map_or(key, String::as_str);
        self.tensors.get(owner)
    }

    /// Every key (owners and aliases) with its tensor, in key order.
    ///
    /// ```
    /// assert_eq!(pte_ptn::PtnFile::default().constants().count(), 0);
    /// ```
    pub fn constants(&self) -> impl Iterator<Item = (&str, &PtnTensor<'a>)> {
        let mut keys: Vec<&str> = self.tensors.keys().chain(self.aliases.keys()).map(String::as_str).collect();
        keys.sort_unstable();
        keys.into_iter().filter_map(move |k| Some((k, self.constant(k)?)))
    }

    /// Decodes `program.ptg` into the owned native-program model.
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("native_ptn/model.ptn"))?;
    /// let ptn = pte_ptn::PtnFile::from_bytes(&bytes)?;
    /// assert_eq!(ptn.native_program(&Default::default())?.methods.len(), 1);
    /// # Ok::<(), pte_ptn::Error>(())
    /// ```
    pub fn native_program(&self, limits: &pte_schema::Limits) -> Result<pte_schema::native::NativeProgram> {
        pte_schema::native::decode_native_program(&self.program, limits).map_err(|e| in_member(e, PROGRAM_MEMBER))
    }

    /// Copies every borrowed byte.
    ///
    /// ```
    /// let owned: pte_ptn::PtnFile<'static> = pte_ptn::PtnFile::default().into_owned();
    /// assert!(owned.members.is_empty());
    /// ```
    pub fn into_owned(self) -> PtnFile<'static> {
        PtnFile {
            program: Bytes::Owned(self.program.into_owned()),
            tensors: self.tensors.into_iter().map(|(k, t)| (k, t.into_owned())).collect(),
            metadata: self.metadata,
            aliases: self.aliases,
            members: self.members.into_iter().map(Member::into_owned).collect(),
        }
    }
}

/// Prefixes an error's path with the member it came from.
pub(crate) fn in_member(e: Error, member: &str) -> Error {
    let path = if e.path().is_empty() { member.to_string() } else { format!("{member}:{}", e.path()) };
    let mut out = Error::new(e.kind(), e.message().to_string()).at_path(path);
    if let Some(o) = e.offset() {
        out = out.at_offset(o);
    }
    out
}
