//! The rating engine on arbitrary unique puzzles, capped: never panics or loops (libFuzzer's
//! -timeout catches slow inputs), and every path checks against the solution: each step
//! places only solution digits and eliminates only other digits, a path that is not capped
//! fills the grid, ER/EP/ED are consistent, a capped path stays within the cap, and rating
//! with and without the steps gives the same rating.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_batch::engines::rater::{Difficulty, Ladder, RateOptions, Rater};
use sudoku_batch::engines::solver::{solve_with_limit, Status};
use sudoku_batch::grid::{Grid, CELLS};

/// A solution grid to carve puzzles from (relabelled by the input).
const GRID: &[u8; CELLS] =
    b"534678912672195348198342567859761423426853791713924856961537284287419635345286179";

/// The puzzle the input describes. Byte 0, bit 0: 0 takes bytes 3.. as cells (a byte below
/// byte 1 is a clue `b % 9 + 1`, else empty), 1 keeps the cells of [`GRID`] whose bit is set
/// in bytes 12..23, with its digits relabelled by the permutation bytes 3..12 sort to.
fn puzzle(data: &[u8]) -> Option<Grid> {
    let (&mode, rest) = data.split_first()?;
    let (&density, rest) = rest.split_first()?;
    let rest = rest.get(1..)?;
    let mut cells = [0u8; CELLS];
    if mode & 1 == 0 {
        for (cell, &b) in cells.iter_mut().zip(rest) {
            *cell = if b < density { b % 9 + 1 } else { 0 };
        }
    } else {
        let mut order: [usize; 9] = std::array::from_fn(|d| d);
        order.sort_by_key(|&d| (rest.get(d).copied().unwrap_or(0), d));
        let mut label = [0u8; 10];
        for (k, &d) in order.iter().enumerate() {
            label[d + 1] = k as u8 + 1;
        }
        let mask = rest.get(9..)?;
        for (i, cell) in cells.iter_mut().enumerate() {
            if mask.get(i / 8).is_some_and(|b| b >> (i % 8) & 1 != 0) {
                *cell = label[(GRID[i] - b'0') as usize];
            }
        }
    }
    Grid::from_cells(cells)
}

fuzz_target!(|data: &[u8]| {
    let Some(grid) = puzzle(data) else {
        return;
    };
    let out = solve_with_limit(&grid, 2);
    if out.status != Status::Solved || out.solutions != 1 {
        return;
    }
    let solution = out.solution.expect("a solved outcome has a solution");
    // Byte 2: the ladder and the cap (1.0 to 11.0; the cap keeps nested levels bounded).
    let knob = data.get(2).copied().unwrap_or(0);
    let ladder = [Ladder::Se, Ladder::Sukaku, Ladder::SukakuDefault][usize::from(knob % 3)];
    let cap = Difficulty(10 + (knob / 3) % 101);
    let mut rater = Rater::new(RateOptions {
        ladder,
        max_rating: Some(cap),
    });
    let mut cands = [0x3FEu16; CELLS];
    let mut placed = 0;
    for (i, &v) in grid.cells().iter().enumerate() {
        if v != 0 {
            cands[i] = 1 << v;
            placed += 1;
        }
    }
    let mut hardest = Difficulty(0);
    let rating = rater.rate_with_steps(&grid, &solution, &mut |step| {
        assert!(
            step.difficulty <= cap,
            "{} above the cap {cap} in {grid}",
            step.technique
        );
        hardest = hardest.max(step.difficulty);
        for p in step.placements {
            let (c, d) = (usize::from(p.cell), p.digit);
            assert_eq!(
                solution.cells()[c],
                d,
                "{} placed {p} in {grid}",
                step.technique
            );
            if cands[c].count_ones() > 1 {
                placed += 1;
            }
            cands[c] = 1 << d;
        }
        for e in step.eliminations {
            let (c, d) = (usize::from(e.cell), e.digit);
            assert_ne!(
                solution.cells()[c],
                d,
                "{} removed {e} in {grid}",
                step.technique
            );
            cands[c] &= !(1 << d);
        }
    });
    assert_eq!(
        rating,
        rater.rate(&grid, &solution),
        "steps change the rating of {grid}"
    );
    assert_eq!(rating.er, hardest, "ER is not the hardest step of {grid}");
    assert!(
        rating.ep <= rating.er && rating.ed <= rating.er,
        "{rating:?} for {grid}"
    );
    if !rating.capped {
        // Naked singles left at the end count as placed: every cell down to one candidate.
        let open = cands.iter().filter(|c| c.count_ones() > 1).count();
        assert_eq!(
            open, 0,
            "an uncapped path left {open} cells open in {grid} ({placed})"
        );
    }
});
