//! Bivalue Universal Grave, types 1-4, as SE 1.2.1.3 finds it.
//!
//! A BUG state is one where every empty cell holds two candidates and every digit has two
//! places in each house it is missing from: it would have two solutions. Here the grid is one
//! where removing a few "BUG values" from a few "BUG cells" would leave such a state; one of
//! those candidates must then be true:
//! - type 1 (5.6): one BUG cell: it keeps only its BUG values;
//! - type 2 (5.7): one BUG value `z` in several cells: the cells seeing them all lose `z`;
//! - type 3 (5.7 + 0.1 per digit of the set beyond the first): the BUG cells share a house
//!   where their BUG values and other cells form a naked set;
//! - type 4 (5.7): two BUG cells in a house sharing one other digit `x`: each keeps only its
//!   BUG values and `x`.
//!
//! SE visits houses as blocks, rows, columns and digits in increasing order; a house where a
//! digit has neither 0 nor 2 places names a BUG cell if exactly one of those places has 3 or
//! more candidates (and rules the grid out if none has).

use super::board::{
    cells_of, digits_of, Board, CELLS, CELL_HOUSES, HOUSE_CELLS, HOUSE_ORDER, PEERS,
};
use super::hint::Hint;
use super::uniqueness::{subsets, tenths};
use super::Technique;

/// What the first scan found.
struct Pattern {
    cells: [u8; CELLS],
    n: usize,
    values: [u16; CELLS],
    all: u16,
    common: u128,
}

/// BUG types 1-4 (5.6 and up).
pub(crate) fn bug(b: &Board, hint: &mut Hint) -> bool {
    let Some(p) = pattern(b) else {
        return false;
    };
    let cells = &p.cells[..p.n];
    if p.n == 1 {
        let c = cells[0] as usize;
        hint.start(Technique::Bug1, 56);
        hint.add_cell(c);
        hint.digits = p.all;
        hint.eliminate(c, b.cands[c] & !p.all);
        return true;
    }
    if p.all.count_ones() == 1 {
        if type2(b, hint, &p) {
            return true;
        }
        if p.n == 2 {
            return type4(b, hint, &p);
        }
        return false;
    }
    if p.common != 0 {
        if p.n == 2 && type4(b, hint, &p) {
            return true;
        }
        return type3(b, hint, &p);
    }
    false
}

fn pattern(b: &Board) -> Option<Pattern> {
    let mut p = Pattern {
        cells: [0; CELLS],
        n: 0,
        values: [0; CELLS],
        all: 0,
        common: !0,
    };
    let mut first = true;
    let mut rest = b.cands;
    for h in 0..27 {
        for d in 0..9 {
            let pos = b.pos[h][d];
            let card = pos.count_ones();
            if card == 0 || card == 2 {
                continue;
            }
            let mut found = None;
            let mut count = 0;
            for i in digits_of(pos) {
                let c = HOUSE_CELLS[h][i] as usize;
                if b.cands[c].count_ones() >= 3 {
                    count += 1;
                    found = Some(c);
                }
            }
            if count == 0 {
                return None;
            }
            if count != 1 {
                continue;
            }
            let c = found.expect("one cell");
            if !p.cells[..p.n].contains(&(c as u8)) {
                p.cells[p.n] = c as u8;
                p.n += 1;
            }
            p.values[c] |= 1 << d;
            p.all |= 1 << d;
            rest[c] &= !(1 << d);
            if first {
                p.common = PEERS[c];
                first = false;
            } else {
                p.common &= PEERS[c];
            }
            for &bc in &p.cells[..p.n] {
                p.common &= !(1u128 << bc);
            }
            if p.n > 1 && p.all.count_ones() > 1 && p.common == 0 {
                return None;
            }
        }
    }
    if first {
        p.common = 0;
    }
    // Without the BUG values: two candidates in every empty cell, two places per digit.
    for c in 0..CELLS {
        if b.values[c] == 0 && rest[c].count_ones() != 2 {
            return None;
        }
    }
    for h in 0..27 {
        let mut places = [0u8; 9];
        for &c in &HOUSE_CELLS[h] {
            for d in digits_of(rest[c as usize]) {
                places[d] += 1;
            }
        }
        if places.iter().any(|&n| n != 0 && n != 2) {
            return None;
        }
    }
    Some(p)
}

