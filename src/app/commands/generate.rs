//! `sudoku-batch generate`: seeded puzzles with a unique solution, in parallel, in order.

use std::io::{BufWriter, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::{bail, Context};
use rayon::prelude::*;

use sudoku_batch::engines::rater::{Difficulty, Ladder};
use sudoku_batch::io::write::PuzzleLines;
use sudoku_batch::jobs::generate::{
    GenerateConfig, Generated, Generator, RatingBand, Shortfall, DEFAULT_CLUES, MAX_CLUES,
    MIN_CLUES,
};
use sudoku_batch::pipeline::thread_pool;

use clap::Args;

use crate::cli::{ladders, RunArgs};
use crate::output::Output;
use crate::progress::Bar;

pub const HELP: &str = "\
Clues: 22..36 by default (the range of typical published puzzles); --minimal removes clues
until none can go, at any count unless --clues is given too.

Practical bounds: clue removal ends at 22-27 clues; 21 clues take ~400 attempts a puzzle, 20
~4,000, fewer practically never (--clues 17..19 cannot be met). 55% of puzzles need no
guess; 32+ guesses come ~1 attempt in 1,000 (guesses are counted by the jcz solver, which
generate always uses, whatever the default solver). Each puzzle gets --max-attempts tries
(0.25-0.75 ms each); then the run stops with exit code 2, says how many puzzles were found
of how many asked for after how many attempts, and names the bound not met (the puzzles
found are on stdout; an -o file is not written).

Rating (--rating A..B): a puzzle within the other bounds is rated as `rate --ladder L
--max-rating B` rates it (the cap spares candidates above B a full rating) and kept when
its ER is within A..B and its path was not capped. Lines become `puzzle ER/EP/ED`;
--with-solutions adds er,ep,ed columns. ERs come in two humps (se ladder): at the default
clues 63% rate 1.2-1.5, 18% 1.7-2.8, 6% 3.0-6.4, 12% 6.5-7.5 (chains), 1% more; minimal
puzzles 23%, 32%, 11%, 30% and 4%. Every ladder rates through nested forcing chains, as rate
does (up to 11.0 + length bonus); a band that no attempt reaches within --max-attempts ends
as above, with the ERs the attempts got.

Examples:
  sudoku-batch generate --count 100000 --seed 1 > puzzles.txt
  sudoku-batch generate --count 1000 --minimal --min-guesses 3 -o hard.txt
  sudoku-batch generate --count 10000 --clues 30..36 --with-solutions -o easy.csv
  sudoku-batch generate --count 100 --rating 6.0..7.5 -o chains.txt
  sudoku-batch generate --count 100 --rating 4.0..4.4 --ladder sukaku --with-solutions";

/// `sudoku-batch generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// How many puzzles.
    #[arg(long, short = 'n', default_value_t = 10, value_parser = crate::cli::within(&sudoku_batch::limits::COUNT))]
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

    /// Keep only puzzles whose ER (Sudoku Explainer's rating, as `rate` computes it) is
    /// within A..B, both included (e.g. 6.0..7.5); B also caps each rating's cost. Adds
    /// ER/EP/ED to the output.
    #[arg(long, value_name = "A..B", value_parser = parse_band, allow_hyphen_values = true)]
    pub rating: Option<(Difficulty, Difficulty)>,

    /// The technique ladder --rating rates with, as `rate --ladder`: se (Sudoku Explainer
    /// 1.2.1.3), sukaku or sukaku-default.
    #[arg(long, default_value = "se", ignore_case = true, value_parser = ladders(),
          requires = "rating")]
    pub ladder: Ladder,

    /// Attempts per puzzle before giving up (exit 2, naming the bound that was not met).
    #[arg(long, value_name = "N", default_value_t = 10_000,
          value_parser = crate::cli::within_u32(&sudoku_batch::limits::ATTEMPTS))]
    pub max_attempts: u32,

    #[command(flatten)]
    pub run: RunArgs,
}

