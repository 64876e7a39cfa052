//! Aligned triplet exclusion (7.5), SE's `AlignedExclusion(3)`, which runs between its
//! static chains and Nishio.
//!
//! Excluders have two or three candidates. For each pair of base cells, each third base
//! cell that is an excluder of one of the two (in the order of the first cell's peers, then
//! the second's; Sukaku Explainer lists a cell's peers by index instead, `by_index`) makes
//! a triplet. With two common excluders or more, a combination of values for the three
//! cells is impossible when two cells sharing a house get the same value, or when an
//! excluder's candidates all lie in the combination; a candidate of a base cell in no
//! possible combination is removed.

use super::{fill, Bases};
use crate::engines::rater::board::{
    cells_of, digits_of, two_bits, Board, ALL_DIGITS, CELLS, HOUSE_ORDER, PEERS,
};
use crate::engines::rater::hint::Hint;
use crate::engines::rater::Technique;

/// Aligned triplet exclusion: the first hint, in `hint`. `by_index`: third cells in index
/// order (the first cell's excluders, then the second's), as Sukaku Explainer visits them.
/// `solution[c]` is the solution's digit (1..=9) of cell `c`. A triplet none of whose cells
/// and common peers is in `changed` is known to remove nothing.
pub(crate) fn aligned_triplet(
    b: &Board,
    hint: &mut Hint,
    by_index: bool,
    solution: &[u8; CELLS],
    changed: u128,
) -> bool {
    let bases = Bases::new(b, 3);
    if bases.len < 3 {
        return false;
    }
    for (c0, c1) in bases.pairs() {
        let Some(pair) = Pair::new(&bases, (c0, c1), changed) else {
            continue;
        };
        let hits = pair.hits(b, solution, changed);
        if hits == 0 {
            continue;
        }
        let c2 = pair.first_third(hits, by_index);
        let common = pair.shared & PEERS[c2];
        exclude(b, [c0, c1, c2], common, solution, hint);
        return true;
    }
    false
}

/// A pair of base cells that may start a triplet, with what its third cells need.
struct Pair {
    cells: (usize, usize),
    /// The excluders of the first cell, of the second, and of both.
    excluders: (u128, u128),
    shared: u128,
    /// The common peers of the two cells.
    both: u128,
    /// The base cells that are an excluder of one of the two: its third cells.
    thirds: u128,
    /// The excluders of the search (two or three candidates).
    small: u128,
}

impl Pair {
    /// The pair `(c0, c1)`, unless it has fewer than two common excluders or (its cells and
    /// common peers unchanged) no changed third cell.
    fn new(bases: &Bases, (c0, c1): (usize, usize), changed: u128) -> Option<Pair> {
        let small = bases.excluders;
        let (x0, x1) = (PEERS[c0] & small, PEERS[c1] & small);
        let shared = x0 & x1;
        if shared & shared.wrapping_sub(1) == 0 {
            // Fewer than two excluders common to both: none with any third cell.
            return None;
        }
        let both = PEERS[c0] & PEERS[c1];
        let pair = 1u128 << c0 | 1u128 << c1;
        let twin = (x0 | x1) & bases.set & !pair;
        // With the pair and its common peers unchanged, a triplet needs a changed third.
        let thirds = twin
            & if (pair | both) & changed == 0 {
                changed
            } else {
                !0
            };
        (thirds != 0).then_some(Pair {
            cells: (c0, c1),
            excluders: (x0, x1),
            shared,
            both,
            thirds,
            small,
        })
    }

    /// The third cells whose triplet removes something, found in any order: most pairs
    /// have none, and only the first of them in SE's order is the hint.
    fn hits(&self, b: &Board, solution: &[u8; CELLS], changed: u128) -> u128 {
        let (c0, c1) = self.cells;
        let pair = 1u128 << c0 | 1u128 << c1;
        // The cells that see two of the shared excluders or more: the third cells of
        // triplets with two common excluders.
        let (mut once, mut twice) = (0u128, 0u128);
        for e in cells_of(self.shared) {
            twice |= once & PEERS[e];
            once |= PEERS[e];
        }
        let mut hits = 0u128;
        for c2 in cells_of(self.thirds & twice) {
            let common = self.shared & PEERS[c2];
            let inputs = pair | 1u128 << c2 | self.both & PEERS[c2];
            if inputs & changed != 0
                && first_pair(c0, c1, c2, self.small)
                && kept(b, [c0, c1, c2], common, solution).is_some()
            {
                hits |= 1u128 << c2;
            }
        }
        hits
    }

    /// The first of the third cells `hits` in the search's order: the first cell's peers
    /// (its excluders), then the second's, in SE's house order or, `by_index`, by index.
    fn first_third(&self, hits: u128, by_index: bool) -> usize {
        let (c0, c1) = self.cells;
        let (x0, x1) = self.excluders;
        let first = if by_index {
            cells_of(hits & x0).chain(cells_of(hits & x1)).next()
        } else {
            HOUSE_ORDER[c0]
                .iter()
                .chain(&HOUSE_ORDER[c1])
                .map(|&o| o as usize)
                .find(|&o| hits >> o & 1 != 0)
        };
        first.expect("a hit is a third cell")
    }
}

/// Whether the pair `c0 < c1` is the first of the search's pairs (by second cell, then
/// first) to have `c2` as a third cell. A triplet comes up to three times, once per pair of
/// it, and is looked at the first time only: had it removed anything, the search would
/// have ended there. A third cell is an excluder (`small`) of one of the pair's cells; the
/// base cells are listed in cell order, and every pair of a triplet with two common
/// excluders has two.
#[inline]
fn first_pair(c0: usize, c1: usize, c2: usize, small: u128) -> bool {
    let third = |t: usize, a: usize, b: usize| {
        small >> t & 1 != 0 && PEERS[t] & (1u128 << a | 1u128 << b) != 0
    };
    if c2 > c1 {
        true
    } else if c2 > c0 {
        // (c0, c2) came first.
        !third(c1, c0, c2)
    } else {
        // (c2, c0), then (c2, c1), came first.
        !third(c1, c2, c0) && !third(c0, c2, c1)
    }
}

