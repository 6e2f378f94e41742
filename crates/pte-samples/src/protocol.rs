//! The `pte-runner` protocol's frames (`docs/samples.md`, "Runners"): a
//! JSON header line, then, when the header says `"data": N`, exactly `N`
//! bytes of safetensors holding the tensors its values refer to. Values are
//! written and read exactly as the sidecar's index holds them.

use std::collections::BTreeMap;
use std::io::{self, BufRead, Read, Write};

use serde_json::{Map, Value as Json};

use pte_ptn::{read_safetensors_member, safetensors_to_bytes, PtnTensor};

use crate::index::ValueDoc;
use crate::model::Value;
use crate::read::resolve_values;
use crate::write::values_doc;
use crate::SampleLimits;

/// The protocol's name, sent in `hello` and echoed by the runner.
pub const PROTOCOL: &str = "pte-runner";
/// The protocol version this crate speaks.
pub const PROTOCOL_VERSION: u64 = 1;
/// The longest header line either side accepts, newline included.
pub const MAX_HEADER_LEN: usize = 16 << 20;

/// A header object.
pub(crate) type Header = Map<String, Json>;

/// Why a frame could not be read.
#[derive(Debug)]
pub(crate) enum FrameError {
    /// The stream ended before the first byte of a frame.
    Eof,
    /// Reading failed.
    Io(io::Error),
    /// The bytes are not a frame.
    Garbage(String),
}

impl From<io::Error> for FrameError {
    fn from(e: io::Error) -> Self {
        FrameError::Io(e)
    }
}

impl std::fmt::Display for FrameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FrameError::Eof => f.write_str("the stream ended"),
            FrameError::Io(e) => write!(f, "reading failed: {e}"),
            FrameError::Garbage(why) => f.write_str(why),
        }
    }
}

/// Writes one frame: `header` (with `data` set from the payload when there
/// is one) on a line, then the payload, then flushes.
pub(crate) fn write_frame(w: &mut dyn Write, mut header: Header, payload: &[u8]) -> io::Result<()> {
    if !payload.is_empty() {
        header.insert("data".into(), Json::from(payload.len()));
    }
    let mut line = serde_json::to_vec(&header).map_err(io::Error::other)?;
    line.push(b'\n');
    w.write_all(&line)?;
    w.write_all(payload)?;
    w.flush()
}

/// Reads one frame. The payload grows with the bytes that arrive, never
/// with the length the header claims.
pub(crate) fn read_frame(r: &mut dyn BufRead) -> Result<(Header, Vec<u8>), FrameError> {
    let mut line = Vec::new();
    let limit = u64::try_from(MAX_HEADER_LEN).unwrap_or(u64::MAX);
    let n = r.take(limit).read_until(b'\n', &mut line)?;
    if n == 0 {
        return Err(FrameError::Eof);
    }
    if line.last() != Some(&b'\n') {
        return Err(FrameError::Garbage(if line.len() >= MAX_HEADER_LEN {
            format!("a header line longer than {MAX_HEADER_LEN} bytes")
        } else {
            format!("the stream ended inside a header line: {}", preview(&line))
        }));
    }
    let header: Header = match serde_json::from_slice::<Json>(&line) {
        Ok(Json::Object(map)) => map,
        Ok(_) => return Err(FrameError::Garbage(format!("a header that is not a JSON object: {}", preview(&line)))),
        Err(e) => return Err(FrameError::Garbage(format!("a header that is not JSON ({e}): {}", preview(&line)))),
    };
    let size = match header.get("data") {
        None => 0,
        Some(n) => n.as_u64().ok_or_else(|| FrameError::Garbage(format!("\"data\" is {n}, not a byte count")))?,
    };
    let mut payload = Vec::new();
    let got = r.take(size).read_to_end(&mut payload)?;
    if u64::try_from(got).ok() != Some(size) {
        return Err(FrameError::Garbage(format!("the payload ended after {got} of its {size} bytes")));
    }
    Ok((header, payload))
}

/// The first bytes of a line, readable, for messages.
pub(crate) fn preview(line: &[u8]) -> String {
    let text = String::from_utf8_lossy(line.get(..line.len().min(200)).unwrap_or(line));
    let text = text.trim_end();
    if line.len() > 200 {
        format!("{text:?}...")
    } else {
        format!("{text:?}")
    }
}

