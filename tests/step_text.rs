//! The houses, cells and sentence of every step that is not a chain.
//!
//! `tests/fixtures/rate/step-texts.tsv` holds one step per technique with its exact
//! `houses`, `cells` and `text`; the replay tests check, on samples of the public datasets
//! and for both SE's and Sukaku's ladders, what every such step must say:
//! - its sentence names every cell it places in or removes from;
//! - `houses` is not empty, except where no house holds the pattern: a naked single, XY- and
//!   XYZ-Wings, ALS wings, aligned exclusion, unique rectangles and loops of types 1 and 2,
//!   BUGs of types 1 and 2;
//! - what it places or removes is explained by its houses or cells ([`explained`]).

mod common;

use std::collections::HashSet;

use sudoku_batch::engines::rater::{
    Difficulty, Family, House, HouseKind, Ladder, RateOptions, Rater, Step, Technique,
};
use sudoku_batch::engines::solver::solve_with_limit;
use sudoku_batch::grid::cell_name;
use sudoku_batch::io::{load_puzzles, ReaderOptions};
use sudoku_batch::Grid;

/// Whether house `h` holds `cell`.
fn holds(h: House, cell: u8) -> bool {
    let (row, col, n) = (cell / 9, cell % 9, h.number() - 1);
    match h.kind() {
        HouseKind::Row => row == n,
        HouseKind::Column => col == n,
        HouseKind::Box => row / 3 * 3 + col / 3 == n,
    }
}

fn sees(a: u8, b: u8) -> bool {
    a != b && (a / 9 == b / 9 || a % 9 == b % 9 || (a / 27 == b / 27 && a % 9 / 3 == b % 9 / 3))
}

/// How a step's placements and eliminations follow from its houses and cells.
#[derive(Debug, PartialEq)]
enum Reason {
    /// Each lies in one of its houses (singles, intersections, subsets, fish, unique loops
    /// and BUGs of type 3 whose subset lies in a house).
    InHouses,
    /// Each is in a cell of the pattern (a naked single, unique loops of types 1 and 4, BUGs
    /// of types 1 and 4, aligned exclusion).
    InCells,
    /// Each is outside the pattern and sees two cells of it or more (wings, strong links,
    /// ALS wings, unique loops and BUGs of type 2: the cells it must see are among these).
    SeesCells,
}

fn reason(t: Technique) -> Reason {
    use Technique::*;
    if t == NakedSingle {
        return Reason::InCells;
    }
    match t.family() {
        Family::Wing | Family::StrongLinks | Family::AlsWing => Reason::SeesCells,
        Family::Exclusion => Reason::InCells,
        Family::Uniqueness | Family::Bug => match t {
            UniqueRectangle2 | UniqueLoop2 | Bug2 => Reason::SeesCells,
            UniqueRectangle3 | UniqueLoop3 | Bug3 => Reason::InHouses,
            _ => Reason::InCells,
        },
        _ => Reason::InHouses,
    }
}

fn needs_houses(t: Technique) -> bool {
    use Technique::*;
    !matches!(
        t.family(),
        Family::Wing | Family::AlsWing | Family::Exclusion | Family::Chain
    ) && !matches!(
        t,
        NakedSingle | UniqueRectangle1 | UniqueRectangle2 | UniqueLoop1 | UniqueLoop2 | Bug1 | Bug2
    )
}

/// Whether `cell`, placed in or removed from by `step`, is explained by its houses or cells.
fn explained(step: &Step<'_>, cell: u8) -> bool {
    match reason(step.technique) {
        Reason::InHouses => step.houses.iter().any(|h| holds(h, cell)),
        Reason::InCells => step.cells.contains(&cell),
        Reason::SeesCells => {
            !step.cells.contains(&cell)
                && step.cells.iter().filter(|&&c| sees(c, cell)).count() >= 2
        }
    }
}

