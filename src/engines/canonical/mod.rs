//! A canonical form for puzzles under Sudoku symmetry: two puzzles get the same form exactly
//! when one maps to the other by digit relabelling, row permutations within bands, band
//! permutations, column permutations within stacks, stack permutations and transposition.
//!
//! # Definition
//!
//! The form is the lexicographically smallest 81-cell string over all 2 × 6⁴ × 6⁴ =
//! 3,359,232 position symmetries, each image read row by row with its digits relabelled 1,
//! 2, 3, … in order of first appearance. An empty cell is 0 and compares below every digit,
//! so the form starts with as many empty cells as possible: its first rows are the emptiest,
//! with their clues pushed right (`000000001` is the smallest possible first row after
//! `000000000`). Two puzzles are equivalent exactly when their forms are equal; the form
//! keeps the clue count, and canonicalising a form gives it back. The **automorphisms** of
//! a puzzle are the position symmetries that map it to itself up to relabelling (1 for
//! almost every puzzle, at most 3,359,232 for the empty grid); they are exactly the
//! symmetries whose image is the form, so the search counts them for free.
//!
//! # Algorithm (row by row, columns ordered only when a row needs it)
//!
//! A candidate is a class of symmetries fixed so far: the orientation (transposed or not),
//! the source rows of the result rows chosen so far, the digit labels given so far, and a
//! column permutation known only up to the columns that are empty in every row fixed so far.
//! Reordering such columns changes no fixed row, so one representative permutation (as
//! source columns, and as source stacks with the `PERMS3` index of each stack's column
//! order) stands for the class, with what is still *free*: the **free stacks**, empty in
//! every fixed row, which come first and may trade places and order their columns any way;
//! and in each other stack its first columns when they are empty in every fixed row (free
//! among themselves; they come first because every fixed row pushed its clues right). The
//! form is built one result row at a time:
//!
//! 1. **Leading empty rows.** An empty source row is all zeros under any column order, so
//!    the form opens with as many empty rows as a row arrangement can line up (within a
//!    band, then whole bands). Every arrangement prefix reaching that count is kept, with
//!    every column free.
//! 2. **Each further row by extension.** Each candidate is extended by every source row the
//!    band structure allows (a new band takes any row of an unused band, otherwise the
//!    remaining rows of the current band). An empty cell before a clue is smaller whatever
//!    the digits, so the members of the class that can give that row its smallest string all
//!    give it the class's smallest clue mask: free stacks by ascending clue count, clues
//!    pushed right in them and in the free columns of the other stacks (`class_mask`; three
//!    `PERMUTE3` lookups when nothing is free). A row whose mask is *certainly larger* than
//!    the level's best row is rejected without its digits: it has a clue at the first
//!    position where the masks differ and the two rows share no clue position before it, so
//!    no digit can decide earlier. At the first row with a clue every column is free, so
//!    the smallest line mask (`SMALLEST_MASK`, a table) is reached by some candidate: it
//!    bounds the level before any line is relabelled.
//! 3. **The class split only as far as the row needs.** The rest of the class is split into
//!    the arrangements reaching that mask, one per class of what stays free after the row
//!    (`arrangements`): free stacks without a clue of the row stay free, in their order; the
//!    others follow them by ascending count, equal counts in every order; in every stack the
//!    free columns without a clue stay first, still free, and those with a clue follow in
//!    every order (their digits decide). Each arrangement's row is relabelled and compared
//!    cell by cell, leaving at the first larger cell; only the arrangements equal to the
//!    level's best row survive, and a smaller row clears the level. Most splits give one
//!    arrangement: the first row with a clue, which used to make 144 tied permutations when
//!    it has a single clue (two empty stacks in either order, 6 × 6 orders of their columns,
//!    2 of the clue's stack), is now one candidate.
//! 4. After row 8 the survivors hold all the symmetries reaching the form: the number of
//!    automorphisms is the sum of their class sizes (f! · 6^f for f free stacks, times 2 for
//!    each other stack with two free columns; more than 1 only for a grid with an empty
//!    column).
//!
//! Nothing that could be smaller or equal is dropped and the classes split into are
//! disjoint, so the form and the count are exact. The split does not depend on the digits,
//! so grids where a line repeats a digit (invalid givens) take the same path. Full grids
//! (81 clues, no repeated digit in a line) take a search of their own (`full.rs`): every
//! line ties as their first row. Grids so sparse that more than [`CANDIDATE_LIMIT`]
//! candidates tie at some level (the empty grid, a handful of clues) fall back to the
//! exhaustive [`reference`](mod@reference) search, exact for every grid but slow
//! (milliseconds to a second).
//!
//! # Measured
//!
//! Work per puzzle (averages over the whole set, counted in the test build): 17-clue puzzles
//! 44 rows offered to a level (mask test; 36 of them to a candidate with free columns), 19
//! arrangements relabelled and compared, 15 kept; Kaggle 1M sample 43, 46 and 32 (before
//! the first row's bound below). The search before the free columns built 71 key-row
//! permutations per 17-clue puzzle, offered 243 rows, relabelled 98 and kept 63. Time per
//! puzzle, one thread, in process (the search alone, release build, best of 7 passes):
//! 17-clue 9.50 → 2.71 µs, Kaggle 8.09 → 4.52 µs from the search before the free columns to
//! now. Through the binary, alternating runs (median of 11, `canon -q --threads 1`, load
//! ~1): 17-clue 0.484 → 0.167 s, Kaggle 0.235 → 0.144 s. Full solution grids ~50 µs each
//! (`full.rs`).
//!
//! - kept: leading empty rows handled without columns (17-clue 129 → 37 µs: two thirds of
//!   these puzzles have an empty line, which made 1,296 permutations per empty line tie);
//!   triplet-table masks instead of a 9-column fold; no store-forwarding stalls (a
//!   relabelled row gathered in a register and stored once, an extension changed in place
//!   after its push instead of built on the stack and copied: `perf annotate` showed 12-19%
//!   of the samples of three functions on such reloads; 17-clue 12.6 → 11.2 µs in process);
//!   the full-grid search (~40× on full grids); the free columns of step 3 (binary,
//!   alternating: 17-clue 0.51 → 0.21 s, Kaggle 0.25 → 0.21 s); the lines built row by row
//!   without a branch per cell (in process 17-clue 3.29 → 3.16 µs, Kaggle 6.81 → 6.32 µs);
//!   the first row with a clue bounded by the smallest line mask before any line is
//!   relabelled, all-free classes masked by a table (Kaggle 6.22 → 4.84 µs, 17-clue 3.10 →
//!   3.00 µs); no `count_ones` on the search's paths, since the baseline x86-64 target has
//!   no `popcnt` (17-clue 3.01 → 2.71 µs, Kaggle 4.83 → 4.52 µs).
//! - replaced by the free columns: a search of its own for the first row with a clue (its
//!   smallest mask known before any column permutation, its permutations built stack by
//!   stack and offered straight to the next row, cut by the smallest mask any following row
//!   could reach, lines tried by ascending such floor; 17-clue 37 → 10.7 µs in process and
//!   0.588 → 0.507 s through the binary over several rounds), and a 1,296-permutation pass
//!   for grids repeating a digit in a line.
//! - lost or flat: storing the key row's candidates before extending them (2x slower); a
//!   branch-free relabelling compared as one 128-bit number at the end (17-clue +25%: no
//!   early exit); the whole candidate packed four bits an entry into words (17-clue 11.2 →
//!   15.1 µs: bounds checks on nibble indices and a serial dependency through the label
//!   word); the key candidate's labels and rows built in 128-bit registers (11.2 → 12.8
//!   µs); a floor over every candidate at the later levels (17-clue +8%); a branch-free
//!   `Grid::has_conflict` (slower on the quiet machine); the first row's bound computed
//!   through the general class mask instead of the table (17-clue +7% in process, Kaggle
//!   -9%).
//! - not done: dobrichev-style pattern-first canonicalisation (the minimal clue pattern
//!   first, then digits) computes a *different* form: with our definition a digit can decide
//!   before the patterns differ (`000001210…` beats `000001300…` although its mask is
//!   larger), so pattern minimality may only be used where it is certain (step 2's test).
//!   Ties up to relabelling: clue columns whose digits are all new give the same row in
//!   every order (a Kaggle puzzle keeps ~14 tied candidates after its first row with a
//!   clue); deferring them too would need classes closed under relabelling.

