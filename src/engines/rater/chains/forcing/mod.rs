//! SE's first chaining producer, "Forcing Chains & Cycles" (`Chaining(false, false, false,
//! 0)`): bidirectional cycles and forcing chains on X links, Y links or both.
//!
//! SE runs, for each pass (X links only, then Y only, then both), for each cell row by row
//! with two candidates or more (bivalue cells only in the Y pass), for each of its digits
//! `s`, breadth-first searches from "s on" (finding cycles back to "s on" and the chain to
//! "s off") and, in the X and XY passes, from "s off" (the chain to "s on"). Each potential
//! gets its parent when first reached, so each search is a tree and every chain is a path of
//! it; a chain's complexity is its number of potentials.
//!
//! - Cycle: while an "on" potential `p` of depth 3 or more is expanded, each "off" potential
//!   `x` it reaches that is not an ancestor of `p` and links strongly back to "s on" closes a
//!   loop. It eliminates each digit, outside the loop's cells, from cells seeing an "on" and
//!   an "off" potential of that digit on the loop; a loop eliminating nothing is no hint.
//!   Difficulty 6.5 (X, Y) or 7.0 (XY) plus the length bonus.
//! - Forcing chain: the first "on" potential whose expansion reaches "s off" proves `s` false
//!   (s is removed); the first "off" potential whose expansion reaches "s on" proves `s` true
//!   (placed). Difficulty 6.6 (X) or 7.0 (XY) plus the bonus.
//!
//! The step takes the first found of the least `(difficulty, complexity, sort key)` ([`Key`]),
//! the pass order and cycles-before-chains of one start being SE's discovery order. What
//! is searched is cut without changing that hint:
//! - a search stops at the depth where no chain can beat the best hint so far (the
//!   complexity of a chain found at depth `d` is `d + 1`, and the bonus only grows);
//! - "s on ⇒ s off" is looked for only from digits the solution does not hold, "s off ⇒ s
//!   on" only from the solution's digits: every link is sound on a grid whose candidates
//!   still hold the solution, so a true candidate never implies its own removal, nor a false
//!   one its own placement;
//! - a pass is skipped when its cheapest possible hint cannot beat the best one;
//! - a start is not searched when what it can reach at all ([`Closure`], once per step)
//!   holds neither its negation nor an "on" potential linking to a way back to it.
//!
//! The links are the board's, unchanged during the step: they are listed once
//! ([`Graph`]) and read from the lists by every search (and by multiple forcing chains).
//!
//! Each search is one [`Search::walk`] ([`tree`]) with what it looks for as a [`Visit`]:
//! [`FromOn`] (cycles and the chain to "s off") and [`FromOff`] (the chain to "s on"). The
//! same walk gives every hint of the producer on the grids nested chains reduce
//! ([`nested`](super::nested)).
//!
//! Layer: a producer, over [`shared`](super::shared).

mod tree;

pub(crate) use tree::{Search, Visit, PATH};

use super::shared::closure::Closure;
use super::shared::key::Key;
use super::shared::links::{cell_of, conjugate, is_on, potential, Graph, Links, Rules};
use crate::engines::rater::board::{cells_of, digits_of, Board, CELLS, PEERS};
use crate::engines::rater::Technique;

/// What the best hint so far is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A loop; `Rules` tells the pass.
    Cycle(Pass),
    /// A forcing chain from the start to its negation.
    Chain(Pass),
}

/// The technique of a hint of `kind` whose chain is `path` (a cycle back to its start).
pub(crate) fn technique(kind: Kind, path: &[u16]) -> Technique {
    let cells = path.iter().fold(0u128, |s, &p| s | 1u128 << cell_of(p));
    match kind {
        Kind::Cycle(Pass::X) if cells.count_ones() == 4 => Technique::GeneralizedXWing,
        Kind::Cycle(Pass::X) => Technique::BidirectionalXCycle,
        Kind::Cycle(Pass::Y) => Technique::BidirectionalYCycle,
        Kind::Cycle(Pass::XY) => Technique::BidirectionalCycle,
        Kind::Chain(Pass::XY) => Technique::ForcingChain,
        // A chain's complexity is its number of potentials.
        Kind::Chain(_) if path.len() == 6 => Technique::TurbotFish,
        Kind::Chain(_) => Technique::ForcingXChain,
    }
}

