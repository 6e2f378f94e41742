//! The `.ptd` tensor-data schema (`FT01`): owned model, verified decoding,
//! encoding and flatc-compatible JSON.

use flatbuffers::FlatBufferBuilder;
use serde_json::{json, Value};

use crate::decode_common::{check_identifier, from_verifier};
use crate::fenced::{ft, FtScalarType};
use crate::limits::Limits;
use crate::program::json::read::{data_segment, Node};
use crate::program::model::DataSegment;
use crate::ScalarType;
use pte_core::{Error, ErrorKind, Result};

/// The four identifier bytes of a tensor-data flatbuffer.
pub const FLAT_TENSOR_IDENTIFIER: &[u8; 4] = b"FT01";

/// Root table of a `.ptd`.
///
/// ```
/// use pte_schema::ptd::*;
/// let ft = FlatTensor { version: 0, segments: Some(vec![]), named_data: Some(vec![]) };
/// let bytes = encode_flat_tensor(&ft)?;
/// assert_eq!(decode_flat_tensor(&bytes, &pte_schema::Limits::default())?, ft);
/// # Ok::<(), pte_schema::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct FlatTensor {
    /// Schema version (0).
    pub version: u32,
    /// Segment table, relative to the FH01 segment base.
    pub segments: Option<Vec<DataSegment>>,
    /// Keys.
    pub named_data: Option<Vec<PtdNamedData>>,
}

/// A key in a `.ptd`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct PtdNamedData {
    /// The key (a tensor's fully qualified name, or a backend's blob key).
    pub key: Option<String>,
    /// Index into the segment table.
    pub segment_index: u32,
    /// Layout, when the blob is a tensor.
    pub tensor_layout: Option<TensorLayout>,
}

/// Shape of a tensor blob.
#[derive(Clone, Debug, PartialEq, Eq, Default, Hash)]
pub struct TensorLayout {
    /// Element type.
    pub scalar_type: ScalarType,
    /// Sizes.
    pub sizes: Option<Vec<i32>>,
    /// Dimension order.
    pub dim_order: Option<Vec<u8>>,
}

impl TensorLayout {
    /// Byte size (`numel × element size`), `None` when unknown or overflowing.
    ///
    /// ```
    /// let l = pte_schema::ptd::TensorLayout { scalar_type: pte_schema::ScalarType::FLOAT, sizes: Some(vec![3, 4]), dim_order: Some(vec![0, 1]) };
    /// assert_eq!(l.nbytes(), Some(48));
    /// ```
    pub fn nbytes(&self) -> Option<u64> {
        let numel = self.sizes.as_ref()?.iter().try_fold(1u64, |a, &s| a.checked_mul(u64::try_from(s).ok()?))?;
        numel.checked_mul(self.scalar_type.element_size()?)
    }
}

/// Verifies and decodes a tensor-data flatbuffer (header bytes at 8.. allowed).
///
/// ```
/// assert!(pte_schema::ptd::decode_flat_tensor(b"too short", &Default::default()).is_err());
/// ```
pub fn decode_flat_tensor(buf: &[u8], limits: &Limits) -> Result<FlatTensor> {
    check_identifier(buf, FLAT_TENSOR_IDENTIFIER)?;
    let opts = limits.verifier_options(buf.len());
    let root = ft::root_as_flat_tensor_with_opts(&opts, buf).map_err(from_verifier)?;
    crate::offsets::check_offsets(buf, crate::offsets::Schema::FlatTensor, limits.max_depth)?;
    let f = FlatTensor {
        version: root.version(),
        segments: root
            .segments()
            .map(|v| v.iter().map(|s| DataSegment { offset: s.offset(), size: s.size() }).collect()),
        named_data: root.named_data().map(|v| {
            v.iter()
                .map(|n| PtdNamedData {
                    key: n.key().map(str::to_owned),
                    segment_index: n.segment_index(),
                    tensor_layout: n.tensor_layout().map(|l| TensorLayout {
                        scalar_type: ScalarType(l.scalar_type().0),
                        sizes: l.sizes().map(|s| s.iter().collect()),
                        dim_order: l.dim_order().map(|d| d.bytes().to_vec()),
                    }),
                })
                .collect()
        }),
    };
    limits.check_flat_tensor(&f)?;
    Ok(f)
}

