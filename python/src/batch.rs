//! [`Batch`]: the puzzles of one call, copied out of Python objects once (with the GIL
//! held, so no Python thread can change them while the workers read), parsed by the workers.
//!
//! Four layouts, one per kind of input, so that no input is converted twice:
//! - digits: 81 values per puzzle (`0` empty), from integer arrays converted to `uint8`;
//! - borrowed digits: a C-contiguous `uint8` (n, 81) array read in place, not copied (the
//!   batch holds a reference to it, so it stays alive and cannot be resized). As with any
//!   numpy function that releases the GIL, a row that another Python thread rewrites during
//!   the call gets an unspecified result (each worker copies a row's 81 bytes once and
//!   parses the copy, so such a row is at worst part old, part new: a status, never a
//!   crash);
//! - fixed-width text: `width` bytes per puzzle, NUL-padded (numpy `S81` arrays);
//! - packed text: one buffer and the end of each puzzle in it (lists of `str`, Arrow string
//!   arrays: pandas and polars columns).
//!
//! A puzzle that does not parse is a [`RecordError`], reported as a status by every call,
//! never raised.

use std::collections::BTreeMap;

use numpy::{PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyFloat, PyInt, PyString};

use sudoku_batch::error::GridError;
use sudoku_batch::error::RecordError;
use sudoku_batch::grid::CELLS;
use sudoku_batch::io::reader::{Record, RecordText};
use sudoku_batch::pipeline::Work;
use sudoku_batch::position::{Position, POSITION_LEN};
use sudoku_batch::Grid;

use crate::buffers::{no_memory, values, with_room};

/// `text` at the end of `data`; a MemoryError when there is no room for it.
fn append(data: &mut Vec<u8>, text: &[u8]) -> PyResult<()> {
    data.try_reserve(text.len())
        .map_err(|_| no_memory(data.len().checked_add(text.len())))?;
    data.extend_from_slice(text);
    Ok(())
}

enum Store {
    Digits(Vec<u8>),
    Borrowed(Borrowed),
    Fixed { data: Vec<u8>, width: usize },
    Packed { data: Vec<u8>, ends: Vec<usize> },
}

/// A `uint8` (n, 81) array's cells, read in place.
struct Borrowed {
    /// Keeps the array (and so its buffer) alive and unresizable while the batch lives.
    _array: Py<PyArray2<u8>>,
    cells: *const u8,
}

// SAFETY: the buffer stays allocated while `_array` is held, and the workers only read it,
// each row through one raw copy of its 81 bytes (see `Borrowed::row`).
unsafe impl Send for Borrowed {}
unsafe impl Sync for Borrowed {}

impl Borrowed {
    /// Row `i`'s 81 cells, copied once out of the array.
    #[inline]
    fn row(&self, i: usize) -> [u8; CELLS] {
        // SAFETY: `i` is below the array's row count (checked by the callers' ranges) and
        // the array is C-contiguous with 81 `u8` per row, so the 81 bytes are inside it.
        unsafe {
            self.cells
                .add(i * CELLS)
                .cast::<[u8; CELLS]>()
                .read_unaligned()
        }
    }
}

/// Puzzles ready for the workers (built by the package's input conversion).
#[pyclass(frozen, module = "sudoku_batch._native")]
pub struct Batch {
    store: Store,
    len: usize,
    /// Records known to be bad before parsing (a reader's malformed rows), by index.
    bad: BTreeMap<usize, RecordError>,
}

fn slice_error(what: &str) -> PyErr {
    PyValueError::new_err(format!("{what} must be a C-contiguous array"))
}

impl Batch {
    /// Puzzles given as 81 values each, with the records known to be bad.
    pub fn from_values(values: Vec<u8>, bad: BTreeMap<usize, RecordError>) -> Batch {
        Batch {
            len: values.len() / CELLS,
            store: Store::Digits(values),
            bad,
        }
    }

    /// How many puzzles.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Puzzle `i`, or why it is not one.
    #[inline]
    pub fn puzzle(&self, i: usize) -> Result<Grid, RecordError> {
        if !self.bad.is_empty() {
            if let Some(e) = self.bad.get(&i) {
                return Err(e.clone());
            }
        }
        match &self.store {
            Store::Digits(values) => {
                let row: &[u8; CELLS] = values[i * CELLS..(i + 1) * CELLS]
                    .try_into()
                    .expect("rows are 81 values");
                Ok(Grid::from_values(row)?)
            }
            Store::Borrowed(cells) => {
                assert!(i < self.len, "row {i} of {}", self.len);
                Ok(Grid::from_values(&cells.row(i))?)
            }
            Store::Fixed { .. } | Store::Packed { .. } => {
                let row = self.text(i).expect("a text row");
                match Grid::from_line_bytes(row) {
                    Err(_) if row.len() == POSITION_LEN && Position::from_bytes(row).is_ok() => {
                        Err(RecordError::Candidates)
                    }
                    parsed => Ok(parsed?),
                }
            }
        }
    }

