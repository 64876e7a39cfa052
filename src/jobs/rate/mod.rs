//! `rate` as a library: each record with its Sudoku Explainer rating (or the status that kept
//! it from one), the raters the workers share, and the workers' counts; the output formats
//! are in [`writer`], the run summary in [`summary`].
//!
//! A record is rated in three moves: parse, solve with a limit of 2 (only a valid puzzle with
//! exactly one solution is rated; the search also gives the solution, which the rating engine
//! takes to start its chain searches from false candidates only), then the engine's step loop
//! ([`crate::engines::rater::Rater`]). With `--steps`, every step is also written out as a JSON object
//! on the worker, while the engine lends it ([`crate::engines::rater::Step`] borrows its scratch).

pub mod summary;
pub mod writer;

use std::borrow::Cow;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Mutex, PoisonError};

use serde::Serialize;

use crate::engines::rater::{Difficulty, RateOptions, Rater, Rating, Step, Stop};
use crate::engines::solver::{solve_position, solve_with_limit, Outcome, Status};
use crate::grid::{Conflict, Grid};
use crate::io::reader::Record;
use crate::pipeline::{Fold, Work};
use crate::position::Position;
use summary::Tally;

pub use writer::{RateFormat, RateWriter};

/// The status of one output record of `rate`. Each has a stable code (its discriminant:
/// the Python module's `RateStatus` values), in the order of [`RateStatus::ALL`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
#[repr(u8)]
pub enum RateStatus {
    /// A valid puzzle with one solution, rated (its path may be capped: see
    /// [`Rating::capped`]).
    Rated = 0,
    /// Two or more solutions: not rated.
    Multiple = 1,
    /// No solution: not rated.
    Unsolvable = 2,
    /// The givens break a rule: not rated.
    Invalid = 3,
    /// The text is not a puzzle.
    Malformed = 4,
    /// The rating engine failed on this puzzle (a defect of the engine, reported with the
    /// puzzle rather than ending the run).
    Failed = 5,
}

impl RateStatus {
    /// Every status, in code order.
    pub const ALL: [RateStatus; 6] = [
        RateStatus::Rated,
        RateStatus::Multiple,
        RateStatus::Unsolvable,
        RateStatus::Invalid,
        RateStatus::Malformed,
        RateStatus::Failed,
    ];

    /// The status's stable code.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The status word.
    pub fn as_str(self) -> &'static str {
        match self {
            RateStatus::Rated => "rated",
            RateStatus::Multiple => "multiple",
            RateStatus::Unsolvable => "unsolvable",
            RateStatus::Invalid => "invalid",
            RateStatus::Malformed => "malformed",
            RateStatus::Failed => "failed",
        }
    }
}

/// An input record with its rating.
///
/// Kept small (it moves between the pipeline's stages once per record): the input record is
/// only kept, boxed, for csv and jsonl output (`keep`) or when it is malformed (its error is
/// the message).
#[derive(Clone, Debug)]
pub struct RatedRecord {
    /// 1-based line number where the record starts.
    pub line: u64,
    /// What became of it.
    pub status: RateStatus,
    /// The rating (only for [`RateStatus::Rated`]).
    pub rating: Option<Rating>,
    /// For [`RateStatus::Invalid`]: the unit and digit that break the rule.
    pub conflict: Option<Conflict>,
    /// The input record, when kept.
    pub input: Option<Box<Record>>,
    /// With steps: the path's steps, one JSON object body per line (see
    /// [`writer`]), without the fields that name the record (written with them).
    pub steps: Vec<u8>,
    /// For [`RateStatus::Failed`]: what the engine reported.
    pub failure: Option<Box<str>>,
}

impl RatedRecord {
    fn new(line: u64, status: RateStatus) -> RatedRecord {
        RatedRecord {
            line,
            status,
            rating: None,
            conflict: None,
            input: None,
            steps: Vec::new(),
            failure: None,
        }
    }

    /// The message of a malformed, invalid or failed record.
    pub fn error(&self) -> Option<String> {
        let input = self.input.as_deref();
        if let Some(p) = input.and_then(|r| r.position.as_deref()) {
            if let Some(fault) = p.fault() {
                return Some(fault.to_string());
            }
        } else if let Some(Err(e)) = input.map(|r| &r.puzzle) {
            return Some(e.to_string());
        }
        if let Some(c) = &self.conflict {
            return Some(c.to_string());
        }
        self.failure.as_ref().map(|f| f.to_string())
    }