mod full;
pub mod reference;

use crate::grid::{Grid, CELLS, PERMS3};

/// The canonical form of a grid and the number of its automorphisms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Canonical {
    /// The smallest relabelled image (see the module docs).
    pub form: Grid,
    /// Position symmetries mapping the grid to itself up to relabelling (≥ 1).
    pub automorphisms: u32,
}

/// More tied candidates than this at one level sends the grid to the exhaustive search.
pub const CANDIDATE_LIMIT: usize = 1 << 16;

/// A class of symmetries fixed up to result row `level`: one representative column
/// permutation, and the columns still free (empty in every row fixed so far, so any order
/// of them gives the same rows).
#[derive(Clone, Copy)]
struct Candidate {
    /// Source column of each result column (the representative).
    cols: [u8; 9],
    /// The same permutation as source stacks of the result stacks and the [`PERMS3`] index
    /// of each result stack's column order, for [`PERMUTE3`] lookups.
    perm: [u8; 6],
    /// Source row of each result row chosen so far.
    rows: [u8; 9],
    /// Label of each source digit (0: not seen yet).
    label: [u8; 10],
    /// The next free label.
    next: u8,
    /// 0: the grid's rows are rows; 1: its columns are.
    orient: u8,
    /// Source rows used so far (bit per row).
    used: u16,
    /// Two bits per result stack `k` (bits `2k`, `2k + 1`): how many of its first columns are
    /// free among themselves (0 when fewer than 2). 3 marks a *free stack*, empty in every
    /// fixed row: the free stacks are the first ones and may also trade places.
    free: u8,
}

