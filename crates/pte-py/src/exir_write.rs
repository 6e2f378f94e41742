//! exir's `serialize_pte_binary` on the Rust model: the Python objects are
//! read into `pte_file::ExirParts` here, and `pte_file::exir_serialize`
//! (which owns exir's layout decisions and their arithmetic) lays out the
//! file, written once into the returned `bytes`.

use std::borrow::Cow;

use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use pte_file::{ExirNamed, ExirOptions, ExirParts};

use crate::error::{int_arg, opt_int_arg, IntoPy};
use crate::exir_classes::Classes;
use crate::exir_model::{buffer_bytes, bytes_of, Reader};

/// exir raises `ValueError` where it refuses a program; the library says
/// `InvalidUse` for the same refusals, in the same words.
fn as_exir_error(e: pte_file::Error) -> PyErr {
    if e.kind() == pte_file::ErrorKind::InvalidUse {
        PyValueError::new_err(e.message().to_string())
    } else {
        crate::error::to_py(e, None)
    }
}

/// `PTEFile.named_data` (exir's `NamedDataStoreOutput`): its entries in key
/// order and the buffers they point into.
/// Named entries and the buffers they name.
type Named = (Vec<ExirNamed>, Vec<Cow<'static, [u8]>>);

fn named_parts(named: &Bound<'_, PyAny>) -> PyResult<Named> {
    let py = named.py();
    let buffers = named.getattr(intern!(py, "buffers"))?;
    let entries = named.getattr(intern!(py, "pte_data"))?;
    let entries = entries.cast::<PyDict>()?;
    let mut out = Vec::with_capacity(entries.len());
    let mut used: Vec<usize> = vec![];
    for (key, entry) in entries.iter() {
        let buffer_index: usize = entry.getattr(intern!(py, "buffer_index"))?.extract()?;
        let alignment: Option<u64> = entry.getattr(intern!(py, "alignment"))?.extract()?;
        if !used.contains(&buffer_index) {
            used.push(buffer_index);
        }
        out.push(ExirNamed { key: key.extract()?, buffer_index, alignment });
    }
    // Only the buffers some key names are read (exir ignores the others),
    // each once; entries are renumbered to the list read.
    let mut read = Vec::with_capacity(used.len());
    for &i in &used {
        read.push(Cow::Owned(bytes_of(&buffers.get_item(i)?)?));
    }
    for e in &mut out {
        e.buffer_index = used.iter().position(|&u| u == e.buffer_index).unwrap_or(usize::MAX);
    }
    Ok((out, read))
}

/// exir's `serialize_pte_binary(pte_file, ...)`: the file's bytes.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (pte_file, schema, compile_spec, extract_delegate_segments, segment_alignment,
    constant_tensor_alignment, delegate_alignment))]
pub(crate) fn exir_serialize<'py>(
    py: Python<'py>,
    pte_file: &Bound<'py, PyAny>,
    schema: &Bound<'py, PyAny>,
    compile_spec: &Bound<'py, PyAny>,
    extract_delegate_segments: bool,
    #[pyo3(from_py_with = int_arg::<u64>)] segment_alignment: u64,
    #[pyo3(from_py_with = int_arg::<u32>)] constant_tensor_alignment: u32,
    #[pyo3(from_py_with = opt_int_arg::<u32>)] delegate_alignment: Option<u32>,
) -> PyResult<Bound<'py, PyBytes>> {
    if segment_alignment == 0 {
        return Err(PyValueError::new_err("segment_alignment must be positive"));
    }
    let classes = Classes::load(schema, compile_spec)?;
    let reader = Reader { c: &classes };
    let program = reader.program(&pte_file.getattr(intern!(py, "program"))?)?;
    let mutable = pte_file.getattr(intern!(py, "mutable_data"))?;
    let mutable = if mutable.is_none() {
        None
    } else {
        let buffers = mutable
            .try_iter()?
            .map(|b| {
                let b = b?;
                match buffer_bytes(&b)? {
                    Some(v) => Ok(Cow::Owned(v)),
                    // `None` storage: bytes_of raises the TypeError it did before.
                    None => bytes_of(&b.getattr(intern!(py, "storage"))?).map(Cow::Owned),
                }
            })
            .collect::<PyResult<Vec<_>>>()?;
        Some(buffers)
    };
    let named = pte_file.getattr(intern!(py, "named_data"))?;
    let (named, named_buffers) = if named.is_none() {
        (None, vec![])
    } else {
        let (entries, buffers) = named_parts(&named)?;
        (Some(entries), buffers)
    };
    let options =
        ExirOptions { extract_delegate_segments, segment_alignment, constant_tensor_alignment, delegate_alignment };
    let file = pte_file::exir_serialize(ExirParts { program, mutable, named, named_buffers }, &options)
        .map_err(as_exir_error)?;
    // The output starts zeroed, so the padding between segments is written
    // by not writing; each piece is copied once, into place.
    PyBytes::new_with(py, file.len(), |buf| file.fill(buf).py_err(None))
}
