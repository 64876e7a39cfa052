//! Where batch calls run: the worker pool for a thread count, and the loop that hands the
//! pool one slice of a batch at a time with the GIL released, checking for Ctrl-C between
//! slices.
//!
//! The pool is not rayon's global one: a process forked after the global pool started (a
//! `multiprocessing` worker, a Spark executor's Python worker) inherits the pool's state but
//! none of its threads, and its first parallel call would wait forever. Each pool here
//! remembers the process that built it; a forked child sees another process id and builds its
//! own, leaving the parent's alone (its threads do not exist in the child, so there is nothing
//! to stop). The cache is only touched with the GIL held, and `os.fork` runs with the GIL
//! held too, so a fork never copies it half-changed.

use std::ops::Range;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rayon::prelude::*;
use rayon::ThreadPool;

/// Puzzles per work item: small enough for two threads to share out hard puzzles evenly,
/// large enough that scheduling costs nothing per puzzle.
pub const CHUNK: usize = 256;

/// Work between two Ctrl-C checks is sized to take about this long.
const SLICE_SECONDS: f64 = 0.05;

/// A work item is sized to take a worker about this long, at most [`CHUNK`] rows: a slice
/// ends when its last item does, so on hard puzzles items of [`CHUNK`] rows (1.5 ms of
/// top1465) left one worker idle at the end of each slice while the other finished.
const ITEM_SECONDS: f64 = 0.000_2;

/// The cached pool: its process, its thread count, the pool.
static POOL: Mutex<Option<(u32, usize, Arc<ThreadPool>)>> = Mutex::new(None);

/// The thread count of a call: `threads`, or `RAYON_NUM_THREADS` when set to a number above
/// 0, or every core.
pub fn thread_count(threads: Option<usize>) -> PyResult<usize> {
    match threads {
        Some(0) => Err(PyValueError::new_err(
            "threads must be at least 1 (or None: all cores)",
        )),
        Some(n) => Ok(n),
        None => Ok(std::env::var("RAYON_NUM_THREADS")
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
            .filter(|&n| n > 0)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))),
    }
}

/// A pool of `threads` workers for this process (`None` for one thread: the work then runs
/// on the calling thread). Called with the GIL held (see the module docs).
fn pool(_py: Python<'_>, threads: usize) -> PyResult<Option<Arc<ThreadPool>>> {
    if threads <= 1 {
        return Ok(None);
    }
    let pid = std::process::id();
    let mut cache = POOL.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((owner, n, pool)) = cache.as_ref() {
        if *owner == pid && *n == threads {
            return Ok(Some(pool.clone()));
        }
        if *owner != pid {
            // Inherited through fork: its threads are the parent's. Dropping it would wake
            // threads that do not exist here; let it go without a drop.
            std::mem::forget(cache.take());
        }
    }
    let built = sudoku_batch::pipeline::thread_pool(threads).map_err(|e| {
        PyValueError::new_err(format!("cannot start {threads} worker threads: {e}"))
    })?;
    let built = Arc::new(built);
    *cache = Some((pid, threads, built.clone()));
    Ok(Some(built))
}

/// Output rows that can be cut in two, so that each work item writes its own.
pub trait Rows: Send + Sized {
    /// The first `mid` rows and the rest.
    fn split_at(self, mid: usize) -> (Self, Self);
}

/// Run `work` over the rows `0..n` of `out`, at most [`CHUNK`] rows per call, in slices: each slice
/// with the GIL released and on `threads` workers, checking for Ctrl-C (and other signals
/// Python handles) between slices. Returns what each call returned, in row order. A signal's
/// exception ends the run after the slice in progress.
pub fn in_slices<O, T, F>(
    py: Python<'_>,
    n: usize,
    threads: usize,
    mut out: O,
    work: F,
) -> PyResult<Vec<T>>
where
    O: Rows,
    T: Send,
    F: Fn(Range<usize>, O) -> T + Sync,
{
    let pool = pool(py, threads)?;
    let mut done = Vec::with_capacity(n.div_ceil(CHUNK));
    let mut start = 0;
    // Slices start at one row per thread and grow at most fourfold a slice towards
    // SLICE_SECONDS of work at the rate seen, so that slow work (hard puzzles, the naive
    // solver) is interrupted as soon as fast work, and fast work soon runs in large slices.
    let mut size = threads.max(1);
    let mut item_rows = CHUNK;
    while start < n {
        let end = (start + size).min(n);
        let (mut rows, rest) = out.split_at(end - start);
        out = rest;
        let per_item = item_rows.min((end - start).div_ceil(threads.max(1)));
        let mut items = Vec::with_capacity((end - start).div_ceil(per_item));
        let mut at = start;
        while at < end {
            let k = per_item.min(end - at);
            let (these, others) = rows.split_at(k);
            items.push((at..at + k, these));
            rows = others;
            at += k;
        }
        let clock = Instant::now();
        py.detach(|| match &pool {
            Some(p) => p.install(|| {
                let mut results = Vec::with_capacity(items.len());
                items
                    .into_par_iter()
                    .map(|(range, rows)| work(range, rows))
                    .collect_into_vec(&mut results);
                done.extend(results);
            }),
            None => done.extend(items.into_iter().map(|(range, rows)| work(range, rows))),
        });
        py.check_signals()?;
        let seconds = clock.elapsed().as_secs_f64().max(1e-6);
        let rows_per_second = (end - start) as f64 / seconds;
        let target = (rows_per_second * SLICE_SECONDS) as usize;
        size = target.clamp(threads.max(1), (size * 4).min(1 << 20));
        let per_worker = rows_per_second / threads.max(1) as f64;
        item_rows = ((per_worker * ITEM_SECONDS) as usize).clamp(1, CHUNK);
        start = end;
    }
    Ok(done)
}

/// Nothing to write: work that only reads (its results come back from [`in_slices`]).
impl Rows for () {
    fn split_at(self, _: usize) -> ((), ()) {
        ((), ())
    }
}

/// One output array of `width` values per row.
pub struct Cells<'a, T> {
    /// The rows' values, row-major.
    pub values: &'a mut [T],
    /// Values per row.
    pub width: usize,
}

impl<'a, T> Cells<'a, T> {
    /// One value per row.
    pub fn one(values: &'a mut [T]) -> Self {
        Cells { values, width: 1 }
    }

    /// A grid of 81 values per row.
    pub fn grid(values: &'a mut [T]) -> Self {
        Cells {
            values,
            width: sudoku_batch::grid::CELLS,
        }
    }
}

impl<'a, T: Send> Rows for Cells<'a, T> {
    fn split_at(self, mid: usize) -> (Self, Self) {
        let (a, b) = self.values.split_at_mut(mid * self.width);
        let width = self.width;
        (Cells { values: a, width }, Cells { values: b, width })
    }
}
