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
//! # Algorithm (row by row, candidates pruned by the best prefix)
//!
//! A candidate is a symmetry fixed so far: the orientation (transposed or not), the source
//! rows of the result rows chosen so far, a complete column permutation (as source columns,
//! and as source stacks with the `PERMS3` index of each stack's column order), and the
//! digit labels given so far. The form is built one result row at a time:
//!
//! 1. **Leading empty rows.** An empty source row is all zeros under any column order, so
//!    the form opens with as many empty rows as a row arrangement can line up (within a
//!    band, then whole bands). Every arrangement prefix reaching that count is kept, without
//!    columns: the columns are chosen at the first row with a clue, the *key row*.
//! 2. **The key row by bitmask.** When no line repeats a digit (every valid puzzle), a
//!    row's relabelled string depends only on where its clues are (labels 1, 2, … left to
//!    right), so the smallest key row is the smallest clue mask any column permutation
//!    gives: stacks sorted by clue count, clues pushed right in each stack. That minimum is
//!    computed per line before any permutation is made; only the lines reaching it are
//!    expanded, and only into the permutations reaching it (stack orders keeping the counts
//!    ascending × column orders keeping each stack's empty cells first): at most 1,296 per
//!    line, 144 for a line with one clue.
//! 3. **The key row's permutations go straight to the next row** instead of being stored:
//!    while the permutation is built stack by stack, a prefix under which every row that may
//!    come next is *certainly* larger than that level's best row cuts the whole subtree.
//!    "Certainly larger" is decided on clue masks alone: the row has a clue at the first
//!    position where the masks differ and the two rows share no clue position before it (so
//!    no digit can decide earlier). Masks come from a table (`PERMUTE3`: a stack's 3-bit
//!    mask under each of its 6 column orders), three lookups per row, one stack more at each
//!    depth of the permutation loops. Before any permutation is built, each line's *floor*
//!    is known from tables: the smallest mask a row that may follow it reaches under its
//!    allowed permutations. The smallest floor is a mask some candidate reaches, so a row
//!    certainly larger than it cannot win: it cuts from the first permutation on, not only
//!    once a best row exists; lines are tried by ascending floor and a line whose floor is
//!    certainly larger than the best row is skipped whole ("certainly larger" holds for
//!    every mask at least as large as one that is).
//! 4. **Rows after that by extension.** Each candidate is extended by every source row the
//!    band structure allows (a new band takes any row of an unused band, otherwise the
//!    remaining rows of the current band); the mask test above rejects most, the rest are
//!    relabelled and compared cell by cell, leaving at the first larger cell. Only candidates
//!    equal to the level's best row survive; a smaller row clears the level.
//! 5. After row 8 the survivors are all the symmetries reaching the form: their count is the
//!    number of automorphisms.
//!
//! Nothing that could be smaller or equal is dropped, so the form is exact. Full grids (81
//! clues, no repeated digit in a line) take a search of their own (`full.rs`): every line
//! ties as their first row. Grids where a line repeats a digit (invalid givens) start the
//! key row from all 1,296 column permutations of every allowed line, compared as relabelled
//! strings. Grids so sparse that more than [`CANDIDATE_LIMIT`] candidates tie at some level
//! (the empty grid, a handful of clues) fall back to the exhaustive
//! [`reference`](mod@reference) search, exact for every grid but slow (milliseconds to a
//! second).
//!
//! # Measured
//!
//! Work per puzzle (averages over the whole set, before the floors below): 17-clue puzzles
//! 71 key-row permutations built, 243 rows offered to a level (mask test), 98 relabelled and
//! compared, 63 kept; Kaggle 1M sample 43, 113, 63 and 26. Time per puzzle, one thread, in
//! process (the search alone, best of 3 passes; shared 2-core machine, load ~2): 17-clue
//! 12.3 → 10.7 µs, Kaggle 12.4 → 9.0 µs; full solution grids ~2.2 ms → ~50 µs. Through the
//! binary, side by side with `solve --threads 1` (`scripts/canon-throughput.sh 5`, README,
//! quiet machine): 17-clue 98k/s (2.95× solve's time), Kaggle 101k/s (4.7×), full grids
//! ~17.6k/s (under load ~2).
//!
//! - kept: leading empty rows handled without columns (17-clue 129 → 37 µs: two thirds of
//!   these puzzles have an empty line, which made 1,296 permutations per empty line tie);
//!   the key row's permutations offered straight to the next row with stack-prefix cuts
//!   (37 → 14 µs; 365 → 71 permutations built per puzzle); triplet-table masks instead of a
//!   9-column fold (14 → 12 µs); the next-row floor as a bound from the first permutation on
//!   (Kaggle 12.4 → 9.4 µs; 17-clue flat, once the stack orders came from a table and the
//!   prefix masks grew one stack per loop depth: computed naively it cost 17-clue 5-10%);
//!   no store-forwarding stalls (a relabelled row gathered in a register and stored once,
//!   an extension changed in place after its push instead of built on the stack and copied:
//!   `perf annotate` showed 12-19% of the samples of three functions on such reloads; 17-clue
//!   12.6 → 11.2 µs); key lines by ascending floor, hopeless lines skipped (11.0 → 10.7 µs);
//!   the full-grid search (~40× on full grids); the following rows' masks grown in the
//!   key-row loops handed to the next level instead of computed again (binary, alternating
//!   runs, quiet machine: 17-clue 0.588 → 0.525 s, Kaggle 0.273 → 0.258 s); a key-row
//!   prefix judged hopeless by the smallest following mask alone (monotone; 0.527 → 0.507 s,
//!   0.254 → 0.250 s).
//! - lost or flat: storing the key row's candidates before extending them (the first
//!   version, 2x slower); the inverse permutation per candidate to build masks from clue
//!   bits (no gain over the fold); a branch-free relabelling compared as one 128-bit number
//!   at the end (17-clue +25%: no early exit); the whole candidate packed four bits an entry
//!   into words (rows, columns, labels; 17-clue 11.2 → 15.1 µs: bounds checks on nibble
//!   indices and a serial dependency through the label word); the key candidate's labels
//!   and rows built in 128-bit registers (11.2 → 12.8 µs); a floor over every candidate at
//!   the later levels too (17-clue +8%: most levels have few candidates, so the extra pass
//!   costs more than the relabels it saves); the key row's labels set directly (left to
//!   right, no lookup) in a byte array or in a 128-bit register (17-clue +12-15%); cutting
//!   by the bound and the best row's mask both, not the best alone (+10%); the level
//!   threshold hoisted out of the hopeless test, `key_candidate` forced inline, the
//!   candidate aligned to 40 bytes (all flat).
//! - not done: dobrichev-style pattern-first canonicalisation (the minimal clue pattern
//!   first, then digits) computes a *different* form: with our definition a digit can decide
//!   before the patterns differ (`000001210…` beats `000001300…` although its mask is
//!   larger), so pattern minimality may only be used where it is certain (step 3's test).
//!   Deferring the column order of stacks that are empty in every row fixed so far (as the
//!   leading empty rows defer all columns): such orders make tied candidates on sparse
//!   puzzles, each extended separately; the likely next step towards 100k/s on 17-clue.

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

