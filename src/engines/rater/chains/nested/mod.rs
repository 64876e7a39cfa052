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
//! candidates, a two-place house's lost places; see [`forcing::every_hint`]) turns its
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
//! Level 4 (10.5 + length bonus, `Chaining(true, true, false, 4)`, "(+ Dynamic Forcing
//! Chains)") nests SE's dynamic forcing chains instead of both ("Dynamic Forcing Chains
//! already cover Simple and Multiple Forcing Chains"): every hint of
//! [`dynamic::Every`] on the reduced grid, sorted and deduplicated alike. Its rule parents
//! are the lost candidates each "on" potential of its chains rests on (the cell's when the
//! cell implied it, the house's places of the digit when a house did), and the
//! assumptions' as at level 3 (none for a contradiction or double forcing chain).
//!
//! Level 5 (11.0 + length bonus, `Chaining(true, true, false, 5)`, "(+ Dynamic Forcing
//! Chains (+ Forcing Chains))") nests, after those dynamic forcing chains and only when
//! none of their hints rests on the removals, every hint of nested forcing chains of level
//! 2 on the reduced grid ([`dynamic::Every`] at level 2: its propagations nest "Forcing
//! Chains & Cycles" in turn, on grids reduced twice), sorted and deduplicated alike. Their
//! rule parents are found as at level 4, walking through the removals of the basic rules
//! and nested chains within (SE's `collectRuleParents` follows every parent), and their
//! complexity counts their own nested chains, once each.
//!
//! A nested chain is known by a fingerprint of its potentials (in order; at level 4, each
//! branch's as a set) ([`NestSet`]): SE
//! counts one once per outer hint (its `FullChain`s), even when two branches of the hint
//! (two propagations) each found it.
//!
//! What the nested producers give is a function of the step's grid and the reduced one
//! alone, and so is what the basic rules of (+) give; and the reduced grids repeat: the two
//! assumptions of a bivalue cell, or of a digit's two places in a house, reach the same
//! grid one link apart, and every propagation of level 2 retraces one of level 1 before it
//! goes further, every one of level 3 one of level 2. So each producer's hints on a reduced
//! grid are kept ([`Memo`]) for the rest of the step and given again when that grid comes
//! back: on forum_hardest_1106 two nested searches in three repeat one (measured
//! 2026-12-05: 11,019 of 16,325 on three puzzles). Levels 1-3 share one scratch, and so
//! one memo.

mod forcing;
pub(crate) mod hint;

use super::dynamic;
use super::forcing::Search;
use super::multiple::Every;
use super::plus;
use super::shared::bits::CandSet;
use crate::engines::rater::board::{Board, CELLS, HOUSE_CELLS};
use hint::Nested;

/// Most hints one reduced grid is expected to give: room reserved once, so that the search
/// allocates nothing (more would grow the vectors; the most seen on forum_hardest_1106 is
/// 241).
const ROOM: usize = 1024;
/// As [`ROOM`], from level 4 (dynamic forcing chains give many more: the most seen on
/// forum_hardest_1106 is 8,287). Reserved, not touched: the pages are the system's until a
/// search needs them.
const ROOM_DYNAMIC: usize = 1 << 14;

/// Scratch of the nested producers' searches; one per dynamic producer.
pub(crate) struct Nest {
    /// 2: SE's first chaining producer nests; 3: multiple forcing chains too; 4: dynamic
    /// forcing chains instead of both; 5: nested chains of level 2 after those.
    level: u8,
    search: Search,
    every: Option<Box<Every>>,
    dynamic: Option<Box<dynamic::Every>>,
    /// Every hint of nested forcing chains of level 2 (from level 5).
    nested: Option<Box<dynamic::Every>>,
    board: Board,
    hints: Vec<Nested>,
    /// (hash of the removals, place in the sorted hints).
    keyed: Vec<(u64, u32)>,
    dropped: Vec<bool>,
    memo: Memo,
}

/// One hint a nested producer gave, as [`Nest::hints`] hands it on.
#[derive(Clone, Copy)]
struct Given {
    parents: CandSet,
    removals: CandSet,
    complexity: u32,
    chain: u64,
}

/// Room the basic rules' hints on one grid are given before they are kept: the memo is
/// emptied first when less is left (a grid's hints that outgrow the rest are not kept).
const RULES_ROOM: usize = 256;

/// The hints given on one reduced grid, each kind once asked for: those of the basic rules
/// of (+) (`rules`) and of each nested producer (`nested`); each a range of
/// [`Memo::given`].
#[derive(Clone, Copy)]
struct Entry {
    cands: [u16; CELLS],
    rules: Option<(u32, u32)>,
    /// By [`Producer`].
    nested: [Option<(u32, u32)>; 4],
}

/// A producer nested on reduced grids: "Forcing Chains & Cycles" (levels 2 and 3), multiple
/// forcing chains (level 3), dynamic forcing chains (levels 4 and 5), nested forcing
/// chains of level 2 (level 5).
#[derive(Clone, Copy)]
enum Producer {
    Forcing,
    Multiple,
    Dynamic,
    Nested,
}

