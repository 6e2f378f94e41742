//! exir's `deserialize_pte_binary` over the Rust reader.
//!
//! exir moves segment data back into the program when it reads a file
//! (constants split at their offsets with the padding kept, delegate
//! segments made inline, mutable and named data handed out separately).
//! The same restoration is done here on the decoded model, borrowing the
//! input, then the model becomes exir's dataclasses in one pass: every
//! constant is copied exactly once, into the `bytes` exir's `Buffer` holds.
//! Error messages for inconsistent segment tables are exir's own.

use std::borrow::Cow;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};

use pte_schema::{BackendDelegateDataReference, BackendDelegateInlineData, Buffer, DataLocation, Program};

use crate::error::IntoPy;
use crate::exir_classes::Classes;
use crate::exir_read::Builder;

/// What exir returns besides the program: mutable buffers and named blobs.
struct Restored<'a> {
    mutable: Option<Vec<&'a [u8]>>,
    named: Option<Vec<(Option<String>, &'a [u8])>>,
}

/// `data[start:end]` with Python's clamping (never fails).
fn py_slice(data: &[u8], start: u64, end: u64) -> &[u8] {
    let len = data.len();
    let start = usize::try_from(start).unwrap_or(len).min(len);
    let end = usize::try_from(end).unwrap_or(len).min(len).max(start);
    data.get(start..end).unwrap_or(&[])
}

/// Splits a sub-segment at `offsets`, each piece running to the next offset
/// (so inter-tensor padding stays with the tensor before it).
fn split<'a>(offsets: &[u64], data: &'a [u8]) -> Vec<&'a [u8]> {
    let ends = offsets.iter().skip(1).copied().chain(std::iter::once(data.len() as u64));
    offsets.iter().zip(ends).map(|(&s, e)| py_slice(data, s, e)).collect()
}

fn value_error(msg: String) -> PyErr {
    PyValueError::new_err(msg)
}

/// exir's `_restore_segments` on the model; `segment_data` starts at the
/// segment base offset.
fn restore<'a>(program: &mut Program<'a>, segment_data: &'a [u8]) -> PyResult<Restored<'a>> {
    let mut segments: Vec<&'a [u8]> = vec![];
    for (i, seg) in program.segment_table().iter().enumerate() {
        let end = seg.offset.checked_add(seg.size).filter(|&e| e <= segment_data.len() as u64);
        match end {
            Some(end) => segments.push(py_slice(segment_data, seg.offset, end)),
            None => {
                return Err(value_error(format!(
                    "Segment {i} DataSegment(offset={}, size={}) overflows data length {}",
                    seg.offset,
                    seg.size,
                    segment_data.len()
                )))
            }
        }
    }
    let n = segments.len();

    let inline = program.backend_delegate_data.get_or_insert_with(Vec::new);
    for (p, plan) in program.execution_plan.iter_mut().flatten().enumerate() {
        for (d, delegate) in plan.delegates.iter_mut().flatten().enumerate() {
            let Some(processed) = delegate.processed.as_mut() else { continue };
            if processed.location == DataLocation::INLINE {
                continue;
            }
            if processed.location != DataLocation::SEGMENT {
                return Err(value_error(format!("Plan {p} delegate {d} has data location {}", processed.location.0)));
            }
            let index = processed.index;
            let Some(&blob) = usize::try_from(index).ok().and_then(|i| segments.get(i)) else {
                return Err(value_error(format!("Plan {p} delegate {d} segment index {index} >= num segments {n}")));
            };
            let data_index = u32::try_from(inline.len()).map_err(|_| value_error("too many delegates".into()))?;
            inline.push(BackendDelegateInlineData { data: Some(Cow::Borrowed(blob)) });
            *processed = BackendDelegateDataReference { location: DataLocation::INLINE, index: data_index };
        }
    }

    let segment_at = |index: u32, what: &str| -> PyResult<&'a [u8]> {
        usize::try_from(index)
            .ok()
            .and_then(|i| segments.get(i))
            .copied()
            .ok_or_else(|| value_error(format!("{what} segment index {index} >= num segments {n}")))
    };

    if let Some(cs) = program.constant_segment.as_mut() {
        let offsets = cs.offsets.as_deref().unwrap_or(&[]);
        if !offsets.is_empty() {
            let data = segment_at(cs.segment_index, "Constant")?;
            program.constant_buffer =
                Some(split(offsets, data).into_iter().map(|b| Buffer { storage: Some(Cow::Borrowed(b)) }).collect());
            cs.segment_index = 0;
            cs.offsets = Some(vec![]);
        }
    }

    let mut mutable = None;
    if let Some(ms) = program.mutable_data_segments.as_deref().filter(|m| !m.is_empty()) {
        let [m] = ms else {
            return Err(value_error("Can't handle more than 1 mutable data segment.".into()));
        };
        let data = segment_at(m.segment_index, "Mutable data")?;
        mutable = Some(split(m.offsets.as_deref().unwrap_or(&[]), data));
        program.mutable_data_segments = None;
    }

    let mut named = None;
    if let Some(entries) = program.named_data.as_deref().filter(|v| !v.is_empty()) {
        let mut out = Vec::with_capacity(entries.len());
        for e in entries {
            out.push((e.key.clone(), segment_at(e.segment_index, "Named data")?));
        }
        named = Some(out);
    }
    program.named_data = Some(vec![]);
    program.segments = Some(vec![]);
    Ok(Restored { mutable, named })
}