/// The three passes of the producer, in SE's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pass {
    X,
    Y,
    XY,
}

impl Pass {
    pub(crate) const ALL: [Pass; 3] = [Pass::X, Pass::Y, Pass::XY];

    pub(crate) fn rules(self) -> Rules {
        match self {
            Pass::X => Rules { x: true, y: false },
            Pass::Y => Rules { x: false, y: true },
            Pass::XY => Rules { x: true, y: true },
        }
    }

    /// Base difficulties of a cycle and a forcing chain, and SE's sort key.
    pub(crate) fn bases(self) -> (f64, f64, u8) {
        match self {
            Pass::X => (6.5, 6.6, 2),
            Pass::Y => (6.5, f64::INFINITY, 3),
            Pass::XY => (7.0, 7.0, 4),
        }
    }

    /// Whether the pass starts from cell `c` of `b`: two candidates or more, exactly two in
    /// the Y pass.
    pub(crate) fn starts(self, b: &Board, c: usize) -> bool {
        let n = b.cands[c].count_ones();
        n >= 2 && (self != Pass::Y || n == 2)
    }
}

/// The "off" potentials that link strongly back to an "on" potential `root` under `rules`
/// (those whose [`off_to_on`](super::shared::links::off_to_on) holds `root`): the cell's
/// other candidate when it has two, the other place of the digit in each house where it
/// has two. What closes a cycle.
#[derive(Clone, Copy)]
pub(crate) struct Back {
    offs: [u16; 4],
    len: usize,
}

impl Back {
    /// The conjugates of what "root off" turns on: the same candidates.
    pub(crate) fn new(links: &impl Links, root: u16, rules: Rules) -> Back {
        let mut back = Back {
            offs: [u16::MAX; 4],
            len: 0,
        };
        let mut ons = [0u16; 4];
        for &q in links.off_to_on(conjugate(root), rules, &mut ons) {
            back.offs[back.len] = conjugate(q);
            back.len += 1;
        }
        back
    }

    /// Whether any "off" potential links strongly back to the root (else no cycle closes).
    #[inline]
    pub(crate) fn any(&self) -> bool {
        self.len > 0
    }

    /// The "off" potentials linking strongly back to the root.
    #[inline]
    fn offs(&self) -> &[u16] {
        &self.offs[..self.len]
    }

    /// Whether "off" potential `x` links strongly back to the root.
    #[inline]
    pub(crate) fn has(&self, x: u16) -> bool {
        self.offs().contains(&x)
    }
}

/// The best hint of the producer so far.
pub(crate) struct Best {
    pub key: Key,
    pub kind: Kind,
    /// The potentials from the assumption to the conclusion (for a cycle, back to the start).
    pub path: [u16; PATH],
    pub len: usize,
    /// A cycle's eliminations per digit.
    pub elim: [u128; 9],
}

impl Best {
    pub(crate) const fn new() -> Best {
        Best {
            key: Key::NONE,
            kind: Kind::Chain(Pass::X),
            path: [0; PATH],
            len: 0,
            elim: [0; 9],
        }
    }
}

/// A cycle closed during one search: its key, the "on" potential expanded and the "off" one.
#[derive(Clone, Copy)]
struct Closing {
    key: Key,
    on: u16,
    off: u16,
    elim: [u128; 9],
}

