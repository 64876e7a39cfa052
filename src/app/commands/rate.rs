//! `sudoku-batch rate`: every input through the pipeline, rated the way Sudoku Explainer rates,
//! a summary on stderr, the exit code.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use sudoku_batch::io::{Input, OutputFormat};
use sudoku_batch::jobs::rate::summary::{RunInfo, Summary, Tally};
use sudoku_batch::jobs::rate::{
    Counted, FoldRated, RateFormat, RateStats, RateStatus, RateWork, RateWriter, RatedRecord,
    Raters,
};
use sudoku_batch::jobs::records::RecordFormat;
use sudoku_batch::pipeline::{Halt, OnWorkers, Render};

use crate::cli::{output_formats, ColumnArgs, RatingArgs, RecordArgs};
use crate::job::{Job, Writer};
use crate::output::Diagnostics;
use crate::progress::Bar;

pub const HELP: &str = "\
Each record is parsed, solved (a limit of 2 proves its solution unique) and, when it is a
valid puzzle with exactly one solution, rated the way Sudoku Explainer rates a puzzle: step
by step, at each step the easiest technique of the ladder that applies. ER is the hardest
step of the path, EP the hardest up to the first placement, ED up to the first elimination.

Input formats: as for solve (lines, csv, block, board; .gz and other compressed files; - or
no INPUT reads stdin). A 729-character candidate grid is rated from its candidates: a cell
with one candidate no peer holds is placed, a single candidate a peer still holds is a step.

Output (one record per input record, in input order):
  line    ER/EP/ED as serate prints it (2.6/1.2/1.2), then \" capped\" when the path stopped
          early (no technique of the ladder applies, or --max-rating): the rating is a lower
          bound; a record that was not rated gets its status word
  csv     line,id,puzzle,status,er,ep,ed,hardest,steps,capped,error
  jsonl   the same fields; with --steps, each record's steps first (\"kind\":\"step\": line,
          step, technique, difficulty, cells, digits, placements r1c2=5, eliminations
          r3c4<>7), then its \"kind\":\"rating\" object

Statuses:
  rated       a valid puzzle with one solution, rated (capped or not)
  multiple    2 or more solutions: not rated
  unsolvable  the givens are consistent but no grid completes them
  invalid     the givens break a rule: the message names digit, unit and cells
  malformed   not a puzzle: the message names the character or length that is wrong
  failed      the rating engine failed on the puzzle (a defect: please report the puzzle)

Exit codes:
  0    every record rated (capped ratings count as rated; the summary counts them)
  1    the run finished, but some records were multiple, unsolvable, invalid, malformed or
       failed
  2    usage or I/O error, or --strict stopped at a record not rated (the message names
       file:line)
  130  interrupted (SIGINT; 143 for SIGTERM): the -o file is removed, never left half written

Examples:
  sudoku-batch rate datasets/generated-hard-1k.txt --stats-json hard.json -o ratings.txt
  sudoku-batch rate --format csv --passthrough --max-rating 6.2 puzzles.csv.gz > rated.csv
  sudoku-batch rate --steps puzzle.txt | jq -c 'select(.kind == \"step\")'
  sudoku-batch plot hard.json -o er-histogram.svg";

/// Records per batch with `--steps`.
const STEPS_BATCH: usize = 16;

/// `sudoku-batch rate`.
#[derive(Debug, Args)]
pub struct RateArgs {
    /// Input files; `-` or none reads stdin.
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<String>,

    /// Write results here instead of stdout: through a temporary file in the same directory,
    /// renamed when the run succeeds, so FILE is complete or absent (also on error or Ctrl-C);
    /// a name ending in .gz, .zst, .xz or .bz2 is written compressed.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Output format: line (ER/EP/ED or status word), csv or jsonl [default: line; jsonl
    /// with --steps].
    #[arg(long, short, alias = "output-format", ignore_case = true, value_parser = output_formats())]
    pub format: Option<OutputFormat>,

    #[command(flatten)]
    pub rating: RatingArgs,

