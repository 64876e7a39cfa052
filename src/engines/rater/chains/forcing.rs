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

use super::shared::bits::CandSet;
use super::shared::closure::Closure;
use super::shared::key::Key;
use super::shared::links::{
    cell_of, conjugate, digit_of, is_on, potential, Graph, Links, Live, Rules, POTENTIALS,
};
use super::shared::nest_set::fingerprint;
use crate::engines::rater::board::{
    cells_of, digits_of, two_cells, Board, CELLS, CELL_HOUSES, HOUSE_MASK, PEERS,
};

/// What the best hint so far is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A loop; `Rules` tells the pass.
    Cycle(Pass),
    /// A forcing chain from the start to its negation.
    Chain(Pass),
}

/// The three passes of the producer, in SE's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pass {
    X,
    Y,
    XY,
}

impl Pass {
    const ALL: [Pass; 3] = [Pass::X, Pass::Y, Pass::XY];

    pub(crate) fn rules(self) -> Rules {
        match self {
            Pass::X => Rules { x: true, y: false },
            Pass::Y => Rules { x: false, y: true },
            Pass::XY => Rules { x: true, y: true },
        }
    }

    /// Base difficulties of a cycle and a forcing chain, and SE's sort key.
    fn bases(self) -> (f64, f64, u8) {
        match self {
            Pass::X => (6.5, 6.6, 2),
            Pass::Y => (6.5, f64::INFINITY, 3),
            Pass::XY => (7.0, 7.0, 4),
        }
    }
}

/// The "off" potentials that link strongly back to an "on" potential `root` under `rules`
/// (those whose [`off_to_on`](super::links::off_to_on) holds `root`): the cell's other
/// candidate when it has two, the other place of the digit in each house where it has two.
/// What closes a cycle.
#[derive(Clone, Copy)]
struct Back {
    offs: [u16; 4],
    len: usize,
}

impl Back {
    /// The conjugates of what "root off" turns on: the same candidates.
    fn new(links: &impl Links, root: u16, rules: Rules) -> Back {
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

    /// The "off" potentials linking strongly back to the root.
    #[inline]
    fn offs(&self) -> &[u16] {
        &self.offs[..self.len]
    }

    /// Whether "off" potential `x` links strongly back to the root.
    #[inline]
    fn has(&self, x: u16) -> bool {
        self.offs().contains(&x)
    }
}

/// Longest chain: a tree path holds each potential at most once, and a cycle adds two.
pub(crate) const PATH: usize = POTENTIALS + 2;

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

/// Breadth-first search scratch over the potentials.
pub(crate) struct Search {
    stamp: u32,
    mark: [u32; POTENTIALS],
    parent: [u16; POTENTIALS],
    depth: [u16; POTENTIALS],
    queue: [u16; POTENTIALS],
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
    pub(crate) const fn new() -> Search {
        Search {
            stamp: 0,
            mark: [0; POTENTIALS],
            parent: [0; POTENTIALS],
            depth: [0; POTENTIALS],
            queue: [0; POTENTIALS],
        }
    }

    fn start(&mut self, root: u16) -> usize {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark = [0; POTENTIALS];
            self.stamp = 1;
        }
        self.visit(root, root, 1, 0)
    }

    #[inline]
    fn visit(&mut self, p: u16, parent: u16, depth: u16, tail: usize) -> usize {
        self.mark[p as usize] = self.stamp;
        self.parent[p as usize] = parent;
        self.depth[p as usize] = depth;
        self.queue[tail] = p;
        tail + 1
    }

    #[inline]
    fn seen(&self, p: u16) -> bool {
        self.mark[p as usize] == self.stamp
    }

    /// Whether `a` is a proper ancestor of `p` in the current tree.
    fn is_ancestor(&self, mut p: u16, a: u16) -> bool {
        while self.depth[p as usize] > 1 {
            p = self.parent[p as usize];
            if p == a {
                return true;
            }
        }
        false
    }

