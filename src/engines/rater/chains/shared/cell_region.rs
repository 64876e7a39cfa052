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
//!
//! Layer: shared, over [`key`], [`trail`](super::trail) and [`nest_set`](super::nest_set):
//! the search multiple and dynamic forcing chains have in common, generic over their
//! propagations ([`Propagation`]).

use super::bits::PotSet;
use super::key::{self, offer};
use super::links::{is_on, potential, POTENTIALS};
use super::nest_set::{NestNodes, NestSet};
use super::trail::Trail;
use crate::engines::rater::board::{digits_of, Board, CELLS, CELL_HOUSES, CELL_INDEX, HOUSE_CELLS};

/// What cell and region forcing chains need of one propagation from an assumption.
pub(crate) trait Propagation {
    /// Scratch shared by the propagations of one producer.
    type Scratch;
    /// Propagate from `root` (an "on" potential), forgetting the last propagation.
    fn propagate(&mut self, b: &Board, root: u16, scratch: &mut Self::Scratch);
    /// What it implied.
    fn trail(&self) -> &Trail;
    /// The complexity implied potential `p` adds to a hint whose other chains rest on the
    /// nested chains of `nested` (those `p` rests on are added to it; each counts once).
    fn complexity(&self, p: u16, nested: &mut NestSet<'_>) -> u32;
    /// A lower bound of [`Propagation::complexity`] of `p`, however `nested` is: cheap, to
    /// leave out the conclusions that cannot beat the best hint.
    fn least(&self, p: u16) -> u32;
}

/// Scratch: one propagation per digit of the current cell, one for the other places of a
/// house, the running intersection of a house and the complexities summed over it.
///
/// A house's other places come later in the cell order, and each one's propagation is
/// made again when its own cell comes (and for each of its houses where it is not the
/// first place): so up to `keep` of them are kept for the rest of the producer's search
/// ([`CellRegion::begin`]) and taken when asked for again. When all are taken, a kept one
/// whose cell is past gives its room, else the one whose cell comes last, if after the new
/// one's; a propagation with no room goes in `other` and is not kept.
pub(crate) struct CellRegion<I> {
    pub(crate) per_digit: Vec<Box<I>>,
    pub(crate) other: Box<I>,
    pub(crate) kept: Vec<Box<I>>,
    /// The candidate (`cell * 9 + digit`) of each kept propagation; [`FREE`]: none.
    kept_from: Vec<u16>,
    /// Each candidate's place in `kept` plus one (0: not kept).
    place_of: Vec<u8>,
    common: PotSet,
    /// The potentials of `common` left to conclude, in the order they are offered.
    list: Vec<u16>,
    sum: [u32; POTENTIALS],
    /// The nested chains counted in `sum`: the first node of each potential's set (empty
    /// where nothing nests), and the sets' nodes.
    heads: Vec<u32>,
    nodes: NestNodes,
}

/// Nodes reserved for the sets of nested chains of one house's or cell's hints (more grow
/// the room once, for the rater's life).
const NODES: usize = 1 << 14;

/// No candidate: a free place of `kept`.
const FREE: u16 = u16::MAX;

impl<I: Propagation> CellRegion<I> {
    /// Scratch of propagations made by `make` (built one by one: each is large); `nests`:
    /// whether they can rest on nested chains; `keep`: how many other places' propagations
    /// are kept (at most 255).
    pub(crate) fn new(make: impl Fn() -> I, nests: bool, keep: usize) -> CellRegion<I> {
        debug_assert!(keep < 256);
        CellRegion {
            per_digit: (0..9).map(|_| Box::new(make())).collect(),
            other: Box::new(make()),
            kept: (0..keep).map(|_| Box::new(make())).collect(),
            kept_from: vec![FREE; keep],
            place_of: vec![0; if keep > 0 { CELLS * 9 } else { 0 }],
            common: PotSet::EMPTY,
            list: Vec::with_capacity(POTENTIALS),
            sum: [0; POTENTIALS],
            heads: vec![0; if nests { POTENTIALS } else { 0 }],
            nodes: Vec::with_capacity(if nests { NODES } else { 0 }),
        }
    }

    /// Forgets the kept propagations: a producer's search on a new grid begins.
    pub(crate) fn begin(&mut self) {
        for from in &mut self.kept_from {
            if *from != FREE {
                self.place_of[*from as usize] = 0;
                *from = FREE;
            }
        }
    }

    /// Propagates "v on" in cell `c` into `per_digit[v]`, or takes it from those kept.
    pub(crate) fn own(&mut self, b: &Board, (c, v): (usize, usize), scratch: &mut I::Scratch) {
        let from = c * 9 + v;
        match self.place_of.get(from).copied().unwrap_or(0) {
            0 => self.per_digit[v].propagate(b, potential(c, v, true), scratch),
            at => {
                let at = at as usize - 1;
                std::mem::swap(&mut self.per_digit[v], &mut self.kept[at]);
                self.place_of[from] = 0;
                self.kept_from[at] = FREE;
            }
        }
    }

