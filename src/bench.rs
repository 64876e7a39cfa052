//! The solve-only benchmark harness behind `sudoku-batch bench`, after tdoku's: puzzles are
//! preloaded, shuffled once with a fixed seed, warmed up, then solved round after round for at
//! least the requested time. Only solving is timed.
//!
//! Slow algorithms are time-boxed: when the time is up a stop flag ends the search in
//! progress, and only puzzles that finished are counted.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde::Serialize;

use crate::grid::Grid;
use crate::solver::simd::SimdPath;
use crate::solver::{Algorithm, Limits, Status};
use crate::stats::RunStats;

/// What to measure.
#[derive(Clone, Copy, Debug)]
pub struct BenchConfig {
    /// The solver.
    pub algorithm: Algorithm,
    /// Worker threads (1 = the calling thread only).
    pub threads: usize,
    /// Solution limit: 1 finds one, 2 proves uniqueness.
    pub limit: u32,
    /// Minimum timed duration.
    pub seconds: f64,
}

/// One measurement: a dataset × algorithm row of the report.
#[derive(Clone, Debug, Serialize)]
pub struct BenchResult {
    /// Dataset name (file name).
    pub dataset: String,
    /// Algorithm name.
    pub algorithm: Algorithm,
    /// The solver's instruction-set path in this process (see [`SimdPath`]).
    pub simd: SimdPath,
    /// Worker threads.
    pub threads: usize,
    /// Solution limit.
    pub limit: u32,
    /// Puzzles whose search finished in the timed part (repeats included).
    pub puzzles: u64,
    /// Distinct puzzles in the dataset.
    pub dataset_puzzles: usize,
    /// Whether every puzzle of the dataset was solved at least once (false when time-boxed).
    pub complete: bool,
    /// Timed wall-clock seconds.
    pub seconds: f64,
    /// Throughput.
    pub puzzles_per_sec: f64,
    /// Wall-clock microseconds per puzzle (1 / throughput).
    pub usec_per_puzzle: f64,
    /// Percentage of puzzles solved without a guess.
    pub no_guess_pct: f64,
    /// Mean guesses per puzzle (every alternative tried at a branch point).
    pub guesses_per_puzzle: f64,
    /// Mean branch points per puzzle (tdoku's "guesses/puzzle" counts these).
    pub branch_points_per_puzzle: f64,
    /// Mean search nodes per puzzle.
    pub nodes_per_puzzle: f64,
    /// Status counts of the timed puzzles.
    pub stats: RunStats,
}

/// Shuffle with a fixed-seed xorshift, so every run times the same order.
pub fn shuffle(puzzles: &mut [Grid], seed: u64) {
    let mut state = seed | 1;
    for i in (1..puzzles.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        puzzles.swap(i, (state % (i as u64 + 1)) as usize);
    }
}

/// Solve `puzzles` once (or until `stop`), returning their totals.
fn solve_all(puzzles: &[Grid], algorithm: Algorithm, limits: &Limits<'_>) -> RunStats {
    let mut stats = RunStats::default();
    for p in puzzles {
        if limits.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            break;
        }
        let outcome = algorithm.solve(p, limits);
        if outcome.status != Status::Aborted {
            stats.add_outcome(&outcome);
        }
    }
    stats
}

/// One pass over `puzzles` on `pool` (or the current thread when it has one thread).
fn pass(
    puzzles: &[Grid],
    cfg: &BenchConfig,
    pool: Option<&rayon::ThreadPool>,
    stop: &AtomicBool,
) -> RunStats {
    let limits = Limits {
        solutions: cfg.limit,
        stop: Some(stop),
    };
    match pool {
        None => solve_all(puzzles, cfg.algorithm, &limits),
        Some(pool) => pool.install(|| {
            puzzles
                .par_chunks(64)
                .map(|chunk| solve_all(chunk, cfg.algorithm, &limits))
                .reduce(RunStats::default, |mut a, b| {
                    a += b;
                    a
                })
        }),
    }
}

/// Raise `stop` after `d`, or return early if someone else raises it.
fn time_box(stop: &AtomicBool, d: Duration) {
    let end = Instant::now() + d;
    while !stop.load(Ordering::Relaxed) {
        let now = Instant::now();
        if now >= end {
            stop.store(true, Ordering::Relaxed);
            break;
        }
        std::thread::sleep((end - now).min(Duration::from_millis(10)));
    }
}

/// Measure `cfg` on `puzzles` (already shuffled). `dataset` names the result.
pub fn run(
    dataset: &str,
    puzzles: &[Grid],
    cfg: &BenchConfig,
) -> Result<BenchResult, rayon::ThreadPoolBuildError> {
    let pool = crate::pipeline::worker_pool(cfg.threads)?;
    let budget = Duration::from_secs_f64(cfg.seconds.max(0.01));
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        // Warm-up: a short time-boxed pass over the start of the set.
        let warm = &puzzles[..puzzles.len().min(2000)];
        let warm_budget = budget.mul_f64(0.1).min(Duration::from_millis(500));
        let stop_ref = &stop;
        let t = scope.spawn(move || time_box(stop_ref, warm_budget));
        pass(warm, cfg, pool.as_ref(), &stop);
        stop.store(true, Ordering::Relaxed);
        t.join().ok();

        stop.store(false, Ordering::Relaxed);
        // Rounds until the timer raises the flag; a round cut short still counts the puzzles
        // it finished, so slow algorithms end near the requested time.
        let guard = scope.spawn(move || time_box(stop_ref, budget));
        let start = Instant::now();
        let mut stats = RunStats::default();
        while !stop.load(Ordering::Relaxed) {
            stats += pass(puzzles, cfg, pool.as_ref(), &stop);
        }
        let seconds = start.elapsed().as_secs_f64();
        stop.store(true, Ordering::Relaxed);
        guard.join().ok();

        let done = stats.records;
        let rate = done as f64 / seconds;
        Ok(BenchResult {
            dataset: dataset.to_string(),
            algorithm: cfg.algorithm,
            simd: SimdPath::active(),
            threads: cfg.threads,
            limit: cfg.limit,
            puzzles: done,
            dataset_puzzles: puzzles.len(),
            complete: done >= puzzles.len() as u64,
            seconds,
            puzzles_per_sec: rate,
            usec_per_puzzle: if done == 0 { f64::INFINITY } else { 1e6 / rate },
            no_guess_pct: stats.no_guess_pct(),
            guesses_per_puzzle: stats.guesses_per_puzzle(),
            branch_points_per_puzzle: stats.branch_points_per_puzzle(),
            nodes_per_puzzle: stats.nodes_per_puzzle(),
            stats,
        })
    })
}
