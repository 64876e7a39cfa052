//! The skeleton every record command follows (solve, verify, canon, shuffle):
//!
//! ```text
//! Job::start   inputs checked to open, output (and --stats-json) opened, before any work
//! Job::open    per input: its reader
//! Job::stage   per input: work ─▶ collect ─▶ sink through the pipeline; an empty input warned
//! Job::commit  the writer flushed, the output finished (not yet in place)
//! Job::finish  the summary as JSON (--stats-json); then both renamed into place, so a
//!              failure anywhere before (the summary file unwritable, a full disk) leaves
//!              neither; and the exit code
//! ```
//!
//! A command's `run` is these steps with its own work, collect step, writer and summary.

use std::io::{BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use serde::Serialize;

use sudoku_batch::io::{Input, ReaderOptions, RecordReader};
use sudoku_batch::pipeline::{
    self, Fold, Halt, NoFold, OnWorkers, PipelineError, Ran, Sink, Work, BATCH,
};

use crate::cli::{self, InputArgs, RecordArgs, ReportArgs, RunArgs};
use crate::output::{LateFile, Output};
use crate::progress::Bar;

/// Output buffers: large enough that writes are rare system calls.
const OUTPUT_BUFFER: usize = 1 << 16;

/// Where a job writes: the output rules' sink behind a buffer.
pub type Writer = BufWriter<Box<dyn Write + Send>>;

/// One run of a record command.
pub struct Job {
    /// The inputs, each checked to open.
    pub inputs: Vec<Input>,
    /// How to read them.
    pub options: ReaderOptions,
    /// Worker threads.
    pub threads: usize,
    /// No summary and no warnings about empty inputs.
    pub quiet: bool,
    /// Records per batch.
    pub batch: usize,
    output: Option<Output>,
    stats_file: Option<LateFile>,
    started: Instant,
}

/// The output files a job writes.
pub struct Outputs<'a> {
    /// `-o` (stdout when `None`).
    pub output: Option<&'a Path>,
    /// `--stats-json`.
    pub stats_json: Option<&'a Path>,
}

impl<'a> Outputs<'a> {
    /// `-o` and the `--stats-json` of `report`.
    pub fn with_report(output: Option<&'a Path>, report: &'a ReportArgs) -> Outputs<'a> {
        Outputs {
            output,
            stats_json: report.stats_json.as_deref(),
        }
    }
}

impl Job {
    /// Check the inputs and open the outputs, before any work: a typo in the last path or an
    /// unwritable output must not cost a long run.
    pub fn start(
        inputs: &[String],
        options: ReaderOptions,
        threads: usize,
        outputs: Outputs<'_>,
        quiet: bool,
    ) -> anyhow::Result<(Job, Writer)> {
        let inputs = cli::inputs(inputs)?;
        let (output, sink) = Output::create(outputs.output)?;
        let stats_file = LateFile::create(outputs.stats_json)?;
        let job = Job {
            inputs,
            options,
            threads,
            quiet,
            batch: BATCH,
            output: Some(output),
            stats_file,
            started: Instant::now(),
        };
        Ok((job, BufWriter::with_capacity(OUTPUT_BUFFER, sink)))
    }

    /// [`Job::start`] for the commands that take [`RunArgs`] (no `--stats-json`).
    pub fn start_run(
        inputs: &[String],
        input: &InputArgs,
        run: &RunArgs,
    ) -> anyhow::Result<(Job, Writer)> {
        let outputs = Outputs {
            output: run.output.as_deref(),
            stats_json: None,
        };
        let threads = run.threads.count();
        Job::start(inputs, input.reader_options(), threads, outputs, run.quiet)
    }

    /// [`Job::start`] for the commands that take [`RecordArgs`]: their input options (with
    /// each record's text kept when `keep_text`, and solution columns left unread), `-o`
    /// `output`, `--stats-json`, threads, quietness and batch size.
    pub fn start_records(
        inputs: &[String],
        output: Option<&Path>,
        keep_text: bool,
        records: &RecordArgs,
    ) -> anyhow::Result<(Job, Writer)> {
        let options = ReaderOptions {
            keep_text,
            skip_solutions: true,
            ..records.input.reader_options()
        };
        let outputs = Outputs::with_report(output, &records.report);
        let threads = records.threads.count();
        let (mut job, out) = Job::start(inputs, options, threads, outputs, records.quiet)?;
        job.batch = records.batch;
        Ok((job, out))
    }

