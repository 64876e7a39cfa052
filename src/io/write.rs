//! Writing code shared by every report format: the format names, CSV fields quoted as
//! RFC 4180 asks, JSON objects written field by field in a fixed order, 81-cell grids, and
//! `puzzle[,solution]` lines.

use std::io::{self, Write};

use serde::Serialize;

use crate::grid::{Grid, CELLS};

/// Output formats: `Line` is each command's own line format (a solution, a form, or a text
/// report).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutputFormat {
    /// One line per record (solve: the solution or the status word; verify: text).
    #[default]
    Line,
    /// CSV with a header.
    Csv,
    /// One JSON object per line.
    Jsonl,
}

/// Writes one JSON object field by field, in the order given.
pub struct JsonObject<'a, W: Write> {
    out: &'a mut W,
    first: bool,
}

impl<'a, W: Write> JsonObject<'a, W> {
    /// Start an object.
    pub fn new(out: &'a mut W) -> io::Result<Self> {
        out.write_all(b"{")?;
        Ok(JsonObject { out, first: true })
    }

    /// One field (the key is JSON-escaped).
    pub fn field(&mut self, key: &str, value: &impl Serialize) -> io::Result<()> {
        if !std::mem::take(&mut self.first) {
            self.out.write_all(b",")?;
        }
        serde_json::to_writer(&mut *self.out, key)?;
        self.out.write_all(b":")?;
        serde_json::to_writer(&mut *self.out, value)?;
        Ok(())
    }

    /// Close the object and end the line.
    pub fn end(self) -> io::Result<()> {
        self.out.write_all(b"}\n")
    }
}

/// Write a grid as an 81-character line with `empty` for empty cells (nothing for `None`).
pub fn write_grid(out: &mut impl Write, grid: Option<&Grid>, empty: u8) -> io::Result<()> {
    if let Some(g) = grid {
        let mut buf = [0u8; CELLS];
        g.write_line(empty, &mut buf);
        out.write_all(&buf)?;
    }
    Ok(())
}

/// Write a CSV field, quoted when it holds a delimiter, quote or line break.
pub fn write_csv_field(out: &mut impl Write, field: &[u8]) -> io::Result<()> {
    if !field
        .iter()
        .any(|b| matches!(b, b',' | b'"' | b'\n' | b'\r'))
    {
        return out.write_all(field);
    }
    out.write_all(b"\"")?;
    for part in field.split_inclusive(|&b| b == b'"') {
        out.write_all(part)?;
        if part.ends_with(b"\"") {
            out.write_all(b"\"")?;
        }
    }
    out.write_all(b"\"")
}

/// Writes puzzles one per line, `.` for empty cells, or `puzzle,solution` lines under a
/// `puzzle,solution` header (the format `generate` and `shuffle` write and every reader
/// reads back).
pub struct PuzzleLines<W: Write> {
    out: W,
    with_solutions: bool,
    header: bool,
}

impl<W: Write> PuzzleLines<W> {
    /// Lines into `out`; `with_solutions` adds the solution column and the header.
    pub fn new(out: W, with_solutions: bool) -> PuzzleLines<W> {
        PuzzleLines {
            out,
            with_solutions,
            header: with_solutions,
        }
    }

    /// The header line, if there is one and it was not written yet.
    pub fn start(&mut self) -> io::Result<()> {
        if std::mem::take(&mut self.header) {
            self.out.write_all(b"puzzle,solution\n")?;
        }
        Ok(())
    }

    /// One puzzle (and its solution column, empty for `None`, when solutions are written).
    pub fn write(&mut self, puzzle: &Grid, solution: Option<&Grid>) -> io::Result<()> {
        let mut line = [0u8; 2 * CELLS + 2];
        puzzle.write_line(b'.', (&mut line[..CELLS]).try_into().expect("81 cells"));
        let mut len = CELLS;
        if self.with_solutions {
            line[len] = b',';
            len += 1;
            if let Some(s) = solution {
                s.write_line(b'0', (&mut line[len..len + CELLS]).try_into().expect("81"));
                len += CELLS;
            }
        }
        line[len] = b'\n';
        self.out.write_all(&line[..=len])
    }

    /// A line of text in place of a puzzle (a status word such as `malformed`).
    pub fn write_word(&mut self, word: &str) -> io::Result<()> {
        self.out.write_all(word.as_bytes())?;
        self.out.write_all(b"\n")
    }

    /// Flush the output.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// The output, to flush and close.
    pub fn into_inner(self) -> W {
        self.out
    }
}