    /// What the csv and jsonl `error` field says: the message of a malformed, invalid or
    /// failed record, and `2+ solutions` for a multiple one (the search stops at the second).
    pub fn error_field(&self) -> Option<Cow<'static, str>> {
        match self.status {
            RateStatus::Multiple => Some(Cow::Borrowed("2+ solutions")),
            _ => self.error().map(Cow::Owned),
        }
    }

    /// True when the record was rated (capped ratings included).
    pub fn is_fine(&self) -> bool {
        self.status == RateStatus::Rated
    }

    /// What is wrong with the record, for `--strict` and stderr (`None`: it was rated).
    pub fn problem(&self) -> Option<String> {
        if self.is_fine() {
            return None;
        }
        let status = self.status.as_str();
        Some(match self.error() {
            Some(e) => format!("{status}: {e}"),
            None => status.to_string(),
        })
    }
}

/// One rater per worker thread: the engine's scratch is reused from puzzle to puzzle and
/// never allocated per puzzle.
///
/// Why a slot per worker, found by the worker's index, rather than a rater made per batch or
/// passed down by the pipeline: the pipeline's [`Work`] is shared (`&self`) by every worker,
/// and a worker's index in its pool is stable for the run, so each slot's lock is only ever
/// taken by its own thread (uncontended: two atomic operations per puzzle, where a rated
/// Kaggle puzzle takes microseconds). A run without a pool works on the calling thread, slot 0.
pub struct Raters {
    options: RateOptions,
    slots: Vec<Mutex<Rater>>,
}

impl Raters {
    /// Raters for `threads` workers, all with `options`.
    pub fn new(options: RateOptions, threads: usize) -> Raters {
        Raters::stopping(options, threads, Stop::default())
    }

    /// The same, each ending the rating in hand early once `stop` is raised (a call that is
    /// interrupted drops what they give then).
    pub fn stopping(options: RateOptions, threads: usize, stop: Stop) -> Raters {
        Raters {
            options,
            slots: (0..threads.max(1))
                .map(|_| Mutex::new(Rater::new(options).stop_when(stop.clone())))
                .collect(),
        }
    }

    /// The options every rater was made with.
    pub fn options(&self) -> RateOptions {
        self.options
    }

    /// [`rate_puzzle`] with the calling worker's rater.
    pub fn rate_puzzle(&self, line: u64, puzzle: &Grid, steps: bool) -> RatedRecord {
        self.with_rater(|rater| rate_puzzle(rater, line, puzzle, steps))
    }

    /// [`rate_start`] with the calling worker's rater.
    pub fn rate_start(&self, line: u64, start: Start<'_>, steps: bool) -> RatedRecord {
        self.with_rater(|rater| rate_start(rater, line, start, steps))
    }

    /// `work` with the calling worker's rater.
    pub fn with_rater<T>(&self, work: impl FnOnce(&mut Rater) -> T) -> T {
        // A worker's index in its pool; `None` on the calling thread (no pool).
        let index = rayon::current_thread_index().unwrap_or(0) % self.slots.len();
        let mut rater = self.slots[index]
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        work(&mut rater)
    }
}

/// What a record asks the rating engine to start from: a puzzle's givens, or a position's
/// candidates (a 729-character record).
#[derive(Clone, Copy, Debug)]
pub enum Start<'a> {
    /// A puzzle.
    Puzzle(&'a Grid),
    /// A candidate grid.
    Position(&'a Position),
}

impl Start<'_> {
    /// The uniqueness solve every record starts with (a limit of 2), as a rate status.
    pub fn solve(self) -> (RateStatus, Outcome) {
        let outcome = match self {
            Start::Puzzle(p) => solve_with_limit(p, 2),
            Start::Position(p) => solve_position(p, 2),
        };
        let status = match outcome.status {
            Status::Solved => RateStatus::Rated,
            Status::Multiple => RateStatus::Multiple,
            Status::Unsolvable => RateStatus::Unsolvable,
            Status::Invalid => RateStatus::Invalid,
            // No search limit is set: a stopped search is a defect, reported as such.
            Status::Aborted => RateStatus::Failed,
        };
        (status, outcome)
    }

    /// The start as a position (a puzzle's: [`Position::from_grid`]).
    pub fn position(self) -> Position {
        match self {
            Start::Puzzle(p) => Position::from_grid(p),
            Start::Position(p) => *p,
        }
    }
}

