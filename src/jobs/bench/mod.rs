//! The solve-only benchmark harness behind `sudoku-batch bench`, after tdoku's, with
//! hyperfine's habit of repeated runs: puzzles are preloaded, shuffled once with a fixed seed,
//! warmed up, then timed in [`BenchConfig::runs`] runs, each solving round after round for at
//! least its share of [`BenchConfig::seconds`]. Only solving is timed; the spread between runs
//! ([`stats::Summary`]) says how far one figure can be trusted.
//!
//! Slow algorithms are time-boxed: when a run's time is up a stop flag ends the search in
//! progress, and only puzzles that finished are counted. Every run starts again at the first
//! puzzle, so a time-boxed algorithm is timed on the same puzzles in each run.
//!
//! Every [`BenchResult`] carries its [`provenance`] (build, machine, date, dataset file), so
//! saved results can be compared honestly; [`export`] writes them as JSON, CSV or a markdown
//! table.

pub mod export;
pub mod provenance;
pub mod stats;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde::Serialize;

use crate::engines::solver::simd::SimdPath;
use crate::engines::solver::{Algorithm, Limits, Status};
use crate::grid::Grid;
use crate::stats::RunStats;
use crate::symmetry::Rng;

use provenance::{DatasetInfo, Provenance};
use stats::Summary;

/// Timed runs when the user does not say (hyperfine's minimum is 10 too).
pub const DEFAULT_RUNS: u32 = 10;

/// What to measure.
#[derive(Clone, Copy, Debug)]
pub struct BenchConfig {
    /// The solver.
    pub algorithm: Algorithm,
    /// Worker threads (1 = the calling thread only).
    pub threads: usize,
    /// Solution limit: 1 finds one, 2 proves uniqueness.
    pub limit: u32,
    /// Minimum timed duration of all runs together; each run gets `seconds / runs`.
    pub seconds: f64,
    /// Timed runs after the warm-up (at least 1).
    pub runs: u32,
}

/// One timed run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunTiming {
    /// Puzzles whose search finished in the run.
    pub puzzles: u64,
    /// Wall-clock seconds of the run.
    pub seconds: f64,
}

impl RunTiming {
    /// Throughput of the run.
    pub fn puzzles_per_sec(&self) -> f64 {
        self.puzzles as f64 / self.seconds.max(1e-12)
    }
}

/// What [`measure`] found: the timed runs and the solver's counts over all of them.
#[derive(Clone, Debug)]
pub struct Measurement {
    /// The timed runs, in order (the warm-up is not among them).
    pub runs: Vec<RunTiming>,
    /// Status and search counts of the puzzles finished in the timed runs.
    pub stats: RunStats,
}

/// One row of the report: a dataset × algorithm, with the spread over its runs and where it
/// was measured. The field names are a contract (`--json`, `--export-json`, scripts): add,
/// never rename.
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
    /// Puzzles whose search finished in the timed runs (repeats included).
    pub puzzles: u64,
    /// Distinct puzzles in the dataset.
    pub dataset_puzzles: usize,
    /// Whether the runs together solved every puzzle of the dataset at least once (false
    /// when time-boxed).
    pub complete: bool,
    /// Timed wall-clock seconds, all runs together.
    pub seconds: f64,
    /// Throughput: the mean over the runs.
    pub puzzles_per_sec: f64,
    /// Sample standard deviation of the runs' throughput (0 for one run).
    pub puzzles_per_sec_stddev: f64,
    /// The slowest run's throughput.
    pub puzzles_per_sec_min: f64,
    /// The fastest run's throughput.
    pub puzzles_per_sec_max: f64,
    /// Timed runs (the warm-up excluded).
    pub runs: u32,
    /// Each run's throughput, in order (hyperfine's `times`).
    pub run_puzzles_per_sec: Vec<f64>,
    /// Mean throughput divided by the baseline's on the same dataset (see [`set_relative`]).
    pub relative: f64,
    /// The algorithm `relative` compares with.
    pub baseline: Algorithm,
    /// Wall-clock microseconds per puzzle (1 / mean throughput).
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
    /// The dataset file: path, size, modification time, hash.
    #[serde(flatten)]
    pub source: DatasetInfo,
    /// Build, machine and date.
    #[serde(flatten)]
    pub provenance: Provenance,
}

