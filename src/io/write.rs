//! Writing code shared by every report format: the format names, CSV fields quoted as
//! RFC 4180 asks, JSON objects written field by field in a fixed order, 81-cell grids, and
//! `puzzle[,solution]` lines.

use std::io::{self, Write};

use serde::Serialize;

use crate::engines::rater::Difficulty;
use crate::grid::{Grid, CELLS};
use crate::position::{Position, POSITION_LEN};

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
/// reads back). With ratings (`generate --rating`), each line ends with the puzzle's ER/EP/ED:
/// `puzzle 6.6/1.2/1.2` (still a line every reader takes: its first 81-cell field is the
/// puzzle, and there is no second one), or `er,ep,ed` columns after the solution.
pub struct PuzzleLines<W: Write> {
    out: W,
    with_solutions: bool,
    ratings: bool,
    header: bool,
}

/// The longest line: puzzle, solution and three ratings of up to 4 characters, separated.
const LONGEST_LINE: usize = 2 * CELLS + 3 * 5 + 2;

impl<W: Write> PuzzleLines<W> {
    /// Lines into `out`; `with_solutions` adds the solution column and the header.
    pub fn new(out: W, with_solutions: bool) -> PuzzleLines<W> {
        PuzzleLines {
            out,
            with_solutions,
            ratings: false,
            header: with_solutions,
        }
    }

    /// Every line also holds its puzzle's ER/EP/ED (written by [`PuzzleLines::write_rated`]).
    pub fn with_ratings(mut self) -> PuzzleLines<W> {
        self.ratings = true;
        self
    }

    /// The header line, if there is one and it was not written yet.
    pub fn start(&mut self) -> io::Result<()> {
        if std::mem::take(&mut self.header) {
            self.out.write_all(b"puzzle,solution")?;
            if self.ratings {
                self.out.write_all(b",er,ep,ed")?;
            }
            self.out.write_all(b"\n")?;
        }
        Ok(())
    }

    /// One puzzle (and its solution column, empty for `None`, when solutions are written).
    pub fn write(&mut self, puzzle: &Grid, solution: Option<&Grid>) -> io::Result<()> {
        let mut line = [0u8; LONGEST_LINE];
        let len = self.puzzle_fields(&mut line, puzzle, solution);
        line[len] = b'\n';
        self.out.write_all(&line[..=len])
    }

    /// One puzzle with its rating `[er, ep, ed]`: ` ER/EP/ED` after the puzzle, or `,er,ep,ed`
    /// after the solution column.
    pub fn write_rated(
        &mut self,
        puzzle: &Grid,
        solution: Option<&Grid>,
        rating: [Difficulty; 3],
    ) -> io::Result<()> {
        let mut line = [0u8; LONGEST_LINE];
        let mut len = self.puzzle_fields(&mut line, puzzle, solution);
        let (first, then) = if self.with_solutions {
            (b',', b',')
        } else {
            (b' ', b'/')
        };
        for (i, d) in rating.into_iter().enumerate() {
            line[len] = if i == 0 { first } else { then };
            len += 1;
            len += d.write_text(&mut line[len..]);
        }
        line[len] = b'\n';
        self.out.write_all(&line[..=len])
    }

    /// The puzzle, and the solution column when solutions are written, into `line`; returns
    /// the length written.
    fn puzzle_fields(&self, line: &mut [u8], puzzle: &Grid, solution: Option<&Grid>) -> usize {
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
        len
    }

    /// One candidate grid in its 729-character form (and its solution column, empty for
    /// `None`, when solutions are written).
    pub fn write_position(
        &mut self,
        position: &Position,
        solution: Option<&Grid>,
    ) -> io::Result<()> {
        let mut line = [0u8; POSITION_LEN];
        position.write_line(&mut line);
        self.out.write_all(&line)?;
        if self.with_solutions {
            self.out.write_all(b",")?;
            if let Some(s) = solution {
                let mut cells = [0u8; CELLS];
                s.write_line(b'0', &mut cells);
                self.out.write_all(&cells)?;
            }
        }
        self.out.write_all(b"\n")
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

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    fn lines(with_solutions: bool, ratings: bool, rating: [Difficulty; 3]) -> String {
        let grid = Grid::from_line(PUZZLE).unwrap();
        let mut out = PuzzleLines::new(Vec::new(), with_solutions);
        if ratings {
            out = out.with_ratings();
        }
        out.start().unwrap();
        if ratings {
            out.write_rated(&grid, Some(&grid), rating).unwrap();
        } else {
            out.write(&grid, Some(&grid)).unwrap();
        }
        String::from_utf8(out.into_inner()).unwrap()
    }

    #[test]
    fn ratings_follow_the_puzzle_or_the_solution_column() {
        let r = [Difficulty(66), Difficulty(12), Difficulty(255)];
        assert_eq!(lines(false, true, r), format!("{PUZZLE} 6.6/1.2/25.5\n"));
        assert_eq!(
            lines(true, true, r),
            format!(
                "puzzle,solution,er,ep,ed\n{PUZZLE},{},6.6,1.2,25.5\n",
                PUZZLE.replace('.', "0")
            )
        );
        assert_eq!(lines(false, false, r), format!("{PUZZLE}\n"));
        assert_eq!(
            lines(true, false, r),
            format!("puzzle,solution\n{PUZZLE},{}\n", PUZZLE.replace('.', "0"))
        );
        assert_eq!(
            lines(false, true, [Difficulty(0); 3]),
            format!("{PUZZLE} 0.0/0.0/0.0\n")
        );
    }
}