impl Search {
    /// The producer: the first of the least hints, in `best` (`best.key` is `Key::NONE` when
    /// there is none). `solution[c]` is the solution's digit (1..=9) of cell `c`.
    pub(crate) fn find(
        &mut self,
        b: &Board,
        graph: &Graph,
        closure: &Closure,
        solution: &[u8; CELLS],
        best: &mut Best,
    ) {
        best.key = Key::NONE;
        for pass in Pass::ALL {
            let (cycle, chain, sort) = pass.bases();
            if !Key::new(cycle.min(chain), 4, sort).before(&best.key) {
                continue;
            }
            for c in cells_of(b.open).filter(|&c| pass.starts(b, c)) {
                for d in digits_of(b.cands[c]) {
                    let truth = solution[c] as usize == d + 1;
                    let root = potential(c, d, true);
                    let chain = chain.is_finite();
                    let wanted = !truth && chain && closure.reaches(root, conjugate(root));
                    self.search_on(b, (graph, closure), root, pass, wanted, best);
                    if truth && chain && closure.reaches(conjugate(root), root) {
                        self.search_off(graph, root, pass, best);
                    }
                }
            }
        }
    }

    /// The search from "root on": cycles back to it and, if `chain`, the chain to "root off";
    /// none when `closure` shows neither can be found.
    fn search_on(
        &mut self,
        b: &Board,
        (links, closure): (&impl Links, &Closure),
        root: u16,
        pass: Pass,
        chain: bool,
        best: &mut Best,
    ) {
        let rules = pass.rules();
        let back = Back::new(links, root, rules);
        if !chain && !closure.may_close(links, root, back.offs(), rules.y) {
            return;
        }
        let mut visit = FromOn {
            b,
            root,
            back,
            bases: pass.bases(),
            best: best.key,
            closing: None,
            chain_at: None,
            want_chain: chain,
            cycles: false,
        };
        self.walk(links, rules, root, &mut visit);
        self.keep(root, pass, visit.closing, visit.chain_at, best);
    }

    /// Keeps the cycle closed at `closing` and the chain to "root off" that ends at
    /// `chain_at`, where they come before `best`.
    fn keep(
        &self,
        root: u16,
        pass: Pass,
        closing: Option<Closing>,
        chain_at: Option<u16>,
        best: &mut Best,
    ) {
        let (_, chain_base, sort) = pass.bases();
        if let Some(c) = closing {
            if c.key.before(&best.key) {
                best.key = c.key;
                best.kind = Kind::Cycle(pass);
                best.elim = c.elim;
                best.len = self.path_to(c.on, &mut best.path, 2);
                let len = best.len;
                best.path[len - 2] = c.off;
                best.path[len - 1] = root;
            }
        }
        if let Some(p) = chain_at {
            let key = Key::new(chain_base, self.depth(p) + 1, sort);
            if key.before(&best.key) {
                best.key = key;
                best.kind = Kind::Chain(pass);
                best.len = self.path_to(p, &mut best.path, 1);
                let len = best.len;
                best.path[len - 1] = conjugate(root);
            }
        }
    }

    /// The search from "root off" for the chain to "root on".
    fn search_off(&mut self, links: &impl Links, root: u16, pass: Pass, best: &mut Best) {
        let (_, chain_base, sort) = pass.bases();
        let chain = (chain_base, sort);
        let mut visit = FromOff {
            root,
            pass,
            chain,
            best,
        };
        self.walk(links, pass.rules(), conjugate(root), &mut visit);
    }

