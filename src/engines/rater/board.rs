//! The candidate grid the techniques read: one 9-bit mask per cell and one 9-bit position
//! mask per house and digit, kept in step by [`Board::remove`] and [`Board::place`].
//!
//! Houses are numbered as Sudoku Explainer lists its region types (blocks, rows, columns):
//! `0..9` blocks (left to right, top to bottom), `9..18` rows, `18..27` columns. A cell's
//! *index* in a house is its position in SE's order: `x` in a row, `y` in a column,
//! `(y % 3) * 3 + x % 3` in a block. Position masks use that index, so "the first position"
//! means what it means to SE.

/// Cells of a grid.
pub(crate) const CELLS: usize = 81;

/// First house of each kind.
pub(crate) const BLOCK: usize = 0;
/// First row house.
pub(crate) const ROW: usize = 9;
/// First column house.
pub(crate) const COL: usize = 18;

/// All nine digits as a mask (bit `d - 1` for digit `d`).
pub(crate) const ALL_DIGITS: u16 = 0x1FF;

const fn build_house_cells() -> [[u8; 9]; 27] {
    let mut t = [[0u8; 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut k = 0;
        while k < 9 {
            let (by, bx) = (i / 3 * 3, i % 3 * 3);
            t[BLOCK + i][k] = ((by + k / 3) * 9 + bx + k % 3) as u8;
            t[ROW + i][k] = (i * 9 + k) as u8;
            t[COL + i][k] = (k * 9 + i) as u8;
            k += 1;
        }
        i += 1;
    }
    t
}

/// `HOUSE_CELLS[h][i]`: the cell at index `i` of house `h`.
pub(crate) const HOUSE_CELLS: [[u8; 9]; 27] = build_house_cells();

const fn build_cell_houses() -> [[u8; 3]; CELLS] {
    let mut t = [[0u8; 3]; CELLS];
    let mut c = 0;
    while c < CELLS {
        let (y, x) = (c / 9, c % 9);
        t[c] = [
            (BLOCK + y / 3 * 3 + x / 3) as u8,
            (ROW + y) as u8,
            (COL + x) as u8,
        ];
        c += 1;
    }
    t
}

/// `CELL_HOUSES[c]`: the block, row and column of cell `c` (in SE's region-type order).
pub(crate) const CELL_HOUSES: [[u8; 3]; CELLS] = build_cell_houses();

const fn build_cell_index() -> [[u8; 3]; CELLS] {
    let mut t = [[0u8; 3]; CELLS];
    let mut c = 0;
    while c < CELLS {
        let (y, x) = (c / 9, c % 9);
        t[c] = [(y % 3 * 3 + x % 3) as u8, x as u8, y as u8];
        c += 1;
    }
    t
}

/// `CELL_INDEX[c]`: the index of cell `c` in its block, row and column.
pub(crate) const CELL_INDEX: [[u8; 3]; CELLS] = build_cell_index();

const fn build_house_masks() -> [u128; 27] {
    let mut t = [0u128; 27];
    let mut h = 0;
    while h < 27 {
        let mut k = 0;
        while k < 9 {
            t[h] |= 1u128 << HOUSE_CELLS[h][k];
            k += 1;
        }
        h += 1;
    }
    t
}

/// `HOUSE_MASK[h]`: the cells of house `h` as an 81-bit set.
pub(crate) const HOUSE_MASK: [u128; 27] = build_house_masks();

const fn build_peers() -> [u128; CELLS] {
    let mut t = [0u128; CELLS];
    let mut c = 0;
    while c < CELLS {
        let hs = CELL_HOUSES[c];
        t[c] =
            (HOUSE_MASK[hs[0] as usize] | HOUSE_MASK[hs[1] as usize] | HOUSE_MASK[hs[2] as usize])
                & !(1u128 << c);
        c += 1;
    }
    t
}

/// `PEERS[c]`: the 20 cells that share a house with `c`.
pub(crate) const PEERS: [u128; CELLS] = build_peers();

/// SE's `getHouseCells` order: the block's cells, then the row's, then the column's, each in
/// index order, without repeats and without the cell itself. Every cell has 20.
const fn build_house_order() -> [[u8; 20]; CELLS] {
    let mut t = [[0u8; 20]; CELLS];
    let mut c = 0;
    while c < CELLS {
        let mut seen = 1u128 << c;
        let mut n = 0;
        let mut kind = 0;
        while kind < 3 {
            let h = CELL_HOUSES[c][kind] as usize;
            let mut k = 0;
            while k < 9 {
                let o = HOUSE_CELLS[h][k];
                if seen >> o & 1 == 0 {
                    seen |= 1u128 << o;
                    t[c][n] = o;
                    n += 1;
                }
                k += 1;
            }
            kind += 1;
        }
        c += 1;
    }
    t
}

/// `HOUSE_ORDER[c]`: the peers of `c` in the order SE visits a cell's houses.
pub(crate) const HOUSE_ORDER: [[u8; 20]; CELLS] = build_house_order();

const fn build_house_bits() -> [u32; CELLS] {
    let mut t = [0u32; CELLS];
    let mut c = 0;
    while c < CELLS {
        let hs = CELL_HOUSES[c];
        t[c] = 1 << hs[0] | 1 << hs[1] | 1 << hs[2];
        c += 1;
    }
    t
}

/// `HOUSE_BITS[c]`: the block, row and column of cell `c` as a 27-bit set (bit `h`).
pub(crate) const HOUSE_BITS: [u32; CELLS] = build_house_bits();

/// Iterates the set bits of an 81-bit cell set, lowest first.
#[inline]
pub(crate) fn cells_of(mut set: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if set == 0 {
            None
        } else {
            let c = set.trailing_zeros() as usize;
            set &= set - 1;
            Some(c)
        }
    })
}

