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

use std::collections::BTreeMap;
use std::io;
use std::mem::MaybeUninit;
use std::panic::{self, AssertUnwindSafe};
use std::ptr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, sync_channel, Receiver, Sender, SyncSender, TryRecvError};
use std::sync::Mutex;
use std::thread::JoinHandle;

use rayon::prelude::*;
use thiserror::Error;

use crate::error::InputError;
use crate::grid::Grid;
use crate::io::reader::{Parsed, RawBatch, RawItem, Record, RecordReader};

/// Byte buffers the writer keeps for the workers: as many as can be in flight at once (the
/// reader's and writer's queues and the batches worked on), so none is made twice.
const SPARE: usize = 12;

/// Records per batch: large enough that handing a batch between threads costs nothing per
/// record, small enough that a few batches in flight keep memory flat.
pub const BATCH: usize = 4096;

/// Batches worked on at once beyond one per worker, for up to 4 workers (see [`in_flight`]).
const IN_FLIGHT: u64 = 2;

/// Told about the run's progress once per batch. The default does nothing.
pub trait Progress: Sync {
    /// Records processed so far in this input (after a batch was done).
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
        progress,
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
        self.progress.update(worked.records as u64);
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
    progress: &'a dyn Progress,
}

/// A worked batch: the results kept for the collect step (all of them, unless a fold took
/// some), and, when they were rendered, the bytes of all of them, item by item.
struct Worked<T> {
    done: Vec<T>,
    /// The batch's records (after a halt: those before it).
    records: usize,
    /// Each item's bytes at the start of its region of `max_len` bytes per record.
    bytes: Vec<u8>,
    /// Per item: where its bytes start, how many there are, and its first record.
    spans: Vec<Span>,
    /// Rendered batches: per result in `done`, where it is in the batch.
    marks: Vec<Mark>,
    /// Rendered batches: bytes from here on are not written (a halt).
    end: usize,
}

#[derive(Clone, Copy)]
struct Span {
    start: usize,
    len: usize,
    first: usize,
}

/// Where a result kept from a rendered item is: the batch's records before it, and where its
/// bytes start.
#[derive(Clone, Copy)]
struct Mark {
    records: usize,
    byte: usize,
}

impl<T> Worked<T> {
    fn plain(done: Vec<T>) -> Worked<T> {
        Worked {
            records: done.len(),
            done,
            bytes: Vec::new(),
            spans: Vec::new(),
            marks: Vec::new(),
            end: usize::MAX,
        }
    }

    /// Run `collect` over the kept results in order; at the first [`Halt`], cut the batch
    /// before that record (only the records before it are written).
    fn collect(
        mut self,
        collect: &mut impl FnMut(&mut T) -> Result<(), Halt>,
    ) -> (Worked<T>, Option<Halt>) {
        for (i, item) in self.done.iter_mut().enumerate() {
            if let Err(halt) = collect(item) {
                match self.marks.get(i) {
                    Some(mark) => (self.records, self.end) = (mark.records, mark.byte),
                    None => self.records = i,
                }
                self.done.truncate(i);
                return (self, Some(halt));
            }
        }
        (self, None)
    }

    /// Write the results (only those before a halt): rendered ones as their bytes, runs of
    /// adjacent regions in one piece; batches not rendered, result by result.
    fn write(&self, sink: &mut (dyn Sink<T> + Send)) -> io::Result<()> {
        if self.spans.is_empty() {
            return self.done.iter().try_for_each(|r| sink.write(r));
        }
        let mut run = 0..0;
        for span in &self.spans {
            if span.start >= self.end {
                break;
            }
            if run.end != span.start {
                sink.write_rendered(&self.bytes[run.clone()])?;
                run = span.start..span.start;
            }
            run.end = (span.start + span.len).min(self.end);
        }
        sink.write_rendered(&self.bytes[run])
    }
}

/// A fold part lent to a worker for a stretch of items; it goes back to the stages' parts
/// when dropped.
struct Lease<'p, P> {
    part: Option<P>,
    home: &'p Mutex<Vec<P>>,
}

