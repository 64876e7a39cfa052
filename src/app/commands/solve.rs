//! `sudoku-batch solve`: every input through the pipeline, a summary on stderr, the exit code.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use sudoku_batch::engines::solver::{Algorithm, Limits};
use sudoku_batch::io::{Input, OutputFormat};
use sudoku_batch::jobs::records::RecordFormat;
use sudoku_batch::jobs::solve::summary::{RunInfo, SearchEffort, Summary};
use sudoku_batch::jobs::solve::{
    self, Counted, FoldFine, SolveFormat, SolveStatus, SolveWork, SolveWriter, SolvedRecord,
};
use sudoku_batch::pipeline::{Halt, OnWorkers, Render};
use sudoku_batch::stats::RunStats;

use crate::cli::{algorithms, output_formats, ColumnArgs, RecordArgs};
use crate::job::{Job, Writer};
use crate::output::Diagnostics;
use crate::progress::Bar;

pub const HELP: &str = "\
Input formats (auto-detected from the first line):
  lines   one puzzle per line: the first field of 81 cells (1-9 clues; . 0 _ - empty),
          fields split on , ; tab or space; # comments and blank lines skipped
  csv     a header with a puzzle column (puzzle, quizzes, quiz, question; see --column);
          solution and id columns are carried along
  block   9 rows of 9 cells per puzzle;  board  a LeetCode board [[\"5\",\"3\",...],...]
  A line's field or a CSV puzzle field of 729 characters is a candidate grid (nine per cell:
  the digit k+1 at place k where it is still a candidate, . or 0 where not): solved from its
  candidates (see sudoku-batch hint --help)
  Compressed inputs (gzip, zstd, xz, bzip2, a zip holding one file) are recognised by their
  bytes, whatever their name; - or no INPUT reads stdin.

Output (one record per input record, in input order):
  line    the 81-digit solution, or the status word
  csv     line,id,puzzle,solution,status,solutions,guesses,nodes,error
  jsonl   the same fields

Statuses:
  solved      a solution (unique, with --limit 2)
  multiple    2 or more solutions (found with --limit 2 or more)
  unsolvable  the givens are consistent but no grid completes them
  invalid     the givens break a rule: the message names digit, unit and cells
  malformed   not a puzzle: the message names the character or length that is wrong
Malformed and invalid records are also reported on stderr as FILE:LINE: message (the first
20, none with --quiet; --format jsonl or csv carries every message).

Exit codes:
  0    every record solved (and unique with --limit 2)
  1    the run finished, but some records were malformed, invalid, unsolvable or multiple
  2    usage or I/O error, or --strict stopped at a bad record (the message names file:line)
  130  interrupted (SIGINT; 143 for SIGTERM): the -o file is removed, never left half written

Examples:
  sudoku-batch solve datasets/generated-easy-10k.csv -o solutions.txt
  sudoku-batch solve --unique --format csv puzzles.txt.gz > report.csv
  cat puzzles.txt | sudoku-batch solve --threads 2 --quiet | head";

/// `sudoku-batch solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Input files; `-` or none reads stdin.
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<String>,

    /// Write results here instead of stdout: through a temporary file in the same directory,
    /// renamed when the run succeeds, so FILE is complete or absent (also on error or Ctrl-C);
    /// a name ending in .gz, .zst, .xz or .bz2 is written compressed.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Output format: line (solution or status word), csv or jsonl.
    #[arg(long, short, alias = "output-format", default_value = "line", ignore_case = true, value_parser = output_formats())]
    pub format: OutputFormat,

    #[command(flatten)]
    pub columns: ColumnArgs,

    /// Solutions to look for: 1 finds one, 2 proves uniqueness, N counts up to N.
    #[arg(long, default_value_t = 1,
          value_parser = crate::cli::within_u32(&sudoku_batch::limits::SOLUTIONS))]
    pub limit: u32,

    /// Prove uniqueness (same as --limit 2).
    #[arg(long, conflicts_with = "limit")]
    pub unique: bool,

    /// Solver: fast, bands, hybrid, jcz, mrv or naive.
    #[arg(long, short, default_value = "fast", ignore_case = true, value_parser = algorithms())]
    pub algorithm: Algorithm,

    #[command(flatten)]
    pub records: RecordArgs,
}

pub fn run(args: &SolveArgs) -> anyhow::Result<ExitCode> {
    args.columns.check(args.format)?;
    let keep_text = args.format != OutputFormat::Line;
    let (mut job, out) = Job::start_records(
        &args.inputs,
        args.output.as_deref(),
        keep_text,
        &args.records,
    )?;
    let mut bar = job.progress_bar(args.output.as_deref());
    let mut writer = result_writer(out, args, &job);
    let limit = if args.unique { 2 } else { args.limit };
    let limits = Limits::solutions(limit);
    let keep = args.format != OutputFormat::Line;
    let work = SolveWork {
        algorithm: args.algorithm,
        limits,
        keep,
    };
    let line = SolveFormat::line_render();
    let mut totals = Totals::new(args.records.quiet);
    for input in &job.inputs {
        let label = input.label();
        let reader = job.open(input)?;
        writer.set_input(&label, reader.csv_headers())?;
        // Records are formatted on the workers (csv and jsonl ones as this input's), and the
        // fine ones counted there too; but with one worker, csv and jsonl records (whose
        // formatting costs about as much as an easy puzzle's solve) are formatted on the
        // writer thread, beside it (Kaggle 1M CSV: 1.69 s instead of 2.22 s).
        let records = writer.renderer().filter(|_| job.threads > 1);
        let render = match (&records, args.format) {
            (Some(records), _) => Some(records as &dyn Render<_>),
            (None, OutputFormat::Line) => Some(&line as &dyn Render<_>),
            (None, _) => None,
        };
        bar.next_input(reader.bytes_read(), totals.stats.records);
        let fold = FoldFine {
            file: &label,
            limit,
        };
        let on = OnWorkers {
            render,
            fold: Some(&fold),
        };
        let collect =
            |r: &mut SolvedRecord| totals.add(&label, r, limit, args.records.report.strict, &bar);
        let ran = job.stage_rendered(reader, &work, on, collect, &mut writer, &bar)?;
        totals.end_input(ran.parts);
    }
    let label = job.output_label();
    job.commit(anyhow::Context::with_context(writer.into_inner(), || {
        format!("{label}: cannot write")
    })?)?;
    report(job, args, &bar, totals, limit)
}

