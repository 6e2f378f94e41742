//! The summary of a `.ptd` tensor-data file, typed: what `pte info --json`
//! prints for one.
//!
//! Fields are declared in alphabetical order: serialized through serde they
//! come out in the order a `serde_json` tree sorts them, so the text is the
//! same whether a caller writes the summary directly or through a `Value`.

use serde::Serialize;

use pte_file::ptd::PtdFile;
use pte_segments::FlatTensorHeader;

use crate::Result;

/// The summary of a `.ptd`.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("external/_default_external_constant.ptd"))?;
/// let s = pte::PtdSummary::read(&bytes, false)?;
/// assert_eq!(s.format, "ptd");
/// assert_eq!(s.keys.len(), s.segments.len());
/// assert!(s.keys.iter().all(|k| k.sha256.as_ref().is_some_and(|d| d.len() == 64)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct PtdSummary {
    /// The file's size in bytes.
    pub file_size: usize,
    /// Always `"ptd"`.
    pub format: &'static str,
    /// The `FH01` header, when the file has one.
    pub header: Option<PtdHeader>,
    /// The named entries, in table order.
    pub keys: Vec<PtdKey>,
    /// The segment table.
    pub segments: Vec<PtdSegment>,
    /// The tensor table (`pte info --tensors`), when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tensors: Option<Vec<PtdTensor>>,
    /// The schema version the flatbuffer states.
    pub version: u32,
}

/// The `FH01` header's fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct PtdHeader {
    /// Where the flatbuffer starts.
    pub flatbuffer_offset: u64,
    /// Its size.
    pub flatbuffer_size: u64,
    /// The header's own length.
    pub length: u32,
    /// Where the segment data starts.
    pub segment_base_offset: u64,
    /// Its size.
    pub segment_data_size: u64,
}

/// One entry of the segment table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct PtdSegment {
    /// Its position in the table.
    pub index: usize,
    /// Offset from the segment base.
    pub offset: u64,
    /// Size in bytes.
    pub size: u64,
}

/// One named entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct PtdKey {
    /// Its key (none when the table leaves it out).
    pub key: Option<String>,
    /// Its layout, when the entry is a tensor.
    pub layout: Option<PtdLayout>,
    /// The segment holding its bytes.
    pub segment_index: u32,
    /// SHA-256 of those bytes, lower-case hex (none when the segment is missing).
    pub sha256: Option<String>,
    /// Their size (none when the segment is missing).
    pub size: Option<usize>,
}

/// A named entry's tensor layout.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct PtdLayout {
    /// Dimension order.
    pub dim_order: Option<Vec<u8>>,
    /// Element type as the schema names it (`ScalarType(N)` for an unknown one).
    pub dtype: String,
    /// Bytes its dtype and sizes make (none when they do not give a size).
    pub nbytes: Option<u64>,
    /// Dimension sizes.
    pub sizes: Option<Vec<i32>>,
}

/// One row of the tensor table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct PtdTensor {
    /// Dimension order.
    pub dim_order: Option<Vec<u8>>,
    /// Element type (none for an opaque blob).
    pub dtype: Option<String>,
    /// Its bytes in the file, `[start, end)`.
    pub file_range: [u64; 2],
    /// Its key.
    pub name: String,
    /// Bytes its dtype and sizes make.
    pub nbytes: Option<u64>,
    /// The segment holding it.
    pub segment: u32,
    /// Dimension sizes.
    pub sizes: Option<Vec<i32>>,
    /// Bytes stored for it.
    pub stored: usize,
}

impl PtdSummary {
    /// Reads `bytes` as a `.ptd` and summarises it, with the tensor table
    /// when `tensors`; fails where [`PtdFile::from_bytes`] fails.
    ///
    /// ```
    /// assert!(pte::PtdSummary::read(b"nonsense", false).is_err());
    /// ```
    pub fn read(bytes: &[u8], tensors: bool) -> Result<PtdSummary> {
        let ptd = PtdFile::from_bytes(bytes)?;
        Ok(PtdSummary::of(&ptd, bytes, tensors))
    }

    /// The summary of a `.ptd` already read from `bytes`.
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("external/_default_external_constant.ptd"))?;
    /// let ptd = pte_file::ptd::PtdFile::from_bytes(&bytes)?;
    /// let s = pte::PtdSummary::of(&ptd, &bytes, true);
    /// assert_eq!(s.tensors.map(|t| t.len()), Some(s.keys.len()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn of(ptd: &PtdFile<'_>, bytes: &[u8], tensors: bool) -> PtdSummary {
        let header = FlatTensorHeader::parse(bytes).ok();
        let keys = ptd
            .flat_tensor
            .named_data
            .iter()
            .flatten()
            .map(|n| {
                let blob = usize::try_from(n.segment_index).ok().and_then(|i| ptd.segments.get(i));
                PtdKey {
                    key: n.key.clone(),
                    layout: n.tensor_layout.as_ref().map(|l| PtdLayout {
                        dim_order: l.dim_order.clone(),
                        dtype: l
                            .scalar_type
                            .name()
                            .map_or_else(|| format!("ScalarType({})", l.scalar_type.0), str::to_string),
                        nbytes: l.nbytes(),
                        sizes: l.sizes.clone(),
                    }),
                    segment_index: n.segment_index,
                    sha256: blob.map(|b| pte_pack::sha256_hex(b)),
                    size: blob.map(|b| b.len()),
                }
            })
            .collect();
        let segments = ptd
            .flat_tensor
            .segments
            .iter()
            .flatten()
            .enumerate()
            .map(|(index, s)| PtdSegment { index, offset: s.offset, size: s.size })
            .collect();
        PtdSummary {
            file_size: bytes.len(),
            format: "ptd",
            header: header.map(|h| PtdHeader {
                flatbuffer_offset: h.flatbuffer_offset,
                flatbuffer_size: h.flatbuffer_size,
                length: h.length,
                segment_base_offset: h.segment_base_offset,
                segment_data_size: h.segment_data_size,
            }),
            keys,
            segments,
            tensors: tensors.then(|| tensor_table(ptd, header.map_or(0, |h| h.segment_base_offset))),
            version: ptd.flat_tensor.version,
        }
    }
}

/// The tensor table, offsets made absolute from the segment base.
fn tensor_table(ptd: &PtdFile<'_>, base: u64) -> Vec<PtdTensor> {
    let Ok(list) = ptd.tensors() else { return vec![] };
    list.iter()
        .map(|t| PtdTensor {
            dim_order: t.layout.and_then(|l| l.dim_order.clone()),
            dtype: t.layout.map(|l| l.scalar_type.to_string()),
            file_range: [base.saturating_add(t.range.start), base.saturating_add(t.range.end)],
            name: t.key.to_string(),
            nbytes: t.layout.and_then(|l| l.nbytes()),
            segment: t.segment_index,
            sizes: t.layout.and_then(|l| l.sizes.clone()),
            stored: t.bytes.len(),
        })
        .collect()
}
