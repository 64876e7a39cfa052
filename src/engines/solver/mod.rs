//! Solvers: the bitboard solver (three branching rules) and the two classic baselines it grew
//! from.
//!
//! All of them share [`Grid`] in and [`Outcome`] out, and count the same things:
//! - **nodes**: search states visited, the root included. A state is what the solver holds
//!   between two branching decisions; forced moves made by propagation stay inside one node.
//! - **guesses**: alternatives tried at branch points (a digit in a cell, or, when branching
//!   on band configurations, a digit's configuration in a band), one per alternative (a
//!   bivalue cell whose first digit fails counts 2).
//! - **branch points**: states at which the search split into two or more alternatives, however
//!   many of them were tried. tdoku's "guesses" count one per branch point, so this is the
//!   figure to set beside tdoku's tables. A search that ends without backtracking has as many
//!   branch points as guesses; a failed bivalue branch has 1 branch point and 2 guesses.
//!
//! So `nodes` compares directly across algorithms: it is the size of the search tree.
//!
//! No solver allocates, does I/O or keeps global state: each call is a pure function of its
//! inputs (deterministic counts included).

mod baseline;
mod fast;
pub mod simd;
mod tables;

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;

use crate::grid::{Conflict, Grid};
use crate::position::{Fault, Position};

/// What a solve found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// At least one solution and, if the limit was ≥ 2, exactly one.
    Solved,
    /// Two or more solutions (only reported when the limit is ≥ 2).
    Multiple,
    /// The givens are consistent but no grid completes them.
    Unsolvable,
    /// The givens already break a rule (see [`Outcome::conflict`]).
    Invalid,
    /// The caller's stop flag ended the search before it finished (never set without one).
    Aborted,
}

impl Status {
    /// The lowercase word used in output files.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Multiple => "multiple",
            Status::Unsolvable => "unsolvable",
            Status::Invalid => "invalid",
            Status::Aborted => "aborted",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The result of one solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// What was found.
    pub status: Status,
    /// The first solution found (the same one on every run).
    pub solution: Option<Grid>,
    /// Solutions found, at most the limit: `limit` means "limit or more".
    pub solutions: u32,
    /// Alternatives tried at branch points (see the module docs).
    pub guesses: u64,
    /// Branch points: states where the search split (tdoku's "guesses" count these).
    pub branch_points: u64,
    /// Search states visited, the root included (0 for invalid givens).
    pub nodes: u64,
    /// For [`Status::Invalid`]: the unit and digit that break the rule.
    pub conflict: Option<Conflict>,
}

impl Outcome {
    fn invalid(conflict: Option<Conflict>) -> Outcome {
        Outcome {
            status: Status::Invalid,
            solution: None,
            solutions: 0,
            guesses: 0,
            branch_points: 0,
            nodes: 0,
            conflict,
        }
    }
}

/// How far a solve goes.
#[derive(Clone, Copy, Debug)]
pub struct Limits<'a> {
    /// Stop after this many solutions: 1 finds one, 2 proves uniqueness, N counts up to N.
    pub solutions: u32,
    /// When set and raised by another thread, the slow baselines stop early with
    /// [`Status::Aborted`] (checked every few thousand nodes; the fast solver ignores it).
    pub stop: Option<&'a AtomicBool>,
}

impl Limits<'_> {
    /// Count up to `solutions` solutions, with no stop flag.
    pub fn solutions(solutions: u32) -> Limits<'static> {
        Limits {
            solutions: solutions.max(1),
            stop: None,
        }
    }

    #[inline]
    fn stopped(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }
}

/// The counters and results every search keeps while it runs.
#[derive(Clone, Copy, Debug)]
struct Tally {
    limit: u32,
    solutions: u32,
    first: Option<Grid>,
    guesses: u64,
    branch_points: u64,
    nodes: u64,
    aborted: bool,
    /// Work done (search nodes plus probes) and the most allowed before the search gives up
    /// (the fast solver's restarts; `u64::MAX` otherwise).
    work: u64,
    budget: u64,
    /// Dead ends met: states propagation or counting refuted (the hybrid rule's switch).
    dead_ends: u64,
    /// The hybrid rule's choice at the root (fast solver only).
    root: Root,
}

/// Whether a search of the fast solver's hybrid rule branches on band configurations from
/// the root (a wide-open grid) or starts on cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Root {
    /// Not decided yet: decided at the root's first fixed point, by the cells left open.
    Undecided,
    /// Band configurations from the root, under a small work budget.
    Wide,
    /// Cells first (the rule's own switch applies).
    Narrow,
}

impl Tally {
    fn new(limit: u32) -> Tally {
        Tally {
            limit: limit.max(1),
            solutions: 0,
            first: None,
            guesses: 0,
            branch_points: 0,
            nodes: 1,
            aborted: false,
            work: 0,
            budget: u64::MAX,
            dead_ends: 0,
            root: Root::Narrow,
        }
    }

    /// Record a solution; true when the search should stop.
    #[inline]
    fn found(&mut self, grid: impl FnOnce() -> Grid) -> bool {
        if self.solutions == 0 {
            self.first = Some(grid());
        }
        self.solutions += 1;
        self.done()
    }

