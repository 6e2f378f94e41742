//! What every kind offers beside the `.pte` program: dump, verify, and the `.ptd`, `.bpte` and `.ptn` views.

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::error::{invalid, IntoPy};
use crate::handle::{offset_in, Handle};

/// `(key, dtype, sizes, dim_order, offset, size)` of a `.ptd` entry.
pub(crate) type PtdEntry = (String, Option<String>, Option<Vec<i32>>, Option<Vec<u32>>, Option<u64>, usize);

/// `(key, dtype, shape, offset, copy, size)`: `offset` when the bytes lie in
/// the source as stored, else `copy` holds them (a compressed member).
pub(crate) type PtnEntry<'py> = (String, String, Vec<u64>, Option<u64>, Option<Bound<'py, PyBytes>>, usize);

/// What `pte dump` prints for each kind, as compact JSON text. A program
/// and a bundle are written as they are walked: no JSON tree beside the text.
pub(crate) fn dump(h: &Handle, bytes: &[u8]) -> PyResult<String> {
    let dump = pte::Dump::read(h.file_kind(), bytes).py_err(h.name())?;
    let mut out = Vec::new();
    dump.write(&mut out, false).map_err(|e| invalid(e.to_string()))?;
    String::from_utf8(out).map_err(|e| invalid(e.to_string()))
}

/// `pte verify --json`'s document for the file, with `ptd` data files
/// linked: the same door (`pte::verify`) the CLI goes through.
pub(crate) fn verify(h: &Handle, bytes: &[u8], ptd: &[std::path::PathBuf]) -> PyResult<String> {
    let maps = ptd
        .iter()
        .map(|p| {
            let name = p.display().to_string();
            pte_core::MappedFile::open(p).py_err(Some(&name)).map(|m| (name, m))
        })
        .collect::<PyResult<Vec<_>>>()?;
    let data: Vec<pte::DataFile<'_>> = maps.iter().map(|(name, m)| pte::DataFile { name, bytes: m.bytes() }).collect();
    // the handle's kind was recognised when it was opened (a damaged program: Unknown)
    let report = pte::verify_as(h.file_kind(), bytes, &data).map_err(|e| match e {
        pte::Unreadable::Program(e) => crate::error::to_py(e, h.name()),
        pte::Unreadable::Data { index, error } => crate::error::to_py(error, maps.get(index).map(|(n, _)| n.as_str())),
    })?;
    serde_json::to_string(&pte::Verdict::from(&report)).map_err(|e| invalid(e.to_string()))
}

/// Every key of a `.ptd` with its layout and absolute byte range.
pub(crate) fn ptd_entries(h: &Handle, bytes: &[u8], whole: &[u8]) -> PyResult<Vec<PtdEntry>> {
    let ptd = pte_file::ptd::PtdFile::from_bytes(bytes).py_err(h.name())?;
    let mut out = vec![];
    for key in ptd.keys() {
        let Some((layout, data)) = ptd.get(key).py_err(h.name())? else { continue };
        let dtype = layout.map(|l| l.scalar_type.name().map_or_else(|| l.scalar_type.0.to_string(), str::to_string));
        out.push((
            key.to_string(),
            dtype,
            layout.and_then(|l| l.sizes.clone()),
            // numbers, not a `bytes` object: pyo3 would hand a Vec<u8> over as bytes
            layout.and_then(|l| l.dim_order.as_ref().map(|d| d.iter().map(|&x| u32::from(x)).collect())),
            offset_in(whole, data),
            data.len(),
        ));
    }
    Ok(out)
}

/// Where the embedded program of a `.bpte` lies in the source.
pub(crate) fn bpte_program(h: &Handle, bytes: &[u8], whole: &[u8]) -> PyResult<(u64, u64)> {
    // read in place: the cases of a large bundle are never decoded here
    let program = pte_file::bpte::BundledFile::program_in(bytes).py_err(h.name())?;
    let off = offset_in(whole, program).ok_or_else(|| invalid("embedded program not inside the bundle"))?;
    Ok((off, u64::try_from(program.len()).unwrap_or(u64::MAX)))
}

/// The owner tensors of a `.ptn` (aliases resolve to them), zero-copy when stored.
pub(crate) fn ptn_tensors<'py>(
    py: Python<'py>,
    h: &Handle,
    bytes: &[u8],
    whole: &[u8],
) -> PyResult<Vec<PtnEntry<'py>>> {
    let ptn = pte_ptn::PtnFile::from_bytes(bytes).py_err(h.name())?;
    let mut out = vec![];
    for (key, t) in &ptn.tensors {
        let data: &[u8] = &t.data;
        let off = offset_in(whole, data);
        let copy = off.is_none().then(|| PyBytes::new(py, data));
        out.push((key.clone(), pte_ptn::dtype_code(t.dtype), t.shape.clone(), off, copy, data.len()));
    }
    for (alias, owner) in &ptn.aliases {
        if let Some(t) = ptn.tensors.get(owner) {
            let data: &[u8] = &t.data;
            let off = offset_in(whole, data);
            let copy = off.is_none().then(|| PyBytes::new(py, data));
            out.push((alias.clone(), pte_ptn::dtype_code(t.dtype), t.shape.clone(), off, copy, data.len()));
        }
    }
    Ok(out)
}

/// The selected-operators YAML of the programs at `paths` (`.pte` or
/// `.bpte`), each named in `debug_info` as given, as `pte ops --yaml` prints it.
#[pyfunction]
pub(crate) fn selected_operators(paths: Vec<std::path::PathBuf>) -> PyResult<String> {
    let mut union = pte_analysis::operators::OperatorUnion::default();
    for p in &paths {
        let name = p.display().to_string();
        let map = pte_core::MappedFile::open(p).py_err(Some(&name))?;
        let kind = pte::kind_of(map.bytes());
        let ops = if kind.is_bpte() {
            pte_analysis::operators::of_bundle(map.bytes())
        } else if kind.is_ptn() {
            Err(pte_core::Error::new(
                pte_core::ErrorKind::InvalidUse,
                "a .ptn package's native graph runs without ExecuTorch kernels, so it has no selected-operators file",
            ))
        } else {
            pte_analysis::operators::of_program(map.bytes())
        }
        .py_err(Some(&name))?;
        union.add(&name, &ops);
    }
    Ok(union.to_yaml())
}
