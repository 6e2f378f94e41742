//! The `pte-runner` protocol's frames (`docs/samples.md`, "Runners"): a
//! JSON header line, then, when the header says `"data": N`, exactly `N`
//! bytes of safetensors holding the tensors its values refer to. Values are
//! written and read exactly as the sidecar's index holds them.

use std::collections::BTreeMap;
use std::io::{self, BufRead, Read, Write};

use serde::Serialize;

use pte_ptn::{dtype_code, read_safetensors_member, safetensors_to_bytes, PtnTensor, SUPPORTED_DTYPES};

use crate::index::ValueDoc;
use crate::model::Value;
use crate::read::resolve_values;
use crate::wire::{escaped, Frame};
use crate::write::values_doc;
use crate::SampleLimits;

/// The protocol's name, sent in `hello` and echoed by the runner.
pub const PROTOCOL: &str = "pte-runner";
/// The protocol version this crate speaks.
pub const PROTOCOL_VERSION: u64 = 1;
/// The longest header line either side accepts, newline included.
pub const MAX_HEADER_LEN: usize = 16 << 20;

/// A header as either side writes it, serialized straight into its line
/// (no JSON tree in between); fields left `None` are not written, `data`
/// comes last.
#[derive(Serialize, Default)]
pub(crate) struct Header<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub op: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ok: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub protocol: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runner: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub methods: Option<&'a [String]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inputs: Option<&'a [ValueDoc]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outputs: Option<&'a [ValueDoc]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<u64>,
}

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

/// One frame's header line, newline included: `header` with `data` set to
/// `payload_len` when there is a payload.
pub(crate) fn header_line(mut header: Header<'_>, payload_len: usize) -> io::Result<Vec<u8>> {
    if payload_len > 0 {
        header.data = Some(u64::try_from(payload_len).map_err(io::Error::other)?);
    }
    let mut line = Vec::with_capacity(128);
    serde_json::to_writer(&mut line, &header).map_err(io::Error::other)?;
    line.push(b'\n');
    Ok(line)
}

/// Writes one frame: the header line, then the payload, then flushes.
pub(crate) fn write_frame(w: &mut dyn Write, header: Header<'_>, payload: &[u8]) -> io::Result<()> {
    w.write_all(&header_line(header, payload.len())?)?;
    w.write_all(payload)?;
    w.flush()
}

/// Reads one frame. The header is parsed into [`Frame`] under its bounds;
/// then the payload is read only when it fits what the values it carries
/// need (their tensors' bytes, dtype × shape, plus a safetensors header for
/// them) and, when `budget()` (asked once the header is read) gives a
/// number, only when those tensors' bytes are at most that: a larger claim is refused before a byte of it is read.
pub(crate) fn read_frame(
    r: &mut dyn BufRead,
    budget: &dyn Fn() -> Option<u64>,
) -> Result<(Frame, Vec<u8>), FrameError> {
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
    let header: Frame = match serde_json::from_slice(&line) {
        Ok(frame) => frame,
        Err(e) if e.classify() == serde_json::error::Category::Data => {
            return Err(FrameError::Garbage(format!("a header that does not read ({e}): {}", preview(&line))))
        }
        Err(e) => return Err(FrameError::Garbage(format!("a header that is not JSON ({e}): {}", preview(&line)))),
    };
    drop(line);
    let size = header.data.unwrap_or(0);
    let docs = header.outputs.as_deref().or(header.inputs.as_deref()).unwrap_or(&[]);
    let (needed, most) = payload_bounds(docs).map_err(FrameError::Garbage)?;
    if let Some(budget) = budget().filter(|&b| needed > b) {
        return Err(FrameError::Garbage(format!(
            "its values declare {needed} bytes of tensors where the recorded ones hold {budget}"
        )));
    }
    if size > most {
        return Err(FrameError::Garbage(format!(
            "\"data\" is {size} bytes where the values it carries need at most {most}"
        )));
    }
    // room for all of it at once (it was bounded above), so it is read in one piece
    let mut payload = Vec::with_capacity(usize::try_from(size).unwrap_or(0).min(MAX_HEADER_LEN.saturating_mul(4)));
    let got = r.take(size).read_to_end(&mut payload)?;
    if u64::try_from(got).ok() != Some(size) {
        return Err(FrameError::Garbage(format!("the payload ended after {got} of its {size} bytes")));
    }
    Ok((header, payload))
}