/// Checks one step that is not a chain; `at` names it in messages.
fn check(step: &Step<'_>, at: &str) {
    let t = step.technique;
    assert!(!step.cells.is_empty(), "{at}: {t} has no cells");
    assert!(!step.text.is_empty(), "{at}: {t} has no sentence");
    assert!(
        !needs_houses(t) || !step.houses.is_empty(),
        "{at}: {t} names no house: {}",
        step.text
    );
    let touched = step
        .placements
        .iter()
        .map(|p| p.cell)
        .chain(step.eliminations.iter().map(|e| e.cell));
    for cell in touched {
        let name = cell_name(cell).to_string();
        assert!(
            step.text.contains(&name),
            "{at}: {t}'s sentence leaves out {name}: {}",
            step.text
        );
        assert!(
            explained(step, cell),
            "{at}: {t} at {name} is not explained by houses {:?} and cells {:?}",
            step.houses
                .iter()
                .map(|h| h.to_string())
                .collect::<Vec<_>>(),
            step.cells
        );
    }
}

fn solution(p: &Grid) -> Grid {
    solve_with_limit(p, 2).solution.expect("one solution")
}

fn houses_text(step: &Step<'_>) -> String {
    let names: Vec<String> = step.houses.iter().map(|h| h.to_string()).collect();
    names.join(" ")
}

fn cells_text(step: &Step<'_>) -> String {
    let names: Vec<String> = step
        .cells
        .iter()
        .map(|&c| cell_name(c).to_string())
        .collect();
    names.join(" ")
}

/// One fixture row: the step's technique, houses, cells and sentence as they must be.
#[test]
fn every_technique_writes_its_houses_cells_and_sentence() {
    let text = std::fs::read_to_string(common::fixture("rate/step-texts.tsv")).unwrap();
    let mut families = HashSet::new();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 8, "line {}: {line}", n + 1);
        let ladder: Ladder = f[0].parse().unwrap();
        let p = Grid::from_line(f[1]).unwrap();
        let max: Difficulty = f[2].parse().unwrap();
        let at: u32 = f[3].parse().unwrap();
        let mut rater = Rater::new(RateOptions {
            ladder,
            max_rating: Some(max),
        });
        let mut seen = None;
        let mut k = 0;
        rater.rate_with_steps(&p, &solution(&p), &mut |step: &Step<'_>| {
            k += 1;
            if k == at {
                check(step, &format!("line {}", n + 1));
                let got = [houses_text(step), cells_text(step), step.text.to_string()];
                seen = Some((step.technique, got));
            }
        });
        let (technique, got) = seen.unwrap_or_else(|| panic!("line {}: no step {at}", n + 1));
        assert_eq!(technique.name(), f[4], "line {}", n + 1);
        assert_eq!(got, [f[5], f[6], f[7]], "line {}: {}", n + 1, f[4]);
        families.insert(format!("{:?}", technique.family()));
    }
    // Every family but the chains has a row.
    assert_eq!(families.len(), 10, "{families:?}");
}

/// Rates `puzzles` on `ladder`, checking every step that is not a chain; returns how many.
fn replay(name: &str, puzzles: &[Grid], ladder: Ladder) -> usize {
    let mut rater = Rater::new(RateOptions {
        ladder,
        max_rating: None,
    });
    let mut checked = 0;
    for (i, p) in puzzles.iter().enumerate() {
        rater.rate_with_steps(p, &solution(p), &mut |step: &Step<'_>| {
            if !step.technique.is_chain() {
                check(step, &format!("{name} #{i} {ladder:?}"));
                checked += 1;
            }
        });
    }
    checked
}

fn sample(name: &str, take: usize, every: usize) -> Vec<Grid> {
    let (puzzles, _) =
        load_puzzles(&common::dataset(name), &ReaderOptions::default()).expect("dataset");
    puzzles.into_iter().step_by(every).take(take).collect()
}

#[test]
#[cfg_attr(not(shared_datasets), ignore = "needs ../shared/datasets")]
fn top1465_steps_name_what_they_touch() {
    let puzzles = sample("puzzles3_magictour_top1465", 30, 1);
    for ladder in [Ladder::Se, Ladder::Sukaku] {
        assert!(replay("top1465", &puzzles, ladder) > 500);
    }
}

#[test]
#[cfg_attr(not(shared_datasets), ignore = "needs ../shared/datasets")]
fn exchange_diabolical_steps_name_what_they_touch() {
    let puzzles = sample("sudoku_exchange_diabolical.txt", usize::MAX, 50);
    for ladder in [Ladder::Se, Ladder::Sukaku] {
        assert!(replay("diabolical", &puzzles, ladder) > 10_000);
    }
}
