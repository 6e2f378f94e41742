//! exir's `serialize_pte_binary`, on the Rust program model: the inverse of
//! [`exir_program`](crate::exir_program).
//!
//! exir lays a file out its own way, and a drop-in must match it decision
//! for decision: legacy constants become the first segment (each tensor but
//! the last padded to the tensor alignment), the mutable buffers the next
//! (unpadded), then, when asked, each distinct inline delegate blob, then one
//! segment per distinct named-data buffer, aligned to the least common
//! multiple of the segment alignment and the entry's own. Alignments may be
//! any positive integer, as exir computes them with plain modulo. The
//! flatbuffer is `pte_schema::encode_program`'s, so the bytes differ from
//! exir's Python builder while the program they describe is the same.

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::Write;

use pte_schema::{
    BackendDelegateDataReference, DataLocation, DataSegment, EncodeOptions, Error, ErrorKind, NamedData, Program,
    Result, SubsegmentOffsets,
};
use pte_segments::align::{aligned, lcm};
use pte_segments::layout::file_layout;
use pte_segments::ExtendedHeader;

/// A refusal exir itself makes (Python raises `ValueError` for these).
fn refused(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidUse, message.into())
}

fn overflow() -> Error {
    Error::new(ErrorKind::LimitExceeded, "size overflows")
}

fn index(n: usize) -> Result<u32> {
    u32::try_from(n).map_err(|_| refused("too many segments"))
}

/// One named-data entry as exir's `NamedDataStoreOutput` lists it: its key,
/// the buffer it names (an index into [`ExirParts::named_buffers`]) and the
/// alignment that buffer asks for.
///
/// ```
/// let e = pte_file::ExirNamed { key: "w".into(), buffer_index: 0, alignment: Some(64) };
/// assert_eq!(e.alignment, Some(64));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExirNamed {
    /// The key the runtime looks the data up by.
    pub key: String,
    /// Which of the named buffers holds it.
    pub buffer_index: usize,
    /// Its alignment (none: 1).
    pub alignment: Option<u64>,
}

/// What exir serializes: the program (its legacy `constant_buffer` and
/// inline delegate data still inside), the mutable buffers and the named
/// data, as `PTEFile` carries them.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
/// let parts = pte_file::ExirParts { program: pte_file::exir_program(&bytes)?, ..Default::default() };
/// assert!(parts.mutable.is_none() && parts.named.is_none());
/// # Ok::<(), pte_file::Error>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct ExirParts<'a> {
    /// The program.
    pub program: Program<'a>,
    /// The mutable buffers (`PTEFile.mutable_data`), when given.
    pub mutable: Option<Vec<Cow<'a, [u8]>>>,
    /// The named-data entries (`PTEFile.named_data.pte_data`), when given.
    pub named: Option<Vec<ExirNamed>>,
    /// The buffers the named entries point into.
    pub named_buffers: Vec<Cow<'a, [u8]>>,
}

/// exir's serializer options, named as `serialize_pte_binary` names them.
///
/// ```
/// let o = pte_file::ExirOptions::default();
/// assert_eq!((o.segment_alignment, o.constant_tensor_alignment), (128, 16));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExirOptions {
    /// Move inline delegate blobs into segments.
    pub extract_delegate_segments: bool,
    /// Alignment of every segment (positive).
    pub segment_alignment: u64,
    /// Alignment of each legacy constant within the constant segment.
    pub constant_tensor_alignment: u32,
    /// Alignment of inline delegate data in the flatbuffer (default 16).
    pub delegate_alignment: Option<u32>,
}

impl Default for ExirOptions {
    fn default() -> Self {
        ExirOptions {
            extract_delegate_segments: true,
            segment_alignment: 128,
            constant_tensor_alignment: 16,
            delegate_alignment: None,
        }
    }
}

