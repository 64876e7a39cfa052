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
//! candidates, a two-place house's lost places; see [`forcing`]) turns its
//! removals "off", with those as parents; its complexity is added once to that of any
//! outer hint that rests on it (SE's `getNestedComplexity`).
//!
//! Level 3 (10.0 + length bonus, `Chaining(true, true, false, 3)`, "(+ Multiple Forcing
//! Chains)") goes one rule further: when no hint of "Forcing Chains & Cycles" rests on the
//! removals, SE's static multiple forcing chains run on the reduced grid
//! ([`multiple`]: for each cell of three candidates or more, for each digit, its region
//! forcing chains, then the cell's), sorted and deduplicated alike. A cell
//! hint's rule parents are also the cell's lost candidates (SE takes the assumptions for
//! the cell's naked single), a region hint's the house's lost places of the digit (its
//! hidden single).
//!
//! Level 4 (10.5 + length bonus, `Chaining(true, true, false, 4)`, "(+ Dynamic Forcing
//! Chains)") nests SE's dynamic forcing chains instead of both ("Dynamic Forcing Chains
//! already cover Simple and Multiple Forcing Chains"): every hint of
//! [`dynamic`] on the reduced grid, sorted and deduplicated alike. Its rule parents
//! are the lost candidates each "on" potential of its chains rests on (the cell's when the
//! cell implied it, the house's places of the digit when a house did), and the
//! assumptions' as at level 3 (none for a contradiction or double forcing chain).
//!
//! Level 5 (11.0 + length bonus, `Chaining(true, true, false, 5)`, "(+ Dynamic Forcing
//! Chains (+ Forcing Chains))") nests, after those dynamic forcing chains and only when
//! none of their hints rests on the removals, every hint of nested forcing chains of level
//! 2 on the reduced grid ([`dynamic`] at level 2: its propagations nest "Forcing
//! Chains & Cycles" in turn, on grids reduced twice), sorted and deduplicated alike. Their
//! rule parents are found as at level 4, walking through the removals of the basic rules
//! and nested chains within (SE's `collectRuleParents` follows every parent), and their
//! complexity counts their own nested chains, once each.
//!
//! A nested chain is known by a fingerprint of its potentials (in order; at level 4, each
//! branch's as a set) ([`nest_set`](super::shared::nest_set)): SE counts one once per
//! outer hint (its `FullChain`s), even when two branches of the hint (two propagations)
//! each found it.
//!
//! What the nested producers give is a function of the step's grid and the reduced one
//! alone, and so is what the basic rules of (+) give; and the reduced grids repeat: the two
//! assumptions of a bivalue cell, or of a digit's two places in a house, reach the same
//! grid one link apart, and every propagation of level 2 retraces one of level 1 before it
//! goes further, every one of level 3 one of level 2. So each producer's hints on a reduced
//! grid are kept ([`memo`]) and given again when that grid comes back: on
//! forum_hardest_1106 two nested searches in three repeat one within a step (measured
//! 2026-12-05: 11,019 of 16,325 on three puzzles). They are kept for the next steps too,
//! until a digit is placed, each with what it rests on counted from every candidate and
//! read against each step's grid (on three 1905_11+ puzzles, 42,062 of 59,684 nested
//! searches found kept, 2026-12-06). Levels 1-3 share one scratch, and so one memo.
//!
//! The static producers nested at levels 2 and 3 read each reduced grid's links a
//! thousand times and more (a breadth-first search per start and pass, a propagation per
//! digit of a cell and place of a house): the links are listed once per grid ([`Graph`],
//! as the step's own producers do), not computed off the board at each read (measured
//! 2026-12-06 with callgrind on line 3 of forum_hardest_1905_11+, ER 11.0, Zen 5:
//! 7.02 → 4.54 G instructions, the ratings and steps the same).
//!
//! # Layer
//!
//! The top of the chain producers: [`Nest`] is the driver the dynamic propagations call
//! when their links run dry (from (+) on), [`memo`] what it gave, [`hint`] one nested hint;
//! [`forcing`], [`multiple`] and [`dynamic`] are the every-hint halves of the producers it
//! nests (the last two over [`branches`]); [`reach`] what levels 2 and 3 need not search,
//! by what the ladder found on the step's grid. [`dynamic`] runs dynamic propagations, which
//! call [`Nest`] in turn: SE's levels 4 and 5 nest dynamic chains, the one import circle.

