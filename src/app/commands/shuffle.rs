//! `sudoku-batch shuffle`: random Sudoku symmetries applied to existing puzzles, so a set of
//! known difficulty becomes a large distinct-looking set of the same difficulty.

use std::process::ExitCode;

use clap::Args;

use sudoku_batch::io::write::PuzzleLines;
use sudoku_batch::jobs::shuffle::{ShuffleConfig, Shuffled};

use crate::cli::{InputArgs, RunArgs};
use crate::job::Job;
use crate::output::Diagnostics;
use crate::progress::Bar;

pub const HELP: &str = "\
Each output puzzle is the input puzzle under a random symmetry (digit relabelling, row and
column swaps within bands and stacks, band and stack swaps, transposition): the same
difficulty and solution count. Deterministic for a seed, whatever --threads.

Examples:
  sudoku-batch shuffle --copies 100 --seed 7 top1465.txt > top146500.txt
  sudoku-batch shuffle --with-solutions kaggle.csv -o shuffled.csv";

/// `sudoku-batch shuffle`.
#[derive(Debug, Args)]
pub struct ShuffleArgs {
    /// Input files; `-` or none reads stdin.
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<String>,

    /// Shuffled copies per input puzzle, 1 to 10,000 (for more, run again with another
    /// --seed).
    #[arg(long, short = 'n', default_value_t = 1,
          value_parser = crate::cli::within(&sudoku_batch::limits::COPIES))]
    pub copies: u64,

    /// Seed: the same seed gives the same output, byte for byte.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Write `puzzle,solution` CSV (solutions carried from the input or solved).
    #[arg(long)]
    pub with_solutions: bool,

    #[command(flatten)]
    pub run: RunArgs,

    #[command(flatten)]
    pub input: InputArgs,
}

pub fn run(args: &ShuffleArgs) -> anyhow::Result<ExitCode> {
    let (mut job, out) = Job::start_run(&args.inputs, &args.input, &args.run)?;
    // A record's copies are made in one piece: batches of fewer records keep a batch's
    // puzzles near the usual count whatever --copies is.
    job.batch = (job.batch as u64 / args.copies).max(1) as usize;
    let mut diagnostics = Diagnostics::new(args.run.quiet);
    let mut sink = PuzzleLines::new(out, args.with_solutions);
    let cfg = ShuffleConfig {
        seed: args.seed,
        copies: args.copies.max(1),
        with_solutions: args.with_solutions,
    };
    let mut records = 0;
    let bar = Bar::hidden();
    for (n, input) in job.inputs.iter().enumerate() {
        let label = input.label();
        let work = |r| cfg.shuffle(n as u64, r);
        let collect = |s: &mut Shuffled| {
            if let Err(e) = &s.copies {
                diagnostics.report(|m| eprintln!("{m}"), &label, s.line, e);
            }
            Ok(())
        };
        records += job.stage(job.open(input)?, &work, collect, &mut sink, &bar)?;
    }
    job.commit(sink.into_inner())?;
    diagnostics.finish("the output has a malformed line for each");
    let malformed = diagnostics.reported;
    if !args.run.quiet {
        let secs = job.seconds();
        let made = (records - malformed) * cfg.copies;
        eprintln!(
            "sudoku-batch: shuffled {records} records into {made} puzzles in {secs:.2} s ({:.0} puzzles/s), {malformed} malformed",
            made as f64 / secs.max(1e-9)
        );
    }
    job.finish(&(), malformed == 0)
}
