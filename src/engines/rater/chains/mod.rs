//! The chain part of SE 1.2.1.3's ladder: the producers that run once every technique
//! below 6.5 has found nothing.
//!
//! # The producers, in SE's order (`Solver.java`: `chainingHintProducers`, then the rest)
//!
//! | order | producer | hints, difficulty | in the engine |
//! |---|---|---|---|
//! | 21 | Forcing Chains & Cycles | X-/Y-cycles 6.5, XY-cycles 7.0; X-forcing chains 6.6, XY-forcing chains 7.0; + length bonus | yes ([`forcing`]) |
//! | 22 | Aligned Triplet Exclusion | 7.5 | yes ([`aligned_triplet`](super::exclusion::aligned_triplet): not a chain) |
//! | 23 | Nishio Forcing Chains | 7.5 + bonus | yes ([`nishio`]) |
//! | 24 | Multiple Forcing Chains (cell, region) | 8.0 + bonus | yes ([`multiple`]) |
//! | 25 | Dynamic Forcing Chains | 8.5 + bonus | yes ([`dynamic`]) |
//! | 26 | Dynamic Forcing Chains (+) | 9.0 + bonus | yes ([`dynamic`], with [`plus`] through [`nested`]'s memo) |
//! | 27 | nested, level 2: Dynamic Forcing Chains (+ Forcing Chains) | 9.5 + bonus | yes ([`dynamic`], with [`nested`] running [`forcing`]'s walk) |
//! | 28 | nested, level 3: Dynamic Forcing Chains (+ Multiple Forcing Chains) | 10.0 + bonus | yes ([`dynamic`], with [`nested`] running [`forcing`]'s walk and [`multiple`]'s propagation) |
//! | 29 | nested, level 4: Dynamic Forcing Chains (+ Dynamic Forcing Chains) | 10.5 + bonus | yes ([`dynamic`], with [`nested`] running [`dynamic`]'s propagation) |
//! | 30 | nested, level 5: Dynamic Forcing Chains (+ Dynamic Forcing Chains (+ Forcing Chains)) | 11.0 + bonus | yes ([`dynamic`], with [`nested`] running [`dynamic`]'s propagation at level 2) |
//!
//! Sukaku Explainer's default set runs the same producers in the same order, with SE's
//! difficulties, length bonus and search (its `Chaining` visits cells, digits and houses as
//! SE does, and sorts the hints alike); two things differ, in its ladders
//! ([`ladder`](super::ladder)): its aligned triplet exclusion lists a cell's peers by index,
//! and its TUVWXYZ-Wing (7.5, not in the Exchange bank's ratings) runs between the static
//! chains and aligned triplet exclusion.
//!
//! Each producer is one method of [`Chains`], run by the ladder in this order. A step on
//! which the last producer finds nothing either (SE rates the puzzle 20.0) is **capped**
//! (the rating so far, [`Rating::capped`](crate::engines::rater::Rating::capped)): never a
//! wrong number.
//!
//! # Definitions
//!
//! A *potential* is a candidate assumed true ("on") or false ("off"); [`links`] has the
//! two rules that link them and the id layout. A chain is a path of implications, its
//! *complexity* the number of distinct potentials on it, and SE adds to the base difficulty
//! 0.1 each time `complexity - 2` passes 4, 6, 8, 12, 16, 24, 32, 48, ... ([`key`]). Each
//! chaining producer gathers all its hints and takes the first of the least (difficulty,
//! complexity, sort key) ([`key::Key`]); each module's header says what it searches and how
//! the search is cut without changing that hint.
//!
//! # Layers
//!
//! Bottom first: a module uses the modules of its own row and of the rows before it, never
//! those of a row after it.
//!
//! | layer | modules | what they hold |
//! |---|---|---|
//! | shared | [`shared`]: [`links`], [`bits`](shared::bits), [`key`], [`trail`](shared::trail), [`nest_set`](shared::nest_set), [`closure`], [`cell_region`](shared::cell_region), [`record`] | what more than one producer uses: potentials and links, the one bit set, SE's hint order, a propagation's queue, the nested chains a hint counts once, reach sets, cell and region chains over any propagation, a found hint's chains recorded as data |
//! | producers | [`forcing`] (over one breadth-first walk), [`nishio`], [`multiple`], [`dynamic`], [`plus`] | SE's chaining producers, each searching one step's grid |
//! | nesting | [`nested`] | the driver dynamic propagations call once their links run dry (from (+) on), its memo of reduced grids, and the every-hint halves of the producers it nests |
//! | entry | this module: [`Chains`] | one method a producer, the hint it fills, its chains recorded for `--steps` |
//!
//! One import circle is left, and it is the algorithm's: [`dynamic`] ↔ [`nested`]. SE's
//! levels 4 and 5 nest dynamic forcing chains, so a dynamic propagation calls the nesting
//! driver, which runs dynamic forcing chains on the grid the propagation reduced (a comment
//! marks the import at both ends). Aligned triplet exclusion, SE's producer between the
//! static chains and Nishio, is no chain: it lives with aligned pair exclusion
//! ([`exclusion`](super::exclusion)).