/// Fills `hint` with the removals of a triplet that removes something.
fn exclude(b: &Board, cells: [usize; 3], common: u128, solution: &[u8; CELLS], hint: &mut Hint) {
    let keep = kept(b, cells, common, solution).expect("the triplet removes something");
    fill(
        b,
        hint,
        (Technique::AlignedTripletExclusion, 75),
        &cells,
        common,
        &keep,
    );
    hint.exact = Some(7.5);
}

/// What the common excluders of a triplet rule out, over the values its cells hold.
///
/// An excluder of two candidates rules out every value set holding both; one of three, that
/// set alone. So with `partners[x]` the values that make an excluded pair with `x`, the third
/// values `z` a pair (`x`, `y`) allows are a mask: the third cell's values, less the partners
/// of `x` and of `y`, the values the houses forbid, and the one value that would complete a
/// three-candidate excluder.
struct Excluded {
    partners: [u16; 9],
    /// The three-candidate excluders.
    triples: [u16; 20],
    len: usize,
}

impl Excluded {
    /// The excluders among `common` whose candidates all lie in `all`, or `None` when none
    /// does. An excluder with a candidate none of the three cells has rules nothing out.
    fn new(b: &Board, all: u16, common: u128) -> Option<Excluded> {
        let mut ex = Excluded {
            partners: [0; 9],
            triples: [0; 20],
            len: 0,
        };
        let mut any = false;
        for e in cells_of(common) {
            let e = b.cands[e];
            if e & !all != 0 {
                continue;
            }
            any = true;
            if two_bits(e) {
                let (lo, hi) = (e.trailing_zeros() as usize, 15 - e.leading_zeros() as usize);
                ex.partners[lo] |= 1 << hi;
                ex.partners[hi] |= 1 << lo;
            } else {
                ex.triples[ex.len] = e;
                ex.len += 1;
            }
        }
        any.then_some(ex)
    }

    /// The value that completes a three-candidate excluder with values `a` and `b`, if any.
    #[inline]
    fn completing(&self, a: usize, b: usize) -> u16 {
        let ab = 1u16 << a | 1u16 << b;
        if a == b {
            return 0;
        }
        self.triples[..self.len]
            .iter()
            .filter(|&&tr| tr & ab == ab)
            .fold(0, |s, &tr| s | tr & !ab)
    }
}

/// The values of each of the triplet's cells in a possible combination, if some value is in
/// none; `solution[c]` is the solution's digit (1..=9) of cell `c`.
///
/// The solution's values of the three cells are a possible combination (each excluder sees
/// the three cells, so its own solution value is none of theirs), and so is nearly always
/// one cell's value `x` with the other two's solution values: only the values for which that
/// one is ruled out are looked at further.
///
/// With no excluder left ([`Excluded::new`]), only the houses rule combinations out: then a
/// value `x` of a cell in no combination means the other two cells both see it and each
/// other, so all three lie in one house, and hold the same two candidates, `x` one: a naked
/// pair that removes `x` from the first cell, found long before the chains. So nothing is
/// removed.
fn kept(b: &Board, cells: [usize; 3], common: u128, solution: &[u8; CELLS]) -> Option<[u16; 3]> {
    let m = cells.map(|c| b.cands[c]);
    let ex = Excluded::new(b, m[0] | m[1] | m[2], common)?;
    let peer = |a: usize, c: usize| PEERS[cells[a]] >> cells[c] & 1 != 0;
    let (s01, s02, s12) = (peer(0, 1), peer(0, 2), peer(1, 2));
    // Whether each two of the cells see each other.
    let sees = [[false, s01, s02], [s01, false, s12], [s02, s12, false]];
    let truth = cells.map(|c| solution[c] as usize - 1);
    let mut keep = m;
    for (i, j, k) in [(0, 1, 2), (1, 0, 2), (2, 0, 1)] {
        // The values of `i` that the solution's values of `j` and `k` rule out.
        let (tj, tk) = (truth[j], truth[k]);
        let mut out = ex.partners[tj] | ex.partners[tk] | ex.completing(tj, tk);
        if sees[i][j] {
            out |= 1 << tj;
        }
        if sees[i][k] {
            out |= 1 << tk;
        }
        for x in digits_of(m[i] & out) {
            if !possible(&ex, (&m, &sees), (i, j, k), x) {
                keep[i] &= !(1 << x);
            }
        }
    }
    (keep != m).then_some(keep)
}

/// Whether value `x` of cell `i` is in a possible combination, the other two cells `j` and
/// `k`; `m`: the three cells' candidates, `sees`: which of them see each other.
#[inline]
fn possible(
    ex: &Excluded,
    (m, sees): (&[u16; 3], &[[bool; 3]; 3]),
    (i, j, k): (usize, usize, usize),
    x: usize,
) -> bool {
    let bx = 1u16 << x;
    let ys = m[j] & !ex.partners[x] & if sees[i][j] { !bx } else { ALL_DIGITS };
    let zx = m[k] & !ex.partners[x] & if sees[i][k] { !bx } else { ALL_DIGITS };
    digits_of(ys).any(|y| {
        let by = 1u16 << y;
        let zs = zx & !ex.partners[y] & if sees[j][k] { !by } else { ALL_DIGITS };
        zs & !ex.completing(x, y) != 0
    })
}
