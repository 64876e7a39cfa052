//! `shuffle` as a library: each input puzzle under random Sudoku symmetries (same difficulty,
//! same solution count, new look), deterministic for a seed whatever the threads.
//!
//! Copy `j` of the record on line `line` of input `n` uses the random stream
//! `n · 2⁴⁰ + line · copies + j` of the seed, so it depends on nothing but its place.

use std::io::{self, Write};

use crate::engines::solver::{solve_position, solve_with_limit};
use crate::grid::Grid;
use crate::io::reader::Record;
use crate::io::write::PuzzleLines;
use crate::pipeline::Sink;
use crate::position::Position;
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
    pub copies: Result<Vec<(Copy, Option<Grid>)>, String>,
}

/// One shuffled copy: of a puzzle, or of a candidate grid (its cells moved and its
/// candidates relabelled alike).
#[derive(Clone, Debug)]
pub enum Copy {
    /// A puzzle's copy.
    Puzzle(Grid),
    /// A candidate grid's copy.
    Position(Box<Position>),
}

impl ShuffleConfig {
    /// The copies of `record`, the `input`-th input of the run.
    pub fn shuffle(&self, input: u64, record: Record) -> Shuffled {
        let original = match (record.puzzle, record.position) {
            (_, Some(p)) => Copy::Position(p),
            (Ok(p), None) => Copy::Puzzle(p),
            (Err(e), None) => {
                return Shuffled {
                    line: record.line,
                    copies: Err(format!("malformed: {e}")),
                }
            }
        };
        let solution = match (record.solution, &original) {
            (Some(Ok(s)), _) => Some(s),
            _ if !self.with_solutions => None,
            (_, Copy::Puzzle(p)) => solve_with_limit(p, 1).solution,
            (_, Copy::Position(p)) => solve_position(p, 1).solution,
        };
        let copies = self.copies.max(1);
        let stream = (input << 40) + record.line * copies;
        let made = (0..copies)
            .map(|j| {
                let sym = Symmetry::random(&mut Rng::new(self.seed, stream + j));
                let copy = match &original {
                    Copy::Puzzle(p) => Copy::Puzzle(sym.apply(p)),
                    Copy::Position(p) => Copy::Position(Box::new(sym.apply_position(p))),
                };
                (copy, solution.map(|s| sym.apply(&s)))
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
        copies.iter().try_for_each(|(copy, solution)| match copy {
            Copy::Puzzle(p) => PuzzleLines::write(self, p, solution.as_ref()),
            Copy::Position(p) => self.write_position(p, solution.as_ref()),
        })
    }
    fn flush(&mut self) -> io::Result<()> {
        PuzzleLines::flush(self)
    }
}
