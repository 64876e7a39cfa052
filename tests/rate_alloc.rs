//! Rating allocates nothing per puzzle: a counting global allocator watches this thread while
//! a rater, made once, rates puzzles of every kind, nested forcing chains of levels 2 to 4
//! included (with and without steps; with steps, the chains of chain steps are written into
//! text the rater reserved once).

mod common;

use common::counting::{allocations, Counting};

use sudoku_batch::engines::rater::{Ladder, RateOptions, Rater, Step, StepChain};
use sudoku_batch::engines::solver::{solve_with_limit, Status};
use sudoku_batch::io::{load_puzzles, ReaderOptions};
use sudoku_batch::Grid;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// A puzzle with its solution, when it has exactly one.
fn with_solution(p: Grid) -> Option<(Grid, Grid)> {
    let out = solve_with_limit(&p, 2);
    (out.status == Status::Solved).then(|| (p, out.solution.expect("solved")))
}

/// Nested forcing chains of level 4 (10.5), the first puzzle of their fixtures, and an easy
/// puzzle.
fn fixture_puzzles() -> Vec<(Grid, Grid)> {
    let text = std::fs::read_to_string(common::fixture("rate/se-nested4.txt")).unwrap();
    let line = text
        .lines()
        .find(|l| !l.starts_with('#'))
        .expect("a fixture");
    let easy = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    [&line[..81], easy]
        .iter()
        .map(|p| with_solution(p.parse().unwrap()).expect("unique"))
        .collect()
}

#[test]
fn rating_allocates_nothing() {
    assert_rating_allocates_nothing(&fixture_puzzles());
}

#[test]
#[cfg_attr(not(shared_datasets), ignore = "needs ../shared/datasets")]
fn rating_allocates_nothing_on_datasets() {
    let mut puzzles = Vec::new();
    for (name, every) in [
        ("kaggle1m_sample_first24997.csv", 100),
        ("sudoku_exchange_hard.txt", 1000),
        ("sudoku_exchange_diabolical.txt", 400),
        ("puzzles3_magictour_top1465", 10),
        // Dynamic forcing chains (+) and nested ones: one of level 2 (9.5), one of level 3
        // (10.0).
        ("puzzles6_forum_hardest_1106", 300),
    ] {
        let path = common::dataset(name);
        let (ps, _) = load_puzzles(&path, &ReaderOptions::default()).expect("dataset");
        puzzles.extend(ps.into_iter().step_by(every).filter_map(with_solution));
    }
    assert_rating_allocates_nothing(&puzzles);
}

/// One rater per ladder, made once, rates `puzzles` (with and without steps) without
/// allocating; on SE's ladder some steps are chains, written out.
fn assert_rating_allocates_nothing(puzzles: &[(Grid, Grid)]) {
    for ladder in [Ladder::Se, Ladder::Sukaku, Ladder::SukakuDefault] {
        let mut rater = Rater::new(RateOptions {
            ladder,
            max_rating: None,
        });
        let (mut steps, mut chain_bytes) = (0u64, 0usize);
        let n = allocations(|| {
            for (p, s) in puzzles {
                rater.rate(p, s);
                rater.rate_with_steps(p, s, &mut |step: &Step<'_>| {
                    steps += step.eliminations.len() as u64 + 1;
                    chain_bytes += match step.chain {
                        StepChain::None => 0,
                        StepChain::Single(text) => text.len(),
                        StepChain::Branches(b) => b.iter().map(str::len).sum(),
                    };
                });
            }
        });
        assert_eq!(n, 0, "{ladder}: {n} allocations");
        assert!(steps > 0);
        // Chains are on SE's ladder only; both sets give it chain steps.
        if ladder == Ladder::Se {
            assert!(chain_bytes > 0, "no chain written");
        }
    }
    assert!(allocations(|| drop(std::hint::black_box(vec![1u8; 10]))) > 0);
}
