//! The `.ptn` samples sidecar: read into Python structures, write from them.

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList};

use pte_ptn::{Dtype, PtnFile, PtnTensor};
use pte_samples::{Call, Sample, SampleSet, Tolerance, Value};

use crate::error::{int_arg, invalid, raise, IntoPy};
use crate::handle::{offset_in, Handle};

fn samples_err(e: pte_samples::Error, file: Option<&str>) -> PyErr {
    let text = match file {
        Some(f) => format!("{f}: {e}"),
        None => e.to_string(),
    };
    Python::attach(|py| raise(py, e.rule().name(), e.path(), e.offset(), e.message(), text))
}

/// A tensor as a dict: dtype code, shape and either `offset` (bytes in the
/// source) or `data` (a copy, for compressed members).
fn tensor<'py>(py: Python<'py>, t: &PtnTensor<'_>, whole: &[u8]) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("dtype", pte_ptn::dtype_code(t.dtype))?;
    d.set_item("shape", t.shape.clone())?;
    let data: &[u8] = &t.data;
    match offset_in(whole, data) {
        Some(off) => {
            d.set_item("offset", off)?;
            d.set_item("size", data.len())?;
        }
        None => d.set_item("data", PyBytes::new(py, data))?,
    }
    Ok(d)
}

fn value<'py>(py: Python<'py>, v: &Value<'_>, whole: &[u8]) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Tensor(t) => tensor(py, t, whole)?.into_any(),
        Value::Int(i) => i.into_pyobject(py)?.into_any(),
        Value::Float(f) => f.into_pyobject(py)?.into_any(),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::String(s) => s.into_pyobject(py)?.into_any(),
        Value::None => py.None().into_bound(py),
        Value::TensorList(l) => {
            let items = l.iter().map(|t| tensor(py, t, whole)).collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, items)?.into_any()
        }
    })
}

fn tol(t: Option<Tolerance>) -> Option<(f64, f64)> {
    t.map(|t| (t.atol, t.rtol))
}

/// Every sample set, nested as dicts: method, name, tolerance, samples →
/// name, tolerance, calls → inputs, outputs, tolerance.
pub(crate) fn read<'py>(py: Python<'py>, h: &Handle, bytes: &[u8], whole: &[u8]) -> PyResult<Bound<'py, PyAny>> {
    let ptn = PtnFile::from_bytes(bytes).py_err(h.name())?;
    let sets = pte_samples::read_samples(&ptn).map_err(|e| samples_err(e, h.name()))?;
    let out = PyList::empty(py);
    for s in &sets {
        let d = PyDict::new(py);
        d.set_item("method", &s.method)?;
        d.set_item("name", &s.name)?;
        d.set_item("tolerance", tol(s.tolerance))?;
        let samples = PyList::empty(py);
        for smp in &s.samples {
            let sd = PyDict::new(py);
            sd.set_item("name", &smp.name)?;
            sd.set_item("tolerance", tol(smp.tolerance))?;
            let calls = PyList::empty(py);
            for c in &smp.calls {
                let cd = PyDict::new(py);
                let ins = c.inputs.iter().map(|v| value(py, v, whole)).collect::<PyResult<Vec<_>>>()?;
                let outs = c.outputs.iter().map(|v| value(py, v, whole)).collect::<PyResult<Vec<_>>>()?;
                cd.set_item("inputs", ins)?;
                cd.set_item("outputs", outs)?;
                cd.set_item("tolerance", tol(c.tolerance))?;
                calls.append(cd)?;
            }
            sd.set_item("calls", calls)?;
            samples.append(sd)?;
        }
        d.set_item("samples", samples)?;
        out.append(d)?;
    }
    Ok(out.into_any())
}

