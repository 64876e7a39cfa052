//! The batch pipeline: a reader thread fills bounded batches, the rayon pool works on a few of
//! them at once (threads + 2, at most 6; each batch's records split among the workers, their
//! order kept by rayon's indexed `collect_into_vec`), the calling thread collects them in
//! input order as they finish, and a writer thread writes them. At most a few batches are in
//! flight, so memory stays flat whatever the input size.
//!
//! ```text
//!  reader thread ──batch──▶ [2] ──▶ parse, solve, render (rayon, N threads) ──▶ [2] ──▶ writer thread
//! ```
//!
//! With a [`Render`] (solve's output), the workers also format each block's results into
//! the batch's byte buffer (records of unbounded length, csv and jsonl, into a vector per
//! block first), so the writer thread only writes bytes, a whole batch at a time when its
//! records fill their regions; the byte buffers go back to the workers. A
//! [`Fold`] next to it counts the results that need nothing in input order (solved puzzles)
//! on the workers too, into per-worker totals: only the others (bad records, for messages and
//! `--strict`) are kept for the collect step, and the fine ones are never stored.
//!
//! A batch's blocks of lines go to the workers whole while records are quick; when they are
//! slow (hard puzzles: up to seconds each), a block's records are shared out in pieces sized
//! by the time records take, so that a file of a few dozen hard puzzles keeps every core busy,
//! and the progress sink hears of records as they finish, not once per batch (`pace.rs`).
//!
//! The parts: this file holds what callers use (the traits, [`run_stages`], [`run_rendered`])
//! and the run of a small input on the calling thread; `blocks.rs` works on one batch (its
//! records fanned out to the workers, results into their slots, rendered into their
//! regions, folded); `pace.rs` sizes the pieces of work from the time per record and counts
//! the records worked on; `schedule.rs` is the threaded run (the reader thread, the batches in
//! flight, the collect step in input order, the writer thread).

use std::io;
use std::sync::Mutex;

use thiserror::Error;

use crate::error::InputError;
use crate::grid::Grid;
use crate::io::reader::{RawBatch, Record, RecordReader};

mod blocks;
mod pace;
mod schedule;

use pace::{Pace, Tally};

/// Records per batch: large enough that handing a batch between threads costs nothing per
/// record, small enough that a few batches in flight keep memory flat.
pub const BATCH: usize = 4096;

/// Told about the run's progress as records are done: from the workers at most every
/// 100 ms, and once per batch collected. The default does nothing.
pub trait Progress: Sync {
    /// Records processed so far in this input. Called from any thread; two calls close
    /// together may come in either order.
    fn update(&self, _records: u64) {}
}

/// A progress sink that ignores everything.
pub struct NoProgress;
impl Progress for NoProgress {}

/// Where results go, in input order (the pipeline calls it on its writer thread).
pub trait Sink<T> {
    /// Called once before the first result (headers).
    fn start(&mut self) -> io::Result<()>;
    /// One result.
    fn write(&mut self, item: &T) -> io::Result<()>;
    /// Push out what was written: called whenever the writer has written every result made
    /// so far and waits for more (so that the results of a stream that pauses come out as
    /// they are made), and after the last result. It must not end the output.
    fn flush(&mut self) -> io::Result<()>;
    /// The bytes a [`Render`] made of some results, in order, in place of a `write` for each
    /// (only runs given a `Render` call it; the default refuses).
    fn write_rendered(&mut self, _bytes: &[u8]) -> io::Result<()> {
        Err(io::Error::other("this output takes no rendered results"))
    }
}

/// The workers' work on each record. Any `Fn(Record) -> T` is one; a work that takes a bare
/// puzzle too ([`Work::puzzle`]) spares the common records, a puzzle alone on its line, the
/// making, moving and dropping of a [`Record`] (a few percent of an easy puzzle's time).
pub trait Work<T>: Sync {
    /// The result of `record`.
    fn record(&self, record: Record) -> T;
    /// The result of [`Record::plain(line, puzzle)`](Record::plain), which it must equal.
    #[inline]
    fn puzzle(&self, line: u64, puzzle: Grid) -> T {
        self.record(Record::plain(line, puzzle))
    }
}

impl<T, F: Fn(Record) -> T + Sync> Work<T> for F {
    #[inline]
    fn record(&self, record: Record) -> T {
        self(record)
    }
}

/// Formats results into bytes on the workers, next to the work, so that the writer thread
/// only writes them (solve's output). For the same result it must give the bytes its
/// sink's `write` gives: a run stopped inside a block writes that block's results one by one.
pub trait Render<T>: Sync {
    /// The most bytes one result takes; 0 when there is no such bound (csv and jsonl records
    /// carry the input's text): results are then appended to a vector per block
    /// ([`render_into`](Render::render_into)) and the blocks' bytes put together after.
    fn max_len(&self) -> usize;
    /// Write `item` at the start of `out` (at least [`max_len`](Render::max_len) bytes);
    /// returns the bytes written. Called only when `max_len` is not 0.
    fn render(&self, item: &T, out: &mut [u8]) -> usize;
    /// Append `item` to `out`. Called only when `max_len` is 0, so a render without a bound
    /// must provide it (the default, through [`render`](Render::render), serves only renders
    /// with one).
    fn render_into(&self, item: &T, out: &mut Vec<u8>) {
        let at = out.len();
        out.resize(at + self.max_len(), 0);
        let len = self.render(item, &mut out[at..]);
        out.truncate(at + len);
    }
}

