//! The canonical form of a full grid (81 clues, no line repeating a digit), by a search of its
//! own: the same form as the general search, found without its 23,328 tied key-row
//! candidates.
//!
//! # Why full grids are different
//!
//! Every full row has the same clue mask, so every line under every column permutation ties
//! as the first row: it relabels to `123456789`, and that relabelling fixes every later
//! digit. A candidate is therefore (orientation, source row `r0` of row 1, source row `r1` of
//! row 2, column permutation `c`) and nothing else is free:
//!
//! - rows 2 and 3 come from `r0`'s band (`r1` and the third row, `r2`);
//! - two rows of a full grid with no repeated digit in a column differ in every column, so
//!   the other six rows are ordered by their first cell alone: row 4 is the one with the
//!   smallest first cell, its band follows in first-cell order, then the last band.
//!
//! # Row 2 as a permutation
//!
//! With `r0` read through `c` as `123456789`, the label of a digit is one plus the result
//! column where `r0` has it. So row 2 is `π(j) + 1` with `π = c⁻¹ σ c`, where `σ` sends a
//! source column to the column of `r0` holding the digit `r1` has there: minimising row 2 is
//! finding the smallest conjugate of `σ` under the 1,296 column permutations. A depth-first
//! search fixes `c` one result column `j` at a time: `c(j)` is branched over the source columns
//! the stack structure allows (or forced, if already placed), then `t = σ(c(j))`, if not
//! placed yet, is placed in the lowest result column it can still take (the next free column
//! of the result stack its source stack occupies, else the first column of the first unused
//! result stack). Any other place for `t` makes `π(j)` larger, so nothing smaller is lost;
//! a prefix larger than the best row 2 so far is cut. At a leaf the column permutation is
//! complete and the whole form is built and compared; the leaves equal to the form are the
//! automorphisms (each is one position symmetry, since the row order follows from `r0`,
//! `r1` and `c`).

use super::{Canonical, Lines};
use crate::grid::{Grid, CELLS};

/// Not placed yet.
const NONE: u8 = 9;

/// A column permutation being built: source and result columns placed so far. Result
/// stacks are taken in order (a column is only ever placed in the first unused one), and
/// each fills from its first column on.
#[derive(Clone, Copy)]
struct Columns {
    /// Source column of each result column.
    source: [u8; 9],
    /// Result column of each source column.
    result: [u8; 9],
    /// Result stack of each source stack (3: none yet).
    stack_of: [u8; 3],
    /// Source stack of each result stack (3: none yet).
    source_stack: [u8; 3],
    /// Columns placed in each result stack.
    filled: [u8; 3],
    /// Result stacks taken.
    stacks: u8,
    /// Source columns not placed yet (bit per column).
    free: u16,
}

impl Columns {
    const EMPTY: Columns = Columns {
        source: [NONE; 9],
        result: [NONE; 9],
        stack_of: [3; 3],
        source_stack: [3; 3],
        filled: [0; 3],
        stacks: 0,
        free: 0x1ff,
    };

    /// Place source column `x` in the lowest result column it can still take (the next one
    /// of its stack's result stack, or the first of the first unused result stack), which
    /// is result column `j` when the search is there; returns that column.
    #[inline]
    fn place_lowest(&mut self, x: usize) -> u8 {
        let s = x / 3;
        if self.stack_of[s] == 3 {
            self.stack_of[s] = self.stacks;
            self.source_stack[usize::from(self.stacks)] = s as u8;
            self.stacks += 1;
        }
        let stack = usize::from(self.stack_of[s]);
        let at = stack as u8 * 3 + self.filled[stack];
        self.filled[stack] += 1;
        self.source[usize::from(at)] = x as u8;
        self.result[x] = at;
        self.free &= !(1 << x);
        at
    }

    /// The source columns result column `j` may take when it has none yet (bit per column):
    /// the free ones of its result stack's source stack, or every column of an unused
    /// source stack.
    #[inline]
    fn options(&self, j: usize) -> u16 {
        match self.source_stack[j / 3] {
            3 => (0..3)
                .filter(|&s| self.stack_of[s] == 3)
                .fold(0, |m, s| m | 0b111 << (3 * s)),
            s => self.free & 0b111 << (3 * s),
        }
    }
}

/// The search over one orientation, `r0` and `r1`, with the best form over all of them.
struct Search<'a> {
    /// The lines of the orientation: `rows[row][column]`.
    rows: &'a [[u8; 9]; 9],
    r0: usize,
    r1: usize,
    /// `σ`: for each source column, the column of `r0` holding the digit `r1` has there.
    sigma: [u8; 9],
    /// The smallest form so far (`best[0]` is 0 before the first) and how many leaves reach it.
    best: [u8; CELLS],
    ties: u32,
}

