//! `sudoku-batch hint`: the next step from each record's position, as `rate` would take it,
//! a summary on stderr, the exit code.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use serde::Serialize;

use sudoku_batch::io::passthrough::Columns;
use sudoku_batch::jobs::hint::{
    HintFormat, HintRecord, HintStats, HintStatus, HintWork, HintWriter,
};
use sudoku_batch::jobs::rate::Raters;
use sudoku_batch::pipeline::{Halt, NoFold, OnWorkers, Render};

use super::RatingRun;
use crate::cli::{RatingArgs, RecordArgs};
use crate::job::Job;
use crate::output::Diagnostics;
use crate::progress::Bar;

pub const HELP: &str = "\
Each record is a puzzle (81 characters, or any form solve reads) or a candidate grid (729
characters: nine per cell, row by row, the digit k+1 at place k where it is still a
candidate, . or 0 where not). It is solved (a limit of 2), then the rating engine takes the
one step rate would take from that position: the easiest technique of the ladder that
applies. A cell with one candidate that no peer holds counts as placed; a single candidate a
peer still holds is a step to take (a naked single).

Output (one record per input record, in input order):
  jsonl   a step as rate --steps writes it: {\"kind\":\"step\",\"line\":..,\"step\":1,
          \"technique\":..,\"difficulty\":..,\"cells\":..,\"digits\":..,\"placements\":..,
          \"eliminations\":..}; a record without a step: {\"kind\":\"status\",\"line\":..,
          \"status\":..,\"error\":..}
  text    line N, the position as a 9x9 grid of pencil marks (each cell a 3x3 block of its
          candidates), then the step in one line, or the status and its message

Statuses:
  step        the next step was found
  solved      every cell is placed: nothing left to do
  capped      no technique of the ladder applies, or the next step is above --max-rating
  multiple    2 or more solutions: no step
  unsolvable  the candidates admit no solution
  invalid     a rule is broken (two placed cells alike in a unit, a cell with no candidate)
  malformed   not a puzzle or candidate grid: the message names the character or length
  failed      the rating engine failed (a defect: please report the position)

Exit codes:
  0    every record fine (step, solved or capped)
  1    the run finished, but some records were multiple, unsolvable, invalid, malformed or
       failed
  2    usage or I/O error, or --strict stopped at such a record (the message names file:line)
  130  interrupted (SIGINT; 143 for SIGTERM): the -o file is removed, never left half written

Examples:
  sudoku-batch hint puzzle.txt --format text
  sudoku-batch rate --steps puzzle.txt | jq -c 'select(.kind == \"step\")'   (the whole path)
  sudoku-batch hint positions.txt --ladder sukaku --max-rating 6.2 -o hints.jsonl";

/// The forms of `hint`'s records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum HintOutput {
    /// One JSON object per record.
    Jsonl,
    /// A pencil-mark grid and a line of words per record.
    Text,
}

/// `sudoku-batch hint`.
#[derive(Debug, Args)]
pub struct HintArgs {
    /// Input files; `-` or none reads stdin.
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<String>,

    /// Write results here instead of stdout: through a temporary file in the same directory,
    /// renamed when the run succeeds, so FILE is complete or absent (also on error or Ctrl-C);
    /// a name ending in .gz, .zst, .xz or .bz2 is written compressed.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Output format: jsonl (a step object as rate --steps writes it, or the status) or text
    /// (the pencil marks and the step in words).
    #[arg(long, short, default_value = "jsonl", ignore_case = true)]
    pub format: HintOutput,

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
    #[serde(flatten)]
    stats: HintStats,
}

pub fn run(args: &HintArgs) -> anyhow::Result<ExitCode> {
    let text = args.format == HintOutput::Text;
    let (mut job, out) =
        Job::start_records(&args.inputs, args.output.as_deref(), false, &args.records)?;
    let mut bar = job.progress_bar(args.output.as_deref());
    let format = HintFormat::new(text);
    let mut writer = HintWriter::new(out, format, false).with_columns(Columns {
        file: job.inputs.len() > 1,
        ..Columns::default()
    });
    let raters = Raters::new(args.rating.options(), job.threads);
    let work = HintWork {
        raters: &raters,
        text,
    };
    let mut totals = Totals {
        stats: HintStats::default(),
        diagnostics: Diagnostics::new(args.records.quiet),
    };
    for input in &job.inputs {
        let label = input.label();
        let reader = job.open(input)?;
        writer.set_input(&label, None)?;
        let records = writer.renderer();
        let on = OnWorkers::<HintRecord, NoFold> {
            render: records.as_ref().map(|r| r as &dyn Render<_>),
            fold: None,
        };
        bar.next_input(reader.bytes_read(), totals.stats.records);
        let strict = args.records.report.strict;
        let collect = |r: &mut HintRecord| totals.add(&label, r, strict, &bar);
        job.stage_rendered(reader, &work, on, collect, &mut writer, &bar)?;
    }
    job.commit(writer.into_inner()?)?;
    bar.finish();
    totals
        .diagnostics
        .finish("--format jsonl gives every record's message");
    let summary = Summary {
        run: RatingRun::new(&job, &args.rating),
        stats: totals.stats,
    };
    if !args.records.quiet {
        print_summary(&summary);
    }
    job.finish(&summary, summary.stats.problems() == 0)
}

/// What the collect step gathers: the counts, and messages about bad records.
struct Totals {
    stats: HintStats,
    diagnostics: Diagnostics,
}

impl Totals {
    /// Count one record of input `label`; with `strict`, stop at the first not fine.
    fn add(&mut self, label: &str, r: &HintRecord, strict: bool, bar: &Bar) -> Result<(), Halt> {
        self.stats.add(r);
        let Some(message) = r.problem() else {
            return Ok(());
        };
        let worth = matches!(
            r.status,
            HintStatus::Malformed | HintStatus::Invalid | HintStatus::Failed
        );
        self.diagnostics
            .not_fine(|m| bar.println(m), (label, r.line), message, strict, worth)
    }
}

fn print_summary(s: &Summary) {
    let t = &s.stats;
    eprintln!(
        "{}{} steps, {} solved, {} capped, {} multiple, {} unsolvable, {} invalid, {} malformed{}",
        s.run.opening(t.records),
        t.steps,
        t.solved,
        t.capped,
        t.multiple,
        t.unsolvable,
        t.invalid,
        t.malformed,
        if t.failed > 0 {
            format!(", {} failed", t.failed)
        } else {
            String::new()
        },
    );
}
