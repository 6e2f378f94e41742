//! The program as exir's `deserialize_pte_binary` returns it: segment data
//! folded back into the program, as it was before serialization.

use std::borrow::Cow;

use pte_schema::{
    BackendDelegateDataReference, BackendDelegateInlineData, Buffer, DataLocation, DataSegment, Error, ErrorKind,
    ExirFold, Program, ProgramJson, Result,
};
use pte_segments::ExtendedHeader;

use crate::read::program_region;

fn bad(msg: String) -> Error {
    Error::new(ErrorKind::Malformed, msg)
}

/// The program of the `.pte` in `bytes` as exir's Python deserializer sees
/// it: delegate blobs stored in segments appended to `backend_delegate_data`
/// (their references made INLINE), the constant segment cut at its offsets
/// into `constant_buffer` (each piece running to the next offset, padding
/// included), `constant_segment` emptied, `mutable_data_segments` dropped,
/// `segments` and `named_data` emptied ([`exir_restore`], which also hands
/// out the mutable and named data this drops). A file without a segment
/// base is returned as stored. Byte payloads borrow from `bytes`.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
/// let p = pte_file::exir_program(&bytes)?;
/// assert_eq!(p.constant_buffer.as_ref().map(Vec::len), Some(3));
/// assert_eq!(p.segments, Some(vec![]));
/// # Ok::<(), pte_file::Error>(())
/// ```
pub fn exir_program(bytes: &[u8]) -> Result<Program<'_>> {
    let (header, region) = program_region(bytes)?;
    let mut program = pte_schema::decode_program(region, &Default::default())?;
    let base = header.map_or(0, |h: ExtendedHeader| h.segment_base_offset);
    if base == 0 {
        return Ok(program);
    }
    let data = usize::try_from(base)
        .ok()
        .and_then(|b| bytes.get(b..))
        .ok_or_else(|| bad("segment base past the end".into()))?;
    exir_restore(&mut program, data)?;
    Ok(program)
}

/// What exir's deserializer hands out beside the program: the mutable
/// buffers and the named blobs, borrowed from the file.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("mutable_buffer/model.pte"))?;
/// let (_, region) = pte_file::program_region(&bytes)?;
/// let mut program = pte_schema::decode_program(region, &Default::default())?;
/// let base = pte_file::exir_segment_base(&bytes) as usize;
/// let data = pte_file::exir_restore(&mut program, &bytes[base..])?;
/// assert!(data.mutable.is_some_and(|m| !m.is_empty()));
/// assert!(program.mutable_data_segments.is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExirData<'a> {
    /// The pieces of the mutable segment, cut at its offsets (exir's
    /// `mutable_data`); `None` when the program has none.
    pub mutable: Option<Vec<&'a [u8]>>,
    /// `(key, blob)` of each named-data entry (for exir's
    /// `NamedDataStore`); `None` when the program has none.
    pub named: Option<Vec<(Option<String>, &'a [u8])>>,
}

/// The segment base offset as exir reads it: any `eh00` header at byte 8
/// with a plausible length (and 32 bytes after the magic), else 0. Laxer
/// than [`ExtendedHeader::parse`], which checks the header's other fields.
///
/// ```
/// let mut d = vec![0u8; 64];
/// assert_eq!(pte_file::exir_segment_base(&d), 0);
/// d[8..12].copy_from_slice(b"eh00");
/// d[12..16].copy_from_slice(&32u32.to_le_bytes());
/// d[24..32].copy_from_slice(&256u64.to_le_bytes());
/// assert_eq!(pte_file::exir_segment_base(&d), 256);
/// ```
pub fn exir_segment_base(data: &[u8]) -> u64 {
    let word = |at: usize| data.get(at..at.saturating_add(8)).and_then(|b| <[u8; 8]>::try_from(b).ok());
    let length = data.get(12..16).and_then(|b| <[u8; 4]>::try_from(b).ok()).map(u32::from_le_bytes);
    if data.len() < 40 || data.get(8..12) != Some(b"eh00".as_slice()) || length.is_none_or(|l| l < 24) {
        return 0;
    }
    word(24).map(u64::from_le_bytes).unwrap_or(0)
}

