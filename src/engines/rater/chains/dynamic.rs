//! Dynamic forcing chains (8.5 + length bonus), SE's `Chaining(true, true, false, 0)`: the
//! fifth chaining producer, after multiple forcing chains.
//! Built with `plus`, it is SE's next producer, dynamic forcing chains (+) (9.0 + length
//! bonus, `Chaining(true, true, false, 1)`): the same search, whose propagations also apply
//! the basic rules of [`plus`](super::plus) each time their links run dry.
//!
//! As [`nishio`](super::nishio), but on every digit and with both rules: an "off" potential,
//! once expanded, removes its candidate, so later links read the reduced grid; an "on"
//! potential implied by a cell (two candidates left) or a house (two places left) has as
//! hidden parents the candidates that cell or house lost since the assumption. Pending "on"
//! potentials are expanded before "off" ones, each kind first in, first out; a clash stops
//! the propagation (what it found up to there is kept).
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
//! [`Every`] gives every hint of the same search (level 0) in that order, with what nested
//! chains of level 4 need of each ([`nested`](super::nested)).
//!
//! Unlike the earlier producers, every candidate is assumed both ways (double forcing and
//! the reductions need both), so this is the costly one: about 2 x 150-250 propagations a
//! step, each a copy of the candidates and a walk of at most 1,458 potentials.

use std::cell::{Cell, RefCell};

use super::nested::hint::{conclusion_removals, Nested};
use super::nested::Nest;
use super::shared::bits::{CandSet, PotSet};
use super::shared::cell_region::{beats, gather, CellRegion, Propagation};
use super::shared::eureka::{self, Tree, WithClash};
use super::shared::key::{self, offer, Key};
use super::shared::links::{cell_of, conjugate, digit_of, is_on, potential, POTENTIALS};
use super::shared::nest_set::{mix, NestNodes, NestSet};
use super::shared::trail::Trail;
use crate::engines::rater::board::{
    cells_of, digits_of, two_bits, two_cells, Board, CELLS, CELL_HOUSES, CELL_INDEX, HOUSE_CELLS,
    HOUSE_MASK,
};

const NONE: u16 = u16::MAX;
/// A first parent at or above this is no potential but `RULE | i`: the removal was made
/// by a basic rule ([`plus`]), its parents `rule_parents[i]`.
const RULE: u16 = 0x8000;
/// Marks a potential's [`Implied::depth`] that is its exact ancestor count (at most 1,458).
const EXACT: u16 = 0x8000;

/// The parents SE gives a newly implied potential of a clash.
#[derive(Clone, Copy)]
struct Parents {
    first: u16,
    hidden_cell: u16,
    /// The cells its house had lost, packed ([`unpack_region`]).
    hidden_region: u16,
}

impl Parents {
    /// A first parent alone.
    #[inline]
    const fn first(first: u16) -> Parents {
        Parents {
            first,
            hidden_cell: 0,
            hidden_region: 0,
        }
    }
}

/// The two potentials of a clash: (on, its parents if new; off, its parent if new).
type Clash = (u16, Option<Parents>, u16, Option<u16>);