/// Iterates the digits (0-based) of a 9-bit mask, lowest first.
#[inline]
pub(crate) fn digits_of(mut mask: u16) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let d = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            Some(d)
        }
    })
}

/// Whether a mask has exactly two bits set. The portable build targets baseline x86-64,
/// which has no `popcnt`: `count_ones` there is a dozen instructions, this is four.
#[inline]
pub(crate) fn two_bits(x: u16) -> bool {
    let rest = x & x.wrapping_sub(1);
    rest != 0 && rest & (rest - 1) == 0
}

/// [`two_bits`] for an 81-bit cell set.
#[inline]
pub(crate) fn two_cells(x: u128) -> bool {
    let rest = x & x.wrapping_sub(1);
    rest != 0 && rest & (rest - 1) == 0
}

/// Candidates and values of one grid, as the techniques see it.
#[derive(Clone)]
pub(crate) struct Board {
    /// Placed digit (1..=9) or 0.
    pub values: [u8; CELLS],
    /// Candidates of each empty cell (bit `d` for digit `d + 1`); 0 for filled cells.
    pub cands: [u16; CELLS],
    /// `pos[h][d]`: the indexes in house `h` where digit `d + 1` may still go.
    pub pos: [[u16; 9]; 27],
    /// `planes[d]`: the cells where digit `d + 1` may still go.
    pub planes: [u128; 9],
    /// Empty cells per house.
    pub empty: [u8; 27],
    /// Empty cells of the grid.
    pub open: u128,
    /// How often each digit is placed.
    pub placed: [u8; 9],
    /// `single[h]`: the digits with exactly one place in house `h`.
    pub single: [u16; 27],
    /// Houses with a digit of one place, as bits in SE's hidden-single order
    /// ([`SE_ORDER_BIT`]).
    pub single_houses: u32,
    /// Houses with exactly one empty cell, as bits in SE's hidden-single order.
    pub one_empty: u32,
    /// Cells with exactly one candidate.
    pub naked: u128,
    /// Houses (bit `h`) known to hold no direct hidden pair (`[0]`) or triplet (`[1]`): a
    /// scan found none and no position of the house changed since.
    pub direct_set_clean: [u32; 2],
    /// Houses (bit `h`) whose positions changed since the intersections (`[0]` direct,
    /// `[1]` not) last looked.
    pub lock_touched: [u32; 2],
    /// Intersection scans (bit `pair * 9 + i1`, see `singles::locking`) known to find
    /// nothing, direct (`[0]`) and not (`[1]`).
    pub lock_clean: [u64; 2],
}

