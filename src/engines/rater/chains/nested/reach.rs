//! What nested chains of levels 2 and 3 need not search on a reduced grid, because the step's
//! grid has no hint of the producer they nest ([`Reach`], [`Known`], [`Unfounded`]).
//!
//! Those levels run "Forcing Chains & Cycles" and, at level 3, multiple forcing chains on
//! grids `r` a propagation reduced from the step's grid `src`; the ladder ran both on `src`
//! first. A link of `r` is one of `src` unless it is a strong link `src` lacks: a cell of
//! two candidates in `r` and more in `src`, or a house with two places of a digit in `r`
//! and more in `src` (the *new* links; weak links only fall away). A search of `r` that
//! never reaches the "off" end of a new link walks links of `src` alone. When "Forcing
//! Chains & Cycles" found nothing on `src`:
//! - such a search finds no forcing chain ("s on" to "s off", "s off" to "s on"): it would be
//!   one of `src` too, and the producer found none there (both are sound on `src`, so the
//!   cuts it makes by the solution keep them; with no hint found it cut nothing else);
//! - it finds a cycle only if an "off" potential links strongly back to "s on"; when none
//!   does, it does not run. (When one does, it runs: a cycle of `src`'s links found in `r`'s
//!   tree need not be one the producer's tree in `src` finds.)
//!
//! When multiple forcing chains found nothing on `src` either, a cell of `r` with the
//! candidates it has in `src`, whose digits' propagations reach no new link and do not
//! clash on `src` (where a propagation that does not clash implies all it reaches), has no
//! cell forcing chain: every one would be one of `src`. A house alike, by the places of a
//! digit. Their propagations are left out, and so are those of cells and houses whose
//! assumptions' reaches on `r` share nothing ([`Closure`], once a grid).
//!
//! Every hint of `r` is still found, so every hint SE keeps (the first of those with the
//! same removals among them); debug builds check this on every grid. Measured 2026-12-06
//! with callgrind on three puzzles of forum_hardest_1905_11+ (lines 3, 1,628 and 3,253;
//! ER 11.0-11.1), Zen 5, every output the same:
//!
//! | change | G instructions |
//! |---|---|
//! | before | 18.35 |
//! | forcing searches left out (line 3 alone: 3.53 → 2.93) | 15.04 |
//! | cell and region forcing chains left out | 12.74 |
//! | and those whose reaches share nothing | 10.93 |
//! | a cell's weak links read through a table ([`links`](super::super::shared::links)) | 10.70 |
//! | the reduced grid's reaches for the forcing searches too (lost: a closure a grid costs more than the searches it saves) | 13.24 |
//! | a chain's end also within what the new links' "on" ends reach on `src` (lost) | 10.83 against 10.70 |
//! | one reach (both rules) for the X and XY passes (lost) | 10.99 against 10.70 |
//!
//! Layer: the nesting driver's, over [`shared`](super::super::shared)'s links and closure.

use crate::engines::rater::board::{cells_of, digits_of, two_bits, Board, HOUSE_CELLS};
use crate::engines::rater::chains::shared::bits::PotSet;
use crate::engines::rater::chains::shared::closure::Closure;
use crate::engines::rater::chains::shared::links::{
    conjugate, is_on, potential, Graph, Links, Rules, POTENTIALS,
};

/// The potentials of a reduced grid from which a search under one set of rules reaches
/// the "off" end of a new link (see the module's doc).
pub(crate) struct Reach {
    set: PotSet,
    queue: [u16; POTENTIALS],
}

impl Reach {
    pub(crate) fn new() -> Box<Reach> {
        Box::new(Reach {
            set: PotSet::EMPTY,
            queue: [0; POTENTIALS],
        })
    }

    /// Whether a search from `p` may reach a new link.
    #[inline]
    pub(crate) fn has(&self, p: u16) -> bool {
        self.set.has(p)
    }