/// One dynamic propagation: what it implies, in order, with every potential's parents.
pub(crate) struct Implied {
    cands: [u16; CELLS],
    planes: [u128; 9],
    trail: Trail,
    parent: [u16; POTENTIALS],
    /// The length of each potential's path of first parents back to the assumption (a
    /// basic rule's removal counts 1): a lower bound of its ancestor count. Once
    /// [`Implied::ancestors`] has walked a potential below level 2 (where no nested chain
    /// adds to a count, so it is the same whichever hint asks: a cell's digits'
    /// propagations are asked again by its double, region and cell forcing chains), its
    /// exact count instead, marked [`EXACT`].
    depth: [Cell<u16>; POTENTIALS],
    /// For an "on" implied by its cell: the digits the cell had lost (their "off"s).
    hidden_cell: [u16; POTENTIALS],
    /// For an "on" implied by a house: the cells its digit had lost there (by candidate,
    /// `p >> 1`: only "on" potentials have hidden parents), packed ([`unpack_region`]): the
    /// propagations are many and kept ([`CellRegion`]), this is an eighth of a cell set.
    hidden_region: [u16; CELLS * 9],
    /// The clash that stopped the propagation: (on, its parents if new; off, its parent if new).
    clash: Option<Clash>,
    /// 0: dynamic forcing chains; 1: (+), the basic rules run when the links run dry; 2:
    /// nested, SE's first chaining producer after them; 3: its multiple forcing chains too;
    /// 4: dynamic forcing chains instead; 5: and nested chains of level 2 after them.
    level: u8,
    /// The parents of each hint of the basic rules (or of a nested chain) that made a
    /// removal (reserved once: at most one a removal, so never more than the candidates).
    rule_parents: Vec<CandSet>,
    /// The complexity and fingerprint of each of those hints that is a nested chain (0 for
    /// a basic rule).
    rule_nested: Vec<(u32, u64)>,
    /// Scratch of [`Implied::ancestors`] (reserved once, never zeroed).
    stack: RefCell<Vec<u16>>,
    /// The nodes of the set of nested chains of a contradiction or double forcing chain
    /// (reserved once: one per removal of each of two propagations at most).
    nodes: RefCell<NestNodes>,
}

impl Implied {
    fn new(level: u8) -> Implied {
        let rules = if level > 0 { CELLS * 9 } else { 0 };
        Implied {
            cands: [0; CELLS],
            planes: [0; 9],
            trail: Trail::new(),
            parent: [NONE; POTENTIALS],
            depth: std::array::from_fn(|_| Cell::new(0)),
            hidden_cell: [0; POTENTIALS],
            hidden_region: [0; CELLS * 9],
            clash: None,
            level,
            rule_parents: Vec::with_capacity(rules),
            rule_nested: Vec::with_capacity(rules),
            stack: RefCell::new(Vec::with_capacity(POTENTIALS)),
            nodes: RefCell::new(Vec::with_capacity(if level >= 2 { 2 * rules } else { 0 })),
        }
    }

    #[inline]
    fn has(&self, p: u16) -> bool {
        self.trail.has(p)
    }

    /// The lower bound of `p`'s ancestor count its [`Implied::depth`] holds.
    #[inline]
    fn depth_of(&self, p: u16) -> u16 {
        self.depth[p as usize].get() & !EXACT
    }

    #[inline]
    fn add(&mut self, p: u16, parents: Parents) {
        self.trail.push(p);
        self.parent[p as usize] = parents.first;
        self.depth[p as usize].set(self.depth_under(parents.first));
        self.hidden_cell[p as usize] = parents.hidden_cell;
        if is_on(p) {
            self.hidden_region[p as usize >> 1] = parents.hidden_region;
        }
    }

    /// SE's dynamic `doChaining` from `root`: a clash (a potential implied both on and
    /// off) ends it; from (+) on, links run dry advance it ([`Implied::advance`]).
    fn propagate(&mut self, b: &Board, root: u16, nest: &mut Nest) {
        self.trail.clear();
        self.clash = None;
        self.rule_parents.clear();
        self.rule_nested.clear();
        self.cands = b.cands;
        self.planes = b.planes;
        self.add(root, Parents::first(NONE));
        loop {
            let Some(p) = self.trail.next() else {
                if self.level > 0 && self.advance(b, nest) {
                    continue;
                }
                return;
            };
            let clash = if is_on(p) {
                self.expand_on(p)
            } else {
                self.expand_off(b, p)
            };
            if clash.is_some() {
                self.clash = clash;
                return;
            }
        }
    }

    /// Dynamic forcing chains (+), the links dry: the removals of the first basic rule
    /// (or, nested, of SE's first chaining producer after them) with a hint resting on the
    /// reduction, "off" each with its hint's parents; whether there was a new one.
    fn advance(&mut self, b: &Board, nest: &mut Nest) -> bool {
        let (cands, planes) = (self.cands, self.planes);
        let nests = self.level >= 2;
        let mut added = false;
        let mut turn_off = |parents: &CandSet, removals: &CandSet, nested: u32, chain: u64| {
            let mut stored = None;
            for_each_off(removals, &mut |p| {
                if self.has(p) {
                    return;
                }
                let k = *stored.get_or_insert_with(|| {
                    self.rule_parents.push(*parents);
                    self.rule_nested.push((nested, chain));
                    self.rule_parents.len() - 1
                });
                self.add(p, Parents::first(RULE | k as u16));
                added = true;
            });
        };
        let any = nest.rules(b, &cands, &planes, &mut turn_off);
        if !any && nests {
            nest.hints(b, &cands, &planes, &mut turn_off);
        }
        added
    }

