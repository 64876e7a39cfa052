//! `sudoku-batch generate`: seeded puzzles with a unique solution, in parallel, in order.

use std::io::{BufWriter, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::{bail, Context};
use rayon::prelude::*;

use sudoku_batch::generate::{
    generate_unless, GenerateConfig, Generated, Shortfall, DEFAULT_CLUES, MAX_CLUES, MIN_CLUES,
};
use sudoku_batch::io::write::PuzzleLines;
use sudoku_batch::pipeline::thread_pool;

use clap::Args;

use crate::cli::RunArgs;
use crate::output::Output;
use crate::progress::Bar;

pub const HELP: &str = "\
Clues: 22..36 by default (the range of typical published puzzles); --minimal removes clues
until none can go, at any count unless --clues is given too.

Practical bounds: clue removal ends at 22-27 clues; 21 clues take ~400 attempts a puzzle, 20
~4,000, fewer practically never (--clues 17..19 cannot be met). 55% of puzzles need no
guess; 32+ guesses come ~1 attempt in 1,000 (guesses are counted by the jcz solver, which
generate always uses, whatever the default solver). Each puzzle gets --max-attempts tries
(0.25-0.75 ms each); then the run stops with exit code 2 and names the bound not met.

Examples:
  sudoku-batch generate --count 100000 --seed 1 > puzzles.txt
  sudoku-batch generate --count 1000 --minimal --min-guesses 3 -o hard.txt
  sudoku-batch generate --count 10000 --clues 30..36 --with-solutions -o easy.csv";

/// `sudoku-batch generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// How many puzzles.
    #[arg(long, short = 'n', default_value_t = 10, value_parser = crate::cli::at_least_one)]
    pub count: u64,

    /// Seed: the same seed gives the same puzzles, byte for byte.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Clue count range MIN..MAX, within 17..80 (a full grid is never a puzzle). Default:
    /// 22..36, the range of typical published puzzles; with --minimal, any count.
    #[arg(long, value_name = "MIN..MAX")]
    pub clues: Option<String>,

    /// Remove clues until none can be removed (minimal puzzles).
    #[arg(long)]
    pub minimal: bool,

    /// Keep only puzzles the jcz solver (generate's fixed solver) needs at least G guesses for.
    #[arg(long, value_name = "G")]
    pub min_guesses: Option<u64>,

    /// Keep only puzzles the jcz solver (generate's fixed solver) needs at most G guesses for.
    #[arg(long, value_name = "G")]
    pub max_guesses: Option<u64>,

    /// Write `puzzle,solution` CSV (with a header) instead of puzzle lines.
    #[arg(long)]
    pub with_solutions: bool,

    /// Attempts per puzzle before giving up (exit 2, naming the bound that was not met).
    #[arg(long, value_name = "N", default_value_t = 10_000,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub max_attempts: u32,

    #[command(flatten)]
    pub run: RunArgs,
}

