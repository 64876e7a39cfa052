//! Result writers: one output record per input record, in the order given.
//!
//! - `line`: the 81-digit solution, or the status word (`unsolvable`, `invalid`, `multiple`,
//!   `malformed`);
//! - `csv`: header `line,id,puzzle,solution,status,solutions,guesses,nodes,error` (`error`:
//!   the message of a malformed or invalid record);
//! - `jsonl`: one object per record with the same fields plus `error` for malformed and
//!   invalid records.

use std::io::{self, Write};

use serde::Serialize;

use crate::grid::{Grid, CELLS};
use crate::io::reader::Record;
use crate::solver::{Outcome, Status};

/// Output formats of `solve`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutputFormat {
    /// One line per record: the solution or the status word.
    #[default]
    Line,
    /// CSV with a header.
    Csv,
    /// One JSON object per line.
    Jsonl,
}

/// The status of one output record: a solver status, or `malformed` for text that is not a
/// puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RecordStatus {
    /// Solved (uniquely, with a limit of 2 or more).
    Solved,
    /// Two or more solutions.
    Multiple,
    /// No solution.
    Unsolvable,
    /// The givens break a rule.
    Invalid,
    /// The text is not a puzzle.
    Malformed,
    /// Stopped before the search finished.
    Aborted,
}

impl RecordStatus {
    /// The status word.
    pub fn as_str(self) -> &'static str {
        match self {
            RecordStatus::Solved => "solved",
            RecordStatus::Multiple => "multiple",
            RecordStatus::Unsolvable => "unsolvable",
            RecordStatus::Invalid => "invalid",
            RecordStatus::Malformed => "malformed",
            RecordStatus::Aborted => "aborted",
        }
    }
}

/// An input record with what the solver made of it (`None` when it is malformed).
#[derive(Clone, Debug)]
pub struct SolvedRecord {
    /// The input record.
    pub record: Record,
    /// The solver's outcome, when the record is a puzzle.
    pub outcome: Option<Outcome>,
}

impl SolvedRecord {
    /// The output status.
    pub fn status(&self) -> RecordStatus {
        match &self.outcome {
            None => RecordStatus::Malformed,
            Some(o) => match o.status {
                Status::Solved => RecordStatus::Solved,
                Status::Multiple => RecordStatus::Multiple,
                Status::Unsolvable => RecordStatus::Unsolvable,
                Status::Invalid => RecordStatus::Invalid,
                Status::Aborted => RecordStatus::Aborted,
            },
        }
    }

    /// The message for malformed and invalid records.
    pub fn error(&self) -> Option<String> {
        match (&self.record.puzzle, &self.outcome) {
            (Err(e), _) => Some(e.to_string()),
            (_, Some(o)) => o.conflict.map(|c| c.to_string()),
            _ => None,
        }
    }
}

#[derive(Serialize)]
struct JsonRow<'a> {
    line: u64,
    id: Option<&'a str>,
    puzzle: Option<String>,
    solution: Option<String>,
    status: RecordStatus,
    solutions: u32,
    guesses: u64,
    nodes: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// Writes [`SolvedRecord`]s in one format.
pub struct ResultWriter<W: Write> {
    out: W,
    format: OutputFormat,
    header: bool,
}

const CSV_HEADER: &[u8] = b"line,id,puzzle,solution,status,solutions,guesses,nodes,error\n";

impl<W: Write> ResultWriter<W> {
    /// A writer; `header` asks for the CSV header line before the first record.
    pub fn new(out: W, format: OutputFormat, header: bool) -> ResultWriter<W> {
        ResultWriter {
            out,
            format,
            header: header && format == OutputFormat::Csv,
        }
    }

    /// Write the CSV header now if it is due (so an empty input still gets one).
    pub fn start(&mut self) -> io::Result<()> {
        if self.header {
            self.header = false;
            self.out.write_all(CSV_HEADER)?;
        }
        Ok(())
    }