    /// Write every step of each path (jsonl, see below) before the record's rating object.
    #[arg(long)]
    pub steps: bool,

    #[command(flatten)]
    pub columns: ColumnArgs,

    #[command(flatten)]
    pub records: RecordArgs,
}

/// The output format: `--format`, else jsonl with `--steps` and line without.
fn format_of(args: &RateArgs) -> anyhow::Result<OutputFormat> {
    match (args.format, args.steps) {
        (Some(OutputFormat::Jsonl) | None, true) => Ok(OutputFormat::Jsonl),
        (Some(_), true) => anyhow::bail!("--steps writes jsonl: leave out --format or give jsonl"),
        (Some(format), false) => Ok(format),
        (None, false) => Ok(OutputFormat::Line),
    }
}

pub fn run(args: &RateArgs) -> anyhow::Result<ExitCode> {
    let format = format_of(args)?;
    args.columns.check(format)?;
    let keep_text = format != OutputFormat::Line;
    let (mut job, out) = Job::start_records(
        &args.inputs,
        args.output.as_deref(),
        keep_text,
        &args.records,
    )?;
    job.batch = batch_size(args);
    let mut bar = job.progress_bar(args.output.as_deref());
    let mut writer = rate_writer(out, format, args, &job);
    let raters = Raters::new(args.rating.options(), job.threads);
    let work = RateWork {
        raters: &raters,
        keep: format != OutputFormat::Line,
        steps: args.steps,
    };
    let line = RateFormat::line_render();
    let mut totals = Totals::new(args.records.quiet);
    for input in &job.inputs {
        let label = input.label();
        let reader = job.open(input)?;
        writer.set_input(&label, reader.csv_headers())?;
        // Records are formatted and the rated ones counted on the workers; with one worker,
        // csv and jsonl records are formatted on the writer thread, beside it (as solve does).
        let records = writer.renderer().filter(|_| job.threads > 1);
        let render = match (&records, format) {
            (Some(records), _) => Some(records as &dyn Render<_>),
            (None, OutputFormat::Line) => Some(&line as &dyn Render<_>),
            (None, _) => None,
        };
        bar.next_input(reader.bytes_read(), totals.stats.records);
        let fold = FoldRated { file: &label };
        let on = OnWorkers {
            render,
            fold: Some(&fold),
        };
        let collect = |r: &mut RatedRecord| totals.add(&label, r, args.records.report.strict, &bar);
        let ran = job.stage_rendered(reader, &work, on, collect, &mut writer, &bar)?;
        totals.end_input(ran.parts);
    }
    job.commit(writer.into_inner()?)?;
    report(job, args, &bar, totals)
}

/// Records a batch: `--batch`, at most [`STEPS_BATCH`] with `--steps`.
fn batch_size(args: &RateArgs) -> usize {
    // A hard puzzle's steps take ~12 KB of JSON now that chains are written out
    // (generated-hard-1k: 12.0 MB for 1,000), held twice (in the record, then rendered):
    // small batches keep the bytes in flight low (generated-hard-1k 16 times, Zen 4: peak
    // RSS 24 MiB at 2 threads and 42-44 MiB at 8 with 16 records a batch; 36 and 61-65 MiB
    // with 64, past the 64 MiB ceiling of the limits tests).
    if args.steps {
        args.records.batch.min(STEPS_BATCH)
    } else {
        args.records.batch
    }
}

/// The ratings' writer, in `format`, with a `file` column for several inputs.
fn rate_writer(
    out: Writer,
    format: OutputFormat,
    args: &RateArgs,
    job: &Job,
) -> RateWriter<Writer> {
    let header = args.columns.header(job.options.shard);
    RateWriter::new(out, RateFormat::new(format, args.steps), header)
        .with_columns(args.columns.columns(job.inputs.len()))
}

