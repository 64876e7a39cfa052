//! Result writers: one output record per input record, in the order given.
//!
//! - `line`: the 81-digit solution, or the status word (`unsolvable`, `invalid`, `multiple`,
//!   `malformed`);
//! - `csv`: header `line,id,puzzle,solution,status,solutions,guesses,nodes,error` (`error`:
//!   the message of a malformed or invalid record), with a `file` column first when there are
//!   several inputs; `puzzle` is the puzzle as written in the input (`0` stays `0`) unless
//!   [`Columns::empty`] normalises it;
//! - `jsonl`: one object per record with the same fields plus `error` for malformed and
//!   invalid records.
//!
//! With [`Columns::passthrough`] a csv or jsonl record is the input record as read (a CSV
//! row's columns under their own names, values byte for byte; a line file's whole line as
//! `input`) followed by the result fields `file` (several inputs), `line`, `solution`,
//! `status`, `solutions`, `guesses`, `nodes`, `error`. A result name that equals an input
//! column's gets `result_` in front (again, until it is unique), so nothing is overwritten:
//! a Kaggle `puzzle,solution` file gives `puzzle,solution,line,result_solution,status,...`.

use std::io::{self, Write};

use crate::grid::CELLS;
use crate::io::passthrough::RecordFields;
use crate::io::write::{write_csv_field, write_grid, JsonObject, OutputFormat};
use crate::jobs::records::{RecordFormat, RecordWriter};
use crate::jobs::solve::{SolveStatus, SolvedRecord};

pub use crate::io::passthrough::{Columns, ColumnsDiffer};

/// The result fields of a passthrough record, in order (`file` only with several inputs).
const RESULT_FIELDS: [&str; 8] = [
    "file",
    "line",
    "solution",
    "status",
    "solutions",
    "guesses",
    "nodes",
    "error",
];

/// Writes [`SolvedRecord`]s in one format.
pub type SolveWriter<W> = RecordWriter<W, SolveFormat>;

/// How a solve record is written, for the current input (shared by the writer and the
/// workers' render, so both give the same bytes).
#[derive(Clone, Debug)]
pub struct SolveFormat {
    format: OutputFormat,
    fields: RecordFields,
}

const CSV_HEADER: &[u8] = b"line,id,puzzle,solution,status,solutions,guesses,nodes,error\n";

impl SolveFormat {
    /// Records in `format`.
    pub fn new(format: OutputFormat) -> SolveFormat {
        SolveFormat {
            format,
            fields: RecordFields::new(&RESULT_FIELDS),
        }
    }
}

impl RecordFormat for SolveFormat {
    type Record = SolvedRecord;
    const CSV_HEADER: &'static [u8] = CSV_HEADER;
    const LINE_MAX: usize = LINE_MAX;

    fn format(&self) -> OutputFormat {
        self.format
    }
    fn fields(&mut self) -> &mut RecordFields {
        &mut self.fields
    }
    fn write_csv(&self, out: &mut impl Write, r: &SolvedRecord) -> io::Result<()> {
        let o = r.outcome.as_ref();
        self.fields
            .write_csv_start(&mut *out, r.line, r.input.as_deref())?;
        let mut number = itoa::Buffer::new();
        write_grid(&mut *out, o.and_then(|o| o.solution).as_ref(), b'0')?;
        let (solutions, guesses, nodes) =
            o.map_or((0, 0, 0), |o| (o.solutions, o.guesses, o.nodes));
        out.write_all(b",")?;
        out.write_all(r.status().as_str().as_bytes())?;
        for n in [u64::from(solutions), guesses, nodes] {
            out.write_all(b",")?;
            out.write_all(number.format(n).as_bytes())?;
        }
        out.write_all(b",")?;
        if let Some(e) = r.error() {
            write_csv_field(&mut *out, e.as_bytes())?;
        }
        out.write_all(b"\n")
    }

