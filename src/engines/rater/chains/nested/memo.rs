//! What the basic rules of (+) and the nested producers gave on each grid a propagation
//! reduced ([`Memo`]): the reduced grids repeat (the two assumptions of a bivalue cell, or
//! of a digit's two places in a house, reach the same grid one link apart, and every
//! propagation of level 2 retraces one of level 1 before it goes further), within a step
//! and from one step to the next, whose grid lost a few candidates only.
//!
//! What a nested producer gives on a reduced grid `r` is a function of `r` and the step's
//! grid `src`; of `src` only through the hints' parents: each is the candidates `src` had
//! and `r` lost in cells and houses that `r` alone picks (a cell's lost digits, a digit's
//! lost places in a house), and so the candidates an open cell can hold at all and `r`
//! lost there (the hint's *support*), read against `src` (`r` lies within `src`). So the
//! producers run against the grid of every candidate of the open cells ([`Memo::every`]),
//! each hint is kept with its support for as long as no digit is placed (the placed
//! digits are read too: empty cells per house; a grid of earlier placements never comes
//! back), and a replay hands on the part of the support `src` holds, the hint's parents (a
//! hint left with none does not count: it has none on `src`). The basic rules' hints are
//! kept for one step's grid: SE applies those of the first rule with one, and which rule
//! that is depends on `src`.
//!
//! | kept | for how long | callgrind, 1905_11+ line 3 / line 1,628 (G instructions) |
//! |---|---|---|
//! | nested and rules' hints | one step | 4.31 / 10.10 (before) |
//! | nested hints as supports | until a digit is placed | 4.03 / 9.12 (kept) |
//! | the rules' too: all four rules run on every candidate, each hint kept with its rule, the first rule with one that counts picked at replay | until a digit is placed | 4.05 / 9.15 (lost) |
//!
//! Layer: the nesting driver's, over [`plus`], whose rules it runs.

use super::hint::{Nested, NestedChain};
use crate::engines::rater::board::{cells_of, Board, CELLS, HOUSE_CELLS};
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
/// its support (a nested hint's parents counted from every candidate, see the module's
/// doc; a basic rule's parents on the step's grid), removals and nested chain.
#[derive(Clone, Copy)]
pub(super) struct Given(CandSet, CandSet, NestedChain);

impl Given {
    /// What `hint`, found against [`Memo::every`], gives.
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
/// of (+) (`rules`, on the step's grid numbered `rules_step`) and of each nested producer
/// (`nested`).
#[derive(Clone, Copy)]
struct Entry {
    cands: [u16; CELLS],
    rules: Option<Range>,
    rules_step: u32,
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

/// The basic rules' and the nested producers' hints by reduced grid, for the grids of one
/// set of placed digits: an open-addressing table over entries and the hints they give,
/// all reserved once (the pages are touched only where (+) or nested chains run). When
/// either is full it starts again empty.
pub(super) struct Memo {
    /// The placed digits the entries are for.
    values: [u8; CELLS],
    /// Their grid with every candidate of its open cells: what hints are found against.
    every: Board,
    /// The step's grid, and as a set of candidates: what supports are read against.
    src: [u16; CELLS],
    src_set: CandSet,
    /// The step's grid's number (the basic rules' hints are for one).
    step: u32,
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
            values: [0; CELLS],
            every: Board::blank(),
            src: [0; CELLS],
            src_set: CandSet::EMPTY,
            step: 0,
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

    /// The grid of every candidate of the open cells, the placements of the last grid
    /// asked for: what the nested producers find the hints they give against.
    pub(super) fn every(&self) -> &Board {
        &self.every
    }

