//! Solving allocates nothing: a counting global allocator watches this thread while thousands
//! of puzzles are solved by every algorithm and solution limit.

mod common;

use common::counting::{allocations, Counting};

use sudoku_batch::engines::solver::simd::SimdPath;
use sudoku_batch::engines::solver::{Algorithm, Limits, Status};
use sudoku_batch::io::{load_puzzles, ReaderOptions};
use sudoku_batch::Grid;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Puzzles of the public datasets: sparse, hard, with many solutions, easy.
fn dataset_puzzles() -> Vec<Grid> {
    let mut out = Vec::new();
    for (name, take) in [
        ("puzzles2_17_clue", 2000),
        ("puzzles3_magictour_top1465", 1000),
        ("puzzles7_serg_benchmark", 500),
        ("kaggle1m_sample_first24997.csv", 500),
    ] {
        let (p, _) = load_puzzles(&common::dataset(name), &ReaderOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        out.extend(p.into_iter().take(take));
    }
    out
}

/// `puzzles`, then the LeetCode example, a contradiction and an empty grid over and over, up
/// to 3,000 puzzles in all. The last 30 are easy either way (the datasets' last are Kaggle's).
fn padded(mut puzzles: Vec<Grid>) -> Vec<Grid> {
    let leetcode: Grid =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
            .parse()
            .unwrap();
    let mut invalid = leetcode;
    invalid.set(2, 3);
    while puzzles.len() < 3000 {
        puzzles.extend([leetcode, invalid, Grid::EMPTY]);
    }
    puzzles
}

#[test]
fn solving_allocates_nothing() {
    assert_solving_allocates_nothing(&padded(Vec::new()));
}

#[test]
#[cfg_attr(not(shared_datasets), ignore = "needs ../shared/datasets")]
fn solving_allocates_nothing_on_datasets() {
    assert_solving_allocates_nothing(&padded(dataset_puzzles()));
}

/// Every algorithm and solution limit solves `puzzles` without allocating (the naive
/// baselines only the last 30, easy ones: see [`padded`]).
fn assert_solving_allocates_nothing(puzzles: &[Grid]) {
    // The SIMD path is chosen once per process, reading SUDOKU_BATCH_SIMD (whose value is
    // copied into a String when set): do that before counting, as a program's start does.
    let _ = SimdPath::active();
    let mut solved = 0u64;
    for alg in [Algorithm::Fast, Algorithm::Bands, Algorithm::Hybrid] {
        for limit in [1, 2, 10] {
            let n = allocations(|| {
                for p in puzzles {
                    let out = alg.solve(p, &Limits::solutions(limit));
                    solved += u64::from(out.status != Status::Invalid);
                }
            });
            assert_eq!(n, 0, "{alg}, limit {limit}: {n} allocations");
        }
    }
    assert!(solved >= 9 * 2000, "only {solved} puzzles were solved");
    let easy = &puzzles[puzzles.len() - 30..];
    for alg in [Algorithm::Mrv, Algorithm::Naive] {
        let n = allocations(|| {
            for p in easy {
                alg.solve(p, &Limits::solutions(2));
            }
        });
        assert_eq!(n, 0, "{alg}: {n} allocations");
    }
    // The counter works: a Vec allocates.
    assert!(allocations(|| drop(std::hint::black_box(vec![1u8; 10]))) > 0);
}