mod dynamic;
mod forcing;
mod multiple;
mod nested;
mod nishio;
mod plus;
mod shared;
#[cfg(test)]
mod tests;

use super::board::{cells_of, digits_of, Board, ALL_DIGITS, CELLS, CELL_HOUSES};
use super::chain::Record;
use super::hint::Hint;
use super::quiet::Quiet;
use super::{Stop, Technique};
use forcing::Kind;
use nested::Known;
use shared::bits::PotSet;
use shared::links::{cell_of, digit_of, is_on, potential};
use shared::{closure, key, links, record};

/// Scratch of the chain producers; one per rater, allocated once.
pub(crate) struct Chains {
    /// The links of the step's board, listed for the static producers.
    graph: Box<links::Graph>,
    /// What each potential reaches in that graph.
    closure: Box<closure::Closure>,
    search: forcing::Search,
    best: forcing::Best,
    nishio: nishio::Nishio,
    multiple: Box<multiple::Multiple>,
    dynamic: Box<dynamic::Dynamic>,
    /// Dynamic forcing chains (+) and nested forcing chains of levels 2 to 5, one scratch
    /// (and one memo of the reduced grids' hints, which the levels retrace).
    plus: Box<dynamic::Dynamic>,
    /// The producer of the last step found, and what it found.
    last: Last,
    /// The last grid on which Nishio forcing chains found nothing.
    nishio_quiet: Quiet,
    /// The last grids on which "Forcing Chains & Cycles" and multiple forcing chains found
    /// nothing (candidates and open cells): nested chains on them skip searches that
    /// cannot find a hint.
    forcing_quiet: Option<([u16; CELLS], u128)>,
    multiple_quiet: Option<([u16; CELLS], u128)>,
    /// The grid `closure` was loaded for.
    closure_for: Option<([u16; CELLS], u128)>,
}

/// Which producer found the last step: what [`Chains::explain`] records.
#[derive(Clone, Copy)]
enum Last {
    /// Aligned triplet exclusion, or nothing.
    None,
    /// `Chains::best`.
    Forcing,
    Nishio(nishio::Found),
    Multiple(multiple::Found),
    Dynamic(dynamic::Found),
    /// Dynamic forcing chains (+) (level 1) or nested ones (levels 2-5).
    Plus(u8, dynamic::Found),
}

