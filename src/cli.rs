//! Command-line arguments (clap derive) and their validation into library settings.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use sudoku_batch::error::InputError;
use sudoku_batch::io::{Column, Input, InputFormat, OutputFormat, ReaderOptions};
use sudoku_batch::solver::Algorithm;

const EXIT_CODES: &str = "\
Exit codes:
  0    every record fine (solve: solved, and unique with --limit 2; verify: no problem)
  1    the run finished, but some records were not (each is in the output, with its line)
  2    usage or I/O error, or --strict stopped at a bad record (the message names file:line)
  130  interrupted (SIGINT; 143 for SIGTERM): an -o output file is removed, never left half
       written";

/// Solve, check and benchmark Sudoku puzzles in bulk.
#[derive(Debug, Parser)]
#[command(name = "sudoku-batch", version, about, after_help = EXIT_CODES)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve every puzzle of the inputs, writing one result per record in input order.
    #[command(after_help = SOLVE_HELP)]
    Solve(SolveArgs),
    /// Check published solutions: every problem of every record, by line.
    #[command(after_help = VERIFY_HELP)]
    Verify(VerifyArgs),

    /// Generate puzzles with a unique solution (seeded, reproducible whatever the threads).
    #[command(after_help = "\
Practical bounds: clue removal ends at 22-27 clues; 21 clues take ~400 attempts a puzzle, 20
~4,000, fewer practically never (--clues 17..19 cannot be met). 55% of puzzles need no
guess; 32+ guesses come ~1 attempt in 1,000. Each puzzle gets --max-attempts tries
(0.25-0.75 ms each); then the run stops with exit code 2 and names the bound not met.

Examples:
  sudoku-batch generate --count 100000 --seed 1 > puzzles.txt
  sudoku-batch generate --count 1000 --minimal --min-guesses 3 -o hard.txt
  sudoku-batch generate --count 10000 --clues 30..36 --with-solutions -o easy.csv")]
    Generate(GenerateArgs),

    /// Apply random Sudoku symmetries to existing puzzles (same difficulty, new look).
    #[command(after_help = "\
Each output puzzle is the input puzzle under a random symmetry (digit relabelling, row and
column swaps within bands and stacks, band and stack swaps, transposition): the same
difficulty and solution count. Deterministic for a seed, whatever --threads.

Examples:
  sudoku-batch shuffle --copies 100 --seed 7 top1465.txt > top146500.txt
  sudoku-batch shuffle --with-solutions kaggle.csv -o shuffled.csv")]
    Shuffle(ShuffleArgs),

    /// Print each puzzle's canonical form: equal forms exactly for puzzles equal up to symmetry.
    #[command(after_help = CANON_HELP)]
    Canon(CanonArgs),

    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    #[command(
        after_help = "Example:\n  sudoku-batch completions bash > /etc/bash_completion.d/sudoku-batch"
    )]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },

    /// Print a man page (roff), or write one page per command to a directory.
    #[command(after_help = "\
Examples:
  sudoku-batch man > sudoku-batch.1 && man ./sudoku-batch.1
  sudoku-batch man solve | man -l -
  sudoku-batch man --dir /usr/local/share/man/man1   # sudoku-batch.1, sudoku-batch-solve.1, ...")]
    Man {
        /// The command whose page to print (default: the overview page).
        command: Option<String>,
        /// Write every page to DIR instead (sudoku-batch.1 and sudoku-batch-COMMAND.1).
        #[arg(long, value_name = "DIR", conflicts_with = "command")]
        dir: Option<PathBuf>,
    },

    /// Measure solve-only throughput on preloaded puzzles (tdoku-style table or JSON lines).
    #[command(after_help = "\