/// `data[start:end]` with Python's clamping (never fails).
fn py_slice(data: &[u8], start: u64, end: u64) -> &[u8] {
    let len = data.len();
    let start = usize::try_from(start).unwrap_or(len).min(len);
    let end = usize::try_from(end).unwrap_or(len).min(len).max(start);
    data.get(start..end).unwrap_or(&[])
}

/// Cuts a segment at `offsets`, each piece running to the next offset (so
/// the padding between tensors stays with the tensor before it), sliced as
/// Python slices.
fn split<'a>(offsets: &[u64], data: &'a [u8]) -> Vec<&'a [u8]> {
    let ends = offsets.iter().skip(1).copied().chain(std::iter::once(data.len() as u64));
    offsets.iter().zip(ends).map(|(&s, e)| py_slice(data, s, e)).collect()
}

/// exir's `_restore_segments` on a decoded program whose segment data
/// (`segment_data`, from the segment base on) the file holds: delegate
/// blobs in segments appended to `backend_delegate_data` (their references
/// made INLINE), the constant segment cut at its offsets into
/// `constant_buffer`, and the mutable segment and named data taken out into
/// the returned [`ExirData`]; `segments` and `named_data` are emptied.
/// Fails with exir's own messages where exir fails (a segment past the
/// data, a reference past the table, more than one mutable segment, a
/// delegate stored neither inline nor in a segment).
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
/// let (_, region) = pte_file::program_region(&bytes)?;
/// let mut program = pte_schema::decode_program(region, &Default::default())?;
/// let e = pte_file::exir_restore(&mut program, &[]).unwrap_err();
/// assert!(e.message().contains("overflows data length 0"), "{e}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn exir_restore<'a>(program: &mut Program<'a>, segment_data: &'a [u8]) -> Result<ExirData<'a>> {
    let delegates = program
        .execution_plan
        .iter()
        .flatten()
        .enumerate()
        .flat_map(|(p, plan)| plan.delegates.iter().flatten().enumerate().map(move |(d, x)| (p, d, x.processed)));
    let constant = program.constant_segment.as_ref().map(|c| (c.segment_index, c.offsets.as_deref().unwrap_or(&[])));
    let mutable: Option<Vec<(u32, &[u64])>> = program
        .mutable_data_segments
        .as_deref()
        .map(|m| m.iter().map(|s| (s.segment_index, s.offsets.as_deref().unwrap_or(&[]))).collect());
    let stored = Stored {
        segments: program.segment_table(),
        inline_count: program.backend_delegate_data.as_ref().map_or(0, Vec::len),
        constant,
        mutable: mutable.as_deref(),
    };
    let named = program.named_data.iter().flatten().map(|e| (e.key.as_deref(), e.segment_index));
    let (fold, data) = fold(&stored, delegates, named, segment_data)?;

    let inline = program.backend_delegate_data.get_or_insert_with(Vec::new);
    inline.extend(fold.delegate_blobs.iter().map(|&b| BackendDelegateInlineData { data: Some(Cow::Borrowed(b)) }));
    let delegates = program.execution_plan.iter_mut().flatten().flat_map(|p| p.delegates.iter_mut().flatten());
    for (delegate, new) in delegates.zip(&fold.delegate_refs) {
        if let (Some(processed), Some(index)) = (delegate.processed.as_mut(), *new) {
            *processed = BackendDelegateDataReference { location: DataLocation::INLINE, index };
        }
    }
    if let (Some(pieces), Some(cs)) = (fold.constant_pieces, program.constant_segment.as_mut()) {
        program.constant_buffer =
            Some(pieces.into_iter().map(|b| Buffer { storage: Some(Cow::Borrowed(b)) }).collect());
        cs.segment_index = 0;
        cs.offsets = Some(vec![]);
    }
    if fold.drop_mutable {
        program.mutable_data_segments = None;
    }
    program.named_data = Some(vec![]);
    program.segments = Some(vec![]);
    Ok(data)
}