    /// Expands "on" potential `p`: the clash of the first "off" it implies whose "on" is
    /// implied already, if any.
    fn expand_on(&mut self, p: u16) -> Option<Clash> {
        let clash = |x: u16| Some((conjugate(x), None, x, Some(p)));
        let (c, d) = (cell_of(p), digit_of(p));
        let parents = Parents::first(p);
        for e in digits_of(self.cands[c] & !(1 << d)) {
            let x = potential(c, e, false);
            if self.has(conjugate(x)) {
                return clash(x);
            }
            if !self.has(x) {
                self.add(x, parents);
            }
        }
        let hs = CELL_HOUSES[c];
        let block = HOUSE_MASK[hs[0] as usize];
        let places = self.planes[d] & !(1u128 << c);
        // The block, then the row and the column outside it, each in its order.
        for (k, &h) in hs.iter().enumerate() {
            let outside = if k == 0 { !0 } else { !block };
            for o in cells_of(places & HOUSE_MASK[h as usize] & outside) {
                let x = potential(o, d, false);
                if self.has(conjugate(x)) {
                    return clash(x);
                }
                if !self.has(x) {
                    self.add(x, parents);
                }
            }
        }
        None
    }

    /// Expands "off" potential `p`: its candidate leaves the grid, after the "on" potentials
    /// it implies are read; the clash of the first of those whose "off" is implied
    /// already, if any.
    fn expand_off(&mut self, b: &Board, p: u16) -> Option<Clash> {
        let mut made = [(0u16, Parents::first(NONE)); 4];
        let n = self.off_to_on(b, p, &mut made);
        let (c, d) = (cell_of(p), digit_of(p));
        self.cands[c] &= !(1 << d);
        self.planes[d] &= !(1u128 << c);
        for &(q, parents) in &made[..n] {
            if self.has(conjugate(q)) {
                return Some((q, Some(parents), conjugate(q), None));
            }
            if !self.has(q) {
                self.add(q, parents);
            }
        }
        None
    }

    /// The "on" potentials "off" potential `p` implies now, with their parents, in SE's order.
    fn off_to_on(&self, b: &Board, p: u16, out: &mut [(u16, Parents); 4]) -> usize {
        let (c, d) = (cell_of(p), digit_of(p));
        let mut n = 0;
        let m = self.cands[c];
        if two_bits(m) {
            let e = (m & !(1 << d)).trailing_zeros() as usize;
            out[0] = (
                potential(c, e, true),
                Parents {
                    first: p,
                    hidden_cell: b.cands[c] & !m,
                    hidden_region: 0,
                },
            );
            n = 1;
        }
        for (k, &h) in CELL_HOUSES[c].iter().enumerate() {
            let now = self.planes[d] & HOUSE_MASK[h as usize];
            if !two_cells(now) {
                continue;
            }
            let o = (now & !(1u128 << c)).trailing_zeros() as usize;
            let q = potential(o, d, true);
            if !out[..n].iter().any(|&(x, _)| x == q) {
                // The house's places of `d` but the two left.
                let lost =
                    b.pos[h as usize][d] & !(1 << CELL_INDEX[c][k]) & !(1 << CELL_INDEX[o][k]);
                out[n] = (
                    q,
                    Parents {
                        first: p,
                        hidden_cell: 0,
                        // The house is kept even when it lost nothing: it is the cause
                        // of `q` (`Implied::rule_walk` reads it).
                        hidden_region: (k as u16 + 1) << 9 | lost,
                    },
                );
                n += 1;
            }
        }
        n
    }