/// A tensor from `(dtype code, shape, bytes)`.
fn tensor_in(obj: &Bound<'_, PyAny>) -> PyResult<PtnTensor<'static>> {
    let (code, shape, data): (String, Vec<u64>, Vec<u8>) = obj.extract()?;
    let dtype: Dtype = serde_json::from_value(serde_json::Value::String(code.clone()))
        .map_err(|_| invalid(format!("unsupported dtype {code:?}")))?;
    PtnTensor::new(dtype, shape, data).py_err(None)
}

/// A value: `("tensor", (dtype, shape, bytes))`, `("tensor_list", [...])`,
/// `("int", i)`, `("float", f)`, `("bool", b)`, `("string", s)`, `("none", None)`.
fn value_in(obj: &Bound<'_, PyAny>) -> PyResult<Value<'static>> {
    let (kind, v): (String, Bound<'_, PyAny>) = obj.extract()?;
    Ok(match kind.as_str() {
        "tensor" => Value::Tensor(tensor_in(&v)?),
        "tensor_list" => Value::TensorList(v.try_iter()?.map(|t| tensor_in(&t?)).collect::<PyResult<Vec<_>>>()?),
        "int" => Value::Int(int_arg::<i64>(&v)?),
        "float" => Value::Float(v.extract()?),
        "bool" => Value::Bool(v.extract()?),
        "string" => Value::String(v.extract()?),
        "none" => Value::None,
        other => return Err(invalid(format!("unknown value kind {other:?}"))),
    })
}

fn tol_in(obj: Option<(f64, f64)>) -> Option<Tolerance> {
    obj.map(|(atol, rtol)| Tolerance { atol, rtol })
}

/// `(method, name, tolerance, [(name, tolerance, [(inputs, outputs, tolerance)])])`.
type SetIn<'py> = (String, String, Option<(f64, f64)>, Vec<(Option<String>, Option<(f64, f64)>, Vec<CallIn<'py>>)>);
type CallIn<'py> = (Vec<Bound<'py, PyAny>>, Vec<Bound<'py, PyAny>>, Option<(f64, f64)>);

/// Writes sample sets into the `.ptn` at `path` with the checks of `pte
/// samples add` (the one library call behind both): every set against its
/// method's signature, then all written in one atomic save, or none. With
/// `replace`, a set of the same method and name is replaced, else refused.
/// Returns the warnings as text.
#[pyfunction]
#[pyo3(signature = (path, sets, replace=true))]
pub(crate) fn write_samples(path: PathBuf, sets: Vec<SetIn<'_>>, replace: bool) -> PyResult<Vec<String>> {
    let mut built = vec![];
    for (method, name, tolerance, samples) in sets {
        let mut set = SampleSet::new(method, name);
        set.tolerance = tol_in(tolerance);
        for (sname, stol, calls) in samples {
            let mut calls_out = vec![];
            for (ins, outs, ctol) in calls {
                calls_out.push(Call {
                    inputs: ins.iter().map(value_in).collect::<PyResult<Vec<_>>>()?,
                    outputs: outs.iter().map(value_in).collect::<PyResult<Vec<_>>>()?,
                    tolerance: tol_in(ctol),
                });
            }
            set.samples.push(Sample { name: sname, tolerance: tol_in(stol), calls: calls_out });
        }
        built.push(set);
    }
    let name = path.display().to_string();
    let warnings = pte_samples::add_sets_to_file(&path, &built, replace, Default::default())
        .map_err(|e| samples_err(e, Some(&name)))?;
    Ok(warnings.iter().map(ToString::to_string).collect())
}

/// A value for Python, tagged as [`value_in`] reads it back:
/// `("tensor", (dtype, shape, bytearray))`, `("int", 3)`, ... A tensor's
/// bytes are copied once, into a `bytearray` the runner may use as its
/// tensor's memory (numpy and torch wrap it without another copy).
fn tagged<'py>(py: Python<'py>, v: &Value<'_>) -> PyResult<Bound<'py, PyAny>> {
    let t = |t: &PtnTensor<'_>| -> PyResult<Bound<'py, PyAny>> {
        Ok((pte_ptn::dtype_code(t.dtype), t.shape.clone(), PyByteArray::new(py, &t.data)).into_pyobject(py)?.into_any())
    };
    let pair = |kind: &str, x: Bound<'py, PyAny>| -> PyResult<Bound<'py, PyAny>> {
        Ok((kind, x).into_pyobject(py)?.into_any())
    };
    match v {
        Value::Tensor(x) => pair("tensor", t(x)?),
        Value::TensorList(l) => {
            pair("tensor_list", PyList::new(py, l.iter().map(t).collect::<PyResult<Vec<_>>>()?)?.into_any())
        }
        Value::Int(i) => pair("int", i.into_pyobject(py)?.into_any()),
        Value::Float(f) => pair("float", f.into_pyobject(py)?.into_any()),
        Value::Bool(b) => pair("bool", b.into_pyobject(py)?.to_owned().into_any()),
        Value::String(s) => pair("string", s.into_pyobject(py)?.into_any()),
        Value::None => pair("none", py.None().into_bound(py)),
    }
}

/// An engine made of two Python callables: `fresh()` and
/// `call(method, tagged_inputs) -> tagged_outputs`.
struct PyEngine<'py> {
    py: Python<'py>,
    fresh: Bound<'py, PyAny>,
    call: Bound<'py, PyAny>,
    methods: Option<Vec<String>>,
    name: Option<String>,
    /// An exception that is no `Exception` (`KeyboardInterrupt`,
    /// `SystemExit`): it stops the check and is raised again to the caller
    /// instead of becoming a `runner_failed` verdict.
    interrupt: Option<PyErr>,
}

