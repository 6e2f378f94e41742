//! A Python binary file object (anything with `write(bytes)`) as a Rust
//! writer, in pieces of a bounded size: a document of any length goes out
//! through it holding one piece at a time, never its whole text.

use std::io::Write;

use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// Bytes handed to the sink at a time.
const PIECE: usize = 64 << 10;

/// A writer over a Python object's `write`; the Python error of a failed
/// write is kept to be raised as it was.
pub(crate) struct Sink<'py> {
    target: Bound<'py, PyAny>,
    buf: Vec<u8>,
    written: u64,
    failed: Option<PyErr>,
}

impl<'py> Sink<'py> {
    pub(crate) fn new(target: Bound<'py, PyAny>) -> Self {
        Sink { target, buf: Vec::with_capacity(PIECE), written: 0, failed: None }
    }

    fn send(&mut self) -> std::io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let piece = PyBytes::new(self.target.py(), &self.buf);
        match self.target.call_method1("write", (piece,)) {
            Ok(_) => {
                self.written = self.written.saturating_add(self.buf.len() as u64);
                self.buf.clear();
                Ok(())
            }
            Err(e) => {
                self.failed = Some(e);
                Err(std::io::Error::other("the file object's write failed"))
            }
        }
    }

    /// Sends what is left and returns the bytes written, or the error that
    /// stopped it: the file object's own when its `write` raised.
    pub(crate) fn finish(mut self, result: std::io::Result<()>) -> PyResult<u64> {
        let result = result.and_then(|()| self.send());
        match (result, self.failed.take()) {
            (_, Some(e)) => Err(e),
            (Err(e), None) => Err(crate::error::invalid(e.to_string())),
            (Ok(()), None) => Ok(self.written),
        }
    }
}

impl Write for Sink<'_> {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        if self.failed.is_some() {
            return Err(std::io::Error::other("the file object's write failed"));
        }
        self.buf.extend_from_slice(data);
        if self.buf.len() >= PIECE {
            self.send()?;
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.send()
    }
}