/// The bytes the tensors of `docs` hold (dtype × shape), and the most a
/// payload carrying them may take: those bytes plus a generous safetensors
/// header (its length, one entry per tensor, padding).
fn payload_bounds(docs: &[ValueDoc]) -> Result<(u64, u64), String> {
    let mut bytes = 0u64;
    let mut header = 8u64.saturating_add(4096);
    let tensors = docs.iter().flat_map(|d| match d {
        ValueDoc::Tensor { key, dtype, shape } => vec![(key, dtype, shape)],
        ValueDoc::TensorList { items } => items.iter().map(|t| (&t.key, &t.dtype, &t.shape)).collect(),
        _ => Vec::new(),
    });
    for (key, dtype, shape) in tensors {
        let size = SUPPORTED_DTYPES
            .iter()
            .find(|d| dtype_code(**d) == *dtype)
            .map(|d| u64::try_from(d.bitsize().div_ceil(8)).unwrap_or(u64::MAX))
            .ok_or_else(|| format!("a tensor of unknown dtype {}", escaped(dtype, 64)))?;
        let n = shape.iter().try_fold(size, |acc, &d| acc.checked_mul(d));
        bytes = n.and_then(|n| bytes.checked_add(n)).ok_or("tensors declared larger than 2^64 bytes")?;
        let entry = u64::try_from(key.len().saturating_add(shape.len().saturating_mul(24))).unwrap_or(u64::MAX);
        header = header.saturating_add(entry).saturating_add(128);
    }
    Ok((bytes, bytes.saturating_add(header)))
}

/// The first bytes of a line, readable and quoted, for messages.
pub(crate) fn preview(line: &[u8]) -> String {
    let text = String::from_utf8_lossy(line.get(..line.len().min(200)).unwrap_or(line));
    let text = pte_core::style::quoted(text.trim_end());
    if line.len() > 200 {
        format!("{text}...")
    } else {
        text
    }
}