/// The techniques of dynamic forcing chains (+) and nested forcing chains of levels 2-5, by
/// level from 1 and kind of hint (contradiction, double, cell, region).
pub(crate) const PLUS_TECHNIQUES: [[Technique; 4]; 5] = {
    use Technique::*;
    [
        [
            DynamicContradictionForcingChainsPlus,
            DynamicDoubleForcingChainsPlus,
            DynamicCellForcingChainsPlus,
            DynamicRegionForcingChainsPlus,
        ],
        [
            DynamicContradictionForcingChainsNested,
            DynamicDoubleForcingChainsNested,
            DynamicCellForcingChainsNested,
            DynamicRegionForcingChainsNested,
        ],
        [
            DynamicContradictionForcingChainsNestedMultiple,
            DynamicDoubleForcingChainsNestedMultiple,
            DynamicCellForcingChainsNestedMultiple,
            DynamicRegionForcingChainsNestedMultiple,
        ],
        [
            DynamicContradictionForcingChainsNestedDynamic,
            DynamicDoubleForcingChainsNestedDynamic,
            DynamicCellForcingChainsNestedDynamic,
            DynamicRegionForcingChainsNestedDynamic,
        ],
        [
            DynamicContradictionForcingChainsNestedDynamicNested,
            DynamicDoubleForcingChainsNestedDynamicNested,
            DynamicCellForcingChainsNestedDynamicNested,
            DynamicRegionForcingChainsNestedDynamicNested,
        ],
    ]
};

/// How a step's chains read, as [`Chains::explain`] recorded them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// No chain.
    None,
    /// One chain.
    Single,
    /// Branches, one a line, related as the producer found them.
    Branches(Branched),
}

/// How a forcing chain step with branches was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Branched {
    pub(crate) how: Branching,
    /// 0: static or dynamic forcing chains; 1: (+), basic rules on reduced grids; 2 to 5:
    /// nested forcing chains of that level.
    pub(crate) level: u8,
}

/// How the branches of a forcing chain step lead to its conclusion: what its sentence
/// says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Branching {
    /// An assumption leads to a contradiction (Nishio's and the dynamic contradiction
    /// forcing chains').
    Contradiction,
    /// A candidate true and false lead to the same conclusion.
    Double,
    /// Each candidate of a cell leads to it.
    Cell,
    /// Each place of a digit in a house leads to it.
    Region,
}

/// How a hint of `kind` of the dynamic producer of `level` branches.
fn branched(kind: dynamic::Kind, level: u8) -> Branched {
    let how = match kind {
        dynamic::Kind::Contradiction => Branching::Contradiction,
        dynamic::Kind::Double { .. } => Branching::Double,
        dynamic::Kind::Cell => Branching::Cell,
        dynamic::Kind::Region { .. } => Branching::Region,
    };
    Branched { how, level }
}

impl Chains {
    /// Fresh scratch, on the heap (it is tens of kilobytes).
    pub(crate) fn new() -> Box<Chains> {
        Box::new(Chains {
            graph: links::Graph::new(),
            closure: closure::Closure::new(),
            search: forcing::Search::new(),
            best: forcing::Best::new(),
            nishio: nishio::Nishio::new(),
            multiple: multiple::Multiple::new(),
            dynamic: dynamic::Dynamic::new(0),
            plus: dynamic::Dynamic::new(5),
            last: Last::None,
            nishio_quiet: Quiet::new(),
            forcing_quiet: None,
            multiple_quiet: None,
            closure_for: None,
        })
    }

    /// Give up the dynamic producers' searches (the long ones) once `stop` is raised.
    pub(crate) fn stop_when(&mut self, stop: &Stop) {
        self.dynamic.stop_when(stop.clone());
        self.plus.stop_when(stop.clone());
    }