/// One segment being built: its pieces at their offsets within it, its
/// size and the alignment it asks for. Pieces are copied once, into place.
struct Segment<'a> {
    pieces: Vec<(u64, Cow<'a, [u8]>)>,
    size: u64,
    align: u64,
}

impl<'a> Segment<'a> {
    fn whole(data: Cow<'a, [u8]>, align: u64) -> Self {
        Segment { size: data.len() as u64, pieces: vec![(0, data)], align }
    }

    /// exir's `_extract_constant_segment`: the buffers one after another,
    /// each but the last padded to `align` when given; with the offsets.
    fn concat(buffers: Vec<Cow<'a, [u8]>>, align: Option<u64>) -> Result<(Self, Vec<u64>)> {
        let mut size = 0u64;
        let mut offsets = Vec::with_capacity(buffers.len());
        let mut pieces = Vec::with_capacity(buffers.len());
        let last = buffers.len().saturating_sub(1);
        for (i, b) in buffers.into_iter().enumerate() {
            offsets.push(size);
            let at = size;
            size = size.checked_add(b.len() as u64).ok_or_else(overflow)?;
            pieces.push((at, b));
            if let (Some(a), true) = (align, i < last) {
                size = aligned(size, a).ok_or_else(overflow)?;
            }
        }
        Ok((Segment { pieces, size, align: 1 }, offsets))
    }
}

/// A serialized file, held as its head (flatbuffer, header, padding) and
/// its segment pieces at their offsets: written out once, never assembled
/// twice in memory.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
/// let parts = pte_file::ExirParts { program: pte_file::exir_program(&bytes)?, ..Default::default() };
/// let out = pte_file::exir_serialize(parts, &Default::default())?;
/// let mut file = vec![0; out.len()];
/// out.fill(&mut file)?;
/// assert_eq!(pte_file::exir_program(&file)?, pte_file::exir_program(&bytes)?);
/// # Ok::<(), pte_file::Error>(())
/// ```
#[derive(Debug)]
pub struct ExirFile<'a> {
    head: Vec<u8>,
    placed: Vec<(u64, Cow<'a, [u8]>)>,
    len: u64,
}

impl ExirFile<'_> {
    /// The file's length in bytes.
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let parts = pte_file::ExirParts { program: pte_file::exir_program(&bytes)?, ..Default::default() };
    /// assert!(pte_file::exir_serialize(parts, &Default::default())?.len() > 0);
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn len(&self) -> usize {
        usize::try_from(self.len).unwrap_or(usize::MAX)
    }

    /// Whether the file is empty (never: a program has a flatbuffer).
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let parts = pte_file::ExirParts { program: pte_file::exir_program(&bytes)?, ..Default::default() };
    /// assert!(!pte_file::exir_serialize(parts, &Default::default())?.is_empty());
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Writes the file into `out`, which must be [`len`](Self::len) bytes
    /// of zeros (the padding between segments is left as it is).
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let parts = pte_file::ExirParts { program: pte_file::exir_program(&bytes)?, ..Default::default() };
    /// let out = pte_file::exir_serialize(parts, &Default::default())?;
    /// assert!(out.fill(&mut [0u8; 3]).is_err());
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn fill(&self, out: &mut [u8]) -> Result<()> {
        if out.len() as u64 != self.len {
            return Err(refused(format!("the output holds {} bytes; the file is {}", out.len(), self.len)));
        }
        let (head, rest) = out.split_at_mut_checked(self.head.len()).ok_or_else(overflow)?;
        head.copy_from_slice(&self.head);
        for (at, bytes) in &self.placed {
            let at = usize::try_from(*at).map_err(|_| overflow())?;
            let end = at.checked_add(bytes.len()).ok_or_else(overflow)?;
            rest.get_mut(at..end).ok_or_else(overflow)?.copy_from_slice(bytes);
        }
        Ok(())
    }

    /// Streams the file to `w` in file order; returns the bytes written.
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let parts = pte_file::ExirParts { program: pte_file::exir_program(&bytes)?, ..Default::default() };
    /// let out = pte_file::exir_serialize(parts, &Default::default())?;
    /// let mut v = vec![];
    /// assert_eq!(out.write_to(&mut v)?, v.len() as u64);
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn write_to(&self, w: &mut impl Write) -> Result<u64> {
        w.write_all(&self.head)?;
        let mut at = 0u64;
        for (start, bytes) in &self.placed {
            crate::write::write_zeros(w, start.saturating_sub(at))?;
            w.write_all(bytes)?;
            at = start.checked_add(bytes.len() as u64).ok_or_else(overflow)?;
        }
        let data = self.len.saturating_sub(self.head.len() as u64);
        crate::write::write_zeros(w, data.saturating_sub(at))?;
        w.flush()?;
        Ok(self.len)
    }
}

