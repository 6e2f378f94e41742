//! exir's `serialize_pte_binary` on the Rust model and encoder.
//!
//! The layout decisions are exir's, in exir's order: constants become the
//! first segment (padded between tensors to the tensor alignment), then the
//! mutable buffers (unpadded), then delegate blobs when asked (deduplicated
//! by content), then named data (one segment per distinct buffer, aligned to
//! the lcm of the segment alignment and the entry's). The flatbuffer comes
//! from `pte_schema::encode_program`, so the bytes differ from exir's Python
//! builder while the program they describe is the same.

use std::collections::HashMap;

use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use pte_schema::{
    BackendDelegateDataReference, DataLocation, DataSegment, EncodeOptions, NamedData, Program, SubsegmentOffsets,
};
use pte_segments::ExtendedHeader;

use crate::error::{int_arg, opt_int_arg, IntoPy};
use crate::exir_classes::Classes;
use crate::exir_model::{buffer_bytes, bytes_of, Reader};

fn value_error(msg: impl Into<String>) -> PyErr {
    PyValueError::new_err(msg.into())
}

fn overflow() -> PyErr {
    value_error("size overflows")
}

/// `x` rounded up to a multiple of `a` (`a` > 0, any value, as exir allows).
fn aligned(x: u64, a: u64) -> PyResult<u64> {
    let rem = x.checked_rem(a).ok_or_else(|| value_error("alignment must be positive"))?;
    if rem == 0 {
        Ok(x)
    } else {
        a.checked_sub(rem).and_then(|p| x.checked_add(p)).ok_or_else(overflow)
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        let r = a.checked_rem(b).unwrap_or(0);
        a = b;
        b = r;
    }
    a
}

fn lcm(a: u64, b: u64) -> PyResult<u64> {
    let g = gcd(a, b);
    if g == 0 {
        return Ok(0);
    }
    a.checked_div(g).and_then(|q| q.checked_mul(b)).ok_or_else(overflow)
}

fn len64(v: &[u8]) -> u64 {
    v.len() as u64
}

/// Appends zeros until `out` is `to` bytes long.
fn pad_to(out: &mut Vec<u8>, to: u64) -> PyResult<()> {
    let to = usize::try_from(to).map_err(|_| overflow())?;
    if to > out.len() {
        out.resize(to, 0);
    }
    Ok(())
}

/// One segment: its pieces at their offsets within it, its size and its
/// alignment. Pieces are copied once, into place in the output; the gaps
/// between them are the output's zeros.
struct Segment {
    pieces: Vec<(u64, Vec<u8>)>,
    size: u64,
    align: u64,
}

impl Segment {
    fn whole(data: Vec<u8>, align: u64) -> Self {
        Segment { size: len64(&data), pieces: vec![(0, data)], align }
    }
}

/// exir's `_extract_constant_segment`: the buffers one after another, each
/// but the last padded to `align` (when given); returns the segment (not
/// concatenated: see [`Segment`]) and the offsets.
fn concat(buffers: Vec<Vec<u8>>, align: Option<u64>) -> PyResult<(Segment, Vec<u64>)> {
    let mut size = 0u64;
    let mut offsets = Vec::with_capacity(buffers.len());
    let mut pieces = Vec::with_capacity(buffers.len());
    let last = buffers.len().saturating_sub(1);
    for (i, b) in buffers.into_iter().enumerate() {
        offsets.push(size);
        let at = size;
        size = size.checked_add(len64(&b)).ok_or_else(overflow)?;
        pieces.push((at, b));
        if let (Some(a), true) = (align, i < last) {
            size = aligned(size, a)?;
        }
    }
    Ok((Segment { pieces, size, align: 1 }, offsets))
}

fn index(n: usize) -> PyResult<u32> {
    u32::try_from(n).map_err(|_| value_error("too many segments"))
}