fn type2(b: &Board, hint: &mut Hint, p: &Pattern) -> bool {
    let d = p.all.trailing_zeros() as usize;
    let victims = p.common & b.planes[d];
    if victims == 0 {
        return false;
    }
    hint.start(Technique::Bug2, 57);
    for &c in &p.cells[..p.n] {
        hint.add_cell(c as usize);
    }
    hint.digits = p.all;
    for c in cells_of(victims) {
        hint.eliminate(c, 1 << d);
    }
    true
}

/// The house of kind `kind` (0 block, 1 row, 2 column) all BUG cells share, if any.
fn shared_house(p: &Pattern, kind: usize) -> Option<usize> {
    let h = CELL_HOUSES[p.cells[0] as usize][kind];
    p.cells[..p.n]
        .iter()
        .all(|&c| CELL_HOUSES[c as usize][kind] == h)
        .then_some(h as usize)
}

fn type4(b: &Board, hint: &mut Hint, p: &Pattern) -> bool {
    let (c1, c2) = (p.cells[0] as usize, p.cells[1] as usize);
    let common = b.cands[c1] & b.cands[c2] & !p.all;
    if common.count_ones() != 1 {
        return false;
    }
    if !(0..3).any(|kind| shared_house(p, kind).is_some()) {
        return false;
    }
    hint.start(Technique::Bug4, 57);
    hint.add_cell(c1);
    hint.add_cell(c2);
    hint.digits = p.all | common;
    hint.eliminate(c1, b.cands[c1] & !p.values[c1] & !common);
    hint.eliminate(c2, b.cands[c2] & !p.values[c2] & !common);
    true
}

fn type3(b: &Board, hint: &mut Hint, p: &Pattern) -> bool {
    let first = p.cells[0] as usize;
    let mut bug_cells = 0u128;
    for &c in &p.cells[..p.n] {
        bug_cells |= 1u128 << c;
    }
    for kind in 0..3 {
        let Some(h) = shared_house(p, kind) else {
            continue;
        };
        // The common cells of this house, in the order of the first BUG cell's houses.
        let mut region = [0usize; 20];
        let mut n = 0;
        for &c in &HOUSE_ORDER[first] {
            let c = c as usize;
            if p.common >> c & 1 != 0 && CELL_HOUSES[c][kind] as usize == h {
                region[n] = c;
                n += 1;
            }
        }
        for degree in 2..=6 {
            if n < degree || n > 9 {
                continue;
            }
            for &pick in subsets(degree - 1, n) {
                let mut union = 0u16;
                let mut ok = p.all.count_ones() >= 2;
                let mut members = 0u128;
                for k in digits_of(pick) {
                    let m = b.cands[region[k]];
                    ok &= m.count_ones() >= 2;
                    union |= m;
                    members |= 1u128 << region[k];
                }
                if union.count_ones() as usize != degree {
                    continue;
                }
                let set = union | p.all;
                if !ok || set.count_ones() as usize != degree {
                    continue;
                }
                let mut erasable = 0u128;
                for &c in &region[..n] {
                    erasable |= 1u128 << c;
                }
                erasable &= !members & !bug_cells;
                if !cells_of(erasable).any(|c| b.cands[c] & set != 0) {
                    continue;
                }
                hint.start(Technique::Bug3, tenths(5.7 + (degree as f64 - 1.0) * 0.1));
                for &c in &p.cells[..p.n] {
                    hint.add_cell(c as usize);
                }
                for c in cells_of(members) {
                    hint.add_cell(c);
                }
                hint.digits = set;
                for c in cells_of(erasable) {
                    hint.eliminate(c, b.cands[c] & set);
                }
                return true;
            }
        }
    }
    false
}
