//! What each potential can reach in the step's static graph (both rules of
//! [`links`](super::links)), for all potentials at once: a superset of what any static search
//! from it finds, so a search whose superset holds no conclusion can be left out.
//!
//! The graph's strongly connected components (Tarjan's algorithm, iterative) come out sinks
//! first, so each component's reach is its own potentials and the reach of the components
//! its edges lead to, all known by then: one pass over the edges, a bit set per component
//! (over the board's potentials only, numbered densely).
//!
//! What uses it:
//! - "Forcing Chains & Cycles" ([`forcing`](super::super::forcing)): the X and Y passes walk
//!   subgraphs of this one, so their searches reach less. A search from "s on" finds a
//!   chain only if "s off" is reachable, and closes a cycle only if an "on" potential other
//!   than the start that it reaches links to an "off" potential that links strongly back to
//!   the start; a search from "s off" finds a chain only if "s on" is reachable.
//! - Multiple forcing chains ([`multiple`](super::super::multiple)): a propagation implies a subset
//!   of its reach (it stops at a clash), so a cell or region forcing chain concludes only
//!   potentials in the intersection of its assumptions' reaches.
//!
//! Layer: shared, over [`links`](super::links) and [`bits`](super::bits): read by the static
//! producers.

use super::bits::{has_in, insert_in, intersect_in, union_in};
use super::links::{conjugate, is_on, Graph, Links, Rules, POTENTIALS};
use crate::engines::rater::board::{cells_of, digits_of, Board};

/// No dense number (the potential's candidate is not on the board).
const NONE: u16 = u16::MAX;
/// Most words of one bit set (every potential of the grid).
const MAX_WORDS: usize = POTENTIALS.div_ceil(64);

/// Reach sets of the step's potentials, and the scratch that builds them (reserved once).
pub(crate) struct Closure {
    /// Dense number of each potential on the board, or [`NONE`].
    index: [u16; POTENTIALS],
    /// The potential of each dense number.
    nodes: Vec<u16>,
    /// Words of one bit set.
    words: usize,
    /// Component of each dense number.
    comp: Vec<u16>,
    /// Each component's reach, `words` words each.
    reach: Vec<u64>,
    // Tarjan's scratch, by dense number: visit order (0: not yet), lowest reachable order,
    // whether on the component stack; the stack; the call stack (node, next edge); the
    // next visit's order, the components completed.
    order: Vec<u16>,
    low: Vec<u16>,
    on_stack: Vec<bool>,
    stack: Vec<u16>,
    calls: Vec<(u16, u16)>,
    next: u16,
    comps: u16,
}

/// Both rules: the graph of the XY pass and of multiple forcing chains.
const XY: Rules = Rules { x: true, y: true };

impl Closure {
    pub(crate) fn new() -> Box<Closure> {
        Box::new(Closure {
            index: [NONE; POTENTIALS],
            nodes: Vec::with_capacity(POTENTIALS),
            words: 0,
            comp: Vec::with_capacity(POTENTIALS),
            reach: Vec::with_capacity(POTENTIALS * MAX_WORDS),
            order: Vec::with_capacity(POTENTIALS),
            low: Vec::with_capacity(POTENTIALS),
            on_stack: Vec::with_capacity(POTENTIALS),
            stack: Vec::with_capacity(POTENTIALS),
            calls: Vec::with_capacity(POTENTIALS),
            next: 1,
            comps: 0,
        })
    }

    /// The reach of every potential of `b`, whose links `graph` lists.
    pub(crate) fn load(&mut self, b: &Board, graph: &Graph) {
        self.number(b);
        self.next = 1;
        self.comps = 0;
        for start in 0..self.nodes.len() as u16 {
            if self.order[start as usize] == 0 {
                self.enter(start);
                self.walk(graph);
            }
        }
    }

