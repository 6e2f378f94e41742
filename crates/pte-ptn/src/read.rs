//! Reading a package: members, then tensors, aliases and the program's references.

use std::collections::BTreeMap;

use pte_schema::{Error, ErrorKind, Result};

use crate::aliases::parse_aliases;
use crate::members::read_members;
use crate::program::check_program;
use crate::safetensors_io::read_safetensors;
use crate::tensor::PtnTensor;
use crate::{PtnFile, PtnLimits, ALIASES_MEMBER, PROGRAM_MEMBER, SAFETENSORS_MEMBER};

impl<'a> PtnFile<'a> {
    /// Reads a package held in memory with the default [`PtnLimits`].
    ///
    /// ```
    /// let err = pte_ptn::PtnFile::from_bytes(b"PK\x05\x06 not really").unwrap_err();
    /// assert_eq!(err.kind(), pte_ptn::ErrorKind::Malformed);
    /// ```
    pub fn from_bytes(bytes: &'a [u8]) -> Result<Self> {
        Self::from_bytes_with(bytes, &PtnLimits::default())
    }

    /// Reads a package with explicit limits. Every rule is checked: the zip
    /// (see [`check_member_name`](crate::check_member_name)), the safetensors
    /// member, the alias map, and that each data key the native program
    /// references resolves to a tensor of the dtype and shape it declares.
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("native_ptn/model.ptn"))?;
    /// let ptn = pte_ptn::PtnFile::from_bytes_with(&bytes, &pte_ptn::PtnLimits::default())?;
    /// assert_eq!(ptn.tensors.len(), 4);
    /// # Ok::<(), pte_ptn::Error>(())
    /// ```
    pub fn from_bytes_with(bytes: &'a [u8], limits: &PtnLimits) -> Result<Self> {
        let ptn = read_container(bytes, limits)?;
        check_program(&ptn, &limits.flatbuffer)?;
        Ok(ptn)
    }
}

impl<'a> PtnFile<'a> {
    /// Reads the container (members, tensors, aliases) without decoding the
    /// program or checking its references: for tools that must show a
    /// package whose program is broken.
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("native_ptn/model.ptn"))?;
    /// let ptn = pte_ptn::PtnFile::from_bytes_unchecked(&bytes)?;
    /// assert_eq!(ptn, pte_ptn::PtnFile::from_bytes(&bytes)?);
    /// # Ok::<(), pte_ptn::Error>(())
    /// ```
    pub fn from_bytes_unchecked(bytes: &'a [u8]) -> Result<Self> {
        read_container(bytes, &PtnLimits::default())
    }
}

/// Reads members, tensors and aliases, checking everything but the program.
pub(crate) fn read_container<'a>(bytes: &'a [u8], limits: &PtnLimits) -> Result<PtnFile<'a>> {
    assemble(read_members(bytes, limits)?, limits)
}

/// Sorts the members into the aggregate, parsing tensors and aliases.
pub(crate) fn assemble<'a>(all: Vec<crate::Member<'a>>, limits: &PtnLimits) -> Result<PtnFile<'a>> {
    {
        let mut program = None;
        let mut safetensors = None;
        let mut aliases = None;
        let mut members = Vec::new();
        for member in all {
            match member.name.as_str() {
                PROGRAM_MEMBER => program = Some(member.data),
                SAFETENSORS_MEMBER => safetensors = Some(member.data),
                ALIASES_MEMBER => aliases = Some(member.data),
                _ => members.push(member),
            }
        }
        let program = program.ok_or_else(|| {
            Error::new(ErrorKind::Malformed, format!("the required member {PROGRAM_MEMBER} is missing"))
        })?;
        let (tensors, metadata) = match safetensors {
            None => (BTreeMap::new(), None),
            Some(std::borrow::Cow::Borrowed(b)) => read_safetensors(b, limits)?,
            // Deflated: the tensors must own their bytes.
            Some(std::borrow::Cow::Owned(b)) => {
                let (t, m) = read_safetensors(&b, limits)?;
                (t.into_iter().map(|(k, t)| (k, t.into_owned())).collect(), m)
            }
        };
        let aliases = match aliases {
            Some(data) => parse_aliases(&data, limits)?,
            None => BTreeMap::new(),
        };
        check_alias_map(&tensors, &aliases, ErrorKind::Malformed)?;
        Ok(PtnFile { program, tensors, metadata, aliases, members })
    }
}

/// Aliases name real owners; no key is both; owners are never aliases (so no
/// chains or cycles).
pub(crate) fn check_alias_map(
    tensors: &BTreeMap<String, PtnTensor<'_>>,
    aliases: &BTreeMap<String, String>,
    kind: ErrorKind,
) -> Result<()> {
    for (key, owner) in aliases {
        let at = |msg: String| Error::new(kind, msg).at_path(format!("{ALIASES_MEMBER}[{key:?}]"));
        if tensors.contains_key(key) {
            return Err(at(format!("{key:?} is both a safetensors owner and an alias")));
        }
        if !tensors.contains_key(owner) {
            return Err(at(if aliases.contains_key(owner) {
                format!("alias {key:?} names {owner:?}, itself an alias (a chain or cycle)")
            } else {
                format!("alias {key:?} names owner {owner:?}, which has no safetensors entry")
            }));
        }
    }
    Ok(())
}
