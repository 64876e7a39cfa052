//! Run totals that add together: per batch, per thread, per run.

use std::ops::AddAssign;

use serde::Serialize;

use crate::engines::solver::{Outcome, Status};

/// Counts of a run (or part of one). Adding two parts gives the totals of both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RunStats {
    /// Input records seen (every status, malformed included).
    pub records: u64,
    /// Records solved (uniquely, when the limit was ≥ 2).
    pub solved: u64,
    /// Records with two or more solutions.
    pub multiple: u64,
    /// Records with consistent givens and no solution.
    pub unsolvable: u64,
    /// Records whose givens break a rule.
    pub invalid: u64,
    /// Records whose text is not a puzzle.
    pub malformed: u64,
    /// Records whose search was stopped by a time box (benchmarks only).
    pub aborted: u64,
    /// Guesses summed over searched records.
    pub guesses: u64,
    /// Branch points summed over searched records.
    pub branch_points: u64,
    /// Nodes summed over searched records.
    pub nodes: u64,
    /// The most guesses one record needed.
    pub max_guesses: u64,
    /// The most nodes one record needed.
    pub max_nodes: u64,
    /// Searched records that needed no guess.
    pub no_guess: u64,
}

impl RunStats {
    /// Count one solver outcome.
    #[inline]
    pub fn add_outcome(&mut self, outcome: &Outcome) {
        self.records += 1;
        match outcome.status {
            Status::Solved => self.solved += 1,
            Status::Multiple => self.multiple += 1,
            Status::Unsolvable => self.unsolvable += 1,
            Status::Invalid => self.invalid += 1,
            Status::Aborted => self.aborted += 1,
        }
        if matches!(outcome.status, Status::Invalid | Status::Aborted) {
            return;
        }
        self.guesses += outcome.guesses;
        self.branch_points += outcome.branch_points;
        self.nodes += outcome.nodes;
        self.max_guesses = self.max_guesses.max(outcome.guesses);
        self.max_nodes = self.max_nodes.max(outcome.nodes);
        self.no_guess += u64::from(outcome.guesses == 0);
    }

    /// Count one record whose text is not a puzzle.
    pub fn add_malformed(&mut self) {
        self.records += 1;
        self.malformed += 1;
    }

    /// Add the counts of `other` (the result does not depend on the order of adds and
    /// merges).
    pub fn merge(&mut self, other: &RunStats) {
        self.records += other.records;
        self.solved += other.solved;
        self.multiple += other.multiple;
        self.unsolvable += other.unsolvable;
        self.invalid += other.invalid;
        self.malformed += other.malformed;
        self.aborted += other.aborted;
        self.guesses += other.guesses;
        self.branch_points += other.branch_points;
        self.nodes += other.nodes;
        self.max_guesses = self.max_guesses.max(other.max_guesses);
        self.max_nodes = self.max_nodes.max(other.max_nodes);
        self.no_guess += other.no_guess;
    }

    /// Records that went through a complete search (solved, multiple or unsolvable).
    pub fn searched(&self) -> u64 {
        self.solved + self.multiple + self.unsolvable
    }

    /// Records that were not fine: malformed, invalid, unsolvable, multiple or aborted.
    pub fn problems(&self) -> u64 {
        self.records - self.solved
    }

    /// Mean guesses per searched record.
    pub fn guesses_per_puzzle(&self) -> f64 {
        ratio(self.guesses, self.searched())
    }

    /// Mean branch points per searched record (tdoku's "guesses per puzzle").
    pub fn branch_points_per_puzzle(&self) -> f64 {
        ratio(self.branch_points, self.searched())
    }

    /// Mean nodes per searched record.
    pub fn nodes_per_puzzle(&self) -> f64 {
        ratio(self.nodes, self.searched())
    }

    /// Percentage of searched records that needed no guess.
    pub fn no_guess_pct(&self) -> f64 {
        100.0 * ratio(self.no_guess, self.searched())
    }
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

impl AddAssign for RunStats {
    fn add_assign(&mut self, o: RunStats) {
        self.records += o.records;
        self.solved += o.solved;
        self.multiple += o.multiple;
        self.unsolvable += o.unsolvable;
        self.invalid += o.invalid;
        self.malformed += o.malformed;
        self.aborted += o.aborted;
        self.guesses += o.guesses;
        self.branch_points += o.branch_points;
        self.nodes += o.nodes;
        self.max_guesses = self.max_guesses.max(o.max_guesses);
        self.max_nodes = self.max_nodes.max(o.max_nodes);
        self.no_guess += o.no_guess;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::solver::solve_with_limit;
    use crate::Grid;

    #[test]
    fn parts_add_up_to_the_whole() {
        let empty = solve_with_limit(&Grid::EMPTY, 2);
        let solved = solve_with_limit(
            &"53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
                .parse()
                .unwrap(),
            2,
        );
        let mut a = RunStats::default();
        a.add_outcome(&empty);
        let mut b = RunStats::default();
        b.add_outcome(&solved);
        b.add_malformed();
        let mut whole = RunStats::default();
        for o in [&empty, &solved] {
            whole.add_outcome(o);
        }
        whole.add_malformed();
        a += b;
        assert_eq!(a, whole);
        assert_eq!((a.records, a.solved, a.multiple, a.malformed), (3, 1, 1, 1));
        assert_eq!(a.problems(), 2);
        assert_eq!(a.no_guess, 1);
        assert!((a.no_guess_pct() - 50.0).abs() < 1e-9);
    }
}