/// A [`Render`] of results with a bound: `render` writes one at the start of a buffer of at
/// least `max_len` bytes and returns its length.
pub struct BoundedRender<F> {
    max_len: usize,
    render: F,
}

impl<F> BoundedRender<F> {
    /// Results of at most `max_len` bytes, written by `render`.
    pub const fn new(max_len: usize, render: F) -> Self {
        BoundedRender { max_len, render }
    }
}

impl<T, F: Fn(&T, &mut [u8]) -> usize + Sync> Render<T> for BoundedRender<F> {
    fn max_len(&self) -> usize {
        self.max_len
    }
    #[inline]
    fn render(&self, item: &T, out: &mut [u8]) -> usize {
        (self.render)(item, out)
    }
}

/// Formats one result by appending its bytes to a vector.
pub trait RecordBytes<T>: Sync {
    /// Append `item`'s bytes to `out`.
    fn append(&self, item: &T, out: &mut Vec<u8>);
}

/// A [`Render`] of results without a bound (csv and jsonl records carry the input's text):
/// each is appended to a vector.
pub struct UnboundedRender<F>(pub F);

impl<T, F: RecordBytes<T>> Render<T> for UnboundedRender<F> {
    fn max_len(&self) -> usize {
        0
    }
    fn render(&self, _: &T, _: &mut [u8]) -> usize {
        unreachable!("records without a bound are rendered into a vector")
    }
    fn render_into(&self, item: &T, out: &mut Vec<u8>) {
        self.0.append(item, out);
    }
}

/// Counts results on the workers, next to the work, instead of in the collect step (rendered
/// runs only: a result not kept needs no `Sink::write`). Each worker counts into its own
/// `Part`; the run returns the parts, to be added up by the caller.
pub trait Fold<T>: Sync {
    /// One worker's totals.
    type Part: Default + Send;
    /// Count `item` into `part` and return true (it then skips the collect step), or return
    /// false to hand it to the collect step, in input order. Called on the workers, in no
    /// particular order.
    fn fold(&self, part: &mut Self::Part, item: &T) -> bool;
}

/// No folding: every result goes to the collect step.
pub struct NoFold;

impl<T> Fold<T> for NoFold {
    type Part = ();
    fn fold(&self, _: &mut (), _: &T) -> bool {
        false
    }
}

/// What a rendered run did: the records collected, and its workers' [`Fold`] parts.
#[derive(Debug)]
pub struct Ran<P> {
    /// Records the run went through (each folded or collected).
    pub records: u64,
    /// The workers' totals of the folded results.
    pub parts: Vec<P>,
}

/// A sink for runs whose results are only collected (nothing is written).
pub struct Discard;

