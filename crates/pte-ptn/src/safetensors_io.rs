//! `program.safetensors`: strict zero-copy reading, and the header exir
//! writes (compact JSON, keys sorted, ASCII-escaped, space-padded to 8).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write;

use pte_schema::{Error, ErrorKind, Result};
use safetensors::{SafeTensorError, SafeTensors};

use crate::strict_json::{check_header, push_ascii, HeaderBounds, HeaderError};
use crate::tensor::{dtype_code, PtnTensor};
use crate::{PtnLimits, METADATA_KEY, SAFETENSORS_MEMBER};

/// Tensors keyed by name, plus the optional `__metadata__` string map.
pub(crate) type Decoded<'a> = (BTreeMap<String, PtnTensor<'a>>, Option<BTreeMap<String, String>>);

fn bad(what: impl Into<String>) -> Error {
    Error::new(ErrorKind::Malformed, what).at_path(SAFETENSORS_MEMBER)
}

/// Reads a safetensors buffer, borrowing every tensor's bytes.
pub(crate) fn read_safetensors<'a>(data: &'a [u8], limits: &PtnLimits) -> Result<Decoded<'a>> {
    read_safetensors_with(data, limits, true)
}

/// [`read_safetensors`], the metadata read only when `keep_metadata`
/// (otherwise `Some` of an empty map where the header has one).
fn read_safetensors_with<'a>(data: &'a [u8], limits: &PtnLimits, keep_metadata: bool) -> Result<Decoded<'a>> {
    let n_bytes: [u8; 8] = data
        .get(..8)
        .and_then(|b| b.try_into().ok())
        .ok_or_else(|| bad(format!("{} bytes is too short for the header length", data.len())))?;
    let n = u64::from_le_bytes(n_bytes);
    let available = data.len().saturating_sub(8);
    let limit = limits.max_safetensors_header.min(available);
    if usize::try_from(n).map_or(true, |n| n > limit) {
        let e = if usize::try_from(n).map_or(true, |n| n > limits.max_safetensors_header) {
            Error::new(
                ErrorKind::LimitExceeded,
                format!("header of {n} bytes is over the limit of {}", limits.max_safetensors_header),
            )
            .at_path(SAFETENSORS_MEMBER)
        } else {
            bad(format!("header claims {n} bytes but only {available} follow"))
        };
        return Err(e.at_offset(0));
    }
    let json = data.get(8..).and_then(|rest| rest.get(..usize::try_from(n).ok()?)).ok_or_else(|| bad("header"))?;
    let json = std::str::from_utf8(json).map_err(|e| bad(format!("header is not UTF-8: {e}")).at_offset(8))?;
    if !json.starts_with('{') {
        return Err(bad("header does not start with `{`").at_offset(8));
    }
    let bounds = HeaderBounds { max_tensors: limits.max_tensors, max_key_len: limits.max_key_len, keep_metadata };
    let metadata = check_header(json, bounds).map_err(|e| match e {
        HeaderError::Json(e) => bad(format!("header JSON: {e}")).at_offset(8),
        HeaderError::TooManyTensors => {
            Error::new(ErrorKind::LimitExceeded, format!("more than {} tensors, over the limit", limits.max_tensors))
                .at_path(SAFETENSORS_MEMBER)
        }
        HeaderError::KeyTooLong(start) => Error::new(ErrorKind::LimitExceeded, "tensor key over the length limit")
            .at_path(format!("{SAFETENSORS_MEMBER}[{start}…]")),
    })?;
    let st = SafeTensors::deserialize(data).map_err(map_error)?;
    let data_base = 8u64.saturating_add(n);
    let mut tensors = BTreeMap::new();
    for (name, view) in st.iter() {
        let path = || format!("{SAFETENSORS_MEMBER}[{name:?}]");
        let shape = view.shape().iter().map(|&d| u64::try_from(d).unwrap_or(u64::MAX)).collect();
        let tensor = PtnTensor { dtype: view.dtype(), shape, data: view.data().into() };
        tensor.check().map_err(|e| {
            let offset = offset_in(data, view.data()).unwrap_or(data_base);
            Error::new(e.kind(), e.message().to_string()).at_path(path()).at_offset(offset)
        })?;
        tensors.insert(name.to_string(), tensor);
    }
    Ok((tensors, metadata.map(|m| m.into_iter().collect())))
}

