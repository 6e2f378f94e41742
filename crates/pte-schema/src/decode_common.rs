//! What every schema's verified decoding shares: the identifier check, the
//! flatbuffers verifier's errors in this crate's terms, and copying a
//! verified vector out into the owned model.

use flatbuffers::{ErrorTraceDetail, ForwardsUOffset, InvalidFlatbuffer, Vector};

use pte_core::{Error, ErrorKind, Result};

/// Checks that `buf` is long enough for a flatbuffer and carries `id` at
/// bytes 4..8 (the file identifier), as every schema here requires.
pub(crate) fn check_identifier(buf: &[u8], id: &[u8; 4]) -> Result<()> {
    match buf.get(4..8) {
        Some(found) if found == id => Ok(()),
        Some(found) => Err(Error::new(
            ErrorKind::Malformed,
            format!(
                "file identifier is {:?}, expected {:?}",
                String::from_utf8_lossy(found),
                String::from_utf8_lossy(id)
            ),
        )
        .at_offset(4)),
        None => Err(Error::new(
            ErrorKind::Malformed,
            format!("{} bytes is too short for a flatbuffer (need at least 8)", buf.len()),
        )),
    }
}

/// Converts a flatbuffers verifier error into ours, keeping path and offset.
pub(crate) fn from_verifier(e: InvalidFlatbuffer) -> Error {
    use InvalidFlatbuffer as I;
    let (kind, message, offset, trace) = match &e {
        I::MissingRequiredField { required, error_trace } => {
            (ErrorKind::Malformed, format!("missing required field {required}"), None, Some(error_trace))
        }
        I::InconsistentUnion { field, field_type, error_trace } => (
            ErrorKind::Malformed,
            format!("union {field} and its tag {field_type} disagree on presence"),
            None,
            Some(error_trace),
        ),
        I::Utf8Error { error, range, error_trace } => {
            (ErrorKind::Malformed, format!("string is not valid UTF-8: {error}"), Some(range.start), Some(error_trace))
        }
        I::MissingNullTerminator { range, error_trace } => {
            (ErrorKind::Malformed, "string lacks its NUL terminator".to_string(), Some(range.start), Some(error_trace))
        }
        I::Unaligned { position, unaligned_type, error_trace } => {
            (ErrorKind::Malformed, format!("{unaligned_type} is misaligned"), Some(*position), Some(error_trace))
        }
        I::RangeOutOfBounds { range, error_trace } => (
            ErrorKind::Malformed,
            format!("range {}..{} is outside the buffer", range.start, range.end),
            Some(range.start),
            Some(error_trace),
        ),
        I::SignedOffsetOutOfBounds { soffset, position, error_trace } => (
            ErrorKind::Malformed,
            format!("vtable offset {soffset} points outside the buffer"),
            Some(*position),
            Some(error_trace),
        ),
        I::TooManyTables => (ErrorKind::LimitExceeded, "more tables than the limit allows".to_string(), None, None),
        I::ApparentSizeTooLarge => (
            ErrorKind::LimitExceeded,
            "apparent size (shared objects expanded) exceeds the limit".to_string(),
            None,
            None,
        ),
        I::DepthLimitReached => (ErrorKind::LimitExceeded, "tables nest deeper than the limit".to_string(), None, None),
    };
    let mut err = Error::new(kind, message);
    if let Some(t) = trace {
        err = err.at_path(trace_path(t.as_ref()));
    }
    if let Some(o) = offset {
        err = err.at_offset(o as u64);
    }
    err
}

fn trace_path(trace: &[ErrorTraceDetail]) -> String {
    let mut path = String::new();
    for d in trace.iter().rev() {
        match d {
            ErrorTraceDetail::TableField { field_name, .. } => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(field_name);
            }
            ErrorTraceDetail::VectorElement { index, .. } => {
                path.push_str(&format!("[{index}]"));
            }
            ErrorTraceDetail::UnionVariant { variant, .. } => {
                path.push_str(&format!("<{variant}>"));
            }
        }
    }
    path
}

pub(crate) fn scalars<'a, T: flatbuffers::Follow<'a> + 'a>(v: Option<Vector<'a, T>>) -> Option<Vec<T::Inner>> {
    v.map(|v| v.iter().collect())
}

pub(crate) fn string(s: Option<&str>) -> Option<String> {
    s.map(str::to_owned)
}

pub(crate) fn tables<'a, T: 'a, U>(
    v: Option<Vector<'a, ForwardsUOffset<T>>>,
    mut f: impl FnMut(usize, T) -> Result<U>,
) -> Result<Option<Vec<U>>>
where
    ForwardsUOffset<T>: flatbuffers::Follow<'a, Inner = T>,
{
    match v {
        None => Ok(None),
        Some(v) => {
            let mut out = Vec::with_capacity(v.len());
            for (i, t) in v.iter().enumerate() {
                out.push(f(i, t)?);
            }
            Ok(Some(out))
        }
    }
}

pub(crate) fn infallible<'a, T: 'a, U>(v: Option<Vector<'a, ForwardsUOffset<T>>>, f: impl Fn(T) -> U) -> Option<Vec<U>>
where
    ForwardsUOffset<T>: flatbuffers::Follow<'a, Inner = T>,
{
    v.map(|v| v.iter().map(f).collect())
}