/// A Python exception as the runner's error text: its type and message.
fn py_text(py: Python<'_>, e: &PyErr) -> String {
    let kind = e.get_type(py).name().map(|n| n.to_string()).unwrap_or_else(|_| "Exception".into());
    format!("{kind}: {}", e.value(py))
}

impl PyEngine<'_> {
    /// The runner's failure as the check's error text, keeping an interrupt
    /// aside to be raised again (the steps after it fail at once without
    /// calling Python).
    fn failed<T>(&mut self, r: PyResult<T>) -> pte_samples::RunResult<T> {
        r.map_err(|e| {
            let text = py_text(self.py, &e);
            if !e.is_instance_of::<pyo3::exceptions::PyException>(self.py) {
                self.interrupt = Some(e);
            }
            text.into()
        })
    }
}

impl pte_samples::Engine for PyEngine<'_> {
    fn fresh(&mut self) -> pte_samples::RunResult<()> {
        if self.interrupt.is_some() {
            return Err("interrupted".into());
        }
        let r = self.fresh.call0().map(|_| ());
        self.failed(r)
    }

    fn execute(&mut self, method: &str, inputs: &[Value<'_>]) -> pte_samples::RunResult<Vec<Value<'static>>> {
        if self.interrupt.is_some() {
            return Err("interrupted".into());
        }
        let py = self.py;
        let run = || -> PyResult<Vec<Value<'static>>> {
            let ins = inputs.iter().map(|v| tagged(py, v)).collect::<PyResult<Vec<_>>>()?;
            let outs = self.call.call1((method, PyList::new(py, ins)?))?;
            outs.try_iter()?.map(|o| value_in(&o?)).collect()
        };
        let r = run();
        self.failed(r)
    }

    fn methods(&mut self) -> pte_samples::RunResult<Option<Vec<String>>> {
        Ok(self.methods.clone())
    }

    fn name(&self) -> Option<String> {
        self.name.clone()
    }
}

/// Checks the samples at `source` (a `.ptn`, `.bpte` or folder of sets)
/// through a runner given as callables, exactly as `pte samples check` does;
/// returns the report's JSON.
#[pyfunction]
#[pyo3(signature = (source, fresh, call, methods=None, name=None, method=None, set=None))]
#[allow(clippy::too_many_arguments)] // the keyword arguments of one Python call
pub(crate) fn check_samples<'py>(
    py: Python<'py>,
    source: PathBuf,
    fresh: Bound<'py, PyAny>,
    call: Bound<'py, PyAny>,
    methods: Option<Vec<String>>,
    name: Option<String>,
    method: Option<String>,
    set: Option<String>,
) -> PyResult<String> {
    let mut engine = PyEngine { py, fresh, call, methods, name, interrupt: None };
    let selection = pte_samples::Selection { method, set };
    let report = pte_samples::with_source_sets(&source, &selection, |sets| pte_samples::check(sets, &mut engine))
        .map_err(|e| samples_err(e, None))?;
    if let Some(e) = engine.interrupt.take() {
        return Err(e);
    }
    Ok(report.to_json().to_string())
}

/// A runner for [`check_samples_matrix`]: its name in the matrix, then what
/// [`check_samples`] takes (`fresh`, `call`, `methods`, the runner's own name).
type NamedRunner<'py> = (String, Bound<'py, PyAny>, Bound<'py, PyAny>, Option<Vec<String>>, Option<String>);

/// Checks the samples at `source` through every runner in turn, exactly as
/// `pte samples check --runner NAME=CMD ...` does; returns the matrix's JSON.
/// An interrupt in one runner stops the check and is raised.
#[pyfunction]
#[pyo3(signature = (source, runners, method=None, set=None))]
pub(crate) fn check_samples_matrix<'py>(
    py: Python<'py>,
    source: PathBuf,
    runners: Vec<NamedRunner<'py>>,
    method: Option<String>,
    set: Option<String>,
) -> PyResult<String> {
    let selection = pte_samples::Selection { method, set };
    let matrix = pte_samples::with_source_sets(&source, &selection, |sets| -> PyResult<pte_samples::Matrix> {
        let mut matrix = pte_samples::Matrix::of_sets(sets);
        for (label, fresh, call, methods, name) in runners {
            let mut engine = PyEngine { py, fresh, call, methods, name, interrupt: None };
            let report = pte_samples::check(sets, &mut engine);
            if let Some(e) = engine.interrupt.take() {
                return Err(e);
            }
            matrix.runners.push(pte_samples::NamedReport { name: label, report });
        }
        Ok(matrix)
    })
    .map_err(|e| samples_err(e, None))??;
    Ok(matrix.to_json().to_string())
}
