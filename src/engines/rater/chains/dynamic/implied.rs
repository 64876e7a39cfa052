//! One dynamic propagation ([`Implied`]): SE's dynamic `doChaining` from one assumption,
//! what it implies in order ([`Trail`]), every potential's parents, and SE's complexity of
//! each (its distinct ancestors, hidden parents and nested chains included).
//!
//! An "off" potential, once expanded, removes its candidate, so later links read the
//! reduced grid; an "on" potential implied by a cell (two candidates left) or a house (two
//! places left) has as hidden parents the candidates that cell or house lost since the
//! assumption. A clash (a potential implied both on and off) stops the propagation, what
//! it found up to there kept. From (+) on, links run dry advance it with the basic rules'
//! removals, or (from level 2) nested chains' ([`Implied::advance`]).
//!
//! Layer: the dynamic producers' propagation. It calls the nesting driver ([`Nest`]), which
//! from level 4 runs dynamic producers again on reduced grids: SE's levels 4 and 5 nest
//! dynamic forcing chains, the one import circle of the chain producers (its other end is
//! [`nested::dynamic`](crate::engines::rater::chains::nested)).

use std::cell::{Cell, RefCell, RefMut};

use crate::engines::rater::board::{
    cells_of, digits_of, two_bits, two_cells, Board, CELLS, CELL_HOUSES, CELL_INDEX, HOUSE_CELLS,
    HOUSE_MASK,
};
// The circle SE's nesting has: dynamic forcing chains nest dynamic forcing chains.
use crate::engines::rater::chains::nested::{Nest, NestedChain, Reduced};
use crate::engines::rater::chains::shared::bits::{CandSet, PotSet};
use crate::engines::rater::chains::shared::cell_region::Propagation;
use crate::engines::rater::chains::shared::links::{
    cell_of, conjugate, digit_of, is_on, potential, POTENTIALS,
};
use crate::engines::rater::chains::shared::nest_set::{NestNodes, NestSet};
use crate::engines::rater::chains::shared::trail::{Queue, Trail};

/// No parent: the assumption's first parent.
pub(crate) const NONE: u16 = u16::MAX;
/// A first parent at or above this is no potential but `RULE | i`: the removal was made
/// by a basic rule ([`plus`](crate::engines::rater::chains::plus)), its parents
/// `rule_parents[i]`.
const RULE: u16 = 0x8000;
/// Marks a potential's [`Implied::depth`] that is its exact ancestor count (at most 1,458).
const EXACT: u16 = 0x8000;

/// The parents SE gives an implied potential: the one it was implied from (or `RULE | i`,
/// or [`NONE`] for the assumption), and its hidden parents.
#[derive(Clone, Copy)]
pub(crate) struct Parents {
    pub(crate) first: u16,
    hidden_cell: u16,
    /// The cells its house had lost, packed ([`unpack_region`]).
    hidden_region: u16,
}

impl Parents {
    /// A first parent alone.
    #[inline]
    pub(crate) const fn first(first: u16) -> Parents {
        Parents {
            first,
            hidden_cell: 0,
            hidden_region: 0,
        }
    }

    /// Visits the hidden parents ("off" potentials) of `p`, whose parents these are.
    #[inline]
    pub(crate) fn for_each_hidden(&self, p: u16, visit: &mut impl FnMut(u16)) {
        let (c, d) = (cell_of(p), digit_of(p));
        for e in digits_of(self.hidden_cell) {
            visit(potential(c, e, false));
        }
        for o in cells_of(unpack_region(c, self.hidden_region)) {
            visit(potential(o, d, false));
        }
    }

    /// Whether these are the assumption's (no parent).
    #[inline]
    pub(crate) fn is_root(&self) -> bool {
        self.first == NONE
    }

    /// For an "on" potential in `cell`: the house whose places implied it, if a house did
    /// (kept even when it lost nothing: it is the cause).
    #[inline]
    pub(crate) fn house(&self, cell: usize) -> Option<usize> {
        match self.hidden_region >> 9 {
            0 => None,
            k => Some(CELL_HOUSES[cell][k as usize - 1] as usize),
        }
    }
}

/// The two potentials of a clash, each with its parents when it is the newly implied one
/// (which the propagation stopped at before it stored it).
#[derive(Clone, Copy)]
pub(crate) struct Clash {
    pub(crate) on: u16,
    pub(crate) on_parents: Option<Parents>,
    pub(crate) off: u16,
    pub(crate) off_parents: Option<Parents>,
}

