//! Dynamic forcing chains (8.5 + length bonus), SE's `Chaining(true, true, false, 0)`: the
//! fifth chaining producer, after multiple forcing chains.
//! Built with `plus`, it is SE's next producer, dynamic forcing chains (+) (9.0 + length
//! bonus, `Chaining(true, true, false, 1)`): the same search, whose propagations also apply
//! the basic rules of [`plus`](super::plus) each time their links run dry.
//!
//! As [`nishio`](super::nishio), but on every digit and with both rules ([`implied`]: an
//! "off" potential, once expanded, removes its candidate, so later links read the reduced
//! grid; an "on" potential implied by a cell or a house has as hidden parents the
//! candidates that cell or house lost since the assumption). Pending "on" potentials are
//! expanded before "off" ones, each kind first in, first out; a clash stops the
//! propagation (what it found up to there is kept).
//!
//! For each cell row by row with two candidates or more, for each digit `v` of it, in SE's
//! discovery order:
//! 1. "v on" clashes: `v` leaves the cell (contradiction, sort key 7);
//! 2. "v off" clashes: `v` is placed (contradiction, 7);
//! 3. cells of three candidates or more: a potential implied both by "v on" and by "v off"
//!    (double forcing, sort key 1): "on" ones first, in the order "v on" found them;
//! 4. region forcing chains from the houses where the cell is the first place of `v`;
//!
//! and once the digits are done, the cell forcing chains (as in [`multiple`](super::multiple)).
//! The complexity of a hint is the number of distinct ancestors of each of its chains'
//! ends (hidden parents included), added over the chains; the difficulty 8.5 plus the
//! length bonus; SE takes the first of the least (difficulty, complexity, sort key). A
//! potential's path of first parents back to the assumption is part of its ancestors, so
//! its length bounds the complexity from below: a conclusion whose bound already loses to
//! the best hint so far is not walked (the hint taken is the same).
//! [`nested`](super::nested) gives every hint of the same search (level 0) in that order,
//! with what nested chains of level 4 need of each.
//!
//! Unlike the earlier producers, every candidate is assumed both ways (double forcing and
//! the reductions need both), so this is the costly one: about 2 x 150-250 propagations a
//! step, each a copy of the candidates and a walk of at most 1,458 potentials.
//!
//! Layer: a producer, over [`shared`](super::shared); [`implied`] calls the nesting
//! driver above it (SE's levels 4 and 5 nest dynamic chains: the one import circle), and
//! [`explain`] writes a found hint's chains for `--steps`.

mod explain;
mod implied;

pub(crate) use explain::{record, How};
pub(crate) use implied::{count_once, Implied, Parents};

// The circle SE's nesting has: dynamic forcing chains nest dynamic forcing chains.
use super::nested::{Known, Nest};
use super::shared::cell_region::{beats, gather, CellRegion};
use super::shared::key::{self, offer};
use super::shared::links::{potential, POTENTIALS};
use crate::engines::rater::board::{cells_of, digits_of, Board};
use crate::engines::rater::Stop;

/// Which of the producer's hints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// The assumption (the conclusion's conjugate) clashes.
    Contradiction,
    /// Implied by `digit` (0-based) of the source cell on and off.
    Double { digit: u8 },
    /// Implied by every candidate of the source cell.
    Cell,
    /// Implied by every place of `digit` in `house`.
    Region { house: u8, digit: u8 },
}

/// Other places' propagations kept by a producer of each level ([`CellRegion`]): only
/// dynamic forcing chains keep any (from (+) on, a propagation holds room for the rules'
/// parents, tens of kilobytes more).
const KEEP: [usize; 6] = [64, 0, 0, 0, 0, 0];

/// The difficulty of dynamic forcing chains, before the length bonus.
const BASE: f64 = 8.5;
/// The difficulty of dynamic forcing chains (+), before the length bonus.
const BASE_PLUS: f64 = 9.0;
/// The difficulty of nested forcing chains of level 2, before the length bonus.
const BASE_NESTED: f64 = 9.5;
/// The difficulty of nested forcing chains of level 3, before the length bonus.
const BASE_NESTED_3: f64 = 10.0;
/// The difficulty of nested forcing chains of level 4, before the length bonus.
const BASE_NESTED_4: f64 = 10.5;
/// The difficulty of nested forcing chains of level 5, before the length bonus.
const BASE_NESTED_5: f64 = 11.0;
/// The difficulties before the length bonus, by level.
pub(crate) const BASES: [f64; 6] = [
    BASE,
    BASE_PLUS,
    BASE_NESTED,
    BASE_NESTED_3,
    BASE_NESTED_4,
    BASE_NESTED_5,
];

/// The best dynamic forcing chain so far.
pub(crate) type Found = key::Found<Kind>;

