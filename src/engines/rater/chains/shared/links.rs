//! The implication graph the chain producers walk: candidates as *potentials* ("r1c2 is 5"
//! on, or off), and the two rules SE links them with, read off the board each time (no
//! graph is stored: a potential's links are a few mask operations on the board).
//!
//! ```text
//!  potential id (u16) = (cell * 9 + digit) << 1 | on        0 ..= 1457
//!
//!  on  (c, d) ──weak──▶ off (c, e)   every other digit e of c         ("Y" rule)
//!             ──weak──▶ off (o, d)   every peer o holding d: block, then row, then column,
//!                                    each in SE's cell order, repeats dropped
//!  off (c, d) ─strong─▶ on  (c, e)   c holds exactly d and e          ("Y" rule)
//!             ─strong─▶ on  (o, d)   d has exactly two places in a house of c (block, row,
//!                                    column), o the other one         ("X" rule)
//! ```
//!
//! The lists come in SE's order (`Chaining.getOnToOff` / `getOffToOn`), which decides the
//! breadth-first trees and so which chain of equal length is found first.
//!
//! Layer: shared, at the bottom: every producer reads its links here.

use crate::engines::rater::board::{
    digits_of, two_bits, Board, CELLS, CELL_HOUSES, CELL_INDEX, HOUSE_CELLS,
};

/// Potentials: two per candidate of the grid.
pub(crate) const POTENTIALS: usize = 1458;

/// The id of potential (cell, digit 0-based, on).
#[inline]
pub(crate) const fn potential(cell: usize, d: usize, on: bool) -> u16 {
    (((cell * 9 + d) << 1) | on as usize) as u16
}

/// The cell of a potential.
#[inline]
pub(crate) const fn cell_of(p: u16) -> usize {
    (p >> 1) as usize / 9
}

/// The digit (0-based) of a potential.
#[inline]
pub(crate) const fn digit_of(p: u16) -> usize {
    (p >> 1) as usize % 9
}

/// Whether a potential is "on" (the digit is placed).
#[inline]
pub(crate) const fn is_on(p: u16) -> bool {
    p & 1 == 1
}

/// The same candidate with the other state.
#[inline]
pub(crate) const fn conjugate(p: u16) -> u16 {
    p ^ 1
}

/// Which rules a search may use (SE's `isXChainEnabled` / `isYChainEnabled`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rules {
    /// Strong links between the two places of a digit in a house.
    pub x: bool,
    /// Weak links inside a cell, strong links in bivalue cells.
    pub y: bool,
}

impl Rules {
    /// Both rules: the XY pass, multiple forcing chains.
    pub(crate) const XY: Rules = Rules { x: true, y: true };
}

/// The potentials an "on" potential turns off, in SE's order; `out` holds at least 28.
#[inline]
pub(crate) fn on_to_off(b: &Board, p: u16, y: bool, out: &mut [u16; 32]) -> usize {
    let (c, d) = (cell_of(p), digit_of(p));
    let mut n = 0;
    if y {
        for e in digits_of(b.cands[c] & !(1 << d)) {
            out[n] = potential(c, e, false);
            n += 1;
        }
    }
    for (k, &h) in CELL_HOUSES[c].iter().enumerate() {
        let h = h as usize;
        // A row or column cell of the block came with the block.
        let mut places = b.pos[h][d] & NEW_PLACES[c][k];
        while places != 0 {
            let i = places.trailing_zeros() as usize;
            places &= places - 1;
            out[n] = potential(HOUSE_CELLS[h][i] as usize, d, false);
            n += 1;
        }
    }
    n
}

/// The potentials an "off" potential turns on, in SE's order (at most four).
#[inline]
pub(crate) fn off_to_on(b: &Board, p: u16, rules: Rules, out: &mut [u16; 4]) -> usize {
    let (c, d) = (cell_of(p), digit_of(p));
    let mut n = 0;
    if rules.y {
        let m = b.cands[c];
        if two_bits(m) {
            let e = (m & !(1 << d)).trailing_zeros() as usize;
            out[n] = potential(c, e, true);
            n += 1;
        }
    }
    if rules.x {
        for (k, &h) in CELL_HOUSES[c].iter().enumerate() {
            let h = h as usize;
            let positions = b.pos[h][d];
            if two_bits(positions) {
                let i = (positions & !(1 << CELL_INDEX[c][k])).trailing_zeros() as usize;
                let on = potential(HOUSE_CELLS[h][i] as usize, d, true);
                if !out[..n].contains(&on) {
                    out[n] = on;
                    n += 1;
                }
            }
        }
    }
    n
}

