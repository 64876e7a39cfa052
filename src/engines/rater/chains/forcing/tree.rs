//! The breadth-first search of "Forcing Chains & Cycles" ([`super`]), written once: a tree
//! of potentials from one root, each given its parent when first reached, grown in SE's
//! order ("on" potentials expand by their weak links, "off" ones by their strong links, in
//! the order [`links`](crate::engines::rater::chains::shared::links) lists them). What a
//! search looks for (cycles, a chain to the root's negation, every hint for nested chains)
//! is a [`Visit`]: told of each potential before its expansion and of each link out of it,
//! it may end the search there. [`Search::walk`] is generic over both, so each search is
//! compiled as one loop.
//!
//! Layer: the producer's own, over [`shared`](crate::engines::rater::chains::shared); the
//! nested half ([`nested`](crate::engines::rater::chains::nested)) walks it too.

use crate::engines::rater::chains::shared::links::{is_on, Links, Rules, POTENTIALS};

/// Longest chain: a tree path holds each potential at most once, and a cycle adds two.
pub(crate) const PATH: usize = POTENTIALS + 2;

/// What one search does as [`Search::walk`] grows its tree; each method says whether the
/// search goes on (by default it does, and does nothing else).
pub(crate) trait Visit {
    /// Potential `p`, at `depth` (the root 1), is about to be expanded.
    #[inline]
    fn expand(&mut self, _tree: &Search, _p: u16, _depth: u32) -> bool {
        true
    }

    /// "On" potential `p` (at `depth`) links to "off" `x`, which joins the tree after this
    /// unless it is in already.
    #[inline]
    fn on_link(&mut self, _tree: &Search, _p: u16, _x: u16, _depth: u32) -> bool {
        true
    }

    /// "Off" potential `p` (at `depth`) links to "on" `q`, which joins the tree after this
    /// unless it is in already.
    #[inline]
    fn off_link(&mut self, _tree: &Search, _p: u16, _q: u16, _depth: u32) -> bool {
        true
    }
}

/// Breadth-first search scratch over the potentials, and the tree of the last search.
pub(crate) struct Search {
    stamp: u32,
    mark: [u32; POTENTIALS],
    parent: [u16; POTENTIALS],
    depth: [u16; POTENTIALS],
    queue: [u16; POTENTIALS],
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

    /// Grows the tree of `root` over `links` under `rules`, breadth first, telling `visit`
    /// of each potential and link as it goes, until it is done or `visit` ends it.
    #[inline]
    pub(crate) fn walk(
        &mut self,
        links: &impl Links,
        rules: Rules,
        root: u16,
        visit: &mut impl Visit,
    ) {
        let mut offs = [0u16; 32];
        let mut ons = [0u16; 4];
        let mut tail = self.start(root);
        let mut head = 0;
        while head < tail {
            let p = self.queue[head];
            head += 1;
            let d = u32::from(self.depth[p as usize]);
            if !visit.expand(self, p, d) {
                return;
            }
            if is_on(p) {
                for &x in links.on_to_off(p, rules.y, &mut offs) {
                    if !visit.on_link(self, p, x, d) {
                        return;
                    }
                    if !self.seen(x) {
                        tail = self.visit(x, p, d as u16 + 1, tail);
                    }
                }
            } else {
                for &q in links.off_to_on(p, rules, &mut ons) {
                    if !visit.off_link(self, p, q, d) {
                        return;
                    }
                    if !self.seen(q) {
                        tail = self.visit(q, p, d as u16 + 1, tail);
                    }
                }
            }
        }
    }

    /// Starts a tree at `root`; the queue's length.
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

    /// The depth of `p` in the tree (the root 1).
    #[inline]
    pub(crate) fn depth(&self, p: u16) -> u32 {
        u32::from(self.depth[p as usize])
    }

    /// `p` and its ancestors up to the root's child (the root left out), nearest first;
    /// each with its parent.
    #[inline]
    pub(crate) fn up(&self, p: u16) -> impl Iterator<Item = (u16, u16)> + '_ {
        let mut q = p;
        std::iter::from_fn(move || {
            (self.depth[q as usize] > 1).then(|| {
                let parent = self.parent[q as usize];
                let step = (q, parent);
                q = parent;
                step
            })
        })
    }

    /// Whether `a` is a proper ancestor of `p` in the tree.
    pub(crate) fn is_ancestor(&self, p: u16, a: u16) -> bool {
        self.up(p).any(|(_, parent)| parent == a)
    }

    /// Copies the tree path from the root to `p` into `path`, leaving room for `extra` (at
    /// most two) potentials after it; returns the length with the extra ones.
    pub(crate) fn path_to(&self, p: u16, path: &mut [u16; PATH], extra: usize) -> usize {
        let depth = self.depth[p as usize] as usize;
        let mut q = p;
        for i in (0..depth).rev() {
            path[i] = q;
            q = self.parent[q as usize];
        }
        depth + extra
    }
}
