//! Command-line arguments (clap derive) and their validation into library settings.

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use sudoku_batch::engines::rater::{Difficulty, Ladder, RateOptions};
use sudoku_batch::engines::solver::Algorithm;
use sudoku_batch::error::InputError;
use sudoku_batch::io::passthrough::Columns;
use sudoku_batch::io::{Column, Input, InputFormat, OutputFormat, ReaderOptions};
use sudoku_batch::limits::WholeBound;

use crate::commands::{
    bench, canon, docs, explain, generate, hint, plot, rate, shuffle, solve, verify,
};

const EXIT_CODES: &str = "\
Exit codes:
  0    every record fine (solve: solved, and unique with --limit 2; verify: no problem;
       rate: rated)
  1    the run finished, but some records were not (each is in the output, with its line)
  2    usage or I/O error, or --strict stopped at a bad record (the message names file:line)
  130  interrupted (SIGINT; 143 for SIGTERM): an -o output file is removed, never left half
       written";

/// The limits that keep memory bounded whatever the input (docs/limits.md), for the help of
/// every command that reads records.
const LIMITS: &str = "\
Limits (memory stays bounded whatever the input; see docs/limits.md):
  a line, a CSV record (its quoted lines included), a LeetCode board: 256 KiB; a CSV
    record: 4096 fields. Past that: one malformed record at its line, the run goes on (exit 1)
  a CSV header: 256 KiB, 4096 fields; a zip index: 10000 entries, 1 MiB; a zstd or xz window:
    32 MiB (xz -9, zstd --long or --ultra). Past that: an error naming the file, exit 2
  --threads: 1 to 8 per core (at least 64 allowed)
  A run that fails (a full disk, --stats-json unwritable, a signal) leaves no -o file.";

/// `HELP` of a command, then [`LIMITS`].
fn with_limits(help: &str) -> String {
    format!("{help}\n\n{LIMITS}")
}

/// Solve, check and benchmark Sudoku puzzles in bulk.
#[derive(Debug, Parser)]
#[command(name = "sudoku-batch", version, about, after_help = EXIT_CODES)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands: each one's arguments, help text and `run` live in `commands/<name>.rs`.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve every puzzle of the inputs, writing one result per record in input order.
    #[command(after_help = with_limits(solve::HELP))]
    Solve(solve::SolveArgs),
    /// Check published solutions: every problem of every record, by line.
    #[command(after_help = with_limits(verify::HELP))]
    Verify(verify::VerifyArgs),

    /// Rate every puzzle as Sudoku Explainer does (ER/EP/ED: human-style difficulty), one
    /// result per record in input order; --steps writes each solving step.
    #[command(after_help = with_limits(rate::HELP))]
    Rate(rate::RateArgs),

    /// The next step from each position (a puzzle or a 729-character candidate grid), as
    /// rate would take it: one step object (jsonl) or the pencil marks and a line of words.
    #[command(after_help = with_limits(hint::HELP))]
    Hint(hint::HintArgs),

    /// One self-contained HTML page of each record's rating and solving path: per step the
    /// grid, its houses, cells, placements, eliminations and chains; --svg one file per step.
    #[command(after_help = with_limits(explain::HELP))]
    Explain(explain::ExplainArgs),

    /// Generate puzzles with a unique solution (seeded, reproducible whatever the threads).
    #[command(after_help = generate::HELP)]
    Generate(generate::GenerateArgs),

    /// Apply random Sudoku symmetries to existing puzzles (same difficulty, new look).
    #[command(after_help = with_limits(shuffle::HELP))]
    Shuffle(shuffle::ShuffleArgs),

    /// Print each puzzle's canonical form: equal forms exactly for puzzles equal up to symmetry.
    #[command(after_help = with_limits(canon::HELP))]
    Canon(canon::CanonArgs),

    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    #[command(after_help = docs::COMPLETIONS_HELP)]
    Completions(docs::CompletionsArgs),

    /// Print a man page (roff), or write one page per command to a directory.
    #[command(after_help = docs::MAN_HELP)]
    Man(docs::ManArgs),

    /// Measure solve-only throughput on preloaded puzzles (tdoku-style table or JSON lines).
    #[command(after_help = bench::HELP)]
    Bench(bench::BenchArgs),

    /// Draw a saved bench JSON (or several, side by side) or a --stats-json summary as SVG.
    Plot(plot::PlotArgs),
}

