//! The calls that make puzzles: `generate`, `shuffle`, and `strings` (cell values back to
//! 81-character lines).

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use sudoku_batch::grid::CELLS;
use sudoku_batch::jobs::generate::{
    generate_unless, GenerateConfig, Shortfall, DEFAULT_CLUES, MAX_CLUES, MIN_CLUES,
};
use sudoku_batch::jobs::shuffle::{Copy, ShuffleConfig};
use sudoku_batch::limits::{ATTEMPTS, COPIES, COUNT};
use sudoku_batch::Grid;

use crate::args;
use crate::batch::Batch;
use crate::buffers::{values, zeroed};
use crate::calls::{array1, array2, messages, Messages};
use crate::pool::{in_items, Cells};

/// Puzzles `0..n` of the seeded run `cfg` (the same as `sudoku-batch generate` with the same
/// settings, whatever the threads): a dict of `puzzles` and `solutions` (n, 81) and the
/// `attempts` each took. A puzzle that cannot meet the bounds within its attempts is a
/// `ValueError` saying which bound failed.
#[pyfunction]
#[pyo3(signature = (n, *, seed, min_clues=None, max_clues=None, minimal=false, min_guesses=None,
    max_guesses=None, max_attempts=None, threads=None))]
#[allow(clippy::too_many_arguments)]
pub fn generate<'py>(
    py: Python<'py>,
    n: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
    min_clues: Option<&Bound<'py, PyAny>>,
    max_clues: Option<&Bound<'py, PyAny>>,
    minimal: bool,
    min_guesses: Option<&Bound<'py, PyAny>>,
    max_guesses: Option<&Bound<'py, PyAny>>,
    max_attempts: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let n = args::whole(n, "n", &COUNT)? as usize;
    let optional = |v: Option<&Bound<'py, PyAny>>, name| match v {
        Some(v) if !v.is_none() => args::unsigned(v, name).map(Some),
        _ => Ok(None),
    };
    let (min_clues, max_clues) = clue_range(
        optional(min_clues, "min_clues")?,
        optional(max_clues, "max_clues")?,
        minimal,
    )?;
    let cfg = GenerateConfig {
        seed: args::unsigned(seed, "seed")?,
        min_clues,
        max_clues,
        minimal,
        min_guesses: optional(min_guesses, "min_guesses")?.unwrap_or(0),
        max_guesses: optional(max_guesses, "max_guesses")?.unwrap_or(u64::MAX),
        max_attempts: match max_attempts {
            Some(a) => args::whole(a, "max_attempts", &ATTEMPTS)? as u32,
            None => GenerateConfig::default().max_attempts,
        },
        rating: None,
    };
    let threads = args::threads(py, threads)?;
    let mut puzzles = zeroed::<u8>(values(n, CELLS)?)?;
    let mut solutions = zeroed::<u8>(values(n, CELLS)?)?;
    let mut attempts = zeroed::<u32>(n)?;
    let cancel = AtomicBool::new(false);
    let out = (
        Cells::grid(&mut puzzles),
        Cells::grid(&mut solutions),
        Cells::one(&mut attempts),
    );
    let misses = in_items(py, n, threads, Some(&cancel), out, |rows, out| {
        generate_chunk(&cfg, &cancel, rows, out)
    })?;
    // The first puzzle (in order) that used up its budget; cancelled ones stopped for it.
    if let Some((_, miss)) = misses.into_iter().flatten().min_by_key(|(i, _)| *i) {
        return Err(PyValueError::new_err(format!("generate: {miss}")));
    }
    let dict = PyDict::new(py);
    dict.set_item("puzzles", array2(py, puzzles, CELLS)?)?;
    dict.set_item("solutions", array2(py, solutions, CELLS)?)?;
    dict.set_item("attempts", array1(py, attempts))?;
    Ok(dict)
}

/// The clue bounds of `generate`, as the CLI's: 22..36 by default, any count with `minimal`.
fn clue_range(
    min_clues: Option<u64>,
    max_clues: Option<u64>,
    minimal: bool,
) -> PyResult<(usize, usize)> {
    let (low, high) = if minimal {
        (MIN_CLUES, MAX_CLUES)
    } else {
        DEFAULT_CLUES
    };
    let clues = |c: Option<u64>, default| c.map_or(default, |c| c.min(usize::MAX as u64) as usize);
    let (min_clues, max_clues) = (clues(min_clues, low), clues(max_clues, high));
    if min_clues > max_clues || min_clues < MIN_CLUES || max_clues > MAX_CLUES {
        return Err(PyValueError::new_err(format!(
            "clues {min_clues}..{max_clues}: give {MIN_CLUES} <= min <= max <= {MAX_CLUES}"
        )));
    }
    Ok((min_clues, max_clues))
}

/// Generated puzzles, solutions and attempts.
type Made<'a> = (Cells<'a, u8>, Cells<'a, u8>, Cells<'a, u32>);