    /// Finds the potentials of `r` (its links listed in `graph`) that reach, under
    /// `rules`, the "off" end of a link `src` lacks: breadth first from those ends, along
    /// the links backwards (each kind of link is symmetric: "a on" to "b off" when "b on"
    /// to "a off", "a off" to "b on" when "b off" to "a on").
    pub(crate) fn load(&mut self, src: &Board, r: &Board, graph: &Graph, rules: Rules) {
        self.set = PotSet::EMPTY;
        let mut tail = self.ends(src, r, rules);
        let mut head = 0;
        let (mut offs, mut ons) = ([0u16; 32], [0u16; 4]);
        while head < tail {
            let p = self.queue[head];
            head += 1;
            // What links to `p`: the conjugates of what its conjugate links to.
            let from: &[u16] = if is_on(p) {
                graph.off_to_on(conjugate(p), rules, &mut ons)
            } else {
                graph.on_to_off(conjugate(p), rules.y, &mut offs)
            };
            for &q in from {
                let q = conjugate(q);
                if !self.set.has(q) {
                    self.set.insert(q);
                    self.queue[tail] = q;
                    tail += 1;
                }
            }
        }
    }

    /// Marks and queues the "off" ends of the new links under `rules`; how many. A house
    /// whose two places in `r` are also two of another house's in `src` is counted too
    /// (more ends only run more searches).
    fn ends(&mut self, src: &Board, r: &Board, rules: Rules) -> usize {
        let mut n = 0;
        let mut end = |set: &mut PotSet, p: u16| {
            if !set.has(p) {
                set.insert(p);
                self.queue[n] = p;
                n += 1;
            }
        };
        if rules.y {
            for c in cells_of(r.open) {
                if two_bits(r.cands[c]) && !two_bits(src.cands[c]) {
                    for d in digits_of(r.cands[c]) {
                        end(&mut self.set, potential(c, d, false));
                    }
                }
            }
        }
        if rules.x {
            for (h, cells) in HOUSE_CELLS.iter().enumerate() {
                for d in 0..9 {
                    let places = r.pos[h][d];
                    if two_bits(places) && !two_bits(src.pos[h][d]) {
                        for i in digits_of(places) {
                            end(&mut self.set, potential(cells[i] as usize, d, false));
                        }
                    }
                }
            }
        }
        n
    }
}

/// What the ladder found on a step's grid before nested chains run on grids reduced from
/// it: what lets searches and propagations on those be left out.
#[derive(Clone, Copy, Default)]
pub(crate) struct Known {
    /// "Forcing Chains & Cycles" found nothing on it.
    pub(crate) forcing: bool,
    /// When multiple forcing chains found nothing on it: its "on" potentials whose static
    /// propagation there does not clash (and so implies all it reaches).
    pub(crate) calm: Option<PotSet>,
}

/// The cell and region forcing chains of a reduced grid that cannot exist: those whose
/// assumptions' reaches share nothing, and when multiple forcing chains found nothing on
/// the step's grid, those that would be chains of that grid too (see the module's doc).
pub(crate) struct Unfounded<'a> {
    /// What each potential of the reduced grid reaches.
    pub(crate) closure: &'a Closure,
    /// The step's grid, its calm "on" potentials ([`Known::calm`]), and the reach of the
    /// reduced grid's new links for both rules.
    pub(crate) known: Option<(&'a Board, &'a PotSet, &'a Reach)>,
}

impl Unfounded<'_> {
    /// Whether what "on" potential `p` implies on the reduced grid it implies on the
    /// step's grid too.
    #[inline]
    fn kept(calm: &PotSet, reach: &Reach, p: u16) -> bool {
        calm.has(p) && !reach.has(p)
    }

    /// Whether cell `c` of `b` has no cell forcing chain.
    pub(crate) fn cell(&self, b: &Board, c: usize) -> bool {
        let ons = || digits_of(b.cands[c]).map(|v| potential(c, v, true));
        !self.closure.meet(ons())
            || self.known.is_some_and(|(step, calm, reach)| {
                step.cands[c] == b.cands[c] && ons().all(|p| Self::kept(calm, reach, p))
            })
    }

    /// Whether digit `v` in house `h` of `b` has no region forcing chain.
    pub(crate) fn house(&self, b: &Board, h: usize, v: usize) -> bool {
        let places = b.pos[h][v];
        let ons = || digits_of(places).map(|i| potential(HOUSE_CELLS[h][i] as usize, v, true));
        !self.closure.meet(ons())
            || self.known.is_some_and(|(step, calm, reach)| {
                step.pos[h][v] == places && ons().all(|p| Self::kept(calm, reach, p))
            })
    }
}
