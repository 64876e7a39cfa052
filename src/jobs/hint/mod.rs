//! `hint` as a library: the next step from each record's position, as `rate` would take it
//! there, or the status that keeps it from one; the output in [`writer`].
//!
//! A record is a puzzle (its position: [`Position::from_grid`]) or a candidate grid. It is
//! solved first with a limit of 2, as `rate` does (the engine wants the one solution); then
//! the engine takes one step from the position ([`Rater::next_step`]): one step's work, not
//! a whole path's.

pub mod writer;

use serde::Serialize;

use crate::engines::rater::{Rater, Step};
use crate::grid::Grid;
use crate::io::reader::Record;
use crate::jobs::rate::{guarded, writer::step_body, RateStatus, Raters, Start};
use crate::pipeline::Work;
use crate::position::Position;

pub use writer::{step_sentence, HintFormat, HintWriter};

/// The status of one output record of `hint`. Codes 1-5 (and their words) are `rate`'s
/// ([`RateStatus`]); a step, a filled grid and no step are hint's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
#[repr(u8)]
pub enum HintStatus {
    /// The next step was found.
    Step = 0,
    /// Two or more solutions: no step.
    Multiple = 1,
    /// No solution.
    Unsolvable = 2,
    /// The position breaks a rule.
    Invalid = 3,
    /// The text is not a puzzle or candidate grid.
    Malformed = 4,
    /// The rating engine failed on this position (a defect of the engine).
    Failed = 5,
    /// Every cell is placed: nothing is left to do.
    Solved = 6,
    /// No technique of the ladder applies, or the next step is above `--max-rating`.
    Capped = 7,
}

impl HintStatus {
    /// Every status, in code order.
    pub const ALL: [HintStatus; 8] = [
        HintStatus::Step,
        HintStatus::Multiple,
        HintStatus::Unsolvable,
        HintStatus::Invalid,
        HintStatus::Malformed,
        HintStatus::Failed,
        HintStatus::Solved,
        HintStatus::Capped,
    ];

    /// The status's stable code.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The status word.
    pub fn as_str(self) -> &'static str {
        match self {
            HintStatus::Step => "step",
            HintStatus::Multiple => "multiple",
            HintStatus::Unsolvable => "unsolvable",
            HintStatus::Invalid => "invalid",
            HintStatus::Malformed => "malformed",
            HintStatus::Failed => "failed",
            HintStatus::Solved => "solved",
            HintStatus::Capped => "capped",
        }
    }

    /// Whether the record is fine for the exit code: a step, a filled grid, or no step of
    /// the ladder (capped, as `rate` counts a capped rating as rated).
    pub fn is_fine(self) -> bool {
        matches!(
            self,
            HintStatus::Step | HintStatus::Solved | HintStatus::Capped
        )
    }

    fn of_rate(status: RateStatus) -> HintStatus {
        match status {
            RateStatus::Rated => HintStatus::Step,
            RateStatus::Multiple => HintStatus::Multiple,
            RateStatus::Unsolvable => HintStatus::Unsolvable,
            RateStatus::Invalid => HintStatus::Invalid,
            RateStatus::Malformed => HintStatus::Malformed,
            RateStatus::Failed => HintStatus::Failed,
        }
    }
}

/// An input record with its next step.
#[derive(Clone, Debug)]
pub struct HintRecord {
    /// 1-based line number where the record starts.
    pub line: u64,
    /// What became of it.
    pub status: HintStatus,
    /// The step's JSON object body (`"step":1,...}` and a line break, as `rate --steps`
    /// writes it); empty without a step.
    pub step: Vec<u8>,
    /// The step in words ([`step_sentence`]), when asked for (text output).
    pub sentence: Option<String>,
    /// The position the step is taken from (text output; `None` for a malformed record).
    pub position: Option<Box<Position>>,
    /// The message of a malformed, invalid or failed record.
    pub error: Option<String>,
}

impl HintRecord {
    fn new(line: u64, status: HintStatus) -> HintRecord {
        HintRecord {
            line,
            status,
            step: Vec::new(),
            sentence: None,
            position: None,
            error: None,
        }
    }

    /// The record's message in its output (csv/jsonl `error`, text, Python's `errors`): its
    /// error, `2+ solutions` for a multiple one, and what a capped one means.
    pub fn error_field(&self) -> Option<&str> {
        match self.status {
            HintStatus::Multiple => Some("2+ solutions"),
            HintStatus::Capped => Some("no technique of the ladder applies within the cap"),
            _ => self.error.as_deref(),
        }
    }

    /// What is wrong with the record, for `--strict` and stderr (`None`: it is fine).
    pub fn problem(&self) -> Option<String> {
        if self.status.is_fine() {
            return None;
        }
        let status = self.status.as_str();
        Some(match &self.error {
            Some(e) => format!("{status}: {e}"),
            None => status.to_string(),
        })
    }
}

