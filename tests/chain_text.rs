//! What `--steps` says of chain steps: their sentence, houses and cells, one fixture per
//! chain kind; and, over samples, that every cell a step's chains name is among its cells
//! and every cell it places in or removes from is named by its sentence.

mod common;

use sudoku_batch::engines::rater::{Difficulty, RateOptions, Rater, Step, StepChain};
use sudoku_batch::engines::solver::{solve_with_limit, Status};
use sudoku_batch::io::{load_puzzles, ReaderOptions};
use sudoku_batch::Grid;

/// A step as the tests read it.
struct Seen {
    technique: String,
    /// The cells solved before it (givens and placements).
    solved: u128,
    houses: String,
    cells: Vec<String>,
    text: String,
    chains: Vec<String>,
    /// The cells it places in or removes from.
    changed: Vec<String>,
}

fn name(cell: u8) -> String {
    format!("r{}c{}", cell / 9 + 1, cell % 9 + 1)
}

fn seen(step: &Step<'_>, solved: u128) -> Seen {
    let chains = match step.chain {
        StepChain::None => vec![],
        StepChain::Single(s) => vec![s.to_string()],
        StepChain::Branches(b) => b.iter().map(str::to_string).collect(),
    };
    let houses: Vec<String> = step.houses.iter().map(|h| h.to_string()).collect();
    let placed = step.placements.iter().map(|p| p.cell);
    let removed = step.eliminations.iter().map(|e| e.cell);
    Seen {
        technique: step.technique.name().to_string(),
        solved,
        houses: houses.join(" "),
        cells: step.cells.iter().map(|&c| name(c)).collect(),
        text: step.text.to_string(),
        chains,
        changed: placed.chain(removed).map(name).collect(),
    }
}

/// The steps of `puzzle`'s path, up to `max` (a difficulty) when given.
fn steps(puzzle: &Grid, max: Option<Difficulty>) -> Vec<Seen> {
    let outcome = solve_with_limit(puzzle, 2);
    assert_eq!(outcome.status, Status::Solved, "{}", puzzle.to_line());
    let solution = outcome.solution.expect("solved");
    let mut rater = Rater::new(RateOptions {
        max_rating: max,
        ..RateOptions::default()
    });
    let mut out = Vec::new();
    let mut solved = (0..81).fold(0u128, |s, c| s | u128::from(puzzle.cells()[c] != 0) << c);
    rater.rate_with_steps(puzzle, &solution, &mut |s| {
        out.push(seen(s, solved));
        solved |= s.placements.iter().fold(0, |m, p| m | 1u128 << p.cell);
    });
    out
}

/// (puzzle, step number, technique, houses, cells, sentence): puzzles 1, 2 and 12 of
/// magictour's top1465 and the first of `tests/fixtures/rate/se-nested4.txt`.
const FIXTURES: &[(&str, usize, &str, &str, &str, &str)] = &[
    (TOP1, 26, "Turbot Fish", "c4 c7", "r5c9 r6c7 r3c7 r3c4 r5c4",
     "Turbot Fish through r5c9, r6c7, r3c7, r3c4 and r5c4: if r5c9 were 4, it could not be 4, so 4 is removed from r5c9."),
    (TOP12, 53, "Bidirectional Cycle", "r3 r5 c3 c7 b4", "r3c2 r5c2 r5c3 r8c3 r8c8 r9c7 r3c7",
     "Bidirectional Cycle on 1, 4 and 6 through r3c2, r5c2, r5c3, r8c3, r8c8, r9c7 and r3c7: its strong and weak links alternate all the way round, so one end of each weak link is true: 1 is removed from r8c1 and r8c9."),
    (TOP2, 8, "Nishio Forcing Chains", "", "r9c2 r1c2 r1c9 r3c7 r6c1 r6c5 r7c1 r7c5 r7c7 r8c1 r9c1 r9c5 r9c7",
     "Nishio Forcing Chains: if r9c2 were 2, r7c7 would have to be both 2 and not 2, so 2 is removed from r9c2."),
    (TOP2, 49, "Cell Forcing Chains", "", "r7c5 r7c3 r7c1 r2c5 r2c8 r2c7 r7c7",
     "Cell Forcing Chains from r7c5 (1, 2 or 5): each candidate leads to r7c3 not being 1, so 1 is removed from r7c3."),
    (TOP1, 28, "Region Forcing Chains", "c4", "r1c4 r1c6 r3c4 r5c4 r5c6 r2c6 r2c9 r1c9",
     "Region Forcing Chains on 9 in column 4 (r1c4, r3c4 or r5c4): wherever 9 goes there, r1c6 is not 9, so 9 is removed from r1c6."),
    (TOP1, 33, "Dynamic Contradiction Forcing Chains", "", "r2c9 r3c8 r5c8 r4c7 r1c7 r1c8 r2c8 r2c6 r2c2",
     "Dynamic Contradiction Forcing Chains: if r2c9 were 7, r1c7 would have to be both 5 and not 5, so 7 is removed from r2c9."),
    (TOP2, 43, "Dynamic Double Forcing Chains", "", "r2c9 r9c9 r9c4 r3c4 r4c4 r4c6 r4c5 r2c5 r2c8",
     "Dynamic Double Forcing Chains: whether r2c9 is 8 or not, r2c9 is not 7, so 7 is removed from r2c9."),
    (TOP2, 28, "Dynamic Region Forcing Chains (+)", "r6", "r6c5 r5c6 r6c6 r6c7 r4c7",
     "Dynamic Region Forcing Chains (+) on 4 in row 6 (r6c5, r6c6 or r6c7): wherever 4 goes there, r5c6 is not 7, so 7 is removed from r5c6. A link marked ~ is a removal made by a basic rule (an intersection, a hidden or naked pair, an X-Wing) on the grid the assumption has reduced."),
    (NESTED4, 3, "Dynamic Contradiction Forcing Chains (+ Forcing Chains)", "",
     "r2c9 r1c9 r1c8 r1c5 r4c4 r4c6 r2c8 r9c8 r9c3 r2c1 r1c2 r2c7 r2c2 r2c5 r4c2 r4c8 r3c7 r3c9 r4c1 r8c7 r8c2 r8c3 r3c3 r8c5 r1c3 r3c4 r7c1 r7c2 r9c5 r9c7",
     "Dynamic Contradiction Forcing Chains (+ Forcing Chains): if r2c9 were 2, r4c6 would have to be both 5 and not 5, so 2 is removed from r2c9. A link marked ~ is a removal made by a basic rule or a nested forcing chain on the grid the assumption has reduced."),
];

