//! Where batch calls run: the worker pool for a thread count, and the run that hands its
//! workers a batch's rows an item at a time with the GIL released, checking for Ctrl-C while
//! they work.
//!
//! The pool is not rayon's global one: a process forked after the global pool started (a
//! `multiprocessing` worker, a Spark executor's Python worker) inherits the pool's state but
//! none of its threads, and its first parallel call would wait forever. Each pool here
//! remembers the process that built it; a forked child sees another process id and builds its
//! own, leaving the parent's alone (its threads do not exist in the child, so there is nothing
//! to stop). The cache is only touched with the GIL held, and `os.fork` runs with the GIL
//! held too, so a fork never copies it half-changed.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rayon::ThreadPool;

/// Puzzles per work item: small enough for two threads to share out hard puzzles evenly,
/// large enough that scheduling costs nothing per puzzle.
pub const CHUNK: usize = 256;

/// Ctrl-C is checked about this often.
const CHECK_SECONDS: f64 = 0.05;

/// A work item is sized to take a worker about this long, at most [`CHUNK`] rows: short
/// enough for a signal to stop the work soon, long enough that taking an item costs nothing.
const ITEM_SECONDS: f64 = 0.000_2;

/// The cached pool: its process, its thread count, the pool.
static POOL: Mutex<Option<(u32, usize, Arc<ThreadPool>)>> = Mutex::new(None);

/// A pool of `threads` workers for this process. Called with the GIL held (see the module
/// docs).
fn pool(_py: Python<'_>, threads: usize) -> PyResult<Arc<ThreadPool>> {
    let pid = std::process::id();
    let mut cache = POOL.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((owner, n, pool)) = cache.as_ref() {
        if *owner == pid && *n == threads {
            return Ok(pool.clone());
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
    Ok(built)
}

/// Output rows that can be cut in two, so that each work item writes its own.
pub trait Rows: Send + Sized {
    /// The first `mid` rows and the rest.
    fn split_at(self, mid: usize) -> (Self, Self);
}

/// What the workers of one call share: the rows not yet handed out, the item size, the
/// results so far.
struct Shared<O, T> {
    /// The first row not yet handed out.
    next: usize,
    /// The output rows from `next` on.
    rest: Option<O>,
    /// Rows per item at the rate seen so far.
    item_rows: usize,
    /// Each item's first row and result.
    done: Vec<(usize, T)>,
    /// A signal arrived: hand out no more items.
    stop: bool,
    /// Workers still running.
    busy: usize,
}

/// One call's rows, handed out to its workers an item at a time.
struct Items<O, T> {
    rows: usize,
    workers: usize,
    shared: Mutex<Shared<O, T>>,
    /// Signalled when the last worker leaves.
    finished: Condvar,
}

impl<O: Rows, T: Send> Items<O, T> {
    fn lock(&self) -> MutexGuard<'_, Shared<O, T>> {
        // A panic in `work` is raised in the caller once the workers are done; until then
        // the state stays usable.
        self.shared.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Take items and run `work` on them until the rows run out or a signal stops the call;
    /// `stop` is asked after each item whether to stop.
    fn work<F>(&self, work: &F, stop: &mut dyn FnMut() -> bool)
    where
        F: Fn(Range<usize>, O) -> T + Sync,
    {
        let _leaving = Leaving(self);
        let mut last: Option<(usize, usize, f64, T)> = None;
        loop {
            let (range, rows) = {
                let mut s = self.lock();
                if let Some((start, k, seconds, result)) = last.take() {
                    s.done.push((start, result));
                    let target = (k as f64 / seconds * ITEM_SECONDS) as usize;
                    s.item_rows = target.clamp(1, (k * 4).min(CHUNK));
                }
                if s.stop || s.next >= self.rows {
                    return;
                }
                let left = self.rows - s.next;
                let k = s.item_rows.min(left.div_ceil(2 * self.workers));
                let (these, others) = s.rest.take().expect("rows are left").split_at(k);
                s.rest = Some(others);
                let range = s.next..s.next + k;
                s.next += k;
                (range, these)
            };
            let clock = Instant::now();
            let (start, k) = (range.start, range.len());
            let result = work(range, rows);
            last = Some((start, k, clock.elapsed().as_secs_f64().max(1e-7), result));
            if stop() {
                self.lock().stop = true;
            }
        }
    }

    /// Work on the calling thread alone, checking for signals between items about every
    /// [`CHECK_SECONDS`] (with the GIL taken for the check only); a signal's exception goes
    /// to `signal`.
    fn work_here<F>(&self, work: &F, signal: &mut PyResult<()>)
    where
        F: Fn(Range<usize>, O) -> T + Sync,
    {
        let every = Duration::from_secs_f64(CHECK_SECONDS);
        let mut checked = Instant::now();
        self.work(work, &mut || {
            if signal.is_err() || checked.elapsed() < every {
                return false;
            }
            checked = Instant::now();
            *signal = Python::attach(|py| py.check_signals());
            signal.is_err()
        });
    }

    /// Wait for the workers, checking for signals every [`CHECK_SECONDS`] (with the GIL
    /// taken for the check only); the first signal's exception goes to `signal`, and raises
    /// `cancel` when given.
    fn watch(&self, signal: &mut PyResult<()>, cancel: Option<&AtomicBool>) {
        let every = Duration::from_secs_f64(CHECK_SECONDS);
        let mut s = self.lock();
        while s.busy > 0 {
            s = match self.finished.wait_timeout(s, every) {
                Ok((s, _)) => s,
                Err(e) => e.into_inner().0,
            };
            if s.busy > 0 && signal.is_ok() {
                drop(s);
                if let Err(e) = Python::attach(|py| py.check_signals()) {
                    *signal = Err(e);
                    self.lock().stop = true;
                    if let Some(cancel) = cancel {
                        cancel.store(true, Ordering::Relaxed);
                    }
                }
                s = self.lock();
            }
        }
    }
}

/// Marks a worker gone when dropped, however it leaves.
struct Leaving<'a, O: Rows, T: Send>(&'a Items<O, T>);

impl<O: Rows, T: Send> Drop for Leaving<'_, O, T> {
    fn drop(&mut self) {
        let mut s = self.0.lock();
        s.busy -= 1;
        if s.busy == 0 {
            self.0.finished.notify_all();
        }
    }
}

