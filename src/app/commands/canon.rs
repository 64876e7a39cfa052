//! `sudoku-batch canon`: one canonical form per input record, in input order.

use std::cell::RefCell;
use std::io::BufWriter;
use std::process::ExitCode;
use std::time::Instant;

use sudoku_batch::canonical::Canonicalizer;
use sudoku_batch::io::canon::{CanonRecord, CanonStatus, CanonWriter};
use sudoku_batch::io::{OutputFormat, RecordReader};
use sudoku_batch::pipeline::{self, NoProgress};

use clap::Args;

use crate::cli::{self, output_formats, InputArgs, RunArgs};
use crate::commands::output_error;
use crate::output::{Diagnostics, Output};

pub const HELP: &str = "\
The canonical form is the lexicographically smallest 81-cell string (empty = 0, below every
digit) over all 3,359,232 position symmetries (transposition, band and stack order, row and
column order within them), digits relabelled 1, 2, 3, ... in order of first appearance. Two
puzzles have the same form exactly when one is a relabelled, permuted, transposed copy of the
other. One output record per input record, in input order; `invalid` (givens break a rule)
and `malformed` records get their status word instead of a form, and a message on stderr.
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
    #[arg(long, short, default_value = "line", ignore_case = true, value_parser = output_formats())]
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
    let inputs = cli::inputs(&args.inputs)?;
    let options = args.input.reader_options();
    let (output, sink) = Output::create(args.run.output.as_deref())?;
    let mut diagnostics = Diagnostics::new(args.run.quiet);
    // Only the first shard writes the CSV header, so shard outputs concatenate.
    let header = options.shard.is_none_or(|(k, _)| k == 1);
    let mut writer = CanonWriter::new(BufWriter::with_capacity(1 << 16, sink), args.format, header);
    let start = Instant::now();
    let (mut records, mut bad) = (0u64, 0u64);
    for input in &inputs {
        let label = input.label();
        let reader = RecordReader::open(input, &options)?;
        let records_before = records;
        pipeline::run_stages(
            reader,
            args.run.threads.count(),
            4096,
            &|r| SEARCH.with(|s| CanonRecord::new(r, &mut s.borrow_mut())),
            |c| {
                records += 1;
                if c.status() != CanonStatus::Ok {
                    bad += 1;
                    let message =
                        format!("{}: {}", c.status().as_str(), c.error().unwrap_or_default());
                    diagnostics.report(|m| eprintln!("{m}"), &label, c.record.line, &message);
                }
                Ok(())
            },
            &mut writer,
            &NoProgress,
        )
        .map_err(|e| output_error(e, &output))?;
        if records == records_before && !args.run.quiet {
            eprintln!("{}", crate::output::no_records(&label));
        }
    }
    drop(writer);
    output.commit()?;
    diagnostics.finish("--format jsonl or csv gives every record's message");
    if !args.run.quiet {
        let secs = start.elapsed().as_secs_f64();
        eprintln!(
            "sudoku-batch: canonicalised {records} records in {secs:.2} s ({:.0} puzzles/s): {} with a form, {bad} invalid or malformed",
            records as f64 / secs.max(1e-9),
            records - bad
        );
    }
    Ok(if bad == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
