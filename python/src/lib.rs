//! `sudoku_batch._native`: the library's batch calls for Python. Thin wrappers: each turns
//! arrays into the library's types, runs the library's code on a worker pool with the GIL
//! released, and hands arrays back. The Python package `sudoku_batch` beside this crate
//! converts inputs (numpy arrays of any integer dtype, `S`/`U` arrays, lists of `str`,
//! pandas and polars columns) into a [`batch::Batch`] and wraps the results.

mod batch;
mod buffers;
mod calls;
mod make;
mod pool;
mod rate;
mod read;

use pyo3::prelude::*;

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<batch::Batch>()?;
    m.add_function(wrap_pyfunction!(calls::solve, m)?)?;
    m.add_function(wrap_pyfunction!(calls::verify, m)?)?;
    m.add_function(wrap_pyfunction!(calls::canon, m)?)?;
    m.add_function(wrap_pyfunction!(calls::digits, m)?)?;
    m.add_function(wrap_pyfunction!(make::generate, m)?)?;
    m.add_function(wrap_pyfunction!(make::shuffle, m)?)?;
    m.add_function(wrap_pyfunction!(make::strings, m)?)?;
    m.add_function(wrap_pyfunction!(read::read, m)?)?;
    m.add_function(wrap_pyfunction!(rate::rate, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