pub fn run(args: &GenerateArgs) -> anyhow::Result<ExitCode> {
    let (min_clues, max_clues) = match &args.clues {
        Some(text) => parse_range(text)?,
        None if args.minimal => (MIN_CLUES, MAX_CLUES),
        None => DEFAULT_CLUES,
    };
    let cfg = GenerateConfig {
        seed: args.seed,
        min_clues,
        max_clues,
        minimal: args.minimal,
        min_guesses: args.min_guesses.unwrap_or(0),
        max_guesses: args.max_guesses.unwrap_or(u64::MAX),
        max_attempts: args.max_attempts,
        rating: None,
    };
    if cfg.min_guesses > cfg.max_guesses {
        bail!("--min-guesses is above --max-guesses");
    }
    let pool = thread_pool(args.run.threads.count()).context("cannot start worker threads")?;
    let (output, sink) = Output::create(args.run.output.as_deref())?;
    let start = Instant::now();
    let mut out = BufWriter::with_capacity(1 << 16, sink);
    let to_terminal = Bar::stdout_is_terminal()
        && args
            .run
            .output
            .as_deref()
            .is_none_or(|p| p.as_os_str() == "-");
    let bar = Bar::counting(args.count, "puzzles", !args.run.quiet && !to_terminal);
    let written = write_puzzles(&mut out, &pool, &cfg, args, &bar);
    bar.finish();
    let attempts = match written {
        Ok(attempts) => attempts,
        Err(Stop::Shortfall(miss)) => bail!("generate: {miss}"),
        Err(Stop::Write(e)) => {
            return Err(anyhow::Error::new(e).context(format!("{}: cannot write", output.label())))
        }
    };
    drop(out);
    output.commit()?;
    if !args.run.quiet {
        let secs = start.elapsed().as_secs_f64();
        eprintln!(
            "sudoku-batch: generated {} puzzles in {secs:.2} s ({:.0}/s, {:.2} attempts per puzzle, seed {})",
            args.count,
            args.count as f64 / secs.max(1e-9),
            attempts as f64 / args.count.max(1) as f64,
            args.seed
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Why [`write_puzzles`] stopped early.
enum Stop {
    /// A puzzle could not meet the bounds within its attempt budget.
    Shortfall(Box<Shortfall>),
    /// The output could not be written.
    Write(std::io::Error),
}

impl From<std::io::Error> for Stop {
    fn from(e: std::io::Error) -> Stop {
        Stop::Write(e)
    }
}

/// Generate `args.count` puzzles in batches on `pool` and write them in order, one line each
/// (`puzzle,solution` with a header when asked). Returns the attempts made.
fn write_puzzles(
    out: &mut impl Write,
    pool: &rayon::ThreadPool,
    cfg: &GenerateConfig,
    args: &GenerateArgs,
    bar: &Bar,
) -> Result<u64, Stop> {
    let mut out = PuzzleLines::new(out, args.with_solutions);
    out.start()?;
    let mut batch: Vec<Option<Result<Generated, Shortfall>>> = Vec::new();
    let cancel = AtomicBool::new(false);
    let mut attempts = 0u64;
    for first in (0..args.count).step_by(1024) {
        let last = (first + 1024).min(args.count);
        pool.install(|| {
            (first as usize..last as usize)
                .into_par_iter()
                .map(|i| {
                    let g = generate_unless(cfg, i as u64, &cancel);
                    if let Some(Err(_)) = g {
                        cancel.store(true, Ordering::Relaxed);
                    }
                    bar.add(1);
                    g
                })
                .collect_into_vec(&mut batch)
        });
        if cancel.load(Ordering::Relaxed) {
            // Report the first puzzle (in order) that used up its budget; the cancelled
            // ones (`None`) stopped because of it.
            let miss = batch
                .drain(..)
                .find_map(|g| g?.err())
                .expect("set by a miss");
            return Err(Stop::Shortfall(Box::new(miss)));
        }
        for g in batch.drain(..) {
            let g = g.expect("not cancelled").expect("no miss in this batch");
            attempts += u64::from(g.attempts);
            out.write(&g.puzzle, Some(&g.solution))?;
        }
    }
    out.flush()?;
    Ok(attempts)
}

/// `MIN..MAX`, `MIN..` or a single number.
fn parse_range(text: &str) -> anyhow::Result<(usize, usize)> {
    let parse = |s: &str, default: usize| -> anyhow::Result<usize> {
        if s.trim().is_empty() {
            Ok(default)
        } else {
            s.trim()
                .parse()
                .with_context(|| format!("--clues {text:?}: {s:?} is not a number"))
        }
    };
    let (lo, hi) = match text.split_once("..") {
        Some((a, b)) => (
            parse(a, MIN_CLUES)?,
            parse(b.trim_start_matches('='), MAX_CLUES)?,
        ),
        None => {
            let n = parse(text, MIN_CLUES)?;
            (n, n)
        }
    };
    let within = MIN_CLUES..=MAX_CLUES;
    if !within.contains(&lo) || !within.contains(&hi) || lo > hi {
        bail!("--clues {text:?}: wanted MIN..MAX within 17..80 (81 clues is a full grid, not a puzzle)");
    }
    Ok((lo, hi))
}
