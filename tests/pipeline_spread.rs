//! Slow records keep every worker busy and the progress sink current, however small the file:
//! a file of a few hard puzzles is one block of lines, which used to go to one worker whole
//! (the others idle) and be counted only once it was done. The pieces are sized by the time
//! records take (`src/pipeline/pace.rs`); these tests hold the work of one record until the
//! pipeline has done what it must do meanwhile (another worker started a record, the progress
//! sink heard of one), with a bound that fails the test instead of hanging it.

mod common;

use std::sync::{Condvar, Mutex};
use std::thread::ThreadId;
use std::time::Duration;

use sudoku_batch::io::{Input, ReaderOptions, Record, RecordReader};
use sudoku_batch::pipeline::{self, Discard, Halt, Progress};

const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/// How long a held record waits for what it waits for before the test fails.
const BOUND: Duration = Duration::from_secs(10);

/// A line file of `n` copies of one puzzle: the first line read alone (for a BOM), the others
/// one block of lines for `n` up to ~60.
fn file(dir: &std::path::Path, n: usize) -> Input {
    common::copies_file(dir, PUZZLE, n)
}

/// A count that threads wait on.
#[derive(Default)]
struct Count {
    value: Mutex<u64>,
    changed: Condvar,
}

impl Count {
    fn raise_to(&self, to: u64) {
        let mut value = self.value.lock().unwrap();
        *value = (*value).max(to);
        self.changed.notify_all();
    }

    /// Whether the count reached `at_least` within [`BOUND`].
    fn wait_for(&self, at_least: u64) -> bool {
        let value = self.value.lock().unwrap();
        let (value, _) = self
            .changed
            .wait_timeout_while(value, BOUND, |v| *v < at_least)
            .unwrap();
        *value >= at_least
    }
}

/// The workers that have started a record, which records wait on.
#[derive(Default)]
struct Workers {
    seen: Mutex<Vec<ThreadId>>,
    changed: Condvar,
}

impl Workers {
    /// Note this thread's record, then whether records started on `n` threads within
    /// [`BOUND`].
    fn arrive_and_wait(&self, n: usize) -> bool {
        let mut seen = self.seen.lock().unwrap();
        let me = std::thread::current().id();
        if !seen.contains(&me) {
            seen.push(me);
            self.changed.notify_all();
        }
        let (seen, _) = self
            .changed
            .wait_timeout_while(seen, BOUND, |seen| seen.len() < n)
            .unwrap();
        seen.len() >= n
    }
}

impl Progress for Count {
    fn update(&self, records: u64) {
        self.raise_to(records);
    }
}

/// What one record's work saw: its line, the worker it ran on, and whether what it waited for
/// came within the bound.
type Seen = (u64, ThreadId, bool);

/// Run `work` over `input` with `threads` workers; the results in input order.
fn run(
    input: &Input,
    threads: usize,
    work: impl Fn(Record) -> Seen + Sync,
    progress: &dyn Progress,
) -> Vec<Seen> {
    let reader = RecordReader::open(input, &ReaderOptions::default()).unwrap();
    let mut seen = Vec::new();
    let collect = |r: &mut Seen| -> Result<(), Halt> {
        seen.push(*r);
        Ok(())
    };
    let records = pipeline::run_stages(
        reader,
        threads,
        pipeline::BATCH,
        &work,
        collect,
        &mut Discard,
        progress,
    )
    .unwrap();
    assert_eq!(records as usize, seen.len());
    seen
}

#[test]
fn a_small_file_of_slow_records_keeps_both_workers_busy() {
    let dir = tempfile::tempdir().unwrap();
    let input = file(dir.path(), 8);
    let workers = Workers::default();
    // Each record of the block waits until the block's records have started on both workers:
    // with the block on one worker alone that never happens (the wait runs out and the
    // record says so).
    let work = |r: Record| {
        let met = r.line == 1 || workers.arrive_and_wait(2);
        (r.line, std::thread::current().id(), met)
    };
    let seen = run(&input, 2, work, &pipeline::NoProgress);
    let lines: Vec<u64> = seen.iter().map(|s| s.0).collect();
    assert_eq!(lines, (1..=8).collect::<Vec<u64>>(), "input order");
    assert!(seen.iter().all(|s| s.2), "a record waited alone: {seen:?}");
}

#[test]
fn progress_counts_records_as_they_finish() {
    let dir = tempfile::tempdir().unwrap();
    for threads in [1, 2] {
        let input = file(dir.path(), 6);
        let progress = Count::default();
        // The last record waits until the progress sink heard of a record done: before, it
        // heard only once the whole batch (here the whole file) was done.
        let work = |r: Record| {
            let met = r.line < 6 || progress.wait_for(1);
            (r.line, std::thread::current().id(), met)
        };
        let seen = run(&input, threads, work, &progress);
        assert!(seen.iter().all(|s| s.2), "{threads} threads: {seen:?}");
        assert_eq!(*progress.value.lock().unwrap(), 6, "{threads} threads");
    }
}