/// The basic rules' and the nested producers' hints by reduced grid, for one step's grid:
/// an open-addressing table over entries and the hints they give, all reserved once (the
/// pages are touched only where (+) or nested chains run). When either is full it starts
/// again empty.
struct Memo {
    /// The step's grid the entries are for.
    src: [u16; CELLS],
    src_open: u128,
    /// Entry index + 1 (0: empty slot), by hash of the reduced grid.
    table: Vec<u32>,
    entries: Vec<Entry>,
    given: Vec<Given>,
}

/// Slots of the table (a power of two, twice the entries it may hold).
const MEMO_SLOTS: usize = 1 << 15;
/// Reduced grids kept for one step at most.
const MEMO_ENTRIES: usize = MEMO_SLOTS / 2;
/// Hints kept for one step at most (more than [`ROOM_DYNAMIC`], so one grid's always fit).
const MEMO_GIVEN: usize = 1 << 15;

impl Memo {
    fn new(nests: bool) -> Memo {
        let (slots, entries, given) = if nests {
            (MEMO_SLOTS, MEMO_ENTRIES, MEMO_GIVEN)
        } else {
            (0, 0, 0)
        };
        Memo {
            src: [0; CELLS],
            src_open: 0,
            table: vec![0; slots],
            entries: Vec::with_capacity(entries),
            given: Vec::with_capacity(given),
        }
    }

    fn clear(&mut self) {
        if !self.entries.is_empty() {
            self.table.fill(0);
            self.entries.clear();
            self.given.clear();
        }
    }

    /// The entry of reduced grid `cands`, made (empty) if there is none; `src`'s grid is
    /// the step's, and a new one empties the memo.
    fn entry(&mut self, src: &Board, cands: &[u16; CELLS]) -> usize {
        if self.src != src.cands || self.src_open != src.open {
            self.clear();
            self.src = src.cands;
            self.src_open = src.open;
        }
        if self.entries.len() == MEMO_ENTRIES {
            self.clear();
        }
        let mask = MEMO_SLOTS - 1;
        let mut slot = grid_hash(cands) as usize & mask;
        loop {
            match self.table[slot] {
                0 => break,
                i if self.entries[i as usize - 1].cands == *cands => return i as usize - 1,
                _ => slot = (slot + 1) & mask,
            }
        }
        self.entries.push(Entry {
            cands: *cands,
            rules: None,
            nested: [None; 4],
        });
        self.table[slot] = self.entries.len() as u32;
        self.entries.len() - 1
    }

    /// Makes room for `n` more hints: when there is too little, the memo starts again with
    /// the entry of `cands` alone. The entry `e` of `cands`, made again if so.
    fn room(&mut self, src: &Board, cands: &[u16; CELLS], e: usize, n: usize) -> usize {
        if self.given.len() + n <= MEMO_GIVEN {
            return e;
        }
        self.clear();
        self.entry(src, cands)
    }
}

impl Nest {
    /// Scratch of the producers nested at `level` (room reserved only from level 2: below,
    /// nothing nests).
    pub(crate) fn new(level: u8) -> Box<Nest> {
        let n = match level {
            0 | 1 => 0,
            2 | 3 => ROOM,
            _ => ROOM_DYNAMIC,
        };
        Box::new(Nest {
            level,
            search: Search::new(),
            every: (level >= 3).then(Every::new),
            dynamic: (level >= 4).then(|| dynamic::Every::new(0)),
            nested: (level >= 5).then(|| dynamic::Every::new(2)),
            board: Board::blank(),
            hints: Vec::with_capacity(n),
            keyed: Vec::with_capacity(n),
            dropped: Vec::with_capacity(n),
            memo: Memo::new(level >= 1),
        })
    }

    /// Nest as level `level` does (1 to 5; the scratch of a level is made at `new` or never).
    pub(crate) fn set_level(&mut self, level: u8) {
        self.level = level;
    }

    /// The hints of the basic rules of (+) on `src` reduced to (`cands`, `planes`)
    /// ([`plus::rules`]), as `emit(parents, removals, 0, 0)`: from the memo when the grid
    /// came before in this step. Whether there was one.
    pub(crate) fn rules(
        &mut self,
        src: &Board,
        cands: &[u16; CELLS],
        planes: &[u128; 9],
        emit: &mut dyn FnMut(&CandSet, &CandSet, u32, u64),
    ) -> bool {
        debug_assert!(self.level >= 1, "only (+) and nested producers ask");
        let e = self.memo.entry(src, cands);
        if let Some(range) = self.memo.entries[e].rules {
            return self.replay(range, emit);
        }
        let e = self.memo.room(src, cands, e, RULES_ROOM);
        let given = &mut self.memo.given;
        let first = given.len();
        let mut fits = true;
        let any = plus::rules(src, cands, planes, &mut |parents, removals| {
            emit(parents, removals, 0, 0);
            fits &= given.len() < MEMO_GIVEN;
            if fits {
                given.push(Given {
                    parents: *parents,
                    removals: *removals,
                    complexity: 0,
                    chain: 0,
                });
            }
        });
        if fits {
            debug_assert_eq!(any, given.len() > first);
            self.memo.entries[e].rules = Some((first as u32, given.len() as u32));
        } else {
            // More hints than the room left (never seen): this grid is not kept.
            given.truncate(first);
        }
        any
    }

