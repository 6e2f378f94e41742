//! The structure-aware mutator of `pte-fuzz` for Python fuzzers (atheris'
//! `custom_mutator` and `custom_crossover`), exposed as `pte_rs.fuzz`.

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::error::int_arg;

/// A mutant of `data` of at most `max_size` bytes, the same for the same
/// `data` and `seed` (atheris' `custom_mutator(data, max_size, seed)`).
#[pyfunction]
pub(crate) fn mutate<'py>(
    py: Python<'py>,
    data: &[u8],
    #[pyo3(from_py_with = int_arg::<usize>)] max_size: usize,
    #[pyo3(from_py_with = int_arg::<u64>)] seed: u64,
) -> Bound<'py, PyBytes> {
    let out = py.detach(|| pte_fuzz::mutate(data, max_size, seed));
    PyBytes::new(py, &out)
}

/// A child of `data1` and `data2` of at most `max_out_size` bytes
/// (atheris' `custom_crossover(data1, data2, max_out_size, seed)`).
#[pyfunction]
pub(crate) fn cross_over<'py>(
    py: Python<'py>,
    data1: &[u8],
    data2: &[u8],
    #[pyo3(from_py_with = int_arg::<usize>)] max_out_size: usize,
    #[pyo3(from_py_with = int_arg::<u64>)] seed: u64,
) -> Bound<'py, PyBytes> {
    let out = py.detach(|| pte_fuzz::cross_over(data1, data2, max_out_size, seed));
    PyBytes::new(py, &out)
}
