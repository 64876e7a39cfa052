//! A found hint's chains recorded as data ([`Record`]), for the steps of `--steps` (never
//! while rating alone: the producers keep parent pointers, and a step's chains are rebuilt
//! from them only when a step is reported). Each link is recorded with why it holds
//! ([`Why`]); the Eureka text, the step's cells and sentences are written from the record.
//!
//! A branch is the main chain of a propagation's implication tree ([`Tree`]), from the
//! assumption to the conclusion by first parents, then one bracketed chain for each removal
//! a link reads besides its first parent (SE's *hidden parents*: a house left with two
//! places, a cell with two candidates, a basic rule's other parents) that the branch has not
//! shown yet, each from a node already recorded to that removal. Every link of a branch then
//! holds on the step's grid once the removals recorded before or beside it are made.
//!
//! ```text
//!  (5)r1c2-r1c7=r3c8 [(5)r1c2-r3c1]      r3c8 on rests on r1c7 off (first parent) and on
//!                                        r3c1 off (hidden: column 8's other place lost)
//! ```
//!
//! Layer: shared, over [`links`](super::links): the producers' `explain` record with it.

use super::bits::PotSet;
use super::links::{cell_of, digit_of, is_on, POTENTIALS};
use crate::engines::rater::board::{Board, CELL_HOUSES, HOUSE_MASK};
use crate::engines::rater::chain::{Record, Why};
use crate::engines::rater::step::House;

/// No parent: the assumption a branch starts from.
pub(crate) const ROOT: u16 = u16::MAX;

/// Why a potential follows from its first parent, as the producer kept it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cause {
    /// A link of the grid: read off the cells (weak), or off the grid (strong).
    Link,
    /// The cell's only other candidate left (an "on" potential).
    Cell,
    /// The digit's only other place left in this house (an "on" potential).
    House(u8),
    /// The producer's basic rule or nested chain of this index, told later
    /// ([`Record::pending_from`]).
    Rule(u16),
}

/// A propagation's implication tree, as its producer kept it.
pub(crate) trait Tree {
    /// The potential `p` was implied from (its first parent), [`ROOT`] for the assumption.
    fn parent(&self, p: u16) -> u16;
    /// The removals ("off" potentials) `p`'s link reads besides its first parent.
    fn hidden(&self, p: u16, visit: &mut dyn FnMut(u16));
    /// Why `p` follows from its first parent.
    fn cause(&self, _p: u16) -> Cause {
        Cause::Link
    }
}

/// A tree with other parents for one potential: the new potential of a clash, which the
/// producer stopped at before it stored it.
pub(crate) struct WithClash<'t, T: Tree> {
    pub tree: &'t T,
    pub potential: u16,
    pub parent: u16,
    /// The clash potential's hidden parents.
    pub hidden: &'t [u16],
    /// Why it follows from `parent`.
    pub cause: Cause,
}

impl<T: Tree> Tree for WithClash<'_, T> {
    fn parent(&self, p: u16) -> u16 {
        if p == self.potential {
            self.parent
        } else {
            self.tree.parent(p)
        }
    }
    fn hidden(&self, p: u16, visit: &mut dyn FnMut(u16)) {
        if p == self.potential {
            self.hidden.iter().for_each(|&h| visit(h));
        } else {
            self.tree.hidden(p, visit);
        }
    }
    fn cause(&self, p: u16) -> Cause {
        if p == self.potential {
            self.cause
        } else {
            self.tree.cause(p)
        }
    }
}

/// Why the link from `from` to `to` holds on `b` (the grid the chain is on), and whether
/// the producer tells it later (a rule's).
pub(crate) fn why(b: &Board, from: u16, to: u16, cause: Cause) -> (Why, bool) {
    let (fc, tc) = (cell_of(from), cell_of(to));
    let why = match cause {
        Cause::Rule(k) => return (Why::Rule(k), true),
        Cause::House(h) => Why::House(House(h)),
        Cause::Cell => Why::Cell(tc as u8),
        Cause::Link if fc == tc => Why::Cell(tc as u8),
        Cause::Link => {
            let d = digit_of(to);
            let strong = !is_on(from) && is_on(to);
            // A weak link names rows, columns, then boxes, as a person names them; a strong
            // one the first of the block, row and column with the digit's two places alone,
            // as SE links them (and so the lost places a nested chain rests on are that
            // house's).
            let order = if strong { [0, 1, 2] } else { [1, 2, 0] };
            let shared = order
                .map(|k| CELL_HOUSES[fc][k] as usize)
                .into_iter()
                .filter(|&h| HOUSE_MASK[h] >> tc & 1 == 1);
            let two = shared
                .clone()
                .find(|&h| !strong || b.pos[h][d].count_ones() == 2);
            match two.or(shared.clone().next()) {
                Some(h) => Why::House(House(h as u8)),
                None => Why::Cell(tc as u8),
            }
        }
    };
    (why, false)
}

/// Records a link of a chain on `b`.
fn link(rec: &mut Record, b: &Board, (from, to): (u16, u16), cause: Cause, opens: bool) {
    let (why, pending) = why(b, from, to, cause);
    rec.link(from, to, why, opens, pending);
}

