//! `rate`: Sudoku Explainer's ER/EP/ED for each puzzle, by the library's rating engine.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use sudoku_batch::engines::rater::{Difficulty, Ladder, RateOptions, Rater, Technique};
use sudoku_batch::engines::solver::{solve_with_limit, Status};

use crate::batch::Batch;
use crate::buffers::zeroed;
use crate::calls::{array1, messages, Messages};
use crate::pool::{in_items, thread_count, Rows};

/// `rate`'s output rows.
struct Rated<'a> {
    er: &'a mut [f32],
    ep: &'a mut [f32],
    ed: &'a mut [f32],
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

fn tenths(d: Difficulty) -> f32 {
    f32::from(d.0) / 10.0
}

/// Rate each puzzle: uniqueness is proved first (solution limit 2), and only a puzzle with
/// exactly one solution is rated. A dict of `er`, `ep`, `ed` (float32, SE's scale), `hardest`
/// (index into `techniques`, 255 for none), `steps`, `capped` and `status` (the `Status`
/// codes of `solve` with limit 2) arrays, the `techniques` names, and the `errors` of the
/// rows that are not rated.
#[pyfunction]
#[pyo3(signature = (batch, *, ladder="se", max_rating=None, threads=None))]
pub fn rate<'py>(
    py: Python<'py>,
    batch: &Batch,
    ladder: &str,
    max_rating: Option<f64>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let ladder: Ladder = ladder
        .parse()
        .map_err(|e: sudoku_batch::engines::rater::ParseLadderError| PyValueError::new_err(e.to_string()))?;
    let max_rating = match max_rating {
        None => None,
        Some(r) if (0.0..=25.5).contains(&r) => Some(Difficulty((r * 10.0).round() as u8)),
        Some(r) => {
            return Err(PyValueError::new_err(format!(
                "max_rating {r} is not 0.0-25.5"
            )))
        }
    };
    let options = RateOptions { ladder, max_rating };
    let threads = thread_count(threads)?;
    let n = batch.len();
    let (mut er, mut ep, mut ed) = (zeroed::<f32>(n), zeroed::<f32>(n), zeroed::<f32>(n));
    let mut hardest = vec![u8::MAX; n];
    let mut steps = zeroed::<u32>(n);
    let mut capped = vec![false; n];
    let mut status = zeroed::<u8>(n);
    let out = Rated {
        er: &mut er,
        ep: &mut ep,
        ed: &mut ed,
        hardest: &mut hardest,
        steps: &mut steps,
        capped: &mut capped,
        status: &mut status,
    };
    let bad = in_items(py, n, threads, out, |rows, out| {
        rate_chunk(batch, rows, out, options)
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

fn rate_chunk(
    batch: &Batch,
    rows: std::ops::Range<usize>,
    out: Rated<'_>,
    options: RateOptions,
) -> Messages {
    let mut rater = Rater::new(options);
    let mut bad = Messages::new();
    for (k, i) in rows.enumerate() {
        let puzzle = match batch.puzzle(i) {
            Ok(p) => p,
            Err(e) => {
                out.status[k] = 4;
                bad.push((i, e.to_string()));
                continue;
            }
        };
        let outcome = solve_with_limit(&puzzle, 2);
        out.status[k] = match outcome.status {
            Status::Solved => 0,
            Status::Multiple => 1,
            Status::Unsolvable => 2,
            Status::Invalid => 3,
            Status::Aborted => 5,
        };
        let Some(solution) = outcome
            .solution
            .filter(|_| outcome.status == Status::Solved)
        else {
            let why = match outcome.conflict {
                Some(c) => c.to_string(),
                None => format!("not rated: {}", outcome.status),
            };
            bad.push((i, why));
            continue;
        };
        let r = rater.rate(&puzzle, &solution);
        out.er[k] = tenths(r.er);
        out.ep[k] = tenths(r.ep);
        out.ed[k] = tenths(r.ed);
        out.steps[k] = r.steps;
        out.capped[k] = r.capped;
        if let Some(t) = r.hardest {
            out.hardest[k] = Technique::ALL
                .iter()
                .position(|&x| x == t)
                .map_or(u8::MAX, |p| p as u8);
        }
    }
    bad
}