const fn build_order_bit() -> ([u8; 27], [u8; 27]) {
    let mut bit = [0u8; 27];
    let mut house = [0u8; 27];
    let mut i = 0;
    while i < 9 {
        let order = [(BLOCK + i, i), (COL + i, 9 + i), (ROW + i, 18 + i)];
        let mut k = 0;
        while k < 3 {
            bit[order[k].0] = order[k].1 as u8;
            house[order[k].1] = order[k].0 as u8;
            k += 1;
        }
        i += 1;
    }
    (bit, house)
}

const ORDER: ([u8; 27], [u8; 27]) = build_order_bit();

/// `SE_ORDER_BIT[h]`: the rank of house `h` in the order SE's hidden singles visit houses
/// (blocks, then columns, then rows).
pub(crate) const SE_ORDER_BIT: [u8; 27] = ORDER.0;

/// The house of each rank of [`SE_ORDER_BIT`].
pub(crate) const SE_ORDER_HOUSE: [u8; 27] = ORDER.1;

impl Board {
    /// An empty board (every cell empty, no candidates): the scratch a rater starts from.
    pub(crate) const fn blank() -> Board {
        Board {
            values: [0; CELLS],
            cands: [0; CELLS],
            pos: [[0; 9]; 27],
            planes: [0; 9],
            empty: [0; 27],
            open: 0,
            placed: [0; 9],
            single: [0; 27],
            single_houses: 0,
            one_empty: 0,
            naked: 0,
            direct_set_clean: [0; 2],
            lock_touched: [0; 2],
            lock_clean: [0; 2],
        }
    }

    /// Sets up the board of a puzzle's givens (`cells[i]` 0 or 1..=9) with the candidates SE
    /// starts from: every digit no given of a cell's houses holds.
    pub(crate) fn load(&mut self, cells: &[u8; CELLS]) {
        let mut used = [0u16; 27];
        self.placed = [0; 9];
        self.open = 0;
        self.values = *cells;
        for (c, &v) in cells.iter().enumerate() {
            if v == 0 {
                self.open |= 1u128 << c;
            } else {
                let bit = 1u16 << (v - 1);
                self.placed[v as usize - 1] += 1;
                for &h in &CELL_HOUSES[c] {
                    used[h as usize] |= bit;
                }
            }
        }
        self.clear_candidates();
        // One pass over the candidates fills the cell masks, the planes and the positions.
        for c in cells_of(self.open) {
            let hs = CELL_HOUSES[c];
            let m =
                ALL_DIGITS & !(used[hs[0] as usize] | used[hs[1] as usize] | used[hs[2] as usize]);
            self.add_candidates(c, m);
        }
        // Givens do not repeat in a house of a valid puzzle: each fills one cell.
        self.index_houses(|h| 9 - used[h].count_ones() as u8);
    }