/// `--empty CHAR`: the empty-cell mark csv/jsonl outputs write.
pub fn parse_empty(s: &str) -> Result<u8, String> {
    match s.as_bytes() {
        [b @ (b'.' | b'0' | b'_' | b'-')] => Ok(*b),
        _ => Err(format!("{s:?}: the empty-cell mark is one of . 0 _ -")),
    }
}

/// How csv and jsonl records are laid out (solve, rate).
#[derive(Debug, Args)]
pub struct ColumnArgs {
    /// Leave out the CSV header line.
    #[arg(long)]
    pub no_header: bool,

    /// csv/jsonl: each record is the input record as read (a CSV row's columns under their
    /// own names, a line file's line as `input`), then the results: `file` (several inputs),
    /// `line` and the csv record's fields after `puzzle`; a result name that equals an input
    /// column's gets `result_` in front.
    #[arg(long)]
    pub passthrough: bool,

    /// csv/jsonl: write the puzzle with CHAR for empty cells (default: as in the input).
    #[arg(long, value_name = "CHAR", value_parser = parse_empty)]
    pub empty: Option<u8>,
}

impl ColumnArgs {
    /// `--passthrough` and `--empty` shape the puzzle and input fields of csv and jsonl
    /// records; line records have neither, so with line output both are refused (exit 2)
    /// rather than silently ignored.
    pub fn check(&self, format: OutputFormat) -> anyhow::Result<()> {
        if format == OutputFormat::Line {
            if self.passthrough {
                anyhow::bail!("--passthrough needs --format csv or jsonl");
            }
            if self.empty.is_some() {
                anyhow::bail!(
                    "--empty needs --format csv or jsonl: line records have no puzzle field"
                );
            }
        }
        Ok(())
    }

    /// Whether the CSV header is written: unless left out, and only by the first shard, so
    /// that shard outputs concatenate.
    pub fn header(&self, shard: Option<(u64, u64)>) -> bool {
        !self.no_header && shard.is_none_or(|(k, _)| k == 1)
    }

    /// The columns of the records, with a `file` column for several inputs.
    pub fn columns(&self, inputs: usize) -> Columns {
        Columns {
            file: inputs > 1,
            empty: self.empty,
            passthrough: self.passthrough,
        }
    }
}

/// A value parser over named choices (listed in `--help` and completed by the shells), each
/// with its aliases, mapped to `T`.
pub fn choices<T: Clone + Send + Sync + 'static>(
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

/// How `rate` and `hint` rate: the ladder and the cap.
#[derive(Debug, Args)]
pub struct RatingArgs {
    /// Technique ladder: se (Sudoku Explainer 1.2.1.3), sukaku (Sukaku Explainer's set that
    /// rated the Sudoku Exchange bank) or sukaku-default (Sukaku Explainer's default set as
    /// its current release runs it: sukaku and the UVWXYZ- and TUVWXYZ-Wings). Every ladder
    /// has chains up to nested forcing chains of level 5 (11.0 + length bonus), as SE.
    #[arg(long, default_value = "se", ignore_case = true, value_parser = ladders())]
    pub ladder: Ladder,

    /// No step harder than X (e.g. 6.2): rate stops a puzzle's path there (the result is
    /// capped, its ER a lower bound; this bounds the time of big files), hint gives a
    /// position whose next step is harder as capped.
    #[arg(long, value_name = "X", value_parser = sudoku_batch::jobs::rate::parse_max_rating)]
    pub max_rating: Option<Difficulty>,
}

