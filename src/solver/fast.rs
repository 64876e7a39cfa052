//! The fast solver: digit planes split into band words, in the style of JCZSolve.
//!
//! ```text
//!  grid rows          band word for one digit (u32, 27 live bits)
//!  0 ┐                 bit:  26 ........ 18 | 17 ........ 9 | 8 ......... 0
//!  1 ├ band 0                row 2 of band  | row 1 of band | row 0 of band
//!  2 ┘                       c8 c7 ... c0   | c8 c7 ... c0  | c8 c7 ... c0
//!  3 ┐
//!  4 ├ band 1         state.cand[digit * 3 + band]: cells of `band` where `digit` may go
//!  5 ┘                (a placed digit keeps its one bit; other digits lose that bit)
//!  6 ┐                state.unsolved[band]: cells of `band` not placed yet
//!  7 ├ band 2         state.prev[..]: each word as last propagated (change detection)
//!  8 ┘
//!
//!  mini-row = 3 cells where a row crosses a box; a band has 9 (row r, box k: bits r*9+3k..+2)
//! ```
//!
//! Techniques, per step of [`State::propagate`]:
//! - **band update** (per changed word; JCZSolve's "shrink/complex" step): the digit's 9
//!   mini-rows must form a permutation matrix (once per row, once per box), so one table
//!   lookup gives box-line reduction both ways and hidden singles in boxes (`COMPLEX`); a row
//!   left with one cell is a hidden single in that row and is placed: its cell leaves the
//!   other 8 digits' words. A box confined to one column locks that column for the digit, and
//!   the other two bands lose it (`KEEP_OTHER`), which also does the column elimination of a
//!   placed digit.
//! - **naked singles**, once the band updates reach a fixed point: bit-sliced counting over
//!   the 9 digit words of a band finds cells with one candidate (`once = seen & !seen_twice`)
//!   and cells with none (contradiction).
//! - **branching**: on the first cell with two candidates (found with the same counting), else
//!   the first cell with the fewest. Candidates are tried in increasing digit order; every
//!   alternative but the last runs on a copy of the state (240 bytes, on the call stack:
//!   depth ≤ 81), the last one continues in place.
//!
//! Measured and kept: see README "Solver performance". Tried and measured as a loss: (none yet).

use super::tables::{BAND, COMPLEX, KEEP_OTHER, PERM9, ROW, SHRINK, SINGLE9};
use super::Tally;
use crate::grid::{Grid, CELLS};

/// The givens cannot be completed (from this state).
struct Contradiction;

/// The whole search state; `Copy`, so a branch is a plain copy.
#[derive(Clone, Copy)]
struct State {
    cand: [u32; 27],
    prev: [u32; 27],
    unsolved: [u32; 3],
}

impl State {
    /// The state with `grid`'s givens placed (their consequences not yet propagated).
    /// The givens must not conflict (checked by the caller).
    fn new(grid: &Grid) -> State {
        let mut st = State {
            cand: [BAND; 27],
            prev: [0; 27],
            unsolved: [BAND; 3],
        };
        for (cell, &v) in grid.cells().iter().enumerate() {
            if v != 0 {
                st.assign(cell / 27, 1 << (cell % 27), usize::from(v - 1));
            }
        }
        st
    }

    /// Put `digit` in the cell `bit` of `band`: its row keeps only that cell for the digit
    /// (the band update then places it), and the other digits lose the cell.
    #[inline]
    fn assign(&mut self, band: usize, bit: u32, digit: usize) {
        let row = (bit.trailing_zeros() / 9) as usize;
        for d in 0..9 {
            self.cand[d * 3 + band] &= !bit;
        }
        let w = &mut self.cand[digit * 3 + band];
        *w = (*w & !ROW[row]) | bit;
    }

