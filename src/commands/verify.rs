//! `sudoku-batch verify`: every record checked through the pipeline, problems reported by line.

use std::io::BufWriter;
use std::process::ExitCode;
use std::time::Instant;

use serde::Serialize;

use sudoku_batch::io::report::ReportWriter;
use sudoku_batch::io::{Column, Input, InputFormat, ReaderOptions, RecordReader};
use sudoku_batch::pipeline::{self, Halt, NoProgress};
use sudoku_batch::verify::{self, Duplicates, Problem, Rules, VerifyStats};

use crate::cli::{self, VerifyArgs};
use crate::commands::output_error;
use crate::output::{LateFile, Output};

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
    let threads = cli::threads(args.threads);
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
