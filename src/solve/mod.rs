//! `solve` as a library: each record with its outcome, its status word, and the result
//! writer (line, csv, jsonl, passthrough) in [`writer`].

pub mod summary;
pub mod writer;

use serde::Serialize;

use crate::io::reader::Record;
use crate::pipeline::Fold;
use crate::solver::{Algorithm, Limits, Outcome, Status};
use crate::stats::RunStats;
use summary::Difficulty;

pub use writer::{Columns, LineRender, ResultWriter};

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
            RecordStatus::Solved => true,
            RecordStatus::Multiple => limit < 2,
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
/// with the result (a malformed one is always kept: its error is the message).
pub fn solve_record(
    record: Record,
    algorithm: Algorithm,
    limits: &Limits<'_>,
    keep: bool,
) -> SolvedRecord {
    let outcome = record
        .puzzle
        .as_ref()
        .ok()
        .map(|p| algorithm.solve(p, limits));
    SolvedRecord {
        line: record.line,
        input: (keep || outcome.is_none()).then(|| Box::new(record)),
        outcome,
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
    pub difficulty: Difficulty,
}

impl Fold<SolvedRecord> for FoldFine<'_> {
    type Part = Counted;
    #[inline]
    fn fold(&self, part: &mut Counted, r: &SolvedRecord) -> bool {
        if !r.is_fine(self.limit) {
            return false;
        }
        tally(&mut part.stats, r);
        part.difficulty.add(self.file, r);
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
