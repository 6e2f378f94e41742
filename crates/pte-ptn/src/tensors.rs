//! A tensor-level view of a package's constants, in the manner of
//! safetensors' `tensors()`, with aliases resolved and named.

use std::ops::Range;

use crate::{Dtype, PtnFile};

/// One key of [`PtnFile::tensors`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorEntry<'s> {
    /// The key (owner or alias).
    pub key: &'s str,
    /// The owner key when this key is an alias of it.
    pub alias_of: Option<&'s str>,
    /// Element type.
    pub dtype: Dtype,
    /// Shape (a package stores only static shapes).
    pub shape: &'s [u64],
    /// Dimension order: a package stores every tensor contiguous, row-major.
    pub dim_order: Vec<u8>,
    /// The bytes (the owner's for an alias).
    pub bytes: &'s [u8],
}

impl TensorEntry<'_> {
    /// The data's byte range in `file`, when the bytes were borrowed from it
    /// (a package read with [`PtnFile::from_bytes`] borrows every stored tensor).
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("native_ptn/model.ptn"))?;
    /// let ptn = pte_ptn::PtnFile::from_bytes(&bytes)?;
    /// let t = &ptn.tensors()[0];
    /// let r = t.range_in(&bytes).unwrap();
    /// assert_eq!(&bytes[r.start as usize..r.end as usize], t.bytes);
    /// # Ok::<(), pte_ptn::Error>(())
    /// ```
    pub fn range_in(&self, file: &[u8]) -> Option<Range<u64>> {
        let start = (self.bytes.as_ptr() as usize).checked_sub(file.as_ptr() as usize)?;
        let end = start.checked_add(self.bytes.len())?;
        (end <= file.len()).then_some(start as u64..end as u64)
    }
}

impl PtnFile<'_> {
    /// Every constant key (owners and aliases) in key order, with dtype,
    /// shape, dim order and bytes.
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("native_ptn/model.ptn"))?;
    /// let ptn = pte_ptn::PtnFile::from_bytes(&bytes)?;
    /// let w = ptn.tensors().into_iter().find(|t| t.key == "seq.0.weight").unwrap();
    /// assert_eq!(w.shape, [32, 16]);
    /// assert_eq!(w.dim_order, [0, 1]);
    /// assert_eq!(w.bytes.len(), 32 * 16 * 4);
    /// # Ok::<(), pte_ptn::Error>(())
    /// ```
    pub fn tensors(&self) -> Vec<TensorEntry<'_>> {
        self.constants()
            .map(|(key, t)| TensorEntry {
                key,
                alias_of: self.aliases.get(key).map(String::as_str),
                dtype: t.dtype,
                shape: &t.shape,
                dim_order: (0..t.shape.len()).map(|d| u8::try_from(d).unwrap_or(u8::MAX)).collect(),
                bytes: &t.data,
            })
            .collect()
    }
}