/// Encodes the model as a finished `FT01` flatbuffer without the FH01 header.
///
/// ```
/// let b = pte_schema::ptd::encode_flat_tensor(&Default::default())?;
/// assert_eq!(&b[4..8], b"FT01");
/// # Ok::<(), pte_schema::Error>(())
/// ```
pub fn encode_flat_tensor(ft_model: &FlatTensor) -> Result<Vec<u8>> {
    Limits::default().check_flat_tensor(ft_model)?;
    let keys: u64 = ft_model
        .named_data
        .iter()
        .flatten()
        .map(|n| {
            let l = n.tensor_layout.as_ref();
            (n.key.as_ref().map_or(0, String::len) as u64)
                .saturating_add(l.and_then(|l| l.sizes.as_ref()).map_or(0, |s| s.len() as u64).saturating_mul(4))
                .saturating_add(l.and_then(|l| l.dim_order.as_ref()).map_or(0, |s| s.len() as u64))
                .saturating_add(128)
        })
        .fold(0u64, u64::saturating_add);
    let segs = (ft_model.segments.as_ref().map_or(0, Vec::len) as u64).saturating_mul(64);
    if keys.saturating_add(segs) > crate::MAX_FLATBUFFER_SIZE {
        return Err(Error::new(ErrorKind::LimitExceeded, "tensor-data flatbuffer would exceed 2 GiB"));
    }
    let mut fbb = FlatBufferBuilder::new();
    let segments = ft_model.segments.as_ref().map(|v| {
        let offs: Vec<_> = v
            .iter()
            .map(|s| ft::DataSegment::create(&mut fbb, &ft::DataSegmentArgs { offset: s.offset, size: s.size }))
            .collect();
        fbb.create_vector(&offs)
    });
    let named_data = ft_model.named_data.as_ref().map(|v| {
        let offs: Vec<_> = v
            .iter()
            .map(|n| {
                let key = n.key.as_deref().map(|k| fbb.create_string(k));
                let tensor_layout = n.tensor_layout.as_ref().map(|l| {
                    let sizes = l.sizes.as_deref().map(|s| fbb.create_vector(s));
                    let dim_order = l.dim_order.as_deref().map(|d| fbb.create_vector(d));
                    ft::TensorLayout::create(
                        &mut fbb,
                        &ft::TensorLayoutArgs { scalar_type: FtScalarType(l.scalar_type.0), sizes, dim_order },
                    )
                });
                ft::NamedData::create(
                    &mut fbb,
                    &ft::NamedDataArgs { key, segment_index: n.segment_index, tensor_layout },
                )
            })
            .collect();
        fbb.create_vector(&offs)
    });
    let root =
        ft::FlatTensor::create(&mut fbb, &ft::FlatTensorArgs { version: ft_model.version, segments, named_data });
    fbb.finish(root, Some("FT01"));
    Ok(fbb.finished_data().to_vec())
}

/// The flatc-compatible JSON form of a tensor-data flatbuffer.
///
/// ```
/// let v = pte_schema::ptd::flat_tensor_to_json(&Default::default());
/// assert!(v["named_data"].is_null());
/// ```
pub fn flat_tensor_to_json(f: &FlatTensor) -> Value {
    json!({
        "version": f.version,
        "segments": f.segments.as_ref().map(|v| v.iter().map(|s| json!({"offset": s.offset, "size": s.size})).collect::<Vec<_>>()),
        "named_data": f.named_data.as_ref().map(|v| v.iter().map(|n| json!({
            "key": n.key,
            "segment_index": n.segment_index,
            "tensor_layout": n.tensor_layout.as_ref().map(|l| json!({
                "scalar_type": l.scalar_type.0,
                "sizes": l.sizes,
                "dim_order": l.dim_order,
            })),
        })).collect::<Vec<_>>()),
    })
}

// The `.ptd` side of `Limits` lives with the format it bounds, so the limits
// module needs nothing from this one.
impl Limits {
    /// The same bounds for a `.ptd` flat-tensor table.
    ///
    /// ```
    /// let f = pte_schema::ptd::FlatTensor { segments: Some(vec![Default::default(); 3]), ..Default::default() };
    /// let tight = pte_schema::Limits { max_segments: 2, ..Default::default() };
    /// assert_eq!(tight.check_flat_tensor(&f).unwrap_err().path(), "segments");
    /// ```
    pub fn check_flat_tensor(&self, f: &FlatTensor) -> Result<()> {
        self.count("segments", f.segments.as_ref().map_or(0, Vec::len), self.max_segments)?;
        let named = f.named_data.as_deref().unwrap_or(&[]);
        self.count("named_data", named.len(), self.max_named_data)?;
        for (i, n) in named.iter().enumerate() {
            self.key(|| format!("named_data[{i}].key"), n.key.as_deref())?;
        }
        Ok(())
    }
}

/// Reads a `.ptd`'s `FT01` tables from their JSON form
/// ([`flat_tensor_to_json`] or flatc's).
///
/// ```
/// use pte_schema::ptd::*;
/// let ft = FlatTensor { version: 0, segments: Some(vec![]), named_data: Some(vec![]) };
/// let text = flat_tensor_to_json(&ft).to_string();
/// assert_eq!(pte_schema::flat_tensor_from_json(&text)?, ft);
/// # Ok::<(), pte_schema::Error>(())
/// ```
pub fn flat_tensor_from_json(text: &str) -> Result<FlatTensor> {
    let root = Node::root(text)?;
    let o = root.object(&["version", "segments", "named_data"])?;
    Ok(FlatTensor {
        version: o.num("version", 0)?,
        segments: o.list("segments", data_segment)?,
        named_data: o.list("named_data", |n| {
            let o = n.object(&["key", "segment_index", "tensor_layout"])?;
            Ok(PtdNamedData {
                key: o.string("key")?,
                segment_index: o.num("segment_index", 0)?,
                tensor_layout: o.table("tensor_layout", |n| {
                    let o = n.object(&["scalar_type", "sizes", "dim_order"])?;
                    Ok(TensorLayout {
                        scalar_type: ScalarType(o.enumeration("scalar_type", ScalarType::from_name)?),
                        sizes: o.nums("sizes")?,
                        dim_order: o.nums("dim_order")?,
                    })
                })?,
            })
        })?,
    })
}