    /// Copies the tree path from the root to `p` into `path`, leaving room for `extra` (at
    /// most two) potentials after it; returns the length with the extra ones.
    fn path_to(&self, p: u16, path: &mut [u16; PATH], extra: usize) -> usize {
        let depth = self.depth[p as usize] as usize;
        let mut q = p;
        for i in (0..depth).rev() {
            path[i] = q;
            q = self.parent[q as usize];
        }
        depth + extra
    }

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
            for c in cells_of(b.open) {
                let n = b.cands[c].count_ones();
                if n < 2 || (pass == Pass::Y && n > 2) {
                    continue;
                }
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
        let (cycle_base, chain_base, sort) = pass.bases();
        let root_off = conjugate(root);
        let mut closing: Option<Closing> = None;
        let mut chain_at: Option<u16> = None;
        let mut want_chain = chain;
        let mut offs = [0u16; 32];
        let mut ons = [0u16; 4];
        let back = Back::new(links, root, rules);
        if !chain && !closure.may_close(links, root, back.offs(), rules.y) {
            return;
        }
        let mut tail = self.start(root);
        let mut head = 0;
        while head < tail {
            let p = self.queue[head];
            head += 1;
            let d = u32::from(self.depth[p as usize]);
            let bound = closing.as_ref().map_or(best.key, |c| c.key);
            let least = (d + if is_on(p) { 1 } else { 2 }).max(4);
            let cycles = Key::new(cycle_base, least, sort).before(&bound);
            want_chain &= Key::new(chain_base, least, sort).before(&bound);
            if !cycles && !want_chain {
                break;
            }
            if !is_on(p) {
                for &q in links.off_to_on(p, rules, &mut ons) {
                    if !self.seen(q) {
                        tail = self.visit(q, p, d as u16 + 1, tail);
                    }
                }
                continue;
            }
            for &x in links.on_to_off(p, rules.y, &mut offs) {
                if want_chain && x == root_off {
                    chain_at = Some(p);
                    want_chain = false;
                }
                if cycles && d >= 3 && back.has(x) {
                    let key = Key::new(cycle_base, d + 1, sort);
                    let bound = closing.as_ref().map_or(best.key, |c| c.key);
                    if key.before(&bound) && !self.is_ancestor(p, x) {
                        let mut elim = [0u128; 9];
                        if self.cycle_eliminations(b, root, p, x, &mut elim) {
                            closing = Some(Closing {
                                key,
                                on: p,
                                off: x,
                                elim,
                            });
                        }
                    }
                }
                if !self.seen(x) {
                    tail = self.visit(x, p, d as u16 + 1, tail);
                }
            }
        }
        self.keep(root, pass, closing, chain_at, best);
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
        let root_off = conjugate(root);
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
            let key = Key::new(chain_base, u32::from(self.depth[p as usize]) + 1, sort);
            if key.before(&best.key) {
                best.key = key;
                best.kind = Kind::Chain(pass);
                best.len = self.path_to(p, &mut best.path, 1);
                let len = best.len;
                best.path[len - 1] = root_off;
            }
        }
    }

    /// The search from "root off" for the chain to "root on".
    fn search_off(&mut self, links: &impl Links, root: u16, pass: Pass, best: &mut Best) {
        let rules = pass.rules();
        let (_, chain_base, sort) = pass.bases();
        let mut offs = [0u16; 32];
        let mut ons = [0u16; 4];
        let mut tail = self.start(conjugate(root));
        let mut head = 0;
        while head < tail {
            let p = self.queue[head];
            head += 1;
            let d = u32::from(self.depth[p as usize]);
            let least = (d + if is_on(p) { 2 } else { 1 }).max(4);
            if !Key::new(chain_base, least, sort).before(&best.key) {
                return;
            }
            if is_on(p) {
                for &x in links.on_to_off(p, rules.y, &mut offs) {
                    if !self.seen(x) {
                        tail = self.visit(x, p, d as u16 + 1, tail);
                    }
                }
                continue;
            }
            for &q in links.off_to_on(p, rules, &mut ons) {
                if q == root {
                    best.key = Key::new(chain_base, d + 1, sort);
                    best.kind = Kind::Chain(pass);
                    best.len = self.path_to(p, &mut best.path, 1);
                    let len = best.len;
                    best.path[len - 1] = root;
                    return;
                }
                if !self.seen(q) {
                    tail = self.visit(q, p, d as u16 + 1, tail);
                }
            }
        }
    }

    /// A cycle's eliminations: digits outside the loop's cells seeing an "on" and an "off"
    /// potential of theirs on the loop. Whether there is any.
    fn cycle_eliminations(
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
        let mut q = on;
        while self.depth[q as usize] > 1 {
            add(q);
            q = self.parent[q as usize];
        }
        let mut any = 0;
        for d in 0..9 {
            elim[d] = forward[d] & back[d] & b.planes[d] & !cells;
            any |= elim[d];
        }
        any != 0
    }
}

/// One hint of the producer on a grid an assumption reduced, for nested chains: SE's
/// `getHints` of `Chaining(false, false, false, 0)` on that grid.
#[derive(Clone, Copy)]
pub(crate) struct Nested {
    pub key: Key,
    /// Its place in SE's discovery order (SE's sort is stable).
    pub order: u32,
    /// The candidates it removes from the reduced grid.
    pub removals: CandSet,
    /// The candidates the assumption removed that it rests on (SE's `getRuleParents`).
    pub parents: CandSet,
    /// Its potentials, from the assumption on, as a fingerprint ([`fingerprint`]).
    pub chain: u64,
}