/// Every stack free: the candidate of a prefix of empty rows.
const ALL_FREE: u8 = 0b11_11_11;

impl Candidate {
    /// The source rows result row `level` may take: a new band takes any row of a band not
    /// used yet, otherwise the remaining rows of the current band.
    fn choices(&self, level: usize) -> u16 {
        if level % 3 == 0 {
            (0..3)
                .filter(|b| self.used & (0b111 << (b * 3)) == 0)
                .fold(0, |m, b| m | 0b111 << (b * 3))
        } else {
            (0b111 << (self.rows[level - 1] / 3 * 3)) & !self.used
        }
    }

    /// The free columns at the start of result stack `k` (3: a free stack).
    #[inline]
    fn free_len(&self, k: usize) -> usize {
        usize::from(self.free >> (2 * k) & 3)
    }

    /// The number of free stacks (they come first).
    #[inline]
    fn free_stacks(&self) -> usize {
        (0..3).take_while(|&k| self.free_len(k) == 3).count()
    }

    /// The clue mask (bit `8 - j` for result column `j`) of the line whose clues are in
    /// source columns `clues` (bit per column) under the representative permutation.
    #[inline]
    fn permuted_mask(&self, clues: u16) -> u16 {
        (0..3).fold(0, |m, k| {
            let x = usize::from(clues >> (3 * self.perm[k]) & 7);
            m << 3 | PERMUTE3[x][usize::from(self.perm[3 + k])]
        })
    }

    /// The smallest clue mask the class gives that line: the free stacks by ascending clue
    /// count, clues pushed right in them and in the free columns of the other stacks. Every
    /// arrangement of [`arrangements`](Self::arrangements) gives exactly this mask.
    #[inline]
    fn class_mask(&self, clues: u16) -> u16 {
        if self.free == ALL_FREE {
            return SMALLEST_MASK[usize::from(clues)];
        }
        let f = self.free_stacks();
        let mut counts = [0u8; 3];
        let mut mask = 0;
        for k in 0..3 {
            let x = usize::from(clues >> (3 * self.perm[k]) & 7);
            if k < f {
                counts[k] = ONES3[x];
            } else {
                let v = PERMUTE3[x][usize::from(self.perm[3 + k])];
                mask |= PUSH_RIGHT[self.free_len(k)][usize::from(v)] << (3 * (2 - k));
            }
        }
        counts[..f].sort_unstable();
        for (k, &n) in counts[..f].iter().enumerate() {
            mask |= RIGHT[n as usize] << (3 * (2 - k));
        }
        mask
    }

