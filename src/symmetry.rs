//! Random numbers and Sudoku symmetries, the one home for both: `generate` draws solution
//! grids and clue orders with [`Rng`], `bench` shuffles its puzzles with it; `shuffle` and the
//! property tests map puzzles through random [`Symmetry`]s.
//!
//! A symmetry is a digit relabelling, a permutation of the rows within each band and of the
//! bands, the same for columns and stacks, and an optional transposition: 9!·(3!⁴)²·2 =
//! 1,218,998,108,160 maps, each of which turns valid grids into valid grids with the same
//! number of solutions.

use crate::grid::{Grid, CELLS};
use crate::position::Position;

/// SplitMix64: small, fast and good enough to shuffle cells and digits.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator for stream `index` of `seed`.
    pub fn new(seed: u64, index: u64) -> Rng {
        let mut r = Rng(seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        r.next_u64();
        r
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// Fisher-Yates shuffle.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// A random Sudoku symmetry: it maps valid grids to valid grids and keeps solution counts.
#[derive(Clone, Copy, Debug)]
pub struct Symmetry {
    digits: [u8; 10],
    rows: [usize; 9],
    cols: [usize; 9],
    transpose: bool,
}

fn line_permutation(rng: &mut Rng) -> [usize; 9] {
    let mut outer = [0, 1, 2];
    rng.shuffle(&mut outer);
    let mut p = [0; 9];
    for (block, &o) in outer.iter().enumerate() {
        let mut inner = [0, 1, 2];
        rng.shuffle(&mut inner);
        for (k, &i) in inner.iter().enumerate() {
            p[block * 3 + k] = o * 3 + i;
        }
    }
    p
}

impl Symmetry {
    /// A uniformly drawn symmetry.
    pub fn random(rng: &mut Rng) -> Symmetry {
        let mut digits = [0u8, 1, 2, 3, 4, 5, 6, 7, 8, 9];
        rng.shuffle(&mut digits[1..]);
        Symmetry {
            digits,
            rows: line_permutation(rng),
            cols: line_permutation(rng),
            transpose: rng.below(2) == 1,
        }
    }

    /// The image of a position: its cells moved as [`apply`](Self::apply) moves them, each
    /// candidate relabelled.
    pub fn apply_position(&self, position: &Position) -> Position {
        let from = position.masks();
        let mut masks = [0u16; CELLS];
        for (r, &sr) in self.rows.iter().enumerate() {
            for (c, &sc) in self.cols.iter().enumerate() {
                let (sr, sc) = if self.transpose { (sc, sr) } else { (sr, sc) };
                let m = from[sr * 9 + sc];
                masks[r * 9 + c] = (0..9)
                    .filter(|d| m >> d & 1 == 1)
                    .fold(0, |acc, d| acc | 1 << (self.digits[d + 1] - 1));
            }
        }
        Position::from_masks(masks)
    }

    /// The image of `grid`.
    pub fn apply(&self, grid: &Grid) -> Grid {
        let mut cells = [0u8; CELLS];
        for (r, &sr) in self.rows.iter().enumerate() {
            for (c, &sc) in self.cols.iter().enumerate() {
                let (sr, sc) = if self.transpose { (sc, sr) } else { (sr, sc) };
                cells[r * 9 + c] = self.digits[usize::from(grid.get(sr * 9 + sc))];
            }
        }
        Grid::from_cells(cells).expect("digits stay 0..=9")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_move_and_relabel_as_their_grids_do() {
        let grid: Grid =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
                .parse()
                .unwrap();
        for seed in 0..20 {
            let sym = Symmetry::random(&mut Rng::new(seed, 0));
            assert_eq!(
                sym.apply_position(&Position::from_grid(&grid)),
                Position::from_grid(&sym.apply(&grid))
            );
        }
    }
}