const TOP1: &str =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
const TOP2: &str =
    "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........";
const TOP12: &str =
    "8.9...3.....7.1...5.........7.....263...9.......1...4..6.2....4....8.5...........";
const NESTED4: &str =
    "......7....71.9...68..7......1.9.6.....3...2..4......3..8.6.1..5......4..1...2..5";

#[test]
fn each_chain_kind_says_what_it_does() {
    let mut last: Option<(&str, Vec<Seen>)> = None;
    for &(puzzle, n, technique, houses, cells, text) in FIXTURES {
        if last.as_ref().is_none_or(|(p, _)| *p != puzzle) {
            last = Some((puzzle, steps(&puzzle.parse().expect("puzzle"), None)));
        }
        let path = &last.as_ref().expect("rated").1;
        let step = &path[n - 1];
        assert_eq!(step.technique, technique, "step {n} of {puzzle}");
        assert_eq!(step.houses, houses, "{technique}");
        assert_eq!(step.cells.join(" "), cells, "{technique}");
        assert_eq!(step.text, text, "{technique}");
        check(step);
    }
}

/// The cells the step's chains name (`r1c2`), as often as they name them.
fn cells_named(step: &Seen) -> impl Iterator<Item = &str> {
    step.chains.iter().flat_map(|chain| {
        let bytes = chain.as_bytes();
        let cells = bytes.windows(4).filter(|w| w[0] == b'r' && w[2] == b'c');
        cells.map(|w| std::str::from_utf8(w).expect("ASCII"))
    })
}

/// Every cell the chains name is among the cells, each once; every cell placed in or
/// removed from is in the sentence.
fn check(step: &Seen) {
    let context = || format!("{}: {}", step.technique, step.chains.join(" | "));
    for cell in cells_named(step) {
        assert!(
            step.cells.iter().any(|c| c == cell),
            "{cell}: {}",
            context()
        );
    }
    for c in &step.cells {
        let (r, col) = (c.as_bytes()[1] - b'1', c.as_bytes()[3] - b'1');
        let solved = step.solved >> (r * 9 + col) & 1 == 1;
        assert!(!solved, "{c} was solved before: {}", context());
    }
    let mut sorted = step.cells.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), step.cells.len(), "{}", context());
    for cell in &step.changed {
        assert!(step.text.contains(cell.as_str()), "{cell}: {}", step.text);
    }
}

/// Checks every chain step of `puzzles`' paths; how many there were.
fn check_paths(puzzles: &[Grid], max: Option<Difficulty>) -> usize {
    let mut n = 0;
    for p in puzzles {
        for step in steps(p, max).iter().filter(|s| !s.chains.is_empty()) {
            check(step);
            n += 1;
        }
    }
    n
}

fn first(path: &std::path::Path, n: usize) -> Vec<Grid> {
    let (puzzles, _) = load_puzzles(path, &ReaderOptions::default()).expect("puzzles");
    puzzles.into_iter().take(n).collect()
}

#[test]
fn nested_chain_steps_name_their_cells() {
    let puzzles = first(&common::fixture("rate/se-nested4.txt"), 2);
    assert!(check_paths(&puzzles, None) > 10);
}

/// How many distinct cells a step's chains name.
fn named(step: &Seen) -> usize {
    let mut cells: Vec<&str> = cells_named(step).collect();
    cells.sort();
    cells.dedup();
    cells.len()
}

/// A step resting on nested chains (levels 2 to 5) has, besides the cells its written
/// chains name, those of the nested chains, which the notation leaves out: almost every
/// such step has more cells than it names (a nested chain may pass only through cells the
/// outer chains name too).
#[test]
fn nested_chain_steps_hold_the_nested_chains_cells() {
    let puzzles = first(&common::fixture("rate/se-nested4.txt"), 3);
    let (mut nested, mut more) = (0, 0);
    for p in &puzzles {
        for step in steps(p, None)
            .iter()
            .filter(|s| s.technique.contains("(+ "))
        {
            check(step);
            nested += 1;
            more += usize::from(step.cells.len() > named(step));
        }
    }
    assert!(nested > 10, "{nested} nested steps");
    assert!(
        more * 10 >= nested * 9,
        "{more} of {nested} have more cells than named"
    );
}

#[test]
#[cfg_attr(not(shared_datasets), ignore = "needs ../shared/datasets")]
fn sampled_chain_steps_name_their_cells() {
    let top = first(&common::dataset("puzzles3_magictour_top1465"), 20);
    assert!(check_paths(&top, None) > 100);
    let hardest = first(&common::dataset("puzzles6_forum_hardest_1106"), 3);
    let max = "10.4".parse().ok();
    assert!(check_paths(&hardest, max) > 5);
}
