//! The batch pipeline: a reader thread fills bounded batches, the rayon pool solves each batch
//! (order kept by rayon's indexed `collect_into_vec`), a writer thread writes them in input
//! order. At most a few batches are in flight, so memory stays flat whatever the input size.
//!
//! ```text
//!  reader thread ──batch──▶ [2] ──▶ solve (rayon, N threads) ──▶ [2] ──▶ writer thread
//! ```

use std::io;
use std::sync::mpsc::sync_channel;

use rayon::prelude::*;
use thiserror::Error;

use crate::error::InputError;
use crate::io::reader::{Record, RecordReader};
use crate::io::writer::SolvedRecord;
use crate::solver::{Algorithm, Limits};
use crate::stats::RunStats;

/// How to solve.
#[derive(Clone, Copy, Debug)]
pub struct PipelineConfig {
    /// The solver.
    pub algorithm: Algorithm,
    /// Solutions to look for per puzzle (1 finds one, 2 proves uniqueness, N counts to N).
    pub limit: u32,
    /// Solver threads (1 solves on the calling thread).
    pub threads: usize,
    /// Records per batch.
    pub batch: usize,
}

impl Default for PipelineConfig {
    fn default() -> Self {
        PipelineConfig {
            algorithm: Algorithm::Fast,
            limit: 1,
            threads: 1,
            batch: 4096,
        }
    }
}

/// Told about the run's progress once per batch. The default does nothing.
pub trait Progress: Sync {
    /// Records processed so far in this input (after a batch was done).
    fn update(&self, _records: u64) {}
}

/// A progress sink that ignores everything.
pub struct NoProgress;
impl Progress for NoProgress {}

pub use crate::io::Sink;

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

/// Run `collect` over `done` in order; at the first [`Halt`], drop that record and the ones
/// after it (so only those before it are written).
fn collect_batch<T>(
    done: &mut Vec<T>,
    collect: &mut impl FnMut(&mut T) -> Result<(), Halt>,
) -> Option<Halt> {
    for (i, item) in done.iter_mut().enumerate() {
        if let Err(halt) = collect(item) {
            done.truncate(i);
            return Some(halt);
        }
    }
    None
}

/// Solve one record (a malformed record gets no outcome).
pub fn solve_record(record: Record, algorithm: Algorithm, limits: &Limits<'_>) -> SolvedRecord {
    let outcome = record
        .puzzle
        .as_ref()
        .ok()
        .map(|p| algorithm.solve(p, limits));
    SolvedRecord { record, outcome }
}

/// Count one result into `stats`.
pub fn tally(stats: &mut RunStats, r: &SolvedRecord) {
    match &r.outcome {
        Some(o) => stats.add_outcome(o),
        None => stats.add_malformed(),
    }
}

/// A rayon pool of `threads` workers, or `None` for one thread (work then runs on the caller).
pub fn worker_pool(
    threads: usize,
) -> Result<Option<rayon::ThreadPool>, rayon::ThreadPoolBuildError> {
    if threads > 1 {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map(Some)
    } else {
        Ok(None)
    }
}

/// Apply `work` to one batch, in parallel on `pool` when there is one; results keep the
/// input order.
fn work_batch<T: Send>(
    records: Vec<Record>,
    pool: Option<&rayon::ThreadPool>,
    work: &(dyn Fn(Record) -> T + Sync),
) -> Vec<T> {
    let mut done = Vec::with_capacity(records.len());
    match pool {
        Some(pool) => pool.install(|| {
            records
                .into_par_iter()
                .with_min_len(16)
                .map(work)
                .collect_into_vec(&mut done)
        }),
        None => done.extend(records.into_iter().map(work)),
    }
    done
}

/// The generic pipeline: `work` on every record (in parallel), then, in input order, `collect`
/// on the calling thread (totals, cross-record checks, messages) and `sink` on the writer
/// thread. On an input error the records before it are still collected and written; when
/// `collect` returns a [`Halt`], the records before that one are written and the run stops
/// with [`PipelineError::Halted`].
///
/// An input that fits in one batch is handled on the calling thread (no reader or writer
/// thread to start: small files finish sooner); larger ones go through the threaded pipeline.
/// The reader thread owns `reader`: when the run stops early (a halt, a write error), it is
/// left to end on its own rather than waited for, since it may be blocked reading a slow
/// stream (`tail -f ... | sudoku-batch solve --strict` must report at once).
pub fn run_stages<T: Send>(
    mut reader: RecordReader,
    threads: usize,
    batch: usize,
    work: &(dyn Fn(Record) -> T + Sync),
    mut collect: impl FnMut(&mut T) -> Result<(), Halt>,
    sink: &mut (dyn Sink<T> + Send),
    progress: &dyn Progress,
) -> Result<(), PipelineError> {
    let pool = worker_pool(threads)?;
    let batch = batch.max(1);
    let mut records_done = 0u64;
    let mut first = Vec::new();
    let first_read = reader.read_batch(&mut first, batch);
    if !matches!(first_read, Ok(n) if n == batch) {
        let mut done = work_batch(first, pool.as_ref(), work);
        let halt = collect_batch(&mut done, &mut collect);
        progress.update(done.len() as u64);
        let written = sink
            .start()
            .and_then(|()| done.iter().try_for_each(|r| sink.write(r)));
        written
            .and_then(|()| sink.flush())
            .map_err(PipelineError::Output)?;
        if let Some(h) = halt {
            return Err(halted_at(reader.label().to_string(), h));
        }
        return first_read.map(|_| ()).map_err(PipelineError::Input);
    }
    let label = reader.label().to_string();
    let (batch_tx, batch_rx) = sync_channel::<Result<Vec<Record>, InputError>>(2);
    let (out_tx, out_rx) = sync_channel::<Vec<T>>(2);
    batch_tx.send(Ok(first)).expect("the receiver is alive");
    let reading = std::thread::Builder::new()
        .name("reader".into())
        .spawn(move || loop {
            // Grown as filled, not reserved: most batches are full, but memory stays honest.
            let mut records = Vec::new();
            match reader.read_batch(&mut records, batch) {
                Ok(0) => break,
                Ok(_) => {
                    if batch_tx.send(Ok(records)).is_err() {
                        break;
                    }
                }
                Err(e) => {
                    // Send what was read before the failure, then the failure.
                    if !records.is_empty() && batch_tx.send(Ok(records)).is_err() {
                        break;
                    }
                    let _ = batch_tx.send(Err(e));
                    break;
                }
            }
        })
        .map_err(PipelineError::Spawn)?;
    std::thread::scope(|scope| {
        let writing = scope.spawn(move || -> io::Result<()> {
            sink.start()?;
            for done in out_rx {
                for r in &done {
                    sink.write(r)?;
                }
            }
            sink.flush()
        });

        let mut failure = None;
        let mut input_error = None;
        for message in batch_rx {
            let records = match message {
                Ok(records) => records,
                Err(e) => {
                    input_error = Some(PipelineError::Input(e));
                    break;
                }
            };
            let mut done = work_batch(records, pool.as_ref(), work);
            let halt = collect_batch(&mut done, &mut collect);
            records_done += done.len() as u64;
            progress.update(records_done);
            if out_tx.send(done).is_err() {
                break; // the writer stopped: its error is reported below
            }
            if let Some(h) = halt {
                failure = Some(h);
                break;
            }
        }
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
            (Ok(()), None, None) => Ok(()),
        }
    })
}

fn halted_at(path: String, h: Halt) -> PipelineError {
    PipelineError::Halted {
        path,
        line: h.line,
        message: h.message,
    }
}