/// The end of the run: messages, the summary (stderr and --stats-json), the exit code.
fn report(job: Job, args: &RateArgs, bar: &Bar, totals: Totals) -> anyhow::Result<ExitCode> {
    bar.finish();
    totals
        .diagnostics
        .finish("--format jsonl or csv gives every record's message");
    let info = RunInfo {
        inputs: job.inputs.iter().map(Input::label).collect(),
        ladder: args.rating.ladder,
        max_rating: args.rating.max_rating,
        threads: job.threads,
    };
    let summary = Summary::new(info, job.seconds(), totals.stats, &totals.tally);
    if !args.records.quiet {
        print_summary(&summary);
    }
    job.finish(&summary, summary.stats.problems() == 0)
}

/// What the collect step gathers: totals, ratings, and messages about bad records. Rated
/// records are counted on the workers when they format the records ([`FoldRated`]) and added
/// in at the end of each input.
struct Totals {
    stats: RateStats,
    /// The inputs before the current one.
    tally: Tally,
    /// The current input's records seen by the collect step.
    input: Counted,
    diagnostics: Diagnostics,
}

impl Totals {
    fn new(quiet: bool) -> Totals {
        Totals {
            stats: RateStats::default(),
            tally: Tally::default(),
            input: Counted::default(),
            diagnostics: Diagnostics::new(quiet),
        }
    }

    /// Add in the counts the workers made of the input just run.
    fn end_input(&mut self, parts: Vec<Counted>) {
        let mut input = std::mem::take(&mut self.input);
        for part in parts {
            input.stats.merge(&part.stats);
            input.tally.merge_same_input(part.tally);
        }
        self.stats.merge(&input.stats);
        self.tally.append(input.tally);
    }

    /// Count one record of input `label`; with `strict`, stop at the first not rated.
    fn add(&mut self, label: &str, r: &RatedRecord, strict: bool, bar: &Bar) -> Result<(), Halt> {
        if let Some(message) = r.problem() {
            let worth = matches!(
                r.status,
                RateStatus::Malformed | RateStatus::Invalid | RateStatus::Failed
            );
            self.diagnostics.not_fine(
                |m| bar.println(m),
                (label, r.line),
                message,
                strict,
                worth,
            )?;
        }
        self.input.add(label, r);
        Ok(())
    }
}

fn print_summary(s: &Summary) {
    let t = &s.stats;
    eprintln!(
        "sudoku-batch: {} records in {:.2} s ({:.0} puzzles/s, {} thread{}, ladder {}): {} rated ({} capped), {} multiple, {} unsolvable, {} invalid, {} malformed{}",
        t.records,
        s.seconds,
        s.puzzles_per_sec,
        s.threads,
        if s.threads == 1 { "" } else { "s" },
        s.ladder,
        t.rated,
        t.capped,
        t.multiple,
        t.unsolvable,
        t.invalid,
        t.malformed,
        if t.failed > 0 { format!(", {} failed", t.failed) } else { String::new() },
    );
    let (Some(mean), Some(p)) = (s.er_mean, s.er_spread) else {
        return;
    };
    eprintln!(
        "sudoku-batch: ER mean {mean:.2} (p50 {:.1} p90 {:.1} p99 {:.1} max {:.1})",
        p.p50, p.p90, p.p99, p.max
    );
    let buckets: Vec<String> = s
        .er_histogram
        .iter()
        .map(|b| format!("{:.1}:{}", b.er, b.count))
        .collect();
    eprintln!(
        "sudoku-batch: ER histogram (rating:puzzles) {}",
        buckets.join(" ")
    );
    let techniques: Vec<String> = s
        .hardest_techniques
        .iter()
        .map(|t| {
            format!(
                "{} {}",
                t.technique.as_deref().unwrap_or("(no step)"),
                t.count
            )
        })
        .collect();
    eprintln!("sudoku-batch: hardest step: {}", techniques.join(", "));
    if let Some(h) = &s.hardest {
        eprintln!(
            "sudoku-batch: hardest puzzle: ER {:.1}{} ({}), line {} of {}",
            h.er,
            if h.capped { " capped" } else { "" },
            h.technique.as_deref().unwrap_or("no step"),
            h.line,
            h.file
        );
    }
}