impl RatingArgs {
    /// The rater's options.
    pub fn options(&self) -> RateOptions {
        RateOptions {
            ladder: self.ladder,
            max_rating: self.max_rating,
        }
    }
}

/// The technique ladders of `rate` and `generate --rating`, by name.
pub fn ladders() -> impl clap::builder::TypedValueParser<Value = Ladder> {
    choices(&[
        ("se", &[], Ladder::Se),
        ("sukaku", &[], Ladder::Sukaku),
        ("sukaku-default", &[], Ladder::SukakuDefault),
    ])
}

pub fn output_formats() -> impl clap::builder::TypedValueParser<Value = OutputFormat> {
    choices(&[
        ("line", &["lines"], OutputFormat::Line),
        ("csv", &[], OutputFormat::Csv),
        ("jsonl", &["json"], OutputFormat::Jsonl),
    ])
}

/// The run summary file and `--strict`, shared by the commands that judge every record
/// (solve, verify).
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Also write the run summary as JSON to FILE (complete or absent, like -o).
    #[arg(long, value_name = "FILE")]
    pub stats_json: Option<PathBuf>,

    /// Stop at the first record that is not fine (one that makes exit code 1, see below) with
    /// exit code 2 and a message naming its file and line; the records before it are written,
    /// and an output file (-o) is not created. Default: report every record and go on (exit
    /// code 1).
    #[arg(long)]
    pub strict: bool,
}

/// `--threads`, shared by every command that works in parallel.
#[derive(Debug, Args)]
pub struct ThreadsArg {
    /// Worker threads, 1 to 8 per core (at least 64 are allowed; default: all cores, or
    /// RAYON_NUM_THREADS).
    #[arg(long = "threads", short = 'j', value_name = "N", value_parser = parse_threads)]
    pub requested: Option<usize>,
}

/// A value parser for a whole-number option within `bound` (the library's, shared with the
/// Python module: the same bounds and messages).
pub fn within(bound: &'static WholeBound) -> impl Fn(&str) -> Result<u64, String> + Clone {
    move |s| bound.parse(s)
}

/// [`within`] for `u32` options (every `u32` bound's maximum fits).
pub fn within_u32(bound: &'static WholeBound) -> impl Fn(&str) -> Result<u32, String> + Clone {
    move |s| {
        bound
            .parse(s)
            .map(|n| u32::try_from(n).expect("the bound fits u32"))
    }
}

/// A thread count within [`WholeBound::threads`]: more only wait, and past a few thousand the
/// pool takes minutes to start.
fn parse_threads(s: &str) -> Result<usize, String> {
    WholeBound::threads().parse(s).map(|n| n as usize)
}

impl ThreadsArg {
    /// The thread count to use: the option, else `RAYON_NUM_THREADS`, else all cores. A
    /// `RAYON_NUM_THREADS` that is not a count from 1 to the limit is warned about, and the
    /// cores are used (or the limit).
    pub fn count(&self) -> usize {
        if let Some(n) = self.requested {
            return n;
        }
        let (n, warning) = sudoku_batch::limits::default_threads();
        if let Some(w) = warning {
            eprintln!("sudoku-batch: warning: {w}");
        }
        n
    }
}

/// Threads, output file and quietness, shared by commands that write puzzles.
#[derive(Debug, Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub threads: ThreadsArg,

    /// Output file (default stdout); written through a temporary file, so complete or absent
    /// (a name ending in .gz, .zst, .xz or .bz2 is written compressed).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// No summary or progress bar on stderr, and no message about a bad record or an empty
    /// input.
    #[arg(long, short)]
    pub quiet: bool,
}

/// The options of the commands that run records through the pipeline (solve, rate), after
/// their own: threads, batch size, quietness, the report and how to read the inputs.
#[derive(Debug, Args)]
pub struct RecordArgs {
    #[command(flatten)]
    pub threads: ThreadsArg,

    /// Records per batch.
    #[arg(long, default_value_t = sudoku_batch::pipeline::BATCH, hide = true)]
    pub batch: usize,

