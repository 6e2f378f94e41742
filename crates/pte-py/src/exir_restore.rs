//! exir's `deserialize_pte_binary` over the Rust reader.
//!
//! exir moves segment data back into the program when it reads a file
//! (constants split at their offsets with the padding kept, delegate
//! segments made inline, mutable and named data handed out separately).
//! That restoration is `pte_file::exir_restore` (the one `pte dump --exir`
//! uses), done on the decoded model borrowing the input; then the model
//! becomes exir's dataclasses in one pass: every constant is copied exactly
//! once, into the `bytes` exir's `Buffer` holds. Error messages for
//! inconsistent segment tables are exir's own.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};

use crate::error::IntoPy;
use crate::exir_classes::Classes;
use crate::exir_read::Builder;

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
    let (_, region) = pte_file::program_region(bytes).py_err(None)?;
    let mut program = pte_schema::decode_program(region, &Default::default()).py_err(None)?;
    let base = pte_file::exir_segment_base(bytes);
    let restored = if base == 0 {
        None
    } else {
        let data = usize::try_from(base).ok().and_then(|b| bytes.get(b..)).unwrap_or(&[]);
        // exir raises ValueError for an inconsistent segment table, with these messages
        Some(pte_file::exir_restore(&mut program, data).map_err(|e| PyValueError::new_err(e.message().to_string()))?)
    };
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
