//! Every hint of dynamic forcing chains (level 0) or of nested forcing chains of level 2 on
//! a grid an assumption reduced, for nested chains of levels 4 and 5: SE's `getHints` of
//! `Chaining(true, true, false, 0)` or `Chaining(true, true, false, 2)` on that grid, in
//! the producer's discovery order ([`Dynamic::find`](super::super::dynamic::Dynamic::find)'s),
//! with each hint's rule parents; a hint that removes nothing is left out, and nothing is
//! cut.
//!
//! A hint's rule parents are those of the "on" potentials of all its chains (at level 2,
//! through the removals of the basic rules and nested chains of its propagations, whose
//! parents SE walks too); the assumptions of a cell hint count as the cell's naked single,
//! those of a region hint as the house's hidden single, those of a contradiction or double
//! forcing chain as nothing. At level 2 a hint's complexity counts each nested chain it
//! rests on once, as the producer's do.
//!
//! Layer: the nesting driver's; the other end of the one import circle of the chain
//! producers (SE's levels 4 and 5 nest dynamic chains, whose propagations call the driver
//! again).

use super::branches::{conclusion, Branch, Branches, Walked};
use super::hint::{Nested, Origin};
use super::Nest;
use crate::engines::rater::board::{Board, HOUSE_MASK};
// The circle SE's nesting has: nested chains of levels 4 and 5 run dynamic forcing chains.
use crate::engines::rater::chains::dynamic::{count_once, Implied, Parents, BASES};
use crate::engines::rater::chains::shared::bits::CandSet;
use crate::engines::rater::chains::shared::cell_region::gather;
use crate::engines::rater::chains::shared::key::Key;
use crate::engines::rater::chains::shared::links::{cell_of, digit_of, is_on, potential};
use crate::engines::rater::chains::shared::nest_set::{mix, NestSet};

/// The propagations of one cell's digits, of the current digit "off" and of one house's
/// places, kept together: what [`Every::hints`] needs to walk every chain of a hint once
/// the search found it.
pub(crate) struct Every {
    branches: Branches<Implied>,
    /// The propagation of the current digit "off".
    off: Box<Implied>,
    /// The nested scratch the propagations are handed (unused at level 0).
    nest: Box<Nest>,
}

impl Every {
    /// Every hint of dynamic forcing chains (`level` 0, nested at level 4) or of nested
    /// forcing chains of level 2 (nested at level 5).
    pub(crate) fn new(level: u8) -> Box<Every> {
        debug_assert!(level == 0 || level == 2);
        Box::new(Every {
            branches: Branches::new(|| Implied::new(level)),
            off: Box::new(Implied::new(level)),
            nest: Nest::new(level),
        })
    }

    /// Every hint of the producer on `b`, a grid the assumptions of a dynamic propagation
    /// reduced from `src`, in SE's discovery order, appended to `out`: for each cell of two
    /// candidates or more, for each digit, its contradictions and double forcing chains,
    /// then its region forcing chains; then the cell's.
    pub(crate) fn hints(&mut self, src: &Board, b: &Board, out: &mut Vec<Nested>) {
        let off = &mut self.off;
        let nest = &mut self.nest;
        self.branches.every(
            (src, b),
            (2, None),
            nest,
            out,
            |branches, nest, (c, v), out| {
                let own = &mut branches.per_digit[v];
                let list = &mut branches.list;
                binary((src, b), (c, v), (own, off, list), nest, out);
            },
        );
    }
}

impl Every {
    /// A propagation to run a found hint's assumptions again in, and its nested scratch,
    /// for `--steps`.
    pub(crate) fn scratch(&mut self) -> (&mut Implied, &mut Nest) {
        (&mut self.branches.per_digit[0], &mut self.nest)
    }
}