/// Rate one parsed puzzle, the work of each record of `rate` (the CLI's pipeline, through
/// [`RateWork`], and the Python module's `rate` both call it): solve it with a limit of 2 and,
/// when it has exactly one solution, rate it with `rater`; with `steps`, each step's JSON
/// body, one per line, goes into the record. A failure of the engine (a panic) becomes a
/// [`RateStatus::Failed`] record with the engine's message, and `rater` a fresh one.
pub fn rate_puzzle(rater: &mut Rater, line: u64, puzzle: &Grid, steps: bool) -> RatedRecord {
    rate_start(rater, line, Start::Puzzle(puzzle), steps)
}

/// [`rate_puzzle`] from a puzzle or a position.
pub fn rate_start(rater: &mut Rater, line: u64, start: Start<'_>, steps: bool) -> RatedRecord {
    let (status, outcome) = start.solve();
    let mut r = RatedRecord::new(line, status);
    r.conflict = outcome.conflict;
    match (status, outcome.solution) {
        (RateStatus::Rated, Some(solution)) => {
            let mut path = Vec::new();
            let out = &mut path;
            let rated = guarded(rater, |rater| {
                let mut n = 0u32;
                let mut on_step = |step: &Step<'_>| {
                    n += 1;
                    writer::step_body(out, n, step);
                };
                let on_step = steps.then_some(&mut on_step as &mut dyn FnMut(&Step<'_>));
                match (start, on_step) {
                    (Start::Puzzle(p), None) => rater.rate(p, &solution),
                    (Start::Puzzle(p), Some(f)) => rater.rate_with_steps(p, &solution, f),
                    (Start::Position(p), f) => rater.rate_position(p, &solution, f),
                }
            });
            match rated {
                Ok(rating) => {
                    r.rating = Some(rating);
                    // A copy of its exact size: the record may be held a long time (the
                    // Python module keeps every row's path), and the buffer it was written
                    // in, grown by doubling, is freed here on the thread that grew it, for
                    // the next record to reuse (held instead, two workers' growing buffers
                    // took twice one's time under glibc's allocator).
                    r.steps = path.as_slice().to_vec();
                }
                Err(message) => {
                    r.status = RateStatus::Failed;
                    r.failure = Some(message.into());
                }
            }
        }
        (RateStatus::Failed, _) => r.failure = Some("the search stopped early".into()),
        _ => {}
    }
    r
}

/// `rate` run on `rater`, a panic caught: `Err` with the panic's message, and `rater` replaced
/// by a fresh one (its scratch may be left half-written).
pub(crate) fn guarded<T>(
    rater: &mut Rater,
    rate: impl FnOnce(&mut Rater) -> T,
) -> Result<T, String> {
    panic::catch_unwind(AssertUnwindSafe(|| rate(rater))).map_err(|payload| {
        *rater = rater.renewed();
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".to_string());
        format!("the rating engine failed on this puzzle: {message}")
    })
}

/// `--max-rating X` (`max_rating=` in Python): a rating from 1.0 to 25.5 with one decimal at
/// most, as `rate` prints ratings.
pub fn parse_max_rating(text: &str) -> Result<Difficulty, String> {
    let bad = || "expected a rating from 1.0 to 25.5 with one decimal, e.g. 6.2".to_string();
    let d: Difficulty = text.trim().parse().map_err(|_| bad())?;
    if d.0 < 10 {
        return Err(bad());
    }
    Ok(d)
}

/// Rating as the pipeline's [`Work`]: [`rate_puzzle`] on each record's puzzle, a malformed
/// record kept as the message.
pub struct RateWork<'a> {
    /// The workers' raters.
    pub raters: &'a Raters,
    /// Keep each input record with its result (csv and jsonl output; a malformed record is
    /// always kept, its error is the message).
    pub keep: bool,
    /// Write each rated puzzle's steps into its record (`--steps`).
    pub steps: bool,
}

impl RateWork<'_> {
    /// [`rate_puzzle`] with the calling worker's rater.
    pub fn rate_puzzle(&self, line: u64, puzzle: &Grid) -> RatedRecord {
        self.raters.rate_puzzle(line, puzzle, self.steps)
    }
}

