//! `explain`: the page of `sudoku-batch explain` for a batch, made by the library's explain job
//! (each row's path and its entry on the worker pool, the GIL released, then the page put
//! together as the CLI writes it: row `i` is the record of line `i + 1`).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use sudoku_batch::jobs::explain::{entry, limit_message, ExplainWork, PageWriter, RECORD_LIMIT};

use crate::batch::Batch;
use crate::pool::{in_items, Rows};
use crate::rate::raters;

/// Output rows: each row's entry in the page's data.
struct Slots<'a>(&'a mut [Vec<u8>]);

impl Rows for Slots<'_> {
    fn split_at(self, mid: usize) -> (Self, Self) {
        let (a, b) = self.0.split_at_mut(mid);
        (Slots(a), Slots(b))
    }
}

/// The HTML page of `sudoku-batch explain` for the batch's rows (puzzles or candidate grids),
/// as bytes; a batch of more than the page's limit of records is refused (ValueError).
#[pyfunction]
#[pyo3(signature = (batch, *, ladder="se", max_rating=None, threads=None))]
pub fn explain<'py>(
    py: Python<'py>,
    batch: &Batch,
    ladder: &str,
    max_rating: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let n = batch.len();
    if n as u64 > RECORD_LIMIT {
        return Err(PyValueError::new_err(format!(
            "{n} puzzles: {}",
            limit_message()
        )));
    }
    let (raters, threads, cancel) = raters(py, ladder, max_rating, threads)?;
    let work = ExplainWork { raters: &raters };
    let mut rows = vec![Vec::new(); n];
    in_items(
        py,
        n,
        threads,
        Some(&cancel),
        Slots(&mut rows),
        |range, out| {
            for (k, i) in range.enumerate() {
                entry(&mut out.0[k], &batch.through(i, &work), None);
            }
        },
    )?;
    let page = py.detach(|| -> std::io::Result<Vec<u8>> {
        let mut page = PageWriter::new(Vec::new());
        page.begin()?;
        for json in &rows {
            page.push_entry(json)?;
        }
        page.end()
    })?;
    Ok(PyBytes::new(py, &page))
}