mod branches;
mod explain;
// The circle SE's nesting has: levels 4 and 5 nest dynamic forcing chains.
pub(crate) mod dynamic;
mod forcing;
pub(crate) mod hint;
mod memo;
mod multiple;
mod reach;

use super::forcing::Search;
use super::shared::bits::CandSet;
use super::shared::closure::Closure;
use super::shared::links::Graph;
use super::shared::links::Rules;
use crate::engines::rater::board::{digits_of, Board, HOUSE_CELLS};
use hint::Nested;
pub(crate) use hint::NestedChain;
pub(crate) use memo::{Emit, Reduced};
use memo::{Given, Memo, Producer, Range};
pub(crate) use reach::Known;
use reach::Unfounded;

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
    /// Which of its searches can find a hint on a reduced grid.
    reach: Box<reach::Reach>,
    /// What each potential of the reduced grid reaches (level 3).
    closure: Box<Closure>,
    /// What the ladder found on the step's grid: then [`reach`] tells the searches and
    /// propagations that need not run.
    quiet: Known,
    every: Option<Box<multiple::Every>>,
    dynamic: Option<Box<dynamic::Every>>,
    /// Every hint of nested forcing chains of level 2 (from level 5).
    nested: Option<Box<dynamic::Every>>,
    board: Board,
    /// The links of `board`, listed once for the static producers (levels 2 and 3).
    graph: Box<Graph>,
    hints: Vec<Nested>,
    /// Debug builds: the hints found again without the cuts ([`Nest::check_cuts`]).
    uncut: Vec<Nested>,
    /// (hash of the removals, place in the sorted hints).
    keyed: Vec<(u64, u32)>,
    dropped: Vec<bool>,
    memo: Memo,
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
            reach: reach::Reach::new(),
            closure: Closure::new(),
            quiet: Known::default(),
            every: (level >= 3).then(multiple::Every::new),
            dynamic: (level >= 4).then(|| dynamic::Every::new(0)),
            nested: (level >= 5).then(|| dynamic::Every::new(2)),
            board: Board::blank(),
            graph: Graph::new(),
            hints: Vec::with_capacity(n),
            uncut: Vec::with_capacity(if cfg!(debug_assertions) { n } else { 0 }),
            keyed: Vec::with_capacity(n),
            dropped: Vec::with_capacity(n),
            memo: Memo::new(level >= 1),
        })
    }

    /// Nest as level `level` does (1 to 5; the scratch of a level is made at `new` or never).
    pub(crate) fn set_level(&mut self, level: u8) {
        self.level = level;
    }

    /// What the ladder found on the step's grid the grids asked for next are reduced from.
    pub(crate) fn set_quiet(&mut self, quiet: Known) {
        self.quiet = quiet;
    }

    /// The hints of the basic rules of (+) on `grid`, as `emit(parents, removals,
    /// NestedChain::NONE)`:
    /// from the memo when the grid came before in this step. Whether there was one.
    pub(crate) fn rules(&mut self, grid: Reduced<'_>, emit: &mut Emit<'_>) -> bool {
        debug_assert!(self.level >= 1, "only (+) and nested producers ask");
        self.memo.rules(grid, emit)
    }

    /// The hints SE's nested producers give on `grid` that rest on the reduction, in SE's
    /// order: those of "Forcing Chains & Cycles", or if none of them does (level 3), those
    /// of multiple forcing chains; at level 4 those of dynamic forcing chains, or if none of
    /// them does (level 5), those of nested forcing chains of level 2. Whether there was one.
    pub(crate) fn hints(&mut self, grid: Reduced<'_>, emit: &mut Emit<'_>) -> bool {
        debug_assert!(self.level >= 2, "only nested producers ask");
        let producers: &[Producer] = match self.level {
            2 => &[Producer::Forcing],
            3 => &[Producer::Forcing, Producer::Multiple],
            // "Dynamic Forcing Chains already cover Simple and Multiple Forcing Chains".
            4 => &[Producer::Dynamic],
            _ => &[Producer::Dynamic, Producer::Nested],
        };
        let mut e = self.memo.entry(grid);
        let mut built = false;
        for &producer in producers {
            let range;
            (e, range) = self.given_by((grid, e), producer, &mut built);
            if self.memo.replay(range, emit) {
                return true;
            }
        }
        false
    }

    /// What `producer` gives on `grid`, entry `e` of the memo: its hints, found now (on
    /// `self.board`, built once a call: `built`) unless the memo has them; the entry (made
    /// again if the memo was full) and their range.
    fn given_by(
        &mut self,
        (grid, e): (Reduced<'_>, usize),
        producer: Producer,
        built: &mut bool,
    ) -> (usize, Range) {
        if let Some(range) = self.memo.nested(e, producer) {
            return (e, range);
        }
        if !*built {
            self.build(grid);
            *built = true;
        }
        self.hints.clear();
        // Against every candidate: the hints' parents are then their supports ([`memo`]).
        let (src, b, out) = (self.memo.every(), &self.board, &mut self.hints);
        match producer {
            Producer::Forcing | Producer::Multiple => {
                self.static_hints(grid.src, producer, self.quiet);
                if cfg!(debug_assertions) {
                    self.check_cuts(grid.src, producer);
                }
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
        self.drop_repeats();
        let kept = self
            .hints
            .iter()
            .zip(&self.dropped)
            .filter(|(h, &dropped)| !dropped && !h.parents.is_empty())
            .map(|(h, _)| Given::of(h));
        self.memo.keep((grid, e), producer, kept)
    }

    /// Every hint of a static producer on the reduced grid (built), found against every
    /// candidate, into `self.hints`; what `quiet` knows of the step's grid `step` leaves
    /// out searches and propagations that find none ([`reach`]).
    fn static_hints(&mut self, step: &Board, producer: Producer, quiet: Known) {
        let (src, b, out) = (self.memo.every(), &self.board, &mut self.hints);
        if let Producer::Forcing = producer {
            let scratch = (&mut self.search, &mut *self.reach);
            forcing::every_hint(
                scratch,
                (src, b, &self.graph),
                quiet.forcing.then_some(step),
                out,
            );
            return;
        }
        let every = self.every.as_mut().expect("level 3 has the scratch");
        self.closure.load(b, &self.graph);
        let known = quiet.calm.as_ref().map(|calm| {
            self.reach.load(step, b, &self.graph, Rules::XY);
            (step, calm, &*self.reach)
        });
        let none = Unfounded {
            closure: &self.closure,
            known,
        };
        every.hints((src, b), &mut self.graph, Some(&none), out);
    }

    /// Debug builds: the hints found with what the ladder knows are those found without.
    /// The hints found without the cuts go to `self.uncut` (reserved as `self.hints` is:
    /// nothing is allocated).
    fn check_cuts(&mut self, step: &Board, producer: Producer) {
        std::mem::swap(&mut self.hints, &mut self.uncut);
        self.hints.clear();
        self.static_hints(step, producer, Known::default());
        std::mem::swap(&mut self.hints, &mut self.uncut);
        assert!(
            self.uncut == self.hints,
            "a nested search left out had a hint"
        );
    }

    /// The reduced grid, in `self.board`, and its links in `self.graph` (below level 4,
    /// where the producers nested are static).
    fn build(&mut self, grid: Reduced<'_>) {
        let b = &mut self.board;
        b.cands = *grid.cands;
        b.planes = *grid.planes;
        b.open = grid.src.open;
        // Each house's places by digit, from its open cells' candidates (not each plane's
        // bit of each cell: three puzzles of forum_hardest_1905_11+, 9.83 → 9.50 G
        // instructions, 2026-12-06).
        b.pos = [[0; 9]; 27];
        for (h, cells) in HOUSE_CELLS.iter().enumerate() {
            for (i, &c) in cells.iter().enumerate() {
                if b.open >> c & 1 == 1 {
                    for d in digits_of(b.cands[c as usize]) {
                        b.pos[h][d] |= 1 << i;
                    }
                }
            }
        }
        debug_assert!(HOUSE_CELLS.iter().enumerate().all(|(h, cells)| {
            (0..9).all(|d| {
                let places = cells.iter().enumerate();
                b.pos[h][d] == places.fold(0, |m, (i, &c)| m | ((b.planes[d] >> c) as u16 & 1) << i)
            })
        }));
        if self.level <= 3 {
            self.graph.load(&self.board);
        }
    }

    /// Sorts one producer's hints (in `self.hints`) as SE does and marks in `self.dropped`
    /// all but the first of those with the same removals (SE keeps them in a
    /// `LinkedHashSet`, whose hints are equal when their removals are).
    fn drop_repeats(&mut self) {
        self.hints.sort_unstable_by(Nested::se_order);
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
    }
}

/// A hash of a set of candidates, to find the hints with the same removals.
fn hash(set: &CandSet) -> u64 {
    set.words().iter().fold(0u64, |h, &w| {
        (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29)
    })
}