/// Puzzles `rows` of `cfg` into `out`; the first that used up its attempts (which cancels
/// the others), if one did.
fn generate_chunk(
    cfg: &GenerateConfig,
    cancel: &AtomicBool,
    rows: Range<usize>,
    (p, s, a): Made<'_>,
) -> Option<(usize, Shortfall)> {
    let cells = p.values.chunks_exact_mut(CELLS);
    let sols = s.values.chunks_exact_mut(CELLS);
    for (((i, p), s), a) in rows.zip(cells).zip(sols).zip(a.values) {
        match generate_unless(cfg, i as u64, cancel) {
            Some(Ok(g)) => {
                p.copy_from_slice(g.puzzle.cells());
                s.copy_from_slice(g.solution.cells());
                *a = g.attempts;
            }
            Some(Err(miss)) => {
                cancel.store(true, Ordering::Relaxed);
                return Some((i, miss));
            }
            None => return None,
        }
    }
    None
}

/// `copies` images of each puzzle under random Sudoku symmetries, as `sudoku-batch shuffle`
/// makes them of a file with one puzzle per line (puzzle `i` on line `i + 1`): a dict of
/// `puzzles` (n * copies, 81; zeros for the copies of a malformed puzzle), `solutions`
/// (the same shape, with `solutions=True`, else `None`), `ok` (per input puzzle) and the
/// `errors` of the malformed ones.
#[pyfunction]
#[pyo3(signature = (batch, *, seed, copies=None, solutions=false, threads=None))]
pub fn shuffle<'py>(
    py: Python<'py>,
    batch: &Batch,
    seed: &Bound<'py, PyAny>,
    copies: Option<&Bound<'py, PyAny>>,
    solutions: bool,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let copies = match copies {
        Some(c) => args::whole(c, "copies", &COPIES)? as usize,
        None => 1,
    };
    let cfg = ShuffleConfig {
        seed: args::unsigned(seed, "seed")?,
        copies: copies as u64,
        with_solutions: solutions,
    };
    let threads = args::threads(py, threads)?;
    let n = batch.len();
    let width = copies * CELLS;
    let mut puzzles = zeroed::<u8>(values(n, width)?)?;
    let mut solved = zeroed::<u8>(if solutions { values(n, width)? } else { 0 })?;
    let mut ok = zeroed::<bool>(n)?;
    let out = (
        Cells {
            values: &mut puzzles,
            width,
        },
        Cells {
            values: &mut solved,
            width: if solutions { width } else { 0 },
        },
        Cells::one(&mut ok),
    );
    let bad = in_items(py, n, threads, None, out, |rows, out| {
        shuffle_chunk(&cfg, batch, rows, out, copies)
    })?;
    let dict = PyDict::new(py);
    dict.set_item("puzzles", array2(py, puzzles, CELLS)?)?;
    if solutions {
        dict.set_item("solutions", array2(py, solved, CELLS)?)?;
    } else {
        dict.set_item("solutions", py.None())?;
    }
    dict.set_item("ok", array1(py, ok))?;
    dict.set_item("errors", messages(py, bad)?)?;
    Ok(dict)
}

/// Shuffled copies, their solutions (an empty array without), and whether each puzzle was
/// well formed.
type Shuffled<'a> = (Cells<'a, u8>, Cells<'a, u8>, Cells<'a, bool>);

/// The `copies` images of each puzzle of `rows` into `out`; the messages of the malformed
/// ones.
fn shuffle_chunk(
    cfg: &ShuffleConfig,
    batch: &Batch,
    rows: Range<usize>,
    (p, s, ok): Shuffled<'_>,
    copies: usize,
) -> Messages {
    let width = copies * CELLS;
    let mut bad = Messages::new();
    let mut sols = s.values.chunks_exact_mut(width.max(1));
    for ((i, p), ok) in rows.zip(p.values.chunks_exact_mut(width)).zip(ok.values) {
        let mut sol = if cfg.with_solutions {
            sols.next()
        } else {
            None
        };
        match cfg.shuffle(0, batch.record(i, None)).copies {
            Ok(made) => {
                *ok = true;
                for (j, (copy, solution)) in made.iter().enumerate() {
                    // The batch's records are puzzles: its candidate grids are malformed here.
                    let Copy::Puzzle(puzzle) = copy else { continue };
                    let at = j * CELLS..(j + 1) * CELLS;
                    if let (Some(sol), Some(solution)) = (sol.as_deref_mut(), solution) {
                        sol[at.clone()].copy_from_slice(solution.cells());
                    }
                    p[at].copy_from_slice(puzzle.cells());
                }
            }
            Err(message) => bad.push((i, message)),
        }
    }
    bad
}

/// Each row of `batch` as an 81-character `str` (`empty` marks empty cells); `None` for a
/// malformed row.
#[pyfunction]
#[pyo3(signature = (batch, *, empty=b'.'))]
pub fn strings<'py>(py: Python<'py>, batch: &Batch, empty: u8) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    let mut line = [0u8; CELLS];
    for i in 0..batch.len() {
        match batch.puzzle(i) {
            Ok(grid) => {
                Grid::write_line(&grid, empty, &mut line);
                let text = std::str::from_utf8(&line).expect("cells are ASCII");
                list.append(PyString::new(py, text))?;
            }
            Err(_) => list.append(py.None())?,
        }
    }
    Ok(list)
}
