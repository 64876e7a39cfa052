//! `sudoku-batch solve`: every input through the pipeline, a summary on stderr, the exit code.

use std::io::BufWriter;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use serde::Serialize;

use sudoku_batch::distribution::{Bucket, Distribution, Spread};
use sudoku_batch::io::writer::Columns;
use sudoku_batch::io::{
    Input, OutputFormat, ReaderOptions, RecordReader, RecordStatus, ResultWriter, SolvedRecord,
};
use sudoku_batch::pipeline::{self, Halt, PipelineConfig};
use sudoku_batch::solver::{Algorithm, Limits, Status};
use sudoku_batch::stats::RunStats;

use clap::Args;

use crate::cli::{self, algorithms, output_formats, InputArgs, ReportArgs, ThreadsArg};
use crate::commands::output_error;
use crate::output::{Diagnostics, LateFile, Output};
use crate::progress::Bar;

pub const HELP: &str = "\
Input formats (auto-detected from the first line):
  lines   one puzzle per line: the first field of 81 cells (1-9 clues; . 0 _ - empty),
          fields split on , ; tab or space; # comments and blank lines skipped
  csv     a header with a puzzle column (puzzle, quizzes, quiz, question; see --column);
          solution and id columns are carried along
  block   9 rows of 9 cells per puzzle;  board  a LeetCode board [[\"5\",\"3\",...],...]
  Files ending in .gz are decompressed; - or no INPUT reads stdin.

Statuses (one output record per input record, in input order, with its input line):
  solved      a solution (unique, with --limit 2)
  multiple    2 or more solutions (found with --limit 2 or more)
  unsolvable  the givens are consistent but no grid completes them
  invalid     the givens break a rule: the message names digit, unit and cells
  malformed   not a puzzle: the message names the character or length that is wrong
Malformed and invalid records are also reported on stderr as FILE:LINE: message (the first
20; --format jsonl or csv carries every message).

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
    /// renamed when the run succeeds, so FILE is complete or absent (also on error or Ctrl-C).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Output format: line (solution or status word), csv or jsonl.
    #[arg(long, short, default_value = "line", ignore_case = true, value_parser = output_formats())]
    pub format: OutputFormat,

    /// Leave out the CSV header line.
    #[arg(long)]
    pub no_header: bool,

    /// csv/jsonl: each record is the input record as read (a CSV row's columns under their
    /// own names, a line file's line as `input`), then the results (file, line, solution,
    /// status, solutions, guesses, nodes, error); a result name that equals an input
    /// column's gets `result_` in front (Kaggle: `result_solution`).
    #[arg(long)]
    pub passthrough: bool,

    /// csv/jsonl: write the puzzle with CHAR for empty cells (default: as in the input).
    #[arg(long, value_name = "CHAR", value_parser = parse_empty)]
    pub empty: Option<u8>,

    /// Solutions to look for: 1 finds one, 2 proves uniqueness, N counts up to N.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub limit: u32,

    /// Prove uniqueness (same as --limit 2).
    #[arg(long, conflicts_with = "limit")]
    pub unique: bool,

    /// Solver: fast, bands, hybrid, jcz, mrv or naive.
    #[arg(long, short, default_value = "fast", ignore_case = true, value_parser = algorithms())]
    pub algorithm: Algorithm,

    #[command(flatten)]
    pub threads: ThreadsArg,

    /// Records per batch.
    #[arg(long, default_value_t = 4096, hide = true)]
    pub batch: usize,

    /// No progress bar and no summary on stderr.
    #[arg(long, short)]
    pub quiet: bool,

    #[command(flatten)]
    pub report: ReportArgs,

    #[command(flatten)]
    pub input: InputArgs,
}

fn parse_empty(s: &str) -> Result<u8, String> {
    match s.as_bytes() {
        [b @ (b'.' | b'0' | b'_' | b'-')] => Ok(*b),
        _ => Err(format!("{s:?}: the empty-cell mark is one of . 0 _ -")),
    }
}

/// The run summary written by `--stats-json` (and printed on stderr).
#[derive(Serialize)]
struct Summary {
    inputs: Vec<String>,
    algorithm: Algorithm,
    threads: usize,
    limit: u32,
    seconds: f64,
    puzzles_per_sec: f64,
    guesses_per_puzzle: f64,
    nodes_per_puzzle: f64,
    no_guess_pct: f64,
    /// p50 / p90 / p99 / max of guesses and of nodes over the puzzles searched.
    guesses_spread: Spread,
    nodes_spread: Spread,
    /// The puzzle that needed the most guesses (then nodes): where it is.
    hardest: Option<Hardest>,
    /// How many puzzles needed 0, 1, 2-3, 4-7, ... guesses.
    guesses_histogram: Vec<Bucket>,
    #[serde(flatten)]
    stats: RunStats,
}

/// Where the hardest puzzle of a run is.
#[derive(Clone, Serialize)]
struct Hardest {
    file: String,
    line: u64,
    guesses: u64,
    nodes: u64,
}

/// Per-puzzle distributions and the hardest puzzle, gathered in input order.
#[derive(Default)]
struct Difficulty {
    guesses: Distribution,
    nodes: Distribution,
    hardest: Option<Hardest>,
}

impl Difficulty {
    fn add(&mut self, file: &str, r: &SolvedRecord) {
        let Some(o) = &r.outcome else { return };
        if !matches!(
            o.status,
            Status::Solved | Status::Multiple | Status::Unsolvable
        ) {
            return;
        }
        self.guesses.add(o.guesses);
        self.nodes.add(o.nodes);
        let harder = self
            .hardest
            .as_ref()
            .is_none_or(|h| (o.guesses, o.nodes) > (h.guesses, h.nodes));
        if harder {
            self.hardest = Some(Hardest {
                file: file.to_string(),
                line: r.record.line,
                guesses: o.guesses,
                nodes: o.nodes,
            });
        }
    }
}

pub fn run(args: &SolveArgs) -> anyhow::Result<ExitCode> {
    let inputs = cli::inputs(&args.inputs)?;
    let cfg = PipelineConfig {
        algorithm: args.algorithm,
        limit: if args.unique { 2 } else { args.limit },
        threads: args.threads.count(),
        batch: args.batch,
    };
    if args.passthrough && args.format == OutputFormat::Line {
        anyhow::bail!("--passthrough needs --format csv or jsonl");
    }
    let options = ReaderOptions {
        keep_text: args.format != OutputFormat::Line,
        ..args.input.reader_options()
    };
    let start = Instant::now();
    let total_bytes = inputs.iter().map(Input::size).sum::<Option<u64>>();
    let to_terminal =
        Bar::stdout_is_terminal() && args.output.as_deref().is_none_or(|p| p.as_os_str() == "-");
    let mut bar = Bar::new(total_bytes, !args.quiet && !to_terminal);

    let (output, sink) = Output::create(args.output.as_deref())?;
    let stats_file = LateFile::create(args.report.stats_json.as_deref())?;
    // Only the first shard writes the CSV header, so shard outputs concatenate.
    let header = !args.no_header && options.shard.is_none_or(|(k, _)| k == 1);
    let mut writer =
        ResultWriter::new(BufWriter::with_capacity(1 << 16, sink), args.format, header)
            .with_columns(Columns {
                file: inputs.len() > 1,
                empty: args.empty,
                passthrough: args.passthrough,
            });
    let limits = Limits::solutions(cfg.limit);
    let mut stats = RunStats::default();
    let mut diagnostics = Diagnostics::new(args.quiet);
    let mut difficulty = Difficulty::default();
    for input in &inputs {
        let label = input.label();
        let reader = RecordReader::open(input, &options)?;
        writer.set_input(&label, reader.csv_headers())?;
        bar.next_input(reader.bytes_read(), stats.records);
        let records_before = stats.records;
        let result = pipeline::run_stages(
            reader,
            cfg.threads,
            cfg.batch,
            &|r| pipeline::solve_record(r, cfg.algorithm, &limits),
            |r| {
                if let Some(message) = problem(r, cfg.limit) {
                    if args.report.strict {
                        return Err(Halt {
                            line: r.record.line,
                            message: format!("{message} (stopped by --strict)"),
                        });
                    }
                    // Malformed and invalid records are input errors worth a message;
                    // unsolvable and multiple are answers, already in the output.
                    if matches!(r.status(), RecordStatus::Malformed | RecordStatus::Invalid) {
                        diagnostics.report(|m| bar.println(m), &label, r.record.line, &message);
                    }
                }
                pipeline::tally(&mut stats, r);
                difficulty.add(&label, r);
                Ok(())
            },
            &mut writer,
            &bar,
        );
        if let Err(e) = result {
            bar.finish();
            return Err(output_error(e, &output));
        }
        if stats.records == records_before && !args.quiet {
            bar.println(&crate::output::no_records(&label));
        }
    }
    writer
        .flush()
        .with_context(|| format!("{}: cannot write", output.label()))?;
    drop(writer);
    output.commit()?;
    bar.finish();
    diagnostics.finish("--format jsonl or csv gives every record's message");

    let seconds = start.elapsed().as_secs_f64();
    let summary = Summary {
        inputs: inputs.iter().map(Input::label).collect(),
        algorithm: cfg.algorithm,
        threads: cfg.threads,
        limit: cfg.limit,
        seconds,
        puzzles_per_sec: stats.records as f64 / seconds.max(1e-9),
        guesses_per_puzzle: stats.guesses_per_puzzle(),
        nodes_per_puzzle: stats.nodes_per_puzzle(),
        no_guess_pct: stats.no_guess_pct(),
        guesses_spread: difficulty.guesses.spread(),
        nodes_spread: difficulty.nodes.spread(),
        hardest: difficulty.hardest,
        guesses_histogram: difficulty.guesses.histogram(),
        stats,
    };
    if !args.quiet {
        print_summary(&summary);
    }
    if let Some(file) = stats_file {
        file.write(|w| {
            serde_json::to_writer_pretty(&mut *w, &summary)?;
            writeln!(w)
        })?;
    }
    Ok(if stats.problems() == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
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

/// What is wrong with a record, for `--strict` and stderr (`None`: it is fine).
fn problem(r: &SolvedRecord, limit: u32) -> Option<String> {
    let status = r.status();
    match status {
        RecordStatus::Solved => None,
        RecordStatus::Multiple if limit < 2 => None,
        _ => Some(match r.error() {
            Some(e) => format!("{}: {e}", status.as_str()),
            None => status.as_str().to_string(),
        }),
    }
}