    fn write_jsonl(&self, out: &mut impl Write, r: &SolvedRecord) -> io::Result<()> {
        let o = r.outcome.as_ref();
        let mut obj = JsonObject::new(out)?;
        let mut results = self
            .fields
            .write_json_start(&mut obj, r.line, r.input.as_deref())?;
        let solution = o.and_then(|o| o.solution).map(|s| s.to_line());
        obj.field(results.next().expect("solution"), &solution)?;
        obj.field(results.next().expect("status"), &r.status())?;
        obj.field(
            results.next().expect("solutions"),
            &o.map_or(0, |o| o.solutions),
        )?;
        obj.field(
            results.next().expect("guesses"),
            &o.map_or(0, |o| o.guesses),
        )?;
        obj.field(results.next().expect("nodes"), &o.map_or(0, |o| o.nodes))?;
        if let Some(e) = r.error() {
            obj.field(results.next().expect("error"), &e)?;
        }
        obj.end()
    }
    fn line(r: &SolvedRecord, out: &mut [u8]) -> usize {
        line_record(r, out)
    }
}

/// The most bytes of one line record: a solution and its line break (a status word is
/// shorter).
const LINE_MAX: usize = CELLS + 1;

/// One line record at the start of `out` (at least [`LINE_MAX`] bytes); returns its length.
#[inline]
fn line_record(r: &SolvedRecord, out: &mut [u8]) -> usize {
    let text: &[u8] = match (&r.outcome, r.status()) {
        (Some(o), SolveStatus::Solved) => {
            let grid = o.solution.as_ref().expect("solved has a solution");
            // Cells are 1..=9 in a solution: one add each, as vector code.
            for (byte, &v) in out[..CELLS].iter_mut().zip(grid.cells()) {
                *byte = b'0' + v;
            }
            out[CELLS] = b'\n';
            return LINE_MAX;
        }
        (_, status) => status.as_str().as_bytes(),
    };
    out[..text.len()].copy_from_slice(text);
    out[text.len()] = b'\n';
    text.len() + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::solver::solve_with_limit;
    use crate::error::{GridError, RecordError};
    use crate::grid::Grid;
    use crate::io::reader::Record;

    fn solved(text: &str, id: Option<&str>) -> SolvedRecord {
        let puzzle = Grid::from_line(text).map_err(RecordError::from);
        let outcome = puzzle.as_ref().ok().map(|p| solve_with_limit(p, 2));
        SolvedRecord {
            line: 7,
            outcome,
            input: Some(Box::new(Record {
                position: None,
                line: 7,
                id: id.map(str::to_string),
                puzzle,
                solution: None,
                text: Default::default(),
            })),
        }
    }

    fn render(format: OutputFormat, records: &[SolvedRecord]) -> String {
        let mut w = SolveWriter::new(Vec::new(), SolveFormat::new(format), true);
        w.start().unwrap();
        for r in records {
            w.write(r).unwrap();
        }
        String::from_utf8(w.into_inner().unwrap()).unwrap()
    }

    const P: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    const S: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    #[test]
    fn line_format_writes_solution_or_status() {
        let empty = ".".repeat(81);
        let out = render(
            OutputFormat::Line,
            &[solved(P, None), solved(&empty, None), solved("12x", None)],
        );
        assert_eq!(out, format!("{S}\nmultiple\nmalformed\n"));
    }

    #[test]
    fn csv_format_has_header_and_quotes_ids() {
        let out = render(
            OutputFormat::Csv,
            &[solved(P, Some("a,b")), solved("1", None)],
        );
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines[0],
            "line,id,puzzle,solution,status,solutions,guesses,nodes,error"
        );
        assert_eq!(lines[1], format!("7,\"a,b\",{P},{S},solved,1,0,1,"));
        assert_eq!(lines[2], "7,,,,malformed,0,0,0,\"1 cells, expected 81\"");
        assert_eq!(
            render(OutputFormat::Csv, &[]),
            "line,id,puzzle,solution,status,solutions,guesses,nodes,error\n"
        );
    }

    #[test]
    fn jsonl_format_carries_errors() {
        let out = render(OutputFormat::Jsonl, &[solved(&P[..80], None)]);
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(v["status"], "malformed");
        assert_eq!(v["line"], 7);
        assert_eq!(v["error"], GridError::Length { found: 80 }.to_string());
        let mut bad = P.to_string();
        bad.replace_range(2..3, "3");
        let out = render(OutputFormat::Jsonl, &[solved(&bad, None)]);
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(v["status"], "invalid");
        assert!(v["error"]
            .as_str()
            .unwrap()
            .contains("digit 3 appears twice in row 1"));
    }
}
