//! The runner's side of the `pte-runner` protocol: any [`Engine`] served on
//! a pair of streams, so a runtime with Rust bindings becomes a runner in a
//! few lines.

use std::io::{self, BufRead, Write};

use serde_json::json;

use crate::protocol::{decode_values, encode_values, read_frame, write_frame, FrameError, Header};
use crate::protocol::{PROTOCOL, PROTOCOL_VERSION};
use crate::verify::Engine;
use crate::wire::Frame;

/// Serves `engine` until `bye` or the end of `input`: each request read from
/// `input` is answered on `output`. A request the engine fails, or one that
/// does not read, is answered with `"ok": false` and its reason; only I/O
/// errors on the streams end the loop with `Err`.
///
/// ```
/// use pte_samples::*;
/// struct Nothing;
/// impl Engine for Nothing {
///     fn fresh(&mut self) -> RunResult<()> { Ok(()) }
///     fn execute(&mut self, _: &str, _: &[Value<'_>]) -> RunResult<Vec<Value<'static>>> { Ok(vec![Value::None]) }
/// }
/// let requests = b"{\"op\":\"hello\",\"protocol\":\"pte-runner\",\"version\":1}\n{\"op\":\"bye\"}\n";
/// let mut replies = Vec::new();
/// serve(&mut Nothing, &mut &requests[..], &mut replies)?;
/// let text = String::from_utf8(replies).unwrap();
/// assert!(text.lines().all(|l| l.contains("\"ok\":true")));
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn serve(engine: &mut dyn Engine, input: &mut dyn BufRead, output: &mut dyn Write) -> io::Result<()> {
    loop {
        let (request, payload) = match read_frame(input, &|| None) {
            Ok(frame) => frame,
            Err(FrameError::Eof) => return Ok(()),
            Err(FrameError::Io(e)) => return Err(e),
            Err(FrameError::Garbage(why)) => {
                reply(output, Err(format!("the request does not read: {why}")), &[])?;
                continue;
            }
        };
        if request.op.as_deref() == Some("bye") {
            return reply(output, Ok(Header::new()), &[]);
        }
        let mut out_payload = Vec::new();
        let answer = answer(engine, request, &payload, &mut out_payload);
        reply(output, answer, &out_payload)?;
    }
}

fn answer(engine: &mut dyn Engine, request: Frame, payload: &[u8], out: &mut Vec<u8>) -> Result<Header, String> {
    let mut header = Header::new();
    match request.op.as_deref().unwrap_or("") {
        "hello" => {
            if request.version != Some(PROTOCOL_VERSION) {
                return Err(format!("this runner speaks {PROTOCOL} version {PROTOCOL_VERSION} only"));
            }
            header.insert("protocol".into(), json!(PROTOCOL));
            header.insert("version".into(), json!(PROTOCOL_VERSION));
            header.insert("runner".into(), json!(engine.name()));
            header.insert("methods".into(), json!(engine.methods().map_err(|e| e.to_string())?));
        }
        "fresh" => engine.fresh().map_err(|e| e.to_string())?,
        "call" => {
            let method = request.method.ok_or("the call names no \"method\"")?;
            let inputs = decode_values(request.inputs, "inputs", payload)?;
            let outputs = engine.execute(&method, &inputs).map_err(|e| e.to_string())?;
            let (docs, data) = encode_values(&outputs, "out")?;
            header.insert("outputs".into(), docs);
            *out = data;
        }
        other => return Err(format!("unknown op {other:?}")),
    }
    Ok(header)
}

fn reply(output: &mut dyn Write, answer: Result<Header, String>, payload: &[u8]) -> io::Result<()> {
    match answer {
        Ok(mut h) => {
            h.insert("ok".into(), json!(true));
            write_frame(output, h, payload)
        }
        Err(why) => {
            let mut h = Header::new();
            h.insert("ok".into(), json!(false));
            h.insert("error".into(), json!(why));
            write_frame(output, h, &[])
        }
    }
}
