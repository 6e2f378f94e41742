//! Semantic views of the segments: constants, mutable data, named data, delegates.

use std::collections::BTreeMap;

use pte_schema::{DataLocation, Error, ErrorKind, KernelTypes, Result, SubsegmentOffsets};
use pte_segments::ranges::sub_range;

use crate::PteFile;

/// One constant (or mutable) sub-buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConstantRef<'s> {
    /// Index in the offsets list (the tensors' `data_buffer_idx`); 0 is the placeholder.
    pub index: usize,
    /// Byte offset inside its segment (0 for inline legacy buffers).
    pub offset: u64,
    /// The data: the referencing tensor's byte size when one exists, otherwise
    /// everything up to the next offset (or the segment end).
    pub bytes: &'s [u8],
    /// Bytes from this offset to the next one (or the segment end): data plus padding.
    pub span: u64,
}

/// A named blob (`Program.named_data`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NamedBlob<'s> {
    /// The key.
    pub key: &'s str,
    /// Index into the segment table.
    pub segment_index: u32,
    /// The blob.
    pub bytes: &'s [u8],
}

/// A delegate's processed blob.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DelegateBlob<'s> {
    /// Execution plan index.
    pub plan: usize,
    /// Delegate index inside the plan.
    pub delegate: usize,
    /// Backend id.
    pub id: &'s str,
    /// INLINE or SEGMENT.
    pub location: DataLocation,
    /// Index into `backend_delegate_data` or the segment table.
    pub index: u32,
    /// The blob.
    pub bytes: &'s [u8],
}

fn malformed(msg: String, path: impl Into<String>) -> Error {
    Error::new(ErrorKind::Malformed, msg).at_path(path)
}