impl Work<RatedRecord> for RateWork<'_> {
    #[inline]
    fn record(&self, record: Record) -> RatedRecord {
        let mut r = match (&record.puzzle, &record.position) {
            (_, Some(p)) => self
                .raters
                .rate_start(record.line, Start::Position(p), self.steps),
            (Ok(puzzle), None) => self.rate_puzzle(record.line, puzzle),
            (Err(_), None) => RatedRecord::new(record.line, RateStatus::Malformed),
        };
        // A candidate grid is kept: its text is not a puzzle line, and its fault the message.
        if self.keep || record.puzzle.is_err() {
            r.input = Some(Box::new(record));
        }
        r
    }

    #[inline]
    fn puzzle(&self, line: u64, puzzle: Grid) -> RatedRecord {
        if self.keep {
            return self.record(Record::plain(line, puzzle));
        }
        self.rate_puzzle(line, &puzzle)
    }
}

/// Run totals of `rate`: records by status, and the capped ratings among the rated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RateStats {
    /// Input records seen (every status).
    pub records: u64,
    /// Records rated (capped ones included).
    pub rated: u64,
    /// Rated records whose path stopped early (no technique of the ladder applies, or
    /// `--max-rating`): their ER is a lower bound.
    pub capped: u64,
    /// Records with two or more solutions.
    pub multiple: u64,
    /// Records with consistent givens and no solution.
    pub unsolvable: u64,
    /// Records whose givens break a rule.
    pub invalid: u64,
    /// Records whose text is not a puzzle.
    pub malformed: u64,
    /// Records the engine failed on.
    pub failed: u64,
}

impl RateStats {
    /// Count one record.
    #[inline]
    pub fn add(&mut self, r: &RatedRecord) {
        self.records += 1;
        match r.status {
            RateStatus::Rated => {
                self.rated += 1;
                self.capped += u64::from(r.rating.is_some_and(|x| x.capped));
            }
            RateStatus::Multiple => self.multiple += 1,
            RateStatus::Unsolvable => self.unsolvable += 1,
            RateStatus::Invalid => self.invalid += 1,
            RateStatus::Malformed => self.malformed += 1,
            RateStatus::Failed => self.failed += 1,
        }
    }

    /// Add the counts of `other`.
    pub fn merge(&mut self, other: &RateStats) {
        self.records += other.records;
        self.rated += other.rated;
        self.capped += other.capped;
        self.multiple += other.multiple;
        self.unsolvable += other.unsolvable;
        self.invalid += other.invalid;
        self.malformed += other.malformed;
        self.failed += other.failed;
    }

    /// Records that were not rated.
    pub fn problems(&self) -> u64 {
        self.records - self.rated
    }
}

/// Counts rated records on the workers ([`Fold`]), so that only the others reach the collect
/// step: a rated record needs no message and cannot stop a `--strict` run.
pub struct FoldRated<'a> {
    /// The input's name (for the hardest puzzle).
    pub file: &'a str,
}

/// One worker's counts of rated records (see [`FoldRated`]).
#[derive(Debug, Default)]
pub struct Counted {
    /// Totals.
    pub stats: RateStats,
    /// The ratings.
    pub tally: Tally,
}

impl Counted {
    /// Count one record of input `file`.
    pub fn add(&mut self, file: &str, r: &RatedRecord) {
        self.stats.add(r);
        if let Some(rating) = &r.rating {
            self.tally.add(file, r.line, rating);
        }
    }
}

impl Fold<RatedRecord> for FoldRated<'_> {
    type Part = Counted;
    #[inline]
    fn fold(&self, part: &mut Counted, r: &RatedRecord) -> bool {
        if !r.is_fine() {
            return false;
        }
        part.add(self.file, r);
        true
    }
}