    /// The entry of `grid`, made (empty) if there is none; new placements empty the memo.
    pub(super) fn entry(&mut self, grid: Reduced<'_>) -> usize {
        let (src, cands) = (grid.src, grid.cands);
        // `open` tells a first grid with no digit placed from the memo's blank one.
        if self.values != src.values || self.every.open != src.open {
            self.clear();
            self.values = src.values;
            every_candidate(src, &mut self.every);
        }
        if self.src != src.cands {
            self.step += 1;
            self.src = src.cands;
            self.src_set = CandSet::EMPTY;
            for c in cells_of(src.open) {
                self.src_set.add_digits(c, src.cands[c]);
            }
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
            rules_step: 0,
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
    /// removals, NestedChain::NONE)`: found now unless the memo has them for this step's
    /// grid. Whether there was one.
    pub(super) fn rules(&mut self, grid: Reduced<'_>, emit: &mut Emit<'_>) -> bool {
        let e = self.entry(grid);
        if let Some(range) = self.entries[e]
            .rules
            .filter(|_| self.entries[e].rules_step == self.step)
        {
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
            &mut |parents, removals, _| {
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
            self.entries[e].rules_step = self.step;
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

    /// Hands on the hints of `range` that count on the step's grid: those whose support
    /// it holds some of (their parents; a basic rule's are on that grid already). Whether
    /// there was one.
    pub(super) fn replay(&self, (start, end): Range, emit: &mut Emit<'_>) -> bool {
        let mut any = false;
        for g in &self.given[start as usize..end as usize] {
            let mut parents = g.0;
            if parents.intersect(&self.src_set) {
                emit(&parents, &g.1, g.2);
                any = true;
            }
        }
        any
    }
}

/// A hash of a reduced grid, to find it in the memo.
fn grid_hash(cands: &[u16; CELLS]) -> u64 {
    cands.chunks(4).fold(0x2d35_8dcc_aa6c_78a5_u64, |h, w| {
        let x = w.iter().fold(0u64, |x, &c| x << 16 | u64::from(c));
        (h ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(26)
    })
}

/// The grid of `src`'s placements with every candidate of its open cells, into `every`:
/// what the hints kept are found against (their parents are then their support).
fn every_candidate(src: &Board, every: &mut Board) {
    every.clone_from(src);
    for c in cells_of(src.open) {
        every.cands[c] = 0x1ff;
    }
    every.planes = [src.open; 9];
    for (h, cells) in HOUSE_CELLS.iter().enumerate() {
        let open = cells
            .iter()
            .enumerate()
            .fold(0u16, |m, (i, &c)| m | ((src.open >> c) as u16 & 1) << i);
        every.pos[h] = [open; 9];
    }
}

#[cfg(test)]
mod tests {
    use super::super::reach::Reach;
    use super::super::{forcing, multiple};
    use super::*;
    use crate::engines::rater::chains::forcing::Search;
    use crate::engines::rater::chains::shared::links::Graph;

    /// A puzzle of `tests/fixtures/rate/se-nested-every.txt`, and the candidates its grid
    /// loses there (`(cell, digit)`, 0-based): two by a step, three more by an assumption.
    const PUZZLE: &str =
        "..1.....7...89..........6..26..3.......5...749...........1.4.5.83.............2..";
    const STEP: [(usize, usize); 2] = [(47, 2), (48, 1)];
    const ASSUMED: [(usize, usize); 3] = [(50, 7), (55, 1), (77, 4)];

    /// The grid of `PUZZLE`'s givens less `removals`.
    fn grid(removals: &[(usize, usize)]) -> Board {
        let mut cells = [0u8; CELLS];
        for (c, ch) in cells.iter_mut().zip(PUZZLE.bytes()) {
            *c = if ch.is_ascii_digit() { ch - b'0' } else { 0 };
        }
        let mut b = Board::blank();
        b.load(&cells);
        for &(c, d) in removals {
            b.remove(c, d);
        }
        b
    }

    /// Every hint of "Forcing Chains & Cycles" and multiple forcing chains on `b`, found
    /// against `src`.
    fn every_hint(src: &Board, b: &Board) -> Vec<Nested> {
        let mut graph = Graph::new();
        graph.load(b);
        let mut out = Vec::new();
        let scratch = (&mut Search::new(), &mut *Reach::new());
        forcing::every_hint(scratch, (src, b, &graph), None, &mut out);
        multiple::Every::new().hints((src, b), &mut graph, None, &mut out);
        out
    }

    fn as_set(b: &Board) -> CandSet {
        let mut set = CandSet::EMPTY;
        for c in cells_of(b.open) {
            set.add_digits(c, b.cands[c]);
        }
        set
    }

    #[test]
    fn supports_read_against_each_step_are_its_parents() {
        let (src, later) = (grid(&[]), grid(&STEP));
        let reduced = grid(&[&STEP[..], &ASSUMED[..]].concat());
        let mut every = Board::blank();
        every_candidate(&src, &mut every);
        let supports = every_hint(&every, &reduced);
        for step in [&src, &later] {
            let hints = every_hint(step, &reduced);
            assert_eq!(hints.len(), supports.len());
            assert!(hints.iter().any(|h| !h.parents.is_empty()));
            for (h, s) in hints.iter().zip(&supports) {
                assert_eq!((h.key, h.removals, h.chain), (s.key, s.removals, s.chain));
                let mut parents = s.parents;
                parents.intersect(&as_set(step));
                assert!(h.parents == parents);
            }
        }
        // Not the same sets: the step's grid had fewer candidates than every one.
        let hints = every_hint(&later, &reduced);
        assert!(hints
            .iter()
            .zip(&supports)
            .any(|(h, s)| h.parents != s.parents));
    }

    #[test]
    fn a_kept_hint_is_read_against_the_later_step_and_a_placement_empties() {
        let (src, later) = (grid(&[]), grid(&STEP));
        let reduced = grid(&[&STEP[..], &ASSUMED[..]].concat());
        let mut memo = Memo::new(true);
        let at = |src| Reduced {
            src,
            cands: &reduced.cands,
            planes: &reduced.planes,
        };
        let e = memo.entry(at(&src));
        // The support: every candidate r6c3 had; r6c3 lost 3 at the step.
        let mut support = CandSet::EMPTY;
        support.add_digits(47, src.cands[47]);
        let chain = NestedChain {
            complexity: 3,
            print: 7,
            cells: 1 << 47,
        };
        let hint = [Given(support, CandSet::EMPTY, chain)];
        let (_, range) = memo.keep((at(&src), e), Producer::Forcing, hint.into_iter());
        let e = memo.entry(at(&later));
        assert_eq!(memo.nested(e, Producer::Forcing), Some(range));
        let mut seen = Vec::new();
        memo.replay(range, &mut |parents, _, chain| {
            let parents = parents.iter().collect::<Vec<_>>();
            seen.push((parents, chain.complexity, chain.print, chain.cells));
        });
        let left = (0..9).filter(|d| later.cands[47] >> d & 1 == 1);
        assert_eq!(seen, [(left.map(|d| 47 * 9 + d).collect(), 3, 7, 1 << 47)]);
        assert_ne!(src.cands[47], later.cands[47]);
        let mut placed = later.clone();
        placed.values[0] = 3;
        placed.open &= !1;
        let e = memo.entry(at(&placed));
        assert_eq!(memo.nested(e, Producer::Forcing), None);
    }
}
