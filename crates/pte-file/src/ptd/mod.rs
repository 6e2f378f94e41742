//! `.ptd` tensor-data files: named blobs with optional tensor layouts.

pub mod external;
mod tensors;

pub use tensors::TensorEntry;

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::Write;

use pte_schema::ptd::{decode_flat_tensor, encode_flat_tensor, FlatTensor, PtdNamedData, TensorLayout};
use pte_schema::{DataSegment, Error, ErrorKind, Result};
use pte_segments::align::{aligned, lcm, require_positive, require_power_of_two};
use pte_segments::ranges::segment_bytes;
use pte_segments::FlatTensorHeader;

use crate::options::MAX_SEGMENT_ALIGNMENT;
use crate::read::ReadOptions;
use crate::write::{splice_header, write_zeros};
use crate::Bytes;

/// A `.ptd`: the `FT01` tables plus each segment's bytes (borrowed from the input).
///
/// ```
/// use pte_file::ptd::{PtdFile, PtdParts, PtdEntry, PtdWriteOptions};
/// let parts = PtdParts {
///     entries: vec![PtdEntry { key: "w".into(), blob: 0, layout: None, alignment: 1 }],
///     blobs: vec![vec![1u8, 2, 3].into()],
/// };
/// let opts = PtdWriteOptions::default();
/// let ptd = parts.build(&opts)?;
/// let bytes = ptd.to_bytes(&opts)?;
/// assert_eq!(PtdFile::from_bytes(&bytes)?, ptd);
/// assert_eq!(ptd.get("w")?.unwrap().1, &[1, 2, 3]);
/// # Ok::<(), pte_file::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Default)]
pub struct PtdFile<'a> {
    /// The tables as stored.
    pub flat_tensor: FlatTensor,
    /// Bytes of `flat_tensor.segments[i]`.
    pub segments: Vec<Bytes<'a>>,
}

/// How a `.ptd` is laid out when written.
///
/// ```
/// assert_eq!(pte_file::ptd::PtdLayout::default(), pte_file::ptd::PtdLayout::Python { segment_alignment: 128 });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PtdLayout {
    /// exir's `FlatTensorSerializer`: header padded to 48, one segment per
    /// blob, each at a multiple of `lcm(segment_alignment, blob alignment)`,
    /// segment base aligned to `segment_alignment`.
    Python {
        /// Segment alignment (any positive integer).
        segment_alignment: u64,
    },
    /// The C++ `save_ptd` writer: header and flatbuffer padded to
    /// `tensor_alignment`, blobs packed back to back at that alignment.
    Packed {
        /// Tensor alignment (power of two).
        tensor_alignment: u64,
    },
    /// Keep the stored segment offsets (relative to the base); header as Python's.
    Keep {
        /// Alignment of the segment base.
        segment_alignment: u64,
    },
}

impl Default for PtdLayout {
    fn default() -> Self {
        PtdLayout::Python { segment_alignment: 128 }
    }
}

/// Write options of a `.ptd`.
///
/// ```
/// use pte_file::ptd::{PtdWriteOptions, PtdLayout};
/// assert!(PtdWriteOptions::new(PtdLayout::Packed { tensor_alignment: 12 }).is_err());
/// assert!(PtdWriteOptions::new(PtdLayout::Python { segment_alignment: 4096 }).is_ok());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct PtdWriteOptions {
    layout: PtdLayout,
}

impl PtdWriteOptions {
    /// Options with the given layout, validated.
    ///
    /// ```
    /// assert!(pte_file::ptd::PtdWriteOptions::new(Default::default()).is_ok());
    /// ```
    pub fn new(layout: PtdLayout) -> Result<Self> {
        match layout {
            PtdLayout::Python { segment_alignment } | PtdLayout::Keep { segment_alignment } => {
                require_positive("segment alignment", segment_alignment, MAX_SEGMENT_ALIGNMENT)?
            }
            PtdLayout::Packed { tensor_alignment } => {
                require_power_of_two("tensor alignment", tensor_alignment, MAX_SEGMENT_ALIGNMENT)?
            }
        }
        Ok(PtdWriteOptions { layout })
    }