/// Values as index values plus the safetensors payload of their tensors
/// (empty when there are none), tensors keyed `<prefix>.<i>`.
pub(crate) fn encode_values(values: &[Value<'_>], prefix: &str) -> Result<(Json, Vec<u8>), String> {
    let limits = SampleLimits::unlimited();
    let (docs, tensors) = values_doc(values, prefix, &limits).map_err(|e| e.to_string())?;
    let payload = if tensors.is_empty() {
        Vec::new()
    } else {
        safetensors_to_bytes(&tensors, &limits.safetensors).map_err(|e| e.to_string())?
    };
    Ok((serde_json::to_value(docs).map_err(|e| e.to_string())?, payload))
}

/// Reads the values of field `field` of a header against its payload, under
/// the sidecar's rules (default limits).
pub(crate) fn decode_values<'a>(header: &Header, field: &str, payload: &'a [u8]) -> Result<Vec<Value<'a>>, String> {
    let docs = header.get(field).ok_or_else(|| format!("the message has no {field:?}"))?;
    let docs: Vec<ValueDoc> =
        serde_json::from_value(docs.clone()).map_err(|e| format!("{field:?} is not a list of values: {e}"))?;
    let limits = SampleLimits::default();
    let tensors: BTreeMap<String, PtnTensor<'a>> = if payload.is_empty() {
        BTreeMap::new()
    } else {
        read_safetensors_member(payload, "payload", &limits.safetensors).map_err(|e| e.to_string())?
    };
    resolve_values(docs, &tensors, &limits, field).map_err(|e| e.to_string())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;
    use pte_ptn::Dtype;

    fn roundtrip(bytes: &[u8]) -> Result<(Header, Vec<u8>), FrameError> {
        read_frame(&mut io::Cursor::new(bytes))
    }

    #[test]
    fn values_survive_a_frame() {
        let t = PtnTensor::new(Dtype::F32, vec![2], vec![0, 0, 128, 63, 0, 0, 0, 64]).unwrap();
        let values = vec![
            Value::Tensor(t.clone()),
            Value::Int(-3),
            Value::Float(f64::NAN),
            Value::TensorList(vec![t.clone(), t]),
            Value::None,
        ];
        let (docs, payload) = encode_values(&values, "in").unwrap();
        let mut header = Header::new();
        header.insert("inputs".into(), docs);
        let mut out = Vec::new();
        write_frame(&mut out, header, &payload).unwrap();
        let (h, p) = roundtrip(&out).unwrap();
        assert_eq!(decode_values(&h, "inputs", &p).unwrap(), values);
    }

    #[test]
    fn bad_frames_are_named() {
        assert!(matches!(roundtrip(b""), Err(FrameError::Eof)));
        let why = |b: &[u8]| match roundtrip(b) {
            Err(FrameError::Garbage(w)) => w,
            other => panic!("{other:?}"),
        };
        assert!(why(b"{\"ok\":true").contains("inside a header"));
        assert!(why(b"hello\n").contains("not JSON"));
        assert!(why(b"[1]\n").contains("not a JSON object"));
        assert!(why(b"{\"data\":-1}\n").contains("not a byte count"));
        assert!(why(b"{\"data\":1000000000000}\nabc").contains("after 3 of"));
    }

    #[test]
    fn a_payload_must_match_its_values() {
        let t = PtnTensor::new(Dtype::I64, vec![1], 7i64.to_le_bytes().to_vec()).unwrap();
        let (_, payload) = encode_values(&[Value::Tensor(t)], "out").unwrap();
        let mut h = Header::new();
        h.insert("outputs".into(), serde_json::json!([]));
        assert!(decode_values(&h, "outputs", &payload).unwrap_err().contains("referenced by no value"));
        h.insert(
            "outputs".into(),
            serde_json::json!([{"type": "tensor", "key": "out.0", "dtype": "F32", "shape": [1]}]),
        );
        assert!(decode_values(&h, "outputs", &payload).unwrap_err().contains("declared"));
    }
}