/// A symmetry fixed up to result row `level`.
#[derive(Clone, Copy)]
struct Candidate {
    /// Source column of each result column.
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
}

impl Candidate {
    /// The candidate with source row `r` as result row `key`.
    #[inline]
    fn after(&self, key: usize, r: usize) -> Candidate {
        let mut c = *self;
        c.rows[key] = r as u8;
        c.used |= 1 << r;
        c
    }

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

    /// The clue mask (bit `8 - j` for result column `j`) of the line whose clues are in
    /// source columns `clues` (bit per column).
    #[inline]
    fn permuted_mask(&self, clues: u16) -> u16 {
        permuted_mask(clues, &self.perm[..3], &self.perm[3..])
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

/// The clue mask of the first `stacks.len()` result stacks (first column highest) of a line
/// with clue columns `clues`, when result stack `k` is source stack `stacks[k]` with its
/// columns in the order `PERMS3[inner[k]]`.
#[inline]
fn permuted_mask(clues: u16, stacks: &[u8], inner: &[u8]) -> u16 {
    stacks.iter().zip(inner).fold(0, |m, (&s, &i)| {
        m << 3 | PERMUTE3[usize::from(clues >> (3 * s) & 7)][usize::from(i)]
    })
}

/// The lines of a grid in both orientations, with what the search needs to know of them.
struct Lines {
    /// `cells[orient][row][column]`.
    cells: [[[u8; 9]; 9]; 2],
    /// Clue columns of each line (bit `c` for column `c`).
    clues: [[u16; 9]; 2],
    /// Clue counts of each line's stacks.
    counts: [[[u32; 3]; 9]; 2],
    /// The smallest clue mask of each line under column permutations.
    min: [[u16; 9]; 2],
    /// Whether some line repeats a digit (invalid givens).
    repeats: bool,
}

impl Lines {
    fn new(grid: &Grid) -> Lines {
        let mut cells = [[[0u8; 9]; 9]; 2];
        let mut clues = [[0u16; 9]; 2];
        let mut digits = [[0u16; 9]; 2];
        for (i, &v) in grid.cells().iter().enumerate() {
            let (r, c) = (i / 9, i % 9);
            cells[0][r][c] = v;
            cells[1][c][r] = v;
            if v != 0 {
                clues[0][r] |= 1 << c;
                clues[1][c] |= 1 << r;
                digits[0][r] |= 1 << v;
                digits[1][c] |= 1 << v;
            }
        }
        let repeats =
            (0..2).any(|o| (0..9).any(|r| digits[o][r].count_ones() != clues[o][r].count_ones()));
        let counts = clues.map(|o| o.map(|c| stack_counts(line_mask(c))));
        Lines {
            cells,
            clues,
            counts,
            min: counts.map(|o| o.map(min_mask)),
            repeats,
        }
    }
}

/// Clue mask of a line given its clue columns: bit `8 - c` for a clue in column `c`, so that
/// a smaller number is a lexicographically smaller relabelled row.
fn line_mask(clues: u16) -> u16 {
    (0..9).fold(0, |m, c| m << 1 | (clues >> c & 1))
}

/// Clue counts of the three stacks of a line mask (stack 0 = columns 0-2).
fn stack_counts(mask: u16) -> [u32; 3] {
    [
        (mask >> 6 & 7).count_ones(),
        (mask >> 3 & 7).count_ones(),
        (mask & 7).count_ones(),
    ]
}

/// The smallest mask a column permutation gives a line with these stack counts: stacks by
/// ascending count, clues pushed right in each.
fn min_mask(counts: [u32; 3]) -> u16 {
    const RIGHT: [u16; 4] = [0b000, 0b001, 0b011, 0b111];
    let mut k = counts;
    k.sort_unstable();
    RIGHT[k[0] as usize] << 6 | RIGHT[k[1] as usize] << 3 | RIGHT[k[2] as usize]
}

/// The set bits of a row set, as row numbers.
fn bits(mut set: u16) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let r = set.trailing_zeros() as usize;
            set &= set - 1;
            r
        })
    })
}