    /// The depth of a potential whose first parent is `first`.
    #[inline]
    fn depth_under(&self, first: u16) -> u16 {
        if first >= RULE {
            1
        } else {
            self.depth_of(first) + 1
        }
    }

    /// A lower bound of [`Implied::ancestors`] of `p` (`parents`: as there).
    #[inline]
    fn least(&self, p: u16, parents: Option<Parents>) -> u32 {
        u32::from(match parents {
            Some(pp) => self.depth_under(pp.first),
            None => self.depth_of(p),
        })
    }

    /// The hint of a basic rule's removal, when `first` (a stored first parent) names one.
    #[inline]
    fn rule_index(&self, first: u16) -> Option<usize> {
        (first != NONE && first >= RULE).then(|| (first - RULE) as usize)
    }

    /// The parents of a basic rule's removal, when `first` (a stored first parent) names one.
    #[inline]
    fn rule_set(&self, first: u16) -> Option<&CandSet> {
        self.rule_index(first).map(|k| &self.rule_parents[k])
    }

    /// The parents of a stored potential.
    #[inline]
    fn parents_of(&self, p: u16) -> Parents {
        Parents {
            first: self.parent[p as usize],
            hidden_cell: self.hidden_cell[p as usize],
            hidden_region: if is_on(p) {
                self.hidden_region[p as usize >> 1]
            } else {
                0
            },
        }
    }

    /// SE's complexity of `p` as this propagation implied it: its ancestor count (itself
    /// included), plus the complexity of each nested chain it rests on that is not yet in
    /// `nested` (which gets them: SE counts a nested chain once per hint, over all its
    /// chains); `parents`: those of a new potential of a clash, instead of the stored ones.
    fn ancestors(&self, p: u16, parents: Option<Parents>, nested: &mut NestSet<'_>) -> u32 {
        let kept = parents.is_none() && self.level < 2;
        if kept && self.depth[p as usize].get() & EXACT != 0 {
            return u32::from(self.depth_of(p));
        }
        let count = self.walk(p, parents, |_, pp| self.nested_extra(pp, nested));
        if kept {
            // At most 1,458 potentials: a count fits.
            self.depth[p as usize].set(count as u16 | EXACT);
        }
        count
    }

    /// The complexity of the nested chain that made a removal with parents `pp`, if there
    /// is one and it is not yet in `nested` (it is put there); else 0.
    #[inline]
    fn nested_extra(&self, pp: Parents, nested: &mut NestSet<'_>) -> u32 {
        match self.rule_index(pp.first) {
            Some(k) => {
                let (extra, chain) = self.rule_nested[k];
                if extra > 0 && nested.insert(chain) {
                    extra
                } else {
                    0
                }
            }
            None => 0,
        }
    }

    /// Visits `p` and its distinct ancestors (hidden parents and a basic rule's parents
    /// included), each with its parents, `each` giving what it adds to the count of them;
    /// the count. `parents`: those of a new potential of a clash, instead of the stored ones.
    fn walk(
        &self,
        p: u16,
        parents: Option<Parents>,
        mut each: impl FnMut(u16, Parents) -> u32,
    ) -> u32 {
        let mut seen = PotSet::EMPTY;
        // A potential is pushed once at most: the reserved room always holds them.
        let mut stack = self.stack.borrow_mut();
        stack.clear();
        seen.insert(p);
        let mut count = 1;
        let mut next = Some((p, parents.unwrap_or_else(|| self.parents_of(p))));
        while let Some((q, pp)) = next {
            let (c, d) = (cell_of(q), digit_of(q));
            count += each(q, pp);
            let mut visit = |x: u16| {
                if !seen.has(x) {
                    seen.insert(x);
                    stack.push(x);
                    count += 1;
                }
            };
            if let Some(set) = self.rule_set(pp.first) {
                for_each_off(set, &mut visit);
            } else if pp.first != NONE {
                visit(pp.first);
            }
            for e in digits_of(pp.hidden_cell) {
                visit(potential(c, e, false));
            }
            for o in cells_of(unpack_region(c, pp.hidden_region)) {
                visit(potential(o, d, false));
            }
            next = stack.pop().map(|x| (x, self.parents_of(x)));
        }
        count
    }