/// Contradictions from "v on" and "v off" in cell `c` (propagated into `own` and `off`),
/// then double forcing chains (their conclusions gathered in `list`).
fn binary(
    (src, b): (&Board, &Board),
    (c, v): (usize, usize),
    (own, off, list): (&mut Implied, &mut Implied, &mut Vec<u16>),
    nest: &mut Nest,
    out: &mut Vec<Nested>,
) {
    let on = potential(c, v, true);
    own.propagate(b, on, nest);
    if let Some(hint) = clash_hint((src, b), own, (c, 1 << v), (on, out.len())) {
        out.push(hint);
    }
    off.propagate(b, potential(c, v, false), nest);
    let others = b.cands[c] & !(1 << v);
    let at = (potential(c, v, false), out.len());
    if let Some(hint) = clash_hint((src, b), off, (c, others), at) {
        out.push(hint);
    }
    if b.cands[c].count_ones() < 3 {
        return;
    }
    let chains = [&*own, &*off];
    gather(own.trail.found(), off.trail.set(), list);
    for &p in list.iter() {
        let origin = Origin::Double {
            cell: c as u8,
            digit: v as u8,
            target: p,
        };
        if let Some(hint) = conclusion((src, b), (p, 1), &chains, (out.len(), origin)) {
            out.push(hint);
        }
    }
}

/// The contradiction hint of propagation `x` from assumption `root` in cell `c`, if it
/// clashed: it removes `removals` (digits of `c`).
fn clash_hint(
    (src, b): (&Board, &Board),
    x: &Implied,
    (c, removals): (usize, u16),
    (root, order): (u16, usize),
) -> Option<Nested> {
    let [on, off] = x.clash?.sides();
    let mut hint = Nested::empty(Key::NONE, order, Origin::Contradiction { root });
    hint.removals.add_digits(c, removals);
    let parents = &mut hint.parents;
    let mut cells = 0;
    let ((n1, p1), (n2, p2)) = x.counting(|nested| {
        let on = rule_walk(x, (src, b), on, (parents, &mut cells), nested);
        let off = rule_walk(x, (src, b), off, (parents, &mut cells), nested);
        (on, off)
    });
    hint.key = Key::new(x.base(), n1 + n2, 7);
    hint.chain = p1.rotate_left(17) ^ p2;
    hint.cells = cells;
    Some(hint)
}

impl Branch for Implied {
    type Nesting = Nest;

    fn propagate_on(&mut self, b: &Board, root: u16, nest: &mut Nest) {
        self.propagate(b, root, nest);
    }

    fn base(&self) -> f64 {
        BASES[self.level() as usize]
    }

    fn walk_chains(src: &Board, b: &Board, p: u16, chains: &[&Implied]) -> Walked {
        let (mut parents, mut cells) = (CandSet::EMPTY, 0);
        let (complexity, print) = chains[0].counting(|nested| {
            let mut complexity = 0;
            let mut print = 0u64;
            for x in chains {
                let found = (&mut parents, &mut cells);
                let (n, chain) = rule_walk(x, (src, b), (p, None), found, nested);
                complexity += n;
                print = print.rotate_left(17) ^ chain;
            }
            (complexity, print)
        });
        Walked {
            parents,
            complexity,
            print,
            cells,
        }
    }
}

/// Walks the ancestors of `p` in `x` as [`Implied::ancestors`] does (the nested chains it
/// rests on that are not yet in `nested` counted in, and put there): adds to `rules` the
/// candidates `src` had and `b` (the grid propagated from) lost that each "on" ancestor
/// but the assumption rests on (SE's `collectRuleParents`: its cell's lost candidates when
/// the cell implied it, the digit's lost places in the house that did), to `cells` the
/// cells of every ancestor and of the nested chains they rest on, and mixes each ancestor
/// into a fingerprint of the chain; the complexity and the fingerprint. `parents`: those of
/// a new potential of a clash, instead of the stored ones.
fn rule_walk(
    x: &Implied,
    (src, b): (&Board, &Board),
    (p, parents): (u16, Option<Parents>),
    (rules, cells): (&mut CandSet, &mut u128),
    nested: &mut NestSet<'_>,
) -> (u32, u64) {
    let mut print = 0u64;
    let count = x.walk(p, parents, |q, pp| {
        // The chain as a set: SE's `FullChain` compares the chains' potentials.
        print = print.wrapping_add(mix(q));
        let chain = x.nested_chain(pp);
        *cells |= 1u128 << cell_of(q) | chain.cells;
        if is_on(q) {
            let (c, d) = (cell_of(q), digit_of(q));
            match pp.house(c) {
                Some(h) => rules.add_cells(src.planes[d] & !b.planes[d] & HOUSE_MASK[h], d),
                None if !pp.is_root() => rules.add_digits(c, src.cands[c] & !b.cands[c]),
                None => {}
            }
        }
        count_once(chain, nested)
    });
    (count, print)
}