/// The segment base offset from an `eh00` header read as exir reads it
/// (any header at byte 8 with a plausible length), or 0.
fn segment_base(data: &[u8]) -> u64 {
    let word = |at: usize| data.get(at..at.saturating_add(8)).and_then(|b| <[u8; 8]>::try_from(b).ok());
    let length = data.get(12..16).and_then(|b| <[u8; 4]>::try_from(b).ok()).map(u32::from_le_bytes);
    // exir needs 32 bytes after the magic's offset to consider a header at all.
    if data.len() < 40 || data.get(8..12) != Some(b"eh00".as_slice()) || length.is_none_or(|l| l < 24) {
        return 0;
    }
    word(24).map(u64::from_le_bytes).unwrap_or(0)
}

/// `(program, mutable_data, named_data)`.
type Deserialized<'py> = (Bound<'py, PyAny>, Option<Bound<'py, PyList>>, Option<Bound<'py, PyList>>);

/// `(program, mutable_data, named_data)` for exir's `PTEFile`: the program
/// and mutable buffers as exir objects, named data as `(key, bytes)` pairs
/// for exir's `NamedDataStore` (built on the Python side). With `zero_copy`
/// the storage of constant and mutable buffers is a read-only memoryview
/// slice of `data` instead of a `bytes` copy. With `lazy` (a callable
/// taking such a slice) those buffers are what it returns instead: exir's
/// `Buffer` that copies the slice into `bytes` on first read.
#[pyfunction]
#[pyo3(signature = (data, schema, compile_spec, zero_copy, lazy=None))]
pub(crate) fn exir_deserialize<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyBytes>,
    schema: &Bound<'py, PyAny>,
    compile_spec: &Bound<'py, PyAny>,
    zero_copy: bool,
    lazy: Option<Bound<'py, PyAny>>,
) -> PyResult<Deserialized<'py>> {
    let classes = Classes::load(schema, compile_spec)?;
    let bytes = data.as_bytes();
    let (_, region) = pte_file::verify::program_region(bytes).py_err(None)?;
    let mut program = pte_schema::decode_program(region, &Default::default()).py_err(None)?;
    let base = segment_base(bytes);
    let restored = if base != 0 { Some(restore(&mut program, py_slice(bytes, base, u64::MAX))?) } else { None };
    let view = if zero_copy || lazy.is_some() {
        Some((bytes, pyo3::types::PyMemoryView::from(data.as_any())?.into_any()))
    } else {
        None
    };
    let lazy = if zero_copy { None } else { lazy };
    let b = Builder { py, c: &classes, view, lazy };
    let program_obj = b.program(&program)?;
    let Some(r) = restored else { return Ok((program_obj, None, None)) };
    let mutable = r
        .mutable
        .map(|m| PyList::new(py, m.into_iter().map(|d| b.buffer(Some(d))).collect::<PyResult<Vec<_>>>()?))
        .transpose()?;
    let named = r.named.map(|v| PyList::new(py, v.into_iter().map(|(k, d)| (k, PyBytes::new(py, d))))).transpose()?;
    Ok((program_obj, mutable, named))
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
    fn header_base_read_as_exir_does() {
        let mut d = vec![0u8; 64];
        assert_eq!(segment_base(&d), 0);
        d[8..12].copy_from_slice(b"eh00");
        d[12..16].copy_from_slice(&32u32.to_le_bytes());
        d[24..32].copy_from_slice(&256u64.to_le_bytes());
        assert_eq!(segment_base(&d), 256);
        d[12..16].copy_from_slice(&8u32.to_le_bytes());
        assert_eq!(segment_base(&d), 0);
    }
}