    /// Walks the ancestors of `p` as [`Implied::ancestors`] does (the nested chains it
    /// rests on that are not yet in `nested` counted in, and put there): adds to `rules`
    /// the candidates `src` had and `b` (the grid propagated from) lost that each "on"
    /// ancestor but the assumption rests on (SE's `collectRuleParents`: its cell's lost
    /// candidates when the cell implied it, the digit's lost places in the house that
    /// did), and mixes each ancestor into a fingerprint of the chain; the complexity and
    /// the fingerprint. `parents`: those of a new potential of a clash, instead of the
    /// stored ones.
    fn rule_walk(
        &self,
        src: &Board,
        b: &Board,
        p: u16,
        parents: Option<Parents>,
        rules: &mut CandSet,
        nested: &mut NestSet<'_>,
    ) -> (u32, u64) {
        let mut print = 0u64;
        let count = self.walk(p, parents, |q, pp| {
            let (c, d) = (cell_of(q), digit_of(q));
            // The chain as a set: SE's `FullChain` compares the chains' potentials.
            print = print.wrapping_add(mix(q));
            if is_on(q) {
                match pp.hidden_region >> 9 {
                    0 if pp.first != NONE => rules.add_digits(c, src.cands[c] & !b.cands[c]),
                    0 => {}
                    k => {
                        let h = CELL_HOUSES[c][k as usize - 1] as usize;
                        rules.add_cells(src.planes[d] & !b.planes[d] & HOUSE_MASK[h], d);
                    }
                }
            }
            self.nested_extra(pp, nested)
        });
        (count, print)
    }
}

/// The propagations of one cell's digits, of the current digit "off" and of one house's
/// places, kept together: what [`Every::hints`] needs to walk every chain of a hint once
/// the search found it.
pub(crate) struct Every {
    per_digit: Vec<Box<Implied>>,
    off: Box<Implied>,
    places: Vec<Box<Implied>>,
    common: PotSet,
    /// The difficulty of the hints before the length bonus.
    base: f64,
    /// The nested scratch the propagations are handed (unused at level 0).
    nest: Box<Nest>,
}

impl Every {
    /// Every hint of dynamic forcing chains (`level` 0, nested at level 4) or of nested
    /// forcing chains of level 2 (nested at level 5).
    pub(crate) fn new(level: u8) -> Box<Every> {
        debug_assert!(level == 0 || level == 2);
        Box::new(Every {
            per_digit: (0..9).map(|_| Box::new(Implied::new(level))).collect(),
            off: Box::new(Implied::new(level)),
            places: (0..9).map(|_| Box::new(Implied::new(level))).collect(),
            common: PotSet::EMPTY,
            base: BASES[level as usize],
            nest: Nest::new(level),
        })
    }

    /// Every hint of dynamic forcing chains (SE's `Chaining(true, true, false, 0)`), or of
    /// nested forcing chains of level 2 (`Chaining(true, true, false, 2)`), on `b`, a grid
    /// the assumptions of a dynamic propagation reduced from `src`, in SE's discovery
    /// order ([`Dynamic::find`]'s), appended to `out`; a hint that removes nothing is left
    /// out, and nothing is cut (as in
    /// [`every_hint`](super::nested)). A hint's rule parents
    /// are those of the "on" potentials of all its chains (at level 2, through the
    /// removals of the basic rules and nested chains of its propagations, whose parents
    /// SE walks too); the assumptions of a cell hint count as the cell's naked single,
    /// those of a region hint as the house's hidden single, those of a contradiction or
    /// double forcing chain as nothing. At level 2 a hint's complexity counts each nested
    /// chain it rests on once, as [`Dynamic::find`]'s do.
    pub(crate) fn hints(&mut self, src: &Board, b: &Board, out: &mut Vec<Nested>) {
        for c in cells_of(b.open) {
            let cands = b.cands[c];
            if cands.count_ones() < 2 {
                continue;
            }
            for v in digits_of(cands) {
                self.binary(src, b, c, v, out);
                self.regions(src, b, c, v, out);
            }
            self.cell(src, b, c, out);
        }
    }