/// Run `work` over the rows `0..n` of `out`, at most [`CHUNK`] rows per call, on `threads`
/// workers with the GIL released, checking for Ctrl-C (and other signals Python handles)
/// about every [`CHECK_SECONDS`]. Returns what each call returned, in row order. A signal's
/// exception ends the run once the items in progress are done.
///
/// Each worker takes the next item from the rows left as soon as it has finished its last,
/// so no worker waits for another until the rows run out. An item is sized to take
/// [`ITEM_SECONDS`] at the rate seen (starting at one row and growing at most fourfold an
/// item, so that slow work, hard puzzles or the naive solver, is interrupted as soon as fast
/// work) and to at most a `2 × threads`-th of the rows left, so that the workers finish
/// together. With one thread the calling thread is the worker and checks for signals
/// between items; with more, it waits for the pool's workers and checks while it waits.
///
/// `cancel`, for work whose one row may take long (a generated puzzle's attempts): a signal
/// also raises it, the work checks it as it goes, and the work runs on the pool even with
/// one thread, so that the calling thread is free to watch for signals.
pub fn in_items<O, T, F>(
    py: Python<'_>,
    n: usize,
    threads: usize,
    cancel: Option<&AtomicBool>,
    out: O,
    work: F,
) -> PyResult<Vec<T>>
where
    O: Rows,
    T: Send,
    F: Fn(Range<usize>, O) -> T + Sync,
{
    let pool = if threads > 1 || cancel.is_some() {
        Some(pool(py, threads.max(1))?)
    } else {
        None
    };
    let workers = if pool.is_some() { threads.max(1) } else { 1 };
    let items = Items {
        rows: n,
        workers,
        shared: Mutex::new(Shared {
            next: 0,
            rest: Some(out),
            item_rows: 1,
            done: Vec::new(),
            stop: false,
            busy: workers,
        }),
        finished: Condvar::new(),
    };
    let mut signal = Ok(());
    py.detach(|| match &pool {
        Some(p) => p.in_place_scope(|scope| {
            for _ in 0..workers {
                scope.spawn(|_| items.work(&work, &mut || false));
            }
            items.watch(&mut signal, cancel);
        }),
        None => items.work_here(&work, &mut signal),
    });
    signal?;
    let mut done = items
        .shared
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .done;
    done.sort_unstable_by_key(|&(start, _)| start);
    Ok(done.into_iter().map(|(_, result)| result).collect())
}

/// Nothing to write: work that only reads (its results come back from [`in_items`]).
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