Examples:
  sudoku-batch bench ../shared/datasets/puzzles3_magictour_top1465
  sudoku-batch bench --threads 1 --limit 2 --json data/*.txt
  sudoku-batch bench --algorithm naive,mrv,fast --seconds 5 top1465.txt
  sudoku-batch bench --runs 20 --export-markdown results.md --plot results.svg data/*.txt

Each dataset × algorithm gets an untimed warm-up, then --runs timed runs of --seconds/--runs
each (defaults: 10 runs of 0.3 s); puzzles/s is their mean, with the standard deviation, min
and max. Every JSON result names the build (version, git commit), CPU, SIMD path, OS, date and
the dataset file (path, size, mtime, SHA-256 up to 256 MiB).")]
    Bench(BenchArgs),

    /// Draw a saved bench JSON (or several, side by side) or a --stats-json summary as SVG.
    Plot(crate::commands::plot::PlotArgs),
}

const SOLVE_HELP: &str = "\
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

    /// Solver threads (default: all cores, or RAYON_NUM_THREADS).
    #[arg(long, short = 'j')]
    pub threads: Option<usize>,

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

/// A value parser over named choices (listed in `--help` and completed by the shells), each
/// with its aliases, mapped to `T`.
fn choices<T: Clone + Send + Sync + 'static>(
    table: &'static [(&'static str, &'static [&'static str], T)],
) -> impl clap::builder::TypedValueParser<Value = T> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let values = table
        .iter()
        .map(|(name, aliases, _)| PossibleValue::new(*name).aliases(aliases.iter().copied()));
    PossibleValuesParser::new(values).map(move |s| {
        let s = s.to_ascii_lowercase();
        let (_, _, value) = table
            .iter()
            .find(|(name, aliases, _)| *name == s || aliases.contains(&s.as_str()))
            .expect("clap accepted only listed values");
        value.clone()
    })
}

fn output_formats() -> impl clap::builder::TypedValueParser<Value = OutputFormat> {
    choices(&[
        ("line", &["lines"], OutputFormat::Line),
        ("csv", &[], OutputFormat::Csv),
        ("jsonl", &["json"], OutputFormat::Jsonl),
    ])
}

const VERIFY_HELP: &str = "\
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

    /// Worker threads (default: all cores, or RAYON_NUM_THREADS).
    #[arg(long, short = 'j')]
    pub threads: Option<usize>,

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

/// `sudoku-batch shuffle`.
#[derive(Debug, Args)]
pub struct ShuffleArgs {
    /// Input files; `-` or none reads stdin.
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<String>,

    /// Shuffled copies per input puzzle.
    #[arg(long, short = 'n', default_value_t = 1)]
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

const CANON_HELP: &str = "\
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

/// `sudoku-batch generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// How many puzzles.
    #[arg(long, short = 'n', default_value_t = 10)]
    pub count: u64,

    /// Seed: the same seed gives the same puzzles, byte for byte.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Clue count range, MIN..MAX (17..81).
    #[arg(long, default_value = "17..81", value_name = "MIN..MAX")]
    pub clues: String,

    /// Remove clues until none can be removed (minimal puzzles).
    #[arg(long)]
    pub minimal: bool,

    /// Keep only puzzles the fast solver needs at least G guesses for.
    #[arg(long, value_name = "G")]
    pub min_guesses: Option<u64>,

    /// Keep only puzzles the fast solver needs at most G guesses for.
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

/// The run summary file and `--strict`, shared by the commands that judge every record
/// (solve, verify).
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Also write the run summary as JSON to FILE (complete or absent, like -o).
    #[arg(long, value_name = "FILE")]
    pub stats_json: Option<PathBuf>,

    /// Stop at the first record that is not fine (a status other than solved, or a problem:
    /// see below) with exit code 2 and a message naming its file and line; the records before
    /// it are written, and an output file (-o) is not created. Default: report every record
    /// and go on (exit code 1).
    #[arg(long)]
    pub strict: bool,
}

/// Threads, output file and quietness, shared by commands that write puzzles.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Worker threads (default: all cores).
    #[arg(long, short = 'j')]
    pub threads: Option<usize>,

    /// Output file (default stdout); written through a temporary file, so complete or absent.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// No summary on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

/// The inputs named on the command line (`-` is stdin, and no name at all means stdin), each
/// checked to open before any work starts: a typo in the last path must not cost a long run.
pub fn inputs(args: &[String]) -> Result<Vec<Input>, InputError> {
    let inputs = if args.is_empty() {
        vec![Input::Stdin]
    } else {
        args.iter().map(|a| Input::from_arg(a)).collect()
    };
    inputs.iter().try_for_each(Input::check)?;
    Ok(inputs)
}

/// Like [`inputs`], but no names means no inputs (for optional file lists such as
/// `verify --against`).
pub fn inputs_if_any(args: &[String]) -> Result<Vec<Input>, InputError> {
    if args.is_empty() {
        Ok(Vec::new())
    } else {
        inputs(args)
    }
}

/// Options shared by every command that reads puzzles.
#[derive(Debug, Args)]
pub struct InputArgs {
    /// Input format: auto, lines, csv, block or board (LeetCode). Auto looks at the first line.
    #[arg(long, value_name = "FORMAT", default_value = "auto", ignore_case = true,
          value_parser = input_formats())]
    pub input_format: InputFormat,

    /// CSV puzzle column, by header name or 0-based index (default: puzzle, quizzes, quiz, question).
    #[arg(long, value_name = "NAME|INDEX")]
    pub column: Option<String>,

    /// Process only shard K of N of each (plain) input file: the K-th of N contiguous byte
    /// ranges, aligned to line starts. The N outputs concatenated equal the unsharded output
    /// (only shard 1 writes a CSV header). For job arrays (Slurm, Kubernetes indexed jobs).
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<(u64, u64)>,
}

fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let (k, n) = s.split_once('/').ok_or("expected K/N, e.g. 3/8")?;
    let (k, n): (u64, u64) = (
        k.trim()
            .parse()
            .map_err(|_| format!("{k:?} is not a number"))?,
        n.trim()
            .parse()
            .map_err(|_| format!("{n:?} is not a number"))?,
    );
    if n == 0 || k == 0 || k > n {
        return Err(format!("{s}: K must be from 1 to N"));
    }
    Ok((k, n))
}

impl InputArgs {
    /// The reader settings these options ask for.
    pub fn reader_options(&self) -> ReaderOptions {
        ReaderOptions {
            shard: self.shard,
            format: self.input_format,
            column: self
                .column
                .as_ref()
                .map(|c| match c.trim().parse::<usize>() {
                    Ok(i) => Column::Index(i),
                    Err(_) => Column::Name(c.clone()),
                }),
            keep_text: false,
        }
    }
}

/// `sudoku-batch bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Puzzle files (line files, CSV, ... as for `solve`).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Algorithms to measure, comma-separated: fast, bands, hybrid, jcz, mrv, naive.
    #[arg(long, short, value_delimiter = ',', default_value = "fast", ignore_case = true,
          value_parser = algorithms())]
    pub algorithm: Vec<Algorithm>,

    /// Worker threads (default: all cores).
    #[arg(long, short = 'j')]
    pub threads: Option<usize>,

    /// Solutions to look for: 1 finds one, 2 also proves uniqueness.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub limit: u32,

    /// Minimum timed seconds per dataset and algorithm, all runs together: each of the --runs
    /// runs solves round after round for SECONDS/RUNS (slow algorithms are cut off there).
    #[arg(long, default_value_t = 3.0)]
    pub seconds: f64,

    /// Timed runs per dataset and algorithm, after an untimed warm-up; the table shows their
    /// mean ± standard deviation, min and max.
    #[arg(long, short = 'r', value_name = "N", default_value_t = sudoku_batch::bench::DEFAULT_RUNS,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub runs: u32,

    /// The algorithm the `relative` column compares with (default: the slowest on each
    /// dataset); must be one of --algorithm.
    #[arg(long, value_name = "ALGO", ignore_case = true, value_parser = algorithms())]
    pub baseline: Option<Algorithm>,

    /// Print one JSON object per line instead of a table.
    #[arg(long)]
    pub json: bool,

    /// Also write every result, with its provenance, as one JSON object (`-`: stdout).
    #[arg(long, value_name = "FILE")]
    pub export_json: Option<PathBuf>,

    /// Also write the results as CSV, one row per dataset × algorithm (`-`: stdout).
    #[arg(long, value_name = "FILE")]
    pub export_csv: Option<PathBuf>,

    /// Also write the results as a markdown table, for a README (`-`: stdout).
    #[arg(long, value_name = "FILE")]
    pub export_markdown: Option<PathBuf>,

    /// Also draw puzzles/s per dataset × algorithm, with the runs' spread, as an SVG chart.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,

    #[command(flatten)]
    pub input: InputArgs,
}

fn input_formats() -> impl clap::builder::TypedValueParser<Value = InputFormat> {
    choices(&[
        ("auto", &[], InputFormat::Auto),
        ("lines", &["line"], InputFormat::Lines),
        ("csv", &[], InputFormat::Csv),
        ("block", &["blocks"], InputFormat::Block),
        ("board", &["leetcode"], InputFormat::Board),
    ])
}

/// The algorithms, by name (listed in `--help` and completed by the shells).
fn algorithms() -> impl clap::builder::TypedValueParser<Value = Algorithm> {
    use clap::builder::{PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new(Algorithm::ALL.map(Algorithm::name)).map(|s| {
        s.parse::<Algorithm>()
            .expect("clap accepted only listed names")
    })
}

/// The thread count to use: the option, else `RAYON_NUM_THREADS`, else all cores.
pub fn threads(option: Option<usize>) -> usize {
    option
        .or_else(|| std::env::var("RAYON_NUM_THREADS").ok()?.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// CPU features this binary was compiled to use, for `--version`.
pub fn cpu_features() -> String {
    let mut f: Vec<&str> = Vec::new();
    macro_rules! feature {
        ($($name:tt),*) => {$( if cfg!(target_feature = $name) { f.push($name); } )*};
    }
    feature!("sse4.2", "popcnt", "bmi1", "bmi2", "lzcnt", "avx2", "avx512f", "neon");
    if f.is_empty() {
        "baseline".to_string()
    } else {
        f.join(" ")
    }
}
