//! The solvers on every public dataset in ../shared/datasets (listed as ignored when the
//! folder is absent). `cargo test` checks an evenly spaced sample of each large file; the
//! ignored test `every_puzzle_of_every_dataset` checks them all:
//!
//!     cargo test --release --test datasets -- --ignored

mod common;

use std::path::Path;

use common::datasets;

use sudoku_batch::engines::solver::{solve_with_limit, Algorithm, Limits, Status};
use sudoku_batch::io::{load_puzzles, Input, ReaderOptions, RecordReader};
use sudoku_batch::Grid;

/// Every puzzle file with its record count as SOURCES.md documents it, and whether its
/// puzzles have several solutions.
const FILES: &[(&str, usize, bool)] = &[
    ("kaggle1m_sample_first24997.csv", 24_997, false),
    ("kaggle1m_sample_10000_jerod92.csv", 10_000, false),
    ("kaggle3m_radcliffe_first1000.csv", 1_000, false),
    ("kaggle3m_radcliffe_sample_7034.csv", 7_034, false),
    ("kaggle3m_radcliffe_sample_5000_curated.csv", 5_000, false),
    ("kaggle9m_vopani_first10000.csv", 10_000, false),
    ("kaggle9m_vopani_random_10000.csv", 10_000, false),
    ("kaggle9m_vopani_random_2000.csv", 2_000, false),
    ("kaggle9m_vopani_random_500.csv", 500, false),
    ("norvig_easy50.txt", 50, false),
    ("norvig_hardest.txt", 11, false),
    ("norvig_top95.txt", 95, false),
    ("puzzles2_17_clue", 49_158, false),
    ("puzzles3_magictour_top1465", 1_465, false),
    ("puzzles5_forum_hardest_1905_11+", 48_766, false),
    ("puzzles6_forum_hardest_1106", 375, false),
    ("puzzles7_serg_benchmark", 10_000, true),
    ("sudoku_exchange_diabolical.txt", 119_681, false),
    ("sudoku_exchange_hard.txt", 321_592, false),
    ("sudoku_exchange_easy_500_with_solutions.txt", 500, false),
    ("sudoku_exchange_medium_500_with_solutions.txt", 500, false),
    ("sudoku_exchange_hard_500_with_solutions.txt", 500, false),
    (
        "sudoku_exchange_diabolical_500_with_solutions.txt",
        500,
        false,
    ),
    ("sudoku_exchange_hard1_500_with_solutions.txt", 500, false),
    ("sudoku_exchange_hard2_500_with_solutions.txt", 500, false),
    ("tdoku_puzzles1_unbiased_first1000", 1_000, false),
];

/// Check up to `sample` records of one file (evenly spaced; all when `sample` is `None`).
/// Returns the number of puzzles checked.
fn check_file(dir: &Path, name: &str, rows: usize, multiple: bool, sample: Option<usize>) -> usize {
    let path = dir.join(name);
    let records: Vec<_> = RecordReader::open(&Input::Path(path.clone()), &ReaderOptions::default())
        .unwrap_or_else(|e| panic!("{e}"))
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(records.len(), rows, "{name}: record count");
    let step = sample.map_or(1, |s| records.len().div_ceil(s).max(1));
    let mut checked = 0;
    for record in records.iter().step_by(step) {
        let at = format!("{name}:{}", record.line);
        let puzzle = record
            .puzzle
            .as_ref()
            .unwrap_or_else(|e| panic!("{at}: {e}"));
        let out = solve_with_limit(puzzle, 2);
        let solution = out
            .solution
            .unwrap_or_else(|| panic!("{at}: {:?}", out.status));
        assert!(
            solution.is_solution_of(puzzle),
            "{at}: bad solution {solution}"
        );
        let want = if multiple {
            Status::Multiple
        } else {
            Status::Solved
        };
        assert_eq!(out.status, want, "{at}");
        if let Some(published) = &record.solution {
            let published = published.as_ref().unwrap_or_else(|e| panic!("{at}: {e}"));
            assert_eq!(
                &solution, published,
                "{at}: differs from the published solution"
            );
        }
        // The other branching rules agree (on unique puzzles, to the byte).
        for alg in [Algorithm::Bands, Algorithm::Hybrid] {
            let other = alg.solve(puzzle, &Limits::solutions(2));
            assert_eq!(
                (other.status, other.solutions),
                (out.status, out.solutions),
                "{at} {alg}"
            );
            if !multiple {
                assert_eq!(other.solution, out.solution, "{at} {alg}");
            }
        }
        // Limit 1 finds a valid solution too (the same one on unique puzzles).
        let first = solve_with_limit(puzzle, 1);
        assert_eq!(first.status, Status::Solved, "{at}");
        let first = first.solution.unwrap();
        assert!(first.is_solution_of(puzzle), "{at}");
        if !multiple {
            assert_eq!(first, solution, "{at}");
        }
        checked += 1;
    }
    checked
}

#[test]
#[cfg_attr(not(shared_datasets), ignore = "needs ../shared/datasets")]
fn sampled_puzzles_of_every_dataset() {
    let dir = datasets();
    let mut total = 0;
    for &(name, rows, multiple) in FILES {
        total += check_file(&dir, name, rows, multiple, Some(2_000));
    }
    eprintln!("checked {total} puzzles");
}

#[test]
#[cfg_attr(
    shared_datasets,
    ignore = "checks all 700k puzzles: run with --ignored in release mode"
)]
#[cfg_attr(not(shared_datasets), ignore = "needs ../shared/datasets")]
fn every_puzzle_of_every_dataset() {
    let dir = datasets();
    let mut total = 0;
    for &(name, rows, multiple) in FILES {
        total += check_file(&dir, name, rows, multiple, None);
    }
    eprintln!("checked {total} puzzles");
}

#[test]
#[cfg_attr(not(shared_datasets), ignore = "needs ../shared/datasets")]
fn baselines_agree_with_the_fast_solver_on_real_puzzles() {
    let dir = datasets();
    // Easy Kaggle puzzles for the naive solver; hard ones for MRV (with no propagation it is
    // still fast enough on top95's first puzzles).
    let options = ReaderOptions::default();
    let (kaggle, _) = load_puzzles(&dir.join("kaggle1m_sample_first24997.csv"), &options).unwrap();
    let (top95, _) = load_puzzles(&dir.join("norvig_top95.txt"), &options).unwrap();
    let check = |alg: Algorithm, puzzles: &[Grid]| {
        for p in puzzles {
            let fast = solve_with_limit(p, 2);
            let other = alg.solve(p, &Limits::solutions(2));
            assert_eq!(
                (other.status, other.solution),
                (fast.status, fast.solution),
                "{alg} {p}"
            );
            assert!(
                other.nodes >= fast.nodes,
                "{alg} {p}: {} < {}",
                other.nodes,
                fast.nodes
            );
        }
    };
    check(Algorithm::Naive, &kaggle[..200]);
    check(Algorithm::Mrv, &kaggle[..200]);
    check(Algorithm::Mrv, &top95[..5]);
}
