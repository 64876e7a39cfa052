//! `sudoku-batch verify`: every record checked through the pipeline, problems reported by line.

use std::io::BufWriter;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use serde::Serialize;

use sudoku_batch::io::report::ReportWriter;
use sudoku_batch::io::{Column, Input, InputFormat, OutputFormat, ReaderOptions, RecordReader};
use sudoku_batch::pipeline::{self, Halt, NoProgress};
use sudoku_batch::verify::{self, Duplicates, Problem, Rules, VerifyStats};

use clap::Args;

use crate::cli::{self, choices, InputArgs, ReportArgs, ThreadsArg};
use crate::commands::output_error;
use crate::output::{LateFile, Output};

pub const HELP: &str = "\
Problems (one report line each; a record can have several):
  malformed         the puzzle or the listed solution cannot be parsed
  missing-solution  no solution is listed (only when the input has a solution column or
                    --solutions, or with --require-solutions)
  invalid-givens    the puzzle's givens break a rule
  bad-grid          the listed solution is not a complete valid grid
  clue-mismatch     the listed solution changes a clue
  unsolvable        the puzzle has no solution
  not-unique        2+ solutions (the detail says whether the listed one is among them)
  wrong-solution    the puzzle is unique and the listed grid differs from its solution
  duplicate         the puzzle appeared on an earlier line (--duplicates[=canonical])
  in-reference      a file given with --against has the puzzle (FILE:LINE of the match)

Solutions come from the CSV solution column, the second 81-cell field of a line, or
--solutions FILE (one per line, same order).

Exit codes: 0 every record passes; 1 some problem was found; 2 usage or I/O error, or
--strict stopped at a problem; 130/143 interrupted (the -o report is removed).

Examples:
  sudoku-batch verify ../shared/datasets/kaggle1m_sample_first24997.csv
  sudoku-batch verify --format csv --duplicates puzzles.txt --solutions solutions.txt
  sudoku-batch verify --no-unique --duplicates=canonical --against train.csv test.csv";

/// `sudoku-batch verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Input files; `-` or none reads stdin.
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<String>,

    /// A file of solutions, one per record in the same order (instead of a solution column):
    /// one per line (e.g. `solve` output), or a CSV with a header (e.g. `solve --format csv`
    /// output; see --solution-column). Its record count must equal the input's.
    #[arg(long, value_name = "FILE")]
    pub solutions: Option<PathBuf>,

    /// The column of a CSV --solutions file that holds the solutions.
    #[arg(
        long,
        value_name = "NAME",
        default_value = "solution",
        requires = "solutions"
    )]
    pub solution_column: String,

    /// Report `missing-solution` for records without a listed solution even when the input
    /// has no solution column (by default such records are checked on their own: givens,
    /// solvability, uniqueness).
    #[arg(long)]
    pub require_solutions: bool,

    /// Skip the uniqueness proof (faster): a listed valid solution that keeps the clues passes.
    #[arg(long)]
    pub no_unique: bool,

    /// Also report repeated puzzles: `exact` (the default) compares the puzzle text;
    /// `canonical` finds puzzles equal up to Sudoku symmetry (relabelling, row/column swaps
    /// within bands/stacks, band/stack swaps, transposition) through the canonical form of
    /// `canon` (~15 µs per puzzle and thread). Every distinct puzzle is remembered as a
    /// 128-bit hash and its place (24 bytes; 10 million fit in well under 1 GiB; collision
    /// odds ~10⁻²⁵ at that size).
    #[arg(long, value_name = "MODE", num_args = 0..=1, require_equals = true, default_missing_value = "exact",
          value_parser = ["exact", "canonical"])]
    pub duplicates: Option<String>,

    /// Reference files (e.g. a training set): report every input record whose puzzle (or,
    /// with --duplicates=canonical, an equivalent one) a reference has, as `in-reference`
    /// naming FILE:LINE of the match. Needs --duplicates; repeat it for several files.
    #[arg(long, value_name = "REF", requires = "duplicates")]
    pub against: Vec<String>,

    /// Report format: text, csv (`line,id,problem,detail`) or jsonl.
    #[arg(long, short, default_value = "text", ignore_case = true, value_parser = report_formats())]
    pub format: OutputFormat,

    /// Write the report here instead of stdout (complete or absent: see solve -o).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    #[command(flatten)]
    pub threads: ThreadsArg,

    /// No summary on stderr.
    #[arg(long, short)]
    pub quiet: bool,

    #[command(flatten)]
    pub report: ReportArgs,

    #[command(flatten)]
    pub input: InputArgs,
}

fn report_formats() -> impl clap::builder::TypedValueParser<Value = OutputFormat> {
    choices(&[
        ("text", &[], OutputFormat::Line),
        ("csv", &[], OutputFormat::Csv),
        ("jsonl", &["json"], OutputFormat::Jsonl),
    ])
}

#[derive(Serialize)]
struct Summary {
    inputs: Vec<String>,
    unique_checked: bool,
    seconds: f64,
    puzzles_per_sec: f64,
    #[serde(flatten)]
    stats: VerifyStats,
}