/// The results' writer, in the asked format, with a `file` column for several inputs.
fn result_writer(out: Writer, args: &SolveArgs, job: &Job) -> SolveWriter<Writer> {
    let header = args.columns.header(job.options.shard);
    SolveWriter::new(out, SolveFormat::new(args.format), header)
        .with_columns(args.columns.columns(job.inputs.len()))
}

/// The end of the run: messages, the summary (stderr and --stats-json), the exit code.
fn report(
    job: Job,
    args: &SolveArgs,
    bar: &Bar,
    totals: Totals,
    limit: u32,
) -> anyhow::Result<ExitCode> {
    bar.finish();
    totals
        .diagnostics
        .finish("--format jsonl or csv gives every record's message");
    let info = RunInfo {
        inputs: job.inputs.iter().map(Input::label).collect(),
        algorithm: args.algorithm,
        threads: job.threads,
        limit,
    };
    let summary = Summary::new(info, job.seconds(), totals.stats, totals.effort);
    if !args.records.quiet {
        print_summary(&summary);
    }
    job.finish(&summary, summary.stats.problems() == 0)
}

/// What the collect step gathers: totals, search effort, and messages about bad records. When
/// the workers format the records (line output; csv and jsonl with 2 or more workers), fine
/// records are counted there instead ([`FoldFine`]) and added in at the end of each input.
struct Totals {
    stats: RunStats,
    /// The inputs before the current one.
    effort: SearchEffort,
    /// The current input's records seen by the collect step.
    input: SearchEffort,
    diagnostics: Diagnostics,
}

impl Totals {
    fn new(quiet: bool) -> Totals {
        Totals {
            stats: RunStats::default(),
            effort: SearchEffort::default(),
            input: SearchEffort::default(),
            diagnostics: Diagnostics::new(quiet),
        }
    }

    /// Add in the counts the workers made of the input just run.
    fn end_input(&mut self, parts: Vec<Counted>) {
        let mut input = std::mem::take(&mut self.input);
        for part in parts {
            self.stats.merge(&part.stats);
            input.merge_same_input(part.effort);
        }
        self.effort.append(input);
    }

    /// Count one record of input `label`; with `strict`, stop at the first that is not fine.
    fn add(
        &mut self,
        label: &str,
        r: &SolvedRecord,
        limit: u32,
        strict: bool,
        bar: &Bar,
    ) -> Result<(), Halt> {
        if let Some(message) = r.problem(limit) {
            if strict {
                return Err(Halt {
                    line: r.line,
                    message: format!("{message} (stopped by --strict)"),
                });
            }
            // Malformed and invalid records are input errors worth a message;
            // unsolvable and multiple are answers, already in the output.
            if matches!(r.status(), SolveStatus::Malformed | SolveStatus::Invalid) {
                self.diagnostics
                    .report(|m| bar.println(m), label, r.line, &message);
            }
        }
        solve::tally(&mut self.stats, r);
        self.input.add(label, r);
        Ok(())
    }
}

fn print_summary(s: &Summary) {
    let t = &s.stats;
    eprintln!(
        "sudoku-batch: {} records in {:.2} s ({:.0} puzzles/s, {} thread{}): {} solved, {} multiple, {} unsolvable, {} invalid, {} malformed",
        t.records,
        s.seconds,
        s.puzzles_per_sec,
        s.threads,
        if s.threads == 1 { "" } else { "s" },
        t.solved,
        t.multiple,
        t.unsolvable,
        t.invalid,
        t.malformed
    );
    let (g, n) = (&s.guesses_spread, &s.nodes_spread);
    eprintln!(
        "sudoku-batch: guesses/puzzle {:.2} (p50 {} p90 {} p99 {} max {}), nodes/puzzle {:.2} (p50 {} p90 {} p99 {} max {}), {:.1}% solved without guessing",
        s.guesses_per_puzzle, g.p50, g.p90, g.p99, g.max,
        s.nodes_per_puzzle, n.p50, n.p90, n.p99, n.max,
        s.no_guess_pct
    );
    if let Some(h) = s.hardest.as_ref().filter(|h| h.guesses > 0) {
        eprintln!(
            "sudoku-batch: hardest puzzle: {} guesses, {} nodes, line {} of {}",
            h.guesses, h.nodes, h.line, h.file
        );
    }
}
