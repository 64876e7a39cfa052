//! The chains of a dynamic forcing chain, recorded for `--steps`: its propagations run
//! again and their implication trees recorded ([`record`](crate::engines::rater::chains::shared::record)),
//! hidden parents and the basic rules' removals included; each link a basic rule or a
//! nested chain made is then told by the nesting driver ([`Nest::tell`]), which finds the
//! rule, or the nested chain (recorded in turn), on the grid the propagation had reduced.
//! The same code records the dynamic chains nested at levels 4 and 5.
//!
//! Layer: the dynamic producer's own, over [`implied`](super::implied) and the shared
//! recording; it calls the nesting driver, as the propagations do.

use super::implied::{for_each_off, Implied, Parents, NONE};
use super::{Dynamic, Found, Kind};
use crate::engines::rater::board::{digits_of, Board, HOUSE_CELLS};
use crate::engines::rater::chain::Record;
// The circle SE's nesting has: a dynamic chain's links rest on nested chains.
use crate::engines::rater::chains::nested::Nest;
use crate::engines::rater::chains::shared::links::{cell_of, conjugate, is_on, potential};
use crate::engines::rater::chains::shared::record::{
    collect, record_branch, Cause, Tree, WithClash,
};

impl Tree for Implied {
    /// A basic rule's removal: its first rule parent; the others are hidden.
    fn parent(&self, p: u16) -> u16 {
        let first = self.first_parent(p);
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
        match self.rule_set(self.first_parent(p)) {
            Some(set) => {
                let lowest = self.parent(p);
                for_each_off(set, &mut |q| {
                    if q != lowest {
                        visit(q)
                    }
                });
            }
            None => self.parents_of(p).for_each_hidden(p, &mut |q| visit(q)),
        }
    }
    fn cause(&self, p: u16) -> Cause {
        match self.rule_index_of(p) {
            Some(k) => Cause::Rule(k as u16),
            None => cause_of(p, self.parents_of(p)),
        }
    }
}

/// Why `p` follows from its first parent, a link's: the house that implied an "on", or
/// its cell; an "off" from its cell or a house, read off the cells.
fn cause_of(p: u16, parents: Parents) -> Cause {
    if !is_on(p) {
        return Cause::Link;
    }
    match parents.house(cell_of(p)) {
        Some(h) => Cause::House(h as u8),
        None => Cause::Cell,
    }
}

/// Records the branch of `x` (propagated on `b`) ending at `target`; `parents`: those of a
/// new potential of its clash.
fn branch(rec: &mut Record, b: &Board, x: &Implied, target: u16, parents: Option<Parents>) {
    match parents {
        None => record_branch(rec, b, x, target),
        Some(parents) => {
            let mut hidden = [0u16; 16];
            let n = collect(&mut hidden, |visit| {
                parents.for_each_hidden(target, &mut |h| visit(h))
            });
            let tree = WithClash {
                tree: x,
                potential: target,
                parent: parents.first,
                hidden: &hidden[..n],
                cause: cause_of(target, parents),
            };
            record_branch(rec, b, &tree, target);
        }
    }
}

/// What a dynamic forcing chain's branches start from and lead to.
#[derive(Clone, Copy, Debug)]
pub(crate) enum How {
    /// From `root`, to the "on" and the "off" of the candidate that clashes.
    Contradiction { root: u16 },
    /// From `digit` of `cell` on, then off, to `target`.
    Double { cell: u8, digit: u8, target: u16 },
    /// From each candidate of `cell` to `target`.
    Cell { cell: u8, target: u16 },
    /// From each place of `digit` in `house` to `target`.
    Region { house: u8, digit: u8, target: u16 },
}

impl How {
    /// The branches of a hint the producer found.
    pub(crate) fn of(found: &Found) -> How {
        let (cell, target) = (found.source as u8, found.target);
        match found.kind {
            Kind::Contradiction => How::Contradiction {
                root: conjugate(target),
            },
            Kind::Double { digit } => How::Double {
                cell,
                digit,
                target,
            },
            Kind::Cell => How::Cell { cell, target },
            Kind::Region { house, digit } => How::Region {
                house,
                digit,
                target,
            },
        }
    }
}

/// Records the branches of a dynamic forcing chain on `b` (`how`), propagating each
/// assumption again in `x` with `nest` (the nesting driver of `x`'s level), one branch after
/// the other: a contradiction's two, from the assumption to the "on" and to the "off" of the
/// candidate that clashes; a double forcing chain's from the digit on, then off; a cell's or
/// a region's from each candidate of the cell or place of the digit in the house, in SE's
/// order. `level`: how deep the chain is nested (0 for the step's own).
pub(crate) fn record(
    rec: &mut Record,
    b: &Board,
    (x, nest): (&mut Implied, &mut Nest),
    how: How,
    level: u8,
) {
    let mut one = |rec: &mut Record, root: u16, target: u16| {
        let mark = rec.pending_mark();
        x.propagate(b, root, nest);
        branch(rec, b, x, target, None);
        nest.tell(rec, b, x, mark, level);
    };
    match how {
        How::Contradiction { root } => {
            let mark = rec.pending_mark();
            x.propagate(b, root, nest);
            let Some(clash) = x.clash else {
                return;
            };
            let [(on, on_parents), (off, off_parents)] = clash.sides();
            // A side that is the assumption itself is no chain: the other one alone leads
            // from the assumption to its negation.
            if on != root {
                branch(rec, b, x, on, on_parents);
            }
            if off != root {
                branch(rec, b, x, off, off_parents);
            }
            nest.tell(rec, b, x, mark, level);
        }
        How::Double {
            cell,
            digit,
            target,
        } => {
            let (c, d) = (cell as usize, digit as usize);
            one(rec, potential(c, d, true), target);
            one(rec, potential(c, d, false), target);
        }
        How::Cell { cell, target } => {
            let c = cell as usize;
            for v in digits_of(b.cands[c]) {
                one(rec, potential(c, v, true), target);
            }
        }
        How::Region {
            house,
            digit,
            target,
        } => {
            let (h, d) = (house as usize, digit as usize);
            for i in digits_of(b.pos[h][d]) {
                let o = HOUSE_CELLS[h][i] as usize;
                one(rec, potential(o, d, true), target);
            }
        }
    }
}

impl Dynamic {
    /// Records the branches of `found`, a hint of this producer on `b` ([`record`]).
    pub(crate) fn explain(&mut self, b: &Board, found: &Found, rec: &mut Record) {
        let how = How::of(found);
        let x = match how {
            How::Contradiction { .. } => &mut self.off,
            _ => &mut self.cr.other,
        };
        record(rec, b, (x, &mut self.nest), how, 0);
    }
}