    /// The layout.
    ///
    /// ```
    /// assert!(matches!(pte_file::ptd::PtdWriteOptions::default().layout(), pte_file::ptd::PtdLayout::Python { .. }));
    /// ```
    pub fn layout(&self) -> PtdLayout {
        self.layout
    }
}

/// One key of [`PtdParts`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtdEntry {
    /// The key.
    pub key: String,
    /// Index into [`PtdParts::blobs`]; keys may share a blob.
    pub blob: usize,
    /// Tensor layout, or `None` for an opaque blob.
    pub layout: Option<TensorLayout>,
    /// Segment alignment of the blob (the first key of a shared blob wins).
    pub alignment: u64,
}

/// The semantic content of a `.ptd`.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct PtdParts<'a> {
    /// Keys in table order.
    pub entries: Vec<PtdEntry>,
    /// Blobs.
    pub blobs: Vec<Bytes<'a>>,
}

fn invalid(m: String) -> Error {
    Error::new(ErrorKind::InvalidUse, m)
}

fn overflow() -> Error {
    Error::new(ErrorKind::LimitExceeded, "tensor-data layout overflows 64 bits")
}

impl<'a> PtdParts<'a> {
    /// Builds the tables: one segment per distinct blob in first-use order,
    /// placed by the layout option.
    ///
    /// ```
    /// let ptd = pte_file::ptd::PtdParts::default().build(&Default::default())?;
    /// assert_eq!(ptd.flat_tensor.named_data, Some(vec![]));
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn build(&self, options: &PtdWriteOptions) -> Result<PtdFile<'a>> {
        let mut seg_of: HashMap<usize, u32> = HashMap::new();
        let mut segments = vec![];
        let mut table = vec![];
        let mut aligns = vec![];
        let mut named = vec![];
        for (i, e) in self.entries.iter().enumerate() {
            let blob = self.blobs.get(e.blob).ok_or_else(|| {
                invalid(format!("entry {i} ({}) names blob {} of {}", e.key, e.blob, self.blobs.len()))
            })?;
            let seg = match seg_of.get(&e.blob) {
                Some(&s) => s,
                None => {
                    let s = u32::try_from(segments.len()).map_err(|_| invalid("too many segments".into()))?;
                    segments.push(blob.clone());
                    table.push(DataSegment { offset: 0, size: blob.len() as u64 });
                    aligns.push(e.alignment.max(1));
                    seg_of.insert(e.blob, s);
                    s
                }
            };
            named.push(PtdNamedData { key: Some(e.key.clone()), segment_index: seg, tensor_layout: e.layout.clone() });
        }
        let mut ptd = PtdFile {
            flat_tensor: FlatTensor { version: 0, segments: Some(table), named_data: Some(named) },
            segments,
        };
        ptd.place(options, &aligns)?;
        Ok(ptd)
    }
}

impl<'a> PtdFile<'a> {
    /// Reads a `.ptd` (either writer's layout) with default limits.
    ///
    /// ```
    /// let b = std::fs::read(pte_testkit::corpus("external/_default_external_constant.ptd"))?;
    /// let ptd = pte_file::ptd::PtdFile::from_bytes(&b)?;
    /// assert!(!ptd.keys().is_empty());
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn from_bytes(bytes: &'a [u8]) -> Result<Self> {
        Self::from_bytes_with(bytes, &ReadOptions::default())
    }

    /// Reads with the given options.
    ///
    /// ```
    /// assert!(pte_file::ptd::PtdFile::from_bytes_with(&[0u8; 64], &Default::default()).is_err());
    /// ```
    pub fn from_bytes_with(bytes: &'a [u8], options: &ReadOptions) -> Result<Self> {
        let (h, region) = flatbuffer_region(bytes)?;
        let flat_tensor = decode_flat_tensor(region, &options.limits)?;
        let mut segments = vec![];
        for (i, s) in flat_tensor.segments.iter().flatten().enumerate() {
            let field = format!("segments[{i}]");
            if s.size == 0 {
                segment_bytes(bytes, h.segment_base_offset, s.offset, 0, &field)?;
                segments.push(Cow::Borrowed(&[][..]));
            } else {
                segments.push(Cow::Borrowed(segment_bytes(bytes, h.segment_base_offset, s.offset, s.size, &field)?));
            }
        }
        Ok(PtdFile { flat_tensor, segments })
    }