    /// Band update of the word of `D`igit and `B`and (see the module docs). Const generics
    /// make every index a constant: no bounds checks, no band arithmetic at run time.
    #[inline(always)]
    fn update_word<const D: usize, const B: usize>(&mut self) -> Result<(), Contradiction> {
        let mut a = self.cand[D * 3 + B];
        let occupancy = usize::from(SHRINK[(a & 0x1FF) as usize])
            | usize::from(SHRINK[((a >> 9) & 0x1FF) as usize]) << 3
            | usize::from(SHRINK[(a >> 18) as usize]) << 6;
        a &= COMPLEX[occupancy];
        if a == 0 {
            return Err(Contradiction);
        }
        let keep = KEEP_OTHER[((a | a >> 9 | a >> 18) & 0x1FF) as usize];
        self.cand[D * 3 + (B + 1) % 3] &= keep;
        self.cand[D * 3 + (B + 2) % 3] &= keep;
        let singles = u32::from(SINGLE9[(a & 0x1FF) as usize])
            | u32::from(SINGLE9[((a >> 9) & 0x1FF) as usize]) << 9
            | u32::from(SINGLE9[(a >> 18) as usize]) << 18;
        let placed = singles & self.unsolved[B];
        if placed != 0 {
            self.unsolved[B] &= !placed;
            for d in 0..9 {
                self.cand[d * 3 + B] &= !placed;
            }
        }
        self.cand[D * 3 + B] = a;
        self.prev[D * 3 + B] = a;
        Ok(())
    }

    /// Stack update of digit `d`: the column-direction twin of the band update. In each stack
    /// the digit's 9 *mini-columns* (band × column) form a permutation matrix too; filtering
    /// them finds hidden singles in columns and column-box reductions. True if a word changed.
    #[inline(always)]
    fn stack_update(&mut self, d: usize) -> bool {
        let w = &mut self.cand[d * 3..d * 3 + 3];
        let cols = |a: u32| (a | a >> 9 | a >> 18) & 0x1FF;
        let x = cols(w[0]) | cols(w[1]) << 9 | cols(w[2]) << 18;
        let mut allowed = 0;
        for k in 0..3 {
            let m = (x >> (3 * k)) & 0o7007007;
            let m9 = (m & 7) | (m >> 6) & 0o70 | (m >> 12) & 0o700;
            let p = PERM9[m9 as usize];
            allowed |= ((p & 7) | (p & 0o70) << 6 | (p & 0o700) << 12) << (3 * k);
        }
        if allowed == x {
            return false;
        }
        for (b, word) in w.iter_mut().enumerate() {
            let c = (allowed >> (9 * b)) & 0x1FF;
            *word &= c | c << 9 | c << 18;
        }
        true
    }

    /// Band updates to a fixed point.
    #[inline]
    fn update_all(&mut self) -> Result<(), Contradiction> {
        loop {
            let mut changed = false;
            macro_rules! step {
                ($($d:literal),*) => {$(
                    if self.cand[$d * 3] != self.prev[$d * 3] {
                        changed = true;
                        self.update_word::<$d, 0>()?;
                    }
                    if self.cand[$d * 3 + 1] != self.prev[$d * 3 + 1] {
                        changed = true;
                        self.update_word::<$d, 1>()?;
                    }
                    if self.cand[$d * 3 + 2] != self.prev[$d * 3 + 2] {
                        changed = true;
                        self.update_word::<$d, 2>()?;
                    }
                )*};
            }
            step!(0, 1, 2, 3, 4, 5, 6, 7, 8);
            if !changed {
                for d in 0..9 {
                    changed |= self.stack_update(d);
                }
                if !changed {
                    return Ok(());
                }
            }
        }
    }

    /// Bit-sliced count of candidates per cell of `band`: (at least 1, at least 2, at least 3).
    #[inline(always)]
    fn counts(&self, band: usize) -> (u32, u32, u32) {
        let (mut one, mut two, mut three) = (0, 0, 0);
        for d in 0..9 {
            let w = self.cand[d * 3 + band];
            three |= two & w;
            two |= one & w;
            one |= w;
        }
        (one, two, three)
    }