    /// Sets up the board of a position's candidates (`masks[c]`, bit `d` for digit `d + 1`):
    /// a cell with one candidate that no peer still holds is placed; every other cell is
    /// empty with its candidates, a single candidate a peer still holds included (placing it
    /// is then a step, as in SE's own paths, where a naked single waits for its turn).
    pub(crate) fn load_position(&mut self, masks: &[u16; CELLS]) {
        let mut planes = [0u128; 9];
        for (c, &m) in masks.iter().enumerate() {
            for d in digits_of(m) {
                planes[d] |= 1u128 << c;
            }
        }
        self.placed = [0; 9];
        self.open = 0;
        self.values = [0; CELLS];
        for (c, &m) in masks.iter().enumerate() {
            let d = m.trailing_zeros() as usize;
            if m.is_power_of_two() && planes[d] & PEERS[c] == 0 {
                self.values[c] = d as u8 + 1;
                self.placed[d] += 1;
            } else {
                self.open |= 1u128 << c;
            }
        }
        self.clear_candidates();
        for c in cells_of(self.open) {
            self.add_candidates(c, masks[c]);
        }
        let open = self.open;
        self.index_houses(|h| (HOUSE_MASK[h] & open).count_ones() as u8);
    }

    /// No candidate anywhere: what [`add_candidates`](Self::add_candidates) fills.
    fn clear_candidates(&mut self) {
        self.planes = [0; 9];
        self.pos = [[0; 9]; 27];
        self.cands = [0; CELLS];
        self.naked = 0;
    }

    /// The candidates `m` of the empty cell `c`, in its mask, the planes and positions.
    #[inline(always)]
    fn add_candidates(&mut self, c: usize, m: u16) {
        let hs = CELL_HOUSES[c];
        let ix = CELL_INDEX[c];
        let (h0, h1, h2) = (hs[0] as usize, hs[1] as usize, hs[2] as usize);
        self.cands[c] = m;
        if m.count_ones() == 1 {
            self.naked |= 1u128 << c;
        }
        for d in digits_of(m) {
            self.planes[d] |= 1u128 << c;
            self.pos[h0][d] |= 1 << ix[0];
            self.pos[h1][d] |= 1 << ix[1];
            self.pos[h2][d] |= 1 << ix[2];
        }
    }

    /// The houses' empty cells (`empty(h)`), single places and kept sets, from the positions.
    #[inline(always)]
    fn index_houses(&mut self, empty: impl Fn(usize) -> u8) {
        self.single = [0; 27];
        self.single_houses = 0;
        self.one_empty = 0;
        self.direct_set_clean = [0; 2];
        self.lock_touched = [0; 2];
        self.lock_clean = [0; 2];
        for h in 0..27 {
            let empty = empty(h);
            self.empty[h] = empty;
            let mut single = 0u16;
            for (d, &p) in self.pos[h].iter().enumerate() {
                single |= u16::from(p != 0 && p & p.wrapping_sub(1) == 0) << d;
            }
            self.single[h] = single;
            let order = SE_ORDER_BIT[h];
            self.single_houses |= u32::from(single != 0) << order;
            self.one_empty |= u32::from(empty == 1) << order;
        }
    }

    /// Whether every cell holds a digit.
    #[inline]
    pub(crate) fn solved(&self) -> bool {
        self.open == 0
    }

    /// Removes candidate `d` (0-based) from cell `c`, if it is there.
    #[inline]
    pub(crate) fn remove(&mut self, c: usize, d: usize) {
        let bit = 1u16 << d;
        if self.cands[c] & bit == 0 {
            return;
        }
        self.cands[c] &= !bit;
        self.planes[d] &= !(1u128 << c);
        let m = self.cands[c];
        if m & m.wrapping_sub(1) == 0 {
            // One candidate left (or none: the cell is being filled).
            self.naked = self.naked & !(1u128 << c) | u128::from(m != 0) << c;
        }
        let hs = CELL_HOUSES[c];
        let ix = CELL_INDEX[c];
        let houses = HOUSE_BITS[c];
        self.direct_set_clean[0] &= !houses;
        self.direct_set_clean[1] &= !houses;
        self.lock_touched[0] |= houses;
        self.lock_touched[1] |= houses;
        for k in 0..3 {
            let h = hs[k] as usize;
            let p = self.pos[h][d] & !(1u16 << ix[k]);
            self.pos[h][d] = p;
            if p & p.wrapping_sub(1) == 0 {
                // One place left: a hidden single; none: the digit is placed in the house.
                let single = self.single[h] & !bit | u16::from(p != 0) << d;
                self.single[h] = single;
                let order = SE_ORDER_BIT[h];
                self.single_houses =
                    self.single_houses & !(1 << order) | u32::from(single != 0) << order;
            }
        }
    }