impl<P> Drop for Lease<'_, P> {
    fn drop(&mut self) {
        if let (Some(part), Ok(mut home)) = (self.part.take(), self.home.lock()) {
            home.push(part);
        }
    }
}

/// One item's place in a batch being worked on: its result slots, its bytes' region and its
/// marks (rendered runs), and where it starts.
type Place<'b, T> = (
    &'b mut [MaybeUninit<T>],
    &'b mut [u8],
    &'b mut [MaybeUninit<Mark>],
    Span,
);

impl<T: Send, W: Work<T>, F: Fold<T>> Stages<'_, T, W, F> {
    /// Parse and work on one batch, in parallel when there is a pool; results keep the input
    /// order.
    fn work_batch(&self, batch: RawBatch) -> Worked<T> {
        if batch.has_blocks() {
            return self.work_blocks(batch);
        }
        let mut done = Vec::with_capacity(batch.len());
        let (bytes, items) = batch.into_parts();
        let work = |item| self.work.record(bytes.parse(item));
        match &self.pool {
            Some(pool) => pool.install(|| {
                items
                    .into_par_iter()
                    .with_min_len(16)
                    .map(work)
                    .collect_into_vec(&mut done)
            }),
            None => done.extend(items.into_iter().map(work)),
        }
        Worked::plain(done)
    }

    /// [`work_batch`](Self::work_batch) for a batch whose items may stand for several records
    /// (blocks of lines): each item's records go straight into their own slots of the result,
    /// known from the item's record count, so no record is moved twice. With a render, each
    /// item's results are also rendered into its own region of the batch's bytes (`max_len`
    /// bytes per record), on the worker that made them; with a fold, the results it counts are
    /// dropped there, and the others close up at the front of the result after the work.
    fn work_blocks(&self, batch: RawBatch) -> Worked<T> {
        let total = batch.len();
        let width = self.render.map_or(0, |r| r.max_len());
        let rendered = self.render.is_some();
        // Results without a bound on their bytes go to a vector per item, put together after.
        let growing = rendered && width == 0;
        let mut done: Vec<T> = Vec::with_capacity(total);
        let mut marks: Vec<Mark> = Vec::with_capacity(if rendered { total } else { 0 });
        let mut out = self.spare_bytes(total * width);
        let (bytes, items) = batch.into_parts();
        let mut spans = Vec::with_capacity(items.len());
        let mut places: Vec<Place<'_, T>> = Vec::with_capacity(items.len());
        let mut rest = &mut done.spare_capacity_mut()[..total];
        let mut rest_marks = &mut marks.spare_capacity_mut()[..];
        let mut rest_out = &mut out[..total * width];
        let mut first = 0;
        for item in &items {
            let records = item.records();
            let (mine, after) = rest.split_at_mut(records);
            let (region, after_out) = rest_out.split_at_mut(records * width);
            let (my_marks, after_marks) =
                rest_marks.split_at_mut(if rendered { records } else { 0 });
            let span = Span {
                start: first * width,
                len: 0,
                first,
            };
            spans.push(span);
            places.push((mine, region, my_marks, span));
            rest = after;
            rest_out = after_out;
            rest_marks = after_marks;
            first += records;
        }
        // Per item: its bytes (in its region, or its own vector when `growing`), and the
        // results kept (at the front of its slots) with their marks (bytes from the item's
        // start; made absolute once the items' places are known).
        let fill = |lease: &mut Lease<'_, F::Part>, (item, place): (RawItem, Place<'_, T>)| {
            let (slots, region, marks, span) = place;
            let (mut filled, mut kept, mut at) = (0, 0, 0);
            let mut own = Vec::new();
            if growing {
                // A Kaggle record in csv is ~200 bytes: one reservation, no regrowth.
                own.reserve(slots.len() * 256);
            }
            bytes.each(item, |r| {
                let result = match r {
                    Parsed::Puzzle { line, puzzle } => self.work.puzzle(line, puzzle),
                    Parsed::Record(r) => self.work.record(r),
                };
                let byte = at;
                match self.render {
                    Some(render) if growing => {
                        render.render_into(&result, &mut own);
                        at = own.len();
                    }
                    Some(render) => at += render.render(&result, &mut region[at..]),
                    None => {}
                }
                let folded = match (self.fold, lease.part.as_mut()) {
                    (Some(fold), Some(part)) => fold.fold(part, &result),
                    _ => false,
                };
                if !folded {
                    if let Some(mark) = marks.get_mut(kept) {
                        mark.write(Mark {
                            records: span.first + filled,
                            byte,
                        });
                    }
                    slots[kept].write(result);
                    kept += 1;
                }
                filled += 1;
            });
            assert_eq!(filled, slots.len(), "an item gave other than its records");
            (at, kept, own)
        };
        let lease = || Lease {
            part: self.fold.map(|_| {
                let spare = self.parts.lock().ok().and_then(|mut parts| parts.pop());
                spare.unwrap_or_default()
            }),
            home: &self.parts,
        };
        let mut lens = Vec::with_capacity(items.len());
        match &self.pool {
            Some(pool) => pool.install(|| {
                items
                    .into_par_iter()
                    .zip(places)
                    .map_init(lease, fill)
                    .collect_into_vec(&mut lens)
            }),
            None => {
                let mut lease = lease();
                lens.extend(items.into_iter().zip(places).map(|x| fill(&mut lease, x)));
            }
        }
        if growing {
            out = self.spare_bytes(lens.iter().map(|(len, _, _)| len).sum());
            let mut at = 0;
            for (span, (len, _, own)) in spans.iter_mut().zip(&lens) {
                out[at..at + len].copy_from_slice(own);
                span.start = at;
                at += len;
            }
        }
        // Close up the kept results (and their marks) at the front.
        let mut kept_total = 0;
        for (span, &(len, kept, _)) in spans.iter_mut().zip(&lens) {
            span.len = len;
            if span.first != kept_total {
                // SAFETY: the first `kept` slots of this item (from `span.first`) were written
                // by its worker, and `kept_total <= span.first`: the copy moves them (and their
                // marks, written for the same slots when there are marks) towards the front,
                // over slots already moved from or never written. `ptr::copy` allows overlap.
                unsafe {
                    let results = done.as_mut_ptr();
                    ptr::copy(results.add(span.first), results.add(kept_total), kept);
                    if rendered {
                        let m = marks.as_mut_ptr();
                        ptr::copy(m.add(span.first), m.add(kept_total), kept);
                    }
                }
            }
            kept_total += kept;
        }
        // SAFETY: the first `kept_total` places of `done` hold the kept results, moved there
        // above, each once; the places after them hold copies already moved (or nothing) and
        // are never read. An item that gave fewer records than its slots fails the assertion
        // (one that gave more, the index), and a panic leaves before this line: the results
        // written are leaked, never read. Marks (when rendered) were written for the same
        // slots. Why not safe code: a vector of results per item, appended after, allocates
        // once per ~60 records (tests/pipeline_alloc.rs allows far less for line output) and
        // moves every result once more. (Csv and jsonl bytes do take a vector per item: their
        // length has no bound, and their formatting costs far more than that allocation.)
        unsafe {
            done.set_len(kept_total);
            if rendered {
                marks.set_len(kept_total);
            }
        }
        if self.render.is_none() {
            return Worked::plain(done);
        }
        // Each kept result's mark, from its item's start to the batch's.
        let mut at = 0;
        for (span, &(_, kept, _)) in spans.iter().zip(&lens) {
            for mark in &mut marks[at..at + kept] {
                mark.byte += span.start;
            }
            at += kept;
        }
        Worked {
            done,
            records: total,
            bytes: out,
            spans,
            marks,
            end: usize::MAX,
        }
    }

    /// A byte buffer of at least `len` bytes: one the writer gave back, or a new one.
    fn spare_bytes(&self, len: usize) -> Vec<u8> {
        if len == 0 {
            return Vec::new();
        }
        let mut bytes = self
            .spare
            .lock()
            .map(|mut spare| spare.pop())
            .ok()
            .flatten()
            .unwrap_or_default();
        if bytes.len() < len {
            bytes.resize(len, 0);
        }
        bytes
    }

    /// The threaded pipeline, from its first batch on (full, or all a stream had sent).
    ///
    /// The reader thread owns `reader`: when the run stops early (a halt, a write error), it
    /// is left to end on its own rather than waited for, since it may be blocked reading a
    /// slow stream (`tail -f ... | sudoku-batch solve --strict` must report at once).
    fn threaded(
        &self,
        reader: RecordReader,
        first: RawBatch,
        batch: usize,
        collect: &mut (impl FnMut(&mut T) -> Result<(), Halt> + Send),
        sink: &mut (dyn Sink<T> + Send),
    ) -> Result<u64, PipelineError> {
        let label = reader.label().to_string();
        // With a pool, the reader wakes the collecting thread after each batch it sends.
        let events = self.pool.as_ref().map(|_| channel::<Event>());
        let wake = events.as_ref().map(|(tx, _)| {
            let tx = tx.clone();
            Box::new(move || {
                let _ = tx.send(Event::Read);
            }) as Wake
        });
        let (batch_rx, reading) = spawn_reader(reader, first, batch, wake)?;
        let (out_tx, out_rx) = sync_channel::<Worked<T>>(2);
        std::thread::scope(|scope| {
            let spare = &self.spare;
            let writing = scope.spawn(move || write_batches(out_rx, sink, spare));
            let Ended {
                records: records_done,
                failure,
                input_error,
            } = match (&self.pool, events) {
                (Some(pool), Some(events)) => {
                    self.work_in_pool(pool, batch_rx, events, collect, &out_tx)
                }
                _ => self.work_and_collect(batch_rx, collect, &out_tx),
            };
            drop(out_tx);
            let written = writing.join().expect("the writer thread does not panic");
            if failure.is_none() && written.is_ok() {
                // The whole input was read (or failed): the reader has ended.
                reading.join().expect("the reader thread does not panic");
            }
            // Otherwise the dropped batch receiver stops the reader at its next batch.
            match (written, failure, input_error) {
                (Err(e), _, _) => Err(PipelineError::Output(e)),
                (Ok(()), Some(h), _) => Err(halted_at(label, h)),
                (Ok(()), None, Some(e)) => Err(e),
                (Ok(()), None, None) => Ok(records_done),
            }
        })
    }

    /// The threaded loop with a pool: a few batches ([`in_flight`]) are worked on at once,
    /// each as a task of the pool (its blocks split among the workers), and this thread
    /// collects them in input order as they finish and sends them to the writer. A worker
    /// done with its share of one batch goes on to the next instead of waiting for the batch's
    /// last block: with one batch at a time, every batch ended with a core idle (or asleep,
    /// to be woken for the next), and a worker that the reader or writer thread pre-empted
    /// held up the other. `events` tells this thread of each batch read (the reader's wake)
    /// and each batch worked on, so batches are handed out as soon as they are read and
    /// collected as soon as they are worked on: on a slow stream each batch is still collected
    /// (and a `--strict` halt reported) at once. After a stop (a halt, the writer failing, a
    /// task's panic) the tasks not started yet do nothing.
    fn work_in_pool(
        &self,
        pool: &rayon::ThreadPool,
        batches: Receiver<Batch>,
        events: (Sender<Event>, Receiver<Event>),
        collect: &mut (impl FnMut(&mut T) -> Result<(), Halt> + Send),
        out: &SyncSender<Worked<T>>,
    ) -> Ended {
        let mut ended = Ended::default();
        let (event_tx, event_rx) = events;
        // Worked batches by number, until collected.
        let ready: Mutex<BTreeMap<u64, Worked<T>>> = Mutex::new(BTreeMap::new());
        let stopped = AtomicBool::new(false);
        let limit = in_flight(pool.current_num_threads());
        pool.in_place_scope(|scope| {
            // Batches handed to the pool, and the next one to collect: `sent - next` are being
            // worked on or wait in `ready` for an earlier one.
            let (mut sent, mut next) = (0u64, 0u64);
            let mut reading = true;
            let stop = |ended: Ended| {
                stopped.store(true, Ordering::Relaxed);
                ended
            };
            loop {
                while reading && sent - next < limit {
                    let message = match batches.try_recv() {
                        Ok(message) => Some(message),
                        Err(TryRecvError::Empty) => break,
                        Err(TryRecvError::Disconnected) => None,
                    };
                    match message {
                        Some(Ok(batch)) => {
                            let (events, seq, ready) = (event_tx.clone(), sent, &ready);
                            let stopped = &stopped;
                            scope.spawn(move |_| {
                                if stopped.load(Ordering::Relaxed) {
                                    return;
                                }
                                let worked = panic::catch_unwind(AssertUnwindSafe(|| {
                                    self.work_batch(batch)
                                }));
                                match worked {
                                    Ok(worked) => {
                                        lock(ready).insert(seq, worked);
                                        let _ = events.send(Event::Worked);
                                    }
                                    Err(payload) => {
                                        let _ = events.send(Event::Panicked);
                                        panic::resume_unwind(payload);
                                    }
                                }
                            });
                            sent += 1;
                        }
                        Some(Err(e)) => {
                            ended.input_error = Some(PipelineError::Input(e));
                            reading = false;
                        }
                        None => reading = false,
                    }
                }
                if !reading && sent == next {
                    return ended; // the input has ended and every batch is collected
                }
                // Wait for a batch to be read or worked on, then collect those now in order.
                match event_rx.recv() {
                    Ok(Event::Read | Event::Worked) => {}
                    // A task panicked (the scope re-raises it), or no sender is left.
                    Ok(Event::Panicked) | Err(_) => return stop(ended),
                }
                loop {
                    let Some(done) = lock(&ready).remove(&next) else {
                        break;
                    };
                    next += 1;
                    let collected = done.collect(collect);
                    if !ended.hand_on(collected, self.progress, out) {
                        return stop(ended);
                    }
                }
            }
        })
    }

    /// Work on batch after batch and collect each in input order, sending collected batches to
    /// the writer (one thread, no pool). A batch is only held back while the next one is
    /// already there, so on a slow stream each batch is collected (and a `--strict` halt
    /// reported) as soon as it is worked on.
    fn work_and_collect(
        &self,
        batches: Receiver<Batch>,
        collect: &mut (impl FnMut(&mut T) -> Result<(), Halt> + Send),
        out: &SyncSender<Worked<T>>,
    ) -> Ended {
        let mut ended = Ended::default();
        let mut pending: Option<Worked<T>> = None;
        loop {
            let message = match batches.try_recv() {
                Ok(message) => Some(message),
                Err(TryRecvError::Disconnected) => None,
                Err(TryRecvError::Empty) => {
                    if let Some(done) = pending.take() {
                        let collected = done.collect(collect);
                        if !ended.hand_on(collected, self.progress, out) {
                            return ended;
                        }
                    }
                    batches.recv().ok()
                }
            };
            let next = match message {
                Some(Ok(batch)) => Some(batch),
                Some(Err(e)) => {
                    ended.input_error = Some(PipelineError::Input(e));
                    None
                }
                None => None,
            };
            let worked = next.map(|batch| self.work_batch(batch));
            let collected = pending.take().map(|done| done.collect(collect));
            if let Some(c) = collected {
                if !ended.hand_on(c, self.progress, out) {
                    return ended;
                }
            }
            match worked {
                Some(done) => pending = Some(done),
                None => return ended,
            }
        }
    }
}

