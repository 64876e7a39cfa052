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

use crate::rate::board::{
    cells_of, digits_of, two_bits, Board, ALL_DIGITS, CELLS, HOUSE_ORDER, PEERS,
};
use crate::rate::hint::Hint;
use crate::rate::Technique;

/// Aligned triplet exclusion: the first hint, in `hint`. `by_index`: third cells in index
/// order (the first cell's excluders, then the second's), as Sukaku Explainer visits them.
pub(crate) fn aligned_triplet(b: &Board, hint: &mut Hint, by_index: bool, memo: &mut Memo) -> bool {
    memo.clear();
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
            let twin = (x0 | x1) & base & !(1u128 << c0) & !(1u128 << c1);
            // The third cells whose triplet removes something, found in any order: most
            // pairs have none, and only the first of them in SE's order is the hint.
            let mut hits = 0u128;
            for c2 in cells_of(twin) {
                let common = shared & PEERS[c2];
                // A triplet comes up to three times (once per pair of it): the first
                // look tells whether it removes anything.
                if common & common.wrapping_sub(1) != 0
                    && memo.first_look([c0, c1, c2])
                    && kept(b, [c0, c1, c2], common).is_some()
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
            exclude(b, [c0, c1, c2], common, hint);
            return true;
        }
    }
    false
}

/// The triplets of cells looked at in one search, a bit each.
pub(crate) struct Memo {
    seen: Vec<u64>,
    /// The words of `seen` with a bit set.
    dirty: Vec<u32>,
}

/// Triplets of cells, by their cells in increasing order, base 81.
const TRIPLETS: usize = CELLS * CELLS * CELLS;

impl Memo {
    pub(crate) fn new() -> Box<Memo> {
        let words = TRIPLETS.div_ceil(64);
        Box::new(Memo {
            seen: vec![0; words],
            dirty: Vec::with_capacity(words),
        })
    }

    fn clear(&mut self) {
        for &w in &self.dirty {
            self.seen[w as usize] = 0;
        }
        self.dirty.clear();
    }

    /// Whether `cells` (in any order) were not looked at before in this search: marks them.
    #[inline]
    fn first_look(&mut self, mut cells: [usize; 3]) -> bool {
        cells.sort_unstable();
        let i = (cells[0] * CELLS + cells[1]) * CELLS + cells[2];
        let (w, bit) = (i / 64, 1u64 << (i % 64));
        let word = &mut self.seen[w];
        if *word & bit != 0 {
            return false;
        }
        if *word == 0 {
            self.dirty.push(w as u32);
        }
        *word |= bit;
        true
    }
}

/// Fills `hint` with the removals of a triplet that removes something.
fn exclude(b: &Board, cells: [usize; 3], common: u128, hint: &mut Hint) {
    let keep = kept(b, cells, common).expect("the triplet removes something");
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
/// none.
///
/// An excluder of two candidates rules out every value set holding both; one of three, that
/// set alone. So with `partners[x]` the values that make an excluded pair with `x`, the third
/// values `z` a pair (`x`, `y`) allows are a mask: the third cell's values, less the partners
/// of `x` and of `y`, the values the houses forbid, and the one value that would complete a
/// three-candidate excluder.
fn kept(b: &Board, cells: [usize; 3], common: u128) -> Option<[u16; 3]> {
    let mut partners = [0u16; 9];
    let mut triples = [0u16; 20];
    let mut t = 0;
    for e in cells_of(common) {
        let e = b.cands[e];
        if two_bits(e) {
            let (lo, hi) = (e.trailing_zeros() as usize, 15 - e.leading_zeros() as usize);
            partners[lo] |= 1 << hi;
            partners[hi] |= 1 << lo;
        } else {
            triples[t] = e;
            t += 1;
        }
    }
    let sees = |a: usize, c: usize| PEERS[cells[a]] >> cells[c] & 1 != 0;
    let (s01, s02, s12) = (sees(0, 1), sees(0, 2), sees(1, 2));
    let m = cells.map(|c| b.cands[c]);
    let mut keep = [0u16; 3];
    for x in digits_of(m[0]) {
        let bx = 1u16 << x;
        let ys = m[1] & !partners[x] & if s01 { !bx } else { ALL_DIGITS };
        let zx = m[2] & !partners[x] & if s02 { !bx } else { ALL_DIGITS };
        for y in digits_of(ys) {
            let by = 1u16 << y;
            let mut zs = zx & !partners[y] & if s12 { !by } else { ALL_DIGITS };
            if x != y {
                for &tr in &triples[..t] {
                    if tr & (bx | by) == bx | by {
                        zs &= !(tr & !(bx | by));
                    }
                }
            }
            if zs != 0 {
                keep[0] |= bx;
                keep[1] |= by;
                keep[2] |= zs;
                if keep == m {
                    // Every value kept: nothing to remove.
                    return None;
                }
            }
        }
    }
    (keep != m).then_some(keep)
}