/// What exir's restore reads of a program, from the decoded model or from
/// a view alike.
struct Stored<'s> {
    segments: &'s [DataSegment],
    /// Entries of `backend_delegate_data` (0 when absent).
    inline_count: usize,
    /// `constant_segment` as `(segment_index, offsets)`.
    constant: Option<(u32, &'s [u64])>,
    /// `mutable_data_segments` as `(segment_index, offsets)` each.
    mutable: Option<&'s [(u32, &'s [u64])]>,
}

/// exir's `_restore_segments`, decided once for both forms: what moves
/// where ([`ExirFold`]) and what is handed out ([`ExirData`]), or exir's
/// error. `delegates` lists `(plan, delegate, processed)` of every
/// delegate, plans then delegates in order.
fn fold<'a, 'k>(
    stored: &Stored<'_>,
    delegates: impl Iterator<Item = (usize, usize, Option<BackendDelegateDataReference>)>,
    named: impl Iterator<Item = (Option<&'k str>, u32)>,
    segment_data: &'a [u8],
) -> Result<(ExirFold<'a>, ExirData<'a>)> {
    let mut segments: Vec<&'a [u8]> = Vec::with_capacity(stored.segments.len());
    for (i, seg) in stored.segments.iter().enumerate() {
        match seg.offset.checked_add(seg.size).filter(|&e| e <= segment_data.len() as u64) {
            Some(end) => segments.push(py_slice(segment_data, seg.offset, end)),
            None => {
                return Err(bad(format!(
                    "Segment {i} DataSegment(offset={}, size={}) overflows data length {}",
                    seg.offset,
                    seg.size,
                    segment_data.len()
                )))
            }
        }
    }
    let n = segments.len();

    let mut fold = ExirFold::default();
    for (p, d, processed) in delegates {
        let new = match processed {
            None => None,
            Some(r) if r.location == DataLocation::INLINE => None,
            Some(r) if r.location != DataLocation::SEGMENT => {
                return Err(bad(format!("Plan {p} delegate {d} has data location {}", r.location.0)));
            }
            Some(r) => {
                let index = r.index;
                let Some(&blob) = usize::try_from(index).ok().and_then(|i| segments.get(i)) else {
                    return Err(bad(format!("Plan {p} delegate {d} segment index {index} >= num segments {n}")));
                };
                let data_index = stored
                    .inline_count
                    .checked_add(fold.delegate_blobs.len())
                    .and_then(|i| u32::try_from(i).ok())
                    .ok_or_else(|| bad("too many delegates".into()))?;
                fold.delegate_blobs.push(blob);
                Some(data_index)
            }
        };
        fold.delegate_refs.push(new);
    }

    let segment_at = |index: u32, what: &str| -> Result<&'a [u8]> {
        usize::try_from(index)
            .ok()
            .and_then(|i| segments.get(i))
            .copied()
            .ok_or_else(|| bad(format!("{what} segment index {index} >= num segments {n}")))
    };

    if let Some((index, offsets)) = stored.constant.filter(|(_, o)| !o.is_empty()) {
        fold.constant_pieces = Some(split(offsets, segment_at(index, "Constant")?));
    }

    let mut data = ExirData::default();
    if let Some(ms) = stored.mutable.filter(|m| !m.is_empty()) {
        let [(index, offsets)] = ms else {
            return Err(bad("Can't handle more than 1 mutable data segment.".into()));
        };
        data.mutable = Some(split(offsets, segment_at(*index, "Mutable data")?));
        fold.drop_mutable = true;
    }

    let mut entries = named.peekable();
    if entries.peek().is_some() {
        let mut out = Vec::new();
        for (key, index) in entries {
            out.push((key.map(str::to_string), segment_at(index, "Named data")?));
        }
        data.named = Some(out);
    }
    Ok((fold, data))
}