    /// Every key in table order.
    ///
    /// ```
    /// assert!(pte_file::ptd::PtdFile::default().keys().is_empty());
    /// ```
    pub fn keys(&self) -> Vec<&str> {
        self.flat_tensor.named_data.iter().flatten().filter_map(|n| n.key.as_deref()).collect()
    }

    /// The layout and bytes of the first entry with `key` (the runtime's lookup).
    ///
    /// ```
    /// assert!(pte_file::ptd::PtdFile::default().get("x")?.is_none());
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn get(&self, key: &str) -> Result<Option<(Option<&TensorLayout>, &[u8])>> {
        let Some((i, n)) =
            self.flat_tensor.named_data.iter().flatten().enumerate().find(|(_, n)| n.key.as_deref() == Some(key))
        else {
            return Ok(None);
        };
        let bytes = usize::try_from(n.segment_index).ok().and_then(|s| self.segments.get(s)).ok_or_else(|| {
            Error::new(ErrorKind::Malformed, format!("segment {} of {}", n.segment_index, self.segments.len()))
                .at_path(format!("named_data[{i}].segment_index"))
        })?;
        Ok(Some((n.tensor_layout.as_ref(), bytes.as_ref())))
    }

    /// Whether the stored offsets already follow the layout (every offset a
    /// multiple of its alignment, in order, sizes matching the data), in which
    /// case they are kept: per-blob alignments are not recorded in the file,
    /// so placing anew could only lose them.
    fn fits(&self, options: &PtdWriteOptions) -> bool {
        let a = match options.layout {
            PtdLayout::Keep { .. } => return true,
            PtdLayout::Python { segment_alignment } => segment_alignment,
            PtdLayout::Packed { tensor_alignment } => tensor_alignment,
        };
        let table = self.flat_tensor.segments.as_deref().unwrap_or(&[]);
        let mut end = 0u64;
        table.len() == self.segments.len()
            && table.iter().zip(&self.segments).all(|(t, d)| {
                let ok = t.size == d.len() as u64 && t.offset >= end && t.offset.checked_rem(a) == Some(0);
                end = t.offset.saturating_add(t.size);
                ok
            })
    }

    fn place(&mut self, options: &PtdWriteOptions, aligns: &[u64]) -> Result<()> {
        let Some(table) = self.flat_tensor.segments.as_mut() else { return Ok(()) };
        if table.len() != self.segments.len() {
            return Err(invalid(format!("{} segments listed, {} attached", table.len(), self.segments.len())));
        }
        let mut end = 0u64;
        for (i, (t, data)) in table.iter_mut().zip(&self.segments).enumerate() {
            let size = data.len() as u64;
            let offset = match options.layout {
                PtdLayout::Keep { .. } => {
                    if t.size != size {
                        return Err(invalid(format!("segments[{i}] lists {} bytes but holds {size}", t.size)));
                    }
                    t.offset
                }
                PtdLayout::Python { segment_alignment } => {
                    let a = lcm(segment_alignment, aligns.get(i).copied().unwrap_or(1)).ok_or_else(overflow)?;
                    aligned(end, a).ok_or_else(overflow)?
                }
                PtdLayout::Packed { tensor_alignment } => aligned(end, tensor_alignment).ok_or_else(overflow)?,
            };
            *t = DataSegment { offset, size };
            end = offset.checked_add(size).ok_or_else(overflow)?;
        }
        Ok(())
    }

