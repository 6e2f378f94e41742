//! The Python methods of `Handle`: each runs over the handle's bytes and
//! hands them to the module of the file's format.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use pte_core::FileKind;

use crate::error::{invalid, opt_int_arg, IntoPy};
use crate::handle::{kind_name, Handle, Source};

/// The kind of an ExecuTorch file, or the refusal `pte` gives any other
/// file, in the library's words ([`pte::describe`]). A program whose
/// identifier is damaged is still taken (as an unknown kind) so that its
/// verify names the damage by its rule, as `pte verify` does.
fn recognise(bytes: &[u8], name: &str) -> PyResult<FileKind> {
    match pte::identify(bytes) {
        pte::Identity::Foreign(_) => Err(crate::error::raise_invalid(format!("{name}: {}", pte::describe(bytes)))),
        identity => Ok(identity.named_kind()),
    }
}

#[pymethods]
impl Handle {
    /// Maps the file at `path` read-only and detects its kind from its
    /// content; refuses a file that is no ExecuTorch file, naming what it is.
    #[staticmethod]
    fn open(path: std::path::PathBuf) -> PyResult<Handle> {
        let name = path.display().to_string();
        let map = pte_core::MappedFile::open(&path).py_err(Some(&name))?;
        let kind = recognise(map.bytes(), &name)?;
        let end = map.bytes().len();
        Ok(Handle { source: Arc::new(Source::Map(map)), start: 0, end, kind, name: Some(name) })
    }

    /// Wraps a Python `bytes` object (kept alive, never copied); refuses
    /// bytes that are no ExecuTorch file, naming what they are.
    #[staticmethod]
    fn from_bytes(data: Bound<'_, PyBytes>) -> PyResult<Handle> {
        let end = data.as_bytes().len();
        let kind = recognise(data.as_bytes(), "<bytes>")?;
        Ok(Handle { source: Arc::new(Source::Bytes(data.unbind())), start: 0, end, kind, name: None })
    }

