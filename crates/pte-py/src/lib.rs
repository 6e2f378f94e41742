//! Python bindings for the pte-rs crates, built with pyo3 as `pte_rs._native`.
//!
//! The extension only parses, verifies and writes; it never hands Python a
//! pointer. It reports where each tensor or blob lies (a byte offset into the
//! file) and the pure-Python layer (`python/pte_rs`) wraps those ranges of its
//! own `mmap` in numpy arrays and memoryviews, so the arrays share memory with
//! the map and keep it alive by reference counting, with no `unsafe` code here.
//!
//! It owns the Python surface only; every format rule, read and write is the
//! Rust crates' own.
//!
//! Its Python API is documented in `python/pte_rs/__init__.pyi` and tested by
//! pytest (`crates/pte-py/tests`).

// No unsafe here: pyo3's generated code passes this lint as it stands, so an
// allow is needed nowhere; zero-copy comes from the Python side (see above).
#![deny(unsafe_code)]

mod error;
mod exir_classes;
mod exir_model;
mod exir_read;
mod exir_restore;
mod exir_write;
mod fuzz;
mod handle;
mod handle_api;
mod kinds;
mod program;
mod samples;
mod sink;

use pyo3::prelude::*;

/// The native module: one `Handle` class and the exception type.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<handle::Handle>()?;
    m.add("PteError", m.py().get_type::<error::PteError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(samples::write_samples, m)?)?;
    m.add_function(wrap_pyfunction!(samples::check_samples, m)?)?;
    m.add_function(wrap_pyfunction!(samples::check_samples_matrix, m)?)?;
    m.add_function(wrap_pyfunction!(program::internalize, m)?)?;
    m.add_function(wrap_pyfunction!(kinds::selected_operators, m)?)?;
    m.add_function(wrap_pyfunction!(exir_restore::exir_deserialize, m)?)?;
    m.add_function(wrap_pyfunction!(exir_write::exir_serialize, m)?)?;
    m.add_function(wrap_pyfunction!(fuzz::mutate, m)?)?;
    m.add_function(wrap_pyfunction!(fuzz::cross_over, m)?)?;
    Ok(())
}
