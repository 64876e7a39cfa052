//! The calls' keyword arguments, checked as the CLI checks its options: the library's bounds
//! ([`sudoku_batch::limits`], [`parse_max_rating`]) with the library's messages, each named as
//! Python spells the argument. Every check runs before any work starts.

use std::ffi::CString;

use pyo3::exceptions::{PyRuntimeWarning, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyString};

use sudoku_batch::engines::rater::Difficulty;
use sudoku_batch::jobs::rate::parse_max_rating;
use sudoku_batch::limits::{default_threads, WholeBound};

/// `value` as a Python `int` (a numpy integer too: what `operator.index` takes); `bool`, a
/// float or anything else is a TypeError naming the argument.
fn integer<'py>(value: &Bound<'py, PyAny>, name: &str) -> PyResult<Bound<'py, PyInt>> {
    let not_integer = || {
        let kind = value
            .get_type()
            .name()
            .map_or_else(|_| "?".to_string(), |n| n.to_string());
        PyTypeError::new_err(format!("{name} must be an integer, not {kind}"))
    };
    if value.is_instance_of::<PyBool>() {
        return Err(not_integer());
    }
    let index = value
        .py()
        .import("operator")?
        .call_method1("index", (value,))
        .map_err(|_| not_integer())?;
    index.cast_into::<PyInt>().map_err(|_| not_integer())
}

/// A whole-number argument within `bound`: judged by its value whatever its size (so `-1` and
/// `2**70` are ValueErrors naming the bound, never an OverflowError).
pub fn whole(value: &Bound<'_, PyAny>, name: &str, bound: &WholeBound) -> PyResult<u64> {
    let text = integer(value, name)?.str()?;
    let text = text.to_str()?;
    bound
        .parse(text)
        .map_err(|e| PyValueError::new_err(format!("{name}={text}: {e}")))
}

/// A whole number from 0 to `u64::MAX` (a seed, a guess count), any other integer a
/// ValueError.
pub fn unsigned(value: &Bound<'_, PyAny>, name: &str) -> PyResult<u64> {
    let int = integer(value, name)?;
    int.extract::<u64>().map_err(|_| {
        PyValueError::new_err(format!(
            "{name}={}: expected a whole number from 0 to {}",
            int.str()
                .map_or_else(|_| "?".to_string(), |s| s.to_string()),
            u64::MAX
        ))
    })
}

/// `threads`: a count within [`WholeBound::threads`], or `None` for the default (the CLI's:
/// `RAYON_NUM_THREADS` when it is such a count, else every core; a `RuntimeWarning` says so
/// when the variable is set but not taken as it is).
pub fn threads(py: Python<'_>, value: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    if let Some(v) = value.filter(|v| !v.is_none()) {
        return Ok(whole(v, "threads", &WholeBound::threads())? as usize);
    }
    let (n, warning) = default_threads();
    if let Some(w) = warning {
        let message = CString::new(w).unwrap_or_default();
        PyErr::warn(py, &py.get_type::<PyRuntimeWarning>(), &message, 2)?;
    }
    Ok(n)
}

/// `max_rating`: `None`, or a rating from 1.0 to 25.5 with one decimal at most, as a number or
/// a string (`6.2`, `7`, `"6.2"`), checked as the CLI's `--max-rating`; `True` is not a
/// rating.
pub fn max_rating(value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Difficulty>> {
    let Some(value) = value.filter(|v| !v.is_none()) else {
        return Ok(None);
    };
    let text = if let Ok(s) = value.cast::<PyString>() {
        s.to_str()?.to_string()
    } else if let Ok(f) = value.cast::<PyFloat>() {
        // The shortest text that reads back as this float: 8.95 is "8.95" (two decimals,
        // refused), 9.0 is "9".
        f.value().to_string()
    } else if let Ok(int) = integer(value, "max_rating") {
        int.str()?.to_str()?.to_string()
    } else {
        return Err(PyTypeError::new_err(format!(
            "max_rating must be a number or a str, not {}",
            value.get_type().name()?
        )));
    };
    parse_max_rating(&text).map(Some).map_err(|e| {
        let shown = value.repr().map_or(text, |r| r.to_string());
        PyValueError::new_err(format!("max_rating={shown}: {e}"))
    })
}
