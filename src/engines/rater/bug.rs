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
    cells_of, digits_of, Board, CELLS, CELL_HOUSES, HOUSE_CELLS, HOUSE_MASK, HOUSE_ORDER, PEERS,
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
    /// The cells seeing every BUG cell (none before the first BUG cell is found).
    common: u128,
    first: bool,
    /// The candidates without the BUG values.
    rest: [u16; CELLS],
}

/// lkSudoku's addition (Sukaku's default): while every house with a digit of neither 0 nor
/// 2 places is about one digit, the cells of 3+ candidates among those places are all BUG
/// cells of that digit, even where a house has several.
struct OneDigit {
    cells: u128,
    digit: Option<usize>,
    only: bool,
}

/// BUG types 1-4 (5.6 and up); `lk`: with lkSudoku's fixes, as Sukaku Explainer runs it by
/// default (see [`OneDigit`]; type 3 tries the smallest set first over all houses).
pub(crate) fn bug(b: &Board, hint: &mut Hint, lk: bool) -> bool {
    let Some(p) = pattern(b, lk) else {
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
        return type3(b, hint, &p, lk);
    }
    false
}

impl Pattern {
    /// Adds BUG value `d` of cell `c`; false when the BUG cells can have no type 1-3 hint.
    fn add(&mut self, c: usize, d: usize, count_value: bool) -> bool {
        if !self.cells[..self.n].contains(&(c as u8)) {
            self.cells[self.n] = c as u8;
            self.n += 1;
        }
        self.values[c] |= 1 << d;
        if count_value {
            self.all |= 1 << d;
        }
        self.rest[c] &= !(1 << d);
        if self.first {
            self.common = PEERS[c];
            self.first = false;
        } else {
            self.common &= PEERS[c];
        }
        for &bc in &self.cells[..self.n] {
            self.common &= !(1u128 << bc);
        }
        !(self.n > 1 && self.all.count_ones() > 1 && self.common == 0)
    }

    /// Without the BUG values: two candidates in every empty cell, two places per digit.
    fn leaves_grave(&self, b: &Board) -> bool {
        for c in 0..CELLS {
            if b.values[c] == 0 && self.rest[c].count_ones() != 2 {
                return false;
            }
        }
        (0..27).all(|h| {
            let mut places = [0u8; 9];
            for &c in &HOUSE_CELLS[h] {
                for d in digits_of(self.rest[c as usize]) {
                    places[d] += 1;
                }
            }
            places.iter().all(|&n| n == 0 || n == 2)
        })
    }
}

fn pattern(b: &Board, lk: bool) -> Option<Pattern> {
    let mut p = Pattern {
        cells: [0; CELLS],
        n: 0,
        values: [0; CELLS],
        all: 0,
        common: 0,
        first: true,
        rest: b.cands,
    };
    let mut one = OneDigit {
        cells: 0,
        digit: None,
        only: true,
    };
    for h in 0..27 {
        for d in 0..9 {
            let pos = b.pos[h][d];
            let card = pos.count_ones();
            if card == 0 || card == 2 {
                continue;
            }
            let mut found = 0u128;
            for i in digits_of(pos) {
                let c = HOUSE_CELLS[h][i] as usize;
                found |= u128::from(b.cands[c].count_ones() >= 3) << c;
            }
            if lk {
                match one.digit {
                    None => (one.cells, one.digit) = (found, Some(d)),
                    Some(v) if one.only && v == d => one.cells |= found,
                    Some(_) => one.only = false,
                }
            }
            match found.count_ones() {
                0 => return None,
                1 if !p.add(found.trailing_zeros() as usize, d, true) => return None,
                _ => {}
            }
        }
    }
    (one.extend(&mut p) && p.leaves_grave(b)).then_some(p)
}