    /// Contradictions from "v on" and "v off" in cell `c`, then double forcing chains.
    fn binary(&mut self, src: &Board, b: &Board, c: usize, v: usize, out: &mut Vec<Nested>) {
        let own = &mut self.per_digit[v];
        own.propagate(b, potential(c, v, true), &mut self.nest);
        if let Some(hint) = clash_hint(src, b, self.base, own, 1 << v, c, out.len()) {
            out.push(hint);
        }
        self.off
            .propagate(b, potential(c, v, false), &mut self.nest);
        let others = b.cands[c] & !(1 << v);
        if let Some(hint) = clash_hint(src, b, self.base, &self.off, others, c, out.len()) {
            out.push(hint);
        }
        if b.cands[c].count_ones() < 3 {
            return;
        }
        let own = &self.per_digit[v];
        for kind in [true, false] {
            for &p in own.trail.found() {
                if is_on(p) == kind && self.off.has(p) {
                    let chains = [&**own, &*self.off];
                    let at = (p, self.base, 1);
                    if let Some(hint) = conclusion(src, b, at, &chains, out.len()) {
                        out.push(hint);
                    }
                }
            }
        }
    }

    /// The region hints from digit `v` of cell `c` (its propagation done).
    fn regions(&mut self, src: &Board, b: &Board, c: usize, v: usize, out: &mut Vec<Nested>) {
        for (k, &h) in CELL_HOUSES[c].iter().enumerate() {
            let h = h as usize;
            let positions = b.pos[h][v];
            if positions.count_ones() < 2 || positions.trailing_zeros() != CELL_INDEX[c][k] as u32 {
                continue;
            }
            self.common = *self.per_digit[v].trail.set();
            let rest = positions & (positions - 1);
            for i in digits_of(rest) {
                let o = HOUSE_CELLS[h][i] as usize;
                let x = &mut self.places[i];
                x.propagate(b, potential(o, v, true), &mut self.nest);
                self.common.intersect(x.trail.set());
            }
            if self.common.is_empty() {
                continue;
            }
            let lost = src.planes[v] & !b.planes[v] & HOUSE_MASK[h];
            let own = &self.per_digit[v];
            let mut chains = [&**own; 9];
            let mut n = 1;
            for i in digits_of(rest) {
                chains[n] = &*self.places[i];
                n += 1;
            }
            for on in [true, false] {
                for &p in own.trail.found() {
                    if is_on(p) != on || !self.common.has(p) {
                        continue;
                    }
                    let at = (p, self.base, 6);
                    if let Some(mut hint) = conclusion(src, b, at, &chains[..n], out.len()) {
                        hint.parents.add_cells(lost, v);
                        out.push(hint);
                    }
                }
            }
        }
    }

    /// The cell hints of cell `c` (the propagations of all its digits done).
    fn cell(&self, src: &Board, b: &Board, c: usize, out: &mut Vec<Nested>) {
        let cands = b.cands[c];
        let own = &self.per_digit[cands.trailing_zeros() as usize];
        let mut chains = [&**own; 9];
        for (n, v) in digits_of(cands).enumerate() {
            chains[n] = &*self.per_digit[v];
        }
        let chains = &chains[..cands.count_ones() as usize];
        for on in [true, false] {
            for &p in own.trail.found() {
                if is_on(p) != on || !chains.iter().all(|x| x.has(p)) {
                    continue;
                }
                if let Some(mut hint) = conclusion(src, b, (p, self.base, 5), chains, out.len()) {
                    hint.parents.add_digits(c, src.cands[c] & !b.cands[c]);
                    out.push(hint);
                }
            }
        }
    }
}

