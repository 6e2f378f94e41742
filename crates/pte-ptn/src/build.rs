//! Building a package from a program and every constant it references, with
//! exir's dedup rules.

use std::collections::{BTreeMap, BTreeSet};

use pte_schema::{Bytes, Error, ErrorKind, Result};

use crate::tensor::{dtype_code, PtnTensor};
use crate::{PtnFile, METADATA_KEY};

fn invalid(msg: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidUse, msg)
}

impl<'a> PtnFile<'a> {
    /// Builds a package from the program bytes and every constant keyed by
    /// data key, as exir's `write_ptn` does:
    ///
    /// * keys are visited in sorted order; an immutable tensor whose dtype,
    ///   shape and bytes equal an earlier one's becomes an alias of that
    ///   first key;
    /// * a mutable key always owns its own bytes and is never an owner others
    ///   alias to;
    /// * distinct keys whose bytes share memory (overlapping slices), when
    ///   either is mutable, are refused: the format cannot record that they
    ///   share state.
    ///
    /// `mutable_keys` usually comes from
    /// [`NativeProgram::mutable_keys`](pte_schema::native::NativeProgram::mutable_keys).
    ///
    /// ```
    /// use std::collections::{BTreeMap, BTreeSet};
    /// use pte_ptn::*;
    /// let t = PtnTensor::new(Dtype::F32, vec![1], vec![0u8; 4])?;
    /// let consts = BTreeMap::from([("b".to_string(), t.clone()), ("a".to_string(), t.clone()), ("m".to_string(), t)]);
    /// let p = PtnFile::from_constants(Vec::new(), consts, &BTreeSet::from(["m".to_string()]))?;
    /// assert_eq!(p.aliases, BTreeMap::from([("b".to_string(), "a".to_string())]));
    /// assert!(p.tensors.contains_key("m"));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn from_constants(
        program: impl Into<Bytes<'a>>,
        constants: BTreeMap<String, PtnTensor<'a>>,
        mutable_keys: &BTreeSet<String>,
    ) -> Result<Self> {
        if let Some(k) = mutable_keys.iter().find(|k| !constants.contains_key(*k)) {
            return Err(invalid(format!("mutable key {k:?} has no tensor data")));
        }
        for (key, t) in &constants {
            if key == METADATA_KEY {
                return Err(invalid(format!("{METADATA_KEY:?} is reserved and cannot be a data key")));
            }
            t.check().map_err(|e| e.at_path(format!("constants[{key:?}]")))?;
        }
        check_mutable_storage(&constants, mutable_keys)?;
        let mut owner_of: BTreeMap<(String, &[u64], &[u8]), &str> = BTreeMap::new();
        let mut aliases = BTreeMap::new();
        let mut owners = BTreeSet::new();
        for (key, t) in &constants {
            if mutable_keys.contains(key) {
                owners.insert(key.clone());
                continue;
            }
            let signature = (dtype_code(t.dtype), t.shape.as_slice(), t.data.as_ref());
            match owner_of.get(&signature) {
                Some(owner) => {
                    aliases.insert(key.clone(), (*owner).to_string());
                }
                None => {
                    owner_of.insert(signature, key);
                    owners.insert(key.clone());
                }
            }
        }
        drop(owner_of);
        let tensors = constants.into_iter().filter(|(k, _)| owners.contains(k)).collect();
        Ok(PtnFile { program: program.into(), tensors, metadata: None, aliases, members: Vec::new() })
    }
}

/// Refuses distinct keys whose non-empty bytes overlap in memory when either
/// key is mutable.
fn check_mutable_storage(constants: &BTreeMap<String, PtnTensor<'_>>, mutable: &BTreeSet<String>) -> Result<()> {
    let mut spans: Vec<(usize, usize, &str)> = constants
        .iter()
        .filter(|(_, t)| !t.data.is_empty())
        .map(|(k, t)| {
            let start = t.data.as_ptr() as usize;
            (start, start.saturating_add(t.data.len()), k.as_str())
        })
        .collect();
    spans.sort_unstable();
    // Any earlier span overlapping this one ends after its start, so the
    // furthest end among earlier (mutable) spans decides.
    let mut furthest: Option<(usize, &str)> = None;
    let mut furthest_mutable: Option<(usize, &str)> = None;
    for &(start, end, key) in &spans {
        let is_mutable = mutable.contains(key);
        let clash = if is_mutable { furthest } else { furthest_mutable };
        if let Some((other_end, other)) = clash
            && start < other_end
        {
            let (a, b) = if other < key { (other, key) } else { (key, other) };
            return Err(invalid(format!(
                "data keys {a:?} and {b:?} share storage and one is mutable; a package cannot record shared state"
            )));
        }
        if furthest.is_none_or(|(e, _)| end > e) {
            furthest = Some((end, key));
        }
        if is_mutable && furthest_mutable.is_none_or(|(e, _)| end > e) {
            furthest_mutable = Some((end, key));
        }
    }
    Ok(())
}