    /// The reader of one input.
    pub fn open(&self, input: &Input) -> anyhow::Result<RecordReader> {
        Ok(RecordReader::open(input, &self.options)?)
    }

    /// One input through the pipeline (see [`pipeline::run_stages`]); an input without records
    /// is worth a warning. Returns the records collected.
    pub fn stage<T: Send, W: Work<T>>(
        &self,
        reader: RecordReader,
        work: &W,
        collect: impl FnMut(&mut T) -> Result<(), Halt> + Send,
        sink: &mut (dyn Sink<T> + Send),
        bar: &Bar,
    ) -> anyhow::Result<u64> {
        let on = OnWorkers::<T, NoFold> {
            render: None,
            fold: None,
        };
        Ok(self
            .stage_rendered(reader, work, on, collect, sink, bar)?
            .records)
    }

    /// [`Job::stage`], with the workers formatting and counting the results (`on`, see
    /// [`pipeline::run_rendered`]); returns the records and the workers' counts.
    pub fn stage_rendered<T: Send, W: Work<T>, F: Fold<T>>(
        &self,
        reader: RecordReader,
        work: &W,
        on: OnWorkers<'_, T, F>,
        collect: impl FnMut(&mut T) -> Result<(), Halt> + Send,
        sink: &mut (dyn Sink<T> + Send),
        bar: &Bar,
    ) -> anyhow::Result<Ran<F::Part>> {
        let label = reader.label().to_string();
        let (threads, batch) = (self.threads, self.batch);
        let ran = pipeline::run_rendered(reader, threads, batch, work, on, collect, sink, bar)
            .map_err(|e| self.output_error(e))?;
        if ran.records == 0 && !self.quiet {
            bar.println(&crate::output::no_records(&label));
        }
        Ok(ran)
    }

    /// A pipeline error as the user should read it: write errors name the output.
    fn output_error(&self, e: PipelineError) -> anyhow::Error {
        match (e, &self.output) {
            (PipelineError::Output(e), Some(output)) => {
                anyhow::Error::new(e).context(format!("{}: cannot write", output.label()))
            }
            (e, _) => e.into(),
        }
    }

    /// The output's name in messages (`stdout` for stdout).
    pub fn output_label(&self) -> String {
        self.output.as_ref().map_or("stdout".into(), Output::label)
    }

    /// Flush `writer` and finish the output (a compressed stream ended); it is moved into
    /// place by [`finish`](Self::finish), after the summary file is written.
    pub fn commit(&mut self, mut writer: impl Write) -> anyhow::Result<()> {
        let output = self.output.as_mut().expect("an output");
        writer
            .flush()
            .with_context(|| format!("{}: cannot write", output.label()))?;
        drop(writer);
        output.finish()
    }

    /// The progress bar over the job's inputs: hidden with `quiet`, and when the output
    /// (`-o`, stdout when `None` or `-`) is the terminal the bar would draw on.
    pub fn progress_bar(&self, output: Option<&Path>) -> Bar {
        let to_terminal = Bar::stdout_is_terminal() && output.is_none_or(|p| p.as_os_str() == "-");
        let total_bytes = self.inputs.iter().map(Input::size).sum::<Option<u64>>();
        Bar::new(total_bytes, !self.quiet && !to_terminal)
    }

    /// Seconds since the job started.
    pub fn seconds(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }

    /// Write the summary to `--stats-json` (when asked), move the outputs into place, and
    /// return the exit code: 0 when every record was fine, 1 when the run finished but some
    /// were not. Call after [`commit`](Self::commit).
    pub fn finish(self, summary: &impl Serialize, all_fine: bool) -> anyhow::Result<ExitCode> {
        let stats = match self.stats_file {
            Some(file) => Some(file.fill(|w| {
                serde_json::to_writer_pretty(&mut *w, summary)?;
                writeln!(w)
            })?),
            None => None,
        };
        crate::output::commit_all(self.output.into_iter().chain(stats))?;
        Ok(if all_fine {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        })
    }
}
