//! Nishio forcing chains (7.5 + length bonus), SE's `Chaining(false, true, true, 0)`: the
//! third chaining producer, after aligned triplet exclusion.
//!
//! For each cell row by row with two candidates or more, for each of its digits `d`, SE
//! assumes "d on" there, then "d off", and propagates *dynamically* on digit `d` alone:
//!
//! ```text
//!  on  (c)  ──▶ off (o)   every other place o of d in c's block, row, column (in that
//!                         order, each cell once)
//!  off (c)  ──▶ on  (o)   a house of c (block, row, column) where d has exactly two places
//!                         *now*, o the other one; the places d lost in that house since the
//!                         assumption are "hidden parents" of the "on"
//!  an "off" is applied (d leaves the cell) once it has been expanded
//! ```
//!
//! Pending "on" potentials are expanded before pending "off" ones, each kind first in,
//! first out. The search stops at the first potential implied both on and off: the
//! assumption is false (on: `d` leaves the cell; off: `d` is placed there). The chain's
//! complexity is the number of distinct ancestors (parents, hidden ones included) of the
//! "on" and of the "off" potential of the clash, counted separately and added; the hint's
//! difficulty is 7.5 plus the length bonus of that complexity, and SE takes the first of
//! the least (difficulty, complexity) ([`Key`]; all Nishio hints share the sort key 7).
//!
//! Every implication is sound while the candidates hold the solution, so an assumption the
//! solution agrees with never clashes: only "on" for digits the solution does not hold there
//! and "off" for the solution's digit are searched. The state is one digit's plane, so a
//! search is a few dozen mask operations.
//!
//! Layer: a producer, over [`shared`](super::shared) (links, key, recording) alone.

use super::shared::key::Key;
use super::shared::links::{cell_of, is_on, potential};
use super::shared::record::{record_branch, Cause, Tree, WithClash, ROOT};
use crate::engines::rater::board::{
    cells_of, digits_of, two_cells, Board, CELLS, CELL_HOUSES, HOUSE_MASK,
};
use crate::engines::rater::chain::Record;

/// SE's sort key of a contradiction hint.
const SORT: u8 = 7;

/// No parent (a root, or an "on" without a cell parent).
const NONE: u8 = u8::MAX;

/// The best Nishio hint so far.
#[derive(Clone, Copy)]
pub(crate) struct Found {
    pub key: Key,
    pub cell: usize,
    pub digit: usize,
    /// Whether the assumption was "on" (so the digit leaves the cell) or "off" (placed).
    pub assumed_on: bool,
    /// The cells of the potentials the clash rests on.
    pub cells: u128,
}

/// Scratch of one propagation on one digit.
pub(crate) struct Nishio {
    plane: u128,
    on: u128,
    off: u128,
    /// The "on" potential (its cell) each "off" came from.
    off_parent: [u8; CELLS],
    /// The "off" potential each "on" came from.
    on_parent: [u8; CELLS],
    /// The places each "on" potential's house had lost: its hidden parents ("off").
    on_hidden: [u128; CELLS],
    on_queue: [u8; CELLS],
    off_queue: [u8; CELLS],
}

/// The two potentials of a clash, each with the parents SE gives it there.
struct Clash {
    /// The "on" potential's cell and, when it is the newly implied one, its parents.
    on: (usize, Option<(u8, u128)>),
    /// The "off" potential's cell and, when it is the newly implied one, its parent.
    off: (usize, Option<u8>),
}

impl Nishio {
    pub(crate) const fn new() -> Nishio {
        Nishio {
            plane: 0,
            on: 0,
            off: 0,
            off_parent: [NONE; CELLS],
            on_parent: [NONE; CELLS],
            on_hidden: [0; CELLS],
            on_queue: [0; CELLS],
            off_queue: [0; CELLS],
        }
    }

    /// The producer: the first of the least hints. `solution[c]` is the solution's digit
    /// (1..=9) of cell `c`. Only `digits` are searched: the others' places are known to
    /// hold no Nishio chain.
    pub(crate) fn find(&mut self, b: &Board, solution: &[u8; CELLS], digits: u16) -> Option<Found> {
        let mut best: Option<Found> = None;
        for c in cells_of(b.open) {
            if b.cands[c].count_ones() < 2 {
                continue;
            }
            for d in digits_of(b.cands[c] & digits) {
                let assumed_on = solution[c] as usize != d + 1;
                let Some(clash) = self.propagate(b.planes[d], c, assumed_on) else {
                    continue;
                };
                let (complexity, cells) = self.complexity(&clash);
                let key = Key::new(7.5, complexity, SORT);
                if best.as_ref().is_none_or(|f| key.before(&f.key)) {
                    best = Some(Found {
                        key,
                        cell: c,
                        digit: d,
                        assumed_on,
                        cells,
                    });
                }
            }
        }
        best
    }

