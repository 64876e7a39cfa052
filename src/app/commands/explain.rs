//! `sudoku-batch explain`: one HTML page of the records' solving paths (and, with `--svg`, one
//! SVG file per step), a summary on stderr, the exit code.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use serde::Serialize;

use sudoku_batch::io::Input;
use sudoku_batch::jobs::explain::{
    limit_message, svg, Board, ExplainRecord, ExplainStats, ExplainWork, PageWriter, RECORD_LIMIT,
};
use sudoku_batch::jobs::rate::{RateStatus, Raters};
use sudoku_batch::pipeline::Halt;

use super::RatingRun;
use crate::cli::{RatingArgs, RecordArgs};
use crate::job::Job;
use crate::output::{Diagnostics, Output};
use crate::progress::Bar;

pub const HELP: &str = "\
Each record is a puzzle (81 characters, or any form solve reads) or a candidate grid (729
characters, as hint reads them). It is rated as rate --steps rates it, and the page shows its
rating (ER/EP/ED) and its path: per step the grid with its candidates, the step's houses
shaded, its cells marked, placements (green) and eliminations (red) under their candidates,
chains as arrows (strong links solid, weak dashed), the step's sentence, technique and
difficulty. A record that is not rated (malformed, invalid, unsolvable, multiple) has its
entry with its message. The page is one file: inline CSS, script and data, nothing fetched.

Keys on the page: Left/Right the previous/next step (on to the next record at the end), Up/Down
the previous/next record, Home/End its first/last step. Printing prints the step shown.

A page holds at most 1000 records (past that: exit 2, no page); split a larger input, e.g.
  split -l 1000 -d puzzles.txt part-   then one page per part.

--svg DIR writes each step as a standalone SVG file, DIR/LINE-STEP.svg (the record's input
line, the step's number from 1; with several inputs FILE-LINE-STEP.svg, K-FILE-LINE-STEP.svg
when two share a file name), the same drawing as the page's. DIR is made if absent; a
path that is not a directory is refused.

Exit codes:
  0    every record rated
  1    the run finished, but some records were not rated (each has its entry on the page)
  2    usage or I/O error, more than 1000 records, or --strict stopped at such a record
  130  interrupted (SIGINT; 143 for SIGTERM): the -o file is removed, never left half written

Examples:
  sudoku-batch explain puzzle.txt -o page.html
  head -20 top1465.txt | sudoku-batch explain -o top20.html --svg figures/
  sudoku-batch explain positions.txt --ladder sukaku --max-rating 9.0 -o page.html
Reference: docs/explain.md.";

/// `sudoku-batch explain`.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// Input files; `-` or none reads stdin.
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<String>,

    /// Write the page here instead of stdout: through a temporary file in the same directory,
    /// renamed when the run succeeds, so FILE is complete or absent (also on error or Ctrl-C).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Also write each step as a standalone SVG file DIR/LINE-STEP.svg (DIR is made if
    /// absent; it must be a directory).
    #[arg(long, value_name = "DIR")]
    pub svg: Option<PathBuf>,

    #[command(flatten)]
    pub rating: RatingArgs,

    #[command(flatten)]
    pub records: RecordArgs,
}

/// The run summary (stderr, and `--stats-json`).
#[derive(Debug, Serialize)]
struct Summary {
    #[serde(flatten)]
    run: RatingRun,
    svg_files: u64,
    #[serde(flatten)]
    stats: ExplainStats,
}

pub fn run(args: &ExplainArgs) -> anyhow::Result<ExitCode> {
    let svg_dir = args.svg.as_deref().map(svg_directory).transpose()?;
    let (mut job, out) =
        Job::start_records(&args.inputs, args.output.as_deref(), false, &args.records)?;
    let mut bar = job.progress_bar(args.output.as_deref());
    let mut page = PageWriter::new(out);
    page.begin()
        .with_context(|| format!("{}: cannot write", job.output_label()))?;
    let raters = Raters::new(args.rating.options(), job.threads);
    let work = ExplainWork { raters: &raters };
    let mut totals = Totals {
        stats: ExplainStats::default(),
        svg_files: 0,
        diagnostics: Diagnostics::new(args.records.quiet),
    };
    let several = job.inputs.len() > 1;
    let prefixes = svg_prefixes(&job.inputs);
    for (input, prefix) in job.inputs.iter().zip(&prefixes) {
        let label = input.label();
        let reader = job.open(input)?;
        page.set_file(several.then(|| label.clone()));
        bar.next_input(reader.bytes_read(), totals.stats.records);
        let strict = args.records.report.strict;
        let svg_dir = svg_dir.as_deref();
        let svg = svg_dir.map(|dir| (dir, prefix.as_deref()));
        let collect = |r: &mut ExplainRecord| totals.add(&label, r, strict, svg, &bar);
        job.stage(reader, &work, collect, &mut page, &bar)?;
    }
    let out = page
        .end()
        .with_context(|| format!("{}: cannot write", job.output_label()))?;
    job.commit(out)?;
    bar.finish();
    totals
        .diagnostics
        .finish("the page has every record's message");
    let summary = Summary {
        run: RatingRun::new(&job, &args.rating),
        svg_files: totals.svg_files,
        stats: totals.stats,
    };
    if !args.records.quiet {
        print_summary(&summary);
    }
    job.finish(&summary, summary.stats.problems == 0)
}