fn offset_in(outer: &[u8], inner: &[u8]) -> Option<u64> {
    let start = (inner.as_ptr() as usize).checked_sub(outer.as_ptr() as usize)?;
    u64::try_from(start).ok()
}

fn map_error(e: SafeTensorError) -> Error {
    let kind = match e {
        SafeTensorError::HeaderTooLarge => ErrorKind::LimitExceeded,
        _ => ErrorKind::Malformed,
    };
    let what = match &e {
        SafeTensorError::InvalidOffset(k) => {
            format!("tensor {k:?} does not start where the previous one ends (gap or overlap)")
        }
        SafeTensorError::MetadataIncompleteBuffer => {
            "the tensor data does not end exactly at the end of the member".into()
        }
        SafeTensorError::TensorInvalidInfo => "a tensor's byte range does not match its shape and dtype".into(),
        _ => e.to_string(),
    };
    Error::new(kind, what).at_path(SAFETENSORS_MEMBER)
}

/// The 8-byte length plus the padded JSON header exir would write for
/// `tensors` (in key order, data contiguous from offset 0).
pub(crate) fn header_bytes(
    tensors: &BTreeMap<String, PtnTensor<'_>>,
    metadata: Option<&BTreeMap<String, String>>,
    limits: &PtnLimits,
) -> Result<Vec<u8>> {
    let mut json = String::from("{");
    let mut first = true;
    if let Some(m) = metadata {
        json.push_str("\"__metadata__\":");
        push_json(&mut json, &serde_json::to_value(m).map_err(|e| Error::new(ErrorKind::InvalidUse, e.to_string()))?);
        first = false;
    }
    let mut offset = 0u64;
    for (key, t) in tensors {
        t.check().map_err(|e| e.at_path(format!("{SAFETENSORS_MEMBER}[{key:?}]")))?;
        let len = u64::try_from(t.data.len()).map_err(|_| Error::new(ErrorKind::InvalidUse, "tensor too large"))?;
        let end = offset.checked_add(len).ok_or_else(|| Error::new(ErrorKind::InvalidUse, "tensor data overflows"))?;
        if !first {
            json.push(',');
        }
        first = false;
        push_json(&mut json, &serde_json::Value::String(key.clone()));
        let _ = write!(json, ":{{\"dtype\":\"{}\",\"shape\":[", dtype_code(t.dtype));
        for (i, d) in t.shape.iter().enumerate() {
            let _ = write!(json, "{}{d}", if i == 0 { "" } else { "," });
        }
        let _ = write!(json, "],\"data_offsets\":[{offset},{end}]}}");
        offset = end;
    }
    json.push('}');
    while json.len() % 8 != 0 {
        json.push(' ');
    }
    if json.len() > limits.max_safetensors_header {
        return Err(Error::new(
            ErrorKind::LimitExceeded,
            format!(
                "the safetensors header would be {} bytes, over the reader's limit of {}",
                json.len(),
                limits.max_safetensors_header
            ),
        )
        .at_path(SAFETENSORS_MEMBER));
    }
    let mut out = Vec::with_capacity(json.len().saturating_add(8));
    out.extend_from_slice(&u64::try_from(json.len()).unwrap_or(u64::MAX).to_le_bytes());
    out.extend_from_slice(json.as_bytes());
    Ok(out)
}

fn push_json(out: &mut String, value: &serde_json::Value) {
    push_ascii(out, &value.to_string());
}