pub fn run(args: &GenerateArgs) -> anyhow::Result<ExitCode> {
    let cfg = config(args)?;
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
        Err(Stop::Shortfall {
            miss,
            found,
            attempts,
        }) => bail!(
            "generate: {found} of {} puzzles found after {attempts} attempts; {miss}",
            args.count
        ),
        Err(Stop::Write(e)) => {
            return Err(anyhow::Error::new(e).context(format!("{}: cannot write", output.label())))
        }
    };
    drop(out);
    output.commit()?;
    if !args.run.quiet {
        let secs = start.elapsed().as_secs_f64();
        let band = cfg.rating.map_or(String::new(), |band| {
            format!(", ER {band} on the {} ladder", band.ladder)
        });
        eprintln!(
            "sudoku-batch: generated {} puzzles in {secs:.2} s ({:.0}/s, {:.2} attempts per puzzle, seed {}{band})",
            args.count,
            args.count as f64 / secs.max(1e-9),
            attempts as f64 / args.count.max(1) as f64,
            args.seed
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The generator's settings from the command line.
fn config(args: &GenerateArgs) -> anyhow::Result<GenerateConfig> {
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
        rating: args.rating.map(|(min, max)| RatingBand {
            min,
            max,
            ladder: args.ladder,
        }),
    };
    if cfg.min_guesses > cfg.max_guesses {
        bail!("--min-guesses is above --max-guesses");
    }
    Ok(cfg)
}

/// Why [`write_puzzles`] stopped early.
enum Stop {
    /// Puzzle `found` (0-based) could not meet the bounds within its attempt budget; the
    /// `found` before it were written, and `attempts` were made in all (its own included).
    Shortfall {
        miss: Box<Shortfall>,
        found: u64,
        attempts: u64,
    },
    /// The output could not be written.
    Write(std::io::Error),
}

impl From<std::io::Error> for Stop {
    fn from(e: std::io::Error) -> Stop {
        Stop::Write(e)
    }
}

/// Puzzles per batch: each batch is made in parallel, then written in order.
const BATCH: u64 = 1024;

/// Generate `args.count` puzzles in batches on `pool` and write them in order, one line each
/// (`puzzle,solution` with a header when asked; with the rating when there is a band).
/// Returns the attempts made. When a puzzle cannot be made, the ones before it are written.
fn write_puzzles(
    out: &mut impl Write,
    pool: &rayon::ThreadPool,
    cfg: &GenerateConfig,
    args: &GenerateArgs,
    bar: &Bar,
) -> Result<u64, Stop> {
    let mut out = PuzzleLines::new(out, args.with_solutions);
    if cfg.rating.is_some() {
        out = out.with_ratings();
    }
    out.start()?;
    let mut made = Vec::new();
    let mut attempts = 0u64;
    for first in (0..args.count).step_by(BATCH as usize) {
        let last = (first + BATCH).min(args.count);
        let miss = make_batch(pool, cfg, first..last, bar, &mut made);
        for g in made.drain(..) {
            attempts += u64::from(g.attempts);
            match g.rating {
                Some(r) => out.write_rated(&g.puzzle, Some(&g.solution), [r.er, r.ep, r.ed])?,
                None => out.write(&g.puzzle, Some(&g.solution))?,
            }
        }
        if let Some(miss) = miss {
            out.flush()?;
            return Err(Stop::Shortfall {
                found: miss.index,
                attempts: attempts + u64::from(cfg.max_attempts),
                miss,
            });
        }
    }
    out.flush()?;
    Ok(attempts)
}

/// Puzzles `range` into `made`, in order, on `pool`; or the ones before the first puzzle
/// that could not be made, and why it could not.
///
/// The first miss sets a flag that stops the others between attempts. A puzzle before it
/// may have been stopped so, and might have missed too: those are made again (with a fresh
/// flag), until every puzzle before the first miss is known. So the puzzles written and the
/// miss reported are the same whatever the threads; the cost is the attempts the stop cut
/// short, made again.
fn make_batch(
    pool: &rayon::ThreadPool,
    cfg: &GenerateConfig,
    range: std::ops::Range<u64>,
    bar: &Bar,
    made: &mut Vec<Generated>,
) -> Option<Box<Shortfall>> {
    let run = |indices: &[u64]| -> Vec<Option<Result<Generated, Shortfall>>> {
        let cancel = AtomicBool::new(false);
        pool.install(|| {
            indices
                .par_iter()
                .map_init(
                    || Generator::new(*cfg),
                    |generator, &i| {
                        let g = generator.generate_unless(i, &cancel);
                        match g {
                            Some(Err(_)) => cancel.store(true, Ordering::Relaxed),
                            Some(Ok(_)) => bar.add(1),
                            None => {}
                        }
                        g
                    },
                )
                .collect()
        })
    };
    let all: Vec<u64> = range.clone().collect();
    let mut results = run(&all);
    loop {
        let end = results
            .iter()
            .position(|r| matches!(r, Some(Err(_))))
            .unwrap_or(results.len());
        let unknown: Vec<u64> = (0..end)
            .filter(|&k| results[k].is_none())
            .map(|k| range.start + k as u64)
            .collect();
        if unknown.is_empty() {
            let mut results = results.into_iter().take(end + 1);
            made.extend(
                results
                    .by_ref()
                    .take(end)
                    .map(|r| r.expect("known").expect("no miss before the first")),
            );
            return results
                .next()
                .map(|r| Box::new(r.expect("a miss").expect_err("a miss")));
        }
        for (i, r) in unknown.iter().zip(run(&unknown)) {
            results[(i - range.start) as usize] = r;
        }
    }
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

/// `A..B`: a closed band of ER ratings with one decimal, A at most B (e.g. `6.0..7.5`).
fn parse_band(text: &str) -> Result<(Difficulty, Difficulty), String> {
    let (a, b) = text
        .split_once("..")
        .ok_or_else(|| format!("{text:?}: expected a band A..B of ratings, e.g. 6.0..7.5"))?;
    let rating = |s: &str| -> Result<Difficulty, String> {
        let s = s.trim();
        if s.starts_with('-') {
            return Err(format!("{text:?}: {s} is negative, and ratings are not"));
        }
        s.parse().map_err(|_| {
            format!("{text:?}: {s:?} is not a rating (one decimal at most, 0.0 to 25.5, e.g. 6.2)")
        })
    };
    let (min, max) = (rating(a)?, rating(b.trim_start_matches('='))?);
    if min > max {
        return Err(format!(
            "{text:?}: {min} is above {max}; write the band low..high"
        ));
    }
    if max < Difficulty(10) {
        return Err(format!("{text:?}: no puzzle rates below 1.0"));
    }
    Ok((min, max))
}