    /// Records the chains of the step the last producer method gave, on the same board, in
    /// `rec` ([`record`]): rebuilt from the producer's parent pointers (the propagations of
    /// the dynamic and multiple producers are run again, and the nested searches a link
    /// rests on). Only `--steps` calls it.
    pub(crate) fn explain(&mut self, b: &Board, rec: &mut Record) -> Shape {
        rec.clear();
        match self.last {
            Last::None => Shape::None,
            Last::Forcing => {
                record::record_path(rec, b, &self.best.path[..self.best.len]);
                Shape::Single
            }
            Last::Nishio(found) => {
                self.nishio.explain(b, &found, rec);
                Shape::Branches(Branched {
                    how: Branching::Contradiction,
                    level: 0,
                })
            }
            Last::Multiple(found) => {
                self.multiple.explain(b, &found, rec);
                let how = match found.kind {
                    multiple::Kind::Region { .. } => Branching::Region,
                    multiple::Kind::Cell => Branching::Cell,
                };
                Shape::Branches(Branched { how, level: 0 })
            }
            Last::Dynamic(found) => {
                self.dynamic.explain(b, &found, rec);
                Shape::Branches(branched(found.kind, 0))
            }
            Last::Plus(level, found) => {
                self.plus.set_level(level);
                self.plus.explain(b, &found, rec);
                Shape::Branches(branched(found.kind, level))
            }
        }
    }

    /// Completes the hint of the step whose chains [`Chains::explain`] recorded in `rec`,
    /// on the same board: every cell its chains name, in order, then every cell of the
    /// nested chains they rest on, after the cells it has, each once; and the houses it
    /// rests on: a region forcing chain's region, and a cycle's or a static forcing chain's
    /// strong links between two cells, each in the houses where its digit has those two
    /// places alone. Only `--steps` calls it.
    pub(crate) fn complete(&self, b: &Board, rec: &Record, hint: &mut Hint) {
        let n = hint.n_cells as usize;
        let mut seen = hint.cells[..n].iter().fold(0u128, |s, &c| s | 1u128 << c);
        let view = rec.view();
        let named = view.iter().flat_map(|branch| {
            let start = std::iter::once(branch.start().cell);
            start.chain(branch.links().iter().flat_map(|l| [l.from.cell, l.to.cell]))
        });
        let mut nested = 0u128;
        for chain in view.nested() {
            for branch in chain.branches.iter() {
                nested |= 1u128 << branch.start().cell;
                for l in branch.links() {
                    nested |= 1u128 << l.to.cell;
                }
            }
        }
        for c in named.map(usize::from).chain(cells_of(nested)) {
            if seen >> c & 1 == 0 {
                seen |= 1u128 << c;
                hint.add_cell(c);
            }
        }
        let region = |house: u8| 1u32 << house;
        hint.houses |= match self.last {
            Last::Forcing => strong_link_houses(b, &self.best.path[..self.best.len]),
            Last::Multiple(found) => match found.kind {
                multiple::Kind::Region { house, .. } => region(house),
                multiple::Kind::Cell => 0,
            },
            Last::Dynamic(found) | Last::Plus(_, found) => match found.kind {
                dynamic::Kind::Region { house, .. } => region(house),
                _ => 0,
            },
            Last::None | Last::Nishio(_) => 0,
        };
    }

    /// SE's "Forcing Chains & Cycles" on the step's board: the best cycle or forcing chain,
    /// in `hint`. Loads the step's link graph and closure, which the cell and region forcing
    /// chains read later in the same step.
    pub(crate) fn forcing(&mut self, b: &Board, hint: &mut Hint, solution: &[u8; CELLS]) -> bool {
        self.graph.load(b);
        self.closure.load(b, &self.graph);
        self.closure_for = Some((b.cands, b.open));
        self.search
            .find(b, &self.graph, &self.closure, solution, &mut self.best);
        if self.best.key.complexity == u32::MAX {
            self.forcing_quiet = Some((b.cands, b.open));
            return false;
        }
        self.fill(b, hint);
        self.last = Last::Forcing;
        true
    }