    /// Call `visit(perm, free)` for every arrangement of the free columns giving the line
    /// with clue columns `clues` its [`class_mask`](Self::class_mask), one per class of what
    /// stays free after it: free stacks by ascending count (those without a clue stay free
    /// in their order, equal counts take every order), in each the empty columns first in
    /// their order and the clue columns in every order.
    fn arrangements(
        &self,
        clues: u16,
        mut visit: impl FnMut([u8; 6], u8) -> Option<()>,
    ) -> Option<()> {
        let f = self.free_stacks();
        let counts: [u8; 3] =
            std::array::from_fn(|k| ONES3[usize::from(clues >> (3 * self.perm[k]) & 7)]);
        for order in FREE_ORDERS[f] {
            // The free stacks by ascending count, the empty ones in their order.
            if (1..f).any(|pos| {
                let (a, b) = (counts[order[pos - 1]], counts[order[pos]]);
                a > b || (a == 0 && b == 0 && order[pos - 1] > order[pos])
            }) {
                continue;
            }
            let mut perm = self.perm;
            for (pos, &k) in order.iter().enumerate().take(f) {
                perm[pos] = self.perm[k];
                perm[3 + pos] = self.perm[3 + k];
            }
            let mut free = 0;
            let inner: [&Inner; 3] = std::array::from_fn(|k| {
                let len = if k < f { 3 } else { self.free_len(k) };
                let x = usize::from(clues >> (3 * perm[k]) & 7);
                let inner = &INNER[usize::from(perm[3 + k])][len][x];
                free |= inner.free << (2 * k);
                inner
            });
            for &a in inner[0].orders() {
                for &b in inner[1].orders() {
                    for &c in inner[2].orders() {
                        visit([perm[0], perm[1], perm[2], a, b, c], free)?;
                    }
                }
            }
        }
        Some(())
    }

    /// The symmetries this final candidate stands for: the orders of its free stacks and of
    /// the free columns in each stack.
    fn multiplicity(&self) -> u32 {
        const ORDERS: [u32; 4] = [1, 1, 2, 6];
        let f = self.free_stacks();
        let stacks = ORDERS[f] * 6u32.pow(f as u32);
        (f..3).fold(stacks, |m, k| m * ORDERS[self.free_len(k)])
    }
}

/// `PERMUTE3[x][p]`: the 3-bit mask (first column highest) of a stack whose clue columns are
/// `x` (bit `i` for its column `i`) once its columns are ordered by `PERMS3[p]`.
const PERMUTE3: [[u16; 6]; 8] = {
    let mut t = [[0u16; 6]; 8];
    let mut x = 0;
    while x < 8 {
        let mut p = 0;
        while p < 6 {
            let mut k = 0;
            while k < 3 {
                t[x][p] |= (((x >> PERMS3[p][k]) & 1) << (2 - k)) as u16;
                k += 1;
            }
            p += 1;
        }
        x += 1;
    }
    t
};

/// `FREE_ORDERS[f]`: the orders of the first `f` stacks, the others staying.
const FREE_ORDERS: [&[[usize; 3]]; 4] =
    [&[[0, 1, 2]], &[[0, 1, 2]], &[[0, 1, 2], [1, 0, 2]], &PERMS3];

/// `ONES3[x]`: the clues of a stack with clue columns `x` (a table: no `popcnt` in the
/// baseline x86-64 target, where `count_ones` takes a dozen instructions).
const ONES3: [u8; 8] = [0, 1, 1, 2, 1, 2, 2, 3];

/// `RIGHT[n]`: a stack's 3-bit mask with `n` clues pushed right.
const RIGHT: [u16; 4] = [0b000, 0b001, 0b011, 0b111];