/// Serializes `parts` as exir's `serialize_pte_binary` lays files out,
/// refusing (`InvalidUse`) what exir refuses, in exir's words: delegate data
/// already in segments, a delegate index past the inline table, inline data
/// no delegate uses, a program that already has named data.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
/// let named = vec![pte_file::ExirNamed { key: "w".into(), buffer_index: 0, alignment: Some(64) }];
/// let parts = pte_file::ExirParts {
///     program: pte_file::exir_program(&bytes)?,
///     mutable: None,
///     named: Some(named),
///     named_buffers: vec![std::borrow::Cow::Owned(vec![1u8; 8])],
/// };
/// let file = pte_file::exir_serialize(parts, &Default::default())?;
/// let mut out = vec![];
/// file.write_to(&mut out)?;
/// let pte = pte_file::PteFile::from_bytes(&out)?;
/// assert_eq!(pte.program.named_data.as_ref().map(Vec::len), Some(1));
/// # Ok::<(), pte_file::Error>(())
/// ```
pub fn exir_serialize<'a>(parts: ExirParts<'a>, options: &ExirOptions) -> Result<ExirFile<'a>> {
    if options.segment_alignment == 0 {
        return Err(refused("segment_alignment must be positive"));
    }
    let ExirParts { mut program, mutable, named, named_buffers } = parts;
    let mut segments: Vec<Segment<'a>> = vec![];

    // Moved out of the model, not copied: each is copied once, into place.
    let constants: Vec<Cow<'a, [u8]>> = match program.constant_buffer.take() {
        Some(buffers) if !buffers.is_empty() => {
            buffers.into_iter().map(|b| b.storage.unwrap_or(Cow::Borrowed(&[]))).collect()
        }
        kept => {
            program.constant_buffer = kept;
            vec![]
        }
    };
    if !constants.is_empty() {
        let (seg, offsets) = Segment::concat(constants, Some(u64::from(options.constant_tensor_alignment)))?;
        program.constant_segment =
            Some(SubsegmentOffsets { segment_index: index(segments.len())?, offsets: Some(offsets) });
        program.constant_buffer = Some(vec![]);
        segments.push(seg);
    }
    if let Some(buffers) = mutable {
        let (seg, offsets) = Segment::concat(buffers, None)?;
        if seg.size != 0 {
            program.mutable_data_segments =
                Some(vec![SubsegmentOffsets { segment_index: index(segments.len())?, offsets: Some(offsets) }]);
            segments.push(seg);
        }
    }
    if options.extract_delegate_segments {
        extract_delegates(&mut program, &mut segments)?;
    }
    if let Some(entries) = named {
        extract_named(&mut program, entries, named_buffers, &mut segments)?;
    }
    let (placed, data_size) = place(&mut program, segments, options.segment_alignment)?;
    let encode = EncodeOptions {
        tensor_alignment: options.constant_tensor_alignment,
        delegate_alignment: options.delegate_alignment.unwrap_or(16),
    };
    let fb = pte_schema::encode_program(&program, &encode)?;
    let padded = ExtendedHeader::padded_length(u64::from(encode.max_alignment())).ok_or_else(overflow)?;
    let layout = file_layout(fb.len() as u64, padded, data_size, options.segment_alignment)?;
    let mut head = Vec::new();
    if layout.inserted_header == 0 {
        head.extend_from_slice(&fb);
    } else {
        let header = ExtendedHeader::new(layout.program_size, layout.segment_base_offset, data_size);
        crate::write::splice_header(&mut head, &fb, &header.to_bytes(), layout.inserted_header)?;
        let base = usize::try_from(layout.segment_base_offset).map_err(|_| overflow())?;
        head.resize(base, 0);
    }
    Ok(ExirFile { head, placed, len: layout.file_size })
}

