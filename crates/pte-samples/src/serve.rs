//! The runner's side of the `pte-runner` protocol: any [`Engine`] served on
//! a pair of streams, so a runtime with Rust bindings becomes a runner in a
//! few lines.

use std::io::{self, BufRead, Write};

use crate::index::ValueDoc;
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
                refuse(output, &format!("the request does not read: {why}"))?;
                continue;
            }
        };
        match request.op.as_deref().unwrap_or("") {
            "bye" => return write_frame(output, Header { ok: Some(true), ..Header::default() }, &[]),
            "hello" if request.version != Some(PROTOCOL_VERSION) => {
                refuse(output, &format!("this runner speaks {PROTOCOL} version {PROTOCOL_VERSION} only"))?
            }
            "hello" => match engine.methods() {
                Ok(methods) => {
                    let name = engine.name();
                    let header = Header {
                        ok: Some(true),
                        protocol: Some(PROTOCOL),
                        version: Some(PROTOCOL_VERSION),
                        runner: name.as_deref(),
                        methods: methods.as_deref(),
                        ..Header::default()
                    };
                    write_frame(output, header, &[])?;
                }
                Err(e) => refuse(output, &e.to_string())?,
            },
            "fresh" => match engine.fresh() {
                Ok(()) => write_frame(output, Header { ok: Some(true), ..Header::default() }, &[])?,
                Err(e) => refuse(output, &e.to_string())?,
            },
            "call" => match call(engine, request, &payload) {
                Ok((docs, data)) => {
                    write_frame(output, Header { ok: Some(true), outputs: Some(&docs), ..Header::default() }, &data)?
                }
                Err(why) => refuse(output, &why)?,
            },
            other => refuse(output, &format!("unknown op {other:?}"))?,
        }
    }
}

/// Runs one call: the outputs' values and their payload.
fn call(engine: &mut dyn Engine, request: Frame, payload: &[u8]) -> Result<(Vec<ValueDoc>, Vec<u8>), String> {
    let method = request.method.ok_or("the call names no \"method\"")?;
    let inputs = decode_values(request.inputs, "inputs", payload)?;
    let outputs = engine.execute(&method, &inputs).map_err(|e| e.to_string())?;
    encode_values(&outputs, "out")
}

fn refuse(output: &mut dyn Write, why: &str) -> io::Result<()> {
    write_frame(output, Header { ok: Some(false), error: Some(why), ..Header::default() }, &[])
}
