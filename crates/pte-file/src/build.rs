//! Building a `.pte` from semantic parts, laid out as exir lays it out.

use std::borrow::Cow;
use std::collections::HashMap;

use pte_schema::{DataSegment, Error, ErrorKind, NamedData, Program, Result, SubsegmentOffsets};
use pte_segments::align::padding;
use pte_segments::layout::{pack_subsegments, plan_segments};
use pte_segments::SegmentSpec;

use crate::{Bytes, PteFile};

/// A named-data entry: several keys may share one blob.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedEntry {
    /// The key.
    pub key: String,
    /// Index into [`PteParts::named_blobs`].
    pub blob: usize,
    /// Required alignment of the blob's segment (any positive integer).
    /// When keys share a blob, the first key's alignment wins, as in exir.
    pub alignment: u64,
}

/// The semantic content of a program: its tables plus the data that goes
/// into segments. [`PteParts::build`] computes the segment table, the
/// constant and mutable sub-segment offsets and the named-data table.
///
/// ```
/// use pte_file::{PteParts, NamedEntry, WriteOptions};
/// let parts = PteParts {
///     constants: vec![vec![].into(), vec![1u8; 20].into(), vec![2u8; 12].into()],
///     named_blobs: vec![vec![9u8; 5].into()],
///     named: vec![NamedEntry { key: "w".into(), blob: 0, alignment: 64 }],
///     ..Default::default()
/// };
/// let pte = parts.build(&WriteOptions::default())?;
/// assert_eq!(pte.program.constant_segment.as_ref().unwrap().offsets, Some(vec![0, 0, 32]));
/// assert_eq!(pte.segments[0].len(), 44);
/// # Ok::<(), pte_file::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PteParts<'a> {
    /// The program; its `segments`, `constant_segment`, `mutable_data_segments`
    /// and `named_data` are replaced by the built ones.
    pub program: Program<'a>,
    /// Constant buffers by `data_buffer_idx`; entry 0 should be the empty placeholder.
    pub constants: Vec<Bytes<'a>>,
    /// Mutable data segments, each a list of buffers (entry 0 the placeholder).
    pub mutable: Vec<Vec<Bytes<'a>>>,
    /// Named-data entries in table order.
    pub named: Vec<NamedEntry>,
    /// Blobs referenced by `named`.
    pub named_blobs: Vec<Bytes<'a>>,
}

fn concat(buffers: &[Bytes<'_>], align: u64) -> Result<(Vec<u64>, Vec<u8>)> {
    let lens: Vec<u64> = buffers.iter().map(|b| b.len() as u64).collect();
    let (offsets, total) = pack_subsegments(&lens, align)?;
    let cap = usize::try_from(total).map_err(|_| Error::new(ErrorKind::LimitExceeded, "segment exceeds memory"))?;
    let mut out = Vec::with_capacity(cap);
    let last = buffers.len().saturating_sub(1);
    for (i, b) in buffers.iter().enumerate() {
        out.extend_from_slice(b);
        if i != last {
            let pad = usize::try_from(padding(b.len() as u64, align)).unwrap_or(0);
            out.resize(out.len().saturating_add(pad), 0);
        }
    }
    Ok((offsets, out))
}

fn index(n: usize) -> Result<u32> {
    u32::try_from(n).map_err(|_| Error::new(ErrorKind::InvalidUse, format!("index {n} exceeds u32")))
}

impl<'a> PteParts<'a> {
    /// Lays the parts out: the constant segment first (always present, so the
    /// runtime takes the segment path), then each mutable segment, then one
    /// segment per distinct named blob in first-use order; each offset at
    /// `lcm(segment_alignment, alignment)`.
    ///
    /// ```
    /// let pte = pte_file::PteParts::default().build(&pte_file::WriteOptions::default())?;
    /// assert_eq!(pte.program.segments.as_deref().map(<[_]>::len), Some(1));
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn build(&self, options: &crate::WriteOptions) -> Result<PteFile<'a>> {
        let mut program = self.program.clone();
        let mut data: Vec<Bytes<'a>> = vec![];
        let mut specs = vec![];
        let constants: Vec<Bytes<'a>> =
            if self.constants.is_empty() { vec![Cow::Borrowed(&[][..])] } else { self.constants.clone() };
        let (offsets, bytes) = concat(&constants, u64::from(options.tensor_alignment()))?;
        program.constant_segment = Some(SubsegmentOffsets { segment_index: 0, offsets: Some(offsets) });
        specs.push(SegmentSpec::new(bytes.len() as u64, 1));
        data.push(Cow::Owned(bytes));
        // exir always writes these vectors (possibly empty), and its reader
        // fails on files where they are absent
        if program.constant_buffer.is_none() {
            program.constant_buffer = Some(vec![]);
        }
        if program.backend_delegate_data.is_none() {
            program.backend_delegate_data = Some(vec![]);
        }
        let mut mutable = vec![];
        for m in &self.mutable {
            let (offsets, bytes) = concat(m, 1)?;
            mutable.push(SubsegmentOffsets { segment_index: index(data.len())?, offsets: Some(offsets) });
            specs.push(SegmentSpec::new(bytes.len() as u64, 1));
            data.push(Cow::Owned(bytes));
        }
        program.mutable_data_segments = if mutable.is_empty() { None } else { Some(mutable) };
        let mut seg_of_blob: HashMap<usize, u32> = HashMap::new();
        let mut named = vec![];
        for (i, e) in self.named.iter().enumerate() {
            let blob = self.named_blobs.get(e.blob).ok_or_else(|| {
                Error::new(
                    ErrorKind::InvalidUse,
                    format!("named[{i}] ({}) refers to blob {} of {}", e.key, e.blob, self.named_blobs.len()),
                )
            })?;
            if e.alignment == 0 {
                return Err(Error::new(ErrorKind::InvalidUse, format!("named[{i}] ({}) has alignment 0", e.key)));
            }
            let seg = match seg_of_blob.get(&e.blob) {
                Some(&s) => s,
                None => {
                    let s = index(data.len())?;
                    specs.push(SegmentSpec::new(blob.len() as u64, e.alignment));
                    data.push(blob.clone());
                    seg_of_blob.insert(e.blob, s);
                    s
                }
            };
            named.push(NamedData { key: Some(e.key.clone()), segment_index: seg });
        }
        program.named_data = if named.is_empty() { None } else { Some(named) };
        let plan = plan_segments(&specs, options.segment_alignment())?;
        program.segments =
            Some(specs.iter().zip(&plan.offsets).map(|(s, &offset)| DataSegment { offset, size: s.size }).collect());
        Ok(PteFile::new(program, data))
    }
}