impl PteFile<'_> {
    /// The bytes of segment `index`.
    ///
    /// ```
    /// assert!(pte_file::PteFile::default().segment(0).is_err());
    /// ```
    pub fn segment(&self, index: u32) -> Result<&[u8]> {
        usize::try_from(index).ok().and_then(|i| self.segments.get(i)).map(|b| b.as_ref()).ok_or_else(|| {
            malformed(format!("segment index {index} out of range ({} segments)", self.segments.len()), "segments")
        })
    }

    /// Byte sizes that tensors give each constant index (tensors with
    /// `data_buffer_idx > 0`, no allocation info, stored in this file).
    pub(crate) fn tensor_sizes(&self, mutable: bool) -> BTreeMap<u32, u64> {
        let mut out = BTreeMap::new();
        for plan in self.program.plans() {
            for v in plan.value_list() {
                if let Some(KernelTypes::Tensor(t)) = &v.val
                    && t.data_buffer_idx > 0
                    && t.allocation_info.is_some() == mutable
                    && !t.is_external()
                    && let Some(n) = t.nbytes()
                {
                    out.entry(t.data_buffer_idx).or_insert(n);
                }
            }
        }
        out
    }

    fn subsegments<'s>(
        &'s self,
        sub: &SubsegmentOffsets,
        sizes: &BTreeMap<u32, u64>,
        path: &str,
    ) -> Result<Vec<ConstantRef<'s>>> {
        let seg = self.segment(sub.segment_index).map_err(|e| e.within(path))?;
        let offsets = sub.offsets.as_deref().unwrap_or(&[]);
        let seg_len = seg.len() as u64;
        let mut out = Vec::with_capacity(offsets.len());
        for (i, &off) in offsets.iter().enumerate() {
            let next = offsets.get(i.saturating_add(1)).copied().filter(|&n| n >= off).unwrap_or(seg_len);
            let span = next.max(off).saturating_sub(off);
            let want = u32::try_from(i).ok().and_then(|k| sizes.get(&k)).copied();
            let len = match want {
                Some(n) if n <= seg_len.saturating_sub(off) => n,
                _ => span.min(seg_len.saturating_sub(off)),
            };
            let bytes = sub_range(seg, off, len, &format!("{path}.offsets[{i}]"))?;
            out.push(ConstantRef { index: i, offset: off, bytes, span });
        }
        Ok(out)
    }

    /// The constant tensors: from the constant segment, or from the legacy
    /// inline `constant_buffer` when the program has no constant segment
    /// offsets. Index 0 is the placeholder.
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let pte = pte_file::PteFile::from_bytes(&bytes)?;
    /// let c = pte.constants()?;
    /// assert_eq!(c[1].bytes.len(), 48); // the 3x4 float weight
    /// assert_eq!(c[2].bytes.len(), 12); // the bias, padding excluded
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn constants(&self) -> Result<Vec<ConstantRef<'_>>> {
        match &self.program.constant_segment {
            Some(cs) if cs.offsets.as_ref().is_some_and(|o| !o.is_empty()) => {
                if cs.offsets.as_ref().is_some_and(|o| o.len() == 1) && self.segments.is_empty() {
                    return Ok(vec![ConstantRef { index: 0, offset: 0, bytes: &[], span: 0 }]);
                }
                self.subsegments(cs, &self.tensor_sizes(false), "constant_segment")
            }
            _ => Ok(self
                .program
                .constant_buffer
                .iter()
                .flatten()
                .enumerate()
                .map(|(i, b)| {
                    let bytes = b.storage.as_deref().unwrap_or(&[]);
                    ConstantRef { index: i, offset: 0, bytes, span: bytes.len() as u64 }
                })
                .collect()),
        }
    }

    /// Every mutable data segment's sub-buffers (the runtime reads only entry 0).
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("mutable_buffer/model.pte"))?;
    /// let pte = pte_file::PteFile::from_bytes(&bytes)?;
    /// assert_eq!(pte.mutable_segments()?.len(), 1);
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn mutable_segments(&self) -> Result<Vec<Vec<ConstantRef<'_>>>> {
        let sizes = self.tensor_sizes(true);
        let none = BTreeMap::new();
        self.program
            .mutable_data_segments
            .iter()
            .flatten()
            .enumerate()
            .map(|(k, m)| {
                self.subsegments(m, if k == 0 { &sizes } else { &none }, &format!("mutable_data_segments[{k}]"))
            })
            .collect()
    }

    /// The named blobs, in table order.
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("xnnpack_mlp/model.pte"))?;
    /// let pte = pte_file::PteFile::from_bytes(&bytes)?;
    /// assert!(!pte.named_data()?.is_empty());
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn named_data(&self) -> Result<Vec<NamedBlob<'_>>> {
        self.program
            .named_data
            .iter()
            .flatten()
            .enumerate()
            .map(|(i, n)| {
                let path = format!("named_data[{i}]");
                let bytes = self.segment(n.segment_index).map_err(|e| e.within(&path))?;
                Ok(NamedBlob { key: n.key.as_deref().unwrap_or(""), segment_index: n.segment_index, bytes })
            })
            .collect()
    }

    /// Every delegate's processed blob, plan by plan.
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("inline_delegate/model.pte"))?;
    /// let pte = pte_file::PteFile::from_bytes(&bytes)?;
    /// let d = pte.delegate_blobs()?;
    /// assert_eq!(d[0].location, pte_schema::DataLocation::INLINE);
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn delegate_blobs(&self) -> Result<Vec<DelegateBlob<'_>>> {
        let mut out = vec![];
        for (p, plan) in self.program.plans().iter().enumerate() {
            for (d, del) in plan.delegates.iter().flatten().enumerate() {
                let path = format!("execution_plan[{p}].delegates[{d}].processed");
                let r = del.processed.ok_or_else(|| malformed("delegate has no processed reference".into(), &path))?;
                let bytes = self.delegate_bytes(r.location, r.index).map_err(|e| e.within(&path))?;
                out.push(DelegateBlob {
                    plan: p,
                    delegate: d,
                    id: del.id.as_deref().unwrap_or(""),
                    location: r.location,
                    index: r.index,
                    bytes,
                });
            }
        }
        Ok(out)
    }

    pub(crate) fn delegate_bytes(&self, location: DataLocation, index: u32) -> Result<&[u8]> {
        match location {
            DataLocation::INLINE => {
                let inline = self.program.backend_delegate_data.as_deref().unwrap_or(&[]);
                usize::try_from(index)
                    .ok()
                    .and_then(|i| inline.get(i))
                    .map(|b| b.data.as_deref().unwrap_or(&[]))
                    .ok_or_else(|| {
                        malformed(format!("inline index {index} out of range ({} blobs)", inline.len()), "index")
                    })
            }
            DataLocation::SEGMENT => self.segment(index),
            other => Err(Error::new(ErrorKind::Unsupported, format!("unknown delegate data location {}", other.0))
                .at_path("location")),
        }
    }
}