/// `SMALLEST_MASK[x]`: the smallest clue mask a column permutation gives a line with clue
/// columns `x` (bit `c` for column `c`): stacks by ascending clue count, clues pushed right.
const SMALLEST_MASK: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut x: usize = 0;
    while x < 512 {
        let mut n = [
            (x & 7).count_ones(),
            (x >> 3 & 7).count_ones(),
            (x >> 6 & 7).count_ones(),
        ];
        // Three elements sorted by exchanges.
        let mut i = 0;
        while i < 3 {
            let mut j = 0;
            while j + 1 < 3 {
                if n[j] > n[j + 1] {
                    let k = n[j];
                    n[j] = n[j + 1];
                    n[j + 1] = k;
                }
                j += 1;
            }
            i += 1;
        }
        t[x] = RIGHT[n[0] as usize] << 6 | RIGHT[n[1] as usize] << 3 | RIGHT[n[2] as usize];
        x += 1;
    }
    t
};

/// `PUSH_RIGHT[len][v]`: the 3-bit mask `v` (first column highest) with the clues among its
/// first `len` columns pushed right within them.
const PUSH_RIGHT: [[u16; 8]; 4] = {
    let mut t = [[0u16; 8]; 4];
    let mut len = 0;
    while len < 4 {
        let mut v: usize = 0;
        while v < 8 {
            let rest = 3 - len;
            let n = (v >> rest).count_ones() as usize;
            t[len][v] = RIGHT[n] << rest & 7 | (v as u16 & ((1 << rest) - 1));
            v += 1;
        }
        len += 1;
    }
    t
};

/// The column orders a stack may take when a new row is placed: see [`INNER`].
#[derive(Clone, Copy)]
struct Inner {
    /// [`PERMS3`] indices.
    orders: [u8; 6],
    len: u8,
    /// The free columns left at the start of the stack (0 when fewer than 2).
    free: u8,
}

impl Inner {
    fn orders(&self) -> &[u8] {
        &self.orders[..usize::from(self.len)]
    }
}

/// `INNER[p][len][x]`: for a stack ordered by `PERMS3[p]` whose first `len` columns are
/// free, and a new row with clue columns `x` (bit `i` for the stack's column `i`): the
/// orders keeping the last `3 - len` columns, with the free columns without a clue first
/// in their order and those with a clue after them in every order.
const INNER: [[[Inner; 8]; 4]; 6] = {
    let none = Inner {
        orders: [0; 6],
        len: 0,
        free: 0,
    };
    let mut t = [[[none; 8]; 4]; 6];
    let mut p = 0;
    while p < 6 {
        let mut len = 0;
        while len < 4 {
            let mut x = 0;
            while x < 8 {
                let e = &mut t[p][len][x];
                // The free columns without a clue, in the order of p.
                let mut empty = 0;
                let mut k = 0;
                while k < len {
                    empty += 1 - (x >> PERMS3[p][k] & 1);
                    k += 1;
                }
                let mut q = 0;
                while q < 6 {
                    let mut ok = true;
                    // The fixed columns stay.
                    let mut k = len;
                    while k < 3 {
                        ok &= PERMS3[q][k] == PERMS3[p][k];
                        k += 1;
                    }
                    // The first `empty` columns are the empty free ones, in p's order; the
                    // clue columns come after them in any order.
                    let mut i = 0;
                    let mut last = 0;
                    let mut k = 0;
                    while k < len {
                        let col = PERMS3[q][k];
                        let clue = x >> col & 1 == 1;
                        if k < empty {
                            // Its rank in p must increase along q's empty prefix.
                            let mut rank = 0;
                            while PERMS3[p][rank] != col {
                                rank += 1;
                            }
                            ok &= !clue && (i == 0 || rank > last);
                            last = rank;
                            i += 1;
                        } else {
                            ok &= clue;
                        }
                        k += 1;
                    }
                    if ok {
                        e.orders[e.len as usize] = q as u8;
                        e.len += 1;
                    }
                    q += 1;
                }
                e.free = if empty >= 2 { empty as u8 } else { 0 };
                x += 1;
            }
            len += 1;
        }
        p += 1;
    }
    t
};

/// `STACK_COLS[s][p]`: the source columns of source stack `s` in the order `PERMS3[p]`, one
/// byte each (first column lowest).
const STACK_COLS: [[u32; 6]; 3] = {
    let mut t = [[0u32; 6]; 3];
    let mut s = 0;
    while s < 3 {
        let mut p = 0;
        while p < 6 {
            let mut k = 0;
            while k < 3 {
                t[s][p] |= ((s * 3 + PERMS3[p][k]) as u32) << (8 * k);
                k += 1;
            }
            p += 1;
        }
        s += 1;
    }
    t
};

