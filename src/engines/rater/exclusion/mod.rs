//! Aligned exclusion, as SE 1.2.1.3 does it: aligned pair exclusion (6.2, [`pair`], SE's
//! `AlignedPairExclusion`, among the techniques before the chains) and aligned triplet
//! exclusion (7.5, [`triplet`], SE's `AlignedExclusion(3)`, between its static chains and
//! Nishio). Neither is a chain; both rest on the same reading of the grid, here.
//!
//! Base cells are those of two candidates or more that see no naked single and at least
//! one *excluder*: a cell of two candidates (pairs) or of two or three (triplets). The
//! search visits pairs of base cells in SE's order (`Permutations`: by the second cell, then
//! the first; they need not see each other), and a combination of values for the aligned
//! cells is impossible when two of them sharing a house get the same value, or when an
//! excluder seeing them all would be left empty; a candidate in no possible combination is
//! removed. The first pair (or triplet) removing anything is the hint: SE does not sort these.
//!
//! Both are local ([`Quiet`](super::quiet::Quiet)): what they find depends on their cells
//! and those cells' common peers only, so a search is told which cells changed since the
//! last grid on which it found nothing (`changed`), and skips the rest.

mod pair;
mod triplet;

pub(crate) use pair::aligned_pair;
pub(crate) use triplet::aligned_triplet;

use super::board::{cells_of, Board, CELLS, PEERS};
use super::hint::Hint;
use super::Technique;

/// The base cells of an aligned exclusion on one grid, and its excluders.
struct Bases {
    /// The base cells, row by row.
    list: [usize; CELLS],
    len: usize,
    /// The base cells, as a set.
    set: u128,
    /// The open cells of two candidates up to the most an excluder may have.
    excluders: u128,
}

impl Bases {
    /// The base cells of `b` for excluders of two to `most` candidates.
    fn new(b: &Board, most: u32) -> Bases {
        let mut excluders = 0u128;
        let mut single = 0u128;
        for c in cells_of(b.open) {
            match b.cands[c].count_ones() {
                1 => single |= 1u128 << c,
                n if (2..=most).contains(&n) => excluders |= 1u128 << c,
                _ => {}
            }
        }
        let mut bases = Bases {
            list: [0; CELLS],
            len: 0,
            set: 0,
            excluders,
        };
        for c in cells_of(b.open) {
            if b.cands[c].count_ones() >= 2 && PEERS[c] & single == 0 && PEERS[c] & excluders != 0 {
                bases.list[bases.len] = c;
                bases.len += 1;
                bases.set |= 1u128 << c;
            }
        }
        bases
    }

    /// The pairs of base cells `(first, second)` in SE's order: by the second, then the first.
    fn pairs(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let list = &self.list[..self.len];
        (1..list.len()).flat_map(move |j| (0..j).map(move |i| (list[i], list[j])))
    }
}

/// Fills `hint` as `technique` rated `tenths`: the aligned `cells`, then the `excluders`
/// they rest on; each cell's candidates but those it `keep`s are removed.
fn fill(
    b: &Board,
    hint: &mut Hint,
    (technique, tenths): (Technique, u8),
    cells: &[usize],
    excluders: u128,
    keep: &[u16],
) {
    hint.start(technique, tenths);
    for &c in cells {
        hint.add_cell(c);
    }
    for e in cells_of(excluders) {
        hint.add_cell(e);
    }
    hint.digits = cells.iter().fold(0, |m, &c| m | b.cands[c]);
    for (&c, &k) in cells.iter().zip(keep) {
        hint.eliminate(c, b.cands[c] & !k);
    }
}
