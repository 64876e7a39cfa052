//! The batch calls over puzzles: `solve`, `verify`, `canon`, `digits`. Each copies nothing
//! back but its result arrays, which the workers fill in place, a chunk each.

use std::ops::Range;
use std::sync::atomic::AtomicBool;

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use sudoku_batch::engines::canonical::Canonicalizer;
use sudoku_batch::engines::solver::{Algorithm, Limits};
use sudoku_batch::grid::CELLS;
use sudoku_batch::io::reader::Record;
use sudoku_batch::jobs::canon::{CanonRecord, CanonStatus};
use sudoku_batch::jobs::solve::SolveWork;
use sudoku_batch::jobs::verify::{check, Problem, Rules};
use sudoku_batch::limits::SOLUTIONS;

use crate::args;
use crate::batch::Batch;
use crate::buffers::{recycled_array, reused, values, zeroed};
use crate::pool::{in_items, Cells, Rows};

/// Messages of the bad rows of one chunk: (row, message).
pub type Messages = Vec<(usize, String)>;

/// An (n, width) array made of `values` without copying them.
pub fn array2<'py, T: numpy::Element>(
    py: Python<'py>,
    values: Vec<T>,
    width: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let n = values.len() / width.max(1);
    Ok(PyArray1::from_vec(py, values)
        .reshape([n, width])?
        .into_any())
}

/// A 1-D array made of `values` without copying them.
pub fn array1<T: numpy::Element>(py: Python<'_>, values: Vec<T>) -> Bound<'_, PyAny> {
    PyArray1::from_vec(py, values).into_any()
}

/// `{row: message}` of the chunks' messages.
pub fn messages<'py>(
    py: Python<'py>,
    chunks: impl IntoIterator<Item = Messages>,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for (row, message) in chunks.into_iter().flatten() {
        dict.set_item(row, message)?;
    }
    Ok(dict)
}

/// `solve`'s output rows.
struct Solved<'a> {
    solutions: Cells<'a, u8>,
    status: &'a mut [u8],
    count: &'a mut [u32],
    guesses: &'a mut [u64],
    nodes: &'a mut [u64],
}

impl Rows for Solved<'_> {
    fn split_at(self, mid: usize) -> (Self, Self) {
        let (s1, s2) = self.solutions.split_at(mid);
        let (a1, a2) = self.status.split_at_mut(mid);
        let (c1, c2) = self.count.split_at_mut(mid);
        let (g1, g2) = self.guesses.split_at_mut(mid);
        let (n1, n2) = self.nodes.split_at_mut(mid);
        (
            Solved {
                solutions: s1,
                status: a1,
                count: c1,
                guesses: g1,
                nodes: n1,
            },
            Solved {
                solutions: s2,
                status: a2,
                count: c2,
                guesses: g2,
                nodes: n2,
            },
        )
    }
}

/// Each row of `rows` through `work` (the CLI's per-record work) into `out`.
fn solve_chunk(
    batch: &Batch,
    rows: Range<usize>,
    out: Solved<'_>,
    work: &SolveWork<'_>,
) -> Messages {
    let mut bad = Messages::new();
    let solutions = out.solutions.values.chunks_exact_mut(CELLS);
    let fields = out
        .status
        .iter_mut()
        .zip(out.count)
        .zip(out.guesses)
        .zip(out.nodes);
    for ((i, cells), (((status, count), guesses), nodes)) in rows.zip(solutions).zip(fields) {
        let r = batch.through(i, work);
        *status = r.status().code();
        let outcome = r.outcome.as_ref();
        *count = outcome.map_or(0, |o| o.solutions);
        *guesses = outcome.map_or(0, |o| o.guesses);
        *nodes = outcome.map_or(0, |o| o.nodes);
        match outcome.and_then(|o| o.solution.as_ref()) {
            Some(solution) => cells.copy_from_slice(solution.cells()),
            None => cells.fill(0),
        }
        if let Some(e) = r.error() {
            bad.push((i, e));
        }
    }
    bad
}

