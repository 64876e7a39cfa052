//! `rate`: Sudoku Explainer's ER/EP/ED for each puzzle, by the library's rate job (the work
//! `sudoku-batch rate` does for each record, with one rater per worker for the whole call).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use sudoku_batch::engines::rater::{Ladder, ParseLadderError, RateOptions, Stop, Technique};
use sudoku_batch::jobs::rate::{difficulty_value, RateWork, Raters};

use crate::args;
use crate::batch::Batch;
use crate::buffers::zeroed;
use crate::calls::{array1, messages, Messages};
use crate::pool::{in_items, Rows};

/// `rate`'s output rows.
struct Rated<'a> {
    er: &'a mut [f64],
    ep: &'a mut [f64],
    ed: &'a mut [f64],
    hardest: &'a mut [u8],
    steps: &'a mut [u32],
    capped: &'a mut [bool],
    status: &'a mut [u8],
}

impl Rows for Rated<'_> {
    fn split_at(self, mid: usize) -> (Self, Self) {
        let (er1, er2) = self.er.split_at_mut(mid);
        let (ep1, ep2) = self.ep.split_at_mut(mid);
        let (ed1, ed2) = self.ed.split_at_mut(mid);
        let (h1, h2) = self.hardest.split_at_mut(mid);
        let (s1, s2) = self.steps.split_at_mut(mid);
        let (c1, c2) = self.capped.split_at_mut(mid);
        let (t1, t2) = self.status.split_at_mut(mid);
        let first = Rated {
            er: er1,
            ep: ep1,
            ed: ed1,
            hardest: h1,
            steps: s1,
            capped: c1,
            status: t1,
        };
        let rest = Rated {
            er: er2,
            ep: ep2,
            ed: ed2,
            hardest: h2,
            steps: s2,
            capped: c2,
            status: t2,
        };
        (first, rest)
    }
}

/// The raters of a call (`rate`, `hint`, `steps`) with the CLI's checks of its arguments, the
/// threads they run on, and the flag Ctrl-C raises: a hard puzzle takes seconds, and the
/// raters look at the flag between assumptions, so a call stops within milliseconds, not at
/// the end of the puzzle.
pub(crate) fn raters<'py>(
    py: Python<'py>,
    ladder: &str,
    max_rating: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<(Raters, usize, Arc<AtomicBool>)> {
    let ladder: Ladder = ladder
        .parse()
        .map_err(|e: ParseLadderError| PyValueError::new_err(e.to_string()))?;
    let max_rating = args::max_rating(max_rating)?;
    let threads = args::threads(py, threads)?;
    let cancel = Arc::new(AtomicBool::new(false));
    let stop = Stop::new(cancel.clone());
    let options = RateOptions { ladder, max_rating };
    Ok((Raters::stopping(options, threads, stop), threads, cancel))
}

/// Rate each puzzle as `sudoku-batch rate` does: a dict of `er`, `ep`, `ed` (float64 tenths,
/// SE's scale), `hardest` (index into `techniques`, 255 for none), `steps`, `capped` and
/// `status` (the codes of the library's `RateStatus`) arrays, the `techniques` names, and the
/// `errors` of malformed, invalid, failed and multiple rows (the CLI's `error` column).
#[pyfunction]
#[pyo3(signature = (batch, *, ladder="se", max_rating=None, threads=None))]
pub fn rate<'py>(
    py: Python<'py>,
    batch: &Batch,
    ladder: &str,
    max_rating: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let (raters, threads, cancel) = raters(py, ladder, max_rating, threads)?;
    let n = batch.len();
    let (mut er, mut ep, mut ed) = (zeroed::<f64>(n)?, zeroed::<f64>(n)?, zeroed::<f64>(n)?);
    let mut hardest = zeroed::<u8>(n)?;
    let mut steps = zeroed::<u32>(n)?;
    let mut capped = zeroed::<bool>(n)?;
    let mut status = zeroed::<u8>(n)?;
    let out = Rated {
        er: &mut er,
        ep: &mut ep,
        ed: &mut ed,
        hardest: &mut hardest,
        steps: &mut steps,
        capped: &mut capped,
        status: &mut status,
    };
    let work = RateWork {
        raters: &raters,
        keep: false,
        steps: false,
    };
    let bad = in_items(py, n, threads, Some(&cancel), out, |rows, out| {
        rate_chunk(batch, rows, out, &work)
    })?;
    let dict = PyDict::new(py);
    dict.set_item("er", array1(py, er))?;
    dict.set_item("ep", array1(py, ep))?;
    dict.set_item("ed", array1(py, ed))?;
    dict.set_item("hardest", array1(py, hardest))?;
    dict.set_item("steps", array1(py, steps))?;
    dict.set_item("capped", array1(py, capped))?;
    dict.set_item("status", array1(py, status))?;
    let names: Vec<&str> = Technique::ALL.iter().map(|t| t.name()).collect();
    dict.set_item("techniques", names)?;
    dict.set_item("errors", messages(py, bad)?)?;
    Ok(dict)
}

/// Each row of `rows` through `work` into `out`.
fn rate_chunk(
    batch: &Batch,
    rows: std::ops::Range<usize>,
    out: Rated<'_>,
    work: &RateWork<'_>,
) -> Messages {
    let mut bad = Messages::new();
    for (k, i) in rows.enumerate() {
        let r = batch.through(i, work);
        out.status[k] = r.status.code();
        out.hardest[k] = u8::MAX;
        if let Some(rating) = r.rating {
            out.er[k] = difficulty_value(rating.er);
            out.ep[k] = difficulty_value(rating.ep);
            out.ed[k] = difficulty_value(rating.ed);
            out.steps[k] = rating.steps;
            out.capped[k] = rating.capped;
            if let Some(t) = rating.hardest {
                out.hardest[k] = Technique::ALL
                    .iter()
                    .position(|&x| x == t)
                    .map_or(u8::MAX, |p| p as u8);
            }
        }
        if let Some(e) = r.error_field() {
            bad.push((i, e.into_owned()));
        }
    }
    bad
}
