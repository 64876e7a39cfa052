//! `sudoku-batch solve`: every input through the pipeline, a summary on stderr, the exit code.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use serde::Serialize;

use sudoku_batch::io::{Input, RecordReader, ResultWriter};
use sudoku_batch::pipeline::{self, PipelineConfig, PipelineError};
use sudoku_batch::solver::Algorithm;
use sudoku_batch::stats::RunStats;

use crate::cli::{self, SolveArgs};
use crate::progress::Bar;

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
    #[serde(flatten)]
    stats: RunStats,
}

pub fn run(args: &SolveArgs) -> anyhow::Result<ExitCode> {
    let inputs = cli::inputs(&args.inputs);
    let cfg = PipelineConfig {
        algorithm: args.algorithm,
        limit: if args.unique { 2 } else { args.limit },
        threads: cli::threads(args.threads),
        batch: args.batch,
    };
    let options = args.input.reader_options();
    let start = Instant::now();
    let total_bytes = inputs.iter().map(Input::size).sum::<Option<u64>>();
    let mut bar = Bar::new(total_bytes, !args.quiet);

    let (sink, temp): (Box<dyn Write + Send>, _) = match &args.output {
        None => (Box::new(io::stdout()), None),
        Some(path) => {
            let temp = temp_beside(path)?;
            let file = temp
                .reopen()
                .with_context(|| format!("{}: cannot write", path.display()))?;
            (Box::new(file), Some(temp))
        }
    };
    // Only the first shard writes the CSV header, so shard outputs concatenate.
    let header = !args.no_header && options.shard.is_none_or(|(k, _)| k == 1);
    let mut writer =
        ResultWriter::new(BufWriter::with_capacity(1 << 16, sink), args.format, header);
    let mut stats = RunStats::default();
    for input in &inputs {
        let mut reader = RecordReader::open(input, &options)?;
        bar.next_input(reader.bytes_read(), stats.records);
        let result = pipeline::run(&mut reader, &mut writer, &cfg, &bar);
        match result {
            Ok(s) => stats += s,
            Err(PipelineError::Output(e)) => {
                bar.finish();
                let target = args
                    .output
                    .as_ref()
                    .map_or("stdout".into(), |p| p.display().to_string());
                return Err(anyhow::Error::new(e).context(format!("{target}: cannot write")));
            }
            Err(e) => {
                bar.finish();
                return Err(e.into());
            }
        }
    }
    writer.flush().context("cannot write the output")?;
    drop(writer);
    if let (Some(temp), Some(path)) = (temp, &args.output) {
        temp.persist(path).with_context(|| {
            format!(
                "{}: cannot move the finished output into place",
                path.display()
            )
        })?;
    }
    bar.finish();

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
        stats,
    };
    if !args.quiet {
        print_summary(&summary);
    }
    if let Some(path) = &args.stats_json {
        write_json(path, &summary)?;
    }
    Ok(if stats.problems() == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// A temporary file in the directory of `path`, so the final rename cannot cross devices.
fn temp_beside(path: &Path) -> anyhow::Result<tempfile::NamedTempFile> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    tempfile::Builder::new()
        .prefix(".sudoku-batch-")
        .suffix(".partial")
        .tempfile_in(dir)
        .with_context(|| format!("{}: cannot create the output file", path.display()))
}

fn write_json(path: &Path, summary: &Summary) -> anyhow::Result<()> {
    let mut f = BufWriter::new(
        File::create(path).with_context(|| format!("{}: cannot create", path.display()))?,
    );
    serde_json::to_writer_pretty(&mut f, summary)?;
    writeln!(f)?;
    f.flush()
        .with_context(|| format!("{}: cannot write", path.display()))
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
    eprintln!(
        "sudoku-batch: guesses/puzzle {:.2} (max {}), nodes/puzzle {:.2} (max {}), {:.1}% solved without guessing",
        s.guesses_per_puzzle, t.max_guesses, s.nodes_per_puzzle, t.max_nodes, s.no_guess_pct
    );
}