    /// Writes the file to `w` and returns its length.
    ///
    /// ```
    /// let mut out = vec![];
    /// pte_file::ptd::PtdFile::default().write_to(&mut out, &Default::default())?;
    /// assert_eq!(&out[4..12], b"FT01FH01");
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn write_to(&self, mut w: impl Write, options: &PtdWriteOptions) -> Result<u64> {
        // absent vectors stay absent (lossless); the verifier's ptd.fields
        // rule reports them, and PtdParts::build always writes both
        let mut placed = PtdFile {
            flat_tensor: self.flat_tensor.clone(),
            segments: self.segments.iter().map(|s| Cow::Borrowed(s.as_ref())).collect(),
        };
        if !placed.fits(options) {
            let aligns = vec![1; placed.segments.len()];
            placed.place(options, &aligns)?;
        }
        let fb = encode_flat_tensor(&placed.flat_tensor)?;
        let table = placed.flat_tensor.segments.as_deref().unwrap_or(&[]);
        let data_size = table.iter().map(|s| s.offset.saturating_add(s.size)).max().unwrap_or(0);
        let fb_len = fb.len() as u64;
        let (padded, base) = match options.layout {
            PtdLayout::Packed { tensor_alignment } => {
                let p = FlatTensorHeader::padded_length(tensor_alignment).ok_or_else(overflow)?;
                let fbp = aligned(fb_len, tensor_alignment).ok_or_else(overflow)?;
                (p, p.checked_add(fbp).ok_or_else(overflow)?)
            }
            PtdLayout::Python { segment_alignment } | PtdLayout::Keep { segment_alignment } => {
                let p = FlatTensorHeader::padded_length(16).ok_or_else(overflow)?;
                (p, aligned(fb_len.checked_add(p).ok_or_else(overflow)?, segment_alignment).ok_or_else(overflow)?)
            }
        };
        let header = FlatTensorHeader::new(padded, fb_len, base, data_size);
        splice_header(&mut w, &fb, &header.to_bytes(), padded)?;
        write_zeros(&mut w, base.saturating_sub(padded.saturating_add(fb_len)))?;
        let mut order: Vec<usize> = (0..table.len()).collect();
        order.sort_by_key(|&i| table.get(i).map(|s| (s.offset, s.size)));
        let mut at = 0u64;
        for i in order {
            let (Some(s), Some(d)) = (table.get(i), placed.segments.get(i)) else { continue };
            if s.size == 0 {
                continue;
            }
            if s.offset < at {
                return Err(invalid(format!("segments[{i}] overlaps the previous segment")));
            }
            write_zeros(&mut w, s.offset.saturating_sub(at))?;
            w.write_all(d)?;
            at = s.offset.saturating_add(s.size);
        }
        // a trailing empty segment still owns its offset: the data runs up to it
        write_zeros(&mut w, data_size.saturating_sub(at))?;
        w.flush()?;
        Ok(base.saturating_add(data_size))
    }

    /// Writes into a new vector.
    ///
    /// ```
    /// let b = pte_file::ptd::PtdFile::default().to_bytes(&Default::default())?;
    /// assert!(pte_file::ptd::PtdFile::from_bytes(&b).is_ok());
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn to_bytes(&self, options: &PtdWriteOptions) -> Result<Vec<u8>> {
        let mut v = vec![];
        self.write_to(&mut v, options)?;
        Ok(v)
    }

    /// Writes to `path` atomically.
    ///
    /// ```
    /// let d = tempfile::tempdir()?;
    /// pte_file::ptd::PtdFile::default().save(d.path().join("x.ptd"), &Default::default())?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn save(&self, path: impl AsRef<std::path::Path>, options: &PtdWriteOptions) -> Result<u64> {
        pte_core::write_atomically(path.as_ref(), |w| self.write_to(w, options))
    }

    /// Copies borrowed bytes so the file owns them.
    ///
    /// ```
    /// let _: pte_file::ptd::PtdFile<'static> = pte_file::ptd::PtdFile::default().into_owned();
    /// ```
    pub fn into_owned(self) -> PtdFile<'static> {
        PtdFile {
            flat_tensor: self.flat_tensor,
            segments: self.segments.into_iter().map(|s| Cow::Owned(s.into_owned())).collect(),
        }
    }
}

/// The `FH01` header and the flatbuffer region it declares, checked to lie
/// inside the file (what every `.ptd` reader starts from).
///
/// ```
/// assert!(pte_file::ptd::flatbuffer_region(b"not a ptd").is_err());
/// ```
pub fn flatbuffer_region(bytes: &[u8]) -> Result<(FlatTensorHeader, &[u8])> {
    let h = FlatTensorHeader::parse(bytes)?;
    let len = bytes.len() as u64;
    let end = h.flatbuffer_end().filter(|&e| e >= 8 && e <= len).ok_or_else(|| {
        Error::new(ErrorKind::Malformed, format!("flatbuffer region ends past the {len}-byte file"))
            .at_path("fh01.flatbuffer_size")
            .at_offset(24)
    })?;
    let region = bytes.get(..usize::try_from(end).unwrap_or(usize::MAX)).unwrap_or(bytes);
    Ok((h, region))
}