    /// The hints SE's nested producers give on `src` reduced to (`cands`, `planes`) that
    /// rest on the reduction, in SE's order: those of "Forcing Chains & Cycles", or if none
    /// of them does (level 3), those of multiple forcing chains; at level 4 those of dynamic
    /// forcing chains, or if none of them does (level 5), those of nested forcing chains of
    /// level 2; `emit(parents, removals, complexity, fingerprint)` for each. Whether there
    /// was one.
    pub(crate) fn hints(
        &mut self,
        src: &Board,
        cands: &[u16; CELLS],
        planes: &[u128; 9],
        emit: &mut dyn FnMut(&CandSet, &CandSet, u32, u64),
    ) -> bool {
        debug_assert!(self.level >= 2, "only nested producers ask");
        let producers: &[Producer] = match self.level {
            2 => &[Producer::Forcing],
            3 => &[Producer::Forcing, Producer::Multiple],
            // "Dynamic Forcing Chains already cover Simple and Multiple Forcing Chains".
            4 => &[Producer::Dynamic],
            _ => &[Producer::Dynamic, Producer::Nested],
        };
        let mut e = self.memo.entry(src, cands);
        let mut built = false;
        for &producer in producers {
            let range;
            (e, range) = self.given_by(src, (cands, planes), e, producer, &mut built);
            if self.replay(range, emit) {
                return true;
            }
        }
        false
    }

    /// The range of [`Memo::given`] that `producer` gives on `src` reduced to (`cands`,
    /// `planes`), entry `e` of the memo: its hints, found now (on `self.board`, built once
    /// a call: `built`) unless the memo has them; the entry, made again if the memo was full.
    fn given_by(
        &mut self,
        src: &Board,
        (cands, planes): (&[u16; CELLS], &[u128; 9]),
        e: usize,
        producer: Producer,
        built: &mut bool,
    ) -> (usize, (u32, u32)) {
        if let Some(range) = self.memo.entries[e].nested[producer as usize] {
            return (e, range);
        }
        if !*built {
            self.build(src, cands, planes);
            *built = true;
        }
        self.hints.clear();
        let (b, out) = (&self.board, &mut self.hints);
        match producer {
            Producer::Forcing => forcing::every_hint(&mut self.search, src, b, out),
            Producer::Multiple => {
                let every = self.every.as_mut().expect("level 3 has the scratch");
                every.hints(src, b, out);
            }
            Producer::Dynamic => {
                let every = self.dynamic.as_mut().expect("level 4 has the scratch");
                every.hints(src, b, out);
            }
            Producer::Nested => {
                let every = self.nested.as_mut().expect("level 5 has the scratch");
                every.hints(src, b, out);
            }
        }
        let (e, range) = self.keep(src, cands, e);
        self.memo.entries[e].nested[producer as usize] = Some(range);
        (e, range)
    }

    /// The grid `src` reduced to (`cands`, `planes`), in `self.board`.
    fn build(&mut self, src: &Board, cands: &[u16; CELLS], planes: &[u128; 9]) {
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
    }

    /// Hands on the hints of `range` in [`Memo::given`]; whether there was one.
    fn replay(
        &self,
        (start, end): (u32, u32),
        emit: &mut dyn FnMut(&CandSet, &CandSet, u32, u64),
    ) -> bool {
        for g in &self.memo.given[start as usize..end as usize] {
            emit(&g.parents, &g.removals, g.complexity, g.chain);
        }
        end > start
    }

    /// Sorts one producer's hints (in `self.hints`, on reduced grid `cands`, entry `e`) as
    /// SE does, keeps the first of those with the same removals, and stores those that
    /// rest on the reduction: the entry (made again if the memo was full) and their range.
    fn keep(&mut self, src: &Board, cands: &[u16; CELLS], e: usize) -> (usize, (u32, u32)) {
        self.hints.sort_unstable_by(Nested::se_order);
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
        let kept = self
            .hints
            .iter()
            .zip(&self.dropped)
            .filter(|(h, &dropped)| !dropped && !h.parents.is_empty());
        let e = self.memo.room(src, cands, e, kept.clone().count());
        let first = self.memo.given.len() as u32;
        for (h, _) in kept {
            self.memo.given.push(Given {
                parents: h.parents,
                removals: h.removals,
                complexity: h.key.complexity,
                chain: h.chain,
            });
        }
        (e, (first, self.memo.given.len() as u32))
    }
}

/// A hash of a set of candidates, to find the hints with the same removals.
fn hash(set: &CandSet) -> u64 {
    set.words().iter().fold(0u64, |h, &w| {
        (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29)
    })
}

/// A hash of a reduced grid, to find it in the memo.
fn grid_hash(cands: &[u16; CELLS]) -> u64 {
    cands.chunks(4).fold(0x2d35_8dcc_aa6c_78a5_u64, |h, w| {
        let x = w.iter().fold(0u64, |x, &c| x << 16 | u64::from(c));
        (h ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(26)
    })
}