/// The contradiction hint of propagation `x` from an assumption in cell `c`, if it clashed:
/// it removes `removals` (digits of `c`).
fn clash_hint(
    src: &Board,
    b: &Board,
    base: f64,
    x: &Implied,
    removals: u16,
    c: usize,
    order: usize,
) -> Option<Nested> {
    let (on, on_parents, off, off_parent) = x.clash?;
    let off_parents = off_parent.map(Parents::first);
    let mut hint = Nested::empty(Key::NONE, order);
    hint.removals.add_digits(c, removals);
    let mut nodes = x.nodes.borrow_mut();
    nodes.clear();
    let mut head = 0;
    let mut nested = NestSet::new(&mut nodes, &mut head);
    let (n1, p1) = x.rule_walk(src, b, on, on_parents, &mut hint.parents, &mut nested);
    let (n2, p2) = x.rule_walk(src, b, off, off_parents, &mut hint.parents, &mut nested);
    hint.key = Key::new(base, n1 + n2, 7);
    hint.chain = p1.rotate_left(17) ^ p2;
    Some(hint)
}

/// The hint concluding `p` from the propagations `chains` (difficulty `base` before the
/// length bonus, sort key `sort`, discovery place `order`), its rule parents but those of
/// the assumptions; none if it removes nothing.
fn conclusion(
    src: &Board,
    b: &Board,
    (p, base, sort): (u16, f64, u8),
    chains: &[&Implied],
    order: usize,
) -> Option<Nested> {
    let removals = conclusion_removals(b, p)?;
    let mut parents = CandSet::EMPTY;
    let mut complexity = 0;
    let mut print = 0u64;
    let mut nodes = chains[0].nodes.borrow_mut();
    nodes.clear();
    let mut head = 0;
    let mut nested = NestSet::new(&mut nodes, &mut head);
    for x in chains {
        let (n, chain) = x.rule_walk(src, b, p, None, &mut parents, &mut nested);
        complexity += n;
        print = print.rotate_left(17) ^ chain;
    }
    Some(Nested {
        key: Key::new(base, complexity, sort),
        order: order as u32,
        removals,
        parents,
        chain: print,
    })
}

/// The cells of a house of `cell`, packed in 16 bits: which of the cell's houses plus one
/// (0: none) above the cells' places in that house.
#[inline]
fn unpack_region(cell: usize, packed: u16) -> u128 {
    let k = (packed >> 9) as usize;
    if k == 0 {
        return 0;
    }
    let h = CELL_HOUSES[cell][k - 1] as usize;
    digits_of(packed & 0x1ff).fold(0u128, |s, i| s | 1u128 << HOUSE_CELLS[h][i])
}

/// Visits the "off" potentials of a set of candidates, in candidate order.
fn for_each_off(set: &CandSet, visit: &mut impl FnMut(u16)) {
    for candidate in set.iter() {
        visit((candidate << 1) as u16);
    }
}

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
const BASES: [f64; 6] = [
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
        })
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
            let mut nodes = own.nodes.borrow_mut();
            nodes.clear();
            let mut head = 0;
            let mut nested = NestSet::new(&mut nodes, &mut head);
            let cx = own.ancestors(p, None, &mut nested) + self.off.ancestors(p, None, &mut nested);
            let kind = Kind::Double { digit: v as u8 };
            offer(b, base, p, cx, 1, c, kind, best);
        }
    }
}

/// The complexity of the clash that stopped a propagation, if one did and `could` (given a
/// lower bound of that complexity) says it may matter.
fn clash_complexity(x: &Implied, could: impl Fn(u32) -> bool) -> Option<u32> {
    let (on, on_parents, off, off_parent) = x.clash?;
    let off_parents = off_parent.map(Parents::first);
    if !could(x.least(on, on_parents) + x.least(off, off_parents)) {
        return None;
    }
    let mut nodes = x.nodes.borrow_mut();
    nodes.clear();
    let mut head = 0;
    let mut nested = NestSet::new(&mut nodes, &mut head);
    Some(x.ancestors(on, on_parents, &mut nested) + x.ancestors(off, off_parents, &mut nested))
}

impl Propagation for Implied {
    type Scratch = Nest;
    fn propagate(&mut self, b: &Board, root: u16, nest: &mut Nest) {
        Implied::propagate(self, b, root, nest);
    }
    fn trail(&self) -> &Trail {
        &self.trail
    }
    fn complexity(&self, p: u16, nested: &mut NestSet<'_>) -> u32 {
        self.ancestors(p, None, nested)
    }
    fn least(&self, p: u16) -> u32 {
        Implied::least(self, p, None)
    }
}

