//! The program as exir's `deserialize_pte_binary` returns it: segment data
//! folded back into the program, as it was before serialization.

use std::borrow::Cow;

use pte_schema::{
    BackendDelegateDataReference, BackendDelegateInlineData, Buffer, DataLocation, Error, ErrorKind, Program, Result,
};
use pte_segments::ExtendedHeader;

use crate::verify::program_region;

fn bad(msg: String) -> Error {
    Error::new(ErrorKind::Malformed, msg)
}

/// The program of the `.pte` in `bytes` as exir's Python deserializer sees
/// it: delegate blobs stored in segments appended to `backend_delegate_data`
/// (their references made INLINE), the constant segment cut at its offsets
/// into `constant_buffer` (each piece running to the next offset, padding
/// included), `constant_segment` emptied, `mutable_data_segments` dropped,
/// `segments` and `named_data` emptied. A file without a segment base is
/// returned as stored. Byte payloads borrow from `bytes`.
///
/// ```
/// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/linear/model.pte"))?;
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
    let mut segments: Vec<&[u8]> = Vec::new();
    for (i, s) in program.segment_table().iter().enumerate() {
        let seg = pte_segments::ranges::sub_range(data, s.offset, s.size, &format!("segments[{i}]"))?;
        segments.push(seg);
    }
    let mut inline = program.backend_delegate_data.take().unwrap_or_default();
    for plan in program.execution_plan.iter_mut().flatten() {
        for d in plan.delegates.iter_mut().flatten() {
            let Some(r) = d.processed.as_mut() else { continue };
            if r.location != DataLocation::SEGMENT {
                continue;
            }
            let seg = usize::try_from(r.index)
                .ok()
                .and_then(|i| segments.get(i))
                .ok_or_else(|| bad(format!("delegate segment index {} >= num segments {}", r.index, segments.len())))?;
            let index = u32::try_from(inline.len()).map_err(|_| bad("too many delegates".into()))?;
            inline.push(BackendDelegateInlineData { data: Some(Cow::Borrowed(seg)) });
            *r = BackendDelegateDataReference { location: DataLocation::INLINE, index };
        }
    }
    program.backend_delegate_data = Some(inline);
    if let Some(cs) = program.constant_segment.as_mut() {
        let offsets = cs.offsets.clone().unwrap_or_default();
        if !offsets.is_empty() {
            let seg =
                usize::try_from(cs.segment_index).ok().and_then(|i| segments.get(i)).copied().ok_or_else(|| {
                    bad(format!("constant segment index {} >= num segments {}", cs.segment_index, segments.len()))
                })?;
            program.constant_buffer = Some(cut(&offsets, seg)?);
            cs.segment_index = 0;
            cs.offsets = Some(vec![]);
        }
    }
    if program.mutable_data_segments.as_ref().is_some_and(|m| !m.is_empty()) {
        program.mutable_data_segments = None;
    }
    program.named_data = Some(vec![]);
    program.segments = Some(vec![]);
    Ok(program)
}

/// Each piece from its offset to the next (the last to the segment end).
fn cut<'a>(offsets: &[u64], seg: &'a [u8]) -> Result<Vec<Buffer<'a>>> {
    let mut out = Vec::with_capacity(offsets.len());
    for (i, &start) in offsets.iter().enumerate() {
        let end = offsets.get(i.saturating_add(1)).copied().unwrap_or(seg.len() as u64);
        let piece =
            usize::try_from(start).ok().zip(usize::try_from(end).ok()).and_then(|(s, e)| seg.get(s..e)).ok_or_else(
                || bad(format!("constant offsets[{i}] {start}..{end} outside its segment of {} bytes", seg.len())),
            )?;
        out.push(Buffer { storage: Some(Cow::Borrowed(piece)) });
    }
    Ok(out)
}