    /// `"pte"`, `"ptd"`, `"ptn"`, `"bpte"` or `"unknown"`.
    #[getter]
    fn kind(&self) -> &'static str {
        kind_name(self.kind)
    }

    /// `(start, end)`: this file's byte range inside its source.
    #[getter]
    fn range(&self) -> (usize, usize) {
        (self.start, self.end)
    }

    /// Whether the bytes come from a memory map (else a `bytes` object).
    #[getter]
    fn mapped(&self) -> bool {
        matches!(&*self.source, Source::Map(_))
    }

    /// The file as JSON text, the same document `pte dump` prints.
    fn dump_json(&self, py: Python<'_>) -> PyResult<String> {
        self.with(py, |bytes, _| crate::kinds::dump(self, bytes))
    }

    /// Verifies the file against its format's rules, with `ptd` data files
    /// linked to a program: the JSON text `pte verify --json` prints.
    #[pyo3(signature = (ptd=Vec::new()))]
    fn verify_json(&self, py: Python<'_>, ptd: Vec<std::path::PathBuf>) -> PyResult<String> {
        self.with(py, |bytes, _| crate::kinds::verify(self, bytes, &ptd))
    }

    /// The operators (name, overload, calls, kernel keys) and delegates (id,
    /// calls) of each method, as `pte ops --json` gives them for one file.
    /// Returned as JSON text.
    fn operators_json(&self, py: Python<'_>) -> PyResult<String> {
        let ops = self.with(py, |bytes, _| pte::operators(self.kind, bytes).py_err(self.name()))?;
        serde_json::to_string(&ops).map_err(|e| invalid(e.to_string()))
    }

    /// The memory plan of a program, as JSON text: the object `pte memory
    /// --json` prints, cut to one `method` when given. A `.bpte` answers for
    /// the program it bundles; other kinds have no plan and raise.
    #[pyo3(signature = (method=None))]
    fn memory_json(&self, py: Python<'_>, method: Option<&str>) -> PyResult<String> {
        let plan = self.with(py, |bytes, _| pte::memory(self.kind, bytes, method).py_err(self.name()))?;
        serde_json::to_string(&plan).map_err(|e| invalid(e.to_string()))
    }

    /// Where the bytes go, as JSON text: the object `pte size --json` prints,
    /// grouped `by` (`"kind"`, `"tensor"`, `"operator"`, `"delegate"`) and cut
    /// to the `top` largest parts plus one `other` part.
    #[pyo3(signature = (by=None, top=None))]
    fn size_json(
        &self,
        py: Python<'_>,
        by: Option<&str>,
        #[pyo3(from_py_with = opt_int_arg::<usize>)] top: Option<usize>,
    ) -> PyResult<String> {
        use pte_analysis::size::By;
        let by = match by {
            None => None,
            Some("kind") => Some(By::Kind),
            Some("tensor") => Some(By::Tensor),
            Some("operator") => Some(By::Operator),
            Some("delegate") => Some(By::Delegate),
            Some(other) => {
                return Err(invalid(format!(
                    "by={other:?}: expected \"kind\", \"tensor\", \"operator\" or \"delegate\""
                )))
            }
        };
        let report = self.with(py, |bytes, _| pte::size(self.kind, bytes).py_err(self.name()))?;
        let report = match by {
            Some(b) => report.grouped(b),
            None => report,
        };
        let report = match top {
            Some(n) => report.top(n),
            None => report,
        };
        serde_json::to_string(&report).map_err(|e| invalid(e.to_string()))
    }

    /// The summary of any kind, as JSON text: what `pte info --json` prints
    /// (with `tensors`, `pte info --tensors --json`).
    #[pyo3(signature = (tensors=false))]
    fn summary_json(&self, py: Python<'_>, tensors: bool) -> PyResult<String> {
        self.with(py, |bytes, whole| crate::program::summary(self, bytes, whole, tensors))
    }

    /// Writes `pte info --json`'s text to `sink` (a binary file object) in
    /// bounded pieces, never holding the whole text; returns its length.
    #[pyo3(signature = (sink, tensors=false))]
    fn write_summary(&self, py: Python<'_>, sink: Bound<'_, PyAny>, tensors: bool) -> PyResult<u64> {
        self.with(py, |bytes, whole| crate::program::write_summary(self, bytes, whole, sink, tensors))
    }

    /// The constant buffers of a `.pte` (with `mutable`, the mutable
    /// buffers' initial values), index 0 left out: `(rows, users)`, rows
    /// packed as little-endian `u64` quadruples (index, absolute offset or
    /// 2^64-1 when outside the source, size, user or 2^64-1), users the JSON
    /// text of the tensors the rows number (the first using each buffer).
    #[pyo3(signature = (mutable=false))]
    fn pte_buffers<'py>(&self, py: Python<'py>, mutable: bool) -> PyResult<(Bound<'py, PyBytes>, String)> {
        self.with(py, |bytes, whole| crate::program::buffers(py, self, bytes, whole, mutable))
    }

    /// The named data of a `.pte`: `(keys, rows)`, rows packed as `u64`
    /// triples (segment, absolute offset or 2^64-1, size), one per key.
    fn pte_named<'py>(&self, py: Python<'py>) -> PyResult<(Vec<String>, Bound<'py, PyBytes>)> {
        self.with(py, |bytes, whole| crate::program::named(py, self, bytes, whole))
    }

    /// The delegates' processed blobs of a `.pte` with absolute offsets, as JSON text.
    fn pte_delegates(&self, py: Python<'_>) -> PyResult<String> {
        self.with(py, |bytes, whole| crate::program::delegates(self, bytes, whole))
    }

    /// The segment table of a `.pte`: `u64` pairs (absolute offset or
    /// 2^64-1 when outside the source, size), 16 bytes a segment.
    fn pte_segments<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        self.with(py, |bytes, whole| crate::program::segments(py, self, bytes, whole))
    }

    /// Writes this `.pte` to `path` atomically with the given layout options.
    #[pyo3(signature = (path, options))]
    fn save_pte(
        &self,
        py: Python<'_>,
        path: std::path::PathBuf,
        #[pyo3(from_py_with = crate::program::Options::from_dict)] options: crate::program::Options,
    ) -> PyResult<u64> {
        self.with(py, |bytes, whole| crate::program::save(self, bytes, bytes.len() == whole.len(), &path, &options))
    }

    /// This `.pte` serialized with the given layout options.
    fn pte_bytes<'py>(
        &self,
        py: Python<'py>,
        #[pyo3(from_py_with = crate::program::Options::from_dict)] options: crate::program::Options,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let out = self.with(py, |bytes, _| crate::program::to_bytes(self, bytes, &options))?;
        Ok(PyBytes::new(py, &out))
    }

    /// Moves constants and named data (all, or those whose key is in `keys`)
    /// into a `.ptd`, naming unnamed constants `{name_constants}{index}`
    /// first when asked; saves both files atomically; returns the moved keys.
    /// Refuses, writing nothing, what `pte externalize` refuses.
    #[pyo3(signature = (pte_path, ptd_path, keys=None, name_constants=None))]
    fn externalize(
        &self,
        py: Python<'_>,
        pte_path: std::path::PathBuf,
        ptd_path: std::path::PathBuf,
        keys: Option<Vec<String>>,
        name_constants: Option<String>,
    ) -> PyResult<(Vec<String>, Vec<String>)> {
        self.with(py, |bytes, _| {
            crate::program::externalize(self, bytes, &pte_path, &ptd_path, keys.as_deref(), name_constants.as_deref())
        })
    }

    /// The entries of a `.ptd`: `(key, dtype, sizes, dim_order, offset, size)`.
    fn ptd_entries(&self, py: Python<'_>) -> PyResult<Vec<crate::kinds::PtdEntry>> {
        self.with(py, |bytes, whole| crate::kinds::ptd_entries(self, bytes, whole))
    }

    /// The embedded program of a `.bpte`, as a handle sharing this source.
    fn bpte_program(&self, py: Python<'_>) -> PyResult<Handle> {
        let (off, len) = self.with(py, |bytes, whole| crate::kinds::bpte_program(self, bytes, whole))?;
        self.sub(py, off, len)
    }

    /// The tensors of a `.ptn`: `(key, dtype, shape, offset or None, bytes or None)`.
    fn ptn_tensors<'py>(&self, py: Python<'py>) -> PyResult<Vec<crate::kinds::PtnEntry<'py>>> {
        self.with(py, |bytes, whole| crate::kinds::ptn_tensors(py, self, bytes, whole))
    }

    /// The sample sets of a `.ptn` sidecar, as nested lists and dicts.
    fn read_samples<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.with(py, |bytes, whole| crate::samples::read(py, self, bytes, whole))
    }
}