    /// Place every naked single; true if any was found.
    #[inline]
    fn naked_singles(&mut self) -> Result<bool, Contradiction> {
        let mut any = false;
        for band in 0..3 {
            let unsolved = self.unsolved[band];
            if unsolved == 0 {
                continue;
            }
            let (one, two, _) = self.counts(band);
            if unsolved & !one != 0 {
                return Err(Contradiction);
            }
            let mut singles = unsolved & !two;
            while singles != 0 {
                let bit = singles & singles.wrapping_neg();
                singles ^= bit;
                let row = (bit.trailing_zeros() / 9) as usize;
                for d in 0..9 {
                    let w = &mut self.cand[d * 3 + band];
                    if *w & bit != 0 {
                        *w = (*w & !ROW[row]) | bit;
                        break;
                    }
                }
                any = true;
            }
        }
        Ok(any)
    }

    /// Propagate to a fixed point of band updates and naked singles.
    #[inline]
    fn propagate(&mut self) -> Result<(), Contradiction> {
        loop {
            self.update_all()?;
            if self.is_solved() || !self.naked_singles()? {
                return Ok(());
            }
        }
    }

    #[inline]
    fn is_solved(&self) -> bool {
        self.unsolved[0] | self.unsolved[1] | self.unsolved[2] == 0
    }

    /// The cell to branch on: the first bivalue cell, else the first with fewest candidates.
    fn branch_cell(&self) -> (usize, u32) {
        for band in 0..3 {
            let unsolved = self.unsolved[band];
            if unsolved != 0 {
                let (_, two, three) = self.counts(band);
                let pairs = unsolved & two & !three;
                if pairs != 0 {
                    return (band, pairs & pairs.wrapping_neg());
                }
            }
        }
        let mut best = (0, 0, u32::MAX);
        for band in 0..3 {
            let mut cells = self.unsolved[band];
            while cells != 0 {
                let bit = cells & cells.wrapping_neg();
                cells ^= bit;
                let n = (0..9)
                    .filter(|d| self.cand[d * 3 + band] & bit != 0)
                    .count() as u32;
                if n < best.2 {
                    best = (band, bit, n);
                }
            }
        }
        (best.0, best.1)
    }

    /// The grid of a solved state.
    fn solution(&self) -> Grid {
        let mut cells = [0u8; CELLS];
        for digit in 0..9 {
            for band in 0..3 {
                let mut w = self.cand[digit * 3 + band];
                while w != 0 {
                    cells[band * 27 + w.trailing_zeros() as usize] = digit as u8 + 1;
                    w &= w - 1;
                }
            }
        }
        Grid::from_cells(cells).expect("cells are 1..=9")
    }
}

/// Depth-first search from `st`, counting into `tally`.
fn search(mut st: State, tally: &mut Tally) {
    loop {
        if st.propagate().is_err() {
            return;
        }
        if st.is_solved() {
            tally.found(|| st.solution());
            return;
        }
        let (band, bit) = st.branch_cell();
        let mut digits = 0u32;
        for d in 0..9 {
            if st.cand[d * 3 + band] & bit != 0 {
                digits |= 1 << d;
            }
        }
        // Every candidate but the last on a copy; the last continues in place.
        while digits & (digits - 1) != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            let mut child = st;
            child.assign(band, bit, d);
            tally.guesses += 1;
            tally.nodes += 1;
            search(child, tally);
            if tally.done() {
                return;
            }
            st.cand[d * 3 + band] &= !bit;
        }
        st.assign(band, bit, digits.trailing_zeros() as usize);
        tally.guesses += 1;
        tally.nodes += 1;
    }
}

/// Solve `grid` (givens already checked for conflicts), stopping after `limit` solutions.
pub(super) fn solve(grid: &Grid, limit: u32) -> super::Outcome {
    let mut tally = Tally::new(limit);
    search(State::new(grid), &mut tally);
    tally.outcome()
}
