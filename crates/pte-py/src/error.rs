//! The one Python exception, carrying the Rust error's kind, path and offset.

use pyo3::prelude::*;

pyo3::create_exception!(_native, PteError, pyo3::exceptions::PyException, "A read, verify or write error.");

/// The name Python sees for a kind (`"malformed"`, `"io"`...).
fn kind_name(kind: pte_core::ErrorKind) -> &'static str {
    use pte_core::ErrorKind as K;
    match kind {
        K::Malformed => "malformed",
        K::Unsupported => "unsupported",
        K::LimitExceeded => "limit_exceeded",
        K::InvalidUse => "invalid_use",
        K::Io => "io",
        K::Busy => "busy",
        _ => "other",
    }
}

/// Builds a `PteError` with `kind`, `path`, `offset` and `message` attributes.
pub(crate) fn raise(py: Python<'_>, kind: &str, path: &str, offset: Option<u64>, message: &str, text: String) -> PyErr {
    let err = PteError::new_err(text);
    let value = err.value(py);
    // Setting attributes on a fresh exception instance cannot fail in
    // practice; if it did, the exception still carries its text.
    let _ = value.setattr("kind", kind);
    let _ = value.setattr("path", path);
    let _ = value.setattr("offset", offset);
    let _ = value.setattr("message", message);
    err
}

/// Converts a library error, naming the file it came from when known.
pub(crate) fn to_py(e: pte_core::Error, file: Option<&str>) -> PyErr {
    Python::attach(|py| {
        let text = match file {
            Some(f) => format!("{f}: {e}"),
            None => e.to_string(),
        };
        raise(py, kind_name(e.kind()), e.path(), e.offset(), e.message(), text)
    })
}

/// An `invalid_use` error for a bad argument.
pub(crate) fn invalid(message: impl Into<String>) -> PyErr {
    let m = message.into();
    Python::attach(|py| raise(py, "invalid_use", "", None, &m, m.clone()))
}

/// An `invalid_use` error whose text is the whole message (a file's name
/// included), for refusals that are not a library `Error`.
pub(crate) fn raise_invalid(text: String) -> PyErr {
    Python::attach(|py| raise(py, "invalid_use", "", None, &text, text.clone()))
}

/// Extension trait: `.py()?` turns a library result into a Python one.
pub(crate) trait IntoPy<T> {
    /// Converts the error, if any.
    fn py_err(self, file: Option<&str>) -> PyResult<T>;
}

impl<T, E: Into<pte_core::Error>> IntoPy<T> for Result<T, E> {
    fn py_err(self, file: Option<&str>) -> PyResult<T> {
        self.map_err(|e| to_py(e.into(), file))
    }
}

/// An integer type an argument converts to, with its range for messages.
pub(crate) trait Ranged: Sized + std::fmt::Display {
    /// The smallest value.
    const LOW: Self;
    /// The largest value.
    const HIGH: Self;
}

macro_rules! ranged {
    ($($t:ty),*) => {$(impl Ranged for $t { const LOW: Self = <$t>::MIN; const HIGH: Self = <$t>::MAX; })*};
}
ranged!(u64, u32, usize, i64);

/// An integer argument as `T`. A number out of `T`'s range is a
/// `ValueError` naming the range (pyo3 alone raises `OverflowError`, which
/// Python code does not expect from a bad argument); anything but an integer
/// stays pyo3's `TypeError`. Used with `#[pyo3(from_py_with = int_arg::<u64>)]`.
pub(crate) fn int_arg<'py, T>(obj: &Bound<'py, PyAny>) -> PyResult<T>
where
    T: Ranged + pyo3::conversion::FromPyObjectOwned<'py>,
{
    obj.extract::<T>().map_err(Into::into).map_err(|e: PyErr| {
        if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(obj.py()) {
            pyo3::exceptions::PyValueError::new_err(format!("{obj} is out of range ({} to {})", T::LOW, T::HIGH))
        } else {
            e
        }
    })
}

/// [`int_arg`] for an optional argument: None stays None.
pub(crate) fn opt_int_arg<'py, T>(obj: &Bound<'py, PyAny>) -> PyResult<Option<T>>
where
    T: Ranged + pyo3::conversion::FromPyObjectOwned<'py>,
{
    if obj.is_none() {
        Ok(None)
    } else {
        int_arg(obj).map(Some)
    }
}
