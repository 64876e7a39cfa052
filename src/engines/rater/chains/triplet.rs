//! Aligned triplet exclusion (7.5), SE's `AlignedExclusion(3)`, which runs between its
//! static chains and Nishio.
//!
//! Base cells (row by row): two candidates or more, no peer with a single candidate, and at
//! least one *excluder* peer (two or three candidates). For each pair of base cells (SE's
//! order: by the second, then the first; they need not see each other), each third base
//! cell that is an excluder of one of the two (in the order of the first cell's peers, then
//! the second's; Sukaku Explainer lists a cell's peers by index instead, `by_index`) makes
//! a triplet. With two common excluders or more, a combination of
//! values for the three cells is impossible when two cells sharing a house get the same
//! value, or when an excluder's candidates all lie in the combination; a candidate of a base
//! cell in no possible combination is removed. The first triplet removing anything is the
//! hint (SE does not sort these).

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
    let mut small = 0u128;
    let mut single = 0u128;
    for c in cells_of(b.open) {
        match b.cands[c].count_ones() {
            1 => single |= 1u128 << c,
            2 | 3 => small |= 1u128 << c,
            _ => {}
        }
    }
    let mut list = [0usize; CELLS];
    let mut n = 0;
    let mut base = 0u128;
    for c in cells_of(b.open) {
        if b.cands[c].count_ones() >= 2 && PEERS[c] & single == 0 && PEERS[c] & small != 0 {
            list[n] = c;
            n += 1;
            base |= 1u128 << c;
        }
    }
    if n < 3 {
        return false;
    }
    let mut tails = [0usize; 40];
    for j in 1..n {
        for i in 0..j {
            let (c0, c1) = (list[i], list[j]);
            let (x0, x1) = (PEERS[c0] & small, PEERS[c1] & small);
            let shared = x0 & x1;
            if shared & shared.wrapping_sub(1) == 0 {
                // Fewer than two excluders common to both: none with any third cell.
                continue;
            }
            let both = PEERS[c0] & PEERS[c1];
            let pair = 1u128 << c0 | 1u128 << c1;
            let twin = (x0 | x1) & base & !pair;
            // With the pair and its common peers unchanged, a triplet needs a changed third.
            let thirds = twin
                & if (pair | both) & changed == 0 {
                    changed
                } else {
                    !0
                };
            if thirds == 0 {
                continue;
            }
            // The cells that see two of the shared excluders or more: the third cells of
            // triplets with two common excluders.
            let (mut once, mut twice) = (0u128, 0u128);
            for e in cells_of(shared) {
                twice |= once & PEERS[e];
                once |= PEERS[e];
            }
            // The third cells whose triplet removes something, found in any order: most
            // pairs have none, and only the first of them in SE's order is the hint.
            let mut hits = 0u128;
            for c2 in cells_of(thirds & twice) {
                let common = shared & PEERS[c2];
                let inputs = pair | 1u128 << c2 | both & PEERS[c2];
                if inputs & changed != 0
                    && first_pair(c0, c1, c2, small)
                    && kept(b, [c0, c1, c2], common, solution).is_some()
                {
                    hits |= 1u128 << c2;
                }
            }
            if hits == 0 {
                continue;
            }
            let mut t = 0;
            if by_index {
                for o in cells_of(twin & x0).chain(cells_of(twin & x1 & !x0)) {
                    tails[t] = o;
                    t += 1;
                }
            } else {
                for (&o, from_second) in HOUSE_ORDER[c0]
                    .iter()
                    .map(|o| (o, false))
                    .chain(HOUSE_ORDER[c1].iter().map(|o| (o, true)))
                {
                    let o = o as usize;
                    if twin >> o & 1 != 0 && !(from_second && x0 >> o & 1 != 0) {
                        tails[t] = o;
                        t += 1;
                    }
                }
            }
            let c2 = tails[..t]
                .iter()
                .copied()
                .find(|&o| hits >> o & 1 != 0)
                .expect("a hit is a third cell");
            let common = x0 & x1 & PEERS[c2] & small;
            exclude(b, [c0, c1, c2], common, solution, hint);
            return true;
        }
    }
    false
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
    let m = cells.map(|c| b.cands[c]);
    hint.start(Technique::AlignedTripletExclusion, 75);
    hint.exact = Some(7.5);
    for c in cells {
        hint.add_cell(c);
    }
    for e in cells_of(common) {
        hint.add_cell(e);
    }
    hint.digits = m[0] | m[1] | m[2];
    for i in 0..3 {
        hint.eliminate(cells[i], m[i] & !keep[i]);
    }
}