/// Scratch: the "on" propagation of each digit of the current cell, the "off" one of the
/// current digit, one for the other places of a house, and a house's running intersection.
pub(crate) struct Dynamic {
    cr: CellRegion<Implied>,
    off: Box<Implied>,
    /// The nested producers' scratch (used from level 2).
    nest: Box<Nest>,
    /// 8.5, 9.0 for dynamic forcing chains (+), 9.5 to 11.0 nested.
    base: f64,
    /// The potentials both "v on" and "v off" imply, in the order they are offered.
    list: Vec<u16>,
    /// Raised by another thread: give up before the next assumption ([`Stop`]).
    stop: Stop,
}

impl Dynamic {
    /// Dynamic forcing chains (`level` 0), dynamic forcing chains (+) (1), or nested
    /// forcing chains of levels 2 to 5 (one scratch for levels 1 to `level`: see
    /// [`Dynamic::set_level`]).
    pub(crate) fn new(level: u8) -> Box<Dynamic> {
        // Built piece by piece: the whole, built at once, would pass through the stack.
        Box::new(Dynamic {
            cr: CellRegion::new(|| Implied::new(level), level >= 2, KEEP[level as usize]),
            off: Box::new(Implied::new(level)),
            nest: Nest::new(level),
            base: BASES[level as usize],
            list: Vec::with_capacity(POTENTIALS),
            stop: Stop::default(),
        })
    }

    /// Give up a search once `stop` is raised.
    pub(crate) fn stop_when(&mut self, stop: Stop) {
        self.stop = stop;
    }

    /// Makes a producer made at level 5 (which has the scratch of levels 1-5) one of
    /// `level` 1 to 5.
    pub(crate) fn set_level(&mut self, level: u8) {
        debug_assert!((1..=5).contains(&level));
        for x in self
            .cr
            .per_digit
            .iter_mut()
            .chain(self.cr.kept.iter_mut())
            .chain([&mut self.cr.other, &mut self.off])
        {
            x.level = level;
        }
        self.nest.set_level(level);
        self.base = BASES[level as usize];
    }

    /// What the ladder found on the boards [`Dynamic::find`] is given next (the nested
    /// searches need not run some of theirs).
    pub(crate) fn set_quiet(&mut self, quiet: Known) {
        self.nest.set_quiet(quiet);
    }

    /// The producer: the first of the least hints.
    pub(crate) fn find(&mut self, b: &Board) -> Option<Found> {
        let mut best: Option<Found> = None;
        let base = self.base;
        self.cr.begin();
        for c in cells_of(b.open) {
            let cands = b.cands[c];
            if cands.count_ones() < 2 {
                continue;
            }
            for v in digits_of(cands) {
                // Each assumption's propagations can take milliseconds at the nested levels:
                // a raised flag is seen within one.
                if self.stop.raised() {
                    return None;
                }
                self.binary(b, c, v, &mut best);
                let region = |house, digit| Kind::Region { house, digit };
                self.cr.regions(
                    b,
                    &mut self.nest,
                    (c, v, 0b111),
                    (base, 6),
                    region,
                    &mut best,
                );
            }
            self.cr.cell(b, c, (base, 5), Kind::Cell, &mut best);
        }
        best
    }

    /// Contradictions from "v on" and "v off" in cell `c`, then double forcing chains.
    fn binary(&mut self, b: &Board, c: usize, v: usize, best: &mut Option<Found>) {
        let (on, off) = (potential(c, v, true), potential(c, v, false));
        let base = self.base;
        self.cr.own(b, (c, v), &mut self.nest);
        let own = &self.cr.per_digit[v];
        if let Some(cx) = clash_complexity(own, |least| beats(base, least, 7, best)) {
            offer(b, base, off, cx, 7, c, Kind::Contradiction, best);
        }
        self.off.propagate(b, off, &mut self.nest);
        if let Some(cx) = clash_complexity(&self.off, |least| beats(base, least, 7, best)) {
            offer(b, base, on, cx, 7, c, Kind::Contradiction, best);
        }
        if b.cands[c].count_ones() < 3 {
            return;
        }
        let own = &self.cr.per_digit[v];
        let mut common = *own.trail.set();
        if !common.intersect(self.off.trail.set()) {
            return;
        }
        gather(own.trail.found(), &common, &mut self.list);
        for &p in &self.list {
            let least = own.least(p, None) + self.off.least(p, None);
            if !beats(base, least, 1, best) {
                continue;
            }
            let cx = own.counting(|nested| {
                own.ancestors(p, None, nested) + self.off.ancestors(p, None, nested)
            });
            let kind = Kind::Double { digit: v as u8 };
            offer(b, base, p, cx, 1, c, kind, best);
        }
    }
}

/// The complexity of the clash that stopped a propagation, if one did and `could` (given a
/// lower bound of that complexity) says it may matter.
fn clash_complexity(x: &Implied, could: impl Fn(u32) -> bool) -> Option<u32> {
    let [(on, on_parents), (off, off_parents)] = x.clash?.sides();
    if !could(x.least(on, on_parents) + x.least(off, off_parents)) {
        return None;
    }
    Some(x.counting(|nested| {
        x.ancestors(on, on_parents, nested) + x.ancestors(off, off_parents, nested)
    }))
}