    /// Write one record.
    pub fn write(&mut self, r: &SolvedRecord) -> io::Result<()> {
        self.start()?;
        match self.format {
            OutputFormat::Line => self.write_line(r),
            OutputFormat::Csv => self.write_csv(r),
            OutputFormat::Jsonl => self.write_json(r),
        }
    }

    fn write_line(&mut self, r: &SolvedRecord) -> io::Result<()> {
        match (&r.outcome, r.status()) {
            (Some(o), RecordStatus::Solved) => {
                let mut buf = [0u8; CELLS + 1];
                o.solution
                    .expect("solved has a solution")
                    .write_line(b'0', (&mut buf[..CELLS]).try_into().expect("81"));
                buf[CELLS] = b'\n';
                self.out.write_all(&buf)
            }
            (_, status) => {
                self.out.write_all(status.as_str().as_bytes())?;
                self.out.write_all(b"\n")
            }
        }
    }

    fn write_csv(&mut self, r: &SolvedRecord) -> io::Result<()> {
        let o = r.outcome.as_ref();
        write!(self.out, "{},", r.record.line)?;
        if let Some(id) = &r.record.id {
            write_csv_field(&mut self.out, id)?;
        }
        self.out.write_all(b",")?;
        write_grid(&mut self.out, r.record.puzzle.as_ref().ok(), b'.')?;
        self.out.write_all(b",")?;
        write_grid(&mut self.out, o.and_then(|o| o.solution).as_ref(), b'0')?;
        let (solutions, guesses, nodes) =
            o.map_or((0, 0, 0), |o| (o.solutions, o.guesses, o.nodes));
        write!(
            self.out,
            ",{},{solutions},{guesses},{nodes},",
            r.status().as_str()
        )?;
        if let Some(e) = r.error() {
            write_csv_field(&mut self.out, &e)?;
        }
        self.out.write_all(b"\n")
    }

    fn write_json(&mut self, r: &SolvedRecord) -> io::Result<()> {
        let o = r.outcome.as_ref();
        let row = JsonRow {
            line: r.record.line,
            id: r.record.id.as_deref(),
            puzzle: r.record.puzzle.as_ref().ok().map(Grid::to_line),
            solution: o.and_then(|o| o.solution).map(|s| s.to_line()),
            status: r.status(),
            solutions: o.map_or(0, |o| o.solutions),
            guesses: o.map_or(0, |o| o.guesses),
            nodes: o.map_or(0, |o| o.nodes),
            error: r.error(),
        };
        serde_json::to_writer(&mut self.out, &row)?;
        self.out.write_all(b"\n")
    }

    /// Flush the underlying writer.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// The underlying writer.
    pub fn into_inner(self) -> W {
        self.out
    }
}

pub(crate) fn write_grid(out: &mut impl Write, grid: Option<&Grid>, empty: u8) -> io::Result<()> {
    if let Some(g) = grid {
        let mut buf = [0u8; CELLS];
        g.write_line(empty, &mut buf);
        out.write_all(&buf)?;
    }
    Ok(())
}

/// Write a CSV field, quoted when it holds a delimiter, quote or line break.
pub(crate) fn write_csv_field(out: &mut impl Write, field: &str) -> io::Result<()> {
    if field.contains([',', '"', '\n', '\r']) {
        write!(out, "\"{}\"", field.replace('"', "\"\""))
    } else {
        out.write_all(field.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{GridError, RecordError};
    use crate::solver::solve_with_limit;

    fn solved(text: &str, id: Option<&str>) -> SolvedRecord {
        let puzzle = Grid::from_line(text).map_err(RecordError::from);
        let outcome = puzzle.as_ref().ok().map(|p| solve_with_limit(p, 2));
        SolvedRecord {
            record: Record {
                line: 7,
                id: id.map(str::to_string),
                puzzle,
                solution: None,
            },
            outcome,
        }
    }

    fn render(format: OutputFormat, records: &[SolvedRecord]) -> String {
        let mut w = ResultWriter::new(Vec::new(), format, true);
        w.start().unwrap();
        for r in records {
            w.write(r).unwrap();
        }
        String::from_utf8(w.into_inner()).unwrap()
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
