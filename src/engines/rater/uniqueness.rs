//! Unique rectangles and loops, types 1-4, as SE 1.2.1.3 finds and orders them.
//!
//! A loop is a closed path of cells that all hold two digits `v1 < v2`, each step inside one
//! house and never twice in a row through the same kind of house, such that cells at even
//! and at odd positions cover the same houses, each once. If every cell held only `v1, v2`
//! the puzzle would have two solutions, so the extra candidates of the loop's "rescue" cells
//! cannot all be false:
//! - type 1, one rescue cell: it loses `v1` and `v2`;
//! - type 2, rescue cells sharing one extra digit `z`: the cells seeing all of them lose `z`;
//! - type 3, two rescue cells in one house whose extra digits form a naked set with other
//!   cells there (c1 standing for both), or whose house holds a hidden set with `v1, v2`;
//! - type 4, two rescue cells in a house where `v1` (or `v2`) has no other place: both lose
//!   `v2` (`v1`).
//!
//! Ratings: 4.5 for 4 cells, 4.6 for 6, 4.7 for 8, 5.0 for 10 or more; type 3 adds 0.1 per
//! digit of the set beyond the first (naked) or per cell beyond the first (hidden).
//!
//! SE finds loops by a depth-first search from each bivalue cell (row by row), neighbours in
//! the order block, row, column, and lets a cell with extra digits in while some are allowed
//! (two) or while the extra digits seen at that level so far are a single one. It gathers
//! every hint, sorts them by rating then type (stably) and applies the first: so here the
//! first hint with the lowest (rating, type) wins. Ratings are compared as SE's doubles.

use super::board::{
    cells_of, digits_of, Board, CELLS, CELL_HOUSES, CELL_INDEX, HOUSE_BITS, HOUSE_CELLS,
    HOUSE_MASK, PEERS,
};
use super::hint::Hint;
use super::Technique;

/// The best hint so far: its rating as SE computes it, its type, and what it does.
struct Best {
    rating: f64,
    kind: u8,
    found: bool,
}

/// Scratch of one search.
struct Search<'a> {
    b: &'a Board,
    v1: usize,
    v2: usize,
    both: u128,
    /// The cells of `both` that can lie on a loop at all (see [`loop_cells`]).
    alive: u128,
    loop_cells: [u8; CELLS],
    len: usize,
    members: u128,
    /// Houses of the cells at even and at odd positions of the path.
    parity: [u32; 2],
    best: Best,
    hint: &'a mut Hint,
    /// lkSudoku's fixes (Sukaku's default): each neighbour adds its extra digits to its own
    /// copy of the set, and type 3 tries sets from pairs up.
    lk: bool,
}

/// Unique rectangles and loops (4.5 and up); `lk`: with lkSudoku's fixes, as Sukaku
/// Explainer runs them by default.
pub(crate) fn unique_loops(b: &Board, hint: &mut Hint, lk: bool) -> bool {
    let mut best = Best {
        rating: f64::INFINITY,
        kind: 0,
        found: false,
    };
    for cell in 0..CELLS {
        let m = b.cands[cell];
        if m.count_ones() != 2 {
            continue;
        }
        let v1 = m.trailing_zeros() as usize;
        let v2 = 15 - (m.leading_zeros() as usize);
        let mut s = Search {
            b,
            v1,
            v2,
            both: b.planes[v1] & b.planes[v2],
            alive: 0,
            loop_cells: [0; CELLS],
            len: 0,
            members: 0,
            parity: [0; 2],
            best,
            hint: &mut *hint,
            lk,
        };
        s.alive = loop_cells(s.both);
        if s.alive >> cell & 1 != 0 {
            s.walk(cell, 2, 0, 3);
        }
        best = s.best;
    }
    best.found
}