    /// Numbers the potentials of `b` densely, and makes the scratch as long.
    fn number(&mut self, b: &Board) {
        for &p in &self.nodes {
            self.index[p as usize] = NONE;
        }
        self.nodes.clear();
        for c in cells_of(b.open) {
            for d in digits_of(b.cands[c]) {
                let off = super::links::potential(c, d, false);
                for p in [off, conjugate(off)] {
                    self.index[p as usize] = self.nodes.len() as u16;
                    self.nodes.push(p);
                }
            }
        }
        let n = self.nodes.len();
        self.words = n.div_ceil(64).max(1);
        self.comp.clear();
        self.comp.resize(n, 0);
        self.order.clear();
        self.order.resize(n, 0);
        self.low.clear();
        self.low.resize(n, 0);
        self.on_stack.clear();
        self.on_stack.resize(n, false);
        self.reach.clear();
    }

    /// Tarjan's depth-first walk from the dense number just entered, until its calls are
    /// done; each component it completes gets its reach.
    fn walk(&mut self, graph: &Graph) {
        let mut out32 = [0u16; 32];
        let mut out4 = [0u16; 4];
        'calls: while let Some(&(v, edge)) = self.calls.last() {
            let p = self.nodes[v as usize];
            let succ = edges(graph, p, &mut out32, &mut out4);
            for (e, &q) in succ.iter().enumerate().skip(edge as usize) {
                let w = self.index[q as usize];
                if self.order[w as usize] == 0 {
                    // Back to `v` at its next edge once `w` is done.
                    self.calls.last_mut().expect("a call").1 = e as u16 + 1;
                    self.enter(w);
                    continue 'calls;
                }
                if self.on_stack[w as usize] {
                    self.low[v as usize] = self.low[v as usize].min(self.order[w as usize]);
                }
            }
            self.calls.pop();
            if let Some(&(u, _)) = self.calls.last() {
                self.low[u as usize] = self.low[u as usize].min(self.low[v as usize]);
            }
            if self.low[v as usize] == self.order[v as usize] {
                self.complete(graph, v);
            }
        }
    }

    /// Completes the component `v` roots (its members are on the stack down to `v`): its
    /// reach is its members and the reach of each component its edges lead to.
    fn complete(&mut self, graph: &Graph, v: u16) {
        let from = self
            .stack
            .iter()
            .rposition(|&x| x == v)
            .expect("on the stack");
        let base = self.reach.len();
        self.reach.resize(base + self.words, 0);
        for i in from..self.stack.len() {
            let x = self.stack[i];
            self.on_stack[x as usize] = false;
            self.comp[x as usize] = self.comps;
            insert_in(&mut self.reach[base..], x as usize);
        }
        let mut out32 = [0u16; 32];
        let mut out4 = [0u16; 4];
        for i in from..self.stack.len() {
            let p = self.nodes[self.stack[i] as usize];
            // Every edge leads into the component or into one completed before it.
            for &q in edges(graph, p, &mut out32, &mut out4) {
                let w = self.index[q as usize];
                let other = self.comp[w as usize] as usize * self.words;
                if other == base {
                    continue;
                }
                // Completed before: its row lies below this one.
                let (done, row) = self.reach.split_at_mut(base);
                union_in(row, &done[other..other + self.words]);
            }
        }
        self.stack.truncate(from);
        self.comps += 1;
    }

    /// Tarjan's visit of dense number `v`, numbered `next` (then moved on).
    #[inline]
    fn enter(&mut self, v: u16) {
        self.order[v as usize] = self.next;
        self.low[v as usize] = self.next;
        self.next += 1;
        self.stack.push(v);
        self.on_stack[v as usize] = true;
        self.calls.push((v, 0));
    }

    /// The reach of potential `p` (on the board), as a bit set over the dense numbers.
    #[inline]
    fn set(&self, p: u16) -> &[u64] {
        let at = self.comp[self.index[p as usize] as usize] as usize * self.words;
        &self.reach[at..at + self.words]
    }

    /// Whether `to` is reachable from `from` (both on the board).
    #[inline]
    pub(crate) fn reaches(&self, from: u16, to: u16) -> bool {
        let i = self.index[to as usize] as usize;
        has_in(self.set(from), i)
    }

    /// Whether a search from "on" potential `root` may close a cycle back to it: some "on"
    /// potential it reaches, other than itself, links (weakly, inside cells too when `y`)
    /// to one of the "off" potentials in `back` (those linking strongly back to the root).
    pub(crate) fn may_close(&self, links: &impl Links, root: u16, back: &[u16], y: bool) -> bool {
        let set = self.set(root);
        let mut out32 = [0u16; 32];
        back.iter().any(|&x| {
            // The "on" potentials linking weakly to "x off" are the conjugates of those
            // "x on" turns off (the weak links go both ways).
            links
                .on_to_off(conjugate(x), y, &mut out32)
                .iter()
                .any(|&y| {
                    let on = conjugate(y);
                    let i = self.index[on as usize] as usize;
                    on != root && has_in(set, i)
                })
        })
    }

    /// Whether `from` (on the board) reaches a potential and its conjugate: whether a
    /// static propagation from it clashes (it stops there; without a clash it implies its
    /// whole reach).
    pub(crate) fn clashes(&self, from: u16) -> bool {
        // Each candidate's "off" and "on" have dense numbers 2k and 2k + 1.
        const EVEN: u64 = 0x5555_5555_5555_5555;
        self.set(from).iter().any(|&w| w & (w >> 1) & EVEN != 0)
    }

    /// Whether the reaches of all of `from` (on the board) share a potential.
    pub(crate) fn meet(&self, from: impl Iterator<Item = u16>) -> bool {
        let mut common = [!0u64; MAX_WORDS];
        for p in from {
            if !intersect_in(&mut common[..self.words], self.set(p)) {
                return false;
            }
        }
        true
    }
}

