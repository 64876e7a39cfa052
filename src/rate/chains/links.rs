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

use crate::rate::board::{digits_of, two_bits, Board, CELL_HOUSES, CELL_INDEX, HOUSE_CELLS};

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
    let hs = CELL_HOUSES[c];
    let block = hs[0] as usize;
    for (k, &h) in hs.iter().enumerate() {
        let h = h as usize;
        let mut positions = b.pos[h][d] & !(1 << CELL_INDEX[c][k]);
        while positions != 0 {
            let i = positions.trailing_zeros() as usize;
            positions &= positions - 1;
            let o = HOUSE_CELLS[h][i] as usize;
            // A row or column cell of the block came with the block.
            if k == 0 || CELL_HOUSES[o][0] as usize != block {
                out[n] = potential(o, d, false);
                n += 1;
            }
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
}
