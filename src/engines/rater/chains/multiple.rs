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
//!
//! A propagation implies part of what its assumption can reach in the static graph
//! ([`Closure`], listed once per step): a cell or a house whose assumptions' reaches share
//! no potential concludes nothing, and its propagations are left out (on top1465, most).
//!
//! Layer: a producer, over [`shared`](super::shared) ([`Trail`] for its propagation,
//! [`CellRegion`] for its search, [`Closure`] to cut it); its every-hint half for nested
//! chains of level 3 is in [`nested`](super::nested).

use super::shared::cell_region::{first_place, CellRegion, Propagation};
use super::shared::closure::Closure;
use super::shared::key;
use super::shared::links::{conjugate, is_on, potential, Graph, Links, Live, Rules, POTENTIALS};
use super::shared::nest_set::NestSet;
use super::shared::record::{record_branch, Tree, ROOT};
use super::shared::trail::{Queue, Trail};
use crate::engines::rater::board::{
    cells_of, digits_of, Board, CELL_HOUSES, HOUSE_CELLS, HOUSE_MASK,
};
use crate::engines::rater::chain::Record;

/// What one assumption implies: the potentials in the order found, with their depths and
/// the potential each was implied from (for the chains of `--steps`).
pub(crate) struct Implied {
    pub(crate) trail: Trail,
    depth: [u16; POTENTIALS],
    parent: [u16; POTENTIALS],
}

impl Implied {
    pub(crate) const fn new() -> Implied {
        Implied {
            trail: Trail::new(),
            depth: [0; POTENTIALS],
            parent: [ROOT; POTENTIALS],
        }
    }

    #[inline]
    fn has(&self, p: u16) -> bool {
        self.trail.has(p)
    }

    #[inline]
    fn add(&mut self, p: u16, depth: u16, parent: u16) {
        self.trail.push(p);
        self.depth[p as usize] = depth;
        self.parent[p as usize] = parent;
    }

    /// The depth of implied potential `p` (the assumption 1).
    #[inline]
    pub(crate) fn depth(&self, p: u16) -> u32 {
        u32::from(self.depth[p as usize])
    }

    /// SE's static `doChaining` from `root` (an "on" potential), both rules: a clash (a
    /// potential implied both on and off) ends it. (Reading a potential's and its
    /// conjugate's bits in one word: 3.518 → 3.511 G instructions on forum_hardest_1905_11+
    /// line 3, 2026-12-06, not worth its code.)
    pub(crate) fn propagate(&mut self, links: &impl Links, root: u16) {
        self.trail.clear();
        self.add(root, 1, ROOT);
        let rules = Rules { x: true, y: true };
        let mut offs = [0u16; 32];
        let mut ons = [0u16; 4];
        let mut queue = Queue::default();
        while let Some(p) = self.trail.next(&mut queue) {
            let depth = self.depth[p as usize] + 1;
            let implied = if is_on(p) {
                links.on_to_off(p, true, &mut offs)
            } else {
                links.off_to_on(p, rules, &mut ons)
            };
            for &q in implied {
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
    /// The board's links, listed.
    type Scratch = Graph;
    fn propagate(&mut self, _: &Board, root: u16, graph: &mut Graph) {
        Implied::propagate(self, graph, root);
    }
    fn trail(&self) -> &Trail {
        &self.trail
    }
    fn complexity(&self, p: u16, _: &mut NestSet<'_>) -> u32 {
        u32::from(self.depth[p as usize])
    }
    fn least(&self, p: u16) -> u32 {
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
pub(crate) const BASE: f64 = 8.0;

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
            cr: CellRegion::new(Implied::new, false, 32),
        })
    }

    /// The producer: the first of the least hints; `graph`: `b`'s links, listed, and
    /// `closure` what each potential reaches in them: a cell or region whose assumptions'
    /// reaches share nothing can conclude nothing, and is not propagated.
    pub(crate) fn find(
        &mut self,
        b: &Board,
        graph: &mut Graph,
        closure: &Closure,
    ) -> Option<Found> {
        let mut best: Option<Found> = None;
        self.cr.begin();
        for c in cells_of(b.open) {
            let cands = b.cands[c];
            if cands.count_ones() < 3 {
                continue;
            }
            let cell = closure.meet(digits_of(cands).map(|v| potential(c, v, true)));
            for v in digits_of(cands) {
                let mut houses = 0u8;
                for (k, &h) in CELL_HOUSES[c].iter().enumerate() {
                    if first_place(b, c, k, v) {
                        let places = cells_of(b.planes[v] & HOUSE_MASK[h as usize]);
                        if closure.meet(places.map(|o| potential(o, v, true))) {
                            houses |= 1 << k;
                        }
                    }
                }
                if !cell && houses == 0 {
                    continue;
                }
                self.cr.own(b, (c, v), graph);
                let region = |house, digit| Kind::Region { house, digit };
                self.cr
                    .regions(b, graph, (c, v, houses), (BASE, 6), region, &mut best);
            }
            if cell {
                self.cr.cell(b, c, (BASE, 5), Kind::Cell, &mut best);
            }
        }
        best
    }
}

impl Multiple {
    /// Records the branches of `found`, from each candidate of its cell or each place of its
    /// digit in its house, in SE's order.
    pub(crate) fn explain(&mut self, b: &Board, found: &Found, rec: &mut Record) {
        let assumptions = match found.kind {
            Kind::Cell => (found.source, b.cands[found.source], None),
            Kind::Region { house, digit } => {
                let h = house as usize;
                (h, b.pos[h][digit as usize], Some(digit as usize))
            }
        };
        let (at, set, digit) = assumptions;
        for i in digits_of(set) {
            let root = match digit {
                None => potential(at, i, true),
                Some(d) => potential(HOUSE_CELLS[at][i] as usize, d, true),
            };
            self.cr.other.propagate(&Live(b), root);
            record_branch(rec, b, &*self.cr.other, found.target);
        }
    }
}
