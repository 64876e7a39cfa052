//! The run summary of `solve`: totals, throughput, and how hard the puzzles were (exact
//! percentiles, a histogram of guesses, the hardest puzzle and where it is). Written as JSON by
//! `--stats-json` and printed on stderr.

use serde::Serialize;

use crate::distribution::{Bucket, Distribution, Spread};
use crate::engines::solver::{Algorithm, Status};
use crate::jobs::solve::SolvedRecord;
use crate::stats::RunStats;

/// The run summary (`--stats-json`).
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// The inputs, as named on the command line (`-` for stdin).
    pub inputs: Vec<String>,
    /// The solver.
    pub algorithm: Algorithm,
    /// Worker threads.
    pub threads: usize,
    /// Solution limit.
    pub limit: u32,
    /// Wall-clock seconds of the whole run.
    pub seconds: f64,
    /// Records per second of the whole run.
    pub puzzles_per_sec: f64,
    /// Mean guesses per puzzle.
    pub guesses_per_puzzle: f64,
    /// Mean search nodes per puzzle.
    pub nodes_per_puzzle: f64,
    /// Share of puzzles solved without a guess, in percent.
    pub no_guess_pct: f64,
    /// p50 / p90 / p99 / max of guesses over the puzzles searched.
    pub guesses_spread: Spread,
    /// p50 / p90 / p99 / max of nodes over the puzzles searched.
    pub nodes_spread: Spread,
    /// The puzzle that needed the most guesses (then nodes): where it is.
    pub hardest: Option<Hardest>,
    /// How many puzzles needed 0, 1, 2-3, 4-7, ... guesses.
    pub guesses_histogram: Vec<Bucket>,
    /// Status counts and totals.
    #[serde(flatten)]
    pub stats: RunStats,
}

/// Where the hardest puzzle of a run is.
#[derive(Clone, Debug, Serialize)]
pub struct Hardest {
    /// Its input.
    pub file: String,
    /// Its line.
    pub line: u64,
    /// Guesses it took.
    pub guesses: u64,
    /// Nodes it took.
    pub nodes: u64,
}

/// How hard the search worked: per-puzzle distributions of guesses and nodes and the
/// hardest puzzle, gathered in input order.
#[derive(Clone, Debug, Default)]
pub struct SearchEffort {
    guesses: Distribution,
    nodes: Distribution,
    hardest: Option<Hardest>,
}

impl SearchEffort {
    /// Count one result of input `file` (records whose search did not run are skipped). The
    /// results of one input may come in any order (a worker's counts are of the records it
    /// took, batches in flight at once): of two equally hard puzzles, the one on the earlier
    /// line is the hardest, as when counted in input order.
    pub fn add(&mut self, file: &str, r: &SolvedRecord) {
        let Some(o) = &r.outcome else { return };
        if !matches!(
            o.status,
            Status::Solved | Status::Multiple | Status::Unsolvable
        ) {
            return;
        }
        self.guesses.add(o.guesses);
        self.nodes.add(o.nodes);
        let harder = self
            .hardest
            .as_ref()
            .is_none_or(|h| (o.guesses, o.nodes, h.line) > (h.guesses, h.nodes, r.line));
        if harder {
            self.hardest = Some(Hardest {
                file: file.to_string(),
                line: r.line,
                guesses: o.guesses,
                nodes: o.nodes,
            });
        }
    }
}

impl SearchEffort {
    /// Add the counts of `other`, made from records of a later input than this one's (input
    /// order: of two equally hard puzzles, this one's stays the hardest).
    pub fn append(&mut self, other: SearchEffort) {
        self.merge(other, |_, _| false);
    }

    /// Add the counts of `other`, made from records of the same input as this one's, in any
    /// order: of two equally hard puzzles, the one on the earlier line is the hardest, as when
    /// counted in input order.
    pub fn merge_same_input(&mut self, other: SearchEffort) {
        self.merge(other, |mine, theirs| theirs.line < mine.line);
    }

    fn merge(&mut self, other: SearchEffort, on_tie: impl Fn(&Hardest, &Hardest) -> bool) {
        self.guesses.merge(&other.guesses);
        self.nodes.merge(&other.nodes);
        let Some(theirs) = other.hardest else { return };
        let better = self.hardest.as_ref().is_none_or(|mine| {
            let (a, b) = ((theirs.guesses, theirs.nodes), (mine.guesses, mine.nodes));
            a > b || (a == b && on_tie(mine, &theirs))
        });
        if better {
            self.hardest = Some(theirs);
        }
    }
}

/// What a run was asked to do, for its summary.
#[derive(Clone, Debug)]
pub struct RunInfo {
    /// The inputs' names.
    pub inputs: Vec<String>,
    /// The solver.
    pub algorithm: Algorithm,
    /// Worker threads.
    pub threads: usize,
    /// Solution limit.
    pub limit: u32,
}

impl Summary {
    /// The summary of a run of `seconds` with these totals.
    pub fn new(info: RunInfo, seconds: f64, stats: RunStats, effort: SearchEffort) -> Summary {
        Summary {
            inputs: info.inputs,
            algorithm: info.algorithm,
            threads: info.threads,
            limit: info.limit,
            seconds,
            puzzles_per_sec: stats.records as f64 / seconds.max(1e-9),
            guesses_per_puzzle: stats.guesses_per_puzzle(),
            nodes_per_puzzle: stats.nodes_per_puzzle(),
            no_guess_pct: stats.no_guess_pct(),
            guesses_spread: effort.guesses.spread(),
            nodes_spread: effort.nodes.spread(),
            hardest: effort.hardest,
            guesses_histogram: effort.guesses.histogram(),
            stats,
        }
    }
}