/// The static links out of `p` with both rules, in either buffer.
#[inline]
fn edges<'s>(
    graph: &'s Graph,
    p: u16,
    out32: &'s mut [u16; 32],
    out4: &'s mut [u16; 4],
) -> &'s [u16] {
    if is_on(p) {
        graph.on_to_off(p, true, out32)
    } else {
        graph.off_to_on(p, XY, out4)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::rater::board::CELLS;

    /// What a breadth-first walk of `graph` from `root` reaches, a bit per potential.
    fn walk(graph: &Graph, root: u16) -> Vec<bool> {
        let mut seen = vec![false; POTENTIALS];
        let mut queue = vec![root];
        seen[root as usize] = true;
        let (mut out32, mut out4) = ([0u16; 32], [0u16; 4]);
        while let Some(p) = queue.pop() {
            for &q in edges(graph, p, &mut out32, &mut out4) {
                if !seen[q as usize] {
                    seen[q as usize] = true;
                    queue.push(q);
                }
            }
        }
        seen
    }

    #[test]
    fn reach_is_what_a_walk_finds() {
        // Hard puzzles (magictour top1465), with and without a few candidates removed.
        let puzzles = [
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
            "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
            "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........",
        ];
        for (n, puzzle) in puzzles.iter().enumerate() {
            let mut cells = [0u8; CELLS];
            for (c, ch) in puzzle.bytes().enumerate() {
                cells[c] = if ch == b'.' { 0 } else { ch - b'0' };
            }
            let mut b = Board::blank();
            b.load(&cells);
            if n == 2 {
                // Fewer candidates: more strong links, larger components.
                for c in cells_of(b.open).step_by(3) {
                    let keep = b.cands[c] & b.cands[c].wrapping_neg();
                    let lose = b.cands[c] & !keep & !(keep << 1);
                    for d in digits_of(lose) {
                        b.remove(c, d);
                    }
                }
            }
            let mut graph = Graph::new();
            graph.load(&b);
            let mut closure = Closure::new();
            closure.load(&b, &graph);
            let mut pairs = 0;
            for &from in &closure.nodes {
                let seen = walk(&graph, from);
                for &to in &closure.nodes {
                    let reached = seen[to as usize];
                    assert_eq!(closure.reaches(from, to), reached, "{n}: {from} -> {to}");
                    pairs += usize::from(reached);
                }
            }
            assert!(
                pairs > closure.nodes.len(),
                "{n}: some potential reaches another"
            );
        }
    }
}
