//! The cell and region hints of the every-hint producers nested chains run on reduced grids
//! (multiple forcing chains at level 3, [`multiple`](super::multiple); dynamic forcing
//! chains and nested ones of level 2 at levels 4 and 5, [`dynamic`](super::dynamic)), over
//! either kind of propagation ([`Branch`]).
//!
//! As the producers' own search ([`cell_region`](super::super::shared::cell_region)), in
//! SE's discovery order, but nothing is cut and each hint is kept with its rule parents:
//! those of the "on" potentials of all its chains, and of its assumptions (a cell hint's
//! count as the cell's naked single, a region hint's as the house's hidden single).
//!
//! Not making a house's other places' propagations once the ones made share nothing was
//! measured a loss (2026-12-06, callgrind, forum_hardest_1905_11+ line 3: 3.994 → 3.996 G
//! instructions: most houses have two places).
//!
//! Layer: the nesting driver's, over [`hint`](super::hint) and
//! [`shared`](super::super::shared).

use super::hint::{conclusion_removals, Nested, Origin};
use super::reach::Unfounded;
use crate::engines::rater::board::{
    cells_of, digits_of, Board, CELL_HOUSES, HOUSE_CELLS, HOUSE_MASK,
};
use crate::engines::rater::chains::shared::bits::{CandSet, PotSet};
use crate::engines::rater::chains::shared::cell_region::{first_place, gather, Propagation};
use crate::engines::rater::chains::shared::key::Key;
use crate::engines::rater::chains::shared::links::{potential, POTENTIALS};

/// A propagation whose chains an every-hint producer walks back (what it implied is its
/// [`Propagation::trail`]).
pub(crate) trait Branch: Propagation {
    /// What a propagation on a reduced grid needs besides the grid: nothing for a static
    /// one, the nested scratch for a dynamic one.
    type Nesting;
    /// Propagates "on" potential `root` on `b`, forgetting the last propagation.
    fn propagate_on(&mut self, b: &Board, root: u16, nesting: &mut Self::Nesting);
    /// The difficulty of the producer's hints, before the length bonus.
    fn base(&self) -> f64;
    /// Walks the chains of `chains` (one a propagation from an assumption of the same
    /// hint, on `b`, which `src` was reduced to) back from `p`.
    fn walk_chains(src: &Board, b: &Board, p: u16, chains: &[&Self]) -> Walked;
}

/// What a hint's chains give, walked back from its conclusion ([`Branch::walk_chains`]).
pub(crate) struct Walked {
    /// The rule parents of their potentials but the assumptions'.
    pub(crate) parents: CandSet,
    pub(crate) complexity: u32,
    /// Their fingerprint ([`nest_set`](crate::engines::rater::chains::shared::nest_set)).
    pub(crate) print: u64,
    /// The cells of their potentials and of the nested chains those rest on.
    pub(crate) cells: u128,
}

/// The hint concluding `p` from the propagations `chains` (sort key `sort`, discovery
/// place `order`, found at `origin`), its rule parents but those of the assumptions; none if
/// it removes nothing.
pub(crate) fn conclusion<I: Branch>(
    (src, b): (&Board, &Board),
    (p, sort): (u16, u8),
    chains: &[&I],
    (order, origin): (usize, Origin),
) -> Option<Nested> {
    let mut hint = Nested::empty(Key::NONE, order, origin);
    hint.removals = conclusion_removals(b, p)?;
    let walked = I::walk_chains(src, b, p, chains);
    hint.parents = walked.parents;
    hint.key = Key::new(chains[0].base(), walked.complexity, sort);
    hint.chain = walked.print;
    hint.cells = walked.cells;
    Some(hint)
}

/// The propagations of one cell's digits and of one house's places, kept together: what
/// the hints of a cell or a house need to walk all their chains once found.
pub(crate) struct Branches<I> {
    /// The propagation of each digit of the current cell ("on"); the first is also where
    /// `--steps` propagates a found hint's assumptions again.
    pub(crate) per_digit: Vec<Box<I>>,
    /// The propagations of a house's places (by index in the house).
    places: Vec<Box<I>>,
    common: PotSet,
    /// The conclusions of a cell or a house, in discovery order (reserved once).
    pub(crate) list: Vec<u16>,
}

