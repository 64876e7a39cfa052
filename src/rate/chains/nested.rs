//! Nested forcing chains, level 2 (9.5 + length bonus, SE's `Chaining(true, true, false,
//! 2)`, "(+ Forcing Chains)"): dynamic forcing chains (+) whose propagations, when the
//! links run dry and none of the four basic rules of [`plus`](super::plus) has a hint
//! resting on the assumption's removals, run SE's first chaining producer ("Forcing Chains
//! & Cycles", [`forcing`](super::forcing)) on the grid the assumption has reduced.
//!
//! As SE's `getAdvancedPotentials` does with that producer's `getHints`: every hint of it
//! is gathered (the X pass, the Y pass, the XY pass; cells row by row, digits in order; a
//! start's cycles, then its chain from "on", then its chain from "off"), sorted by
//! (difficulty, complexity, sort key) keeping the discovery order among equals, and of the
//! hints with the same removals only the first is kept. Each kept hint with rule parents
//! (the candidates the assumption removed that its links need gone: a bivalue cell's lost
//! candidates, a two-place house's lost places; see [`Search::every_hint`]) turns its
//! removals "off", with those as parents; its complexity is added once to that of any
//! outer hint that rests on it (SE's `getNestedComplexity`).
//!
//! Level 3 (10.0 + length bonus, `Chaining(true, true, false, 3)`, "(+ Multiple Forcing
//! Chains)") goes one rule further: when no hint of "Forcing Chains & Cycles" rests on the
//! removals, SE's static multiple forcing chains run on the reduced grid
//! ([`Every`](super::multiple::Every): for each cell of three candidates or more, for each
//! digit, its region forcing chains, then the cell's), sorted and deduplicated alike. A cell
//! hint's rule parents are also the cell's lost candidates (SE takes the assumptions for
//! the cell's naked single), a region hint's the house's lost places of the digit (its
//! hidden single).
//!
//! A nested chain is known by a fingerprint of its potentials in order ([`NestSet`]): SE
//! counts one once per outer hint (its `FullChain`s), even when two branches of the hint
//! (two propagations) each found it.

use super::forcing::{Nested, Search};
use super::multiple::Every;
use super::plus::CandSet;
use crate::rate::board::{Board, CELLS, HOUSE_CELLS};

/// Most hints one reduced grid is expected to give: room reserved once, so that the search
/// allocates nothing (more would grow the vectors; the most seen on forum_hardest_1106 is
/// 241).
const ROOM: usize = 1024;

/// Scratch of the nested producers' searches; one per dynamic producer.
pub(crate) struct Nest {
    /// 2: SE's first chaining producer nests; 3: multiple forcing chains too.
    level: u8,
    search: Search,
    every: Option<Box<Every>>,
    board: Board,
    hints: Vec<Nested>,
    /// (hash of the removals, place in the sorted hints).
    keyed: Vec<(u64, u32)>,
    dropped: Vec<bool>,
}

impl Nest {
    /// Scratch of the producers nested at `level` (room reserved only from level 2: below,
    /// nothing nests).
    pub(crate) fn new(level: u8) -> Box<Nest> {
        let n = if level >= 2 { ROOM } else { 0 };
        Box::new(Nest {
            level,
            search: Search::new(),
            every: (level >= 3).then(Every::new),
            board: Board::blank(),
            hints: Vec::with_capacity(n),
            keyed: Vec::with_capacity(n),
            dropped: Vec::with_capacity(n),
        })
    }

    /// Nest as level `level` does (2 or 3; the scratch of level 3 is made at `new` or never).
    pub(crate) fn set_level(&mut self, level: u8) {
        self.level = level;
    }

    /// The hints SE's nested producers give on `src` reduced to (`cands`, `planes`) that
    /// rest on the reduction, in SE's order: those of "Forcing Chains & Cycles", or if none
    /// of them does (level 3), those of multiple forcing chains; `emit(parents, removals,
    /// complexity, fingerprint)` for each. Whether there was one.
    pub(crate) fn hints(
        &mut self,
        src: &Board,
        cands: &[u16; CELLS],
        planes: &[u128; 9],
        emit: &mut dyn FnMut(&CandSet, &CandSet, u32, u64),
    ) -> bool {
        let b = &mut self.board;
        b.cands = *cands;
        b.planes = *planes;
        b.open = src.open;
        for (h, cells) in HOUSE_CELLS.iter().enumerate() {
            for (d, plane) in planes.iter().enumerate() {
                let mut m = 0u16;
                for (i, &c) in cells.iter().enumerate() {
                    m |= ((plane >> c) & 1) as u16 * (1 << i);
                }
                b.pos[h][d] = m;
            }
        }
        self.hints.clear();
        self.search.every_hint(src, &self.board, &mut self.hints);
        if self.emit(emit) {
            return true;
        }
        let Some(every) = self.every.as_mut().filter(|_| self.level >= 3) else {
            return false;
        };
        self.hints.clear();
        every.hints(src, &self.board, &mut self.hints);
        self.emit(emit)
    }

    /// Sorts one producer's hints as SE does, keeps the first of those with the same
    /// removals, and emits those that rest on the reduction; whether there was one.
    fn emit(&mut self, emit: &mut dyn FnMut(&CandSet, &CandSet, u32, u64)) -> bool {
        if self.hints.is_empty() {
            return false;
        }
        self.hints.sort_unstable_by(|x, y| {
            if x.key.before(&y.key) {
                std::cmp::Ordering::Less
            } else if y.key.before(&x.key) {
                std::cmp::Ordering::Greater
            } else {
                x.order.cmp(&y.order)
            }
        });
        // Of the hints with the same removals, the first in the sorted order (SE keeps them
        // in a `LinkedHashSet`, whose hints are equal when their removals are).
        self.keyed.clear();
        self.keyed.extend(
            self.hints
                .iter()
                .enumerate()
                .map(|(i, h)| (hash(&h.removals), i as u32)),
        );
        self.keyed.sort_unstable();
        self.dropped.clear();
        self.dropped.resize(self.hints.len(), false);
        let mut start = 0;
        while start < self.keyed.len() {
            let mut end = start + 1;
            while end < self.keyed.len() && self.keyed[end].0 == self.keyed[start].0 {
                end += 1;
            }
            for j in start + 1..end {
                let later = self.keyed[j].1 as usize;
                let same = (start..j).any(|k| {
                    let earlier = self.keyed[k].1 as usize;
                    !self.dropped[earlier]
                        && self.hints[earlier].removals == self.hints[later].removals
                });
                self.dropped[later] = same;
            }
            start = end;
        }
        let mut any = false;
        for (h, &dropped) in self.hints.iter().zip(&self.dropped) {
            if !dropped && h.parents != [0; super::plus::SET_WORDS] {
                emit(&h.parents, &h.removals, h.key.complexity, h.chain);
                any = true;
            }
        }
        any
    }
}

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

/// A hash of a set of candidates, to find the hints with the same removals.
fn hash(set: &CandSet) -> u64 {
    set.iter().fold(0u64, |h, &w| {
        (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29)
    })
}