    /// Row `i`'s text, trimmed, when the puzzles are text.
    #[inline]
    fn text(&self, i: usize) -> Option<&[u8]> {
        match &self.store {
            Store::Fixed { data, width } => {
                let row = &data[i * width..(i + 1) * width];
                let used = row.iter().rposition(|&b| b != 0).map_or(0, |p| p + 1);
                Some(row[..used].trim_ascii())
            }
            Store::Packed { data, ends } => {
                let start = if i == 0 { 0 } else { ends[i - 1] };
                Some(data[start..ends[i]].trim_ascii())
            }
            _ => None,
        }
    }

    /// Row `i` as a candidate grid, when it is text of [`POSITION_LEN`] characters that
    /// reads as one (and not a record known to be bad).
    #[inline]
    fn position(&self, i: usize) -> Option<Position> {
        // Decided without touching the row for the common puzzles (81 characters).
        let long = match &self.store {
            Store::Fixed { width, .. } => *width >= POSITION_LEN,
            Store::Packed { ends, .. } => {
                ends[i] - if i == 0 { 0 } else { ends[i - 1] } >= POSITION_LEN
            }
            _ => false,
        };
        if !long {
            return None;
        }
        let row = self.text(i).filter(|r| r.len() == POSITION_LEN)?;
        if self.bad.contains_key(&i) {
            return None;
        }
        Position::from_bytes(row).ok()
    }

    /// Puzzle `i` as the record of line `i + 1` of a file with one puzzle per line.
    pub fn record(&self, i: usize, solution: Option<Result<Grid, RecordError>>) -> Record {
        Record {
            line: i as u64 + 1,
            id: None,
            puzzle: self.puzzle(i),
            position: None,
            solution,
            text: RecordText::default(),
        }
    }

    /// Row `i` through `work`, the library's work of one record (the CLI's pipeline calls
    /// the same): a puzzle as a bare puzzle, a row that is not one as its record, which the
    /// work reports with its status and message.
    #[inline]
    pub fn through<R, W: Work<R>>(&self, i: usize, work: &W) -> R {
        if let Some(p) = self.position(i) {
            return work.record(Record {
                line: i as u64 + 1,
                id: None,
                puzzle: Err(RecordError::Candidates),
                position: Some(Box::new(p)),
                solution: None,
                text: RecordText::default(),
            });
        }
        match self.puzzle(i) {
            Ok(p) => work.puzzle(i as u64 + 1, p),
            Err(e) => work.record(Record {
                line: i as u64 + 1,
                id: None,
                puzzle: Err(e),
                position: None,
                solution: None,
                text: RecordText::default(),
            }),
        }
    }
}

#[pymethods]
impl Batch {
    /// Puzzles as a C-contiguous (n, 81) uint8 array of cell values (0 empty), read in place;
    /// `bad` gives the rows whose values, as the caller's array held them, do not fit a
    /// cell: `{row: (cell, value)}` (the first such cell, 0-based).
    #[staticmethod]
    #[pyo3(signature = (cells, bad=None))]
    fn from_digits(
        cells: Bound<'_, PyArray2<u8>>,
        bad: Option<BTreeMap<usize, (usize, i128)>>,
    ) -> PyResult<Batch> {
        let shape = cells.shape();
        if shape[1] != CELLS {
            return Err(PyValueError::new_err(format!(
                "an array of puzzles must have 81 cells per row; this one has shape ({}, {})",
                shape[0], shape[1]
            )));
        }
        if !cells.is_c_contiguous() {
            return Err(slice_error("cells"));
        }
        let len = shape[0];
        let bad = bad
            .unwrap_or_default()
            .into_iter()
            .filter(|&(row, (cell, _))| row < len && cell < CELLS)
            .map(|(row, (cell, value))| {
                let position = cell + 1;
                (row, GridError::Value { position, value }.into())
            })
            .collect();
        Ok(Batch {
            len,
            store: Store::Borrowed(Borrowed {
                cells: cells.data().cast_const(),
                _array: cells.unbind(),
            }),
            bad,
        })
    }