    /// No progress bar or summary on stderr, and no message about a bad record or an empty
    /// input (csv and jsonl records carry theirs).
    #[arg(long, short)]
    pub quiet: bool,

    #[command(flatten)]
    pub report: ReportArgs,

    #[command(flatten)]
    pub input: InputArgs,
}

/// The inputs named on the command line (`-` is stdin, and no name at all means stdin), each
/// checked to open before any work starts: a typo in the last path must not cost a long run.
/// With no name and a terminal on stdin, a line on stderr says that puzzles are read from it:
/// a silent wait looks like a hang.
pub fn inputs(args: &[String]) -> anyhow::Result<Vec<Input>> {
    if args.is_empty() {
        if std::io::stdin().is_terminal() {
            eprintln!(
                "sudoku-batch: reading puzzles from standard input (end with Ctrl-D; files go as arguments)"
            );
        }
        return Ok(vec![Input::Stdin]);
    }
    args.iter()
        .map(|a| {
            let input = Input::from_arg(a);
            check_input(&input)?;
            Ok(input)
        })
        .collect()
}

/// Like [`inputs`], but no names means no inputs (for optional file lists such as
/// `verify --against`).
pub fn inputs_if_any(args: &[String]) -> anyhow::Result<Vec<Input>> {
    if args.is_empty() {
        Ok(Vec::new())
    } else {
        inputs(args)
    }
}

/// Check that `input` opens. A path that does not exist but reads as a puzzle (81 cells of
/// 1-9 and . 0 _ -) was surely meant as one: puzzles come from files or stdin, and the
/// message shows how to pipe it in.
pub fn check_input(input: &Input) -> anyhow::Result<()> {
    match input.check() {
        Err(InputError::Open { path, cause })
            if cause.kind() == std::io::ErrorKind::NotFound && reads_as_puzzle(&path) =>
        {
            // The subcommand as typed: clap accepted it, and no option can come before it.
            let command = std::env::args().nth(1).unwrap_or_default();
            anyhow::bail!(
                "{path}: no such file, and it reads as a puzzle: puzzles are read from files or \
                 standard input, e.g. echo '{path}' | sudoku-batch {command}"
            )
        }
        checked => Ok(checked?),
    }
}

/// 81 cells of a puzzle line: 1-9 for clues, `.`, `0`, `_` or `-` for empty cells.
fn reads_as_puzzle(arg: &str) -> bool {
    arg.len() == 81
        && arg
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'_' | b'-'))
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
    /// (only shard 1 writes a CSV header). K counts from 1: in a Slurm job array
    /// (--array=1-16), --shard $SLURM_ARRAY_TASK_ID/16; in a Kubernetes indexed job (its index
    /// counts from 0), --shard $((JOB_COMPLETION_INDEX + 1))/16.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<(u64, u64)>,
}

/// The most shards `--shard K/N` takes.
const MAX_SHARDS: u64 = 1 << 20;

fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let (k, n) = s.split_once('/').ok_or("expected K/N, e.g. 3/8")?;
    let number = |t: &str| {
        t.trim()
            .parse::<u64>()
            .map_err(|_| format!("{t:?} is not a whole number from 1 to {MAX_SHARDS}"))
    };
    let (k, n) = (number(k)?, number(n)?);
    if n == 0 || k == 0 || k > n {
        return Err(format!("{s}: K must be from 1 to N"));
    }
    // More shards than any file has lines would be empty; past this, N is surely a slip.
    if n > MAX_SHARDS {
        return Err(format!("{s}: at most {MAX_SHARDS} shards"));
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
            skip_solutions: false,
        }
    }
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
pub fn algorithms() -> impl clap::builder::TypedValueParser<Value = Algorithm> {
    use clap::builder::{PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new(Algorithm::ALL.map(Algorithm::name)).map(|s| {
        s.parse::<Algorithm>()
            .expect("clap accepted only listed names")
    })
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
