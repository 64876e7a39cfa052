//! The chains of a dynamic forcing chain the producer found, for `--steps`: its
//! propagations run again and their implication trees written in Eureka notation
//! ([`eureka`]), hidden parents and the basic rules' removals included.
//!
//! Layer: the dynamic producer's own, over [`implied`](super::implied) and
//! [`eureka`].

use super::implied::{for_each_off, Implied, Parents, NONE};
use super::{Dynamic, Found, Kind};
use crate::engines::rater::board::{digits_of, Board, HOUSE_CELLS};
use crate::engines::rater::chains::shared::eureka::{self, Tree, WithClash};
use crate::engines::rater::chains::shared::links::{conjugate, potential};

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
}

/// Appends the branch of `x` ending at `target` ([`eureka::write_branch`]); `parents`: those
/// of a new potential of its clash. The cells of the nested chains it rests on, which the
/// notation leaves out.
fn write(out: &mut String, x: &Implied, target: u16, parents: Option<Parents>) -> u128 {
    let nested = x.nested_cells_under(target, parents);
    match parents {
        None => eureka::write_branch(out, x, target),
        Some(parents) => {
            let mut hidden = [0u16; 16];
            let n = eureka::collect(&mut hidden, |visit| {
                parents.for_each_hidden(target, &mut |h| visit(h))
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
    nested
}

impl Dynamic {
    /// The branches of `found`, one a line in Eureka notation ([`eureka`]): a contradiction's
    /// two, from the assumption to the "on" and to the "off" of the candidate that clashes;
    /// a double forcing chain's from the digit on, then off; a cell's or a region's from each
    /// candidate of the cell or place of the digit in the house, in SE's order. The cells of
    /// the nested chains the branches rest on (none below level 2).
    pub(crate) fn explain(&mut self, b: &Board, found: &Found, out: &mut String) -> u128 {
        let c = found.source;
        let nest = &mut self.nest;
        let mut nested = 0;
        let mut one = |x: &mut Implied, root: u16, out: &mut String| {
            x.propagate(b, root, nest);
            nested |= write(out, x, found.target, None);
        };
        match found.kind {
            Kind::Contradiction => {
                let x = &mut self.off;
                let root = conjugate(found.target);
                x.propagate(b, root, &mut self.nest);
                let Some(clash) = x.clash else {
                    return 0;
                };
                let [(on, on_parents), (off, off_parents)] = clash.sides();
                // A side that is the assumption itself is no chain: the other one alone
                // leads from the assumption to its negation.
                let mut nested = 0;
                if on != root {
                    nested |= write(out, x, on, on_parents);
                }
                if on != root && off != root {
                    out.push('\n');
                }
                if off != root {
                    nested |= write(out, x, off, off_parents);
                }
                return nested;
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
        nested
    }
}