    /// Nishio forcing chains: the best, in `hint`. Looks again only at the digits whose
    /// places changed since it last found nothing.
    pub(crate) fn nishio(&mut self, b: &Board, hint: &mut Hint, solution: &[u8; CELLS]) -> bool {
        let digits = self.nishio_quiet.changed_digits(b);
        let found = self.nishio.find(b, solution, digits);
        if cfg!(debug_assertions) && digits != ALL_DIGITS {
            let all = self.nishio.find(b, solution, ALL_DIGITS);
            let at = |f: &Option<nishio::Found>| f.map(|f| (f.cell, f.digit, f.key.complexity));
            assert!(at(&all) == at(&found), "a Nishio chain skipped");
        }
        self.nishio_quiet.update(b, found.is_some());
        let Some(found) = found else { return false };
        fill_nishio(b, &found, hint);
        self.last = Last::Nishio(found);
        true
    }

    /// Cell and region forcing chains: the best, in `hint`. Reads the graph and closure
    /// [`Chains::forcing`] loaded for this step.
    pub(crate) fn multiple(&mut self, b: &Board, hint: &mut Hint) -> bool {
        let Some(found) = self.multiple.find(b, &mut self.graph, &self.closure) else {
            self.multiple_quiet = Some((b.cands, b.open));
            return false;
        };
        fill_multiple(b, &found, hint);
        self.last = Last::Multiple(found);
        true
    }

    /// Dynamic forcing chains: the best, in `hint`.
    pub(crate) fn dynamic(&mut self, b: &Board, hint: &mut Hint) -> bool {
        let Some(found) = self.dynamic.find(b) else {
            return false;
        };
        let technique = match found.kind {
            dynamic::Kind::Contradiction => Technique::DynamicContradictionForcingChains,
            dynamic::Kind::Double { .. } => Technique::DynamicDoubleForcingChains,
            dynamic::Kind::Cell => Technique::DynamicCellForcingChains,
            dynamic::Kind::Region { .. } => Technique::DynamicRegionForcingChains,
        };
        fill_conclusion(b, technique, found.key, found.source, found.target, hint);
        self.last = Last::Dynamic(found);
        true
    }

    /// Dynamic forcing chains (+) (`level` 1, 9.0) and nested ones (levels 2-5, 9.5-11.0):
    /// the best, in `hint`.
    pub(crate) fn plus(&mut self, b: &Board, hint: &mut Hint, level: u8) -> bool {
        self.plus.set_level(level);
        self.plus.set_quiet(self.quiet(b, level));
        let Some(found) = self.plus.find(b) else {
            return false;
        };
        let technique = PLUS_TECHNIQUES[level as usize - 1][match found.kind {
            dynamic::Kind::Contradiction => 0,
            dynamic::Kind::Double { .. } => 1,
            dynamic::Kind::Cell => 2,
            dynamic::Kind::Region { .. } => 3,
        }];
        fill_conclusion(b, technique, found.key, found.source, found.target, hint);
        self.last = Last::Plus(level, found);
        true
    }

    /// What the ladder found on `b` that nested chains of `level` may use: whether the
    /// static producers found nothing on it, and if multiple forcing chains did not (read
    /// from the closure [`Chains::forcing`] loaded for `b`), the "on" potentials whose
    /// static propagation does not clash.
    fn quiet(&self, b: &Board, level: u8) -> Known {
        let now = Some((b.cands, b.open));
        let forcing = self.forcing_quiet == now;
        let calm =
            (level == 3 && self.multiple_quiet == now && self.closure_for == now).then(|| {
                let mut calm = PotSet::EMPTY;
                for c in cells_of(b.open) {
                    for d in digits_of(b.cands[c]) {
                        let on = potential(c, d, true);
                        if !self.closure.clashes(on) {
                            calm.insert(on);
                        }
                    }
                }
                calm
            });
        Known { forcing, calm }
    }