/// A difficulty as a JSON number (`2.3`; a tenth is exact enough for a shortest print).
pub fn difficulty_value(d: Difficulty) -> f64 {
    f64::from(d.0) / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLES: [&str; 5] = [
        // Rated, two solutions, invalid (two 5s in row 1), unsolvable, rated (harder).
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        ".................................................................................",
        "55..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        "531.7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        "000050000000206000064000390045000810000020000000107000053000980090804060100030004",
    ];

    /// A bare puzzle gives what its record gives, whether the record is kept or not, with
    /// steps or without.
    #[test]
    fn a_bare_puzzle_is_rated_as_its_record() {
        let raters = Raters::new(RateOptions::default(), 1);
        for keep in [false, true] {
            for steps in [false, true] {
                let work = RateWork {
                    raters: &raters,
                    keep,
                    steps,
                };
                for p in PUZZLES {
                    let grid = Grid::from_line(p).unwrap();
                    let bare = work.puzzle(7, grid);
                    let whole = work.record(Record::plain(7, grid));
                    assert_eq!(bare.status, whole.status, "{p}");
                    assert_eq!(bare.rating, whole.rating, "{p}");
                    assert_eq!(bare.steps, whole.steps, "{p}");
                    assert_eq!(bare.input.is_some(), keep);
                    assert_eq!(whole.steps.is_empty(), !steps || whole.rating.is_none());
                }
            }
        }
        let work = RateWork {
            raters: &raters,
            keep: false,
            steps: false,
        };
        let statuses: Vec<RateStatus> = PUZZLES
            .iter()
            .map(|p| work.puzzle(1, Grid::from_line(p).unwrap()).status)
            .collect();
        use RateStatus::*;
        assert_eq!(statuses, [Rated, Multiple, Invalid, Unsolvable, Rated]);
    }

    /// A failure of the engine is one failed record with the engine's message; the rater is
    /// replaced and rates the next puzzle as a fresh one does.
    #[test]
    fn a_failure_of_the_engine_is_one_failed_record() {
        let mut rater = Rater::new(RateOptions::default());
        let failed: Result<Rating, String> = guarded(&mut rater, |_| panic!("a test failure"));
        assert_eq!(
            failed.unwrap_err(),
            "the rating engine failed on this puzzle: a test failure"
        );
        let grid = Grid::from_line(PUZZLES[4]).unwrap();
        let after = rate_puzzle(&mut rater, 1, &grid, false);
        let fresh = rate_puzzle(&mut Rater::new(RateOptions::default()), 1, &grid, false);
        assert_eq!(after.status, RateStatus::Rated);
        assert_eq!(after.rating, fresh.rating);
    }

    #[test]
    fn status_codes_are_their_order() {
        for (i, s) in RateStatus::ALL.iter().enumerate() {
            assert_eq!(usize::from(s.code()), i, "{s:?}");
        }
    }

    #[test]
    fn max_ratings_have_one_decimal_from_one_to_25_5() {
        assert_eq!(parse_max_rating("6.2"), Ok(Difficulty(62)));
        assert_eq!(parse_max_rating("1"), Ok(Difficulty(10)));
        assert_eq!(parse_max_rating("25.5"), Ok(Difficulty(255)));
        for bad in [
            "0.9", "0", "8.95", "25.6", "-1", "x", "", "1e1", "NaN", "inf",
        ] {
            assert!(parse_max_rating(bad).is_err(), "{bad}");
        }
    }

    /// Of equally hard puzzles counted in any order, the one on the earliest line is the
    /// hardest; counts add up whatever the split between workers.
    #[test]
    fn tallies_merge_to_the_same_counts_and_hardest_whatever_the_order() {
        let raters = Raters::new(RateOptions::default(), 1);
        let work = RateWork {
            raters: &raters,
            keep: false,
            steps: false,
        };
        let records: Vec<RatedRecord> = [0, 4, 0, 4]
            .iter()
            .enumerate()
            .map(|(i, &p)| work.puzzle(i as u64 + 1, Grid::from_line(PUZZLES[p]).unwrap()))
            .collect();
        let mut whole = Counted::default();
        records.iter().for_each(|r| whole.add("in", r));
        for split in [[3, 1, 0, 2], [1, 3, 2, 0]] {
            let (mut a, mut b) = (Counted::default(), Counted::default());
            for (n, &i) in split.iter().enumerate() {
                let part = if n % 2 == 0 { &mut a } else { &mut b };
                part.add("in", &records[i]);
            }
            a.tally.merge_same_input(b.tally);
            a.stats.merge(&b.stats);
            assert_eq!(a.stats, whole.stats);
            assert_eq!(a.tally, whole.tally, "{split:?}");
        }
        let s = summary::Summary::new(
            summary::RunInfo {
                inputs: vec!["in".into()],
                ladder: Default::default(),
                max_rating: None,
                threads: 1,
            },
            1.0,
            whole.stats,
            &whole.tally,
        );
        assert_eq!(s.stats.rated, 4);
        let hardest = s.hardest.unwrap();
        let (a, b) = (records[0].rating.unwrap().er, records[1].rating.unwrap().er);
        assert_eq!(hardest.line, if b > a { 2 } else { 1 });
        let counted: u64 = s.er_histogram.iter().map(|b| b.count).sum();
        assert_eq!(counted, 4);
    }
}