/// Values as index values plus the safetensors payload of their tensors
/// (empty when there are none), tensors keyed `<prefix>.<i>`: the payload
/// is the one copy of their bytes.
pub(crate) fn encode_values(values: &[Value<'_>], prefix: &str) -> Result<(Vec<ValueDoc>, Vec<u8>), String> {
    let limits = SampleLimits::unlimited();
    let (docs, tensors) = values_doc(values, prefix, &limits).map_err(|e| e.to_string())?;
    let payload = if tensors.is_empty() {
        Vec::new()
    } else {
        safetensors_to_bytes(&tensors, &limits.safetensors).map_err(|e| e.to_string())?
    };
    Ok((docs, payload))
}

/// Reads the values `docs` of field `field` of a header against its
/// payload, under the sidecar's rules (default limits).
pub(crate) fn decode_values<'a>(
    docs: Option<Vec<ValueDoc>>,
    field: &str,
    payload: &'a [u8],
) -> Result<Vec<Value<'a>>, String> {
    let docs = docs.ok_or_else(|| format!("the message has no {field:?}"))?;
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

    fn roundtrip(bytes: &[u8]) -> Result<(Frame, Vec<u8>), FrameError> {
        read_frame(&mut io::Cursor::new(bytes), &|| None)
    }

    fn why(b: &[u8]) -> String {
        match roundtrip(b) {
            Err(FrameError::Garbage(w)) => w,
            Err(e) => panic!("{e}"),
            Ok(_) => panic!("{:?} read", String::from_utf8_lossy(b)),
        }
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
            Value::String("x".into()),
            Value::Bool(true),
        ];
        let (docs, payload) = encode_values(&values, "in").unwrap();
        let mut out = Vec::new();
        write_frame(&mut out, Header { inputs: Some(&docs), ..Header::default() }, &payload).unwrap();
        let (h, p) = roundtrip(&out).unwrap();
        assert_eq!(decode_values(h.inputs, "inputs", &p).unwrap(), values);
    }

    /// A header is written straight from its fields, in their order (`op`
    /// first, `data` last), with no JSON tree sorted by key in between.
    #[test]
    fn a_header_is_written_field_by_field() {
        let t = PtnTensor::new(Dtype::F32, vec![1], vec![0, 0, 128, 63]).unwrap();
        let (docs, payload) = encode_values(&[Value::Tensor(t), Value::Int(2)], "in").unwrap();
        let header = Header { op: Some("call"), method: Some("forward"), inputs: Some(&docs), ..Header::default() };
        let line = String::from_utf8(header_line(header, payload.len()).unwrap()).unwrap();
        let inputs = r#"[{"type":"tensor","key":"in.0","dtype":"F32","shape":[1]},{"type":"int","value":2}]"#;
        assert_eq!(
            line,
            format!("{{\"op\":\"call\",\"method\":\"forward\",\"inputs\":{inputs},\"data\":{}}}\n", payload.len())
        );
        let bye = header_line(Header { ok: Some(true), ..Header::default() }, 0).unwrap();
        assert_eq!(bye, b"{\"ok\":true}\n");
    }

    #[test]
    fn bad_frames_are_named() {
        assert!(matches!(roundtrip(b""), Err(FrameError::Eof)));
        assert!(why(b"{\"ok\":true").contains("inside a header"));
        assert!(why(b"hello\n").contains("not JSON"));
        assert!(why(b"[1]\n").contains("does not read"));
        assert!(why(b"{\"data\":-1}\n").contains("does not read"));
        assert!(why(b"{\"data\":20, \"outputs\": []}\nabc").contains("after 3 of its 20"));
    }

    /// A payload is read only as far as the values it carries need, and
    /// never past what the caller expects: the claim is refused unread.
    #[test]
    fn a_payload_is_bounded_by_its_declared_values_before_it_is_read() {
        let tensor = r#"{"type":"tensor","key":"out.0","dtype":"F32","shape":[2]}"#;
        let (needed, most) =
            payload_bounds(&roundtrip(format!("{{\"outputs\":[{tensor}]}}\n").as_bytes()).unwrap().0.outputs.unwrap())
                .unwrap();
        assert_eq!(needed, 8);
        assert!(most > needed && most < 8 << 10, "{most}");
        let claim = format!("{{\"ok\":true,\"outputs\":[{tensor}],\"data\":1099511627776}}\n");
        assert!(
            why(claim.as_bytes()).contains("\"data\" is 1099511627776 bytes where the values it carries need at most")
        );
        let huge = r#"{"ok":true,"outputs":[{"type":"tensor","key":"o","dtype":"U8","shape":[1099511627776]}],"data":1099511627800}"#;
        let mut r = io::Cursor::new(format!("{huge}\n"));
        match read_frame(&mut r, &|| Some(8)) {
            Err(FrameError::Garbage(w)) => {
                assert!(w.contains("declare 1099511627776 bytes of tensors where the recorded ones hold 8"), "{w}")
            }
            other => panic!("{:?}", other.err()),
        }
        assert_eq!(r.position(), huge.len() as u64 + 1, "nothing past the header was read");
        let overflow = r#"{"outputs":[{"type":"tensor","key":"o","dtype":"F64","shape":[4294967296,4294967296]}]}"#;
        assert!(why(format!("{overflow}\n").as_bytes()).contains("larger than 2^64"));
    }

    /// Counts are refused while the header is parsed, at the limit.
    #[test]
    fn header_counts_stop_at_their_limits() {
        let none = r#"{"type":"none"}"#;
        let many = |n: usize| format!("{{\"outputs\":[{}]}}\n", vec![none; n].join(","));
        assert!(roundtrip(many(4096).as_bytes()).is_ok());
        assert!(why(many(4097).as_bytes()).contains("more than 4096 values"));
        let names = |n: usize| format!("{{\"methods\":[{}]}}\n", vec!["\"m\""; n].join(","));
        assert_eq!(
            roundtrip(names(crate::MAX_METHODS).as_bytes()).unwrap().0.methods.unwrap().len(),
            crate::MAX_METHODS
        );
        assert!(why(names(crate::MAX_METHODS + 1).as_bytes()).contains("more than 4096 method names"));
        let dims = format!(
            r#"{{"outputs":[{{"type":"tensor","key":"k","dtype":"U8","shape":[{}]}}]}}"#,
            vec!["1"; 1 << 20].join(",")
        );
        assert!(why(format!("{dims}\n").as_bytes()).contains("the values take more than"));
        let item = r#"{"key":"k","dtype":"U8","shape":[]}"#;
        let list = format!(r#"{{"outputs":[{{"type":"tensor_list","items":[{}]}}]}}"#, vec![item; 4097].join(","));
        assert!(why(format!("{list}\n").as_bytes()).contains("more than 4096 tensors in a list"));
        for bad in [
            r#"{"outputs":[{"type":"int","value":[1,2]}]}"#,
            r#"{"outputs":[{"type":"tensor","key":"k","dtype":"U8","shape":[],"value":1}]}"#,
            r#"{"outputs":[{"key":"k","dtype":"U8","shape":[]}]}"#,
            r#"{"outputs":[{"type":"tensor_list","items":[{"type":"tensor","key":"k","dtype":"U8","shape":[]}]}]}"#,
            r#"{"outputs":[{"type":"none","colour":1}]}"#,
            r#"{"outputs":[{"type":"int","value":1,"value":2}]}"#,
        ] {
            assert!(why(format!("{bad}\n").as_bytes()).contains("does not read"), "{bad}");
        }
    }

    #[test]
    fn runner_text_is_one_escaped_capped_line() {
        assert_eq!(escaped("a\nb\u{1b}[31mc\"", 100), r#"a\nb\u001b[31mc""#);
        let long = "é".repeat(1000);
        let shown = escaped(&long, 11);
        assert_eq!(shown, format!("{}... (2000 bytes in all)", "é".repeat(5)));
        let error = format!("{{\"ok\":false,\"error\":\"{}\\n\\u001b[2J\"}}\n", "x".repeat(100_000));
        let text = roundtrip(error.as_bytes()).unwrap().0.error.unwrap();
        assert!(text.len() < 1100 && text.ends_with("... (100005 bytes in all)") && !text.contains('\n'), "{text}");
    }

    #[test]
    fn a_payload_must_match_its_values() {
        let t = PtnTensor::new(Dtype::I64, vec![1], 7i64.to_le_bytes().to_vec()).unwrap();
        let (_, payload) = encode_values(&[Value::Tensor(t)], "out").unwrap();
        assert!(decode_values(Some(vec![]), "outputs", &payload).unwrap_err().contains("referenced by no value"));
        let docs = vec![ValueDoc::Tensor { key: "out.0".into(), dtype: "F32".into(), shape: vec![1] }];
        assert!(decode_values(Some(docs), "outputs", &payload).unwrap_err().contains("declared"));
    }
}