impl<T> Sink<T> for Discard {
    fn start(&mut self) -> io::Result<()> {
        Ok(())
    }
    fn write(&mut self, _: &T) -> io::Result<()> {
        Ok(())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// What stops a run.
#[derive(Debug, Error)]
pub enum PipelineError {
    /// Reading the input failed (the records before the failure were written).
    #[error(transparent)]
    Input(#[from] InputError),
    /// Writing the output failed (a closed pipe included).
    #[error("cannot write the output")]
    Output(#[source] io::Error),
    /// A collect step stopped the run at a record (`--strict`); the records before it were
    /// written.
    #[error("{path}:{line}: {message}")]
    Halted {
        /// The input's name.
        path: String,
        /// The record's line.
        line: u64,
        /// Why the run stopped.
        message: String,
    },
    /// The reader thread could not be started.
    #[error("cannot start the reader thread")]
    Spawn(#[source] io::Error),
    /// The thread pool could not be built.
    #[error("cannot start worker threads")]
    Threads(#[from] rayon::ThreadPoolBuildError),
}

/// Returned by a collect step to stop the run at the current record (`--strict`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Halt {
    /// The record's line.
    pub line: u64,
    /// Why the run stops there.
    pub message: String,
}

/// A rayon pool of `threads` workers (at least one).
pub fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, rayon::ThreadPoolBuildError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
}

/// A pool of `threads` workers, or `None` for one thread (work then runs on the caller).
pub fn worker_pool(
    threads: usize,
) -> Result<Option<rayon::ThreadPool>, rayon::ThreadPoolBuildError> {
    if threads > 1 {
        thread_pool(threads).map(Some)
    } else {
        Ok(None)
    }
}

/// The generic pipeline: `work` on every record (in parallel), then, in input order, `collect`
/// on the calling thread (totals, cross-record checks, messages) and `sink` on the writer
/// thread. Returns the number of records collected. On an input error the records before it
/// are still collected and written; when `collect` returns a [`Halt`], the records before
/// that one are written and the run stops with [`PipelineError::Halted`].
///
/// An input that ends within its first batch is handled on the calling thread (no reader or
/// writer thread to start: small files finish sooner); others go through the threaded
/// pipeline (a stream's first batch may be short: it ends with what had arrived).
pub fn run_stages<T: Send, W: Work<T>>(
    reader: RecordReader,
    threads: usize,
    batch: usize,
    work: &W,
    collect: impl FnMut(&mut T) -> Result<(), Halt> + Send,
    sink: &mut (dyn Sink<T> + Send),
    progress: &dyn Progress,
) -> Result<u64, PipelineError> {
    let on_workers = OnWorkers::<T, NoFold> {
        render: None,
        fold: None,
    };
    run_rendered(
        reader, threads, batch, work, on_workers, collect, sink, progress,
    )
    .map(|ran| ran.records)
}

/// What the workers do with the results besides making them (see [`run_rendered`]).
pub struct OnWorkers<'a, T, F> {
    /// Format them (for every batch read as blocks of lines).
    pub render: Option<&'a dyn Render<T>>,
    /// Count those that need no collect step (only with `render`, ignored without).
    pub fold: Option<&'a F>,
}

/// [`run_stages`] with the workers formatting the results (`on.render`): the sink gets their
/// bytes ([`Sink::write_rendered`]) for every batch read as blocks of lines; and counting
/// them (`on.fold`): the results it folds skip the collect step, and the run returns the
/// workers' parts.
#[allow(clippy::too_many_arguments)]
pub fn run_rendered<T: Send, W: Work<T>, F: Fold<T>>(
    reader: RecordReader,
    threads: usize,
    batch: usize,
    work: &W,
    on: OnWorkers<'_, T, F>,
    collect: impl FnMut(&mut T) -> Result<(), Halt> + Send,
    sink: &mut (dyn Sink<T> + Send),
    progress: &dyn Progress,
) -> Result<Ran<F::Part>, PipelineError> {
    let stages = Stages {
        pool: worker_pool(threads)?,
        work,
        render: on.render,
        fold: on.fold.filter(|_| on.render.is_some()),
        spare: Mutex::new(Vec::new()),
        parts: Mutex::new(Vec::new()),
        pace: Pace::default(),
        tally: Tally::new(progress),
    };
    let records = stages.run(reader, batch, collect, sink)?;
    let parts = stages.parts.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok(Ran { records, parts })
}

impl<T: Send, W: Work<T>, F: Fold<T>> Stages<'_, T, W, F> {
    /// The run: a small input on this thread, a larger one through the threaded pipeline.
    fn run(
        &self,
        mut reader: RecordReader,
        batch: usize,
        mut collect: impl FnMut(&mut T) -> Result<(), Halt> + Send,
        sink: &mut (dyn Sink<T> + Send),
    ) -> Result<u64, PipelineError> {
        let batch = batch.max(1);
        let mut first = RawBatch::default();
        let first_read = reader.read_raw_batch(&mut first, batch);
        // A short first batch is the whole input only when the input ended there (a stream
        // gives a short one whenever no more has arrived yet).
        if matches!(first_read, Ok(n) if n >= batch || (n > 0 && !reader.ended())) {
            return self.threaded(reader, first, batch, &mut collect, sink);
        }
        let (worked, halt) = self.work_batch(first).collect(&mut collect);
        self.tally.report();
        sink.start()
            .and_then(|()| worked.write(sink))
            .and_then(|()| sink.flush())
            .map_err(PipelineError::Output)?;
        if let Some(h) = halt {
            return Err(halted_at(reader.label().to_string(), h));
        }
        first_read.map_err(PipelineError::Input)?;
        Ok(worked.records as u64)
    }
}

/// The worker side of a run: the pool, the work, the render and fold, and whom to tell about
/// progress. The work is a type parameter rather than a `dyn Fn`, so parsing and the work
/// compile into one loop.
struct Stages<'a, T, W, F: Fold<T>> {
    pool: Option<rayon::ThreadPool>,
    work: &'a W,
    render: Option<&'a dyn Render<T>>,
    /// Only with `render`.
    fold: Option<&'a F>,
    /// Byte buffers of rendered batches, back from the writer to be used again.
    spare: Mutex<Vec<Vec<u8>>>,
    /// The fold's parts not in use by a worker (one per worker that has folded).
    parts: Mutex<Vec<F::Part>>,
    /// The time per record, which sizes the pieces of work handed out.
    pace: Pace,
    /// The records worked on, for the progress sink.
    tally: Tally<'a>,
}

fn halted_at(path: String, h: Halt) -> PipelineError {
    PipelineError::Halted {
        path,
        line: h.line,
        message: h.message,
    }
}