/// exir's `_extract_delegate_segments`: inline blobs with data move into
/// segments (one per distinct content); empty ones stay inline, renumbered.
fn extract_delegates(program: &mut Program<'_>, segments: &mut Vec<Segment>) -> PyResult<()> {
    let inline = program.backend_delegate_data.take().unwrap_or_default();
    let mut remaining = vec![];
    let mut seen = vec![false; inline.len()];
    let mut by_content: HashMap<&[u8], u32> = HashMap::new();
    for plan in program.execution_plan.iter_mut().flatten() {
        for delegate in plan.delegates.iter_mut().flatten() {
            let Some(processed) = delegate.processed.as_mut() else { continue };
            if processed.location != DataLocation::INLINE {
                return Err(value_error(format!(
                    "Program must only contain inline delegate data, saw {:?} with {:?}",
                    delegate.id, processed
                )));
            }
            let i = usize::try_from(processed.index).unwrap_or(usize::MAX);
            let Some(entry) = inline.get(i) else {
                return Err(value_error(format!(
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
                        segments.push(Segment::whole(data.to_vec(), 1));
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
        return Err(value_error(format!("Did not handle all elements of backend_delegate_data; remaining: {left:?}")));
    }
    program.backend_delegate_data = Some(remaining);
    Ok(())
}

/// exir's `_extract_named_data`: one segment per distinct buffer index, in
/// the order keys appear, with the entry's alignment.
fn extract_named(program: &mut Program<'_>, named: &Bound<'_, PyAny>, segments: &mut Vec<Segment>) -> PyResult<()> {
    let py = named.py();
    if program.named_data.as_ref().is_some_and(|v| !v.is_empty()) {
        return Err(value_error("Program already has named data."));
    }
    let buffers = named.getattr(intern!(py, "buffers"))?;
    let entries = named.getattr(intern!(py, "pte_data"))?;
    let entries = entries.cast::<PyDict>()?;
    let mut seg_of_buffer: HashMap<usize, u32> = HashMap::new();
    let mut out = vec![];
    for (key, entry) in entries.iter() {
        let buffer_index: usize = entry.getattr(intern!(py, "buffer_index"))?.extract()?;
        let seg = match seg_of_buffer.get(&buffer_index) {
            Some(&s) => s,
            None => {
                let s = index(segments.len())?;
                let alignment: Option<u64> = entry.getattr(intern!(py, "alignment"))?.extract()?;
                segments.push(Segment::whole(bytes_of(&buffers.get_item(buffer_index)?)?, alignment.unwrap_or(1)));
                seg_of_buffer.insert(buffer_index, s);
                s
            }
        };
        out.push(NamedData { key: Some(key.extract()?), segment_index: seg });
    }
    program.named_data = Some(out);
    Ok(())
}

/// Segment pieces with their offsets from the segment base, and the total size.
type Placed = (Vec<(usize, Vec<u8>)>, u64);

/// Lays out the segments after the ones the program already lists; returns
/// each segment with its offset in the segment data (written straight into
/// the output later, not concatenated here) and the data's total size.
fn place_segments(program: &mut Program<'_>, segments: Vec<Segment>, segment_alignment: u64) -> PyResult<Placed> {
    let table = program.segments.get_or_insert_with(Vec::new);
    let mut placed = Vec::with_capacity(segments.len());
    let mut size = 0u64;
    for seg in segments {
        let prev_end =
            table.last().map(|s| s.offset.checked_add(s.size).ok_or_else(overflow)).transpose()?.unwrap_or(0);
        let alignment = lcm(segment_alignment, seg.align)?;
        table.push(DataSegment { offset: aligned(prev_end, alignment)?, size: seg.size });
        let at = aligned(size, alignment)?;
        size = at.checked_add(seg.size).ok_or_else(overflow)?;
        for (off, bytes) in seg.pieces {
            let pos = at.checked_add(off).and_then(|p| usize::try_from(p).ok()).ok_or_else(overflow)?;
            placed.push((pos, bytes));
        }
    }
    Ok((placed, size))
}

/// The start of the file, up to where the segments go: the flatbuffer, with
/// an `eh00` header and padding when there are segments (exir omits both
/// when no segment holds a byte). The segments are not copied here: the
/// caller writes them straight into the output object.
fn assemble(fb: &[u8], segment_len: u64, max_alignment: u64, segment_alignment: u64) -> PyResult<Vec<u8>> {
    if segment_len == 0 {
        return Ok(fb.to_vec());
    }
    let padded_header = aligned(32, max_alignment)?;
    let program_size = padded_header.checked_add(len64(fb)).ok_or_else(overflow)?;
    let base = aligned(program_size, segment_alignment)?;
    let header = ExtendedHeader::new(program_size, base, segment_len).to_bytes();
    let root = fb.get(..4).and_then(|b| <[u8; 4]>::try_from(b).ok()).map(u32::from_le_bytes).unwrap_or(0);
    let root = u32::try_from(padded_header).ok().and_then(|p| root.checked_add(p)).ok_or_else(overflow)?;
    let mut out = Vec::with_capacity(usize::try_from(base).map_err(|_| overflow())?);
    out.extend_from_slice(&root.to_le_bytes());
    out.extend_from_slice(fb.get(4..8).unwrap_or(&[]));
    out.extend_from_slice(&header);
    pad_to(&mut out, 8u64.checked_add(padded_header).ok_or_else(overflow)?)?;
    out.extend_from_slice(fb.get(8..).unwrap_or(&[]));
    pad_to(&mut out, base)?;
    Ok(out)
}

/// exir's `serialize_pte_binary(pte_file, ...)`: the file's bytes.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (pte_file, schema, compile_spec, extract_delegate_segments, segment_alignment,
    constant_tensor_alignment, delegate_alignment))]
pub(crate) fn exir_serialize<'py>(
    py: Python<'py>,
    pte_file: &Bound<'py, PyAny>,
    schema: &Bound<'py, PyAny>,
    compile_spec: &Bound<'py, PyAny>,
    extract_delegate_segments: bool,
    #[pyo3(from_py_with = int_arg::<u64>)] segment_alignment: u64,
    #[pyo3(from_py_with = int_arg::<u32>)] constant_tensor_alignment: u32,
    #[pyo3(from_py_with = opt_int_arg::<u32>)] delegate_alignment: Option<u32>,
) -> PyResult<Bound<'py, PyBytes>> {
    if segment_alignment == 0 {
        return Err(value_error("segment_alignment must be positive"));
    }
    let classes = Classes::load(schema, compile_spec)?;
    let reader = Reader { c: &classes };
    let mut program = reader.program(&pte_file.getattr(intern!(py, "program"))?)?;
    let mut segments: Vec<Segment> = vec![];

    // Moved out of the model, not copied: each is copied once, into place.
    let constants: Vec<Vec<u8>> = match program.constant_buffer.take() {
        Some(buffers) if !buffers.is_empty() => {
            buffers.into_iter().map(|b| b.storage.map(std::borrow::Cow::into_owned).unwrap_or_default()).collect()
        }
        kept => {
            program.constant_buffer = kept;
            vec![]
        }
    };
    if !constants.is_empty() {
        let (seg, offsets) = concat(constants, Some(u64::from(constant_tensor_alignment)))?;
        program.constant_segment =
            Some(SubsegmentOffsets { segment_index: index(segments.len())?, offsets: Some(offsets) });
        program.constant_buffer = Some(vec![]);
        segments.push(seg);
    }

    let mutable = pte_file.getattr(intern!(py, "mutable_data"))?;
    if !mutable.is_none() {
        let buffers = mutable
            .try_iter()?
            .map(|b| {
                let b = b?;
                match buffer_bytes(&b)? {
                    Some(v) => Ok(v),
                    // `None` storage: bytes_of raises the TypeError it did before.
                    None => bytes_of(&b.getattr(intern!(py, "storage"))?),
                }
            })
            .collect::<PyResult<Vec<_>>>()?;
        let (seg, offsets) = concat(buffers, None)?;
        if seg.size != 0 {
            program.mutable_data_segments =
                Some(vec![SubsegmentOffsets { segment_index: index(segments.len())?, offsets: Some(offsets) }]);
            segments.push(seg);
        }
    }

    if extract_delegate_segments {
        extract_delegates(&mut program, &mut segments)?;
    }
    let named = pte_file.getattr(intern!(py, "named_data"))?;
    if !named.is_none() {
        extract_named(&mut program, &named, &mut segments)?;
    }
    let (placed, segment_size) = place_segments(&mut program, segments, segment_alignment)?;

    let options = EncodeOptions {
        tensor_alignment: constant_tensor_alignment,
        delegate_alignment: delegate_alignment.unwrap_or(16),
    };
    let fb = pte_schema::encode_program(&program, &options).py_err(None)?;
    let head = assemble(&fb, segment_size, u64::from(options.max_alignment()), segment_alignment)?;
    let total = usize::try_from(segment_size).ok().and_then(|n| n.checked_add(head.len())).ok_or_else(overflow)?;
    // The output starts zeroed, so the padding between segments is written
    // by not writing; each piece is copied once, into place.
    PyBytes::new_with(py, total, |buf| {
        let (a, rest) = buf.split_at_mut_checked(head.len()).ok_or_else(overflow)?;
        a.copy_from_slice(&head);
        for (at, bytes) in &placed {
            let end = at.checked_add(bytes.len()).ok_or_else(overflow)?;
            rest.get_mut(*at..end).ok_or_else(overflow)?.copy_from_slice(bytes);
        }
        Ok(())
    })
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn alignment_arithmetic_matches_exir() {
        assert_eq!(aligned(0, 16).ok(), Some(0));
        assert_eq!(aligned(17, 16).ok(), Some(32));
        assert_eq!(aligned(10, 12).ok(), Some(12));
        assert!(aligned(1, 0).is_err());
        assert_eq!(lcm(128, 12).ok(), Some(384));
    }

    #[test]
    fn constants_pad_between_tensors_only() {
        let (seg, offsets) =
            concat(vec![vec![1; 5], vec![2; 3]], Some(16)).unwrap_or_else(|_| (Segment::whole(vec![], 1), vec![]));
        assert_eq!(offsets, vec![0, 16]);
        assert_eq!(seg.size, 19);
        assert_eq!(seg.pieces.iter().map(|(at, _)| *at).collect::<Vec<_>>(), vec![0, 16]);
    }

    #[test]
    fn header_goes_after_the_identifier() {
        let fb = [4u8, 0, 0, 0, b'E', b'T', b'1', b'2', 9, 9];
        let out = assemble(&fb, 3, 16, 128).unwrap_or_default();
        assert_eq!(&out[..4], &36u32.to_le_bytes());
        assert_eq!(&out[8..12], b"eh00");
        assert_eq!(out.len(), 128);
        assert_eq!(&out[32..40], &3u64.to_le_bytes());
        assert_eq!(assemble(&fb, 0, 16, 128).unwrap_or_default(), fb.to_vec());
    }
}
