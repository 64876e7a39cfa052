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

#[test]
fn rating_allocates_nothing() {
    let mut puzzles: Vec<(Grid, Grid)> = Vec::new();
    for (name, every) in [
        ("kaggle1m_sample_first24997.csv", 100),
        ("sudoku_exchange_hard.txt", 1000),
        ("sudoku_exchange_diabolical.txt", 400),
        ("puzzles3_magictour_top1465", 10),
        // Dynamic forcing chains (+) and nested ones: one of level 2 (9.5), one of level 3
        // (10.0).
        ("puzzles6_forum_hardest_1106", 300),
    ] {
        let Some(path) = common::dataset(name) else {
            continue;
        };
        let (ps, _) = load_puzzles(&path, &ReaderOptions::default()).expect("dataset");
        for p in ps.into_iter().step_by(every) {
            let out = solve_with_limit(&p, 2);
            if out.status == Status::Solved {
                puzzles.push((p, out.solution.expect("solved")));
            }
        }
    }
    // Nested forcing chains of level 4 (10.5): the first puzzle of their fixtures.
    let text = std::fs::read_to_string(common::fixture("rate/se-nested4.txt")).unwrap();
    let line = text
        .lines()
        .find(|l| !l.starts_with('#'))
        .expect("a fixture");
    let nested: Grid = line[..81].parse().unwrap();
    puzzles.push((nested, solve_with_limit(&nested, 2).solution.unwrap()));
    let easy: Grid =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
            .parse()
            .unwrap();
    puzzles.push((easy, solve_with_limit(&easy, 2).solution.unwrap()));
    for ladder in [Ladder::Se, Ladder::Sukaku, Ladder::SukakuDefault] {
        let mut rater = Rater::new(RateOptions {
            ladder,
            max_rating: None,
        });
        let (mut steps, mut chain_bytes) = (0u64, 0usize);
        let n = allocations(|| {
            for (p, s) in &puzzles {
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
        // Chains are on SE's ladder only; the datasets give it chain steps.
        if ladder == Ladder::Se && puzzles.len() > 1 {
            assert!(chain_bytes > 0, "no chain written");
        }
    }
    assert!(allocations(|| drop(std::hint::black_box(vec![1u8; 10]))) > 0);
}