/// The reader thread: `first`, then batch after batch until the input ends or fails (the
/// records read before a failure are sent before it), or until the receiver is dropped.
fn spawn_reader(
    mut reader: RecordReader,
    first: RawBatch,
    batch: usize,
    wake: Option<Wake>,
) -> Result<(Receiver<Batch>, JoinHandle<()>), PipelineError> {
    let (batch_tx, batch_rx) = sync_channel::<Batch>(2);
    let mut next = first.empty_like();
    batch_tx.send(Ok(first)).expect("the receiver is alive");
    let wake = move || {
        if let Some(wake) = &wake {
            wake();
        }
    };
    wake();
    let reading = std::thread::Builder::new()
        .name("reader".into())
        .spawn(move || {
            loop {
                let mut records = std::mem::take(&mut next);
                let read = reader.read_raw_batch(&mut records, batch);
                next = records.empty_like();
                let last = !matches!(read, Ok(n) if n > 0);
                if !records.is_empty() {
                    if batch_tx.send(Ok(records)).is_err() {
                        break;
                    }
                    wake();
                }
                if let Err(e) = read {
                    let _ = batch_tx.send(Err(e));
                }
                if last {
                    break;
                }
            }
            // The end of the input (or of the run): the receiver sees the channel closed.
            drop(batch_tx);
            wake();
        })
        .map_err(PipelineError::Spawn)?;
    Ok((batch_rx, reading))
}