/// Solve every puzzle of `batch`: a dict of `solutions`, `status`, `count`, `guesses`,
/// `nodes` arrays and the `errors` of malformed and invalid rows.
#[pyfunction]
#[pyo3(signature = (batch, *, limit=None, threads=None, algorithm="fast"))]
pub fn solve<'py>(
    py: Python<'py>,
    batch: &Batch,
    limit: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    algorithm: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let algorithm: Algorithm = algorithm.parse().map_err(PyValueError::new_err)?;
    let limit = match limit {
        Some(l) => args::whole(l, "limit", &SOLUTIONS)? as u32,
        None => 1,
    };
    // The baselines poll a stop flag as they search (every 4,096 nodes): raised at Ctrl-C, it
    // ends one puzzle's long search too. The other solvers finish the puzzle in hand.
    let cancel = AtomicBool::new(false);
    let polls = matches!(algorithm, Algorithm::Mrv | Algorithm::Naive);
    let work = SolveWork {
        algorithm,
        limits: Limits {
            solutions: limit,
            stop: Some(&cancel),
        },
        keep: false,
    };
    let threads = args::threads(py, threads)?;
    let n = batch.len();
    // Recycled buffers: `solve_chunk` writes every value of every row.
    let mut solutions = reused::<u8>(values(n, CELLS)?)?;
    let mut status = reused::<u8>(n)?;
    let mut count = reused::<u32>(n)?;
    let mut guesses = reused::<u64>(n)?;
    let mut nodes = reused::<u64>(n)?;
    let out = Solved {
        solutions: Cells::grid(&mut solutions),
        status: &mut status,
        count: &mut count,
        guesses: &mut guesses,
        nodes: &mut nodes,
    };
    let watch = (polls || threads > 1).then_some(&cancel);
    let bad = in_items(py, n, threads, watch, out, |rows, out| {
        solve_chunk(batch, rows, out, &work)
    })?;
    let dict = PyDict::new(py);
    dict.set_item("solutions", recycled_array(py, solutions, &[n, CELLS])?)?;
    dict.set_item("status", recycled_array(py, status, &[n])?)?;
    dict.set_item("count", recycled_array(py, count, &[n])?)?;
    dict.set_item("guesses", recycled_array(py, guesses, &[n])?)?;
    dict.set_item("nodes", recycled_array(py, nodes, &[n])?)?;
    dict.set_item("errors", messages(py, bad)?)?;
    Ok(dict)
}

/// Check each puzzle of `puzzles` against the same row of `solutions`: a dict of `ok` (bool)
/// and `problems` (bit `k` set for the `k`-th of `Problem::ALL`) arrays and the `errors`:
/// each bad row's findings as `code: detail` lines.
#[pyfunction]
#[pyo3(signature = (puzzles, solutions, *, unique=true, threads=None))]
pub fn verify<'py>(
    py: Python<'py>,
    puzzles: &Batch,
    solutions: &Batch,
    unique: bool,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let n = puzzles.len();
    if solutions.len() != n {
        return Err(PyValueError::new_err(format!(
            "{n} puzzles but {} solutions: give one solution per puzzle",
            solutions.len()
        )));
    }
    let threads = args::threads(py, threads)?;
    let rules = Rules {
        unique,
        require_solution: true,
    };
    let mut ok = zeroed::<bool>(n)?;
    let mut problems = zeroed::<u16>(n)?;
    let out = (Cells::one(&mut ok), Cells::one(&mut problems));
    let bad = in_items(py, n, threads, None, out, |rows, (ok, problems)| {
        let mut bad = Messages::new();
        for ((i, ok), bits) in rows.zip(ok.values).zip(problems.values) {
            let checked = check(puzzles.record(i, Some(solutions.puzzle(i))), rules);
            *ok = checked.findings.is_empty();
            for f in &checked.findings {
                let k = Problem::ALL
                    .iter()
                    .position(|&p| p == f.problem)
                    .unwrap_or(0);
                *bits |= 1 << k;
            }
            if !checked.findings.is_empty() {
                let lines: Vec<String> = checked
                    .findings
                    .iter()
                    .map(|f| format!("{}: {}", f.problem.code(), f.detail))
                    .collect();
                bad.push((i, lines.join("\n")));
            }
        }
        bad
    })?;
    let dict = PyDict::new(py);
    dict.set_item("ok", array1(py, ok))?;
    dict.set_item("problems", array1(py, problems))?;
    dict.set_item("errors", messages(py, bad)?)?;
    Ok(dict)
}