impl OneDigit {
    /// Adds the one digit's other cells of 3+ candidates to the BUG cells; false when the
    /// pattern can then have no hint.
    fn extend(mut self, p: &mut Pattern) -> bool {
        let Some(d) = self.digit.filter(|_| self.only) else {
            return true;
        };
        if self.cells.count_ones() as usize <= p.n {
            return true;
        }
        for &c in &p.cells[..p.n] {
            self.cells &= !(1u128 << c);
        }
        cells_of(self.cells).all(|c| p.add(c, d, false))
    }
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
    let Some(h) = (0..3).find_map(|kind| shared_house(p, kind)) else {
        return false;
    };
    hint.start(Technique::Bug4, 57);
    hint.add_cell(c1);
    hint.add_cell(c2);
    hint.add_house(h);
    hint.digits = p.all | common;
    hint.extra = p.all;
    hint.eliminate(c1, b.cands[c1] & !p.values[c1] & !common);
    hint.eliminate(c2, b.cands[c2] & !p.values[c2] & !common);
    true
}

fn type3(b: &Board, hint: &mut Hint, p: &Pattern, lk: bool) -> bool {
    // SE: house kind by kind, sets of 2 to 6 digits in each; lkSudoku: the smallest set
    // first, over all shared houses.
    (0..15).any(|i| {
        let (kind, degree) = if lk {
            (i % 3, 2 + i / 3)
        } else {
            (i / 5, 2 + i % 5)
        };
        type3_in(b, hint, p, kind, degree, lk)
    })
}

/// The cells of house `h` (of kind `kind`) other than the BUG cells that see every BUG
/// cell: in the order of the first BUG cell's houses (SE), or of the grid (`by_index`).
fn type3_region(p: &Pattern, kind: usize, h: usize, by_index: bool) -> ([usize; 20], usize) {
    let mut region = [0usize; 20];
    let mut n = 0;
    if by_index {
        for c in cells_of(p.common & HOUSE_MASK[h]) {
            region[n] = c;
            n += 1;
        }
    } else {
        for &c in &HOUSE_ORDER[p.cells[0] as usize] {
            let c = c as usize;
            if p.common >> c & 1 != 0 && CELL_HOUSES[c][kind] as usize == h {
                region[n] = c;
                n += 1;
            }
        }
    }
    (region, n)
}

/// A type-3 naked set of `degree` digits in the house of kind `kind` all BUG cells share
/// (its other cells tried as [`type3_region`] lists them).
fn type3_in(
    b: &Board,
    hint: &mut Hint,
    p: &Pattern,
    kind: usize,
    degree: usize,
    by_index: bool,
) -> bool {
    let Some(h) = shared_house(p, kind) else {
        return false;
    };
    let (region, n) = type3_region(p, kind, h, by_index);
    if n < degree || n > 9 || p.all.count_ones() < 2 {
        return false;
    }
    let mut bug_cells = 0u128;
    for &c in &p.cells[..p.n] {
        bug_cells |= 1u128 << c;
    }
    let mut all_region = 0u128;
    for &c in &region[..n] {
        all_region |= 1u128 << c;
    }
    for &pick in subsets(degree - 1, n) {
        let mut union = 0u16;
        let mut ok = true;
        let mut members = 0u128;
        for k in digits_of(pick) {
            let m = b.cands[region[k]];
            ok &= m.count_ones() >= 2;
            union |= m;
            members |= 1u128 << region[k];
        }
        let set = union | p.all;
        if union.count_ones() as usize != degree || !ok || set.count_ones() as usize != degree {
            continue;
        }
        let erasable = all_region & !members & !bug_cells;
        if !cells_of(erasable).any(|c| b.cands[c] & set != 0) {
            continue;
        }
        hint.start(Technique::Bug3, tenths(5.7 + (degree as f64 - 1.0) * 0.1));
        hint.add_house(h);
        hint.pattern = p.n as u8;
        hint.extra = p.all;
        for c in p.cells[..p.n]
            .iter()
            .map(|&c| c as usize)
            .chain(cells_of(members))
        {
            hint.add_cell(c);
        }
        hint.digits = set;
        for c in cells_of(erasable) {
            hint.eliminate(c, b.cands[c] & set);
        }
        return true;
    }
    false
}