    /// The hint of the static producer's best chain.
    fn fill(&self, b: &Board, hint: &mut Hint) {
        let best = &self.best;
        let path = &best.path[..best.len];
        let technique = forcing::technique(best.kind, path);
        hint.start(technique, best.key.tenths());
        hint.exact = Some(best.key.difficulty);
        let mut seen = 0u128;
        for &p in path {
            let c = cell_of(p);
            if seen >> c & 1 == 0 {
                seen |= 1u128 << c;
                hint.add_cell(c);
            }
            hint.digits |= 1 << digit_of(p);
        }
        match best.kind {
            Kind::Cycle(_) => {
                for d in 0..9 {
                    for c in cells_of(best.elim[d]) {
                        hint.eliminate(c, 1 << d);
                    }
                }
            }
            Kind::Chain(_) => {
                let target = path[path.len() - 1];
                let (c, d) = (cell_of(target), digit_of(target));
                if is_on(target) {
                    // SE's hint removes the cell's other candidates, then places.
                    hint.eliminate(c, b.cands[c] & !(1 << d));
                    hint.set_place(c, d);
                } else {
                    debug_assert!(b.cands[c] >> d & 1 == 1);
                    hint.eliminate(c, 1 << d);
                }
            }
        }
    }
}

/// The hint of a Nishio forcing chain.
fn fill_nishio(b: &Board, found: &nishio::Found, hint: &mut Hint) {
    let (c, d) = (found.cell, found.digit);
    hint.start(Technique::NishioForcingChains, found.key.tenths());
    hint.exact = Some(found.key.difficulty);
    hint.add_cell(c);
    for o in cells_of(found.cells & !(1u128 << c)) {
        hint.add_cell(o);
    }
    hint.digits = 1 << d;
    if found.assumed_on {
        hint.eliminate(c, 1 << d);
    } else {
        // SE's hint removes the cell's other candidates, then places.
        hint.eliminate(c, b.cands[c] & !(1 << d));
        hint.set_place(c, d);
    }
}

/// The hint of a cell or region forcing chain.
fn fill_multiple(b: &Board, found: &multiple::Found, hint: &mut Hint) {
    let technique = match found.kind {
        multiple::Kind::Region { .. } => Technique::RegionForcingChains,
        multiple::Kind::Cell => Technique::CellForcingChains,
    };
    hint.start(technique, found.key.tenths());
    hint.exact = Some(found.key.difficulty);
    let (c, d) = (cell_of(found.target), digit_of(found.target));
    hint.add_cell(found.source);
    if c != found.source {
        hint.add_cell(c);
    }
    hint.digits = 1 << d;
    if is_on(found.target) {
        hint.eliminate(c, b.cands[c] & !(1 << d));
        hint.set_place(c, d);
    } else {
        hint.eliminate(c, 1 << d);
    }
}

/// The hint of a forcing chain concluding `target` from assumptions in cell `source`.
fn fill_conclusion(
    b: &Board,
    technique: Technique,
    key: key::Key,
    source: usize,
    target: u16,
    hint: &mut Hint,
) {
    hint.start(technique, key.tenths());
    hint.exact = Some(key.difficulty);
    let (c, d) = (cell_of(target), digit_of(target));
    hint.add_cell(source);
    if c != source {
        hint.add_cell(c);
    }
    hint.digits = 1 << d;
    if is_on(target) {
        hint.eliminate(c, b.cands[c] & !(1 << d));
        hint.set_place(c, d);
    } else {
        hint.eliminate(c, 1 << d);
    }
}

/// The houses of `path`'s strong links between two cells: those where the link's digit has
/// the two cells as its only places on `b`.
fn strong_link_houses(b: &Board, path: &[u16]) -> u32 {
    let mut houses = 0u32;
    for pair in path.windows(2) {
        let (p, q) = (pair[0], pair[1]);
        let (from, to, d) = (cell_of(p), cell_of(q), digit_of(p));
        if is_on(p) || !is_on(q) || from == to || digit_of(q) != d {
            continue;
        }
        for &h in &CELL_HOUSES[from] {
            let h = h as usize;
            if CELL_HOUSES[to].contains(&(h as u8)) && b.pos[h][d].count_ones() == 2 {
                houses |= 1 << h;
            }
        }
    }
    houses
}