impl Search<'_> {
    /// SE's `checkForLoops`: `last` is the kind of house (0 block, 1 row, 2 column, 3 none)
    /// the path came through.
    ///
    /// A path whose even (or odd) cells cover a house twice can only close into loops SE's
    /// validity test rejects, so it is not walked further; the walk still accounts for the
    /// cell's extra digits as SE does (they count for the cell's later siblings).
    fn walk(&mut self, cell: usize, allowed: i32, ex_parent: u16, last: usize) {
        let side = self.len % 2;
        self.parity[side] |= HOUSE_BITS[cell];
        self.loop_cells[self.len] = cell as u8;
        self.len += 1;
        self.members |= 1u128 << cell;
        let mut ex = ex_parent;
        let pair = (1u16 << self.v1) | (1u16 << self.v2);
        for kind in 0..3 {
            if kind == last {
                continue;
            }
            let h = CELL_HOUSES[cell][kind] as usize;
            // The house's cells in index order (which is cell order), keeping only those SE
            // does anything with: the start (to close a loop) and cells off the path that
            // hold both digits.
            let start = self.loop_cells[0] as usize;
            let close = if self.len >= 4 { 1u128 << start } else { 0 };
            let mut set = HOUSE_MASK[h] & (self.both & !self.members | close);
            while set != 0 {
                let next = set.trailing_zeros() as usize;
                set &= set - 1;
                if next == start {
                    self.found_loop();
                } else {
                    let pot = self.b.cands[next];
                    let seen = if self.lk {
                        ex_parent | pot & !pair
                    } else {
                        ex |= pot & !pair;
                        ex
                    };
                    let card = pot.count_ones();
                    let open = HOUSE_BITS[next] & self.parity[self.len % 2] == 0
                        && self.alive >> next & 1 != 0;
                    if open && (card == 2 || seen.count_ones() == 1 || allowed > 0) {
                        let allowed = allowed - i32::from(card > 2);
                        self.walk(next, allowed, seen, kind);
                    }
                }
            }
        }
        self.len -= 1;
        self.members &= !(1u128 << cell);
        self.parity[side] &= !HOUSE_BITS[cell];
    }

    /// SE's `isValidLoop`: even and odd cells each cover distinct houses (the walk keeps
    /// to such paths), the same ones.
    fn valid(&self) -> bool {
        self.parity[0] == self.parity[1]
    }

    fn base_rating(&self) -> f64 {
        let mut r = 4.5;
        if self.len >= 10 {
            r += 0.3;
        }
        if self.len >= 8 {
            r += 0.2;
        } else if self.len >= 6 {
            r += 0.1;
        }
        r
    }

    fn found_loop(&mut self) {
        if !self.valid() {
            return;
        }
        let b = self.b;
        let pair = (1u16 << self.v1) | (1u16 << self.v2);
        let mut extra = [0usize; CELLS];
        let mut n = 0;
        for &c in &self.loop_cells[..self.len] {
            if b.cands[c as usize].count_ones() > 2 {
                extra[n] = c as usize;
                n += 1;
            }
        }
        match n {
            0 => {}
            1 => self.type1(extra[0]),
            2 => {
                let (c1, c2) = (extra[0], extra[1]);
                let rest = (b.cands[c1] | b.cands[c2]) & !pair;
                if rest.count_ones() == 1 {
                    self.type2(&extra[..2]);
                } else if rest.count_ones() >= 2 {
                    self.type3(c1, c2);
                }
                self.type4(c1, c2);
            }
            _ => self.type2(&extra[..n]),
        }
    }

    /// Records a hint if it beats the best one: `fill` writes it.
    fn offer(&mut self, rating: f64, kind: u8, eliminate: impl FnOnce(&mut Hint)) {
        if self.best.found && (rating, kind) >= (self.best.rating, self.best.kind) {
            return;
        }
        self.best = Best {
            rating,
            kind,
            found: true,
        };
        let pair = (1u16 << self.v1) | (1u16 << self.v2);
        fill_start(self.hint, self.len, &self.loop_cells, pair, kind, rating);
        eliminate(self.hint);
    }

    /// A type-3 hint: the house `h` loses `victims[i]` at index `i`; the subset is `digits`
    /// in the extra cells and the cells at `others` (indexes in `h`).
    fn offer_house(&mut self, rating: f64, h: usize, victims: [u16; 9], subset: (u16, u16)) {
        self.offer(rating, 3, |hint| {
            let (others, digits) = subset;
            hint.add_house(h);
            hint.pattern = hint.n_cells;
            for i in digits_of(others) {
                hint.add_cell(HOUSE_CELLS[h][i] as usize);
            }
            hint.extra = digits;
            for i in 0..9 {
                hint.eliminate(HOUSE_CELLS[h][i] as usize, victims[i]);
            }
        });
    }

    fn type1(&mut self, rescue: usize) {
        let rating = self.base_rating();
        if self.best.found && (rating, 1) >= (self.best.rating, self.best.kind) {
            return;
        }
        let pair = (1u16 << self.v1) | (1u16 << self.v2);
        self.offer(rating, 1, |h| {
            h.eliminate(rescue, pair);
        });
    }

    fn type2(&mut self, extra: &[usize]) {
        let b = self.b;
        let pair = (1u16 << self.v1) | (1u16 << self.v2);
        let z = (b.cands[extra[0]] & !pair).trailing_zeros() as usize;
        let mut common = !0u128;
        let mut rescue = 0u128;
        for &c in extra {
            common &= PEERS[c];
            rescue |= 1u128 << c;
        }
        let victims = common & !rescue & b.planes[z];
        if victims == 0 {
            return;
        }
        let rating = self.base_rating();
        self.offer(rating, 2, |h| {
            for c in cells_of(victims) {
                h.eliminate(c, 1 << z);
            }
        });
    }

    fn type3(&mut self, c1: usize, c2: usize) {
        let b = self.b;
        let pair = (1u16 << self.v1) | (1u16 << self.v2);
        let extra = (b.cands[c1] | b.cands[c2]) & !pair;
        let base = self.base_rating();
        let n_extra = extra.count_ones() as usize;
        let first = if self.lk { 2 } else { n_extra };
        for degree in first..=7 {
            for kind in 0..3 {
                let h = CELL_HOUSES[c1][kind] as usize;
                if h != CELL_HOUSES[c2][kind] as usize {
                    continue;
                }
                let empty = b.empty[h] as usize;
                let (i1, i2) = (CELL_INDEX[c1][kind] as usize, CELL_INDEX[c2][kind] as usize);
                let two = ExtraPair {
                    h,
                    c1,
                    c2,
                    i1,
                    i2,
                    degree,
                    extra,
                    base,
                };
                if degree * 2 <= empty && degree >= n_extra {
                    self.type3_naked(two);
                }
                if degree * 2 < empty {
                    self.type3_hidden(two);
                }
            }
        }
    }

    /// Type 3 with a naked subset of `degree` cells: the extra cell and others of the house.
    fn type3_naked(&mut self, two: ExtraPair) {
        let b = self.b;
        for &set in subsets(two.degree, 9) {
            if set >> two.i1 & 1 == 0 || set >> two.i2 & 1 != 0 {
                continue;
            }
            let mut naked = two.extra & b.cands[two.c1] & b.cands[two.c2];
            let mut union = 0u16;
            let mut ok = true;
            for i in digits_of(set) {
                let m = if i == two.i1 {
                    two.extra
                } else {
                    let m = b.cands[HOUSE_CELLS[two.h][i] as usize];
                    naked |= m;
                    m
                };
                ok &= m.count_ones() >= 2;
                union |= m;
            }
            if naked.count_ones() as usize != two.degree
                || !ok
                || union.count_ones() as usize != two.degree
            {
                continue;
            }
            let mut victims = [0u16; 9];
            let mut worth = false;
            for i in 0..9 {
                let c = HOUSE_CELLS[two.h][i] as usize;
                if set >> i & 1 == 0 && c != two.c2 {
                    victims[i] = b.cands[c] & union;
                    worth |= victims[i] != 0;
                }
            }
            if !worth {
                continue;
            }
            let rating = two.base + (two.degree as f64 - 1.0) * 0.1;
            let subset = (set & !(1 << two.i1), union);
            self.offer_house(rating, two.h, victims, subset);
        }
    }

    /// Type 3 with a hidden subset of `degree` digits: the pair's and others of the house.
    fn type3_hidden(&mut self, two: ExtraPair) {
        let b = self.b;
        let pair = (1u16 << self.v1) | (1u16 << self.v2);
        let others = 0x1FF & !pair & !two.extra;
        let mut rem = [0usize; 9];
        let mut n = 0;
        for d in digits_of(others) {
            rem[n] = d;
            n += 1;
        }
        // SE's `Permutations` over no items yields nothing.
        if two.degree - 2 > n || n == 0 {
            return;
        }
        for &pick in subsets(two.degree - 2, n) {
            let mut values = pair;
            for k in digits_of(pick) {
                values |= 1 << rem[k];
            }
            let mut union = 0u16;
            let mut ok = true;
            for d in digits_of(values) {
                let p = b.pos[two.h][d] & !(1 << two.i2);
                union |= p;
                ok &= p != 0;
            }
            if !ok || union.count_ones() as usize != two.degree {
                continue;
            }
            let cells_mask = union & !(1 << two.i1) & !(1 << two.i2);
            if let Some(victims) = hidden_victims(b, two.h, [two.c1, two.c2], cells_mask, values) {
                let rating = two.base + (cells_mask.count_ones() as f64 - 1.0) * 0.1;
                self.offer_house(rating, two.h, victims, (cells_mask, values));
            }
        }
    }

    fn type4(&mut self, c1: usize, c2: usize) {
        let b = self.b;
        // The first house where each digit of the pair is locked in the two cells.
        let (mut lock1, mut lock2) = (None, None);
        for kind in 0..3 {
            let h = CELL_HOUSES[c1][kind] as usize;
            if h != CELL_HOUSES[c2][kind] as usize {
                continue;
            }
            let outside = !((1u16 << CELL_INDEX[c1][kind]) | (1u16 << CELL_INDEX[c2][kind]));
            if b.pos[h][self.v1] & outside == 0 {
                lock1 = lock1.or(Some(h));
            }
            if b.pos[h][self.v2] & outside == 0 {
                lock2 = lock2.or(Some(h));
            }
        }
        let (remove, house) = match (lock1, lock2) {
            (Some(h), _) => (self.v2, h),
            (None, Some(h)) => (self.v1, h),
            (None, None) => return,
        };
        let rating = self.base_rating();
        self.offer(rating, 4, |hint| {
            hint.add_house(house);
            hint.eliminate(c1, 1 << remove);
            hint.eliminate(c2, 1 << remove);
        });
    }
}

