//! Every hint of multiple forcing chains ([`multiple`](super::super::multiple)) on a grid an
//! assumption reduced, for nested chains of level 3: SE's `getHints` of `Chaining(true,
//! false, false, 0)` on that grid, in its discovery order (for each cell of three
//! candidates or more, for each digit, its region hints, then the cell's hints), nothing
//! cut, each hint with its rule parents (those of the "on" potentials of all its chains;
//! the assumptions count as the cell's naked single, or the house's hidden single).
//!
//! Layer: the nesting driver's, over the producer's propagation
//! ([`multiple`](super::super::multiple)) and [`branches`](super::branches).

use super::branches::{Branch, Branches, Walked};
use super::hint::{on_parents, Nested};
use super::reach::Unfounded;
use crate::engines::rater::board::Board;
use crate::engines::rater::chains::multiple::{Implied, BASE};
use crate::engines::rater::chains::shared::bits::CandSet;
use crate::engines::rater::chains::shared::links::{cell_of, is_on, potential, Graph};
use crate::engines::rater::chains::shared::record::{Tree, ROOT};

/// The propagations of one cell's digits and of one house's places.
pub(crate) struct Every {
    branches: Branches<Implied>,
}

impl Every {
    pub(crate) fn new() -> Box<Every> {
        Box::new(Every {
            branches: Branches::new(Implied::new),
        })
    }

    /// Every hint of the producer on `b` (its links listed in `graph`), a grid the
    /// assumptions of a dynamic propagation reduced from `src`, in SE's discovery order,
    /// appended to `out`; the cells and houses `none` says have none are left out.
    pub(crate) fn hints(
        &mut self,
        (src, b): (&Board, &Board),
        graph: &mut Graph,
        none: Option<&Unfounded<'_>>,
        out: &mut Vec<Nested>,
    ) {
        self.branches.every(
            (src, b),
            (3, none),
            graph,
            out,
            |branches, graph, (c, v), _| {
                branches.per_digit[v].propagate_on(b, potential(c, v, true), graph);
            },
        );
    }
}

impl Every {
    /// A propagation to run a found hint's assumptions again in, for `--steps`.
    pub(crate) fn scratch(&mut self) -> &mut Implied {
        &mut self.branches.per_digit[0]
    }
}

impl Branch for Implied {
    /// A static propagation needs the grid's links alone, listed once a grid.
    type Nesting = Graph;

    fn propagate_on(&mut self, _: &Board, root: u16, graph: &mut Graph) {
        self.propagate(graph, root);
    }

    fn base(&self) -> f64 {
        BASE
    }

    /// The complexity is the sum of the conclusion's depths; the fingerprint mixes each
    /// chain's potentials in order, from the conclusion back.
    fn walk_chains(src: &Board, b: &Board, p: u16, chains: &[&Implied]) -> Walked {
        let mut parents = CandSet::EMPTY;
        let mut complexity = 0;
        let mut print = 0x2545_f491_4f6c_dd1d_u64;
        let mut cells = 0u128;
        for x in chains {
            complexity += x.depth(p);
            let mut q = p;
            loop {
                print = (print ^ u64::from(q))
                    .wrapping_mul(0x9e37_79b9_7f4a_7c15)
                    .rotate_left(27);
                cells |= 1u128 << cell_of(q);
                let parent = x.parent(q);
                if parent == ROOT {
                    break;
                }
                if is_on(q) {
                    on_parents(src, b, parent, q, &mut parents);
                }
                q = parent;
            }
            print = print.rotate_left(7) ^ 0xff;
        }
        Walked {
            parents,
            complexity,
            print,
            cells,
        }
    }
}
