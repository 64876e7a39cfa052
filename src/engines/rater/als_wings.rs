//! Sukaku Explainer's WXYZ-, VWXYZ-, UVWXYZ- and TUVWXYZ-Wings: an almost locked set of
//! `n` cells (3, 4, 5 or 6) that see each other and hold `n + 1` digits between them, and a bivalue cell
//! `xz` seeing at least one of them with both its digits in the set.
//!
//! A digit of `xz` is *restricted* when every set cell holding it sees `xz`. With `x`
//! restricted, `xz` = x would leave the set `n` cells for `n` digits without `x`, so it
//! holds `z`: either `xz` or a set cell is `z`, and the cells seeing `xz` and every set cell
//! holding `z` lose it (`z` = the other digit of `xz`). With both digits restricted (doubly
//! linked), each holds in `xz` or in the set, so the set is locked on its other digits as
//! well: cells seeing every set cell holding such a digit lose it, and cells seeing `xz` and
//! every set cell holding `x` (or `z`) lose `x` (`z`).
//!
//! Order, as Sukaku enumerates: the set's cells by increasing index, each a later peer of
//! all before it (so the set lies in one house, or in a block's line); `xz` in index order
//! among the cells seeing a set cell; `x` the lower digit of `xz` is tried restricted first,
//! the hint naming the eliminated digit. Sukaku gathers every hint, then sorts them by
//! difficulty, by eliminations (more first), then by its suffix (`LINK BIGGEST SIZE`: 2 when
//! doubly linked, the largest candidate count of a set cell, the set's total of candidates;
//! compared as text, the greatest first); the first one wins, in discovery order on ties.
//!
//! Difficulty (Sukaku's hints): WXYZ 5.5, +0.1 when the largest set cell holds 3 digits;
//! VWXYZ 6.2, +0.2 for 3, +0.1 for 2 or 4; UVWXYZ 6.6; TUVWXYZ 7.5 (Sukaku runs it after
//! its static chains).

use super::board::{cells_of, digits_of, Board, PEERS};
use super::hint::Hint;
use super::Technique;

/// The hint that sorts first so far.
#[derive(Clone, Copy)]
struct Best {
    difficulty: u8,
    total: u32,
    suffix: Suffix,
    cells: [u8; 7],
    n: usize,
    digits: u16,
    elim: [(u128, u16); 9],
}

/// Sukaku's suffix as text: `LINK BIGGEST SIZE` digits.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Suffix {
    text: [u8; 4],
    len: usize,
}

impl Suffix {
    fn new(double: bool, biggest: u32, size: u32) -> Suffix {
        let mut text = [b'1' + u8::from(double), b'0' + biggest as u8, 0, 0];
        let len = if size >= 10 {
            text[2] = b'0' + (size / 10) as u8;
            text[3] = b'0' + (size % 10) as u8;
            4
        } else {
            text[2] = b'0' + size as u8;
            3
        };
        Suffix { text, len }
    }

    fn as_bytes(&self) -> &[u8] {
        &self.text[..self.len]
    }
}

/// One search over the grid for wings with a set of `n` cells.
struct Search<'a> {
    b: &'a Board,
    n: usize,
    set: [usize; 6],
    best: Option<Best>,
}

/// WXYZ- (`n` = 3), VWXYZ- (4), UVWXYZ- (5) and TUVWXYZ-Wing (6).
pub(crate) fn als_wing(b: &Board, hint: &mut Hint, n: usize) -> bool {
    let mut s = Search {
        b,
        n,
        set: [0; 6],
        best: None,
    };
    for c in cells_of(b.open) {
        let card = b.cands[c].count_ones() as usize;
        if (2..=n + 1).contains(&card) {
            s.set[0] = c;
            s.extend(1, forward_peers(c), b.cands[c]);
        }
    }
    let Some(best) = s.best else {
        return false;
    };
    let technique = [
        Technique::WXYZWing,
        Technique::VWXYZWing,
        Technique::UVWXYZWing,
        Technique::TUVWXYZWing,
    ][n - 3];
    hint.start(technique, best.difficulty);
    for &c in &best.cells[..best.n] {
        hint.add_cell(c as usize);
    }
    hint.digits = best.digits;
    hint.extra = b.cands[best.cells[best.n - 1] as usize];
    for &(victims, digit) in &best.elim {
        for c in cells_of(victims) {
            hint.eliminate(c, digit);
        }
    }
    true
}

/// The peers of `c` after it in index order.
fn forward_peers(c: usize) -> u128 {
    PEERS[c] & !((2u128 << c) - 1)
}