impl<I: Branch> Branches<I> {
    /// Scratch of propagations made by `make` (built one by one: each is large).
    pub(crate) fn new(make: impl Fn() -> I) -> Branches<I> {
        Branches {
            per_digit: (0..9).map(|_| Box::new(make())).collect(),
            places: (0..9).map(|_| Box::new(make())).collect(),
            common: PotSet::EMPTY,
            list: Vec::with_capacity(POTENTIALS),
        }
    }

    /// Every cell and region hint on `b` (reduced from `src`) from the cells of `least`
    /// candidates or more, in SE's discovery order, appended to `out`: for each cell, for
    /// each digit `v`, `digit` (which propagates "v on" into `per_digit[v]`, and may add
    /// hints of its own first), then `v`'s region hints; then the cell's hints.
    ///
    /// The cells and houses `none` says have no hint are left out, and so are the
    /// propagations only they need.
    pub(crate) fn every(
        &mut self,
        (src, b): (&Board, &Board),
        (least, none): (u32, Option<&Unfounded<'_>>),
        nesting: &mut I::Nesting,
        out: &mut Vec<Nested>,
        mut digit: impl FnMut(&mut Self, &mut I::Nesting, (usize, usize), &mut Vec<Nested>),
    ) {
        for c in cells_of(b.open) {
            let cands = b.cands[c];
            if cands.count_ones() < least {
                continue;
            }
            let cell = none.is_none_or(|u| !u.cell(b, c));
            for v in digits_of(cands) {
                let mut houses = 0u8;
                for (k, &h) in CELL_HOUSES[c].iter().enumerate() {
                    if first_place(b, c, k, v) && none.is_none_or(|u| !u.house(b, h as usize, v)) {
                        houses |= 1 << k;
                    }
                }
                if cell || houses != 0 {
                    digit(self, nesting, (c, v), out);
                    self.regions((src, b), (c, v, houses), nesting, out);
                }
            }
            if cell {
                self.cell((src, b), c, out);
            }
        }
    }

    /// The region hints from digit `v` of cell `c` (its propagation done) in the houses
    /// of `houses` (bit `k` for `CELL_HOUSES[c][k]`), where `c` is the first place of `v`.
    fn regions(
        &mut self,
        (src, b): (&Board, &Board),
        (c, v, houses): (usize, usize, u8),
        nesting: &mut I::Nesting,
        out: &mut Vec<Nested>,
    ) {
        for (k, &h) in CELL_HOUSES[c].iter().enumerate() {
            if houses >> k & 1 == 0 {
                continue;
            }
            let h = h as usize;
            let rest = b.pos[h][v] & (b.pos[h][v] - 1);
            self.common = *self.per_digit[v].trail().set();
            for i in digits_of(rest) {
                let x = &mut self.places[i];
                x.propagate_on(b, potential(HOUSE_CELLS[h][i] as usize, v, true), nesting);
                self.common.intersect(x.trail().set());
            }
            if self.common.is_empty() {
                continue;
            }
            let own = &*self.per_digit[v];
            let mut chains = [own; 9];
            let mut n = 1;
            for i in digits_of(rest) {
                chains[n] = &*self.places[i];
                n += 1;
            }
            let lost = src.planes[v] & !b.planes[v] & HOUSE_MASK[h];
            gather(own.trail().found(), &self.common, &mut self.list);
            for &p in &self.list {
                let origin = Origin::Region {
                    house: h as u8,
                    digit: v as u8,
                    target: p,
                };
                let at = (out.len(), origin);
                if let Some(mut hint) = conclusion((src, b), (p, 6), &chains[..n], at) {
                    hint.parents.add_cells(lost, v);
                    out.push(hint);
                }
            }
        }
    }

    /// The cell hints of cell `c` (the propagations of all its digits done).
    fn cell(&mut self, (src, b): (&Board, &Board), c: usize, out: &mut Vec<Nested>) {
        let cands = b.cands[c];
        let own = &*self.per_digit[cands.trailing_zeros() as usize];
        let mut chains = [own; 9];
        self.common = *own.trail().set();
        for (n, v) in digits_of(cands).enumerate() {
            chains[n] = &*self.per_digit[v];
            self.common.intersect(chains[n].trail().set());
        }
        let chains = &chains[..cands.count_ones() as usize];
        gather(own.trail().found(), &self.common, &mut self.list);
        for &p in &self.list {
            let origin = Origin::Cell {
                cell: c as u8,
                target: p,
            };
            if let Some(mut hint) = conclusion((src, b), (p, 5), chains, (out.len(), origin)) {
                hint.parents.add_digits(c, src.cands[c] & !b.cands[c]);
                out.push(hint);
            }
        }
    }
}