    /// Puzzles as an (n, width) uint8 array of text bytes, NUL-padded (a numpy `S` array).
    #[staticmethod]
    fn from_fixed(chars: PyReadonlyArray2<'_, u8>) -> PyResult<Batch> {
        let shape = chars.shape();
        let text = chars.as_slice().map_err(|_| slice_error("chars"))?;
        let mut data = with_room(text.len())?;
        data.extend_from_slice(text);
        Ok(Batch {
            len: shape[0],
            store: Store::Fixed {
                data,
                width: shape[1],
            },
            bad: BTreeMap::new(),
        })
    }

    /// Puzzles as text bytes `data` and `offsets` (n + 1, Arrow's layout: puzzle `i` is
    /// `data[offsets[i]..offsets[i + 1]]`); `missing` marks null entries.
    #[staticmethod]
    #[pyo3(signature = (data, offsets, missing=None))]
    fn from_text(
        data: PyReadonlyArray1<'_, u8>,
        offsets: PyReadonlyArray1<'_, i64>,
        missing: Option<PyReadonlyArray1<'_, bool>>,
    ) -> PyResult<Batch> {
        let data = data.as_slice().map_err(|_| slice_error("data"))?;
        let offsets = offsets.as_slice().map_err(|_| slice_error("offsets"))?;
        let missing = match &missing {
            Some(m) => Some(m.as_slice().map_err(|_| slice_error("missing"))?),
            None => None,
        };
        let Some((&first, rest)) = offsets.split_first() else {
            return Err(PyValueError::new_err("offsets must hold n + 1 entries"));
        };
        if missing.is_some_and(|m| m.len() != rest.len()) {
            return Err(PyValueError::new_err(
                "missing must hold one entry per puzzle",
            ));
        }
        let mut packed = with_room(data.len())?;
        let mut ends = with_room(rest.len())?;
        let mut start = first;
        for (i, &end) in rest.iter().enumerate() {
            if start < 0 || end < start || end as usize > data.len() {
                return Err(PyValueError::new_err(format!(
                    "offsets {start}..{end} of puzzle {i} are outside the data"
                )));
            }
            if !missing.is_some_and(|m| m[i]) {
                packed.extend_from_slice(&data[start as usize..end as usize]);
            }
            ends.push(packed.len());
            start = end;
        }
        Ok(Batch {
            len: ends.len(),
            store: Store::Packed { data: packed, ends },
            bad: BTreeMap::new(),
        })
    }

    /// Puzzles as a sequence of `str` or `bytes` (with `ints`, also `int`: an 81-digit number
    /// whose leading zeros pandas dropped); `None` and NaN (a missing value in a pandas
    /// column) are missing puzzles.
    #[staticmethod]
    #[pyo3(signature = (items, ints=false))]
    fn from_strings(items: &Bound<'_, PyAny>, ints: bool) -> PyResult<Batch> {
        let n = items.len()?;
        let mut data = with_room(values(n, CELLS)?)?;
        let mut ends = with_room(n)?;
        for (i, item) in items.try_iter()?.enumerate() {
            let item = item?;
            if let Ok(s) = item.cast::<PyString>() {
                match s.to_str() {
                    Ok(text) => append(&mut data, text.as_bytes())?,
                    // Lone surrogates: not a puzzle, but still a record.
                    Err(_) => append(&mut data, s.to_string_lossy().as_bytes())?,
                }
            } else if let Ok(b) = item.cast::<PyBytes>() {
                append(&mut data, b.as_bytes())?;
            } else if ints && item.cast::<PyInt>().is_ok() && !item.is_instance_of::<PyBool>() {
                // pandas.read_csv parses an 81-digit column (Kaggle's) into ints, dropping
                // the leading zeros: those were empty cells, so they come back as zeros.
                let text = item.str()?;
                let digits = text.to_str()?.as_bytes();
                if digits.first() != Some(&b'-') {
                    append(
                        &mut data,
                        &[b'0'; CELLS][..CELLS.saturating_sub(digits.len())],
                    )?;
                }
                append(&mut data, digits)?;
            } else if item.is_none() || item.cast::<PyFloat>().is_ok_and(|f| f.value().is_nan()) {
                // Missing: an empty puzzle field.
            } else {
                let what = if ints { "a str or int" } else { "a str" };
                return Err(PyTypeError::new_err(format!(
                    "puzzle {i} is a {}, not {what}",
                    item.get_type().name()?
                )));
            }
            ends.push(data.len());
        }
        if ends.len() != n {
            return Err(PyValueError::new_err(
                "the sequence changed length while read",
            ));
        }
        Ok(Batch {
            len: n,
            store: Store::Packed { data, ends },
            bad: BTreeMap::new(),
        })
    }

    fn __len__(&self) -> usize {
        self.len
    }
}