/// The source column of each result column under `perm` (source stacks, then [`PERMS3`]
/// indices of their column orders).
#[inline]
fn columns(perm: [u8; 6]) -> [u8; 9] {
    // Built in one word: nine byte stores read back as a word stall store forwarding.
    let stack = |k: usize| STACK_COLS[usize::from(perm[k])][usize::from(perm[3 + k])];
    let (a, b, last) = (stack(0), stack(1), stack(2));
    let word = u64::from(a) | u64::from(b) << 24 | u64::from(last) << 48;
    let mut cols = [0u8; 9];
    cols[..8].copy_from_slice(&word.to_le_bytes());
    cols[8] = (last >> 16) as u8;
    cols
}

/// The lines of a grid in both orientations, with what the search needs to know of them.
struct Lines {
    /// `cells[orient][row][column]`.
    cells: [[[u8; 9]; 9]; 2],
    /// Clue columns of each line (bit `c` for column `c`).
    clues: [[u16; 9]; 2],
    /// Whether some line repeats a digit (invalid givens).
    repeats: bool,
}

impl Lines {
    fn new(grid: &Grid) -> Lines {
        let mut cells = [[[0u8; 9]; 9]; 2];
        let mut clues = [[0u16; 9]; 2];
        // Digits seen in each column, and any digit seen again in its row or column.
        let mut column_digits = [0u16; 9];
        let mut repeated = 0u16;
        // Row by row, a row's masks in registers, without a branch per cell: whether a cell
        // holds a clue is as good as random on most puzzles.
        for (r, row) in grid.cells().chunks_exact(9).enumerate() {
            let (mut row_clues, mut row_digits) = (0u16, 0u16);
            for (c, &v) in row.iter().enumerate() {
                cells[0][r][c] = v;
                cells[1][c][r] = v;
                let clue = u16::from(v != 0);
                let digit = 1u16 << v & !1;
                row_clues |= clue << c;
                repeated |= (row_digits | column_digits[c]) & digit;
                row_digits |= digit;
                clues[1][c] |= clue << r;
                column_digits[c] |= digit;
            }
            clues[0][r] = row_clues;
        }
        let repeats = repeated != 0;
        Lines {
            cells,
            clues,
            repeats,
        }
    }
}

/// The best row of a level so far, and the clue mask a row must not be certainly larger
/// than: the best row's, or before there is one a mask some candidate is known to reach
/// ([`NO_BOUND`] when none is known).
struct Level {
    best: Option<[u8; 9]>,
    mask: u16,
}

/// The mask of a row of nine clues: no row is certainly larger than it.
const NO_BOUND: u16 = 0x1ff;

impl Level {
    /// A level with no best row yet, whose candidates reach the clue mask `bound`.
    fn new(bound: u16) -> Level {
        Level {
            best: None,
            mask: bound,
        }
    }

    /// Whether a row with the clue mask `mask` is certainly larger than the level's best row
    /// (or than a row reaching the bound).
    #[inline]
    fn beats(&self, mask: u16) -> bool {
        mask_verdict(mask, self.mask) == Some(true)
    }
}

/// The reusable state of the search: the two candidate levels.
#[derive(Default)]
pub struct Canonicalizer {
    current: Vec<Candidate>,
    next: Vec<Candidate>,
}

/// Relabel `line` through `cols` and compare it with `best` (`None`: no best yet, so
/// smaller). Returns `None` when larger; otherwise the row and whether it is smaller.
#[inline]
fn extend_row(
    line: &[u8; 9],
    cols: &[u8; 9],
    label: &mut [u8; 10],
    next: &mut u8,
    best: Option<&[u8; 9]>,
) -> Option<([u8; 9], bool)> {
    // The row is gathered in a register and stored once: nine byte stores read back as a
    // word by the caller would stall store forwarding.
    let mut row = 0u128;
    let mut relabel = |j: usize| {
        let v = line[usize::from(cols[j])];
        let l = if v == 0 {
            0
        } else {
            let slot = &mut label[usize::from(v)];
            if *slot == 0 {
                *slot = *next;
                *next += 1;
            }
            *slot
        };
        row |= u128::from(l) << (8 * j);
        l
    };
    let mut less = best.is_none();
    let mut j = 0;
    if let Some(best) = best {
        while j < 9 {
            let l = relabel(j);
            j += 1;
            if l != best[j - 1] {
                if l > best[j - 1] {
                    return None;
                }
                less = true;
                break;
            }
        }
    }
    while j < 9 {
        relabel(j);
        j += 1;
    }
    let mut out = [0u8; 9];
    out.copy_from_slice(&row.to_le_bytes()[..9]);
    Some((out, less))
}