impl Clash {
    /// Its "on" side, then its "off" side, each with its parents if new.
    #[inline]
    pub(crate) fn sides(&self) -> [(u16, Option<Parents>); 2] {
        [(self.on, self.on_parents), (self.off, self.off_parents)]
    }
}

/// One dynamic propagation: what it implies, in order, with every potential's parents.
pub(crate) struct Implied {
    cands: [u16; CELLS],
    planes: [u128; 9],
    pub(crate) trail: Trail,
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
    /// propagations are many and kept
    /// ([`CellRegion`](crate::engines::rater::chains::shared::cell_region::CellRegion)),
    /// this is an eighth of a cell set.
    hidden_region: [u16; CELLS * 9],
    /// The clash that stopped the propagation.
    pub(crate) clash: Option<Clash>,
    /// 0: dynamic forcing chains; 1: (+), the basic rules run when the links run dry; 2:
    /// nested, SE's first chaining producer after them; 3: its multiple forcing chains too;
    /// 4: dynamic forcing chains instead; 5: and nested chains of level 2 after them.
    pub(super) level: u8,
    /// The parents of each hint of the basic rules (or of a nested chain) that made a
    /// removal (reserved once: at most one a removal, so never more than the candidates).
    rule_parents: Vec<CandSet>,
    /// The nested chain of each of those hints ([`NestedChain::NONE`] for a basic rule).
    rule_nested: Vec<NestedChain>,
    /// How many potentials were implied when each of those hints was found: the grid it
    /// was found on lacks the "off" ones before, for `--steps` ([`Implied::reduced_at`]).
    rule_at: Vec<u16>,
    /// Scratch of [`Implied::ancestors`] (reserved once, never zeroed).
    stack: RefCell<Vec<u16>>,
    /// The nodes of the set of nested chains of a contradiction or double forcing chain
    /// (reserved once: one per removal of each of two propagations at most).
    nodes: RefCell<NestNodes>,
}

