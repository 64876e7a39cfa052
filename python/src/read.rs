//! `read`: the CLI's readers (line files, CSV with a header, 9-line blocks, LeetCode boards;
//! plain or gzip/zstd/xz/bzip2/zip) straight into arrays, one row per input record.

use std::collections::BTreeMap;
use std::path::PathBuf;

use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use sudoku_batch::error::{InputError, RecordError};
use sudoku_batch::grid::CELLS;
use sudoku_batch::io::reader::{Column, Input, InputFormat, ReaderOptions, Record, RecordReader};

use crate::batch::Batch;
use crate::buffers::no_memory;
use crate::calls::{array1, array2};

/// Records read between two Ctrl-C checks.
const SLICE: usize = 1 << 16;

/// What has been read so far.
#[derive(Default)]
struct Rows {
    puzzles: Vec<u8>,
    solutions: Vec<u8>,
    lines: Vec<u64>,
    ids: Vec<Option<String>>,
    bad: BTreeMap<usize, RecordError>,
    bad_solutions: BTreeMap<usize, RecordError>,
    has_solutions: bool,
    has_ids: bool,
}

impl Rows {
    /// Room for `n` more records; a MemoryError when the memory cannot be had.
    fn make_room(&mut self, n: usize) -> PyResult<()> {
        let cells = n * CELLS;
        let failed = |_| no_memory(None);
        self.puzzles.try_reserve(cells).map_err(failed)?;
        self.solutions.try_reserve(cells).map_err(failed)?;
        self.lines.try_reserve(n).map_err(failed)?;
        self.ids.try_reserve(n).map_err(failed)
    }

    fn push(&mut self, record: Record) {
        let i = self.lines.len();
        self.lines.push(record.line);
        match record.puzzle {
            Ok(p) => self.puzzles.extend_from_slice(p.cells()),
            Err(e) => {
                self.puzzles.extend_from_slice(&[0; CELLS]);
                self.bad.insert(i, e);
            }
        }
        match record.solution {
            Some(Ok(s)) => {
                self.has_solutions = true;
                self.solutions.extend_from_slice(s.cells());
            }
            Some(Err(e)) => {
                self.has_solutions = true;
                self.solutions.extend_from_slice(&[0; CELLS]);
                self.bad_solutions.insert(i, e);
            }
            None => self.solutions.extend_from_slice(&[0; CELLS]),
        }
        self.has_ids |= record.id.is_some();
        self.ids.push(record.id);
    }
}

fn input_error(e: InputError) -> PyErr {
    match e {
        InputError::Open { ref cause, .. } if cause.kind() == std::io::ErrorKind::NotFound => {
            PyFileNotFoundError::new_err(e.to_string())
        }
        InputError::Open { .. } | InputError::Read { .. } | InputError::IsDirectory { .. } => {
            PyOSError::new_err(e.to_string())
        }
        other => PyValueError::new_err(other.to_string()),
    }
}

fn parse_format(format: &str) -> PyResult<InputFormat> {
    Ok(match format.to_ascii_lowercase().as_str() {
        "auto" => InputFormat::Auto,
        "lines" => InputFormat::Lines,
        "csv" => InputFormat::Csv,
        "block" => InputFormat::Block,
        "board" => InputFormat::Board,
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown format {format:?} (expected auto, lines, csv, block or board)"
            )))
        }
    })
}

/// Read every record of `path` (`"-"`: standard input): a dict of `puzzles` (n, 81; zeros
/// for a malformed record), `solutions` (n, 81, the solutions listed with the puzzles;
/// `None` when the input lists none), `lines` (1-based line of each record), `ids` (the
/// `id` column, or `None`), the `errors` of malformed puzzles and `solution_errors` of
/// malformed listed solutions, and `batch`, the puzzles ready for the other calls.
#[pyfunction]
#[pyo3(signature = (path, *, column=None, format="auto", solutions=true))]
pub fn read<'py>(
    py: Python<'py>,
    path: PathBuf,
    column: Option<&Bound<'py, PyAny>>,
    format: &str,
    solutions: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let column = column.map(parse_column).transpose()?;
    let options = ReaderOptions {
        format: parse_format(format)?,
        column,
        skip_solutions: !solutions,
        ..ReaderOptions::default()
    };
    let input = match path.to_str() {
        Some("-") => Input::Stdin,
        _ => Input::Path(path),
    };
    input.check().map_err(input_error)?;
    let mut reader = py
        .detach(|| RecordReader::open(&input, &options))
        .map_err(input_error)?;
    let rows = read_rows(py, &mut reader)?;
    rows_dict(py, rows)
}

/// `column=`: a name, else an index (0 or more).
fn parse_column(c: &Bound<'_, PyAny>) -> PyResult<Column> {
    match c.extract::<String>() {
        Ok(name) => Ok(Column::Name(name)),
        Err(_) => {
            let index = crate::args::unsigned(c, "column")?;
            Ok(Column::Index(usize::try_from(index).unwrap_or(usize::MAX)))
        }
    }
}

/// Every record of `reader`, read without the GIL, [`SLICE`] records between two Ctrl-C
/// checks.
fn read_rows(py: Python<'_>, reader: &mut RecordReader) -> PyResult<Rows> {
    let mut rows = Rows::default();
    loop {
        rows.make_room(SLICE)?;
        let ended = py.detach(|| -> Result<bool, InputError> {
            for _ in 0..SLICE {
                match reader.next_record()? {
                    Some(record) => rows.push(record),
                    None => return Ok(true),
                }
            }
            Ok(false)
        });
        if ended.map_err(input_error)? {
            return Ok(rows);
        }
        py.check_signals()?;
    }
}

/// `read`'s dict of `rows`.
fn rows_dict(py: Python<'_>, rows: Rows) -> PyResult<Bound<'_, PyDict>> {
    let dict = PyDict::new(py);
    let errors = PyDict::new(py);
    for (i, e) in &rows.bad {
        errors.set_item(i, e.to_string())?;
    }
    let solution_errors = PyDict::new(py);
    for (i, e) in &rows.bad_solutions {
        solution_errors.set_item(i, e.to_string())?;
    }
    dict.set_item("puzzles", array2(py, rows.puzzles.clone(), CELLS)?)?;
    if rows.has_solutions {
        dict.set_item("solutions", array2(py, rows.solutions, CELLS)?)?;
    } else {
        dict.set_item("solutions", py.None())?;
    }
    dict.set_item("lines", array1(py, rows.lines))?;
    if rows.has_ids {
        dict.set_item("ids", PyList::new(py, rows.ids)?)?;
    } else {
        dict.set_item("ids", py.None())?;
    }
    dict.set_item("errors", errors)?;
    dict.set_item("solution_errors", solution_errors)?;
    dict.set_item("batch", Batch::from_values(rows.puzzles, rows.bad))?;
    Ok(dict)
}