/// A result row's clue mask compared with the best row's (`best_mask`): `Some(true)` when
/// the row is certainly larger (its first clue where the best has none comes before any
/// position where both have clues, so no digit can decide earlier), `Some(false)` when
/// certainly smaller, `None` when the digits must decide.
#[inline]
fn mask_verdict(mask: u16, best_mask: u16) -> Option<bool> {
    let diff = mask ^ best_mask;
    if diff == 0 {
        return None;
    }
    let top = 15 - diff.leading_zeros(); // the first differing position, as a bit
    let before = !((2u16 << top) - 1);
    if mask & best_mask & before != 0 {
        return None;
    }
    Some(mask >> top & 1 == 1)
}

impl Canonicalizer {
    /// A search with empty candidate buffers (they grow to the largest level seen and are
    /// reused by later calls).
    pub fn new() -> Canonicalizer {
        Canonicalizer::default()
    }

    /// The canonical form of `grid` and its automorphism count.
    pub fn canonicalize(&mut self, grid: &Grid) -> Canonical {
        self.search(grid)
            .unwrap_or_else(|| reference::canonicalize(grid))
    }

    /// The row-by-row search; `None` when too many candidates tie.
    fn search(&mut self, grid: &Grid) -> Option<Canonical> {
        let lines = Lines::new(grid);
        if !lines.repeats && grid.clues() == CELLS {
            return Some(full::canonicalize(&lines));
        }
        let key = self.empty_prefixes(&lines)?;
        // Every column is free at the first row with a clue, so each line's class mask is
        // reached: the smallest one rejects the other lines before any is relabelled (such a
        // pass at every level cost 17-clue 8% in the search before the free columns).
        let mut key_mask = NO_BOUND;
        for c in &self.current {
            let clues = &lines.clues[usize::from(c.orient)];
            let mut rows = c.choices(key);
            while rows != 0 {
                let r = rows.trailing_zeros() as usize;
                rows &= rows - 1;
                key_mask = key_mask.min(SMALLEST_MASK[usize::from(clues[r])]);
            }
        }
        let mut form = [0u8; CELLS];
        for level in key..9 {
            let bound = if level == key { key_mask } else { NO_BOUND };
            let row = self.extend(&lines, level, bound)?;
            form[level * 9..level * 9 + 9].copy_from_slice(&row);
        }
        Some(Canonical {
            form: Grid::from_cells(form).expect("labels are 1..=9"),
            automorphisms: self.current.iter().map(Candidate::multiplicity).sum(),
        })
    }

    /// The leading empty rows: every row arrangement prefix of empty rows of the greatest
    /// length, as candidates with every column free (in `current`); returns that length (the
    /// level of the first row with a clue). `None` for the empty grid or too many prefixes.
    fn empty_prefixes(&mut self, lines: &Lines) -> Option<usize> {
        self.current.clear();
        let mut longest = 0;
        for orient in 0..2u8 {
            let start = Candidate {
                cols: columns([0, 1, 2, 0, 0, 0]),
                perm: [0, 1, 2, 0, 0, 0],
                rows: [0; 9],
                label: [0; 10],
                next: 1,
                orient,
                used: 0,
                free: ALL_FREE,
            };
            let empty = (0..9).fold(0u16, |m, r| {
                m | u16::from(lines.clues[usize::from(orient)][r] == 0) << r
            });
            self.grow_empty(start, 0, empty, &mut longest)?;
        }
        (longest < 9).then_some(longest)
    }

