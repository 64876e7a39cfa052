//! `sudoku-batch canon`: one canonical form per input record, in input order.

use std::cell::RefCell;
use std::io::BufWriter;
use std::process::ExitCode;
use std::time::Instant;

use sudoku_batch::canonical::Canonicalizer;
use sudoku_batch::io::canon::{CanonRecord, CanonStatus, CanonWriter};
use sudoku_batch::io::RecordReader;
use sudoku_batch::pipeline::{self, NoProgress};

use crate::cli::{self, CanonArgs};
use crate::commands::output_error;
use crate::output::{Diagnostics, Output};

thread_local! {
    /// One search per worker thread: its candidate buffers, grown to the largest level seen,
    /// are reused by every record instead of being allocated and grown again per record
    /// (the pipeline's work function has no per-thread state of its own).
    static SEARCH: RefCell<Canonicalizer> = RefCell::new(Canonicalizer::new());
}

pub fn run(args: &CanonArgs) -> anyhow::Result<ExitCode> {
    let inputs = cli::inputs(&args.inputs)?;
    let options = args.input.reader_options();
    let (output, sink) = Output::create(args.run.output.as_deref())?;
    let mut diagnostics = Diagnostics::new(args.run.quiet);
    // Only the first shard writes the CSV header, so shard outputs concatenate.
    let header = options.shard.is_none_or(|(k, _)| k == 1);
    let mut writer = CanonWriter::new(BufWriter::with_capacity(1 << 16, sink), args.format, header);
    let start = Instant::now();
    let (mut records, mut bad) = (0u64, 0u64);
    for input in &inputs {
        let label = input.label();
        let reader = RecordReader::open(input, &options)?;
        let records_before = records;
        pipeline::run_stages(
            reader,
            cli::threads(args.run.threads),
            4096,
            &|r| SEARCH.with(|s| CanonRecord::new(r, &mut s.borrow_mut())),
            |c| {
                records += 1;
                if c.status() != CanonStatus::Ok {
                    bad += 1;
                    let message =
                        format!("{}: {}", c.status().as_str(), c.error().unwrap_or_default());
                    diagnostics.report(|m| eprintln!("{m}"), &label, c.record.line, &message);
                }
                Ok(())
            },
            &mut writer,
            &NoProgress,
        )
        .map_err(|e| output_error(e, &output))?;
        if records == records_before && !args.run.quiet {
            eprintln!("{}", crate::output::no_records(&label));
        }
    }
    drop(writer);
    output.commit()?;
    diagnostics.finish("--format jsonl or csv gives every record's message");
    if !args.run.quiet {
        let secs = start.elapsed().as_secs_f64();
        eprintln!(
            "sudoku-batch: canonicalised {records} records in {secs:.2} s ({:.0} puzzles/s): {} with a form, {bad} invalid or malformed",
            records as f64 / secs.max(1e-9),
            records - bad
        );
    }
    Ok(if bad == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
