//! Seeded, deterministic puzzle generation.
//!
//! Puzzle `i` of a run depends only on `(seed, i)`, so the output is the same whatever the
//! number of threads. Each puzzle:
//! 1. a random solution grid: the three diagonal boxes get random permutations of 1-9 (they
//!    never constrain each other), the fast solver completes the grid, and a random Sudoku
//!    symmetry (digit relabelling, row/column permutations within bands/stacks, band/stack
//!    permutations, transposition) is applied;
//! 2. clues are removed in a random order as long as the puzzle stays uniquely solvable
//!    (checked with solution limit 2), down to a target clue count drawn from the requested
//!    range, or until no clue can be removed (`minimal`);
//! 3. a puzzle outside the clue or guess range is discarded and the next attempt (drawn from
//!    the same puzzle's random stream) is made.

use crate::grid::{Grid, CELLS};
use crate::solver::{solve_with_limit, Status};

/// What to generate.
#[derive(Clone, Copy, Debug)]
pub struct GenerateConfig {
    /// The run's seed.
    pub seed: u64,
    /// Fewest clues allowed.
    pub min_clues: usize,
    /// Most clues allowed.
    pub max_clues: usize,
    /// Remove clues until none can be removed (ignores the target count).
    pub minimal: bool,
    /// Fewest guesses the fast solver may need (limit 1).
    pub min_guesses: u64,
    /// Most guesses the fast solver may need (limit 1).
    pub max_guesses: u64,
}

impl Default for GenerateConfig {
    fn default() -> Self {
        GenerateConfig {
            seed: 1,
            min_clues: 17,
            max_clues: 81,
            minimal: false,
            min_guesses: 0,
            max_guesses: u64::MAX,
        }
    }
}

/// A generated puzzle with its unique solution and the attempts it took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle (unique solution).
    pub puzzle: Grid,
    /// Its solution.
    pub solution: Grid,
    /// Attempts made (1 when the first candidate fit).
    pub attempts: u32,
}

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

/// A random complete valid grid.
pub fn random_solution(rng: &mut Rng) -> Grid {
    let mut grid = Grid::EMPTY;
    for b in 0..3 {
        let mut digits = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
        rng.shuffle(&mut digits);
        for (k, &d) in digits.iter().enumerate() {
            grid.set((b * 3 + k / 3) * 9 + b * 3 + k % 3, d);
        }
    }
    let full = solve_with_limit(&grid, 1)
        .solution
        .expect("three independent boxes always complete");
    Symmetry::random(rng).apply(&full)
}

/// Remove clues of `solution` in random order while the puzzle stays unique, stopping at
/// `target` clues (or when no clue can go).
pub fn reduce(solution: &Grid, target: usize, rng: &mut Rng) -> Grid {
    let mut order: [u8; CELLS] = std::array::from_fn(|i| i as u8);
    rng.shuffle(&mut order);
    let mut puzzle = *solution;
    let mut clues = CELLS;
    for &cell in &order {
        if clues <= target {
            break;
        }
        let cell = usize::from(cell);
        let value = puzzle.get(cell);
        puzzle.set(cell, 0);
        if solve_with_limit(&puzzle, 2).status == Status::Solved {
            clues -= 1;
        } else {
            puzzle.set(cell, value);
        }
    }
    puzzle
}

/// Puzzle `index` of the run configured by `cfg`.
pub fn generate(cfg: &GenerateConfig, index: u64) -> Generated {
    let mut rng = Rng::new(cfg.seed, index);
    let (lo, hi) = (
        cfg.min_clues.clamp(17, CELLS),
        cfg.max_clues.clamp(17, CELLS),
    );
    for attempts in 1.. {
        let solution = random_solution(&mut rng);
        let target = if cfg.minimal {
            0
        } else {
            lo + rng.below(hi.saturating_sub(lo) + 1)
        };
        let puzzle = reduce(&solution, target, &mut rng);
        let clues = puzzle.clues();
        if clues < lo || clues > hi {
            continue;
        }
        let guesses = solve_with_limit(&puzzle, 1).guesses;
        if guesses < cfg.min_guesses || guesses > cfg.max_guesses {
            continue;
        }
        return Generated {
            puzzle,
            solution,
            attempts,
        };
    }
    unreachable!("the attempt loop only ends by returning")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn puzzles_are_unique_reproducible_and_in_range() {
        let cfg = GenerateConfig {
            seed: 7,
            min_clues: 26,
            max_clues: 30,
            ..GenerateConfig::default()
        };
        for i in 0..30 {
            let g = generate(&cfg, i);
            assert_eq!(g, generate(&cfg, i), "same seed and index, same puzzle");
            assert!(
                (26..=30).contains(&g.puzzle.clues()),
                "{}",
                g.puzzle.clues()
            );
            let out = solve_with_limit(&g.puzzle, 2);
            assert_eq!(out.status, Status::Solved);
            assert_eq!(out.solution, Some(g.solution));
        }
        assert_ne!(generate(&cfg, 0).puzzle, generate(&cfg, 1).puzzle);
        let other_seed = GenerateConfig { seed: 8, ..cfg };
        assert_ne!(generate(&cfg, 0).puzzle, generate(&other_seed, 0).puzzle);
    }

    #[test]
    fn minimal_puzzles_have_no_removable_clue() {
        let cfg = GenerateConfig {
            seed: 3,
            minimal: true,
            ..GenerateConfig::default()
        };
        for i in 0..5 {
            let p = generate(&cfg, i).puzzle;
            for cell in 0..CELLS {
                if p.get(cell) != 0 {
                    let mut q = p;
                    q.set(cell, 0);
                    assert_eq!(solve_with_limit(&q, 2).status, Status::Multiple);
                }
            }
        }
    }

    #[test]
    fn guess_range_is_respected() {
        let cfg = GenerateConfig {
            seed: 11,
            minimal: true,
            min_guesses: 2,
            ..GenerateConfig::default()
        };
        for i in 0..5 {
            assert!(solve_with_limit(&generate(&cfg, i).puzzle, 1).guesses >= 2);
        }
    }
}