    /// Extend `c` (whose first `level` rows are empty) by further empty rows; keep in
    /// `current` the prefixes of length `longest` or more.
    fn grow_empty(
        &mut self,
        c: Candidate,
        level: usize,
        empty: u16,
        longest: &mut usize,
    ) -> Option<()> {
        let mut more = if level < 9 {
            c.choices(level) & empty
        } else {
            0
        };
        if more == 0 {
            if level > *longest {
                *longest = level;
                self.current.clear();
            }
            if level == *longest {
                if self.current.len() == CANDIDATE_LIMIT {
                    return None;
                }
                self.current.push(c);
            }
            return Some(());
        }
        while more != 0 {
            let r = more.trailing_zeros() as usize;
            more &= more - 1;
            let mut e = c;
            e.rows[level] = r as u8;
            e.used |= 1 << r;
            self.grow_empty(e, level + 1, empty, longest)?;
        }
        Some(())
    }

    /// Level `level`: extend every candidate by every allowed source row, keep those reaching
    /// the smallest row, and return that row. The candidates reach the clue mask `bound`.
    fn extend(&mut self, lines: &Lines, level: usize, bound: u16) -> Option<[u8; 9]> {
        self.next.clear();
        let current = std::mem::take(&mut self.current);
        let mut best = Level::new(bound);
        let offered = current
            .iter()
            .try_for_each(|c| self.offer(lines, c, level, &mut best));
        self.current = current;
        offered?;
        std::mem::swap(&mut self.current, &mut self.next);
        best.best
    }

    /// Extend `c` by every source row allowed at `level`; push onto `next` the extensions
    /// equal to the level's best row (clearing it for a smaller one). Rows whose clue mask
    /// settles the comparison are judged without their digits. `None`: too many ties.
    #[inline]
    fn offer(
        &mut self,
        lines: &Lines,
        c: &Candidate,
        level: usize,
        best: &mut Level,
    ) -> Option<()> {
        let orient = usize::from(c.orient);
        let clues = &lines.clues[orient];
        let mut rest = c.choices(level);
        while rest != 0 {
            let r = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let line = &lines.cells[orient][r];
            if c.free == 0 {
                if !best.beats(c.permuted_mask(clues[r])) {
                    self.push_if_best(line, c, c.cols, c.perm, 0, level, r, best)?;
                }
            } else if !best.beats(c.class_mask(clues[r])) {
                c.arrangements(clues[r], |perm, free| {
                    self.push_if_best(line, c, columns(perm), perm, free, level, r, best)
                })?;
            }
        }
        Some(())
    }

    /// `c` with source row `r` (`line`) as row `level` through the columns `cols` (`perm`,
    /// leaving `free` free): pushed onto `next` when it reaches the level's best row (clearing
    /// `next` when smaller). `None`: too many ties.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn push_if_best(
        &mut self,
        line: &[u8; 9],
        c: &Candidate,
        cols: [u8; 9],
        perm: [u8; 6],
        free: u8,
        level: usize,
        r: usize,
        best: &mut Level,
    ) -> Option<()> {
        let (mut label, mut next) = (c.label, c.next);
        let Some((row, less)) = extend_row(line, &cols, &mut label, &mut next, best.best.as_ref())
        else {
            return Some(());
        };
        if less {
            best.best = Some(row);
            best.mask = row.iter().fold(0, |m, &v| m << 1 | u16::from(v != 0));
            self.next.clear();
        }
        if self.next.len() == CANDIDATE_LIMIT {
            return None;
        }
        // Changed in place once pushed: a copy changed byte by byte on the stack and then
        // pushed would be read back as words and stall store forwarding.
        self.next.push(*c);
        let e = self.next.last_mut().expect("just pushed");
        e.cols = cols;
        e.perm = perm;
        e.free = free;
        e.rows[level] = r as u8;
        e.used |= 1 << r;
        e.label = label;
        e.next = next;
        Some(())
    }
}

/// The canonical form of `grid` and its automorphism count (see the module docs). Reuse a
/// [`Canonicalizer`] instead when canonicalising many grids on one thread.
pub fn canonicalize(grid: &Grid) -> Canonical {
    Canonicalizer::new().canonicalize(grid)
}

/// The canonical form of `grid` (see the module docs).
pub fn canonical(grid: &Grid) -> Grid {
    canonicalize(grid).form
}

#[cfg(test)]
mod tests;