/// A `.pte` as exir's `deserialize_pte_binary` returns its program (what
/// [`exir_program`] builds), read in place and written as JSON from the
/// file's views: the JSON of [`exir_program`]'s program, byte for byte,
/// without decoding it (`pte dump --exir` of a program of a million values
/// holds its segment table and one slice per folded constant, not the model).
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
/// let mut streamed = vec![];
/// pte_file::ExirJson::new(&bytes)?.write_pretty(&mut streamed)?;
/// let program = pte_file::exir_program(&bytes)?;
/// let tree = pte_schema::program_to_json(&program, pte_schema::JsonBytes::Integers);
/// assert_eq!(streamed, serde_json::to_vec_pretty(&tree)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ExirJson<'a> {
    json: ProgramJson<'a>,
    /// `None` for a file without a segment base (returned as stored).
    fold: Option<ExirFold<'a>>,
}

impl<'a> ExirJson<'a> {
    /// Reads and checks `bytes` as [`exir_program`] does, failing where it
    /// fails with the same error.
    pub fn new(bytes: &'a [u8]) -> Result<Self> {
        let (header, region) = program_region(bytes)?;
        let json = ProgramJson::new(region, &Default::default())?;
        let base = header.map_or(0, |h: ExtendedHeader| h.segment_base_offset);
        if base == 0 {
            return Ok(ExirJson { json, fold: None });
        }
        let data = usize::try_from(base)
            .ok()
            .and_then(|b| bytes.get(b..))
            .ok_or_else(|| bad("segment base past the end".into()))?;
        let view = json.view();
        let table: Vec<DataSegment> = view.segments().collect();
        let constant = view.constant_offsets().map(|(i, o)| (i, o.map(|o| o.iter().collect::<Vec<u64>>())));
        let mutable: Option<Vec<(u32, Vec<u64>)>> = view
            .mutable_offsets()
            .map(|m| m.map(|(i, o)| (i, o.map(|o| o.iter().collect()).unwrap_or_default())).collect());
        let mutable_slices: Option<Vec<(u32, &[u64])>> =
            mutable.as_ref().map(|m| m.iter().map(|(i, o)| (*i, o.as_slice())).collect());
        let stored = Stored {
            segments: &table,
            inline_count: view.inline_delegate_count().unwrap_or(0),
            constant: constant.as_ref().map(|(i, o)| (*i, o.as_deref().unwrap_or(&[]))),
            mutable: mutable_slices.as_deref(),
        };
        let delegates =
            (0..view.plan_count()).filter_map(|p| view.plan(p).map(|plan| (p, plan))).flat_map(|(p, plan)| {
                plan.delegates().into_iter().flatten().enumerate().map(move |(d, x)| (p, d, x.processed()))
            });
        let (fold, _) = fold(&stored, delegates, view.named_data(), data)?;
        Ok(ExirJson { json, fold: Some(fold) })
    }

    /// Writes the pretty-printed JSON (two-space indent, no final newline).
    pub fn write_pretty<W: std::io::Write>(&self, w: W) -> std::io::Result<()> {
        match &self.fold {
            Some(fold) => self.json.write_pretty_folded(w, fold),
            None => self.json.write_pretty(w),
        }
    }
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn slices_clamp_like_python() {
        let d = b"abcdef";
        assert_eq!(py_slice(d, 2, 4), b"cd");
        assert_eq!(py_slice(d, 4, 2), b"");
        assert_eq!(py_slice(d, 4, 99), b"ef");
        assert_eq!(py_slice(d, 99, 100), b"");
    }

    #[test]
    fn split_keeps_padding_with_the_tensor_before() {
        let parts = split(&[0, 4, 6], b"aaaaxxbb");
        assert_eq!(parts, vec![&b"aaaa"[..], &b"xx"[..], &b"bb"[..]]);
        assert!(split(&[], b"zz").is_empty());
    }

    #[test]
    fn a_short_header_length_is_no_header() {
        let mut d = vec![0u8; 64];
        d[8..12].copy_from_slice(b"eh00");
        d[12..16].copy_from_slice(&8u32.to_le_bytes());
        d[24..32].copy_from_slice(&256u64.to_le_bytes());
        assert_eq!(exir_segment_base(&d), 0);
    }
}