    /// Propagates "root on" (or off) on a digit whose places are `plane`; the first clash.
    fn propagate(&mut self, plane: u128, root: usize, on: bool) -> Option<Clash> {
        let source = plane;
        self.plane = plane;
        self.on = 0;
        self.off = 0;
        let (mut on_head, mut on_tail, mut off_head, mut off_tail) = (0, 0, 0, 0);
        if on {
            self.on = 1u128 << root;
            self.on_parent[root] = NONE;
            self.on_hidden[root] = 0;
            self.on_queue[0] = root as u8;
            on_tail = 1;
        } else {
            self.off = 1u128 << root;
            self.off_parent[root] = NONE;
            self.off_queue[0] = root as u8;
            off_tail = 1;
        }
        loop {
            let clash = if on_head < on_tail {
                let p = self.on_queue[on_head] as usize;
                on_head += 1;
                self.expand_on(p, &mut off_tail)
            } else if off_head < off_tail {
                let p = self.off_queue[off_head] as usize;
                off_head += 1;
                self.expand_off(p, source, &mut on_tail)
            } else {
                return None;
            };
            if clash.is_some() {
                return clash;
            }
        }
    }

    /// "p on": the digit's other places in p's houses go off (queued from `off_tail`).
    #[inline]
    fn expand_on(&mut self, p: usize, off_tail: &mut usize) -> Option<Clash> {
        let hs = CELL_HOUSES[p];
        let block = HOUSE_MASK[hs[0] as usize];
        let places = self.plane & !(1u128 << p);
        for (k, &h) in hs.iter().enumerate() {
            // Cells of the block seen again in the row or column come once.
            let outside = if k == 0 { !0 } else { !block };
            for o in cells_of(places & HOUSE_MASK[h as usize] & outside) {
                if self.on >> o & 1 != 0 {
                    return Some(Clash {
                        on: (o, None),
                        off: (o, Some(p as u8)),
                    });
                }
                if self.off >> o & 1 == 0 {
                    self.off |= 1u128 << o;
                    self.off_parent[o] = p as u8;
                    self.off_queue[*off_tail] = o as u8;
                    *off_tail += 1;
                }
            }
        }
        None
    }

    /// "p off": p leaves the plane, and a house of p left with one other place puts it on
    /// (queued from `on_tail`), its hidden parents the places the house lost since `source`.
    #[inline]
    fn expand_off(&mut self, p: usize, source: u128, on_tail: &mut usize) -> Option<Clash> {
        let mut made = [(0u8, 0u128); 3];
        let mut n = 0;
        for &h in &CELL_HOUSES[p] {
            let house = HOUSE_MASK[h as usize];
            let now = self.plane & house;
            if !two_cells(now) {
                continue;
            }
            let o = (now & !(1u128 << p)).trailing_zeros() as u8;
            if !made[..n].iter().any(|&(c, _)| c == o) {
                made[n] = (o, source & house & !now);
                n += 1;
            }
        }
        self.plane &= !(1u128 << p);
        for &(o, hidden) in &made[..n] {
            let o = o as usize;
            if self.off >> o & 1 != 0 {
                return Some(Clash {
                    on: (o, Some((p as u8, hidden))),
                    off: (o, None),
                });
            }
            if self.on >> o & 1 == 0 {
                self.on |= 1u128 << o;
                self.on_parent[o] = p as u8;
                self.on_hidden[o] = hidden;
                self.on_queue[*on_tail] = o as u8;
                *on_tail += 1;
            }
        }
        None
    }

    /// SE's complexity of a clash (distinct ancestors of its "on" plus those of its "off",
    /// each counted with itself) and the cells they lie in.
    fn complexity(&self, clash: &Clash) -> (u32, u128) {
        let (on_cell, on_parents) = clash.on;
        let (ons, offs) = match on_parents {
            Some((parent, hidden)) => {
                self.ancestors(1u128 << on_cell, 0, 0, (1u128 << parent) | hidden)
            }
            None => self.ancestors(0, 0, 1u128 << on_cell, 0),
        };
        let n_on = ons.count_ones() + offs.count_ones();
        let (off_cell, off_parent) = clash.off;
        let (ons2, offs2) = match off_parent {
            Some(parent) => self.ancestors(0, 1u128 << off_cell, 1u128 << parent, 0),
            None => self.ancestors(0, 0, 0, 1u128 << off_cell),
        };
        let n_off = ons2.count_ones() + offs2.count_ones();
        (n_on + n_off, ons | offs | ons2 | offs2)
    }