impl Search<'_> {
    /// Fix result column `j` onwards; `row` holds row 2's cells `..j`, and `less` says they
    /// are already smaller than the best form's (when compared; the best only shrinks, so a
    /// prefix not smaller is never smaller than the current best's, and a larger cell cuts).
    fn columns(&mut self, j: usize, cols: Columns, mut row: [u8; 9], less: bool) {
        if j == 9 {
            self.leaf(&cols);
            return;
        }
        let mut options = match cols.source[j] {
            NONE => cols.options(j),
            x => 1 << x,
        };
        while options != 0 {
            let x = options.trailing_zeros() as usize;
            options &= options - 1;
            let mut c = cols;
            if c.source[j] == NONE {
                let at = c.place_lowest(x);
                debug_assert_eq!(usize::from(at), j);
            }
            let t = usize::from(self.sigma[x]);
            if c.result[t] == NONE {
                c.place_lowest(t);
            }
            row[j] = c.result[t] + 1;
            let mut now_less = less || self.best[0] == 0;
            if !now_less {
                if row[j] > self.best[9 + j] {
                    continue;
                }
                now_less = row[j] < self.best[9 + j];
            }
            self.columns(j + 1, c, row, now_less);
        }
    }

    /// The source rows of the form's rows 3 to 9 under `label` and `cols`: the third row of
    /// the first rows' band, then the other bands by first cell (the band with the smaller
    /// first cell first), each in first-cell order.
    #[inline]
    fn row_order(&self, label: &[u8; 10], cols: &Columns) -> [usize; 7] {
        let band = self.r0 / 3;
        let r2 = band * 3 + 3 - self.r0 % 3 - self.r1 % 3;
        let mut order = [r2; 7];
        let mut first = [[(0u8, 0usize); 3]; 2];
        for (k, b) in (0..3).filter(|&b| b != band).enumerate() {
            for (i, slot) in first[k].iter_mut().enumerate() {
                let r = b * 3 + i;
                *slot = (
                    label[usize::from(self.rows[r][usize::from(cols.source[0])])],
                    r,
                );
            }
            first[k].sort_unstable();
        }
        first.sort_unstable();
        for (slot, &(_, r)) in order[1..].iter_mut().zip(first.iter().flatten()) {
            *slot = r;
        }
        order
    }

    /// A complete column permutation: build the form row by row, leaving as soon as it is
    /// larger than the best, and keep or count it.
    fn leaf(&mut self, cols: &Columns) {
        let mut label = [0u8; 10];
        for (&d, &at) in self.rows[self.r0].iter().zip(&cols.result) {
            label[usize::from(d)] = at + 1;
        }
        let relabel = |r: usize| -> [u8; 9] {
            let line = &self.rows[r];
            let mut out = [0u8; 9];
            for (o, &s) in out.iter_mut().zip(&cols.source) {
                *o = label[usize::from(line[usize::from(s)])];
            }
            out
        };
        // Row 1 is `123456789` for every candidate; row 2 is compared again (the best may
        // have shrunk since the search compared its cells); then the other rows.
        let order = self.row_order(&label, cols);
        let mut form = self.best;
        let mut less = self.best[0] == 0;
        form[..9].copy_from_slice(&relabel(self.r0));
        form[9..18].copy_from_slice(&relabel(self.r1));
        if !less {
            match form[9..18].cmp(&self.best[9..18]) {
                std::cmp::Ordering::Greater => return,
                order => less = order == std::cmp::Ordering::Less,
            }
        }
        for (i, &r) in order.iter().enumerate() {
            let row = relabel(r);
            let at = 18 + 9 * i;
            if !less {
                match row[..].cmp(&self.best[at..at + 9]) {
                    std::cmp::Ordering::Greater => return,
                    order => less = order == std::cmp::Ordering::Less,
                }
            }
            form[at..at + 9].copy_from_slice(&row);
        }
        if less {
            self.best = form;
            self.ties = 1;
        } else {
            self.ties += 1;
        }
    }
}

/// The canonical form and automorphism count of a full grid whose lines repeat no digit.
pub(super) fn canonicalize(lines: &Lines) -> Canonical {
    let mut best = [0u8; CELLS];
    let mut ties = 0;
    for rows in &lines.cells {
        for r0 in 0..9 {
            let mut column_of = [0u8; 10];
            for (c, &d) in rows[r0].iter().enumerate() {
                column_of[usize::from(d)] = c as u8;
            }
            for r1 in (r0 / 3 * 3..r0 / 3 * 3 + 3).filter(|&r| r != r0) {
                let sigma = rows[r1].map(|d| column_of[usize::from(d)]);
                let mut search = Search {
                    rows,
                    r0,
                    r1,
                    sigma,
                    best,
                    ties,
                };
                search.columns(0, Columns::EMPTY, [0; 9], false);
                (best, ties) = (search.best, search.ties);
            }
        }
    }
    Canonical {
        form: Grid::from_cells(best).expect("labels are 1..=9"),
        automorphisms: ties,
    }
}
