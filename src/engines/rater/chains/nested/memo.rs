//! What the basic rules of (+) and the nested producers gave on each grid a propagation
//! reduced, for the rest of one step ([`Memo`]): the reduced grids repeat (the two
//! assumptions of a bivalue cell, or of a digit's two places in a house, reach the same
//! grid one link apart, and every propagation of level 2 retraces one of level 1 before it
//! goes further), and what is given on one is a function of the step's grid and it alone.
//!
//! Layer: the nesting driver's, over [`plus`], whose rules it runs.

use super::hint::{Nested, NestedChain};
use crate::engines::rater::board::{Board, CELLS};
use crate::engines::rater::chains::plus;
use crate::engines::rater::chains::shared::bits::CandSet;

/// A grid the assumptions of a dynamic propagation reduced the step's grid `src` to.
#[derive(Clone, Copy)]
pub(crate) struct Reduced<'a> {
    pub(crate) src: &'a Board,
    pub(crate) cands: &'a [u16; CELLS],
    pub(crate) planes: &'a [u128; 9],
}

/// How the hints on a reduced grid are handed on: `emit(parents, removals, nested chain)`
/// ([`NestedChain::NONE`] for a basic rule's).
pub(crate) type Emit<'e> = dyn FnMut(&CandSet, &CandSet, NestedChain) + 'e;

/// One hint a nested producer (or a basic rule) gave, as [`Memo::replay`] hands it on:
/// its parents, removals and nested chain.
#[derive(Clone, Copy)]
pub(super) struct Given(CandSet, CandSet, NestedChain);

impl Given {
    /// What `hint` gives.
    pub(super) fn of(hint: &Nested) -> Given {
        Given(hint.parents, hint.removals, NestedChain::of(hint))
    }
}

/// Room the basic rules' hints on one grid are given before they are kept: the memo is
/// emptied first when less is left (a grid's hints that outgrow the rest are not kept).
const RULES_ROOM: usize = 256;

/// A range of [`Memo`]'s hints: those one producer gave on one grid.
pub(super) type Range = (u32, u32);

/// The hints given on one reduced grid, each kind once asked for: those of the basic rules
/// of (+) (`rules`) and of each nested producer (`nested`).
#[derive(Clone, Copy)]
struct Entry {
    cands: [u16; CELLS],
    rules: Option<Range>,
    /// By [`Producer`].
    nested: [Option<Range>; 4],
}

/// A producer nested on reduced grids: "Forcing Chains & Cycles" (levels 2 and 3), multiple
/// forcing chains (level 3), dynamic forcing chains (levels 4 and 5), nested forcing
/// chains of level 2 (level 5).
#[derive(Clone, Copy)]
pub(super) enum Producer {
    Forcing,
    Multiple,
    Dynamic,
    Nested,
}

/// The basic rules' and the nested producers' hints by reduced grid, for one step's grid:
/// an open-addressing table over entries and the hints they give, all reserved once (the
/// pages are touched only where (+) or nested chains run). When either is full it starts
/// again empty.
pub(super) struct Memo {
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
/// Hints kept for one step at most (more than [`ROOM_DYNAMIC`](super::ROOM_DYNAMIC), so one grid's always fit).
const MEMO_GIVEN: usize = 1 << 15;

impl Memo {
    /// A memo, with room only if `nests` (from (+) on).
    pub(super) fn new(nests: bool) -> Memo {
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

    /// The entry of `grid`, made (empty) if there is none; a new step's grid empties the
    /// memo.
    pub(super) fn entry(&mut self, grid: Reduced<'_>) -> usize {
        let (src, cands) = (grid.src, grid.cands);
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
    /// the entry of `grid` alone. The entry `e` of `grid`, made again if so.
    fn room(&mut self, grid: Reduced<'_>, e: usize, n: usize) -> usize {
        if self.given.len() + n <= MEMO_GIVEN {
            return e;
        }
        self.clear();
        self.entry(grid)
    }

    /// The hints of the basic rules of (+) on `grid` ([`plus::rules`]), as `emit(parents,
    /// removals, NestedChain::NONE)`: found now unless the memo has them. Whether there was one.
    pub(super) fn rules(&mut self, grid: Reduced<'_>, emit: &mut Emit<'_>) -> bool {
        let e = self.entry(grid);
        if let Some(range) = self.entries[e].rules {
            return self.replay(range, emit);
        }
        let e = self.room(grid, e, RULES_ROOM);
        let given = &mut self.given;
        let first = given.len();
        let mut fits = true;
        let any = plus::rules(
            grid.src,
            grid.cands,
            grid.planes,
            &mut |parents, removals| {
                emit(parents, removals, NestedChain::NONE);
                fits &= given.len() < MEMO_GIVEN;
                if fits {
                    given.push(Given(*parents, *removals, NestedChain::NONE));
                }
            },
        );
        if fits {
            debug_assert_eq!(any, given.len() > first);
            self.entries[e].rules = Some((first as u32, given.len() as u32));
        } else {
            // More hints than the room left (never seen): this grid is not kept.
            given.truncate(first);
        }
        any
    }

    /// What `producer` gave on the grid of entry `e`, if the memo has it.
    pub(super) fn nested(&self, e: usize, producer: Producer) -> Option<Range> {
        self.entries[e].nested[producer as usize]
    }

    /// Keeps `hints` as what `producer` gave on `grid` (entry `e`): the entry (made again
    /// if the memo was full) and their range.
    pub(super) fn keep(
        &mut self,
        (grid, e): (Reduced<'_>, usize),
        producer: Producer,
        hints: impl Iterator<Item = Given> + Clone,
    ) -> (usize, Range) {
        let e = self.room(grid, e, hints.clone().count());
        let first = self.given.len() as u32;
        self.given.extend(hints);
        let range = (first, self.given.len() as u32);
        self.entries[e].nested[producer as usize] = Some(range);
        (e, range)
    }

    /// Hands on the hints of `range`; whether there was one.
    pub(super) fn replay(&self, (start, end): Range, emit: &mut Emit<'_>) -> bool {
        for g in &self.given[start as usize..end as usize] {
            emit(&g.0, &g.1, g.2);
        }
        end > start
    }
}

/// A hash of a reduced grid, to find it in the memo.
fn grid_hash(cands: &[u16; CELLS]) -> u64 {
    cands.chunks(4).fold(0x2d35_8dcc_aa6c_78a5_u64, |h, w| {
        let x = w.iter().fold(0u64, |x, &c| x << 16 | u64::from(c));
        (h ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(26)
    })
}
