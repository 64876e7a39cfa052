//! The nested chains an outer hint rests on, counted once each: from nested forcing chains
//! of level 2 on, a hint's complexity adds that of every nested chain its propagations
//! used, and SE counts one once per hint (its `FullChain`s) even when two branches of the
//! hint found it. A nested chain is known by a fingerprint of its potentials ([`fingerprint`]
//! in order, [`mix`] summed for a set); [`NestSet`] holds those counted so far.
//!
//! Bookkeeping under every producer that can rest on nested chains (cell and region forcing
//! chains, dynamic forcing chains); the nested producers themselves are in
//! [`nested`](super::super::nested).

/// The nodes of sets of nested chains: (fingerprint, place + 1 of the set's next node, 0 at
/// its end). Sets built together share one arena, cleared with them.
pub(crate) type NestNodes = Vec<(u64, u32)>;

/// The nested chains an outer hint rests on, by fingerprint, so that each counts once
/// (a level-3 hint of forum_hardest_1106 rests on up to a hundred): a list in an arena.
pub(crate) struct NestSet<'a> {
    nodes: &'a mut NestNodes,
    head: &'a mut u32,
}

impl<'a> NestSet<'a> {
    /// The set whose first node is `head` (0: empty) in `nodes`.
    pub(crate) fn new(nodes: &'a mut NestNodes, head: &'a mut u32) -> NestSet<'a> {
        NestSet { nodes, head }
    }

    /// Adds `chain`; whether it was not in yet.
    #[inline]
    pub(crate) fn insert(&mut self, chain: u64) -> bool {
        let mut i = *self.head;
        while i != 0 {
            let (c, next) = self.nodes[i as usize - 1];
            if c == chain {
                return false;
            }
            i = next;
        }
        self.nodes.push((chain, *self.head));
        *self.head = self.nodes.len() as u32;
        true
    }
}

/// A fingerprint of a chain: its potentials in order.
pub(crate) fn fingerprint(path: &[u16]) -> u64 {
    path.iter().fold(0x51_7cc1_b727_220a, |h, &p| {
        (h ^ u64::from(p))
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(31)
    })
}

/// A potential spread over 64 bits, for fingerprints of sets of potentials.
#[inline]
pub(crate) fn mix(p: u16) -> u64 {
    (u64::from(p) + 1)
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .rotate_left(23)
        .wrapping_mul(0xbf58_476d_1ce4_e5b9)
}