    /// The potentials reachable through parents: `seen_*` are already counted (and not
    /// expanded), `todo_*` still to visit. Returns the "on" and "off" cell sets.
    fn ancestors(
        &self,
        mut seen_on: u128,
        mut seen_off: u128,
        mut todo_on: u128,
        mut todo_off: u128,
    ) -> (u128, u128) {
        loop {
            todo_on &= !seen_on;
            todo_off &= !seen_off;
            if todo_on == 0 && todo_off == 0 {
                return (seen_on, seen_off);
            }
            seen_on |= todo_on;
            seen_off |= todo_off;
            let (mut next_on, mut next_off) = (0u128, 0u128);
            for c in cells_of(todo_on) {
                if self.on_parent[c] != NONE {
                    next_off |= 1u128 << self.on_parent[c];
                }
                next_off |= self.on_hidden[c];
            }
            for c in cells_of(todo_off) {
                if self.off_parent[c] != NONE {
                    next_on |= 1u128 << self.off_parent[c];
                }
            }
            todo_on = next_on;
            todo_off = next_off;
        }
    }
}

/// A propagation of [`Nishio`] on `digit`, as an implication tree of potentials.
struct OnDigit<'a> {
    nishio: &'a Nishio,
    digit: usize,
    /// The digit's places on the step's grid.
    source: u128,
}

/// The house of "off" `from` whose two places left, `from` and `to`, made `to` "on" once it
/// had lost `hidden` (the first of `from`'s block, row and column that fits, as
/// [`Nishio::expand_off`] takes it).
fn house_of_link(source: u128, from: usize, to: usize, hidden: u128) -> Cause {
    let pair = 1u128 << from | 1u128 << to;
    CELL_HOUSES[from]
        .iter()
        .find(|&&h| {
            let m = HOUSE_MASK[h as usize];
            m >> to & 1 == 1 && source & m & !pair == hidden
        })
        .map_or(Cause::Link, |&h| Cause::House(h))
}

impl Tree for OnDigit<'_> {
    fn parent(&self, p: u16) -> u16 {
        let c = cell_of(p);
        let (parent, on) = if is_on(p) {
            (self.nishio.on_parent[c], false)
        } else {
            (self.nishio.off_parent[c], true)
        };
        if parent == NONE {
            ROOT
        } else {
            potential(parent as usize, self.digit, on)
        }
    }
    fn hidden(&self, p: u16, visit: &mut dyn FnMut(u16)) {
        if is_on(p) {
            for o in cells_of(self.nishio.on_hidden[cell_of(p)]) {
                visit(potential(o, self.digit, false));
            }
        }
    }
    fn cause(&self, p: u16) -> Cause {
        let o = cell_of(p);
        let parent = self.nishio.on_parent[o];
        if !is_on(p) || parent == NONE {
            return Cause::Link;
        }
        house_of_link(self.source, parent as usize, o, self.nishio.on_hidden[o])
    }
}

impl Nishio {
    /// Records the branches of `found`: from the assumption to the "on" and to the "off" of
    /// the place that clashes (a side that is the assumption itself is left out: the other
    /// leads to its negation).
    pub(crate) fn explain(&mut self, b: &Board, found: &Found, rec: &mut Record) {
        let d = found.digit;
        let Some(clash) = self.propagate(b.planes[d], found.cell, found.assumed_on) else {
            return;
        };
        let root = potential(found.cell, d, found.assumed_on);
        let tree = OnDigit {
            nishio: self,
            digit: d,
            source: b.planes[d],
        };
        let (on_cell, on_parents) = clash.on;
        let (off_cell, off_parent) = clash.off;
        let on = potential(on_cell, d, true);
        let off = potential(off_cell, d, false);
        if on != root {
            match on_parents {
                None => record_branch(rec, b, &tree, on),
                Some((parent, hidden)) => {
                    let mut list = [0u16; 16];
                    let mut n = 0;
                    for o in cells_of(hidden) {
                        list[n] = potential(o, d, false);
                        n += 1;
                    }
                    let clash = WithClash {
                        tree: &tree,
                        potential: on,
                        parent: potential(parent as usize, d, false),
                        hidden: &list[..n],
                        cause: house_of_link(b.planes[d], parent as usize, on_cell, hidden),
                    };
                    record_branch(rec, b, &clash, on);
                }
            }
        }
        if off != root {
            match off_parent {
                None => record_branch(rec, b, &tree, off),
                Some(parent) => {
                    let clash = WithClash {
                        tree: &tree,
                        potential: off,
                        parent: potential(parent as usize, d, true),
                        hidden: &[],
                        cause: Cause::Link,
                    };
                    record_branch(rec, b, &clash, off);
                }
            }
        }
    }
}