impl Implied {
    pub(crate) fn new(level: u8) -> Implied {
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
            rule_at: Vec::with_capacity(rules),
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
    pub(crate) fn propagate(&mut self, b: &Board, root: u16, nest: &mut Nest) {
        self.trail.clear();
        self.clash = None;
        self.rule_parents.clear();
        self.rule_nested.clear();
        self.rule_at.clear();
        self.cands = b.cands;
        self.planes = b.planes;
        self.add(root, Parents::first(NONE));
        let mut queue = Queue::default();
        loop {
            let Some(p) = self.trail.next(&mut queue) else {
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
        let at = self.trail.found().len() as u16;
        let mut turn_off = |parents: &CandSet, removals: &CandSet, nested: NestedChain| {
            let mut stored = None;
            for_each_off(removals, &mut |p| {
                if self.has(p) {
                    return;
                }
                let k = *stored.get_or_insert_with(|| {
                    self.rule_parents.push(*parents);
                    self.rule_nested.push(nested);
                    self.rule_at.push(at);
                    self.rule_parents.len() - 1
                });
                self.add(p, Parents::first(RULE | k as u16));
                added = true;
            });
        };
        let grid = Reduced {
            src: b,
            cands: &cands,
            planes: &planes,
        };
        let any = nest.rules(grid, &mut turn_off);
        if !any && nests {
            nest.hints(grid, &mut turn_off);
        }
        added
    }

    /// Runs `count` with an empty set of nested chains (in this propagation's arena): what
    /// the complexity of one hint's chains is counted against.
    pub(crate) fn counting<R>(&self, count: impl FnOnce(&mut NestSet<'_>) -> R) -> R {
        let mut nodes: RefMut<'_, NestNodes> = self.nodes.borrow_mut();
        nodes.clear();
        let mut head = 0;
        count(&mut NestSet::new(&mut nodes, &mut head))
    }

    /// Expands "on" potential `p`: the clash of the first "off" it implies whose "on" is
    /// implied already, if any.
    fn expand_on(&mut self, p: u16) -> Option<Clash> {
        let clash = |x: u16| {
            Some(Clash {
                on: conjugate(x),
                on_parents: None,
                off: x,
                off_parents: Some(Parents::first(p)),
            })
        };
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
                return Some(Clash {
                    on: q,
                    on_parents: Some(parents),
                    off: conjugate(q),
                    off_parents: None,
                });
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
    pub(crate) fn least(&self, p: u16, parents: Option<Parents>) -> u32 {
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

    /// The index of the basic rule's (or nested chain's) hint that removed `p`, if one did.
    #[inline]
    pub(crate) fn rule_index_of(&self, p: u16) -> Option<usize> {
        self.rule_index(self.first_parent(p))
    }

    /// Hint `k` of the basic rules or nested chains: its parents, its nested chain, and how
    /// many potentials were implied when it was found.
    pub(crate) fn rule_hint(&self, k: usize) -> (&CandSet, NestedChain, usize) {
        (
            &self.rule_parents[k],
            self.rule_nested[k],
            usize::from(self.rule_at[k]),
        )
    }

    /// The first hint of the basic rules or nested chains found on the same grid as hint
    /// `k` (in the same advance of the propagation).
    pub(crate) fn first_rule_with(&self, k: usize) -> usize {
        let at = self.rule_at[k];
        let mut first = k;
        while first > 0 && self.rule_at[first - 1] == at {
            first -= 1;
        }
        first
    }

    /// The grid `b` reduced by the "off" potentials among the first `at` implied: the grid
    /// a hint of the basic rules or nested chains was found on (every potential implied
    /// before it was expanded).
    pub(crate) fn reduced_at(&self, b: &Board, at: usize) -> ([u16; CELLS], [u128; 9]) {
        let (mut cands, mut planes) = (b.cands, b.planes);
        for &p in &self.trail.found()[..at] {
            if !is_on(p) {
                let (c, d) = (cell_of(p), digit_of(p));
                cands[c] &= !(1 << d);
                planes[d] &= !(1u128 << c);
            }
        }
        (cands, planes)
    }

    /// The parents of a basic rule's removal, when `first` (a stored first parent) names one.
    #[inline]
    pub(super) fn rule_set(&self, first: u16) -> Option<&CandSet> {
        self.rule_index(first).map(|k| &self.rule_parents[k])
    }

    /// 0: dynamic forcing chains; 1: (+); 2-5: nested forcing chains of that level.
    #[inline]
    pub(crate) fn level(&self) -> u8 {
        self.level
    }

    /// The potential `p` was implied from (or `RULE | i`, or [`NONE`] for the assumption).
    #[inline]
    pub(super) fn first_parent(&self, p: u16) -> u16 {
        self.parent[p as usize]
    }

    /// The parents of a stored potential.
    #[inline]
    pub(super) fn parents_of(&self, p: u16) -> Parents {
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
    pub(crate) fn ancestors(
        &self,
        p: u16,
        parents: Option<Parents>,
        nested: &mut NestSet<'_>,
    ) -> u32 {
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
    pub(crate) fn nested_extra(&self, pp: Parents, nested: &mut NestSet<'_>) -> u32 {
        count_once(self.nested_chain(pp), nested)
    }

    /// The nested chain that made a removal with parents `pp` ([`NestedChain::NONE`] for a
    /// basic rule's removal or a link's).
    #[inline]
    pub(crate) fn nested_chain(&self, pp: Parents) -> NestedChain {
        self.rule_index(pp.first)
            .map_or(NestedChain::NONE, |k| self.rule_nested[k])
    }

    /// Visits `p` and its distinct ancestors (hidden parents and a basic rule's parents
    /// included), each with its parents, `each` giving what it adds to the count of them;
    /// the count. `parents`: those of a new potential of a clash, instead of the stored ones.
    pub(crate) fn walk(
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
            pp.for_each_hidden(q, &mut visit);
            next = stack.pop().map(|x| (x, self.parents_of(x)));
        }
        count
    }
}

/// The complexity of `chain` if it is a nested chain not yet in `nested` (it is put there);
/// else 0.
#[inline]
pub(crate) fn count_once(chain: NestedChain, nested: &mut NestSet<'_>) -> u32 {
    if chain.complexity > 0 && nested.insert(chain.print) {
        chain.complexity
    } else {
        0
    }
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
pub(crate) fn for_each_off(set: &CandSet, visit: &mut impl FnMut(u16)) {
    for candidate in set.iter() {
        visit((candidate << 1) as u16);
    }
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