impl<A: Rows, B: Rows> Rows for (A, B) {
    fn split_at(self, mid: usize) -> (Self, Self) {
        let (a1, a2) = self.0.split_at(mid);
        let (b1, b2) = self.1.split_at(mid);
        ((a1, b1), (a2, b2))
    }
}

impl<A: Rows, B: Rows, C: Rows> Rows for (A, B, C) {
    fn split_at(self, mid: usize) -> (Self, Self) {
        let (a1, a2) = self.0.split_at(mid);
        let ((b1, c1), (b2, c2)) = (self.1, self.2).split_at(mid);
        ((a1, b1, c1), (a2, b2, c2))
    }
}

/// The canonical form of each puzzle: a dict of `forms` (n, 81), `automorphisms` and
/// `status` (0 ok, 1 invalid givens, 2 malformed) arrays and the `errors` of the bad rows.
#[pyfunction]
#[pyo3(signature = (batch, *, threads=None))]
pub fn canon<'py>(
    py: Python<'py>,
    batch: &Batch,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let threads = args::threads(py, threads)?;
    let n = batch.len();
    let mut forms = zeroed::<u8>(values(n, CELLS)?)?;
    let mut automorphisms = zeroed::<u32>(n)?;
    let mut status = zeroed::<u8>(n)?;
    let out = (
        Cells::grid(&mut forms),
        Cells::one(&mut automorphisms),
        Cells::one(&mut status),
    );
    let bad = in_items(py, n, threads, None, out, |rows, (forms, autos, status)| {
        let mut search = Canonicalizer::new();
        let mut bad = Messages::new();
        let cells = forms.values.chunks_exact_mut(CELLS);
        for (((i, cells), auto), status) in rows.zip(cells).zip(autos.values).zip(status.values) {
            let canon = match batch.puzzle(i) {
                Ok(p) => CanonRecord::new(Record::plain(i as u64 + 1, p), &mut search),
                Err(e) => {
                    *status = CanonStatus::Malformed.code();
                    bad.push((i, e.to_string()));
                    continue;
                }
            };
            *status = canon.status().code();
            if let Some(c) = &canon.canonical {
                cells.copy_from_slice(c.form.cells());
                *auto = c.automorphisms;
            }
            if let Some(e) = canon.error() {
                bad.push((i, e));
            }
        }
        bad
    })?;
    let dict = PyDict::new(py);
    dict.set_item("forms", array2(py, forms, CELLS)?)?;
    dict.set_item("automorphisms", array1(py, automorphisms))?;
    dict.set_item("status", array1(py, status))?;
    dict.set_item("errors", messages(py, bad)?)?;
    Ok(dict)
}

/// The cell values of each puzzle: a dict of `cells` (n, 81; zeros for a malformed row)
/// and the `errors` of the malformed rows.
#[pyfunction]
#[pyo3(signature = (batch, *, threads=None))]
pub fn digits<'py>(
    py: Python<'py>,
    batch: &Batch,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let threads = args::threads(py, threads)?;
    let n = batch.len();
    let mut cells = zeroed::<u8>(values(n, CELLS)?)?;
    let out = Cells::grid(&mut cells);
    let bad = in_items(py, n, threads, None, out, |rows, out| {
        let mut bad = Messages::new();
        for (i, row) in rows.zip(out.values.chunks_exact_mut(CELLS)) {
            match batch.puzzle(i) {
                Ok(p) => row.copy_from_slice(p.cells()),
                Err(e) => bad.push((i, e.to_string())),
            }
        }
        bad
    })?;
    let dict = PyDict::new(py);
    dict.set_item("cells", array2(py, cells, CELLS)?)?;
    dict.set_item("errors", messages(py, bad)?)?;
    Ok(dict)
}
