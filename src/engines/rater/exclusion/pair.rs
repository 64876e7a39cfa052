//! Aligned pair exclusion (6.2), as SE 1.2.1.3 does it.
//!
//! Two base cells `a`, `b` (SE does not require them to share a house) with at least two
//! common excluders: bivalue cells that see both. A pair of values `(x, y)` for `(a, b)` is
//! impossible when `x = y` and `a` sees `b`, or when an excluder holds exactly `{x, y}`
//! (it would be left empty). A candidate of `a` (or `b`) that is in no possible pair is
//! removed.

use super::{fill, Bases};
use crate::engines::rater::board::{cells_of, digits_of, Board, PEERS};
use crate::engines::rater::hint::Hint;
use crate::engines::rater::Technique;

/// Aligned pair exclusion. A pair none of whose cells and common peers is in `changed` is
/// known to remove nothing.
pub(crate) fn aligned_pair(b: &Board, hint: &mut Hint, changed: u128) -> bool {
    let bases = Bases::new(b, 2);
    for (c0, c1) in bases.pairs() {
        let both = PEERS[c0] & PEERS[c1];
        if (both | 1u128 << c0 | 1u128 << c1) & changed == 0 {
            continue;
        }
        let excluders = both & bases.excluders;
        if excluders.count_ones() < 2 {
            continue;
        }
        let (keep0, keep1) = possible(b, c0, c1, excluders);
        if keep0 == b.cands[c0] && keep1 == b.cands[c1] {
            continue;
        }
        let technique = (Technique::AlignedPairExclusion, 62);
        fill(b, hint, technique, &[c0, c1], excluders, &[keep0, keep1]);
        return true;
    }
    false
}

/// The candidates of `c0` and of `c1` that are in some possible pair of values: not the
/// same digit when they see each other, not the two digits of an excluder.
fn possible(b: &Board, c0: usize, c1: usize, excluders: u128) -> (u16, u16) {
    let mut pairs = [0u16; 9];
    for e in cells_of(excluders) {
        let m = b.cands[e];
        let lo = m.trailing_zeros() as usize;
        pairs[lo] |= m & !(1 << lo);
    }
    let sees = PEERS[c0] >> c1 & 1 != 0;
    let (mut keep0, mut keep1) = (0u16, 0u16);
    for x in digits_of(b.cands[c0]) {
        for y in digits_of(b.cands[c1]) {
            let blocked = if x == y {
                sees
            } else {
                let (lo, hi) = if x < y { (x, y) } else { (y, x) };
                pairs[lo] >> hi & 1 != 0
            };
            if !blocked {
                keep0 |= 1 << x;
                keep1 |= 1 << y;
            }
        }
    }
    (keep0, keep1)
}
