//! `solve` as a library: each record with its outcome, its status word, and the result
//! writer (line, csv, jsonl, passthrough) in [`writer`].

pub mod summary;
pub mod writer;

use serde::Serialize;

use crate::engines::solver::{solve_position, Algorithm, Limits, Outcome, Status};
use crate::grid::Grid;
use crate::io::reader::Record;
use crate::pipeline::{Fold, Work};
use crate::stats::RunStats;
use summary::SearchEffort;

pub use writer::{Columns, SolveFormat, SolveWriter};

/// The status of one output record: a solver status, or `malformed` for text that is not a
/// puzzle. Each has a stable code (its discriminant: the Python module's `Status` values), in
/// the order of [`SolveStatus::ALL`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
#[repr(u8)]
pub enum SolveStatus {
    /// Solved (uniquely, with a limit of 2 or more).
    Solved = 0,
    /// Two or more solutions.
    Multiple = 1,
    /// No solution.
    Unsolvable = 2,
    /// The givens break a rule.
    Invalid = 3,
    /// The text is not a puzzle.
    Malformed = 4,
    /// Stopped before the search finished.
    Aborted = 5,
}

impl From<Status> for SolveStatus {
    fn from(status: Status) -> SolveStatus {
        match status {
            Status::Solved => SolveStatus::Solved,
            Status::Multiple => SolveStatus::Multiple,
            Status::Unsolvable => SolveStatus::Unsolvable,
            Status::Invalid => SolveStatus::Invalid,
            Status::Aborted => SolveStatus::Aborted,
        }
    }
}

impl SolveStatus {
    /// Every status, in code order.
    pub const ALL: [SolveStatus; 6] = [
        SolveStatus::Solved,
        SolveStatus::Multiple,
        SolveStatus::Unsolvable,
        SolveStatus::Invalid,
        SolveStatus::Malformed,
        SolveStatus::Aborted,
    ];

    /// The status's stable code.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The status word.
    pub fn as_str(self) -> &'static str {
        match self {
            SolveStatus::Solved => "solved",
            SolveStatus::Multiple => "multiple",
            SolveStatus::Unsolvable => "unsolvable",
            SolveStatus::Invalid => "invalid",
            SolveStatus::Malformed => "malformed",
            SolveStatus::Aborted => "aborted",
        }
    }
}

/// An input record with what the solver made of it.
///
/// Small on purpose (it is moved between the pipeline's stages once per record): the input
/// record itself is only kept, boxed, when the output shows more than results (csv and jsonl
/// output ask for it with `keep`) or when it is malformed (its error is the message).
#[derive(Clone, Debug)]
pub struct SolvedRecord {
    /// 1-based line number where the record starts.
    pub line: u64,
    /// The solver's outcome (`None`: the record is malformed).
    pub outcome: Option<Outcome>,
    /// The input record, when kept.
    pub input: Option<Box<Record>>,
}

impl SolvedRecord {
    /// The output status.
    pub fn status(&self) -> SolveStatus {
        match &self.outcome {
            None => SolveStatus::Malformed,
            Some(o) => o.status.into(),
        }
    }

    /// The message for malformed and invalid records.
    pub fn error(&self) -> Option<String> {
        if let Some(p) = self.input.as_ref().and_then(|r| r.position.as_ref()) {
            return p.fault().map(|f| f.to_string());
        }
        match (self.input.as_ref().map(|r| &r.puzzle), &self.outcome) {
            (Some(Err(e)), _) => Some(e.to_string()),
            (_, Some(o)) => o.conflict.map(|c| c.to_string()),
            _ => None,
        }
    }

    /// True when nothing is wrong with the record: solved, or, with a `limit` below 2,
    /// `multiple` (it cannot be told apart from solved then).
    pub fn is_fine(&self, limit: u32) -> bool {
        match self.status() {
            SolveStatus::Solved => true,
            SolveStatus::Multiple => limit < 2,
            _ => false,
        }
    }

    /// What is wrong with the record, for `--strict` and stderr (`None`: it is fine, see
    /// [`is_fine`](Self::is_fine)).
    pub fn problem(&self, limit: u32) -> Option<String> {
        if self.is_fine(limit) {
            return None;
        }
        let status = self.status().as_str();
        Some(match self.error() {
            Some(e) => format!("{status}: {e}"),
            None => status.to_string(),
        })
    }
}

/// Solve one record (a malformed record gets no outcome). `keep` keeps the input record
/// with the result (a malformed one is always kept: its error is the message; so is a
/// candidate grid, whose text is not a puzzle line). A candidate grid is solved from its
/// candidates by the fast solver ([`solve_position`]), whatever `algorithm` says.
pub fn solve_record(
    record: Record,
    algorithm: Algorithm,
    limits: &Limits<'_>,
    keep: bool,
) -> SolvedRecord {
    let outcome = match (&record.puzzle, &record.position) {
        (_, Some(p)) => Some(solve_position(p, limits.solutions)),
        (Ok(p), None) => Some(algorithm.solve(p, limits)),
        (Err(_), None) => None,
    };
    SolvedRecord {
        line: record.line,
        input: (keep || record.puzzle.is_err()).then(|| Box::new(record)),
        outcome,
    }
}

