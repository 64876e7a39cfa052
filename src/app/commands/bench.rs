//! `sudoku-batch bench`: solve-only throughput, one row per dataset × algorithm, with the
//! spread over repeated runs; exports and a chart on request.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};

use sudoku_batch::io::load_puzzles;
use sudoku_batch::io::Input;
use sudoku_batch::jobs::bench::export::{self, grouped};
use sudoku_batch::jobs::bench::provenance::{DatasetInfo, Provenance};
use sudoku_batch::jobs::bench::{self, BenchConfig, BenchResult};
use sudoku_batch::jobs::plot;
use sudoku_batch::Grid;

use clap::Args;
use sudoku_batch::engines::solver::Algorithm;

use crate::cli::{algorithms, InputArgs, ThreadsArg};
use crate::output::LateFile;

pub const HELP: &str = "\
Examples:
  sudoku-batch bench ../shared/datasets/puzzles3_magictour_top1465
  sudoku-batch bench --threads 1 --limit 2 --json data/*.txt
  sudoku-batch bench --algorithm naive,mrv,fast --seconds 5 top1465.txt
  sudoku-batch bench --runs 20 --export-markdown results.md --plot results.svg data/*.txt

Each dataset × algorithm gets an untimed warm-up, then --runs timed runs of --seconds/--runs
each (defaults: 10 runs of 0.3 s); puzzles/s is their mean, with the standard deviation, min
and max. Every JSON result names the build (version, git commit), CPU, SIMD path, OS, date and
the dataset file (path, size, mtime, SHA-256 up to 256 MiB).";

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

    #[command(flatten)]
    pub threads: ThreadsArg,

    /// Solutions to look for: 1 finds one, 2 also proves uniqueness.
    #[arg(long, default_value_t = 1,
          value_parser = crate::cli::within_u32(&sudoku_batch::limits::SOLUTIONS))]
    pub limit: u32,

    /// Minimum timed seconds per dataset and algorithm, all runs together: each of the --runs
    /// runs solves round after round for SECONDS/RUNS (slow algorithms are cut off there).
    #[arg(long, default_value_t = 3.0, value_parser = parse_seconds)]
    pub seconds: f64,

    /// Timed runs per dataset and algorithm, after an untimed warm-up; the table shows their
    /// mean ± standard deviation, min and max.
    #[arg(long, short = 'r', value_name = "N", default_value_t = sudoku_batch::jobs::bench::DEFAULT_RUNS,
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

/// `--seconds`: above 0 and at most a day (`inf`, `nan` or a negative time would measure
/// forever, or nothing).
fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x > 0.0 && x <= 86_400.0 => Ok(x),
        Ok(_) => Err(format!(
            "{s}: the seconds must be above 0 and at most 86400 (a day)"
        )),
        Err(_) => Err(format!("{s:?} is not a number of seconds")),
    }
}

/// The files asked for with --export-* and --plot, opened before any measuring.
struct Exports {
    json: Option<LateFile>,
    csv: Option<LateFile>,
    markdown: Option<LateFile>,
    plot: Option<LateFile>,
}

impl Exports {
    fn open(args: &BenchArgs) -> anyhow::Result<Exports> {
        let paths = [
            &args.export_json,
            &args.export_csv,
            &args.export_markdown,
            &args.plot,
        ];
        let to_stdout = paths.iter().filter(|p| is_stdout(p.as_deref())).count();
        if to_stdout > 1 || (to_stdout == 1 && args.json) {
            bail!("only one of --json, --export-json, --export-csv, --export-markdown and --plot can write to stdout (-)");
        }
        Ok(Exports {
            json: LateFile::create(args.export_json.as_deref())?,
            csv: LateFile::create(args.export_csv.as_deref())?,
            markdown: LateFile::create(args.export_markdown.as_deref())?,
            plot: LateFile::create(args.plot.as_deref())?,
        })
    }

    /// Write every file asked for, then move them into place: all of them, or (after an
    /// error in any) none.
    fn write(self, results: &[BenchResult]) -> anyhow::Result<()> {
        let mut done = Vec::new();
        if let Some(f) = self.json {
            done.push(f.fill(|w| export::write_json(w, results))?);
        }
        if let Some(f) = self.csv {
            done.push(f.fill(|w| export::write_csv(w, results))?);
        }
        if let Some(f) = self.markdown {
            done.push(f.fill(|w| export::write_markdown(w, results))?);
        }
        if let Some(f) = self.plot {
            let points: Vec<plot::BenchPoint> =
                results.iter().map(plot::BenchPoint::from).collect();
            let svg = plot::render_svg(&plot::bench_chart(&points, plot::Scale::Auto))
                .context("cannot draw the chart")?;
            done.push(f.fill(|w| w.write_all(svg.as_bytes()))?);
        }
        crate::output::commit_all(done)
    }
}

fn is_stdout(path: Option<&Path>) -> bool {
    path.is_some_and(|p| p.as_os_str() == "-")
}

pub fn run(args: &BenchArgs) -> anyhow::Result<ExitCode> {
    if !(args.seconds > 0.0 && args.seconds.is_finite()) {
        bail!("--seconds must be a positive number, not {}", args.seconds);
    }
    if let Some(b) = args.baseline.filter(|b| !args.algorithm.contains(b)) {
        bail!("--baseline {} is not among --algorithm", b.name());
    }
    for path in &args.files {
        crate::cli::check_input(&Input::Path(path.clone()))?;
    }
    let exports = Exports::open(args)?;
    // Every file is loaded before anything is printed or timed: an empty or unreadable one
    // stops the run with its error alone, not after a table header or minutes of measuring.
    let datasets = args
        .files
        .iter()
        .map(|path| load_dataset(args, path))
        .collect::<anyhow::Result<Vec<_>>>()?;
    // An export on stdout takes it; the table then goes to stderr, still in view.
    let table_to_stderr = [
        &args.export_json,
        &args.export_csv,
        &args.export_markdown,
        &args.plot,
    ]
    .iter()
    .any(|p| is_stdout(p.as_deref()));
    let mut out: Box<dyn Write> = if table_to_stderr {
        Box::new(std::io::stderr().lock())
    } else {
        Box::new(std::io::stdout().lock())
    };
    if !args.json {
        writeln!(out, "{}", header())?;
    }
    let mut all = Vec::new();
    for (info, puzzles) in datasets {
        let results = bench_dataset(args, &info, puzzles)?;
        for result in &results {
            if args.json {
                writeln!(out, "{}", serde_json::to_string(result)?)?;
            } else {
                writeln!(out, "{}", row(result))?;
            }
        }
        out.flush()?;
        all.extend(results);
    }
    drop(out);
    exports.write(&all)?;
    Ok(ExitCode::SUCCESS)
}

/// The puzzles of one file (malformed records skipped, with a warning), and what names it;
/// an error when there is no puzzle to time.
fn load_dataset(args: &BenchArgs, path: &Path) -> anyhow::Result<(DatasetInfo, Vec<Grid>)> {
    let (puzzles, malformed) = load_puzzles(path, &args.input.reader_options())?;
    if malformed > 0 {
        eprintln!(
            "sudoku-batch: {}: skipped {malformed} malformed record(s)",
            path.display()
        );
    }
    if puzzles.is_empty() {
        bail!("{}: no puzzles to time", path.display());
    }
    let info = DatasetInfo::of(path).with_context(|| format!("{}: cannot read", path.display()))?;
    Ok((info, puzzles))
}

/// Every algorithm on one dataset, relative speeds filled in.
fn bench_dataset(
    args: &BenchArgs,
    info: &DatasetInfo,
    mut puzzles: Vec<Grid>,
) -> anyhow::Result<Vec<BenchResult>> {
    bench::shuffle(&mut puzzles, 0x5eed_1234_abcd_0001);
    let threads = args.threads.count();
    let mut results = Vec::with_capacity(args.algorithm.len());
    for &algorithm in &args.algorithm {
        let cfg = BenchConfig {
            algorithm,
            threads,
            limit: args.limit,
            seconds: args.seconds,
            runs: args.runs,
        };
        let measurement = bench::measure(&puzzles, &cfg).context("cannot start worker threads")?;
        results.push(BenchResult::new(
            info,
            puzzles.len(),
            &cfg,
            measurement,
            Provenance::current(),
        ));
    }
    bench::set_relative(&mut results, args.baseline);
    Ok(results)
}

fn header() -> String {
    format!(
        "{:<36} {:<6} {:>3} {:>3} {:>10} {:>12} {:>16} {:>12} {:>12} {:>8} {:>10} {:>9} {:>10} {:>9} {:>12}",
        "dataset",
        "algo",
        "thr",
        "lim",
        "puzzles",
        "puzzles/s",
        "± σ",
        "min",
        "max",
        "relative",
        "µs/puzzle",
        "no_guess%",
        "guesses/p",
        "branch/p",
        "nodes/p"
    )
}

fn row(r: &BenchResult) -> String {
    let done = if r.complete {
        format!("{}", r.puzzles)
    } else {
        format!("{}/{}*", r.puzzles, r.dataset_puzzles)
    };
    format!(
        "{:<36} {:<6} {:>3} {:>3} {:>10} {:>12.1} {:>16} {:>12} {:>12} {:>8} {:>10.3} {:>9.1} {:>10.2} {:>9.2} {:>12.1}",
        r.dataset,
        r.algorithm.name(),
        r.threads,
        r.limit,
        done,
        r.puzzles_per_sec,
        format!(
            "±{} ({:.1}%)",
            grouped(r.puzzles_per_sec_stddev),
            100.0 * r.relative_stddev()
        ),
        grouped(r.puzzles_per_sec_min),
        grouped(r.puzzles_per_sec_max),
        export::relative(r.relative),
        r.usec_per_puzzle,
        r.no_guess_pct,
        r.guesses_per_puzzle,
        r.branch_points_per_puzzle,
        r.nodes_per_puzzle
    )
}