impl BenchResult {
    /// The row for `measurement` of `cfg` on `dataset` (`dataset_puzzles` distinct puzzles).
    /// `relative` starts at 1 against itself; [`set_relative`] fills it in.
    pub fn new(
        dataset: &DatasetInfo,
        dataset_puzzles: usize,
        cfg: &BenchConfig,
        measurement: Measurement,
        provenance: Provenance,
    ) -> BenchResult {
        let Measurement { runs, stats } = measurement;
        let rates: Vec<f64> = runs.iter().map(RunTiming::puzzles_per_sec).collect();
        let spread = Summary::of(&rates);
        let puzzles: u64 = runs.iter().map(|r| r.puzzles).sum();
        BenchResult {
            dataset: dataset.name(),
            algorithm: cfg.algorithm,
            simd: SimdPath::active(),
            threads: cfg.threads,
            limit: cfg.limit,
            puzzles,
            dataset_puzzles,
            complete: puzzles >= dataset_puzzles as u64,
            seconds: runs.iter().map(|r| r.seconds).sum(),
            puzzles_per_sec: spread.mean,
            puzzles_per_sec_stddev: spread.stddev,
            puzzles_per_sec_min: spread.min,
            puzzles_per_sec_max: spread.max,
            runs: runs.len() as u32,
            run_puzzles_per_sec: rates,
            relative: 1.0,
            baseline: cfg.algorithm,
            usec_per_puzzle: if puzzles == 0 {
                f64::INFINITY
            } else {
                1e6 / spread.mean
            },
            no_guess_pct: stats.no_guess_pct(),
            guesses_per_puzzle: stats.guesses_per_puzzle(),
            branch_points_per_puzzle: stats.branch_points_per_puzzle(),
            nodes_per_puzzle: stats.nodes_per_puzzle(),
            stats,
            source: dataset.clone(),
            provenance,
        }
    }

    /// σ / mean of the throughput: the run-to-run noise (0 when nothing finished).
    pub fn relative_stddev(&self) -> f64 {
        if self.puzzles_per_sec > 0.0 {
            self.puzzles_per_sec_stddev / self.puzzles_per_sec
        } else {
            0.0
        }
    }
}

/// Fill in `relative` and `baseline` of results of one dataset: each mean throughput divided
/// by `baseline`'s, or, without one (or when it is not among them), by the slowest
/// algorithm's that finished something. A baseline that finished nothing leaves `relative`
/// undefined (NaN, `null` in JSON).
pub fn set_relative(results: &mut [BenchResult], baseline: Option<Algorithm>) {
    let chosen = baseline
        .and_then(|b| results.iter().find(|r| r.algorithm == b))
        .or_else(|| {
            results
                .iter()
                .filter(|r| r.puzzles_per_sec > 0.0)
                .min_by(|a, b| a.puzzles_per_sec.total_cmp(&b.puzzles_per_sec))
        })
        .map(|r| (r.algorithm, r.puzzles_per_sec));
    let Some((algorithm, rate)) = chosen else {
        return;
    };
    for r in results {
        r.baseline = algorithm;
        r.relative = if rate > 0.0 {
            r.puzzles_per_sec / rate
        } else {
            f64::NAN
        };
    }
}

/// Shuffle with a fixed seed (the crate's one [`Rng`]), so every run times the same order.
pub fn shuffle(puzzles: &mut [Grid], seed: u64) {
    Rng::new(seed, 0).shuffle(puzzles);
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

/// Solve rounds over `puzzles`, the first from `start`, until `budget` is up; a round cut
/// short still counts the puzzles it finished, so slow algorithms end near the requested
/// time. Returns where the next run should start: runs continue where the last one
/// stopped, so together they cover the set as one long run would, however short each is.
fn timed_rounds(
    puzzles: &[Grid],
    cfg: &BenchConfig,
    pool: Option<&rayon::ThreadPool>,
    budget: Duration,
    start: usize,
) -> (RunTiming, RunStats, usize) {
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let stop_ref = &stop;
        let guard = scope.spawn(move || time_box(stop_ref, budget));
        let clock = Instant::now();
        let mut stats = RunStats::default();
        let mut round = &puzzles[start.min(puzzles.len())..];
        while !stop.load(Ordering::Relaxed) {
            stats += pass(round, cfg, pool, &stop);
            round = puzzles;
        }
        let seconds = clock.elapsed().as_secs_f64();
        stop.store(true, Ordering::Relaxed);
        guard.join().ok();
        let timing = RunTiming {
            puzzles: stats.records,
            seconds,
        };
        // With several threads a cut-off round finishes a prefix of each chunk, not of the
        // set: the next start is then approximate, which only shifts the order slightly.
        let next = (start as u64 + stats.records) % puzzles.len().max(1) as u64;
        (timing, stats, next as usize)
    })
}

