//! What one propagation implied, and SE's queue over it: the potentials in the order found
//! and as a set ([`PotSet`]). SE's `doChaining` expands pending "on" potentials before
//! pending "off" ones, each kind first in, first out; both queues are the one list read by
//! two cursors ([`Queue`], [`Trail::next`]), since every potential implied is pending once.
//!
//! Layer: shared, under the static propagations of multiple forcing chains
//! ([`multiple`](super::super::multiple)) and the dynamic ones
//! ([`dynamic`](super::super::dynamic)).

use super::bits::PotSet;
use super::links::{is_on, POTENTIALS};

/// The potentials a propagation implied, in order and as a set.
pub(crate) struct Trail {
    set: PotSet,
    order: [u16; POTENTIALS],
    len: usize,
}

/// SE's two queues over a [`Trail`]: where the next pending "on" and the next pending
/// "off" potential are looked for. A local of the propagation's loop, not a field of the
/// trail, so that the cursors stay in registers (as fields they cost 0.7% of the rating
/// time of top1465 puzzles, measured 2026-12-06).
#[derive(Default)]
pub(crate) struct Queue {
    on: usize,
    off: usize,
}

impl Trail {
    pub(crate) const fn new() -> Trail {
        Trail {
            set: PotSet::EMPTY,
            order: [0; POTENTIALS],
            len: 0,
        }
    }

    /// Forgets the last propagation (only the set's words it used are cleared).
    #[inline]
    pub(crate) fn clear(&mut self) {
        for &p in &self.order[..self.len] {
            self.set.clear_word_of(p);
        }
        self.len = 0;
    }

    /// Whether `p` was implied.
    #[inline]
    pub(crate) fn has(&self, p: u16) -> bool {
        self.set.has(p)
    }

    /// Adds `p`, implied now (and pending).
    #[inline]
    pub(crate) fn push(&mut self, p: u16) {
        self.set.insert(p);
        self.order[self.len] = p;
        self.len += 1;
    }

    /// The potentials implied, in the order found.
    #[inline]
    pub(crate) fn found(&self) -> &[u16] {
        &self.order[..self.len]
    }

    /// The potentials implied, as a set.
    #[inline]
    pub(crate) fn set(&self) -> &PotSet {
        &self.set
    }

    /// The next potential to expand, in SE's order: the first pending "on" one, else the
    /// first pending "off" one, `queue` moved past it; `None` when none is pending
    /// (potentials pushed after that are pending again).
    #[inline]
    pub(crate) fn next(&self, queue: &mut Queue) -> Option<u16> {
        while queue.on < self.len && !is_on(self.order[queue.on]) {
            queue.on += 1;
        }
        if queue.on < self.len {
            queue.on += 1;
            return Some(self.order[queue.on - 1]);
        }
        while queue.off < self.len && is_on(self.order[queue.off]) {
            queue.off += 1;
        }
        if queue.off < self.len {
            queue.off += 1;
            return Some(self.order[queue.off - 1]);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::rater::chains::shared::links::potential;

    #[test]
    fn on_potentials_come_first_each_kind_in_order() {
        let mut t = Trail::new();
        let mut q = Queue::default();
        let (a, b, c) = (
            potential(0, 0, true),
            potential(1, 0, false),
            potential(2, 0, true),
        );
        t.push(b);
        t.push(a);
        assert_eq!(t.next(&mut q), Some(a));
        t.push(c);
        assert_eq!(
            (t.next(&mut q), t.next(&mut q), t.next(&mut q)),
            (Some(c), Some(b), None)
        );
        let d = potential(3, 1, false);
        t.push(d);
        assert_eq!((t.next(&mut q), t.next(&mut q)), (Some(d), None));
        assert_eq!(t.found(), &[b, a, c, d]);
        t.clear();
        let mut q = Queue::default();
        assert!(!t.has(a) && t.found().is_empty() && t.next(&mut q).is_none());
    }
}
