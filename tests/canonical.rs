//! The fast canonical form against the exhaustive reference search on public datasets (listed
//! as ignored when ../shared/datasets is absent). `cargo test` checks a small evenly
//! spaced sample against the reference and all 49,158 17-clue puzzles for distinct forms
//! (about a second); the ignored test checks 10,000 puzzles against the reference (about a
//! minute; `.ci/run` runs it):
//!
//!     cargo test --release --test canonical -- --ignored

use std::collections::HashSet;

use rayon::prelude::*;
use sudoku_batch::engines::canonical::{reference, Canonicalizer};
use sudoku_batch::io::{load_puzzles, ReaderOptions};
use sudoku_batch::symmetry::{Rng, Symmetry};
use sudoku_batch::Grid;

mod common;
use common::dataset;

/// The sets compared with the reference: sparse, hard, random and generated puzzles.
const SETS: &[&str] = &[
    "puzzles2_17_clue",
    "kaggle1m_sample_first24997.csv",
    "puzzles3_magictour_top1465",
    "puzzles7_serg_benchmark",
    "tdoku_puzzles1_unbiased_first1000",
    "kaggle3m_radcliffe_first1000.csv",
    "sudoku_exchange_easy_500_with_solutions.txt",
    "kaggle9m_vopani_random_10000.csv",
    "puzzles5_forum_hardest_1905_11+",
    "sudoku_exchange_hard.txt",
];

/// `take` puzzles of each set, evenly spaced.
fn sample(take: usize) -> Vec<Grid> {
    let mut all = Vec::new();
    for name in SETS {
        let path = dataset(name);
        let (puzzles, _) = load_puzzles(&path, &ReaderOptions::default()).unwrap();
        let step = (puzzles.len() / take).max(1);
        all.extend(puzzles.into_iter().step_by(step).take(take));
    }
    all
}

/// Every puzzle's fast form equals the reference's, automorphisms included, and a random
/// isomorph gets the same. Returns how many puzzles had automorphisms.
fn check_against_reference(puzzles: &[Grid]) -> usize {
    puzzles
        .par_iter()
        .enumerate()
        .map_init(Canonicalizer::new, |search, (i, p)| {
            let fast = search.canonicalize(p);
            assert_eq!(fast, reference::canonicalize(p), "{p}");
            let q = Symmetry::random(&mut Rng::new(77, i as u64)).apply(p);
            assert_eq!(search.canonicalize(&q), fast, "isomorph {q} of {p}");
            usize::from(fast.automorphisms > 1)
        })
        .sum()
}

#[test]
#[cfg_attr(not(shared_datasets), ignore = "needs ../shared/datasets")]
fn sample_equals_the_reference() {
    let puzzles = sample(60);
    let symmetric = check_against_reference(&puzzles);
    eprintln!("{} puzzles, {symmetric} with automorphisms", puzzles.len());
}

#[test]
#[cfg_attr(
    shared_datasets,
    ignore = "about a minute on 2 cores: the reference search takes milliseconds per puzzle"
)]
#[cfg_attr(not(shared_datasets), ignore = "needs ../shared/datasets")]
fn ten_thousand_puzzles_equal_the_reference() {
    let puzzles = sample(1500);
    assert!(puzzles.len() >= 10_000, "{}", puzzles.len());
    let symmetric = check_against_reference(&puzzles);
    eprintln!("{} puzzles, {symmetric} with automorphisms", puzzles.len());
}

#[test]
#[cfg_attr(not(shared_datasets), ignore = "needs ../shared/datasets")]
fn the_17_clue_puzzles_have_distinct_forms() {
    let path = dataset("puzzles2_17_clue");
    let (puzzles, _) = load_puzzles(&path, &ReaderOptions::default()).unwrap();
    assert_eq!(puzzles.len(), 49_158);
    let mut search = Canonicalizer::new();
    let forms: HashSet<Grid> = puzzles
        .iter()
        .map(|p| {
            let form = search.canonicalize(p).form;
            assert_eq!(form.clues(), 17);
            form
        })
        .collect();
    assert_eq!(forms.len(), 49_158);
}
