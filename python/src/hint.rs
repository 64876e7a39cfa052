//! `hint` and `steps`: the next step from each position, and each puzzle's whole path, by the
//! library's hint and rate jobs (the work `sudoku-batch hint` and `rate --steps` do for each
//! record), as the JSON step bodies the library writes: moved out of the records, not
//! copied or rewritten (the package adds the fields naming the record when a row is read).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use sudoku_batch::jobs::hint::HintWork;
use sudoku_batch::jobs::rate::RateWork;

use crate::batch::Batch;
use crate::buffers::zeroed;
use crate::calls::{array1, messages, Messages};
use crate::pool::{in_items, Rows};
use crate::rate::raters;

/// Output rows: a status code and a JSON text per row.
struct Texts<'a> {
    status: &'a mut [u8],
    json: &'a mut [Vec<u8>],
}

impl Rows for Texts<'_> {
    fn split_at(self, mid: usize) -> (Self, Self) {
        let (s1, s2) = self.status.split_at_mut(mid);
        let (j1, j2) = self.json.split_at_mut(mid);
        (
            Texts {
                status: s1,
                json: j1,
            },
            Texts {
                status: s2,
                json: j2,
            },
        )
    }
}

/// Run `row` on every row of `batch` with the GIL released; the dict of `status` codes,
/// `json` texts (bytes, empty for none) and `errors`.
fn run<'py>(
    py: Python<'py>,
    batch: &Batch,
    threads: usize,
    cancel: &Arc<AtomicBool>,
    row: impl Fn(usize, &mut Vec<u8>) -> (u8, Option<String>) + Sync,
) -> PyResult<Bound<'py, PyDict>> {
    let n = batch.len();
    let mut status = zeroed::<u8>(n)?;
    let mut json = vec![Vec::new(); n];
    let out = Texts {
        status: &mut status,
        json: &mut json,
    };
    let bad = in_items(py, n, threads, Some(cancel), out, |rows, out| {
        let mut bad = Messages::new();
        for (k, i) in rows.enumerate() {
            let (code, error) = row(i, &mut out.json[k]);
            out.status[k] = code;
            if let Some(e) = error {
                bad.push((i, e));
            }
        }
        bad
    })?;
    let dict = PyDict::new(py);
    dict.set_item("status", array1(py, status))?;
    dict.set_item("json", Bound::new(py, StepTexts(json))?)?;
    dict.set_item("errors", messages(py, bad)?)?;
    Ok(dict)
}

/// The rows' JSON texts, kept as the library wrote them: a row becomes `bytes` only when it
/// is read, so a call on a large batch does not copy every path into Python objects first.
#[pyclass(frozen, sequence, module = "sudoku_batch._native")]
pub struct StepTexts(Vec<Vec<u8>>);

#[pymethods]
impl StepTexts {
    fn __len__(&self) -> usize {
        self.0.len()
    }

    fn __getitem__<'py>(&self, py: Python<'py>, i: isize) -> PyResult<Bound<'py, PyBytes>> {
        let n = self.0.len() as isize;
        let k = if i < 0 { i + n } else { i };
        if !(0..n).contains(&k) {
            return Err(PyIndexError::new_err("row index out of range"));
        }
        Ok(PyBytes::new(py, &self.0[k as usize]))
    }
}

/// The next step from each position (an 81-character puzzle or a 729-character candidate
/// grid) as `sudoku-batch hint` takes it: `status` (the codes of the library's `HintStatus`),
/// `json` (each step's JSON body as the library writes it, `"step":1,...}` and a line break,
/// without the fields naming the record; empty bytes for none) and `errors`.
#[pyfunction]
#[pyo3(signature = (batch, *, ladder="se", max_rating=None, threads=None))]
pub fn hint<'py>(
    py: Python<'py>,
    batch: &Batch,
    ladder: &str,
    max_rating: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let (raters, threads, cancel) = raters(py, ladder, max_rating, threads)?;
    let work = HintWork {
        raters: &raters,
        text: false,
    };
    run(py, batch, threads, &cancel, |i, json| {
        let mut r = batch.through(i, &work);
        *json = std::mem::take(&mut r.step);
        let error = r.error_field().map(str::to_string);
        (r.status.code(), error)
    })
}

/// Each puzzle's whole path as `sudoku-batch rate --steps` writes it: `status` (the codes of
/// `RateStatus`), `json` (the steps' JSON bodies, one a line, as for [`hint`]; empty bytes
/// for a record not rated or without steps) and `errors`.
#[pyfunction]
#[pyo3(signature = (batch, *, ladder="se", max_rating=None, threads=None))]
pub fn steps<'py>(
    py: Python<'py>,
    batch: &Batch,
    ladder: &str,
    max_rating: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let (raters, threads, cancel) = raters(py, ladder, max_rating, threads)?;
    let work = RateWork {
        raters: &raters,
        keep: false,
        steps: true,
    };
    run(py, batch, threads, &cancel, |i, json| {
        let mut r = batch.through(i, &work);
        *json = std::mem::take(&mut r.steps);
        let error = r.error_field().map(|e| e.into_owned());
        (r.status.code(), error)
    })
}