/// A type-3 rectangle's two cells with extra candidates in house `h` (`i1`, `i2`: their
/// places in it), the subset size tried, the extra candidates and the base rating.
#[derive(Clone, Copy)]
struct ExtraPair {
    h: usize,
    c1: usize,
    c2: usize,
    i1: usize,
    i2: usize,
    degree: usize,
    extra: u16,
    base: f64,
}

fn fill_start(hint: &mut Hint, len: usize, cells: &[u8; CELLS], pair: u16, kind: u8, rating: f64) {
    let technique = match (len == 4, kind) {
        (true, 1) => Technique::UniqueRectangle1,
        (true, 2) => Technique::UniqueRectangle2,
        (true, 3) => Technique::UniqueRectangle3,
        (true, _) => Technique::UniqueRectangle4,
        (false, 1) => Technique::UniqueLoop1,
        (false, 2) => Technique::UniqueLoop2,
        (false, 3) => Technique::UniqueLoop3,
        (false, _) => Technique::UniqueLoop4,
    };
    hint.start(technique, tenths(rating));
    for &c in &cells[..len] {
        hint.add_cell(c as usize);
    }
    hint.digits = pair;
}

/// A rating as SE prints it: `(int) ((x + 0.05) * 10)`.
pub(crate) fn tenths(x: f64) -> u8 {
    ((x + 0.05) * 10.0) as u8
}