/// The next step from `start` with `rater` (the work of each record of `hint`, in the CLI's
/// pipeline and the Python module's `hint`): a uniqueness solve, then one step of the
/// engine, written as `rate --steps` writes step 1; with `sentence`, in words too. A failure
/// of the engine becomes a [`HintStatus::Failed`] record, and `rater` a fresh one.
pub fn hint_start(rater: &mut Rater, line: u64, start: Start<'_>, sentence: bool) -> HintRecord {
    let (status, outcome) = start.solve();
    let mut r = HintRecord::new(line, HintStatus::of_rate(status));
    let position = start.position();
    r.error = match (status, position.fault()) {
        (RateStatus::Invalid, Some(fault)) => Some(fault.to_string()),
        (RateStatus::Failed, _) => Some("the search stopped early".into()),
        _ => None,
    };
    if let (RateStatus::Rated, Some(solution)) = (status, outcome.solution) {
        let taken = guarded(rater, |rater| {
            next_step(
                rater,
                &position,
                &solution,
                &mut r.step,
                &mut r.sentence,
                sentence,
            )
        });
        match taken {
            Ok(status) => r.status = status,
            Err(message) => {
                r.status = HintStatus::Failed;
                r.step.clear();
                r.sentence = None;
                r.error = Some(message);
            }
        }
    }
    r.position = Some(Box::new(position));
    r
}

/// One step from `position` into `body` (and `text`, when `sentence`): its status.
fn next_step(
    rater: &mut Rater,
    position: &Position,
    solution: &Grid,
    body: &mut Vec<u8>,
    text: &mut Option<String>,
    sentence: bool,
) -> HintStatus {
    let mut on_step = |step: &Step<'_>| {
        step_body(body, 1, step);
        if sentence {
            *text = Some(step_sentence(step));
        }
    };
    let rating = rater.next_step(position, solution, &mut on_step);
    match (rating.steps, rating.capped) {
        (0, false) => HintStatus::Solved,
        (0, true) => HintStatus::Capped,
        _ => HintStatus::Step,
    }
}

/// Hints as the pipeline's [`Work`]: [`hint_start`] on each record with the calling worker's
/// rater.
pub struct HintWork<'a> {
    /// The workers' raters.
    pub raters: &'a Raters,
    /// Write each step in words and keep the position (text output).
    pub text: bool,
}

impl Work<HintRecord> for HintWork<'_> {
    fn record(&self, record: Record) -> HintRecord {
        let start = match (&record.puzzle, &record.position) {
            (_, Some(p)) => Start::Position(p),
            (Ok(p), None) => Start::Puzzle(p),
            (Err(e), None) => {
                let mut r = HintRecord::new(record.line, HintStatus::Malformed);
                r.error = Some(e.to_string());
                return r;
            }
        };
        self.puzzle_or_position(record.line, start)
    }

    fn puzzle(&self, line: u64, puzzle: Grid) -> HintRecord {
        self.puzzle_or_position(line, Start::Puzzle(&puzzle))
    }
}

impl HintWork<'_> {
    fn puzzle_or_position(&self, line: u64, start: Start<'_>) -> HintRecord {
        let mut r = self
            .raters
            .with_rater(|rater| hint_start(rater, line, start, self.text));
        if !self.text {
            r.position = None;
        }
        r
    }
}

/// Run totals of `hint`: records by status.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct HintStats {
    /// Input records seen (every status).
    pub records: u64,
    /// Records with a next step.
    pub steps: u64,
    /// Filled grids.
    pub solved: u64,
    /// Records where no technique of the ladder applies (or the next step is above the cap).
    pub capped: u64,
    /// Records with two or more solutions.
    pub multiple: u64,
    /// Records with no solution.
    pub unsolvable: u64,
    /// Records that break a rule.
    pub invalid: u64,
    /// Records whose text is not a puzzle.
    pub malformed: u64,
    /// Records the engine failed on.
    pub failed: u64,
}

impl HintStats {
    /// Count one record.
    pub fn add(&mut self, r: &HintRecord) {
        self.records += 1;
        *match r.status {
            HintStatus::Step => &mut self.steps,
            HintStatus::Solved => &mut self.solved,
            HintStatus::Capped => &mut self.capped,
            HintStatus::Multiple => &mut self.multiple,
            HintStatus::Unsolvable => &mut self.unsolvable,
            HintStatus::Invalid => &mut self.invalid,
            HintStatus::Malformed => &mut self.malformed,
            HintStatus::Failed => &mut self.failed,
        } += 1;
    }

    /// Records that were not fine (the exit code's 1).
    pub fn problems(&self) -> u64 {
        self.multiple + self.unsolvable + self.invalid + self.malformed + self.failed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::rater::RateOptions;

    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    fn hint(start: Start<'_>) -> HintRecord {
        hint_start(&mut Rater::new(RateOptions::default()), 1, start, true)
    }

    #[test]
    fn statuses() {
        let p: Grid = PUZZLE.parse().unwrap();
        let r = hint(Start::Puzzle(&p));
        assert_eq!(r.status, HintStatus::Step);
        assert!(r.step.starts_with(b"\"step\":1,\"technique\":"));
        assert!(r.sentence.is_some());
        let solution = crate::engines::solver::solve_with_limit(&p, 2)
            .solution
            .unwrap();
        assert_eq!(hint(Start::Puzzle(&solution)).status, HintStatus::Solved);
        assert_eq!(
            hint(Start::Puzzle(&Grid::EMPTY)).status,
            HintStatus::Multiple
        );
        let mut masks = *Position::from_grid(&p).masks();
        masks[2] = 0;
        let r = hint(Start::Position(&Position::from_masks(masks)));
        assert_eq!(r.status, HintStatus::Invalid);
        assert_eq!(r.error.as_deref(), Some("cell r1c3 has no candidate"));
        // r1c3 holds 1, 2 or 4, and 4 in the one solution: without it there is none.
        masks[2] = 0b11;
        let r = hint(Start::Position(&Position::from_masks(masks)));
        assert_eq!(r.status, HintStatus::Unsolvable);
    }
}