    /// One guess made: a new search node, counted as work.
    #[inline(always)]
    fn guess(&mut self) {
        self.guesses += 1;
        self.nodes += 1;
        self.work += 1;
    }

    #[inline]
    fn done(&self) -> bool {
        self.solutions >= self.limit || self.aborted || self.work >= self.budget
    }

    /// The search stopped because its work budget ran out (its result is incomplete).
    fn out_of_budget(&self) -> bool {
        self.work >= self.budget && self.solutions < self.limit && !self.aborted
    }

    fn outcome(self) -> Outcome {
        let status = match self.solutions {
            _ if self.aborted => Status::Aborted,
            0 => Status::Unsolvable,
            1 => Status::Solved,
            _ => Status::Multiple,
        };
        Outcome {
            status,
            solution: self.first,
            solutions: self.solutions,
            guesses: self.guesses,
            branch_points: self.branch_points,
            nodes: self.nodes,
            conflict: None,
        }
    }
}

/// The selectable algorithms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Algorithm {
    /// The default: today the same search as [`Algorithm::Hybrid`].
    #[default]
    Fast,
    /// The bitboard solver branching on band configurations: in the band with the fewest
    /// configurations over its open digits, the digit with the fewest (independent of cell
    /// order, so robust to the puzzle's orientation), after mini-row counting (each
    /// box-row intersection holds exactly 3 digits).
    Bands,
    /// [`Algorithm::Bands`]' branching from the root when the root's propagation left 50 or
    /// more cells open, within a budget of 2,048 nodes; when that runs out, or fewer cells
    /// are open, [`Algorithm::Jcz`]'s branching until the search has met 4 dead ends, then
    /// [`Algorithm::Bands`]': puzzles with many solutions keep the cheaper cell branching,
    /// hard ones get the smaller tree.
    Hybrid,
    /// JCZSolve-style digit-plane bitboards: naked and hidden singles and locked candidates
    /// to a fixed point, branching on the first bivalue cell.
    Jcz,
    /// Recursion on the empty cell with the fewest candidates, recomputed each call, with no
    /// other propagation (the LeetCode "MRV" write-up).
    Mrv,
    /// Row-major backtracking that checks row, column and box bitmasks for each digit
    /// (the classic LeetCode 37 answer).
    Naive,
}

impl Algorithm {
    /// Every algorithm, fastest first.
    pub const ALL: [Algorithm; 6] = [
        Algorithm::Fast,
        Algorithm::Bands,
        Algorithm::Hybrid,
        Algorithm::Jcz,
        Algorithm::Mrv,
        Algorithm::Naive,
    ];

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Fast => "fast",
            Algorithm::Jcz => "jcz",
            Algorithm::Bands => "bands",
            Algorithm::Hybrid => "hybrid",
            Algorithm::Mrv => "mrv",
            Algorithm::Naive => "naive",
        }
    }

    /// Solve `grid` within `limits`.
    pub fn solve(self, grid: &Grid, limits: &Limits<'_>) -> Outcome {
        let invalid = || {
            let conflict = grid.conflict().expect("conflicting givens have a conflict");
            Outcome::invalid(Some(conflict))
        };
        match self {
            // The fast solver notices conflicting givens while it places them.
            Algorithm::Jcz => {
                fast::solve::<{ fast::JCZ }>(grid, limits.solutions).unwrap_or_else(invalid)
            }
            Algorithm::Fast | Algorithm::Hybrid => {
                fast::solve::<{ fast::HYBRID }>(grid, limits.solutions).unwrap_or_else(invalid)
            }
            Algorithm::Bands => {
                fast::solve::<{ fast::BANDS }>(grid, limits.solutions).unwrap_or_else(invalid)
            }
            _ if grid.conflict().is_some() => invalid(),
            Algorithm::Mrv => baseline::solve_mrv(grid, limits),
            Algorithm::Naive => baseline::solve_naive(grid, limits),
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = String;
    fn from_str(s: &str) -> Result<Algorithm, String> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| {
                format!("unknown algorithm {s:?} (expected fast, bands, hybrid, jcz, mrv or naive)")
            })
    }
}

/// Solve with the fast solver, stopping after `limit` solutions (1 = find one, 2 = prove
/// uniqueness, N = count up to N).
pub fn solve_with_limit(grid: &Grid, limit: u32) -> Outcome {
    Algorithm::Fast.solve(grid, &Limits::solutions(limit))
}

/// Solve a position (a candidate grid) with the fast solver, the search started from its
/// candidates, stopping after `limit` solutions. A position that breaks a rule is
/// [`Status::Invalid`], with the [`Conflict`] when two placed cells clash (`None` for a cell
/// without candidates: [`Position::fault`] says which).
pub fn solve_position(position: &Position, limit: u32) -> Outcome {
    match position.fault() {
        Some(Fault::Conflict(c)) => Outcome::invalid(Some(c)),
        Some(Fault::NoCandidate(_)) => Outcome::invalid(None),
        None => fast::solve_masks::<{ fast::HYBRID }>(position.masks(), limit),
    }
}

#[cfg(test)]
mod tests;
