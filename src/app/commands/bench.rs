//! `sudoku-batch bench`: solve-only throughput, one row per dataset × algorithm.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};

use sudoku_batch::bench::{self, BenchConfig, BenchResult};
use sudoku_batch::io::load_puzzles;

use sudoku_batch::io::Input;

use clap::Args;

use crate::cli::{algorithms, InputArgs, ThreadsArg};
use sudoku_batch::solver::Algorithm;

pub const HELP: &str = "\
Examples:
  sudoku-batch bench ../shared/datasets/puzzles3_magictour_top1465
  sudoku-batch bench --threads 1 --limit 2 --json data/*.txt
  sudoku-batch bench --algorithm naive,mrv,fast --seconds 5 top1465.txt";

/// `sudoku-batch bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Puzzle files (line files, CSV, ... as for `solve`).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Algorithms to measure, comma-separated: fast, bands, hybrid, jcz, mrv, naive.
    #[arg(long, short, value_delimiter = ',', default_value = "fast", ignore_case = true,
          value_parser = algorithms())]
    pub algorithm: Vec<Algorithm>,

    #[command(flatten)]
    pub threads: ThreadsArg,

    /// Solutions to look for: 1 finds one, 2 also proves uniqueness.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub limit: u32,

    /// Minimum timed seconds per dataset and algorithm (slow algorithms are cut off there).
    #[arg(long, default_value_t = 3.0)]
    pub seconds: f64,

    /// Print one JSON object per line instead of a table.
    #[arg(long)]
    pub json: bool,

    #[command(flatten)]
    pub input: InputArgs,
}

pub fn run(args: &BenchArgs) -> anyhow::Result<ExitCode> {
    if !(args.seconds > 0.0 && args.seconds.is_finite()) {
        bail!("--seconds must be a positive number, not {}", args.seconds);
    }
    for path in &args.files {
        Input::Path(path.clone()).check()?;
    }
    let threads = args.threads.count();
    let options = args.input.reader_options();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if !args.json {
        writeln!(out, "{}", header())?;
    }
    for path in &args.files {
        let (mut puzzles, malformed) = load_puzzles(path, &options)?;
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        if malformed > 0 {
            eprintln!(
                "sudoku-batch: {}: skipped {malformed} malformed record(s)",
                path.display()
            );
        }
        if puzzles.is_empty() {
            bail!("{}: no puzzles to time", path.display());
        }
        bench::shuffle(&mut puzzles, 0x5eed_1234_abcd_0001);
        for &algorithm in &args.algorithm {
            let cfg = BenchConfig {
                algorithm,
                threads,
                limit: args.limit,
                seconds: args.seconds,
            };
            let result =
                bench::run(&name, &puzzles, &cfg).context("cannot start worker threads")?;
            if args.json {
                writeln!(out, "{}", serde_json::to_string(&result)?)?;
            } else {
                writeln!(out, "{}", row(&result))?;
            }
            out.flush()?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn header() -> String {
    format!(
        "{:<36} {:<6} {:>3} {:>3} {:>10} {:>12} {:>10} {:>9} {:>10} {:>9} {:>12}",
        "dataset",
        "algo",
        "thr",
        "lim",
        "puzzles",
        "puzzles/s",
        "µs/puzzle",
        "no_guess%",
        "guesses/p",
        "branch/p",
        "nodes/p"
    )
}

fn row(r: &BenchResult) -> String {
    let done = if r.complete {
        format!("{}", r.puzzles)
    } else {
        format!("{}/{}*", r.puzzles, r.dataset_puzzles)
    };
    format!(
        "{:<36} {:<6} {:>3} {:>3} {:>10} {:>12.1} {:>10.3} {:>9.1} {:>10.2} {:>9.2} {:>12.1}",
        r.dataset,
        r.algorithm.name(),
        r.threads,
        r.limit,
        done,
        r.puzzles_per_sec,
        r.usec_per_puzzle,
        r.no_guess_pct,
        r.guesses_per_puzzle,
        r.branch_points_per_puzzle,
        r.nodes_per_puzzle
    )
}
