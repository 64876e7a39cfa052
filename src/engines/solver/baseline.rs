//! The two classic LeetCode 37 algorithms, kept as baselines so the effect of each idea can be
//! measured on real data.
//!
//! Both keep, per row, column and box, a 9-bit mask of the digits already used (bit `d - 1`).
//! - `naive`: take the empty cells in row-major order; for each, try the digits 1-9 that pass
//!   the row/column/box mask check, recursing after each.
//! - `mrv`: on every call, scan all empty cells, pick the one with the fewest allowed digits
//!   (ties: the first in row-major order), and recurse on each of them. No other propagation.
//!
//! A recursive call is a node (the root included); a call made for a cell that allowed more
//! than one digit is a guess, and such a cell is a branch point. The stop flag is polled every 4,096 nodes.

use super::{Limits, Outcome, Tally};
use crate::grid::{Grid, CELLS};

const ALL: u16 = 0x1FF;

/// Used-digit masks of every unit, and the grid being filled.
struct Board {
    cells: [u8; CELLS],
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
}

#[inline]
fn box_of(cell: usize) -> usize {
    (cell / 27) * 3 + (cell % 9) / 3
}

impl Board {
    fn new(grid: &Grid) -> Board {
        let mut b = Board {
            cells: *grid.cells(),
            rows: [0; 9],
            cols: [0; 9],
            boxes: [0; 9],
        };
        for (cell, &v) in grid.cells().iter().enumerate() {
            if v != 0 {
                b.toggle(cell, v);
            }
        }
        b
    }

    /// Add or remove digit `v` at `cell` in the unit masks.
    #[inline]
    fn toggle(&mut self, cell: usize, v: u8) {
        let bit = 1 << (v - 1);
        self.rows[cell / 9] ^= bit;
        self.cols[cell % 9] ^= bit;
        self.boxes[box_of(cell)] ^= bit;
    }

    /// Digits allowed at `cell` by the row, column and box masks.
    #[inline]
    fn allowed(&self, cell: usize) -> u16 {
        !(self.rows[cell / 9] | self.cols[cell % 9] | self.boxes[box_of(cell)]) & ALL
    }
}

/// Shared recursion: `pick` chooses the next cell (or `None` when the grid is full) and the
/// digits to try there.
struct Run<'l, 'a> {
    board: Board,
    tally: Tally,
    limits: &'l Limits<'a>,
}

impl Run<'_, '_> {
    /// Count a node; false when the caller's stop flag says to give up.
    #[inline]
    fn enter_node(&mut self, guess: bool) -> bool {
        self.tally.nodes += 1;
        self.tally.guesses += u64::from(guess);
        if self.tally.nodes & 4095 == 0 && self.limits.stopped() {
            self.tally.aborted = true;
        }
        !self.tally.aborted
    }

    /// Try each digit of `digits` at `cell`, recursing with `next`.
    #[inline]
    fn branch(&mut self, cell: usize, digits: u16, next: fn(&mut Self)) {
        let guess = digits.count_ones() > 1;
        self.tally.branch_points += u64::from(guess);
        let mut rest = digits;
        while rest != 0 {
            let v = rest.trailing_zeros() as u8 + 1;
            rest &= rest - 1;
            if !self.enter_node(guess) {
                return;
            }
            self.board.cells[cell] = v;
            self.board.toggle(cell, v);
            next(self);
            self.board.toggle(cell, v);
            self.board.cells[cell] = 0;
            if self.tally.done() {
                return;
            }
        }
    }

    fn solution(&mut self) {
        let cells = self.board.cells;
        self.tally
            .found(|| Grid::from_cells(cells).expect("cells are 0..=9"));
    }

    fn naive(&mut self) {
        // Row-major: the first empty cell. (Restarting the scan from 0 keeps the code simple;
        // it costs at most 81 byte reads per node.)
        match self.board.cells.iter().position(|&v| v == 0) {
            None => self.solution(),
            Some(cell) => {
                let digits = self.board.allowed(cell);
                self.branch(cell, digits, Run::naive);
            }
        }
    }

    fn mrv(&mut self) {
        let mut best: Option<(usize, u16)> = None;
        for cell in 0..CELLS {
            if self.board.cells[cell] != 0 {
                continue;
            }
            let digits = self.board.allowed(cell);
            if best.is_none_or(|(_, b)| digits.count_ones() < b.count_ones()) {
                best = Some((cell, digits));
                if digits.count_ones() <= 1 {
                    break;
                }
            }
        }
        match best {
            None => self.solution(),
            Some((_, 0)) => {}
            Some((cell, digits)) => self.branch(cell, digits, Run::mrv),
        }
    }
}

fn run(grid: &Grid, limits: &Limits<'_>, start: impl FnOnce(&mut Run<'_, '_>)) -> Outcome {
    let mut run = Run {
        board: Board::new(grid),
        tally: Tally::new(limits.solutions),
        limits,
    };
    start(&mut run);
    run.tally.outcome()
}

/// Row-major backtracking (givens already checked for conflicts).
pub(super) fn solve_naive(grid: &Grid, limits: &Limits<'_>) -> Outcome {
    run(grid, limits, |r| r.naive())
}

/// Most-constrained-cell backtracking with no propagation (givens already checked).
pub(super) fn solve_mrv(grid: &Grid, limits: &Limits<'_>) -> Outcome {
    run(grid, limits, |r| r.mrv())
}