    /// A cycle's eliminations: digits outside the loop's cells seeing an "on" and an "off"
    /// potential of theirs on the loop (the tree path to "on" `on`, then "off" `off`, back
    /// to `root`). Whether there is any.
    pub(crate) fn cycle_eliminations(
        &self,
        b: &Board,
        root: u16,
        on: u16,
        off: u16,
        elim: &mut [u128; 9],
    ) -> bool {
        let mut forward = [0u128; 9];
        let mut back = [0u128; 9];
        let mut cells = 0u128;
        let mut add = |p: u16| {
            let c = p as usize >> 1;
            let (cell, d) = (c / 9, c % 9);
            cells |= 1u128 << cell;
            if is_on(p) {
                forward[d] |= PEERS[cell];
            } else {
                back[d] |= PEERS[cell];
            }
        };
        add(root);
        add(off);
        for (q, _) in self.up(on) {
            add(q);
        }
        let mut any = 0;
        for d in 0..9 {
            elim[d] = forward[d] & back[d] & b.planes[d] & !cells;
            any |= elim[d];
        }
        any != 0
    }
}

/// The search from "on" `root`: the best cycle back to it and the chain to "root off",
/// each cut where it cannot beat the best hint so far (or the best cycle of this search).
struct FromOn<'a> {
    b: &'a Board,
    root: u16,
    back: Back,
    /// The pass's [`Pass::bases`].
    bases: (f64, f64, u8),
    /// The best hint's key before this search.
    best: Key,
    closing: Option<Closing>,
    chain_at: Option<u16>,
    /// Whether the chain to "root off" is still looked for (found or cut: not).
    want_chain: bool,
    /// Whether cycles are still looked for at the potential expanded.
    cycles: bool,
}

impl FromOn<'_> {
    /// The key a hint must come before: the best cycle of this search, else the best hint.
    #[inline]
    fn bound(&self) -> Key {
        self.closing.as_ref().map_or(self.best, |c| c.key)
    }
}

impl Visit for FromOn<'_> {
    #[inline]
    fn expand(&mut self, _: &Search, p: u16, d: u32) -> bool {
        let (cycle_base, chain_base, sort) = self.bases;
        let bound = self.bound();
        let least = (d + if is_on(p) { 1 } else { 2 }).max(4);
        self.cycles = Key::new(cycle_base, least, sort).before(&bound);
        self.want_chain &= Key::new(chain_base, least, sort).before(&bound);
        self.cycles || self.want_chain
    }

    #[inline]
    fn on_link(&mut self, tree: &Search, p: u16, x: u16, d: u32) -> bool {
        if self.want_chain && x == conjugate(self.root) {
            self.chain_at = Some(p);
            self.want_chain = false;
        }
        if self.cycles && d >= 3 && self.back.has(x) {
            let (cycle_base, _, sort) = self.bases;
            let key = Key::new(cycle_base, d + 1, sort);
            if key.before(&self.bound()) && !tree.is_ancestor(p, x) {
                let mut elim = [0u128; 9];
                if tree.cycle_eliminations(self.b, self.root, p, x, &mut elim) {
                    self.closing = Some(Closing {
                        key,
                        on: p,
                        off: x,
                        elim,
                    });
                }
            }
        }
        true
    }
}

/// The search from "off" `root` for the chain to "root on", kept in `best` if found before
/// the search is cut.
struct FromOff<'a> {
    root: u16,
    pass: Pass,
    /// The pass's base difficulty of a chain, and its sort key.
    chain: (f64, u8),
    best: &'a mut Best,
}

impl Visit for FromOff<'_> {
    #[inline]
    fn expand(&mut self, _: &Search, p: u16, d: u32) -> bool {
        let (chain_base, sort) = self.chain;
        let least = (d + if is_on(p) { 2 } else { 1 }).max(4);
        Key::new(chain_base, least, sort).before(&self.best.key)
    }

    #[inline]
    fn off_link(&mut self, tree: &Search, p: u16, q: u16, d: u32) -> bool {
        if q != self.root {
            return true;
        }
        let (chain_base, sort) = self.chain;
        let best = &mut *self.best;
        best.key = Key::new(chain_base, d + 1, sort);
        best.kind = Kind::Chain(self.pass);
        best.len = tree.path_to(p, &mut best.path, 1);
        best.path[best.len - 1] = self.root;
        false
    }
}
