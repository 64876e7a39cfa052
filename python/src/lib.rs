//! `sudoku_batch._native`: the library's batch calls for Python. Thin wrappers: each turns
//! arrays into the library's types, runs the library's code on a worker pool with the GIL
//! released, and hands arrays back. The Python package `sudoku_batch` beside this crate
//! converts inputs (numpy arrays of any integer dtype, `S`/`U` arrays, lists of `str`,
//! pandas and polars columns) into a [`batch::Batch`] and wraps the results.

mod args;
mod batch;
mod buffers;
mod calls;
mod explain;
mod hint;
mod make;
mod pool;
mod rate;
mod read;

use pyo3::prelude::*;

use sudoku_batch::jobs::canon::CanonStatus;
use sudoku_batch::jobs::hint::HintStatus;
use sudoku_batch::jobs::rate::RateStatus;
use sudoku_batch::jobs::solve::SolveStatus;

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
    m.add_function(wrap_pyfunction!(hint::hint, m)?)?;
    m.add_function(wrap_pyfunction!(hint::steps, m)?)?;
    m.add_function(wrap_pyfunction!(explain::explain, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // The status words and codes of the library's jobs, which the package's enums are made of.
    let words = |all: &[(&'static str, u8)]| all.to_vec();
    m.add(
        "SOLVE_STATUSES",
        words(&SolveStatus::ALL.map(|s| (s.as_str(), s.code()))),
    )?;
    m.add(
        "RATE_STATUSES",
        words(&RateStatus::ALL.map(|s| (s.as_str(), s.code()))),
    )?;
    m.add(
        "HINT_STATUSES",
        words(&HintStatus::ALL.map(|s| (s.as_str(), s.code()))),
    )?;
    m.add(
        "CANON_STATUSES",
        words(&CanonStatus::ALL.map(|s| (s.as_str(), s.code()))),
    )?;
    Ok(())
}