pub fn run(args: &VerifyArgs) -> anyhow::Result<ExitCode> {
    let inputs = cli::inputs(&args.inputs)?;
    let options = args.input.reader_options();
    let threads = args.threads.count();
    let unique = !args.no_unique;
    let start = Instant::now();
    let (output, sink) = Output::create(args.output.as_deref())?;
    let stats_file = LateFile::create(args.report.stats_json.as_deref())?;
    let mut report = ReportWriter::new(
        BufWriter::with_capacity(1 << 16, sink),
        args.format,
        true,
        "",
    );
    let mut stats = VerifyStats::default();
    let canonical = args.duplicates.as_deref() == Some("canonical");
    let references = cli::inputs_if_any(&args.against)?;
    let mut duplicates = args
        .duplicates
        .is_some()
        .then(|| Duplicates::new(canonical));
    if let Some(d) = &mut duplicates {
        for reference in &references {
            load_reference(d, reference, &options, threads, canonical)?;
        }
    }
    let mut solutions = match &args.solutions {
        Some(path) => {
            if options.shard.is_some() {
                anyhow::bail!("--shard cannot be combined with --solutions");
            }
            // A line file (one solution per line, e.g. `solve` output) or a CSV with a
            // header, whose solution column is read.
            let listed = ReaderOptions {
                format: InputFormat::Auto,
                column: Some(Column::Name(args.solution_column.clone())),
                shard: None,
                keep_text: false,
            };
            Some(RecordReader::open(&Input::Path(path.clone()), &listed)?)
        }
        None => None,
    };
    for input in &inputs {
        let mut reader = RecordReader::open(input, &options)?;
        if let Some(s) = solutions.take() {
            reader.attach_solutions(s);
        }
        let rules = Rules {
            unique,
            require_solution: args.require_solutions || reader.has_solutions(),
        };
        report.set_label(&input.label());
        if let Some(d) = &mut duplicates {
            d.start_file(&input.label());
        }
        let records_before = stats.records;
        pipeline::run_stages(
            reader,
            threads,
            4096,
            &|r| {
                let mut c = verify::check(r, rules);
                if canonical {
                    c.canonical = c.puzzle.as_ref().map(sudoku_batch::canonical::canonical);
                }
                c
            },
            |c| {
                if let Some(d) = &mut duplicates {
                    d.note(c);
                }
                if let (true, Some(f)) = (args.report.strict, c.findings.first()) {
                    return Err(Halt {
                        line: c.line,
                        message: format!("{}: {} (stopped by --strict)", f.problem, f.detail),
                    });
                }
                stats.add(c);
                Ok(())
            },
            &mut report,
            &NoProgress,
        )
        .map_err(|e| output_error(e, &output))?;
        if stats.records == records_before && !args.quiet {
            eprintln!("{}", crate::output::no_records(&input.label()));
        }
    }
    drop(report);
    output.commit()?;
    let seconds = start.elapsed().as_secs_f64();
    let summary = Summary {
        inputs: inputs.iter().map(Input::label).collect(),
        unique_checked: unique,
        seconds,
        puzzles_per_sec: stats.records as f64 / seconds.max(1e-9),
        stats,
    };
    if !args.quiet {
        let s = &summary.stats;
        let counts: Vec<String> = Problem::ALL
            .iter()
            .filter_map(|p| s.problems.get(p).map(|n| format!("{n} {p}")))
            .collect();
        eprintln!(
            "sudoku-batch: verified {} records in {:.2} s ({:.0} puzzles/s): {} passed, {} with problems{}{}",
            s.records,
            summary.seconds,
            summary.puzzles_per_sec,
            s.passed,
            s.records - s.passed,
            if counts.is_empty() { "" } else { ": " },
            counts.join(", ")
        );
    }
    if let Some(file) = stats_file {
        file.write(|w| {
            serde_json::to_writer_pretty(&mut *w, &summary)?;
            writeln!(w)
        })?;
    }
    Ok(if summary.stats.passed == summary.stats.records {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// A sink for runs whose results are only collected (the reference files of `--against`).
struct Discard;

impl<T> sudoku_batch::io::Sink<T> for Discard {
    fn start(&mut self) -> std::io::Result<()> {
        Ok(())
    }
    fn write(&mut self, _: &T) -> std::io::Result<()> {
        Ok(())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Remember every puzzle of a reference file (its canonical form with `canonical`), in
/// parallel like the inputs. Records that are not puzzles cannot match anything: they are
/// counted in a warning.
fn load_reference(
    duplicates: &mut Duplicates,
    input: &Input,
    options: &ReaderOptions,
    threads: usize,
    canonical: bool,
) -> anyhow::Result<()> {
    let label = input.label();
    duplicates.start_file(&label);
    let whole = ReaderOptions {
        shard: None, // a reference is used whole, whatever shard of the inputs is checked
        ..options.clone()
    };
    let reader = RecordReader::open(input, &whole)?;
    let mut skipped = 0u64;
    pipeline::run_stages(
        reader,
        threads,
        4096,
        &|r| {
            let key = match (r.puzzle, canonical) {
                (Ok(p), true) => Some(sudoku_batch::canonical::canonical(&p)),
                (Ok(p), false) => Some(p),
                (Err(_), _) => None,
            };
            (r.line, key)
        },
        |(line, key)| {
            match key {
                Some(k) => duplicates.add_reference(k, *line),
                None => skipped += 1,
            }
            Ok(())
        },
        &mut Discard,
        &NoProgress,
    )?;
    if skipped > 0 {
        eprintln!(
            "sudoku-batch: warning: {label}: {skipped} reference records are not puzzles (skipped)"
        );
    }
    Ok(())
}