/// A way to read the links: [`Live`] computes them off a board each time, [`Graph`] reads
/// them from lists made once for a board. Both give [`on_to_off`] and [`off_to_on`]'s lists.
pub(crate) trait Links {
    /// The potentials "on" potential `p` turns off, in SE's order (in `out` or in `self`).
    fn on_to_off<'s>(&'s self, p: u16, y: bool, out: &'s mut [u16; 32]) -> &'s [u16];
    /// The potentials "off" potential `p` turns on, in SE's order (in `out` or in `self`).
    fn off_to_on<'s>(&'s self, p: u16, rules: Rules, out: &'s mut [u16; 4]) -> &'s [u16];
}

/// The links of a board, computed as they are read.
pub(crate) struct Live<'a>(pub &'a Board);

impl Links for Live<'_> {
    #[inline]
    fn on_to_off<'s>(&'s self, p: u16, y: bool, out: &'s mut [u16; 32]) -> &'s [u16] {
        let n = on_to_off(self.0, p, y, out);
        &out[..n]
    }
    #[inline]
    fn off_to_on<'s>(&'s self, p: u16, rules: Rules, out: &'s mut [u16; 4]) -> &'s [u16] {
        let n = off_to_on(self.0, p, rules, out);
        &out[..n]
    }
}

/// No potential (a [`Graph`] entry left empty).
const NO: u16 = u16::MAX;

/// Room for every candidate's "on" links (at most 28 each), and 4 more: each list is
/// written in place into 32.
const ONS: usize = 729 * 28 + 4;

/// The static links of one board, listed once: the static producers walk them hundreds of
/// times a step.
pub(crate) struct Graph {
    /// Every candidate's "on" links, one after the other: the cell's other digits (its
    /// "Y" links), then the peers; `on_at[candidate]` = (start, number of cell links, end).
    ons: Box<[u16; ONS]>,
    on_at: [(u16, u8, u16); 729],
    /// Each candidate's "off" links: the cell's other digit when it has two (or [`NO`]),
    /// then the houses' other places, repeats dropped.
    offs: [[u16; 4]; 729],
    /// The part of `offs[candidate]` each set of rules reads, by [`Rules::index`]: read
    /// off a table, not worked out at each of the walks' millions of reads (measured
    /// 2026-12-06, callgrind, 1905_11+ line 3: 3.69 → 3.52 G instructions).
    spans: [[(u8, u8); 4]; 729],
}

impl Rules {
    /// 1 for X links alone, 2 for Y links alone, 3 for both.
    #[inline]
    fn index(self) -> usize {
        usize::from(self.x) | usize::from(self.y) << 1
    }
}

impl Graph {
    pub(crate) fn new() -> Box<Graph> {
        Box::new(Graph {
            ons: Box::new([0; ONS]),
            on_at: [(0, 0, 0); 729],
            offs: [[NO; 4]; 729],
            spans: [[(1, 1); 4]; 729],
        })
    }

    /// Lists the links of `b`'s candidates.
    pub(crate) fn load(&mut self, b: &Board) {
        let mut len = 0;
        for c in crate::engines::rater::board::cells_of(b.open) {
            // An assumption may empty a cell (of a nested chain's reduced grid).
            let others = b.cands[c].count_ones().saturating_sub(1) as u8;
            for d in digits_of(b.cands[c]) {
                let i = c * 9 + d;
                // Written in place, the room after the last list being 32 long at least (not
                // through a buffer: 9.50 → 9.41 G instructions on three puzzles of 1905_11+).
                let room = (&mut self.ons[len..len + 32]).try_into().expect("32 long");
                let n = on_to_off(b, potential(c, d, true), true, room);
                self.on_at[i] = (len as u16, others, (len + n) as u16);
                len += n;
                let off = potential(c, d, false);
                let mut list = [NO; 4];
                let mut one = [0u16; 4];
                if off_to_on(b, off, Rules { x: false, y: true }, &mut one) == 1 {
                    list[0] = one[0];
                }
                let mut x = [0u16; 4];
                let n = off_to_on(b, off, Rules { x: true, y: false }, &mut x);
                list[1..1 + n].copy_from_slice(&x[..n]);
                self.offs[i] = list;
                let (y, x) = (u8::from(list[0] == NO), 1 + n as u8);
                self.spans[i] = [(1, 1), (1, x), (y, 1), (y, x)];
            }
        }
    }
}

