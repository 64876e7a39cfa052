//! Every hint of "Forcing Chains & Cycles" ([`forcing`](super::super::forcing)) on a grid an
//! assumption reduced, for nested chains of levels 2 and 3: SE's `getHints` of
//! `Chaining(false, false, false, 0)` on that grid, with each hint's rule parents.
//!
//! The same searches as the producer's ([`Search::walk`]), none cut: the solution tells
//! nothing about a grid an assumption reduced, and SE keeps every hint (the first of those
//! with the same removals, after the sort, is the one that counts).
//!
//! Measured 2026-12-06 with callgrind on line 3 of forum_hardest_1905_11+ (ER 11.0), Zen 5,
//! the ratings and steps the same:
//!
//! | change | G instructions |
//! |---|---|
//! | before | 3.99 |
//! | the chain to "root off" tested by one comparison a link (kept) | 3.87 |
//! | a search from "on" ended once every "on" potential linking strongly back to the root is expanded and the chain is found (lost: searches seldom end early, and the set costs at each start) | 4.55 |
//! | later: the searches that cannot find a hint left out, with the rest of [`reach`](super::reach) (the whole puzzle, 3.52 before) | 2.41 |
//! | a search from "on" ended at its chain when no cycle can close (lost; three puzzles: 10.70 → 10.80) | |
//!
//! Layer: the nesting driver's, over the producer's breadth-first walk
//! ([`forcing`](super::super::forcing)).

use super::hint::{off_parents, on_parents, Nested, Origin};
use super::reach::Reach;
use crate::engines::rater::board::{cells_of, digits_of, Board};
use crate::engines::rater::chains::forcing::{Back, Pass, Search, Visit, PATH};
use crate::engines::rater::chains::shared::bits::CandSet;
use crate::engines::rater::chains::shared::key::Key;
use crate::engines::rater::chains::shared::links::{
    cell_of, conjugate, digit_of, is_on, potential, Graph,
};
use crate::engines::rater::chains::shared::nest_set::fingerprint;

/// Every hint of the producer on `b` (its links listed in `graph`), a grid the assumptions
/// of a dynamic propagation reduced from `src`, in discovery order, appended to `out`; a
/// hint that removes nothing is left out.
///
/// With `quiet`, the step's grid on which the producer found nothing, the searches that
/// cannot find a hint ([`reach`](super::reach)) are not run.
pub(crate) fn every_hint(
    (search, reach): (&mut Search, &mut Reach),
    (src, b, graph): (&Board, &Board, &Graph),
    quiet: Option<&Board>,
    out: &mut Vec<Nested>,
) {
    for pass in Pass::ALL {
        // The Y pass starts from cells of two candidates, whose cycles always may close.
        let cut = quiet.filter(|_| pass != Pass::Y);
        if let Some(step) = cut {
            reach.load(step, b, graph, pass.rules());
        }
        let runs = |p: u16| cut.is_none() || reach.has(p);
        for c in cells_of(b.open).filter(|&c| pass.starts(b, c)) {
            for d in digits_of(b.cands[c]) {
                let root = potential(c, d, true);
                let back = Back::new(graph, root, pass.rules());
                if runs(root) || back.any() {
                    every_from_on(search, (src, b, graph), (root, back), pass, out);
                }
                if pass != Pass::Y && runs(conjugate(root)) {
                    let mut visit = FromOff {
                        src,
                        b,
                        root,
                        pass,
                        out,
                    };
                    search.walk(graph, pass.rules(), conjugate(root), &mut visit);
                }
            }
        }
    }
}

/// Every cycle back to "root on", then the chain to "root off" (SE's `doCycles`, then
/// `doForcingChains` from "root on").
fn every_from_on(
    search: &mut Search,
    (src, b, links): (&Board, &Board, &Graph),
    (root, back): (u16, Back),
    pass: Pass,
    out: &mut Vec<Nested>,
) {
    let rules = pass.rules();
    let mut visit = FromOn {
        src,
        b,
        root,
        pass,
        back,
        bases: pass.bases(),
        chain_to: if pass.bases().1.is_finite() {
            conjugate(root)
        } else {
            NONE
        },
        chain_at: None,
        out,
    };
    search.walk(links, rules, root, &mut visit);
    let (_, chain_base, sort) = pass.bases();
    if let Some(p) = visit.chain_at {
        let key = Key::new(chain_base, search.depth(p) + 1, sort);
        let origin = Origin::FromOn { pass, root, at: p };
        let mut hint = Nested::empty(key, out.len(), origin);
        (hint.chain, hint.cells) = path_print(search, p, &[conjugate(root)]);
        hint.removals
            .add_cells(1u128 << cell_of(root), digit_of(root));
        path_parents(search, (src, b), p, true, &mut hint.parents);
        out.push(hint);
    }
}