/// exir's `_extract_delegate_segments`: inline blobs with data move into
/// segments (one per distinct content); empty ones stay inline, renumbered.
fn extract_delegates<'a>(program: &mut Program<'a>, segments: &mut Vec<Segment<'a>>) -> Result<()> {
    let inline = program.backend_delegate_data.take().unwrap_or_default();
    let mut remaining = vec![];
    let mut seen = vec![false; inline.len()];
    let mut by_content: HashMap<&[u8], u32> = HashMap::new();
    for plan in program.execution_plan.iter_mut().flatten() {
        for delegate in plan.delegates.iter_mut().flatten() {
            let Some(processed) = delegate.processed.as_mut() else { continue };
            if processed.location != DataLocation::INLINE {
                return Err(refused(format!(
                    "Program must only contain inline delegate data, saw {:?} with {:?}",
                    delegate.id, processed
                )));
            }
            let i = usize::try_from(processed.index).unwrap_or(usize::MAX);
            let Some(entry) = inline.get(i) else {
                return Err(refused(format!(
                    "Delegate processed index {} >= len(Program.backend_delegate_data) {}",
                    processed.index,
                    inline.len()
                )));
            };
            if let Some(s) = seen.get_mut(i) {
                *s = true;
            }
            let data = entry.data.as_deref().unwrap_or(&[]);
            if data.is_empty() {
                processed.index = index(remaining.len())?;
                remaining.push(entry.clone());
            } else {
                let seg = match by_content.get(data) {
                    Some(&s) => s,
                    None => {
                        let s = index(segments.len())?;
                        segments.push(Segment::whole(Cow::Owned(data.to_vec()), 1));
                        by_content.insert(data, s);
                        s
                    }
                };
                *processed = BackendDelegateDataReference { location: DataLocation::SEGMENT, index: seg };
            }
        }
    }
    let left: Vec<usize> = seen.iter().enumerate().filter(|(_, s)| !**s).map(|(i, _)| i).collect();
    if !left.is_empty() {
        return Err(refused(format!("Did not handle all elements of backend_delegate_data; remaining: {left:?}")));
    }
    program.backend_delegate_data = Some(remaining);
    Ok(())
}

/// exir's `_extract_named_data`: one segment per distinct buffer, in the
/// order keys appear, with the entry's alignment.
fn extract_named<'a>(
    program: &mut Program<'a>,
    entries: Vec<ExirNamed>,
    buffers: Vec<Cow<'a, [u8]>>,
    segments: &mut Vec<Segment<'a>>,
) -> Result<()> {
    if program.named_data.as_ref().is_some_and(|v| !v.is_empty()) {
        return Err(refused("Program already has named data."));
    }
    let mut buffers: Vec<Option<Cow<'a, [u8]>>> = buffers.into_iter().map(Some).collect();
    let mut seg_of_buffer: HashMap<usize, u32> = HashMap::new();
    let mut out = Vec::with_capacity(entries.len());
    for entry in entries {
        let seg = match seg_of_buffer.get(&entry.buffer_index) {
            Some(&s) => s,
            None => {
                let s = index(segments.len())?;
                let data = buffers.get_mut(entry.buffer_index).and_then(Option::take).ok_or_else(|| {
                    refused(format!("named data {:?} names buffer {}, which is absent", entry.key, entry.buffer_index))
                })?;
                segments.push(Segment::whole(data, entry.alignment.unwrap_or(1)));
                seg_of_buffer.insert(entry.buffer_index, s);
                s
            }
        };
        out.push(NamedData { key: Some(entry.key), segment_index: seg });
    }
    program.named_data = Some(out);
    Ok(())
}

