//! `sudoku-batch verify`: every record checked through the pipeline, problems reported by line.

use std::cell::RefCell;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use sudoku_batch::engines::canonical::Canonicalizer;
use sudoku_batch::io::{
    Column, Input, InputFormat, OutputFormat, ReaderOptions, Record, RecordReader,
};
use sudoku_batch::jobs::verify::report::ReportWriter;
use sudoku_batch::jobs::verify::{self, Checked, Duplicates, Problem, Rules, Summary, VerifyStats};
use sudoku_batch::pipeline::{self, Discard, NoProgress, BATCH};

use crate::cli::{self, choices, InputArgs, ReportArgs, ThreadsArg};
use crate::job::{Job, Outputs};
use crate::progress::Bar;

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
--solutions FILE (one per record in the same order: a line each, or a CSV with a header).

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
    /// `canon` (~3-6 µs per puzzle and thread). Every distinct puzzle is remembered as a
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
    #[arg(long, short, alias = "output-format", default_value = "text", ignore_case = true, value_parser = report_formats())]
    pub format: OutputFormat,

    /// Write the report here instead of stdout (complete or absent: see solve -o).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    #[command(flatten)]
    pub report: ReportArgs,

    #[command(flatten)]
    pub threads: ThreadsArg,

    /// No summary on stderr, and no message about an empty input (the report has every
    /// problem).
    #[arg(long, short)]
    pub quiet: bool,

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

pub fn run(args: &VerifyArgs) -> anyhow::Result<ExitCode> {
    let outputs = Outputs::with_report(args.output.as_deref(), &args.report);
    let options = args.input.reader_options();
    let threads = args.threads.count();
    let (mut job, out) = Job::start(&args.inputs, options, threads, outputs, args.quiet)?;
    let mut report = ReportWriter::new(out, args.format, true, "");
    let canonical = args.duplicates.as_deref() == Some("canonical");
    let mut tally = Tally {
        duplicates: duplicates(args, &job)?,
        stats: VerifyStats::default(),
        strict: args.report.strict,
    };
    let mut solutions = solutions(args, &job.options)?;
    let unique = !args.no_unique;
    let bar = Bar::hidden();
    for input in &job.inputs {
        let mut reader = job.open(input)?;
        if let Some(s) = solutions.take() {
            reader.attach_solutions(s);
        }
        let rules = Rules {
            unique,
            require_solution: args.require_solutions || reader.has_solutions(),
        };
        report.set_label(&input.label());
        if let Some(d) = &mut tally.duplicates {
            d.start_file(&input.label());
        }
        let work = |r| check(r, rules, canonical);
        job.stage(reader, &work, |c| tally.add(c), &mut report, &bar)?;
    }
    job.commit(report.into_inner())?;
    let inputs = job.inputs.iter().map(Input::label).collect();
    let summary = Summary::new(inputs, unique, job.seconds(), tally.stats);
    if !args.quiet {
        print_summary(&summary);
    }
    let all_fine = summary.stats.passed == summary.stats.records;
    job.finish(&summary, all_fine)
}

thread_local! {
    /// One canonical-form search per worker thread, reused by every record (as in `canon`):
    /// a search per record would grow its candidate buffers again each time.
    static SEARCH: RefCell<Canonicalizer> = RefCell::new(Canonicalizer::new());
}

/// The canonical form of `grid`, by this thread's search.
fn canonical_form(grid: &sudoku_batch::Grid) -> sudoku_batch::Grid {
    SEARCH.with(|s| s.borrow_mut().canonicalize(grid).form)
}

/// The work on one record: its checks, and its canonical form when duplicates are looked for
/// up to symmetry.
fn check(record: Record, rules: Rules, canonical: bool) -> Checked {
    let mut c = verify::check(record, rules);
    if canonical {
        c.canonical = c.puzzle.as_ref().map(canonical_form);
    }
    c
}

/// What the collect step keeps: the puzzles seen (duplicates) and the totals.
struct Tally {
    duplicates: Option<Duplicates>,
    stats: VerifyStats,
    strict: bool,
}

impl Tally {
    /// Note duplicates, then count the record; with `--strict`, stop at its first problem.
    fn add(&mut self, c: &mut Checked) -> Result<(), pipeline::Halt> {
        if let Some(d) = &mut self.duplicates {
            d.note(c);
        }
        if let (true, Some(f)) = (self.strict, c.findings.first()) {
            return Err(pipeline::Halt {
                line: c.line,
                message: format!("{}: {} (stopped by --strict)", f.problem, f.detail),
            });
        }
        self.stats.add(c);
        Ok(())
    }
}

fn print_summary(summary: &Summary) {
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

/// With `--duplicates`, the table of puzzles seen, holding every puzzle of the `--against`
/// references already.
fn duplicates(args: &VerifyArgs, job: &Job) -> anyhow::Result<Option<Duplicates>> {
    let references = cli::inputs_if_any(&args.against)?;
    let Some(mode) = &args.duplicates else {
        return Ok(None);
    };
    let canonical = mode == "canonical";
    let mut d = Duplicates::new(canonical);
    for reference in &references {
        load_reference(&mut d, reference, &job.options, job.threads, canonical)?;
    }
    Ok(Some(d))
}

/// The reader of `--solutions FILE`: a line file (one solution per line, e.g. `solve` output),
/// or a CSV with a header, whose solution column is read.
fn solutions(args: &VerifyArgs, options: &ReaderOptions) -> anyhow::Result<Option<RecordReader>> {
    let Some(path) = &args.solutions else {
        return Ok(None);
    };
    if options.shard.is_some() {
        anyhow::bail!("--shard cannot be combined with --solutions");
    }
    let listed = ReaderOptions {
        format: InputFormat::Auto,
        column: Some(Column::Name(args.solution_column.clone())),
        shard: None,
        keep_text: false,
        skip_solutions: false,
    };
    Ok(Some(RecordReader::open(
        &Input::Path(path.clone()),
        &listed,
    )?))
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
        BATCH,
        &|r: Record| {
            let key = match (r.puzzle, canonical) {
                (Ok(p), true) => Some(canonical_form(&p)),
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
