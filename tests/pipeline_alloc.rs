//! The record path allocates per batch, not per record: a counting global allocator (every
//! thread) watches whole `solve` pipeline runs (reader thread, parsing and solving on the
//! workers, collect step, writer) over a line file and a CSV file of N and of 4N records.

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};

use sudoku_batch::engines::solver::{Algorithm, Limits};
use sudoku_batch::io::{Input, OutputFormat, ReaderOptions, RecordReader};
use sudoku_batch::jobs::records::RecordFormat;
use sudoku_batch::jobs::solve::{self, FoldFine, SolveFormat, SolveWork, SolveWriter};
use sudoku_batch::pipeline::{self, NoProgress, OnWorkers, BATCH};
use sudoku_batch::stats::RunStats;

struct Counting;

static COUNT: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        COUNT.fetch_add(1, Ordering::Relaxed);
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        COUNT.fetch_add(1, Ordering::Relaxed);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const PUZZLES: [&str; 3] = [
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
    "..9..5.1.85.4....2432......1...69.83.9.....6.62.71...9......1945....4.37.4.3..6..",
    ".....6....59.....82....8....45........3........6..3.54...325..6..................",
];

/// A file of `n` records: puzzle lines, or `puzzle,solution` CSV rows.
fn input(dir: &std::path::Path, n: usize, csv: bool) -> Input {
    let path = dir.join(format!("in-{n}-{csv}"));
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    if csv {
        writeln!(out, "puzzle,solution").unwrap();
    }
    for i in 0..n {
        let p = PUZZLES[i % PUZZLES.len()];
        if csv {
            writeln!(out, "{p},").unwrap();
        } else {
            writeln!(out, "{p}").unwrap();
        }
    }
    out.flush().unwrap();
    Input::Path(path)
}

/// Allocations of one 2-thread solve run over `input`, and the records it wrote.
fn allocations(input: &Input) -> (u64, u64) {
    let reader = RecordReader::open(input, &ReaderOptions::default()).unwrap();
    let limits = Limits::solutions(1);
    let mut writer = SolveWriter::new(std::io::sink(), SolveFormat::new(OutputFormat::Line), false);
    let mut stats = RunStats::default();
    let line = SolveFormat::line_render();
    let before = COUNT.load(Ordering::Relaxed);
    // As `solve --format line` runs: the line records rendered and counted on the workers.
    let records = pipeline::run_rendered(
        reader,
        2,
        BATCH,
        &SolveWork {
            algorithm: Algorithm::Fast,
            limits,
            keep: false,
        },
        OnWorkers {
            render: Some(&line),
            fold: Some(&FoldFine {
                file: "in",
                limit: 1,
            }),
        },
        |r| {
            solve::tally(&mut stats, r);
            Ok(())
        },
        &mut writer,
        &NoProgress,
    )
    .unwrap()
    .records;
    (COUNT.load(Ordering::Relaxed) - before, records)
}

#[test]
fn allocations_grow_with_batches_not_records() {
    let dir = tempfile::tempdir().unwrap();
    for csv in [false, true] {
        let n = 8 * BATCH;
        let (small, small_records) = allocations(&input(dir.path(), n, csv));
        let (large, large_records) = allocations(&input(dir.path(), 4 * n, csv));
        assert_eq!((small_records, large_records), (n as u64, 4 * n as u64));
        let extra_records = (3 * n) as f64;
        let per_record = large.saturating_sub(small) as f64 / extra_records;
        eprintln!("csv {csv}: {small} allocations for {n} records, {large} for {}: {per_record:.4} per record", 4 * n);
        // A few allocations per batch of 4096 records (the batch buffers, the results, the
        // channel): far below one per 100 records. One per record would be 1.0.
        assert!(per_record < 0.01, "{per_record:.4} allocations per record");
    }
}