/// The values of each of the triplet's cells in a possible combination, if some value is in
/// none; `solution[c]` is the solution's digit (1..=9) of cell `c`.
///
/// An excluder of two candidates rules out every value set holding both; one of three, that
/// set alone. So with `partners[x]` the values that make an excluded pair with `x`, the third
/// values `z` a pair (`x`, `y`) allows are a mask: the third cell's values, less the partners
/// of `x` and of `y`, the values the houses forbid, and the one value that would complete a
/// three-candidate excluder.
///
/// The solution's values of the three cells are a possible combination (each excluder sees
/// the three cells, so its own solution value is none of theirs), and so is nearly always
/// one cell's value `x` with the other two's solution values: only the values for which that
/// one is ruled out are looked at further.
///
/// An excluder with a candidate none of the three cells has rules nothing out. With none
/// left, only the houses do: then a value `x` of a cell in no combination means the other
/// two cells both see it and each other, so all three lie in one house, and hold the same
/// two candidates, `x` one: a naked pair that removes `x` from the first cell, found long
/// before the chains. So nothing is removed.
fn kept(b: &Board, cells: [usize; 3], common: u128, solution: &[u8; CELLS]) -> Option<[u16; 3]> {
    let m = cells.map(|c| b.cands[c]);
    let all = m[0] | m[1] | m[2];
    let mut partners = [0u16; 9];
    let mut triples = [0u16; 20];
    let mut t = 0;
    let mut any = false;
    for e in cells_of(common) {
        let e = b.cands[e];
        if e & !all != 0 {
            continue;
        }
        any = true;
        if two_bits(e) {
            let (lo, hi) = (e.trailing_zeros() as usize, 15 - e.leading_zeros() as usize);
            partners[lo] |= 1 << hi;
            partners[hi] |= 1 << lo;
        } else {
            triples[t] = e;
            t += 1;
        }
    }
    if !any {
        return None;
    }
    let triples = &triples[..t];
    let peer = |a: usize, c: usize| PEERS[cells[a]] >> cells[c] & 1 != 0;
    let (s01, s02, s12) = (peer(0, 1), peer(0, 2), peer(1, 2));
    // Whether each two of the cells see each other.
    let sees = [[false, s01, s02], [s01, false, s12], [s02, s12, false]];
    // The value that completes a three-candidate excluder with values `a` and `b`, if any.
    let completing = |a: usize, b: usize| {
        let ab = 1u16 << a | 1u16 << b;
        if a == b {
            return 0;
        }
        triples
            .iter()
            .filter(|&&tr| tr & ab == ab)
            .fold(0, |s, &tr| s | tr & !ab)
    };
    // Whether value `x` of cell `i` is in a possible combination, the other two cells
    // `j` and `k`.
    let possible = |(i, j, k): (usize, usize, usize), x: usize| {
        let bx = 1u16 << x;
        let ys = m[j] & !partners[x] & if sees[i][j] { !bx } else { ALL_DIGITS };
        let zx = m[k] & !partners[x] & if sees[i][k] { !bx } else { ALL_DIGITS };
        digits_of(ys).any(|y| {
            let by = 1u16 << y;
            let zs = zx & !partners[y] & if sees[j][k] { !by } else { ALL_DIGITS };
            zs & !completing(x, y) != 0
        })
    };
    let truth = cells.map(|c| solution[c] as usize - 1);
    let mut keep = m;
    for (i, j, k) in [(0, 1, 2), (1, 0, 2), (2, 0, 1)] {
        // The values of `i` that the solution's values of `j` and `k` rule out.
        let (tj, tk) = (truth[j], truth[k]);
        let mut out = partners[tj] | partners[tk] | completing(tj, tk);
        if sees[i][j] {
            out |= 1 << tj;
        }
        if sees[i][k] {
            out |= 1 << tk;
        }
        for x in digits_of(m[i] & out) {
            if !possible((i, j, k), x) {
                keep[i] &= !(1 << x);
            }
        }
    }
    (keep != m).then_some(keep)
}