    /// Where the propagation of "v on" in cell `o` is (made now if need be), for a region
    /// forcing chain from cell `c`: the place in `kept`, or `None` for `other`.
    fn other_place(
        &mut self,
        b: &Board,
        (o, v): (usize, usize),
        c: usize,
        scratch: &mut I::Scratch,
    ) -> Option<usize> {
        let from = o * 9 + v;
        if let Some(&at) = self.place_of.get(from).filter(|&&at| at != 0) {
            return Some(at as usize - 1);
        }
        let mut room = None;
        let mut last = o;
        for (at, &f) in self.kept_from.iter().enumerate() {
            let cell = f as usize / 9;
            if f == FREE || cell < c {
                room = Some(at);
                break;
            }
            if cell > last {
                (room, last) = (Some(at), cell);
            }
        }
        let Some(at) = room else {
            self.other.propagate(b, potential(o, v, true), scratch);
            return None;
        };
        if self.kept_from[at] != FREE {
            self.place_of[self.kept_from[at] as usize] = 0;
        }
        self.kept[at].propagate(b, potential(o, v, true), scratch);
        self.kept_from[at] = from as u16;
        self.place_of[from] = at as u8 + 1;
        Some(at)
    }

    /// Region forcing chains from digit `v` of cell `c` (its propagation done, in
    /// `per_digit[v]`), rated `base`; `kind(house, digit)` tells them apart. Only the houses
    /// of `c` in `houses` (bit `k` for `CELL_HOUSES[c][k]`) are looked at.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn regions<K>(
        &mut self,
        b: &Board,
        scratch: &mut I::Scratch,
        (c, v, houses): (usize, usize, u8),
        (base, sort): (f64, u8),
        kind: impl Fn(u8, u8) -> K,
        best: &mut Option<key::Found<K>>,
    ) {
        for (k, &h) in CELL_HOUSES[c].iter().enumerate() {
            if houses >> k & 1 == 0 || !first_place(b, c, k, v) {
                continue;
            }
            let h = h as usize;
            let positions = b.pos[h][v];
            self.common = *self.per_digit[v].trail().set();
            for (n, i) in digits_of(positions & (positions - 1)).enumerate() {
                let o = HOUSE_CELLS[h][i] as usize;
                let at = self.other_place(b, (o, v), c, scratch);
                let other = match at {
                    Some(at) => &self.kept[at],
                    None => &self.other,
                };
                if !self.common.intersect(other.trail().set()) {
                    // Nothing implied by every place so far: no later place can change that.
                    self.list.clear();
                    break;
                }
                self.narrow((v, at, n == 0), (base, sort), best);
            }
            for &p in &self.list {
                let kind = kind(h as u8, v as u8);
                offer(b, base, p, self.sum[p as usize], sort, c, kind, best);
            }
        }
    }

    /// Adds the place whose propagation is kept at `at` (`None`: in `other`) to a region
    /// forcing chain from digit `v` (`first`: the first place after the cell's own): keeps
    /// in `list` the potentials of `common` whose chains so far could still beat `best`,
    /// their complexities summed in `sum` (the nested chains they rest on in `heads`).
    fn narrow<K>(
        &mut self,
        (v, at, first): (usize, Option<usize>, bool),
        (base, sort): (f64, u8),
        best: &Option<key::Found<K>>,
    ) {
        let own = &self.per_digit[v];
        let other = match at {
            Some(at) => &self.kept[at],
            None => &self.other,
        };
        if first {
            self.nodes.clear();
            gather(own.trail().found(), &self.common, &mut self.list);
        }
        // Where nothing nests, one empty set for all (no chain ever goes into it).
        let mut none = 0;
        let mut left = 0;
        for i in 0..self.list.len() {
            let p = self.list[i];
            if !self.common.has(p) {
                continue;
            }
            let so_far = if first {
                own.least(p)
            } else {
                self.sum[p as usize]
            };
            if !beats(base, so_far + other.least(p), sort, best) {
                // Its chains so far already count too many potentials.
                continue;
            }
            let head = self.heads.get_mut(p as usize).unwrap_or(&mut none);
            if first {
                *head = 0;
            }
            let mut nests = NestSet::new(&mut self.nodes, head);
            if first {
                self.sum[p as usize] = own.complexity(p, &mut nests);
            }
            self.sum[p as usize] += other.complexity(p, &mut nests);
            self.list[left] = p;
            left += 1;
        }
        self.list.truncate(left);
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
        self.common = *own.trail().set();
        for v in digits_of(cands & (cands - 1)) {
            if !self.common.intersect(self.per_digit[v].trail().set()) {
                return;
            }
        }
        gather(own.trail().found(), &self.common, &mut self.list);
        for &p in &self.list {
            let least = digits_of(cands).map(|v| self.per_digit[v].least(p)).sum();
            if !beats(base, least, sort, best) {
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

/// The potentials of `found` in `set` into `list`: the "on" ones, then the "off" ones, each
/// in the order found (the order SE's hints concluding them are discovered in). Two passes
/// into a list: an iterator chaining the two cost the dynamic producers 2% (measured
/// 2026-12-06).
pub(crate) fn gather(found: &[u16], set: &PotSet, list: &mut Vec<u16>) {
    list.clear();
    for on in [true, false] {
        list.extend(
            found
                .iter()
                .copied()
                .filter(|&p| is_on(p) == on && set.has(p)),
        );
    }
}

/// Whether cell `c` is the first of two places or more of digit `v` in its `k`-th house
/// (block, row, column): where region forcing chains start.
#[inline]
pub(crate) fn first_place(b: &Board, c: usize, k: usize, v: usize) -> bool {
    let positions = b.pos[CELL_HOUSES[c][k] as usize][v];
    positions.count_ones() >= 2 && positions.trailing_zeros() == CELL_INDEX[c][k] as u32
}

/// Whether a hint of a level rated `base` whose chains count `least` potentials or more
/// could still come before `best` (the complexity only adds to the key).
#[inline]
pub(crate) fn beats<K>(base: f64, least: u32, sort: u8, best: &Option<key::Found<K>>) -> bool {
    best.as_ref()
        .is_none_or(|f| key::Key::new(base, least, sort).before(&f.key))
}