/// Called by the reader thread after each batch it sends, and once when it ends.
type Wake = Box<dyn Fn() + Send>;

/// What wakes the collecting thread of [`Stages::work_in_pool`].
enum Event {
    /// The reader sent a batch (or ended).
    Read,
    /// A batch was worked on (it is in the ready map).
    Worked,
    /// A batch's task panicked.
    Panicked,
}

/// Batches worked on at once with `threads` workers: enough that a worker done with its share
/// of the oldest batches finds another one read, few enough that memory stays flat on a
/// machine with many cores (each batch keeps its records, results and bytes).
fn in_flight(threads: usize) -> u64 {
    threads.min(4) as u64 + IN_FLIGHT
}

/// The mutex's value, also after a panic elsewhere (the tasks' panics are re-raised anyway).
fn lock<V>(m: &Mutex<V>) -> std::sync::MutexGuard<'_, V> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// How the work and collect loop ended.
#[derive(Default)]
struct Ended {
    /// Records collected.
    records: u64,
    /// The halt that stopped the run, if one did.
    failure: Option<Halt>,
    /// The input error that ended the input, if one did.
    input_error: Option<PipelineError>,
}

impl Ended {
    /// Count a collected batch and send it to the writer; false when the run stops here (a
    /// halt, or the writer stopped: its error is reported by the caller).
    fn hand_on<T>(
        &mut self,
        (done, halt): (Worked<T>, Option<Halt>),
        progress: &dyn Progress,
        out: &SyncSender<Worked<T>>,
    ) -> bool {
        self.records += done.records as u64;
        progress.update(self.records);
        if out.send(done).is_err() {
            return false;
        }
        if halt.is_some() {
            self.failure = halt;
            return false;
        }
        true
    }
}

