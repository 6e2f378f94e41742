//! A tensor-level view of a `.ptd`: one entry per key, with its layout
//! (when the writer recorded one) and its bytes.

use std::ops::Range;

use pte_schema::ptd::TensorLayout;
use pte_schema::{Error, ErrorKind, Result};

use crate::ptd::PtdFile;

/// One key of [`PtdFile::tensors`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorEntry<'s> {
    /// The key (a program's fully qualified name for EXTERNAL tensors).
    pub key: &'s str,
    /// dtype, sizes and dim order; `None` for an opaque blob (delegate weights).
    pub layout: Option<&'s TensorLayout>,
    /// Index into the segment table.
    pub segment_index: u32,
    /// Byte range relative to the segment base offset (the `FH01` header's
    /// `segment_base_offset` added gives the file offset).
    pub range: Range<u64>,
    /// The blob.
    pub bytes: &'s [u8],
}

impl PtdFile<'_> {
    /// Every key in table order with its layout, range and bytes.
    ///
    /// ```
    /// let b = std::fs::read(pte_testkit::corpus("external/_default_external_constant.ptd"))?;
    /// let ptd = pte_file::ptd::PtdFile::from_bytes(&b)?;
    /// let t = ptd.tensors()?;
    /// assert_eq!(t[0].key, "seq.0.weight");
    /// assert_eq!(t[0].layout.unwrap().sizes.as_deref(), Some(&[32, 16][..]));
    /// assert_eq!(t[0].bytes.len(), 2048);
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn tensors(&self) -> Result<Vec<TensorEntry<'_>>> {
        let table = self.flat_tensor.segments.as_deref().unwrap_or(&[]);
        self.flat_tensor
            .named_data
            .iter()
            .flatten()
            .enumerate()
            .map(|(i, n)| {
                let seg = usize::try_from(n.segment_index).ok();
                let missing = || {
                    Error::new(ErrorKind::Malformed, format!("segment {} of {}", n.segment_index, self.segments.len()))
                        .at_path(format!("named_data[{i}].segment_index"))
                };
                let bytes = seg.and_then(|s| self.segments.get(s)).ok_or_else(missing)?;
                let start = seg.and_then(|s| table.get(s)).ok_or_else(missing)?.offset;
                let end = start.checked_add(bytes.len() as u64).ok_or_else(missing)?;
                Ok(TensorEntry {
                    key: n.key.as_deref().unwrap_or(""),
                    layout: n.tensor_layout.as_ref(),
                    segment_index: n.segment_index,
                    range: start..end,
                    bytes: bytes.as_ref(),
                })
            })
            .collect()
    }
}
