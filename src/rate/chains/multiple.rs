//! Multiple forcing chains (8.0 + length bonus), SE's `Chaining(true, false, false, 0)`: the
//! fourth chaining producer, after Nishio. Its hints are cell and region forcing chains.
//!
//! SE visits the cells row by row with **three candidates or more** (bivalue cells are left
//! to the earlier producers), and for each digit `v` of the cell assumes "v on" there and
//! propagates statically with both rules of [`links`](super::links): pending "on" potentials
//! are expanded before pending "off" ones, each kind first in, first out, and the
//! propagation stops at the first potential implied both on and off (what it found up to
//! there is kept: a false assumption's consequences are cut short, as in SE). The depth of a
//! potential in that tree (the root 1) is its number of ancestors.
//!
//! - Region forcing chains, for each digit `v` of the cell and each of its houses (block,
//!   row, column) where `v` has two places or more and the cell is the first of them: each
//!   other place is assumed "v on" too; a potential implied by every place is the hint's
//!   conclusion (in the order the cell's own propagation found it, "on" ones first).
//! - Cell forcing chains, once all digits of the cell are done: a potential implied by every
//!   digit of the cell (in the order the first digit's propagation found it, "on" first).
//!
//! An "on" conclusion places its digit (the cell's other candidates go first), an "off" one
//! removes it. The complexity is the sum of the conclusion's depths over the assumptions;
//! the difficulty 8.0 plus the length bonus; sort keys 5 (cell) and 6 (region). Discovery
//! order is: for each cell, for each digit, its region hints, then the cell's hints; SE
//! takes the first of the least (difficulty, complexity, sort key) ([`Key`](key::Key)).

use super::cell_region::{CellRegion, Propagation};
use super::eureka::{self, Tree, ROOT};
use super::key::{self};
use super::links::{conjugate, is_on, off_to_on, on_to_off, potential, Rules, POTENTIALS};
use super::nested::NestSet;
use crate::rate::board::{cells_of, digits_of, Board, HOUSE_CELLS};

const WORDS: usize = POTENTIALS.div_ceil(64);

/// What one assumption implies: the potentials in the order found, with their depths and
/// the potential each was implied from (for the chains of `--steps`).
pub(crate) struct Implied {
    set: [u64; WORDS],
    depth: [u16; POTENTIALS],
    parent: [u16; POTENTIALS],
    order: [u16; POTENTIALS],
    len: usize,
}

impl Implied {
    const fn new() -> Implied {
        Implied {
            set: [0; WORDS],
            depth: [0; POTENTIALS],
            parent: [ROOT; POTENTIALS],
            order: [0; POTENTIALS],
            len: 0,
        }
    }

    #[inline]
    fn has(&self, p: u16) -> bool {
        self.set[p as usize >> 6] >> (p & 63) & 1 != 0
    }

    #[inline]
    fn add(&mut self, p: u16, depth: u16, parent: u16) {
        self.set[p as usize >> 6] |= 1u64 << (p & 63);
        self.depth[p as usize] = depth;
        self.parent[p as usize] = parent;
        self.order[self.len] = p;
        self.len += 1;
    }

    fn clear(&mut self) {
        for i in 0..self.len {
            let p = self.order[i];
            self.set[p as usize >> 6] = 0;
        }
        self.len = 0;
    }

    /// SE's static `doChaining` from `root` (an "on" potential), both rules.
    fn propagate(&mut self, b: &Board, root: u16) {
        self.clear();
        self.add(root, 1, ROOT);
        let rules = Rules { x: true, y: true };
        let (mut on_i, mut off_i) = (0, 0);
        let mut offs = [0u16; 32];
        let mut ons = [0u16; 4];
        loop {
            while on_i < self.len && !is_on(self.order[on_i]) {
                on_i += 1;
            }
            if on_i < self.len {
                let p = self.order[on_i];
                on_i += 1;
                let depth = self.depth[p as usize] + 1;
                let n = on_to_off(b, p, true, &mut offs);
                for &x in &offs[..n] {
                    if self.has(conjugate(x)) {
                        return;
                    }
                    if !self.has(x) {
                        self.add(x, depth, p);
                    }
                }
                continue;
            }
            while off_i < self.len && is_on(self.order[off_i]) {
                off_i += 1;
            }
            if off_i >= self.len {
                return;
            }
            let p = self.order[off_i];
            off_i += 1;
            let depth = self.depth[p as usize] + 1;
            let n = off_to_on(b, p, rules, &mut ons);
            for &q in &ons[..n] {
                if self.has(conjugate(q)) {
                    return;
                }
                if !self.has(q) {
                    self.add(q, depth, p);
                }
            }
        }
    }
}

impl Propagation for Implied {
    type Scratch = ();
    fn propagate(&mut self, b: &Board, root: u16, _: &mut ()) {
        Implied::propagate(self, b, root);
    }
    fn found(&self) -> &[u16] {
        &self.order[..self.len]
    }
    fn set(&self) -> &[u64; WORDS] {
        &self.set
    }
    fn complexity(&self, p: u16, _: &mut NestSet) -> u32 {
        u32::from(self.depth[p as usize])
    }
}

impl Tree for Implied {
    fn parent(&self, p: u16) -> u16 {
        self.parent[p as usize]
    }
    fn hidden(&self, _: u16, _: &mut dyn FnMut(u16)) {}
}

/// The difficulty of cell and region forcing chains, before the length bonus.
const BASE: f64 = 8.0;

/// Which forcing chains a hint is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// From every candidate of the source cell.
    Cell,
    /// From every place of `digit` (0-based) in `house`.
    Region { house: u8, digit: u8 },
}

/// The best cell or region forcing chain so far.
pub(crate) type Found = key::Found<Kind>;

/// Scratch: the propagations of the current cell's digits and of a house's other places.
pub(crate) struct Multiple {
    cr: CellRegion<Implied>,
}

impl Multiple {
    pub(crate) fn new() -> Box<Multiple> {
        Box::new(Multiple {
            cr: CellRegion::new(Implied::new, false),
        })
    }

    /// The producer: the first of the least hints.
    pub(crate) fn find(&mut self, b: &Board) -> Option<Found> {
        let mut best: Option<Found> = None;
        for c in cells_of(b.open) {
            let cands = b.cands[c];
            if cands.count_ones() < 3 {
                continue;
            }
            for v in digits_of(cands) {
                self.cr.per_digit[v].propagate(b, potential(c, v, true));
                let region = |house, digit| Kind::Region { house, digit };
                self.cr
                    .regions(b, &mut (), (c, v), (BASE, 6), region, &mut best);
            }
            self.cr.cell(b, c, (BASE, 5), Kind::Cell, &mut best);
        }
        best
    }
}

impl Multiple {
    /// The branches of `found` (one a line, in Eureka notation: [`eureka`]), from each
    /// candidate of its cell or each place of its digit in its house, in SE's order.
    pub(crate) fn explain(&mut self, b: &Board, found: &Found, out: &mut String) {
        let assumptions = match found.kind {
            Kind::Cell => (found.source, b.cands[found.source], None),
            Kind::Region { house, digit } => {
                let h = house as usize;
                (h, b.pos[h][digit as usize], Some(digit as usize))
            }
        };
        let (at, set, digit) = assumptions;
        let mut first = true;
        for i in digits_of(set) {
            let root = match digit {
                None => potential(at, i, true),
                Some(d) => potential(HOUSE_CELLS[at][i] as usize, d, true),
            };
            self.cr.other.propagate(b, root);
            if !first {
                out.push('\n');
            }
            first = false;
            eureka::write_branch(out, &*self.cr.other, found.target);
        }
    }
}
