//! Cell and region forcing chains over the propagations of one cell's digits, shared by
//! multiple forcing chains (static propagations: a potential's complexity is its depth) and
//! dynamic forcing chains (dynamic ones: its distinct ancestors).
//!
//! A region forcing chain starts from digit `v` of cell `c` in each house of `c` where `v`
//! has two places or more and `c` is the first: every other place is assumed "v on" too,
//! and a potential implied by every place is a conclusion (in the order `c`'s own
//! propagation found it, "on" ones first), its complexity the sum over the places. A cell
//! forcing chain, once every digit of `c` is done, concludes a potential implied by every
//! digit of `c` (in the order the first digit's propagation found it, "on" first).

use super::key::{self, offer};
use super::links::{is_on, potential, POTENTIALS};
use super::nested::{NestNodes, NestSet};
use crate::rate::board::{digits_of, Board, CELL_HOUSES, CELL_INDEX, HOUSE_CELLS};

const WORDS: usize = POTENTIALS.div_ceil(64);

/// What cell and region forcing chains need of one propagation from an assumption.
pub(crate) trait Propagation {
    /// Scratch shared by the propagations of one producer.
    type Scratch;
    /// Propagate from `root` (an "on" potential), forgetting the last propagation.
    fn propagate(&mut self, b: &Board, root: u16, scratch: &mut Self::Scratch);
    /// The potentials implied, in the order found.
    fn found(&self) -> &[u16];
    /// The implied potentials as a set, a bit each.
    fn set(&self) -> &[u64; WORDS];
    /// The complexity implied potential `p` adds to a hint whose other chains rest on the
    /// nested chains of `nested` (those `p` rests on are added to it; each counts once).
    fn complexity(&self, p: u16, nested: &mut NestSet<'_>) -> u32;

    /// Whether `p` is implied.
    #[inline]
    fn has(&self, p: u16) -> bool {
        self.set()[p as usize >> 6] >> (p & 63) & 1 != 0
    }
}

/// Scratch: one propagation per digit of the current cell, one for the other places of a
/// house, the running intersection of a house and the complexities summed over it.
pub(crate) struct CellRegion<I> {
    pub(crate) per_digit: Vec<I>,
    pub(crate) other: Box<I>,
    common: [u64; WORDS],
    sum: [u32; POTENTIALS],
    /// The nested chains counted in `sum`: the first node of each potential's set (empty
    /// where nothing nests), and the sets' nodes.
    heads: Vec<u32>,
    nodes: NestNodes,
}

/// Nodes reserved for the sets of nested chains of one house's or cell's hints (more grow
/// the room once, for the rater's life).
const NODES: usize = 1 << 14;

impl<I: Propagation> CellRegion<I> {
    /// Scratch of propagations made by `make` (built one by one: each is large); `nests`:
    /// whether they can rest on nested chains.
    pub(crate) fn new(make: impl Fn() -> I, nests: bool) -> CellRegion<I> {
        CellRegion {
            per_digit: (0..9).map(|_| make()).collect(),
            other: Box::new(make()),
            common: [0; WORDS],
            sum: [0; POTENTIALS],
            heads: vec![0; if nests { POTENTIALS } else { 0 }],
            nodes: Vec::with_capacity(if nests { NODES } else { 0 }),
        }
    }

    /// Region forcing chains from digit `v` of cell `c` (its propagation done, in
    /// `per_digit[v]`), rated `base`; `kind(house, digit)` tells them apart.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn regions<K>(
        &mut self,
        b: &Board,
        scratch: &mut I::Scratch,
        (c, v): (usize, usize),
        (base, sort): (f64, u8),
        kind: impl Fn(u8, u8) -> K,
        best: &mut Option<key::Found<K>>,
    ) {
        for (k, &h) in CELL_HOUSES[c].iter().enumerate() {
            let h = h as usize;
            let positions = b.pos[h][v];
            if positions.count_ones() < 2 || positions.trailing_zeros() != CELL_INDEX[c][k] as u32 {
                continue;
            }
            self.common = *self.per_digit[v].set();
            let mut rest = positions & (positions - 1);
            let mut first = true;
            while rest != 0 {
                let i = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let o = HOUSE_CELLS[h][i] as usize;
                self.other.propagate(b, potential(o, v, true), scratch);
                for w in 0..WORDS {
                    self.common[w] &= self.other.set()[w];
                }
                let own = &self.per_digit[v];
                if first {
                    self.nodes.clear();
                }
                // Where nothing nests, one empty set for all (no chain ever goes into it).
                let mut none = 0;
                for &p in own.found() {
                    if self.common[p as usize >> 6] >> (p & 63) & 1 != 0 {
                        let head = self.heads.get_mut(p as usize).unwrap_or(&mut none);
                        if first {
                            *head = 0;
                        }
                        let mut nests = NestSet::new(&mut self.nodes, head);
                        if first {
                            self.sum[p as usize] = own.complexity(p, &mut nests);
                        }
                        self.sum[p as usize] += self.other.complexity(p, &mut nests);
                    }
                }
                first = false;
            }
            let own = &self.per_digit[v];
            for on in [true, false] {
                for &p in own.found() {
                    if is_on(p) == on && self.common[p as usize >> 6] >> (p & 63) & 1 != 0 {
                        let kind = kind(h as u8, v as u8);
                        offer(b, base, p, self.sum[p as usize], sort, c, kind, best);
                    }
                }
            }
        }
    }

    /// Cell forcing chains from all digits of cell `c` (their propagations done), rated
    /// `base`, of `kind`.
    pub(crate) fn cell<K: Copy>(
        &mut self,
        b: &Board,
        c: usize,
        (base, sort): (f64, u8),
        kind: K,
        best: &mut Option<key::Found<K>>,
    ) {
        let cands = b.cands[c];
        let own = &self.per_digit[cands.trailing_zeros() as usize];
        for on in [true, false] {
            for &p in own.found() {
                if is_on(p) != on || !digits_of(cands).all(|v| self.per_digit[v].has(p)) {
                    continue;
                }
                self.nodes.clear();
                let mut head = 0;
                let mut nests = NestSet::new(&mut self.nodes, &mut head);
                let cx = digits_of(cands)
                    .map(|v| self.per_digit[v].complexity(p, &mut nests))
                    .sum();
                offer(b, base, p, cx, sort, c, kind, best);
            }
        }
    }
}
