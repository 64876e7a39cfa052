//! `shuffle` as a library: each input puzzle under random Sudoku symmetries (same difficulty,
//! same solution count, new look), deterministic for a seed whatever the threads.
//!
//! Copy `j` of the record on line `line` of input `n` uses the random stream
//! `n · 2⁴⁰ + line · copies + j` of the seed, so it depends on nothing but its place.

use std::io::{self, Write};

use crate::engines::solver::solve_with_limit;
use crate::grid::Grid;
use crate::io::reader::Record;
use crate::io::write::PuzzleLines;
use crate::pipeline::Sink;
use crate::symmetry::{Rng, Symmetry};

/// How to shuffle.
#[derive(Clone, Copy, Debug)]
pub struct ShuffleConfig {
    /// The seed.
    pub seed: u64,
    /// Copies per input puzzle (at least 1).
    pub copies: u64,
    /// Carry (or, when the input has none, solve for) each puzzle's solution.
    pub with_solutions: bool,
}

/// The copies made of one record, or why it is not a puzzle.
#[derive(Clone, Debug)]
pub struct Shuffled {
    /// The record's line.
    pub line: u64,
    /// Each copy with its solution, or the message of a malformed record.
    pub copies: Result<Vec<(Grid, Option<Grid>)>, String>,
}

impl ShuffleConfig {
    /// The copies of `record`, the `input`-th input of the run.
    pub fn shuffle(&self, input: u64, record: Record) -> Shuffled {
        let puzzle = match record.puzzle {
            Ok(p) => p,
            Err(e) => {
                return Shuffled {
                    line: record.line,
                    copies: Err(format!("malformed: {e}")),
                }
            }
        };
        let solution = match record.solution {
            Some(Ok(s)) => Some(s),
            _ if self.with_solutions => solve_with_limit(&puzzle, 1).solution,
            _ => None,
        };
        let copies = self.copies.max(1);
        let stream = (input << 40) + record.line * copies;
        let made = (0..copies)
            .map(|j| {
                let sym = Symmetry::random(&mut Rng::new(self.seed, stream + j));
                (sym.apply(&puzzle), solution.map(|s| sym.apply(&s)))
            })
            .collect();
        Shuffled {
            line: record.line,
            copies: Ok(made),
        }
    }
}

impl<W: Write> Sink<Shuffled> for PuzzleLines<W> {
    fn start(&mut self) -> io::Result<()> {
        PuzzleLines::start(self)
    }
    fn write(&mut self, item: &Shuffled) -> io::Result<()> {
        let Ok(copies) = &item.copies else {
            return self.write_word("malformed");
        };
        copies
            .iter()
            .try_for_each(|(puzzle, solution)| PuzzleLines::write(self, puzzle, solution.as_ref()))
    }
    fn flush(&mut self) -> io::Result<()> {
        PuzzleLines::flush(self)
    }
}