/// The best row of a level so far and its clue mask, and the smallest clue mask some
/// candidate of the level is known to reach: a row whose mask is certainly larger than that
/// cannot win, whatever the order the candidates come in.
struct Level {
    best: Option<[u8; 9]>,
    mask: u16,
    bound: u16,
}

impl Level {
    /// A level with no best row yet and the reachable mask `bound` (`u16::MAX`: none known).
    fn new(bound: u16) -> Level {
        Level {
            best: None,
            mask: 0,
            bound,
        }
    }

    /// Whether a row whose first `3 * stacks` columns have the clue mask `prefix` is certainly
    /// larger than the level's best row, or than a row reaching the level's bound. True for a
    /// prefix implies true for every larger one (the threshold has no clue from the prefix's
    /// first clue on), so a set of prefixes is all certainly larger when its smallest is.
    #[inline]
    fn beats(&self, prefix: u16, stacks: usize) -> bool {
        // One test, not two: once a best row exists its mask is as good a threshold.
        let threshold = if self.best.is_some() {
            self.mask
        } else {
            self.bound
        };
        threshold != u16::MAX && mask_verdict(prefix, threshold >> (9 - 3 * stacks)) == Some(true)
    }
}

/// The smallest clue mask a row that may follow source row `r` (as row `key` after prefix
/// `p`) reaches under the column permutations giving `r` its smallest mask (`u16::MAX` when
/// `key` is the last row).
fn next_row_floor(lines: &Lines, p: &Candidate, key: usize, r: usize) -> u16 {
    if key == 8 {
        return u16::MAX;
    }
    let orient = usize::from(p.orient);
    let k = lines.counts[orient][r];
    let key_clues = lines.clues[orient][r];
    let mut floor = u16::MAX;
    for r2 in bits(p.after(key, r).choices(key + 1)) {
        let clues = lines.clues[orient][r2];
        // Each stack's smallest 3-bit mask among the column orders allowed for it.
        let stack_min: [u16; 3] = std::array::from_fn(|s| {
            FLOOR_UNDER[usize::from(key_clues >> (3 * s) & 7)][usize::from(clues >> (3 * s) & 7)]
        });
        for [a, b, c] in PERMS3 {
            if k[a] <= k[b] && k[b] <= k[c] {
                floor = floor.min(stack_min[a] << 6 | stack_min[b] << 3 | stack_min[c]);
            }
        }
    }
    floor
}