    /// Removes every digit of `mask` from cell `c`.
    #[inline]
    pub(crate) fn remove_mask(&mut self, c: usize, mask: u16) {
        for d in digits_of(mask & self.cands[c]) {
            self.remove(c, d);
        }
    }

    /// Places digit `d` (0-based) in cell `c` and removes it from the cell's houses, as SE's
    /// `setValueAndCancel` does.
    pub(crate) fn place(&mut self, c: usize, d: usize) {
        self.remove_mask(c, self.cands[c]);
        self.values[c] = d as u8 + 1;
        self.open &= !(1u128 << c);
        self.placed[d] += 1;
        for &h in &CELL_HOUSES[c] {
            let h = h as usize;
            self.empty[h] -= 1;
            let order = SE_ORDER_BIT[h];
            self.one_empty =
                self.one_empty & !(1 << order) | u32::from(self.empty[h] == 1) << order;
        }
        for o in cells_of(self.planes[d] & PEERS[c]) {
            self.remove(o, d);
        }
    }

    /// The cell at index `i` of house `h`.
    #[inline]
    pub(crate) fn cell(h: usize, i: usize) -> usize {
        HOUSE_CELLS[h][i] as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_agree() {
        for c in 0..CELLS {
            for k in 0..3 {
                let h = CELL_HOUSES[c][k] as usize;
                assert_eq!(HOUSE_CELLS[h][CELL_INDEX[c][k] as usize] as usize, c);
            }
            assert_eq!(PEERS[c].count_ones(), 20);
            let order = HOUSE_ORDER[c];
            let mut set = 0u128;
            for &o in &order {
                set |= 1u128 << o;
            }
            assert_eq!(set, PEERS[c]);
        }
        // r1c1's block comes first, then the rest of row 1, then the rest of column 1.
        assert_eq!(&HOUSE_ORDER[0][..10], &[1, 2, 9, 10, 11, 18, 19, 20, 3, 4]);
    }

    #[test]
    fn place_keeps_masks_in_step() {
        let mut cells = [0u8; CELLS];
        cells[0] = 5;
        let mut b = Board::blank();
        b.load(&cells);
        b.place(40, 2);
        for h in 0..27 {
            for d in 0..9 {
                let mut pos = 0u16;
                for i in 0..9 {
                    if b.cands[Board::cell(h, i)] >> d & 1 != 0 {
                        pos |= 1 << i;
                    }
                }
                assert_eq!(pos, b.pos[h][d]);
            }
        }
        for h in 0..27 {
            let mut single = 0;
            for d in 0..9 {
                if b.pos[h][d].count_ones() == 1 {
                    single |= 1 << d;
                }
            }
            assert_eq!(b.single[h], single);
            assert_eq!(b.single_houses >> SE_ORDER_BIT[h] & 1 == 1, single != 0);
            assert_eq!(b.one_empty >> SE_ORDER_BIT[h] & 1 == 1, b.empty[h] == 1);
        }
        for c in 0..CELLS {
            assert_eq!(b.naked >> c & 1 == 1, b.cands[c].count_ones() == 1);
        }
        assert_eq!(
            SE_ORDER_HOUSE[SE_ORDER_BIT[COL + 3] as usize] as usize,
            COL + 3
        );
        assert_eq!(SE_ORDER_BIT[COL], 9);
        assert_eq!(b.cands[40], 0);
        assert_eq!(b.cands[41] & 0b100, 0);
        assert_eq!(b.cands[1] & 0b10000, 0);
        assert_eq!(b.open.count_ones(), 79);
    }
}