impl Nested {
    /// SE's order of a producer's hints: by [`Key::before`], then as discovered (SE's sort
    /// is stable).
    pub(crate) fn se_order(&self, other: &Nested) -> std::cmp::Ordering {
        if self.key.before(&other.key) {
            std::cmp::Ordering::Less
        } else if other.key.before(&self.key) {
            std::cmp::Ordering::Greater
        } else {
            self.order.cmp(&other.order)
        }
    }
}

impl Search {
    /// Every hint of the producer on `b`, a grid the assumptions of a dynamic propagation
    /// reduced from `src`, in discovery order, appended to `out`; a hint that removes
    /// nothing is left out. Nothing is cut: the solution tells nothing about a grid an
    /// assumption reduced, and SE keeps every hint (the first of those with the same
    /// removals, after the sort, is the one that counts).
    pub(crate) fn every_hint(&mut self, src: &Board, b: &Board, out: &mut Vec<Nested>) {
        for pass in Pass::ALL {
            for c in cells_of(b.open) {
                let n = b.cands[c].count_ones();
                if n < 2 || (pass == Pass::Y && n > 2) {
                    continue;
                }
                for d in digits_of(b.cands[c]) {
                    let root = potential(c, d, true);
                    self.every_from_on(src, b, root, pass, out);
                    if pass != Pass::Y {
                        self.every_from_off(src, b, root, pass, out);
                    }
                }
            }
        }
    }

    /// Every cycle back to "root on", then the chain to "root off" (SE's `doCycles`, then
    /// `doForcingChains` from "root on").
    fn every_from_on(
        &mut self,
        src: &Board,
        b: &Board,
        root: u16,
        pass: Pass,
        out: &mut Vec<Nested>,
    ) {
        let links = &Live(b);
        let rules = pass.rules();
        let (cycle_base, chain_base, sort) = pass.bases();
        let root_off = conjugate(root);
        let mut chain_at: Option<u16> = None;
        let mut offs = [0u16; 32];
        let mut ons = [0u16; 4];
        let back = Back::new(links, root, rules);
        let mut tail = self.start(root);
        let mut head = 0;
        while head < tail {
            let p = self.queue[head];
            head += 1;
            let d = u32::from(self.depth[p as usize]);
            if !is_on(p) {
                for &q in links.off_to_on(p, rules, &mut ons) {
                    if !self.seen(q) {
                        tail = self.visit(q, p, d as u16 + 1, tail);
                    }
                }
                continue;
            }
            for &x in links.on_to_off(p, rules.y, &mut offs) {
                if chain_base.is_finite() && chain_at.is_none() && x == root_off {
                    chain_at = Some(p);
                }
                if d >= 3 && back.has(x) && !self.is_ancestor(p, x) {
                    let mut elim = [0u128; 9];
                    if self.cycle_eliminations(b, root, p, x, &mut elim) {
                        let mut hint = nested(Key::new(cycle_base, d + 1, sort), out.len());
                        hint.chain = self.fingerprint(p, &[x, root]);
                        for (digit, &cells) in elim.iter().enumerate() {
                            hint.removals.add_cells(cells, digit);
                        }
                        // The loop read forwards (to "root on" again) and backwards: its
                        // "on" potentials rest on their links, and so do its "off" ones
                        // in the reversed loop, where they are "on".
                        self.path_parents(src, b, p, true, &mut hint.parents);
                        self.path_parents(src, b, p, false, &mut hint.parents);
                        on_parents(src, b, x, root, &mut hint.parents);
                        off_parents(src, b, p, x, &mut hint.parents);
                        out.push(hint);
                    }
                }
                if !self.seen(x) {
                    tail = self.visit(x, p, d as u16 + 1, tail);
                }
            }
        }
        if let Some(p) = chain_at {
            let depth = u32::from(self.depth[p as usize]);
            let mut hint = nested(Key::new(chain_base, depth + 1, sort), out.len());
            hint.chain = self.fingerprint(p, &[root_off]);
            hint.removals
                .add_cells(1u128 << cell_of(root), digit_of(root));
            self.path_parents(src, b, p, true, &mut hint.parents);
            out.push(hint);
        }
    }