/// A candidate: prefix `p`, then `line` (source row `r`) as row `key` through the columns of
/// `perm` (source stacks, then [`PERMS3`] indices of their column orders).
fn key_candidate(line: &[u8; 9], perm: [u8; 6], p: &Candidate, key: usize, r: usize) -> Candidate {
    let mut c = *p;
    // Built in one word: nine byte stores read back as a word stall store forwarding.
    let stack = |k: usize| STACK_COLS[usize::from(perm[k])][usize::from(perm[3 + k])];
    let (a, b, last) = (stack(0), stack(1), stack(2));
    let word = u64::from(a) | u64::from(b) << 24 | u64::from(last) << 48;
    let mut cols = [0u8; 9];
    cols[..8].copy_from_slice(&word.to_le_bytes());
    cols[8] = (last >> 16) as u8;
    c.cols = cols;
    c.perm = perm;
    c.rows[key] = r as u8;
    c.used |= 1 << r;
    extend_row(line, &cols, &mut c.label, &mut c.next, None);
    c
}

/// The reusable state of the search: the two candidate levels.
#[derive(Default)]
pub struct Canonicalizer {
    current: Vec<Candidate>,
    next: Vec<Candidate>,
    /// The key row's lines: next-row floor, prefix index, source row.
    key_lines: Vec<(u16, u32, u8)>,
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
        let prefixes = std::mem::take(&mut self.current);
        self.current.clear();
        let mut form = [0u8; CELLS];
        let mut set_row = |level: usize, row: [u8; 9]| {
            form[level * 9..level * 9 + 9].copy_from_slice(&row);
        };
        let mut done = key + 1;
        if lines.repeats {
            set_row(key, self.key_row_any(&lines, key, &prefixes)?);
        } else {
            let (row, next_row) = self.key_row_masks(&lines, key, &prefixes)?;
            set_row(key, row);
            if let Some(next_row) = next_row {
                set_row(key + 1, next_row);
                done = key + 2;
            }
        }
        self.next = prefixes;
        for level in done..9 {
            let row = self.extend(&lines, level)?;
            set_row(level, row);
        }
        Some(Canonical {
            form: Grid::from_cells(form).expect("labels are 1..=9"),
            automorphisms: self.current.len() as u32,
        })
    }

    /// The leading empty rows: every row arrangement prefix of empty rows of the greatest
    /// length, as candidates without columns yet (in `current`); returns that length (the
    /// level of the first row with a clue). `None` for the empty grid or too many prefixes.
    fn empty_prefixes(&mut self, lines: &Lines) -> Option<usize> {
        self.current.clear();
        let mut longest = 0;
        for orient in 0..2u8 {
            let start = Candidate {
                cols: [0; 9],
                perm: [0; 6],
                rows: [0; 9],
                label: [0; 10],
                next: 1,
                orient,
                used: 0,
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

    /// The first row with a clue (level `key`, after the empty `prefixes`) when no line
    /// repeats a digit: its relabelled string depends only on where its clues are, so the
    /// smallest one is the smallest mask, known before any column permutation is made. The
    /// permutations reaching it go straight on to the next level (not stored: most lose
    /// there); returns the key row and the next one (`None` when the key row is the last).
    fn key_row_masks(
        &mut self,
        lines: &Lines,
        key: usize,
        prefixes: &[Candidate],
    ) -> Option<([u8; 9], Option<[u8; 9]>)> {
        let mut best = u16::MAX;
        for p in prefixes {
            let mut rows = p.choices(key);
            while rows != 0 {
                let r = rows.trailing_zeros() as usize;
                rows &= rows - 1;
                best = best.min(lines.min[usize::from(p.orient)][r]);
            }
        }
        // The smallest next-row mask any key-row permutation reaches: the bound that cuts
        // permutations before any next row has been relabelled.
        // The lines are tried by ascending floor, so a good best row comes early, and a line
        // whose floor is certainly larger than the best row is skipped whole.
        self.key_lines.clear();
        for (i, p) in prefixes.iter().enumerate() {
            let mut rows = p.choices(key);
            while rows != 0 {
                let r = rows.trailing_zeros() as usize;
                rows &= rows - 1;
                if lines.min[usize::from(p.orient)][r] == best {
                    let floor = next_row_floor(lines, p, key, r);
                    self.key_lines.push((floor, i as u32, r as u8));
                }
            }
        }
        self.key_lines.sort_by_key(|&(floor, _, _)| floor);
        let bound = self
            .key_lines
            .first()
            .map_or(u16::MAX, |&(floor, _, _)| floor);
        let mut level = Level::new(bound);
        self.next.clear();
        let key_lines = std::mem::take(&mut self.key_lines);
        let tried = key_lines.iter().try_for_each(|&(floor, i, r)| {
            if key < 8 && level.beats(floor, 3) {
                return Some(());
            }
            let (p, r) = (&prefixes[i as usize], usize::from(r));
            let k = lines.counts[usize::from(p.orient)][r];
            let line = &lines.cells[usize::from(p.orient)][r];
            self.push_min_perms(lines, line, k, p, key, r, &mut level)
        });
        self.key_lines = key_lines;
        tried?;
        let next_row = if key < 8 {
            std::mem::swap(&mut self.current, &mut self.next);
            Some(level.best.expect("some candidate reaches the key row"))
        } else {
            None
        };
        let row = (0..9).fold(([0u8; 9], 1), |(mut row, next), j| {
            if best & (0x100 >> j) != 0 {
                row[j] = next;
                (row, next + 1)
            } else {
                (row, next)
            }
        });
        Some((row.0, next_row))
    }

    /// Every column permutation giving `line` (source row `r`, stack counts `k`) its smallest
    /// mask, as row `key` after prefix `p`: offered to level `key + 1` (or kept, when `key`
    /// is the last row).
    #[allow(clippy::too_many_arguments)]
    fn push_min_perms(
        &mut self,
        lines: &Lines,
        line: &[u8; 9],
        k: [u32; 3],
        p: &Candidate,
        key: usize,
        r: usize,
        level: &mut Level,
    ) -> Option<()> {
        let key_clues = lines.clues[usize::from(p.orient)][r];
        let orders = |s: u8| {
            let (orders, len) = &EMPTY_FIRST[usize::from(key_clues >> (3 * s) & 7)];
            &orders[..*len]
        };
        // The rows that may follow at level `key + 1`: a column prefix under which every one
        // of them is certainly larger than that level's best row cuts the whole subtree.
        let following = if key < 8 {
            p.after(key, r).choices(key + 1)
        } else {
            0
        };
        // Their clue columns, and their masks over the stacks fixed so far, one stack more at
        // each depth of the loops below.
        let clues = &lines.clues[usize::from(p.orient)];
        let mut next_clues = [0u16; 6];
        let mut count = 0;
        for r2 in bits(following) {
            next_clues[count] = clues[r2];
            count += 1;
        }
        let next_clues = &next_clues[..count];
        let grow = |masks: &[u16; 6], stack: u8, order: u8| -> [u16; 6] {
            let mut grown = [0; 6];
            for (i, c) in next_clues.iter().enumerate() {
                let bits3 = usize::from(c >> (3 * stack) & 7);
                grown[i] = masks[i] << 3 | PERMUTE3[bits3][usize::from(order)];
            }
            grown
        };
        let hopeless = |masks: &[u16; 6], fixed: usize, level: &Level| {
            // All certainly larger exactly when the smallest is (see `Level::beats`).
            masks[..count]
                .iter()
                .min()
                .is_some_and(|&m| level.beats(m, fixed))
        };
        for stacks in PERMS3 {
            if k[stacks[0]] > k[stacks[1]] || k[stacks[1]] > k[stacks[2]] {
                continue;
            }
            let [a, b, c] = stacks.map(|s| s as u8);
            for &ia in orders(a) {
                let m1 = grow(&[0; 6], a, ia);
                if hopeless(&m1, 1, level) {
                    continue;
                }
                for &ib in orders(b) {
                    let m2 = grow(&m1, b, ib);
                    if hopeless(&m2, 2, level) {
                        continue;
                    }
                    for &ic in orders(c) {
                        let m3 = grow(&m2, c, ic);
                        if hopeless(&m3, 3, level) {
                            continue;
                        }
                        let perm = [a, b, c, ia, ib, ic];
                        let cand = key_candidate(line, perm, p, key, r);
                        if key < 8 {
                            // The following rows' masks are known: not computed again.
                            self.offer_with(lines, &cand, key + 1, level, |i, _| m3[i])?;
                        } else if self.current.len() == CANDIDATE_LIMIT {
                            return None;
                        } else {
                            self.current.push(cand);
                        }
                    }
                }
            }
        }
        Some(())
    }

    /// The key row for grids whose lines repeat a digit: every allowed line through every
    /// column permutation, compared as relabelled strings.
    fn key_row_any(
        &mut self,
        lines: &Lines,
        key: usize,
        prefixes: &[Candidate],
    ) -> Option<[u8; 9]> {
        let mut best: Option<[u8; 9]> = None;
        for p in prefixes {
            let mut rows = p.choices(key);
            while rows != 0 {
                let r = rows.trailing_zeros() as usize;
                rows &= rows - 1;
                let line = &lines.cells[usize::from(p.orient)][r];
                // Every column permutation: 6 stack orders x 6^3 column orders.
                for n in 0..1296usize {
                    let digits = [n / 216, n / 36 % 6, n / 6 % 6, n % 6];
                    let stacks = PERMS3[digits[0]];
                    let perm = [
                        stacks[0] as u8,
                        stacks[1] as u8,
                        stacks[2] as u8,
                        digits[1] as u8,
                        digits[2] as u8,
                        digits[3] as u8,
                    ];
                    let cand = key_candidate(line, perm, p, key, r);
                    let (mut label, mut next) = ([0u8; 10], 1);
                    let Some((row, less)) =
                        extend_row(line, &cand.cols, &mut label, &mut next, best.as_ref())
                    else {
                        continue;
                    };
                    if less {
                        best = Some(row);
                        self.current.clear();
                    }
                    if self.current.len() == CANDIDATE_LIMIT {
                        return None;
                    }
                    self.current.push(cand);
                }
            }
        }
        best
    }

    /// Level `level`: extend every candidate by every allowed source row, keep those reaching
    /// the smallest row, and return that row.
    fn extend(&mut self, lines: &Lines, level: usize) -> Option<[u8; 9]> {
        self.next.clear();
        let current = std::mem::take(&mut self.current);
        let mut best = Level::new(u16::MAX);
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
        let clues = &lines.clues[usize::from(c.orient)];
        self.offer_with(lines, c, level, best, |_, r| c.permuted_mask(clues[r]))
    }

    /// [`offer`](Self::offer) with the clue mask of the `i`-th allowed source row `r` given
    /// by `mask(i, r)`.
    #[inline]
    fn offer_with(
        &mut self,
        lines: &Lines,
        c: &Candidate,
        level: usize,
        best: &mut Level,
        mask: impl Fn(usize, usize) -> u16,
    ) -> Option<()> {
        let orient = usize::from(c.orient);
        let mut rest = c.choices(level);
        let mut i = 0;
        while rest != 0 {
            let r = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            i += 1;
            if best.beats(mask(i - 1, r), 3) {
                continue;
            }
            let (mut label, mut next) = (c.label, c.next);
            let line = &lines.cells[orient][r];
            let Some((row, less)) =
                extend_row(line, &c.cols, &mut label, &mut next, best.best.as_ref())
            else {
                continue;
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
            e.rows[level] = r as u8;
            e.used |= 1 << r;
            e.label = label;
            e.next = next;
        }
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

/// `EMPTY_FIRST[x]`: the column orders (indices into `PERMS3`) putting the empty cells of a
/// stack with clue columns `x` (bit `i` for its column `i`) first, and how many there are.
const EMPTY_FIRST: [([u8; 6], usize); 8] = {
    let mut t = [([0u8; 6], 0usize); 8];
    let mut x = 0;
    while x < 8 {
        let mut p = 0;
        while p < 6 {
            let (c0, c1, c2) = (
                (x >> PERMS3[p][0]) & 1,
                (x >> PERMS3[p][1]) & 1,
                (x >> PERMS3[p][2]) & 1,
            );
            if c0 <= c1 && c1 <= c2 {
                t[x].0[t[x].1] = p as u8;
                t[x].1 += 1;
            }
            p += 1;
        }
        x += 1;
    }
    t
};

/// `FLOOR_UNDER[x][y]`: the smallest 3-bit mask (as [`PERMUTE3`]) a stack with clue columns
/// `y` takes under the column orders of [`EMPTY_FIRST`]`[x]`.
const FLOOR_UNDER: [[u16; 8]; 8] = {
    let mut t = [[u16::MAX; 8]; 8];
    let mut x = 0;
    while x < 8 {
        let mut y = 0;
        while y < 8 {
            let mut k = 0;
            while k < EMPTY_FIRST[x].1 {
                let m = PERMUTE3[y][EMPTY_FIRST[x].0[k] as usize];
                if m < t[x][y] {
                    t[x][y] = m;
                }
                k += 1;
            }
            y += 1;
        }
        x += 1;
    }
    t
};

#[cfg(test)]
mod tests;