/// A batch of records, or the input error that ended the input.
type Batch = Result<RawBatch, InputError>;

/// The writer thread: every batch in order, between the sink's start and flush. The sink is
/// also flushed whenever no batch waits to be written: on a stream that pauses, what was
/// worked on goes out at once (on a file, the batches' bytes mostly bypass the write buffer
/// anyway). Rendered batches' byte buffers go back to `spare` (a few at most).
fn write_batches<T>(
    batches: Receiver<Worked<T>>,
    sink: &mut (dyn Sink<T> + Send),
    spare: &Mutex<Vec<Vec<u8>>>,
) -> io::Result<()> {
    sink.start()?;
    loop {
        let worked = match batches.try_recv() {
            Ok(worked) => worked,
            Err(TryRecvError::Disconnected) => break,
            Err(TryRecvError::Empty) => {
                sink.flush()?;
                match batches.recv() {
                    Ok(worked) => worked,
                    Err(_) => break,
                }
            }
        };
        worked.write(sink)?;
        if worked.bytes.capacity() > 0 {
            if let Ok(mut spare) = spare.lock() {
                if spare.len() < SPARE {
                    spare.push(worked.bytes);
                }
            }
        }
    }
    sink.flush()
}

fn halted_at(path: String, h: Halt) -> PipelineError {
    PipelineError::Halted {
        path,
        line: h.line,
        message: h.message,
    }
}