const fn build_subsets() -> ([u16; 512], [usize; 11]) {
    let mut all = [0u16; 512];
    let mut start = [0usize; 11];
    let mut n = 0;
    let mut k = 0;
    while k <= 9 {
        start[k] = n;
        let mut m = 0u16;
        while m < 512 {
            if m.count_ones() as usize == k {
                all[n] = m;
                n += 1;
            }
            m += 1;
        }
        k += 1;
    }
    start[10] = n;
    (all, start)
}

/// The cells of `both` that can be on a loop: a loop cell is entered through one of its
/// houses and left through another, each holding a second loop cell; so cells with another
/// cell of the set in fewer than two of their houses are dropped, until none is. Walks into
/// the others are skipped (every loop through them fails SE's test); they still count for
/// the extra digits a walk has seen.
fn loop_cells(both: u128) -> u128 {
    let mut alive = both;
    loop {
        let mut keep = alive;
        for c in cells_of(alive) {
            let houses = CELL_HOUSES[c]
                .iter()
                .filter(|&&h| (HOUSE_MASK[h as usize] & alive).count_ones() >= 2)
                .count();
            if houses < 2 {
                keep &= !(1u128 << c);
            }
        }
        if keep == alive {
            return alive;
        }
        alive = keep;
    }
}

const SUBSETS: ([u16; 512], [usize; 11]) = build_subsets();

/// The `k`-subsets of `n <= 9` things, in SE's `Permutations` order (increasing as numbers).
pub(crate) fn subsets(k: usize, n: usize) -> &'static [u16] {
    let (all, start) = &SUBSETS;
    let list = &all[start[k]..start[k + 1]];
    let end = list.partition_point(|&m| m < (1u16 << n));
    &list[..end]
}

/// A type-3 hidden set's eliminations: the other candidates of its cells (`cells`, house
/// indexes of `h`) outside the loop's two extra cells; `None` when there are none.
fn hidden_victims(
    b: &Board,
    h: usize,
    extra_cells: [usize; 2],
    cells: u16,
    values: u16,
) -> Option<[u16; 9]> {
    let mut victims = [0u16; 9];
    let mut worth = false;
    for i in digits_of(cells) {
        let c = HOUSE_CELLS[h][i] as usize;
        if !extra_cells.contains(&c) {
            victims[i] = b.cands[c] & !values;
            worth |= victims[i] != 0;
        }
    }
    worth.then_some(victims)
}