/// Segment pieces at their offsets from the segment base, and the data's size.
type Placed<'a> = (Vec<(u64, Cow<'a, [u8]>)>, u64);

/// Lays the new segments out after those the program already lists, each
/// at the least common multiple of the segment alignment and its own.
fn place<'a>(program: &mut Program<'a>, segments: Vec<Segment<'a>>, segment_alignment: u64) -> Result<Placed<'a>> {
    let table = program.segments.get_or_insert_with(Vec::new);
    let mut placed = Vec::with_capacity(segments.len());
    let mut size = 0u64;
    for seg in segments {
        let prev_end =
            table.last().map(|s| s.offset.checked_add(s.size).ok_or_else(overflow)).transpose()?.unwrap_or(0);
        let alignment = lcm(segment_alignment, seg.align).ok_or_else(overflow)?;
        table.push(DataSegment { offset: aligned(prev_end, alignment).ok_or_else(overflow)?, size: seg.size });
        let at = aligned(size, alignment).ok_or_else(overflow)?;
        size = at.checked_add(seg.size).ok_or_else(overflow)?;
        for (off, bytes) in seg.pieces {
            placed.push((at.checked_add(off).ok_or_else(overflow)?, bytes));
        }
    }
    Ok((placed, size))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;

    #[test]
    fn constants_pad_between_tensors_only() {
        let (seg, offsets) = Segment::concat(vec![Cow::Owned(vec![1; 5]), Cow::Owned(vec![2; 3])], Some(16)).unwrap();
        assert_eq!(offsets, vec![0, 16]);
        assert_eq!(seg.size, 19);
        assert_eq!(seg.pieces.iter().map(|(at, _)| *at).collect::<Vec<_>>(), vec![0, 16]);
    }

    #[test]
    fn segments_align_to_the_lcm_and_the_file_streams_as_it_fills() {
        let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte")).unwrap();
        let parts = ExirParts {
            program: crate::exir_program(&bytes).unwrap(),
            mutable: Some(vec![Cow::Owned(vec![7; 10])]),
            named: Some(vec![ExirNamed { key: "k".into(), buffer_index: 0, alignment: Some(3) }]),
            named_buffers: vec![Cow::Owned(vec![9; 5])],
        };
        let file = exir_serialize(parts, &ExirOptions { segment_alignment: 128, ..Default::default() }).unwrap();
        let mut filled = vec![0; file.len()];
        file.fill(&mut filled).unwrap();
        let mut streamed = vec![];
        file.write_to(&mut streamed).unwrap();
        assert_eq!(filled, streamed);
        let p = crate::PteFile::from_bytes(&streamed).unwrap();
        let table = p.program.segments.as_ref().unwrap();
        assert_eq!(table.len(), 3);
        // named data at lcm(128, 3) = 384 from the base
        assert_eq!(table[2].offset % 384, 0);
        assert_eq!(&filled[8..12], b"eh00");
    }

    #[test]
    fn exirs_refusals_keep_exirs_words() {
        let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte")).unwrap();
        let parts = ExirParts { program: crate::exir_program(&bytes).unwrap(), ..Default::default() };
        let e = exir_serialize(parts.clone(), &ExirOptions { segment_alignment: 0, ..Default::default() }).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidUse);
        let mut named = parts;
        named.program.named_data = Some(vec![NamedData { key: Some("x".into()), segment_index: 0 }]);
        named.named = Some(vec![]);
        let e = exir_serialize(named, &Default::default()).unwrap_err();
        assert!(e.to_string().contains("Program already has named data."), "{e}");
    }
}