/// Solving as the pipeline's [`Work`]: [`solve_record`] on each record, and on a bare puzzle
/// (the common record) the same without making the record. The Python module's `solve`
/// calls it too.
pub struct SolveWork<'a> {
    /// The solver.
    pub algorithm: Algorithm,
    /// Its limits.
    pub limits: Limits<'a>,
    /// Keep each input record with its result (see [`solve_record`]).
    pub keep: bool,
}

impl Work<SolvedRecord> for SolveWork<'_> {
    #[inline]
    fn record(&self, record: Record) -> SolvedRecord {
        solve_record(record, self.algorithm, &self.limits, self.keep)
    }

    #[inline]
    fn puzzle(&self, line: u64, puzzle: Grid) -> SolvedRecord {
        if self.keep {
            return self.record(Record::plain(line, puzzle));
        }
        SolvedRecord {
            line,
            outcome: Some(self.algorithm.solve(&puzzle, &self.limits)),
            input: None,
        }
    }
}

/// Counts fine records on the workers ([`Fold`]), so that only the others reach the collect
/// step: fine records need no message and cannot stop a `--strict` run.
pub struct FoldFine<'a> {
    /// The input's name (for the hardest puzzle).
    pub file: &'a str,
    /// The solution limit (is `multiple` fine?).
    pub limit: u32,
}

/// One worker's counts of fine records (see [`FoldFine`]).
#[derive(Debug, Default)]
pub struct Counted {
    /// Totals.
    pub stats: RunStats,
    /// Guesses and nodes, and the hardest puzzle.
    pub effort: SearchEffort,
}

impl Fold<SolvedRecord> for FoldFine<'_> {
    type Part = Counted;
    #[inline]
    fn fold(&self, part: &mut Counted, r: &SolvedRecord) -> bool {
        if !r.is_fine(self.limit) {
            return false;
        }
        tally(&mut part.stats, r);
        part.effort.add(self.file, r);
        true
    }
}

/// Count one result into `stats`.
pub fn tally(stats: &mut RunStats, r: &SolvedRecord) {
    match &r.outcome {
        Some(o) => stats.add_outcome(o),
        None => stats.add_malformed(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Of equally hard puzzles counted in any order, the one on the earliest line is the
    /// hardest (a worker counts the records it took in its own order; the summary once named
    /// another puzzle from run to run).
    #[test]
    fn the_hardest_is_the_first_of_equals_whatever_the_order() {
        let hard = Grid::from_line(
            "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
        )
        .unwrap();
        let at = |line| SolvedRecord {
            line,
            outcome: Some(crate::engines::solver::solve_with_limit(&hard, 1)),
            input: None,
        };
        for order in [[5, 9, 3], [9, 3, 5], [3, 5, 9]] {
            let mut d = SearchEffort::default();
            for line in order {
                d.add("in", &at(line));
            }
            let summary = summary::Summary::new(
                summary::RunInfo {
                    inputs: vec!["in".into()],
                    algorithm: Algorithm::Fast,
                    threads: 2,
                    limit: 1,
                },
                1.0,
                RunStats::default(),
                d,
            );
            assert_eq!(summary.hardest.map(|h| h.line), Some(3), "{order:?}");
        }
    }

    #[test]
    fn status_codes_are_their_order() {
        for (i, s) in SolveStatus::ALL.iter().enumerate() {
            assert_eq!(usize::from(s.code()), i, "{s:?}");
        }
    }

    /// A bare puzzle gives what its record gives, whether the record is kept or not.
    #[test]
    fn a_bare_puzzle_is_solved_as_its_record() {
        let puzzles = [
            // Solved, two solutions, invalid (two 5s in row 1), unsolvable.
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
            ".................................................................................",
            "55..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
            "531.7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        ];
        for keep in [false, true] {
            let work = SolveWork {
                algorithm: Algorithm::Fast,
                limits: Limits::solutions(2),
                keep,
            };
            for (i, p) in puzzles.iter().enumerate() {
                let grid = Grid::from_line(p).unwrap();
                let bare = work.puzzle(7, grid);
                let whole = work.record(Record::plain(7, grid));
                assert_eq!(bare.line, whole.line);
                assert_eq!(bare.outcome, whole.outcome, "puzzle {i}");
                assert_eq!(bare.input, whole.input, "puzzle {i}");
                assert_eq!(bare.input.is_some(), keep);
            }
        }
    }
}
