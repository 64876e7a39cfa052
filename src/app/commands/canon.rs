//! `sudoku-batch canon`: one canonical form per input record, in input order.

use std::cell::RefCell;
use std::process::ExitCode;

use clap::Args;

use sudoku_batch::engines::canonical::Canonicalizer;
use sudoku_batch::io::OutputFormat;
use sudoku_batch::jobs::canon::{CanonRecord, CanonWriter};

use crate::cli::{output_formats, InputArgs, RunArgs};
use crate::job::Job;
use crate::output::Diagnostics;
use crate::progress::Bar;

pub const HELP: &str = "\
The canonical form is the lexicographically smallest 81-cell string (empty = 0, below every
digit) over all 3,359,232 position symmetries (transposition, band and stack order, row and
column order within them), digits relabelled 1, 2, 3, ... in order of first appearance. Two
puzzles have the same form exactly when one is a relabelled, permuted, transposed copy of the
other. One output record per input record, in input order; `invalid` (givens break a rule)
and `malformed` records get their status word instead of a form, and a message on stderr
(not with --quiet).
csv and jsonl add the automorphisms: how many symmetries map the puzzle to itself.

Examples:
  sudoku-batch canon puzzles.txt | sort | uniq -d        # forms seen more than once
  sudoku-batch canon --format csv --threads 2 kaggle.csv -o forms.csv";

/// `sudoku-batch canon`.
#[derive(Debug, Args)]
pub struct CanonArgs {
    /// Input files; `-` or none reads stdin.
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<String>,

    /// Output format: line (the form, or the status word), csv or jsonl (both add the
    /// automorphism count).
    #[arg(long, short, alias = "output-format", default_value = "line", ignore_case = true, value_parser = output_formats())]
    pub format: OutputFormat,

    #[command(flatten)]
    pub run: RunArgs,

    #[command(flatten)]
    pub input: InputArgs,
}

thread_local! {
    /// One search per worker thread: its candidate buffers, grown to the largest level seen,
    /// are reused by every record instead of being allocated and grown again per record
    /// (the pipeline's work function has no per-thread state of its own).
    static SEARCH: RefCell<Canonicalizer> = RefCell::new(Canonicalizer::new());
}

pub fn run(args: &CanonArgs) -> anyhow::Result<ExitCode> {
    let (mut job, out) = Job::start_run(&args.inputs, &args.input, &args.run)?;
    let mut diagnostics = Diagnostics::new(args.run.quiet);
    // Only the first shard writes the CSV header, so shard outputs concatenate.
    let header = job.options.shard.is_none_or(|(k, _)| k == 1);
    let mut writer = CanonWriter::new(out, args.format, header);
    let mut records = 0;
    let bar = Bar::hidden();
    let work = |r| SEARCH.with(|s| CanonRecord::new(r, &mut s.borrow_mut()));
    for input in &job.inputs {
        let label = input.label();
        let collect = |c: &mut CanonRecord| {
            if let Some(e) = c.error() {
                let message = format!("{}: {e}", c.status().as_str());
                diagnostics.report(|m| eprintln!("{m}"), &label, c.record.line, &message);
            }
            Ok(())
        };
        records += job.stage(job.open(input)?, &work, collect, &mut writer, &bar)?;
    }
    job.commit(writer.into_inner())?;
    diagnostics.finish("--format jsonl or csv gives every record's message");
    let bad = diagnostics.reported;
    if !args.run.quiet {
        let secs = job.seconds();
        eprintln!(
            "sudoku-batch: canonicalised {records} records in {secs:.2} s ({:.0} puzzles/s): {} with a form, {bad} invalid or malformed",
            records as f64 / secs.max(1e-9),
            records - bad
        );
    }
    job.finish(&(), bad == 0)
}