/// One pass over `warm`, cut off after `budget`: caches, branch predictors and the worker
/// threads get going before the clock starts.
fn warm_up(warm: &[Grid], cfg: &BenchConfig, pool: Option<&rayon::ThreadPool>, budget: Duration) {
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let stop_ref = &stop;
        let t = scope.spawn(move || time_box(stop_ref, budget));
        pass(warm, cfg, pool, &stop);
        stop.store(true, Ordering::Relaxed);
        t.join().ok();
    });
}

/// Measure `cfg` on `puzzles` (already shuffled): a warm-up (one pass over the first 2,000
/// puzzles, cut off after a tenth of the time or 0.5 s), then `cfg.runs` timed runs of `seconds / runs` each.
pub fn measure(
    puzzles: &[Grid],
    cfg: &BenchConfig,
) -> Result<Measurement, rayon::ThreadPoolBuildError> {
    let pool = crate::pipeline::worker_pool(cfg.threads)?;
    let runs = cfg.runs.max(1);
    let budget = Duration::from_secs_f64(cfg.seconds.max(0.01));
    warm_up(
        &puzzles[..puzzles.len().min(2000)],
        cfg,
        pool.as_ref(),
        budget.mul_f64(0.1).min(Duration::from_millis(500)),
    );

    let per_run = budget
        .div_f64(f64::from(runs))
        .max(Duration::from_millis(1));
    let mut measurement = Measurement {
        runs: Vec::with_capacity(runs as usize),
        stats: RunStats::default(),
    };
    let mut start = 0;
    for _ in 0..runs {
        let (timing, stats, next) = timed_rounds(puzzles, cfg, pool.as_ref(), per_run, start);
        measurement.runs.push(timing);
        measurement.stats += stats;
        start = next;
    }
    Ok(measurement)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(algorithm: Algorithm, rate: f64) -> BenchResult {
        let cfg = BenchConfig {
            algorithm,
            threads: 1,
            limit: 1,
            seconds: 1.0,
            runs: 1,
        };
        let info = DatasetInfo {
            dataset_path: "d.txt".into(),
            dataset_bytes: 0,
            dataset_mtime: None,
            dataset_sha256: None,
        };
        let measurement = Measurement {
            runs: vec![RunTiming {
                puzzles: rate as u64,
                seconds: 1.0,
            }],
            stats: RunStats::default(),
        };
        BenchResult::new(&info, 10, &cfg, measurement, Provenance::current())
    }

    #[test]
    fn relative_is_against_the_slowest_or_the_baseline() {
        let mut rs = vec![
            result(Algorithm::Fast, 4000.0),
            result(Algorithm::Naive, 10.0),
            result(Algorithm::Mrv, 200.0),
        ];
        set_relative(&mut rs, None);
        let rel: Vec<f64> = rs.iter().map(|r| r.relative).collect();
        assert_eq!(rel, [400.0, 1.0, 20.0]);
        assert!(rs.iter().all(|r| r.baseline == Algorithm::Naive));
        set_relative(&mut rs, Some(Algorithm::Fast));
        assert_eq!(rs[1].relative, 10.0 / 4000.0);
        // A baseline that finished nothing gives no ratio.
        let mut rs = vec![result(Algorithm::Fast, 10.0), result(Algorithm::Naive, 0.0)];
        set_relative(&mut rs, Some(Algorithm::Naive));
        assert!(rs[0].relative.is_nan());
    }

    #[test]
    fn every_timed_run_is_recorded_and_counted() {
        let empty: Grid = "0".repeat(81).parse().unwrap();
        let puzzles = vec![empty; 50];
        let cfg = BenchConfig {
            algorithm: Algorithm::Fast,
            threads: 1,
            limit: 1,
            seconds: 0.02,
            runs: 4,
        };
        let m = measure(&puzzles, &cfg).unwrap();
        assert_eq!(m.runs.len(), 4);
        assert_eq!(
            m.stats.records,
            m.runs.iter().map(|r| r.puzzles).sum::<u64>()
        );
        assert!(m.runs.iter().all(|r| r.seconds >= 0.004));
    }
}