/// Records `path` (potentials, the first one's state given by its link) as one branch, each
/// link read off `b`.
pub(crate) fn record_path(rec: &mut Record, b: &Board, path: &[u16]) {
    rec.open(path[0]);
    for pair in path.windows(2) {
        link(rec, b, (pair[0], pair[1]), Cause::Link, false);
    }
}

/// Records the branch of `tree` (a propagation on `b`) that ends at `target`: its main chain
/// from the assumption, then a bracketed chain for each hidden parent not recorded yet (see
/// the module header).
pub(crate) fn record_branch(rec: &mut Record, b: &Board, tree: &impl Tree, target: u16) {
    let mut written = PotSet::EMPTY;
    let mut work = [0u16; POTENTIALS];
    let mut path = [0u16; POTENTIALS];
    // The main chain: the first parents back to the assumption.
    let (n, _) = back(tree, target, &mut path, |_| false);
    path[..n].reverse();
    rec.open(path[0]);
    for i in 1..n {
        let cause = tree.cause(path[i]);
        link(rec, b, (path[i - 1], path[i]), cause, false);
    }
    let mut queued = 0;
    for &q in &path[..n] {
        written.insert(q);
        work[queued] = q;
        queued += 1;
    }
    let mut next = 0;
    while next < queued {
        let q = work[next];
        next += 1;
        let mut hidden = [0u16; 32];
        let k = collect(&mut hidden, |visit| tree.hidden(q, visit));
        for &h in &hidden[..k] {
            if written.has(h) {
                continue;
            }
            // Back from the removal to the first node already written.
            let (n, x) = back(tree, h, &mut path, |x| written.has(x));
            if x == ROOT {
                // Unreachable: the assumption is on the main chain.
                continue;
            }
            path[n] = x;
            path[..=n].reverse();
            for i in 1..=n {
                let cause = tree.cause(path[i]);
                link(rec, b, (path[i - 1], path[i]), cause, i == 1);
            }
            for &y in &path[1..=n] {
                written.insert(y);
                if queued < POTENTIALS {
                    work[queued] = y;
                    queued += 1;
                }
            }
        }
    }
}

/// The potentials `each` visits into `buf`, those past its room left out; how many.
pub(crate) fn collect(buf: &mut [u16], each: impl FnOnce(&mut dyn FnMut(u16))) -> usize {
    let mut n = 0;
    each(&mut |p| {
        if n < buf.len() {
            buf[n] = p;
            n += 1;
        }
    });
    n
}

/// The first parents from `from` back to the assumption or to the first node that `stop`s,
/// into `path` (nearest first): their number, and the node the walk stopped at (`ROOT` at
/// the assumption).
fn back(
    tree: &impl Tree,
    from: u16,
    path: &mut [u16; POTENTIALS],
    stop: impl Fn(u16) -> bool,
) -> (usize, u16) {
    let mut n = 0;
    let mut x = from;
    while x != ROOT && !stop(x) && n < POTENTIALS {
        path[n] = x;
        n += 1;
        x = tree.parent(x);
    }
    (n, x)
}

#[cfg(test)]
mod tests {
    use super::super::links::potential;
    use super::*;

    /// A tree of parent pointers with hidden parents, as a map.
    struct Map(Vec<(u16, u16, Vec<u16>)>);

    impl Tree for Map {
        fn parent(&self, p: u16) -> u16 {
            self.0.iter().find(|e| e.0 == p).map_or(ROOT, |e| e.1)
        }
        fn hidden(&self, p: u16, visit: &mut dyn FnMut(u16)) {
            if let Some(e) = self.0.iter().find(|e| e.0 == p) {
                e.2.iter().for_each(|&h| visit(h));
            }
        }
    }

    fn text(rec: &mut Record) -> String {
        let mut s = String::new();
        rec.write_eureka(&mut s);
        s
    }

    #[test]
    fn hidden_parents_follow_in_brackets_from_a_written_node() {
        // r1c1=1 on: r1c2 off, r2c1 off; r2c1 off and (hidden) r1c2 off: r3c3=1 on (box).
        let root = potential(0, 0, true);
        let a = potential(1, 0, false);
        let b = potential(9, 0, false);
        let c = potential(20, 0, true);
        let tree = Map(vec![(a, root, vec![]), (b, root, vec![]), (c, b, vec![a])]);
        let mut board = Board::blank();
        board.load(&[0; 81]);
        let mut rec = Record::new();
        record_branch(&mut rec, &board, &tree, c);
        assert_eq!(text(&mut rec), "(1)r1c1-r2c1=r3c3 [(1)r1c1-r1c2]");
        let links: Vec<_> = rec.view().iter().next().unwrap().links().to_vec();
        // Weak links name their house (rows, columns, boxes first); r2c1 → r3c3 is in box 1.
        assert_eq!(links[0].why, Why::House(House(18)));
        assert_eq!(links[1].why, Why::House(House(0)));
        assert_eq!(links[2].why, Why::House(House(9)));
        assert!(links[2].opens && !links[1].opens);
        // The clash override gives the new potential its parents.
        let d = potential(21, 0, false);
        let clash = WithClash {
            tree: &tree,
            potential: d,
            parent: c,
            hidden: &[],
            cause: Cause::Link,
        };
        let mut rec = Record::new();
        record_branch(&mut rec, &board, &clash, d);
        assert_eq!(text(&mut rec), "(1)r1c1-r2c1=r3c3-r3c4 [(1)r1c1-r1c2]");
    }
}