/// `--svg DIR`, checked before any work: made when absent, refused when not a directory.
fn svg_directory(dir: &Path) -> anyhow::Result<PathBuf> {
    match std::fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => Ok(dir.to_path_buf()),
        Ok(_) => anyhow::bail!(
            "{}: --svg needs a directory, and this is not one",
            dir.display()
        ),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir(dir)
                .with_context(|| format!("{}: cannot create the --svg directory", dir.display()))?;
            Ok(dir.to_path_buf())
        }
        Err(e) => {
            Err(anyhow::Error::new(e).context(format!("{}: cannot look at it", dir.display())))
        }
    }
}

/// What the collect step gathers: the counts, the SVG files written, messages.
struct Totals {
    stats: ExplainStats,
    svg_files: u64,
    diagnostics: Diagnostics,
}

impl Totals {
    /// Count one record of input `label` (stopping past the page's limit, and with `strict`
    /// at the first not rated), and write its SVG files into `svg`.
    fn add(
        &mut self,
        label: &str,
        r: &ExplainRecord,
        strict: bool,
        svg: Option<(&Path, Option<&str>)>,
        bar: &Bar,
    ) -> Result<(), Halt> {
        if self.stats.records >= RECORD_LIMIT {
            return Err(Halt {
                line: r.line,
                message: format!(
                    "record {} is one too many: {}",
                    RECORD_LIMIT + 1,
                    limit_message()
                ),
            });
        }
        self.stats.add(r);
        if let (Some((dir, prefix)), Some(start)) = (svg, r.start.filter(|_| !r.steps.is_empty())) {
            self.svg_files += write_svgs(dir, prefix, r, start).map_err(|e| Halt {
                line: r.line,
                message: format!("{e:#}"),
            })?;
        }
        let Some(message) = r.problem() else {
            return Ok(());
        };
        let worth = matches!(
            r.status,
            RateStatus::Malformed | RateStatus::Invalid | RateStatus::Failed
        );
        self.diagnostics
            .not_fine(|m| bar.println(m), (label, r.line), message, strict, worth)
    }
}

/// Each input's prefix of its SVG files' names: none for one input; for several its file
/// name (`NAME-LINE-STEP.svg`), and when two inputs share a file name, its place in the
/// list too (`K-NAME-LINE-STEP.svg`), so that no file is written twice.
fn svg_prefixes(inputs: &[Input]) -> Vec<Option<String>> {
    if inputs.len() < 2 {
        return vec![None; inputs.len()];
    }
    let stems: Vec<String> = inputs.iter().map(|i| file_stem(&i.label())).collect();
    let shared = (1..stems.len()).any(|i| stems[..i].contains(&stems[i]));
    stems
        .into_iter()
        .enumerate()
        .map(|(k, stem)| {
            Some(if shared {
                format!("{}-{stem}", k + 1)
            } else {
                stem
            })
        })
        .collect()
}

/// An input's name as a file name prefix.
fn file_stem(label: &str) -> String {
    let name = Path::new(label)
        .file_name()
        .map_or(label.into(), |n| n.to_string_lossy());
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect()
}

/// Each step of `r` as `DIR/[PREFIX-]LINE-STEP.svg`, through the output rules of `-o` (an
/// existing path is looked at, a file replaced whole); how many.
fn write_svgs(
    dir: &Path,
    prefix: Option<&str>,
    r: &ExplainRecord,
    start: Board,
) -> anyhow::Result<u64> {
    let mut board = start;
    for (k, step) in r.steps.iter().enumerate() {
        let name = match prefix {
            Some(p) => format!("{p}-{}-{}.svg", r.line, k + 1),
            None => format!("{}-{}.svg", r.line, k + 1),
        };
        let path = dir.join(name);
        let (output, mut sink) = Output::create(Some(&path))?;
        sink.write_all(svg::standalone(&board, step).as_bytes())
            .with_context(|| format!("{}: cannot write", path.display()))?;
        drop(sink);
        output.commit()?;
        board.apply(step);
    }
    Ok(r.steps.len() as u64)
}

fn print_summary(s: &Summary) {
    let t = &s.stats;
    eprintln!(
        "{}{} rated, {} not rated, {} steps{}",
        s.run.opening(t.records),
        t.rated,
        t.problems,
        t.steps,
        if s.svg_files > 0 {
            format!(", {} SVG files", s.svg_files)
        } else {
            String::new()
        },
    );
}