    /// The chain from "root off" to "root on" (SE's `doForcingChains` from "root off").
    fn every_from_off(
        &mut self,
        src: &Board,
        b: &Board,
        root: u16,
        pass: Pass,
        out: &mut Vec<Nested>,
    ) {
        let links = &Live(b);
        let rules = pass.rules();
        let (_, chain_base, sort) = pass.bases();
        let mut offs = [0u16; 32];
        let mut ons = [0u16; 4];
        let mut tail = self.start(conjugate(root));
        let mut head = 0;
        while head < tail {
            let p = self.queue[head];
            head += 1;
            let d = u32::from(self.depth[p as usize]);
            if is_on(p) {
                for &x in links.on_to_off(p, rules.y, &mut offs) {
                    if !self.seen(x) {
                        tail = self.visit(x, p, d as u16 + 1, tail);
                    }
                }
                continue;
            }
            for &q in links.off_to_on(p, rules, &mut ons) {
                if q == root {
                    let mut hint = nested(Key::new(chain_base, d + 1, sort), out.len());
                    hint.chain = self.fingerprint(p, &[root]);
                    let c = cell_of(root);
                    let others = b.cands[c] & !(1 << digit_of(root));
                    for digit in digits_of(others) {
                        hint.removals.add_cells(1u128 << c, digit);
                    }
                    if others != 0 {
                        self.path_parents(src, b, p, true, &mut hint.parents);
                        on_parents(src, b, p, root, &mut hint.parents);
                        out.push(hint);
                    }
                    return;
                }
                if !self.seen(q) {
                    tail = self.visit(q, p, d as u16 + 1, tail);
                }
            }
        }
    }

    /// The fingerprint of the tree path from the root to `end`, then `extra`.
    fn fingerprint(&self, end: u16, extra: &[u16]) -> u64 {
        let mut path = [0u16; PATH];
        let n = self.path_to(end, &mut path, 0);
        let len = n + extra.len();
        path[n..len].copy_from_slice(extra);
        fingerprint(&path[..len])
    }

    /// Adds the rule parents of the `on` (or, if not `on`, the "off") potentials on the tree
    /// path from the root to `end`, each from the link from its tree parent (the root has
    /// none).
    fn path_parents(&self, src: &Board, b: &Board, end: u16, on: bool, set: &mut CandSet) {
        let mut q = end;
        while self.depth[q as usize] > 1 {
            let parent = self.parent[q as usize];
            if is_on(q) == on {
                if on {
                    on_parents(src, b, parent, q, set);
                } else {
                    off_parents(src, b, parent, q, set);
                }
            }
            q = parent;
        }
    }
}

/// A hint with nothing in it yet.
pub(crate) fn nested(key: Key, order: usize) -> Nested {
    Nested {
        key,
        order: order as u32,
        removals: CandSet::EMPTY,
        parents: CandSet::EMPTY,
        chain: 0,
    }
}

/// What a hint concluding `p` removes from `b`: an "on" conclusion its cell's other
/// candidates, an "off" one its own candidate; none when that is nothing (SE's `isWorth`).
pub(crate) fn conclusion_removals(b: &Board, p: u16) -> Option<CandSet> {
    let (c, d) = (cell_of(p), digit_of(p));
    let mut removals = CandSet::EMPTY;
    let digits = if is_on(p) {
        b.cands[c] & !(1 << d)
    } else {
        1 << d
    };
    if digits == 0 {
        return None;
    }
    removals.add_digits(c, digits);
    Some(removals)
}

/// The candidates `src` had and `b` lost that the link from "off" `from` to "on" `to`
/// rests on (SE's cause of `to` and `collectRuleParents`): `to`'s cell's if the link is in
/// the cell, else the digit's places in the first of `from`'s block, row and column through
/// `to` where it has two.
pub(crate) fn on_parents(src: &Board, b: &Board, from: u16, to: u16, set: &mut CandSet) {
    let (fc, tc, d) = (cell_of(from), cell_of(to), digit_of(to));
    if fc == tc {
        set.add_digits(tc, src.cands[tc] & !b.cands[tc]);
        return;
    }
    for &h in &CELL_HOUSES[fc] {
        let m = HOUSE_MASK[h as usize];
        if m >> tc & 1 == 1 && two_cells(b.planes[d] & m) {
            set.add_cells(src.planes[d] & !b.planes[d] & m, d);
            return;
        }
    }
}

/// As [`on_parents`], for "off" `to` reached from "on" `from`, read backwards (a reversed
/// cycle, where `to` is "on"): the cell's lost candidates if the link is in the cell, else
/// the digit's lost places in the first of `from`'s block, row and column through `to`.
fn off_parents(src: &Board, b: &Board, from: u16, to: u16, set: &mut CandSet) {
    let (fc, tc, d) = (cell_of(from), cell_of(to), digit_of(to));
    if fc == tc {
        set.add_digits(tc, src.cands[tc] & !b.cands[tc]);
        return;
    }
    for &h in &CELL_HOUSES[fc] {
        let m = HOUSE_MASK[h as usize];
        if m >> tc & 1 == 1 {
            set.add_cells(src.planes[d] & !b.planes[d] & m, d);
            return;
        }
    }
}