/// Per cell, per house of it (block, row, column): the places of the house whose cells are
/// peers the earlier houses did not list (the row and column leave out the block's). Read
/// by [`on_to_off`] instead of each place's block (measured 2026-12-06, callgrind, three
/// puzzles of forum_hardest_1905_11+: 10.93 → 10.70 G instructions; reading the 20 peers
/// from one plane without a branch: 11.04, lost).
const NEW_PLACES: [[u16; 3]; CELLS] = {
    let mut t = [[0u16; 3]; CELLS];
    let mut c = 0;
    while c < CELLS {
        let block = CELL_HOUSES[c][0] as usize;
        let mut k = 0;
        while k < 3 {
            let h = CELL_HOUSES[c][k] as usize;
            let mut i = 0;
            while i < 9 {
                let o = HOUSE_CELLS[h][i] as usize;
                if o != c && (k == 0 || CELL_HOUSES[o][0] as usize != block) {
                    t[c][k] |= 1 << i;
                }
                i += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
};

impl Links for Graph {
    #[inline]
    fn on_to_off<'s>(&'s self, p: u16, y: bool, _: &'s mut [u16; 32]) -> &'s [u16] {
        let (start, others, end) = self.on_at[p as usize >> 1];
        let from = if y { start } else { start + u16::from(others) };
        &self.ons[from as usize..end as usize]
    }
    #[inline]
    fn off_to_on<'s>(&'s self, p: u16, rules: Rules, _: &'s mut [u16; 4]) -> &'s [u16] {
        let i = p as usize >> 1;
        let (from, to) = self.spans[i][rules.index()];
        &self.offs[i][from as usize..to as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn potential_ids_round_trip() {
        let p = potential(80, 8, true);
        assert_eq!(p as usize, POTENTIALS - 1);
        assert_eq!((cell_of(p), digit_of(p), is_on(p)), (80, 8, true));
        assert_eq!(conjugate(p), potential(80, 8, false));
    }

    #[test]
    fn links_follow_se_order() {
        let mut cells = [0u8; 81];
        // Digit 1 (index 0) at r1c1 empty grid otherwise.
        cells[40] = 9;
        let mut b = Board::blank();
        b.load(&cells);
        let mut out = [0u16; 32];
        let n = on_to_off(&b, potential(0, 0, true), true, &mut out);
        // 8 other digits, then the 20 peers: block (8), row (6 more), column (6 more).
        assert_eq!(n, 28);
        assert_eq!(out[0], potential(0, 1, false));
        assert_eq!(out[8], potential(1, 0, false));
        assert_eq!(out[16], potential(3, 0, false));
        assert_eq!(out[22], potential(27, 0, false));
    }

    /// The lists a graph reads give what the links computed off the board give, under
    /// each rule, on a grid an assumption reduced (a cell emptied among its cells).
    #[test]
    fn a_graph_lists_the_live_links() {
        let puzzle =
            b"..1.....7...89..........6..26..3.......5...749...........1.4.5.83.............2..";
        let cells: [u8; 81] = std::array::from_fn(|c| puzzle[c].saturating_sub(b'0') % 10);
        let mut b = Board::blank();
        b.load(&cells);
        for (c, digits) in [(0, 0b1_1111_1111u16), (1, 0b1_1111_1000), (20, 0b110)] {
            b.remove_mask(c, digits);
        }
        let mut graph = Graph::new();
        graph.load(&b);
        let (mut a, mut g) = ([0u16; 32], [0u16; 32]);
        let (mut x, mut h) = ([0u16; 4], [0u16; 4]);
        let mut strong = 0;
        for c in crate::engines::rater::board::cells_of(b.open) {
            for d in digits_of(b.cands[c]) {
                for y in [false, true] {
                    let on = potential(c, d, true);
                    let n = on_to_off(&b, on, y, &mut a);
                    assert_eq!(&a[..n], Links::on_to_off(&*graph, on, y, &mut g));
                    let rules = Rules { x: !y, y };
                    for rules in [rules, Rules { x: true, y: true }] {
                        let off = conjugate(on);
                        let n = off_to_on(&b, off, rules, &mut x);
                        assert_eq!(&x[..n], Links::off_to_on(&*graph, off, rules, &mut h));
                        strong += n;
                    }
                }
            }
        }
        assert!(strong > 0);
    }
}