impl Tree for Implied {
    /// A basic rule's removal: its first rule parent; the others are hidden.
    fn parent(&self, p: u16) -> u16 {
        let first = self.parent[p as usize];
        match self.rule_set(first) {
            Some(set) => {
                let mut lowest = NONE;
                for_each_off(set, &mut |q| lowest = lowest.min(q));
                lowest
            }
            None => first,
        }
    }
    fn hidden(&self, p: u16, visit: &mut dyn FnMut(u16)) {
        match self.rule_set(self.parent[p as usize]) {
            Some(set) => {
                let lowest = self.parent(p);
                for_each_off(set, &mut |q| {
                    if q != lowest {
                        visit(q)
                    }
                });
            }
            None => hidden_of(p, self.parents_of(p), visit),
        }
    }
}

/// The hidden parents of `p` ("off" potentials) in `parents`.
fn hidden_of(p: u16, parents: Parents, visit: &mut dyn FnMut(u16)) {
    let (c, d) = (cell_of(p), digit_of(p));
    for e in digits_of(parents.hidden_cell) {
        visit(potential(c, e, false));
    }
    for o in cells_of(unpack_region(c, parents.hidden_region)) {
        visit(potential(o, d, false));
    }
}

/// Appends the branch of `x` ending at `target` ([`eureka::write_branch`]); `parents`: those
/// of a new potential of its clash.
fn write(out: &mut String, x: &Implied, target: u16, parents: Option<Parents>) {
    match parents {
        None => eureka::write_branch(out, x, target),
        Some(parents) => {
            let mut hidden = [0u16; 16];
            let mut n = 0;
            hidden_of(target, parents, &mut |h| {
                if n < hidden.len() {
                    hidden[n] = h;
                    n += 1;
                }
            });
            let tree = WithClash {
                tree: x,
                potential: target,
                parent: parents.first,
                hidden: &hidden[..n],
            };
            eureka::write_branch(out, &tree, target);
        }
    }
}

impl Dynamic {
    /// The branches of `found`, one a line in Eureka notation ([`eureka`]): a contradiction's
    /// two, from the assumption to the "on" and to the "off" of the candidate that clashes;
    /// a double forcing chain's from the digit on, then off; a cell's or a region's from each
    /// candidate of the cell or place of the digit in the house, in SE's order.
    pub(crate) fn explain(&mut self, b: &Board, found: &Found, out: &mut String) {
        let c = found.source;
        let nest = &mut self.nest;
        let mut one = |x: &mut Implied, root: u16, out: &mut String| {
            x.propagate(b, root, nest);
            write(out, x, found.target, None);
        };
        match found.kind {
            Kind::Contradiction => {
                let x = &mut self.off;
                let root = conjugate(found.target);
                x.propagate(b, root, &mut self.nest);
                let Some((on, on_parents, off, off_parent)) = x.clash else {
                    return;
                };
                // A side that is the assumption itself is no chain: the other one alone
                // leads from the assumption to its negation.
                if on != root {
                    write(out, x, on, on_parents);
                }
                if on != root && off != root {
                    out.push('\n');
                }
                if off != root {
                    let off_parents = off_parent.map(Parents::first);
                    write(out, x, off, off_parents);
                }
            }
            Kind::Double { digit } => {
                one(&mut self.cr.other, potential(c, digit as usize, true), out);
                out.push('\n');
                one(&mut self.cr.other, potential(c, digit as usize, false), out);
            }
            Kind::Cell => {
                for (i, v) in digits_of(b.cands[c]).enumerate() {
                    if i > 0 {
                        out.push('\n');
                    }
                    one(&mut self.cr.other, potential(c, v, true), out);
                }
            }
            Kind::Region { house, digit } => {
                let h = house as usize;
                for (n, i) in digits_of(b.pos[h][digit as usize]).enumerate() {
                    if n > 0 {
                        out.push('\n');
                    }
                    let o = HOUSE_CELLS[h][i] as usize;
                    one(&mut self.cr.other, potential(o, digit as usize, true), out);
                }
            }
        }
    }
}
