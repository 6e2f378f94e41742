//! `Handle`: a file's bytes (a memory map or a Python `bytes`) and its kind.
//! Its Python methods are in `handle_api`, which dispatches to the format
//! modules; those take a `Handle` from here, so neither imports the other back.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use pte_core::FileKind;

use crate::error::invalid;

/// Where the bytes live. Both owners are immutable for the handle's life.
pub(crate) enum Source {
    Map(pte_core::MappedFile),
    Bytes(Py<PyBytes>),
}

/// An open file: the bytes, the byte range holding this file (a `.bpte`'s
/// embedded program is a sub-range of its bundle) and the detected kind.
#[pyclass(module = "pte_rs._native", frozen)]
pub struct Handle {
    pub(crate) source: Arc<Source>,
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) kind: FileKind,
    pub(crate) name: Option<String>,
}

/// The lower-case name Python sees for a kind: its extension, `unknown`
/// for a program whose identifier is damaged.
pub(crate) fn kind_name(kind: FileKind) -> &'static str {
    kind.extension().unwrap_or("unknown")
}

/// Offset of `part` inside `whole`, when `part` is a sub-slice of it.
pub(crate) fn offset_in(whole: &[u8], part: &[u8]) -> Option<u64> {
    // Address arithmetic only: nothing is dereferenced.
    let off = (part.as_ptr() as usize).checked_sub(whole.as_ptr() as usize)?;
    let end = off.checked_add(part.len())?;
    (end <= whole.len()).then(|| u64::try_from(off).ok()).flatten()
}

impl Handle {
    /// The bytes of the whole source (the map or the `bytes` object).
    fn whole<'p>(&'p self, py: Python<'p>) -> &'p [u8] {
        match &*self.source {
            Source::Map(m) => m.bytes(),
            Source::Bytes(b) => b.as_bytes(py),
        }
    }

    /// Runs `f` over this file's bytes and the whole source (for offsets).
    pub(crate) fn with<T>(&self, py: Python<'_>, f: impl FnOnce(&[u8], &[u8]) -> PyResult<T>) -> PyResult<T> {
        let whole = self.whole(py);
        let bytes = whole.get(self.start..self.end).ok_or_else(|| invalid("handle range outside its source"))?;
        f(bytes, whole)
    }

    /// The file name for error messages.
    pub(crate) fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The detected kind.
    pub(crate) fn file_kind(&self) -> FileKind {
        self.kind
    }

    /// A handle on a sub-range of the same source (absolute offsets).
    pub(crate) fn sub(&self, py: Python<'_>, start: u64, len: u64) -> PyResult<Handle> {
        let start = usize::try_from(start).map_err(|_| invalid("offset too large"))?;
        let len = usize::try_from(len).map_err(|_| invalid("size too large"))?;
        let end = start.checked_add(len).ok_or_else(|| invalid("range overflows"))?;
        let kind = pte::kind_of(self.whole(py).get(start..end).ok_or_else(|| invalid("range outside source"))?);
        Ok(Handle { source: Arc::clone(&self.source), start, end, kind, name: self.name.clone() })
    }
}