impl Search<'_> {
    /// Adds set cell `depth` from `next` (the later peers of every cell so far).
    fn extend(&mut self, depth: usize, next: u128, union: u16) {
        let limit = self.n as u32 + 1;
        for c in cells_of(next & self.b.open) {
            let cands = self.b.cands[c];
            let u = union | cands;
            if cands.count_ones() < 2 || u.count_ones() > limit {
                continue;
            }
            self.set[depth] = c;
            if depth + 1 < self.n {
                self.extend(depth + 1, next & forward_peers(c), u);
            } else if u.count_ones() == limit {
                self.pincers(u);
            }
        }
    }

    /// Tries every bivalue cell seeing the set with both digits in it.
    fn pincers(&mut self, union: u16) {
        let set = &self.set[..self.n];
        let mut members = 0u128;
        let mut seen = 0u128;
        for &c in set {
            members |= 1u128 << c;
            seen |= PEERS[c];
        }
        for yz in cells_of(seen & !members & self.b.open) {
            let pair = self.b.cands[yz];
            if pair.count_ones() != 2 || pair & !union != 0 {
                continue;
            }
            let x = pair.trailing_zeros() as usize;
            let z = 15 - pair.leading_zeros() as usize;
            let double = self.restricted(yz, z);
            if self.restricted(yz, x) {
                self.offer(union, yz, members, if double { None } else { Some(z) });
            } else if double {
                self.offer(union, yz, members, Some(x));
            }
        }
    }

    /// Whether every set cell holding digit `d` sees `yz`.
    fn restricted(&self, yz: usize, d: usize) -> bool {
        self.set[..self.n]
            .iter()
            .all(|&c| self.b.cands[c] >> d & 1 == 0 || PEERS[yz] >> c & 1 != 0)
    }

    /// The cells seeing every set cell holding `d` (and `yz` too, when given), holding `d`.
    fn victims(&self, d: usize, yz: Option<usize>, members: u128) -> u128 {
        let mut v = yz.map_or(!0, |c| PEERS[c]) & self.b.planes[d] & !members;
        for &c in &self.set[..self.n] {
            if self.b.cands[c] >> d & 1 != 0 {
                v &= PEERS[c];
            }
        }
        v
    }

    /// Rates one wing (`single`: the digit it eliminates; `None` when doubly linked) and
    /// keeps it if it sorts before the best so far.
    fn offer(&mut self, union: u16, yz: usize, members: u128, single: Option<usize>) {
        let pair = self.b.cands[yz];
        let mut elim = [(0u128, 0u16); 9];
        let mut double = single.is_none();
        match single {
            Some(d) => elim[d] = (self.victims(d, Some(yz), members), 1 << d),
            None => {
                let mut weak = false;
                for w in digits_of(union & !pair) {
                    elim[w] = (self.victims(w, None, members), 1 << w);
                    weak |= elim[w].0 != 0;
                }
                let (x, z) = (
                    pair.trailing_zeros() as usize,
                    15 - pair.leading_zeros() as usize,
                );
                elim[x] = (self.victims(x, Some(yz), members), 1 << x);
                elim[z] = (self.victims(z, Some(yz), members), 1 << z);
                // Sukaku calls it singly linked when only one restricted digit eliminates.
                double = weak || (elim[x].0 != 0 && elim[z].0 != 0);
            }
        }
        let total: u32 = elim.iter().map(|e| e.0.count_ones()).sum();
        if total == 0 {
            return;
        }
        let set = &self.set[..self.n];
        let biggest = set.iter().map(|&c| self.b.cands[c].count_ones()).max();
        let biggest = biggest.unwrap_or(0);
        let size: u32 = set.iter().map(|&c| self.b.cands[c].count_ones()).sum();
        let suffix = Suffix::new(double, biggest, size);
        let difficulty = difficulty(self.n, biggest);
        if let Some(best) = &self.best {
            let key = (difficulty, std::cmp::Reverse(total));
            let old = (best.difficulty, std::cmp::Reverse(best.total));
            if key > old || key == old && suffix.as_bytes() <= best.suffix.as_bytes() {
                return;
            }
        }
        let mut cells = [0u8; 7];
        for (i, &c) in set.iter().enumerate() {
            cells[i] = c as u8;
        }
        cells[self.n] = yz as u8;
        self.best = Some(Best {
            difficulty,
            total,
            suffix,
            cells,
            n: self.n + 1,
            digits: union,
            elim,
        });
    }
}

/// Sukaku's difficulty of a wing with a set of `n` cells whose largest holds `biggest`
/// digits (tenths).
fn difficulty(n: usize, biggest: u32) -> u8 {
    let off = (biggest as i32 - 3).unsigned_abs() as u8;
    match n {
        3 => 55 + 1u8.saturating_sub(off),
        4 => 62 + 2u8.saturating_sub(off),
        5 => 66,
        _ => 75,
    }
}