/// Streams the header then each tensor's bytes, one tensor at a time.
pub(crate) fn write_safetensors(
    w: &mut dyn Write,
    header: &[u8],
    tensors: &BTreeMap<String, PtnTensor<'_>>,
) -> std::io::Result<()> {
    w.write_all(header)?;
    for t in tensors.values() {
        // a stop signal ends a long save between tensors
        pte_core::check_interrupted().map_err(std::io::Error::other)?;
        w.write_all(&t.data)?;
    }
    Ok(())
}

/// Total member length: header plus every tensor.
pub(crate) fn encoded_len(header: &[u8], tensors: &BTreeMap<String, PtnTensor<'_>>) -> u64 {
    tensors.values().fold(header.len() as u64, |a, t| a.saturating_add(t.data.len() as u64))
}

/// Reads a safetensors blob held in another member (the samples sidecar)
/// under the package's strict rules; error paths name `member`.
///
/// ```
/// use std::collections::BTreeMap;
/// use pte_ptn::*;
/// let mut t = BTreeMap::new();
/// t.insert("a".to_string(), PtnTensor::new(Dtype::I32, vec![2], vec![0u8; 8])?);
/// let bytes = safetensors_to_bytes(&t, &PtnLimits::default())?;
/// assert_eq!(read_safetensors_member(&bytes, "samples/f/s/data.safetensors", &PtnLimits::default())?, t);
/// let e = read_safetensors_member(&bytes[..9], "x.safetensors", &PtnLimits::default()).unwrap_err();
/// assert!(e.path().starts_with("x.safetensors"));
/// # Ok::<(), Error>(())
/// ```
pub fn read_safetensors_member<'a>(
    data: &'a [u8],
    member: &str,
    limits: &PtnLimits,
) -> Result<BTreeMap<String, PtnTensor<'a>>> {
    // the metadata is not returned: it is checked, never copied
    read_safetensors_with(data, limits, false).map(|(t, _)| t).map_err(|e| {
        let path = e.path().strip_prefix(SAFETENSORS_MEMBER).map(|rest| format!("{member}{rest}"));
        let mut out = Error::new(e.kind(), e.message().to_string()).at_path(path.unwrap_or_else(|| member.to_string()));
        if let Some(o) = e.offset() {
            out = out.at_offset(o);
        }
        out
    })
}

/// Encodes tensors as a safetensors blob in exir's exact form (compact JSON
/// header in key order, space-padded to 8 bytes, data contiguous), refusing
/// what the reader's `limits` would refuse.
///
/// ```
/// let b = pte_ptn::safetensors_to_bytes(&Default::default(), &Default::default())?;
/// assert_eq!(&b[..], b"\x08\0\0\0\0\0\0\0{}      ");
/// # Ok::<(), pte_ptn::Error>(())
/// ```
pub fn safetensors_to_bytes(tensors: &BTreeMap<String, PtnTensor<'_>>, limits: &PtnLimits) -> Result<Vec<u8>> {
    if tensors.len() > limits.max_tensors {
        return Err(Error::new(
            ErrorKind::LimitExceeded,
            format!("{} tensors, over the reader's limit of {}", tensors.len(), limits.max_tensors),
        ));
    }
    if let Some(k) = tensors.keys().find(|k| k.len() > limits.max_key_len || k.as_str() == METADATA_KEY) {
        return Err(Error::new(
            ErrorKind::InvalidUse,
            format!("tensor key {:?} is reserved or over the length limit", k.chars().take(64).collect::<String>()),
        ));
    }
    let header = header_bytes(tensors, None, limits)?;
    let len = usize::try_from(encoded_len(&header, tensors))
        .map_err(|_| Error::new(ErrorKind::LimitExceeded, "safetensors blob does not fit in memory"))?;
    let mut out = Vec::with_capacity(len);
    write_safetensors(&mut out, &header, tensors)?;
    Ok(out)
}
