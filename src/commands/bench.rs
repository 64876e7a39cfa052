//! `sudoku-batch bench`: solve-only throughput, one row per dataset × algorithm.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{bail, Context};

use sudoku_batch::bench::{self, BenchConfig, BenchResult};
use sudoku_batch::io::load_puzzles;

use sudoku_batch::io::Input;

use crate::cli::{self, BenchArgs};

pub fn run(args: &BenchArgs) -> anyhow::Result<ExitCode> {
    if !(args.seconds > 0.0 && args.seconds.is_finite()) {
        bail!("--seconds must be a positive number, not {}", args.seconds);
    }
    for path in &args.files {
        Input::Path(path.clone()).check()?;
    }
    let threads = cli::threads(args.threads);
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
