//! The threaded run: a reader thread fills batches, the pool works on a few at once, the
//! calling thread collects them in input order, and a writer thread writes them.

use std::collections::BTreeMap;
use std::io;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, sync_channel, Receiver, Sender, SyncSender, TryRecvError};
use std::sync::Mutex;
use std::thread::JoinHandle;

use super::blocks::Worked;
use super::pace::Tally;
use super::{halted_at, Fold, Halt, PipelineError, Sink, Stages, Work};
use crate::error::InputError;
use crate::io::reader::{RawBatch, RecordReader};

/// Byte buffers the writer keeps for the workers: as many as can be in flight at once (the
/// reader's and writer's queues and the batches worked on), so none is made twice.
const SPARE: usize = 12;

/// Batches worked on at once beyond one per worker, for up to 4 workers (see [`in_flight`]).
const IN_FLIGHT: u64 = 2;

impl<T: Send, W: Work<T>, F: Fold<T>> Stages<'_, T, W, F> {
    /// The threaded pipeline, from its first batch on (full, or all a stream had sent).
    ///
    /// The reader thread owns `reader`: when the run stops early (a halt, a write error), it
    /// is left to end on its own rather than waited for, since it may be blocked reading a
    /// slow stream (`tail -f ... | sudoku-batch solve --strict` must report at once).
    pub(super) fn threaded(
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
        let ready: Ready<T> = Mutex::new(BTreeMap::new());
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
                            let task = (batch, sent, event_tx.clone());
                            self.spawn_batch(scope, task, &ready, &stopped);
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
                if !self.collect_ready(&ready, &mut next, collect, &mut ended, out) {
                    return stop(ended);
                }
            }
        })
    }

    /// Work on batch number `seq` as a task of `scope`: the worked batch goes into `ready`
    /// and the event sender is told (or told of a panic, which the scope then re-raises). A
    /// task that starts after a stop does nothing.
    fn spawn_batch<'s>(
        &'s self,
        scope: &rayon::Scope<'s>,
        (batch, seq, events): (RawBatch, u64, Sender<Event>),
        ready: &'s Ready<T>,
        stopped: &'s AtomicBool,
    ) {
        scope.spawn(move |_| {
            if stopped.load(Ordering::Relaxed) {
                return;
            }
            let worked = panic::catch_unwind(AssertUnwindSafe(|| self.work_batch(batch)));
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
    }

    /// Collect the worked batches in `ready` that come next in input order, and hand them on
    /// to the writer; false when the run stops here.
    fn collect_ready(
        &self,
        ready: &Ready<T>,
        next: &mut u64,
        collect: &mut (impl FnMut(&mut T) -> Result<(), Halt> + Send),
        ended: &mut Ended,
        out: &SyncSender<Worked<T>>,
    ) -> bool {
        loop {
            let Some(done) = lock(ready).remove(next) else {
                return true;
            };
            *next += 1;
            let collected = done.collect(collect);
            if !ended.hand_on(collected, &self.tally, out) {
                return false;
            }
        }
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
                        if !ended.hand_on(collected, &self.tally, out) {
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
                if !ended.hand_on(c, &self.tally, out) {
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

/// Worked batches by number, until collected.
type Ready<T> = Mutex<BTreeMap<u64, Worked<T>>>;

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
        tally: &Tally<'_>,
        out: &SyncSender<Worked<T>>,
    ) -> bool {
        self.records += done.records as u64;
        tally.report();
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