/// No potential: a link never reaches it.
const NONE: u16 = u16::MAX;

/// The cycles of a search from "on" `root`, as found; the first "on" potential linking to
/// "root off".
struct FromOn<'a> {
    src: &'a Board,
    b: &'a Board,
    root: u16,
    pass: Pass,
    back: Back,
    /// The pass's [`Pass::bases`].
    bases: (f64, f64, u8),
    /// "root off" while its chain is looked for and not found yet, else [`NONE`]: one
    /// comparison a link (the walk's costliest test, measured).
    chain_to: u16,
    chain_at: Option<u16>,
    out: &'a mut Vec<Nested>,
}

impl Visit for FromOn<'_> {
    #[inline]
    fn on_link(&mut self, tree: &Search, p: u16, x: u16, d: u32) -> bool {
        if x == self.chain_to {
            self.chain_at = Some(p);
            self.chain_to = NONE;
        }
        if d >= 3 && self.back.has(x) && !tree.is_ancestor(p, x) {
            let mut elim = [0u128; 9];
            if tree.cycle_eliminations(self.b, self.root, p, x, &mut elim) {
                let (cycle_base, _, sort) = self.bases;
                let (src, b, root) = (self.src, self.b, self.root);
                let key = Key::new(cycle_base, d + 1, sort);
                let origin = Origin::Cycle {
                    pass: self.pass,
                    root,
                    on: p,
                    off: x,
                };
                let mut hint = Nested::empty(key, self.out.len(), origin);
                (hint.chain, hint.cells) = path_print(tree, p, &[x, root]);
                for (digit, &cells) in elim.iter().enumerate() {
                    hint.removals.add_cells(cells, digit);
                }
                // The loop read forwards (to "root on" again) and backwards: its "on"
                // potentials rest on their links, and so do its "off" ones in the reversed
                // loop, where they are "on".
                path_parents(tree, (src, b), p, true, &mut hint.parents);
                path_parents(tree, (src, b), p, false, &mut hint.parents);
                on_parents(src, b, x, root, &mut hint.parents);
                off_parents(src, b, p, x, &mut hint.parents);
                self.out.push(hint);
            }
        }
        true
    }
}

/// The chain from "root off" to "root on" (SE's `doForcingChains` from "root off").
struct FromOff<'a> {
    src: &'a Board,
    b: &'a Board,
    root: u16,
    pass: Pass,
    out: &'a mut Vec<Nested>,
}

impl Visit for FromOff<'_> {
    #[inline]
    fn off_link(&mut self, tree: &Search, p: u16, q: u16, d: u32) -> bool {
        if q != self.root {
            return true;
        }
        let (src, b, root) = (self.src, self.b, self.root);
        let (_, chain_base, sort) = self.pass.bases();
        let key = Key::new(chain_base, d + 1, sort);
        let origin = Origin::FromOff {
            pass: self.pass,
            root,
            at: p,
        };
        let mut hint = Nested::empty(key, self.out.len(), origin);
        (hint.chain, hint.cells) = path_print(tree, p, &[root]);
        let c = cell_of(root);
        let others = b.cands[c] & !(1 << digit_of(root));
        hint.removals.add_digits(c, others);
        if others != 0 {
            path_parents(tree, (src, b), p, true, &mut hint.parents);
            on_parents(src, b, p, root, &mut hint.parents);
            self.out.push(hint);
        }
        false
    }
}

/// The fingerprint and the cells of the tree path from the root to `end`, then `extra`.
fn path_print(tree: &Search, end: u16, extra: &[u16]) -> (u64, u128) {
    let mut path = [0u16; PATH];
    let n = tree.path_to(end, &mut path, 0);
    let len = n + extra.len();
    path[n..len].copy_from_slice(extra);
    let path = &path[..len];
    let cells = path.iter().fold(0u128, |s, &p| s | 1u128 << cell_of(p));
    (fingerprint(path), cells)
}

/// Adds the rule parents of the `on` (or, if not `on`, the "off") potentials on the tree
/// path from the root to `end`, each from the link from its tree parent (the root has
/// none).
fn path_parents(tree: &Search, (src, b): (&Board, &Board), end: u16, on: bool, set: &mut CandSet) {
    for (q, parent) in tree.up(end) {
        if is_on(q) == on {
            if on {
                on_parents(src, b, parent, q, set);
            } else {
                off_parents(src, b, parent, q, set);
            }
        }
    }
}
