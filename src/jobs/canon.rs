//! `canon` records: each input record with its canonical form, and the writer for them.
//!
//! - `line`: the form (81 characters, `.` for empty), or the status word `invalid` or
//!   `malformed`;
//! - `csv`: header `line,id,puzzle,canonical,automorphisms,status,error`;
//! - `jsonl`: one object per record with the same fields (`error` only when there is one).
//!
//! A puzzle whose givens break a rule gets no form (status `invalid`, as in `solve`): it is
//! not a puzzle anyone can solve, and a dataset check should see it rather than have it
//! quietly deduplicated. The library's [`crate::engines::canonical`] does canonicalise such grids.

use std::io::{self, Write};

use serde::Serialize;

use crate::engines::canonical::{Canonical, Canonicalizer};
use crate::grid::{Conflict, Grid, CELLS};
use crate::io::reader::Record;
use crate::io::write::{write_csv_field, write_grid, OutputFormat};
use crate::pipeline::Sink;

/// The status of a `canon` output record. Each has a stable code (its discriminant: the
/// Python module's `CanonStatus` values), in the order of [`CanonStatus::ALL`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[repr(u8)]
pub enum CanonStatus {
    /// The puzzle has a form.
    Ok = 0,
    /// The givens break a rule (no form).
    Invalid = 1,
    /// The text is not a puzzle.
    Malformed = 2,
}

impl CanonStatus {
    /// Every status, in code order.
    pub const ALL: [CanonStatus; 3] = [
        CanonStatus::Ok,
        CanonStatus::Invalid,
        CanonStatus::Malformed,
    ];

    /// The status's stable code.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The status word.
    pub fn as_str(self) -> &'static str {
        match self {
            CanonStatus::Ok => "ok",
            CanonStatus::Invalid => "invalid",
            CanonStatus::Malformed => "malformed",
        }
    }
}

/// An input record with its canonical form.
#[derive(Clone, Debug)]
pub struct CanonRecord {
    /// The input record.
    pub record: Record,
    /// The form and automorphism count, for a puzzle with valid givens.
    pub canonical: Option<Canonical>,
    /// The broken rule, for a puzzle with invalid givens.
    pub conflict: Option<Conflict>,
}

impl CanonRecord {
    /// Canonicalise one record with `search` (reused between records of one thread).
    pub fn new(record: Record, search: &mut Canonicalizer) -> CanonRecord {
        let conflict = record.puzzle.as_ref().ok().and_then(Grid::conflict);
        let canonical = match &record.puzzle {
            Ok(p) if conflict.is_none() => Some(search.canonicalize(p)),
            _ => None,
        };
        CanonRecord {
            record,
            canonical,
            conflict,
        }
    }

    /// The output status.
    pub fn status(&self) -> CanonStatus {
        match (&self.record.puzzle, &self.conflict) {
            (Err(_), _) => CanonStatus::Malformed,
            (Ok(_), Some(_)) => CanonStatus::Invalid,
            (Ok(_), None) => CanonStatus::Ok,
        }
    }

    /// The message for malformed and invalid records.
    pub fn error(&self) -> Option<String> {
        match (&self.record.puzzle, &self.conflict) {
            (Err(e), _) => Some(e.to_string()),
            (_, Some(c)) => Some(c.to_string()),
            _ => None,
        }
    }
}

#[derive(Serialize)]
struct JsonRow<'a> {
    line: u64,
    id: Option<&'a str>,
    puzzle: Option<String>,
    canonical: Option<String>,
    automorphisms: Option<u32>,
    status: CanonStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

const CSV_HEADER: &[u8] = b"line,id,puzzle,canonical,automorphisms,status,error\n";

/// Writes [`CanonRecord`]s in one format.
pub struct CanonWriter<W: Write> {
    out: W,
    format: OutputFormat,
    header: bool,
}

impl<W: Write> CanonWriter<W> {
    /// A writer; `header` asks for the CSV header line before the first record.
    pub fn new(out: W, format: OutputFormat, header: bool) -> CanonWriter<W> {
        CanonWriter {
            out,
            format,
            header: header && format == OutputFormat::Csv,
        }
    }

    /// The output, to flush and close.
    pub fn into_inner(self) -> W {
        self.out
    }

    fn write_record(&mut self, r: &CanonRecord) -> io::Result<()> {
        let form = r.canonical.map(|c| c.form);
        match self.format {
            OutputFormat::Line => match form {
                Some(f) => {
                    let mut buf = [0u8; CELLS + 1];
                    f.write_line(b'.', (&mut buf[..CELLS]).try_into().expect("81"));
                    buf[CELLS] = b'\n';
                    self.out.write_all(&buf)
                }
                None => writeln!(self.out, "{}", r.status().as_str()),
            },
            OutputFormat::Csv => {
                write!(self.out, "{},", r.record.line)?;
                if let Some(id) = &r.record.id {
                    write_csv_field(&mut self.out, id.as_bytes())?;
                }
                self.out.write_all(b",")?;
                write_grid(&mut self.out, r.record.puzzle.as_ref().ok(), b'.')?;
                self.out.write_all(b",")?;
                write_grid(&mut self.out, form.as_ref(), b'.')?;
                self.out.write_all(b",")?;
                if let Some(c) = r.canonical {
                    write!(self.out, "{}", c.automorphisms)?;
                }
                write!(self.out, ",{},", r.status().as_str())?;
                if let Some(e) = r.error() {
                    write_csv_field(&mut self.out, e.as_bytes())?;
                }
                self.out.write_all(b"\n")
            }
            OutputFormat::Jsonl => {
                let row = JsonRow {
                    line: r.record.line,
                    id: r.record.id.as_deref(),
                    puzzle: r.record.puzzle.as_ref().ok().map(Grid::to_line),
                    canonical: form.map(|f| f.to_line()),
                    automorphisms: r.canonical.map(|c| c.automorphisms),
                    status: r.status(),
                    error: r.error(),
                };
                serde_json::to_writer(&mut self.out, &row)?;
                self.out.write_all(b"\n")
            }
        }
    }
}

impl<W: Write> Sink<CanonRecord> for CanonWriter<W> {
    fn start(&mut self) -> io::Result<()> {
        if std::mem::take(&mut self.header) {
            self.out.write_all(CSV_HEADER)?;
        }
        Ok(())
    }
    fn write(&mut self, item: &CanonRecord) -> io::Result<()> {
        self.write_record(item)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}
