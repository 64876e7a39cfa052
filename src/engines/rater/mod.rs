//! Human-style difficulty ratings: Sudoku Explainer's ER/EP/ED, by solving a puzzle the way
//! SE 1.2.1.3 does, step by step.
//!
//! ```text
//!  Rater::rate(puzzle, solution)
//!    │ Board::load: candidates of the givens (cell masks, house x digit position masks)
//!    ▼
//!  ┌─ step loop ──────────────────────────────────────────────────────────────────────┐
//!  │  finders in ladder order; the FIRST hint the first finder reports is the step     │
//!  │  (SE's SingleHintAccumulator), whatever a later finder might have rated lower     │
//!  │  apply: eliminations, then the placement (a placed digit leaves its 20 peers)     │
//!  │  ER = max difficulty; ED = the first step's; EP = the running max at the first    │
//!  │  step that places a digit                                                         │
//!  └─ until solved, or no finder applies (capped), or the next step > max_rating ─────┘
//! ```
//!
//! # The modules
//!
//! | module | holds |
//! |---|---|
//! | `step` | the values it gives: [`Difficulty`], [`Rating`], [`Step`] and what a step places, removes and rests on |
//! | `technique` | every [`Technique`] of every ladder, with SE's name and its [`Family`] |
//! | `ladder` | the [`Ladder`]s (their techniques in order are drawn there): finders in order, each with its least difficulty |
//! | `board`, `hint` | the candidate grid the finders read, and the hint they fill |
//! | `singles`, `subsets`, `wings`, `uniqueness`, `bug`, `exclusion`, `strong`, `als_wings` | the finders below chains |
//! | `chains` | the chain producers (cycles, forcing, Nishio, multiple, dynamic, nested) |
//! | `quiet` | the last grid a local technique found nothing on |
//!
//! # Speed: what is kept between steps
//!
//! Every step runs the finders from the top, as SE does, so the cheap ones must stay cheap:
//! - the board keeps, incrementally, the digits with one place per house, the houses with
//!   one empty cell and the cells with one candidate: hidden and naked singles are O(1);
//! - a house a direct hidden pair/triplet scan found empty stays skipped until one of its
//!   positions changes; likewise an intersection scan from one first house, until a house it
//!   reads changes;
//! - subsets visit only sets of members that can fit (2 to `degree` places or candidates);
//!   intersections compute the one crossing house of a digit's places directly;
//! - the unique-loop walk (SE's depth-first search, exponential in the worst case) does not
//!   enter a cell that cannot lie on a loop (another cell with both digits in fewer than two
//!   of its houses) or that repeats a house on its side of the path (SE's validity test
//!   rejects every loop through it); it still lets such cells add their extra digits to the
//!   set SE accumulates, so the loops found, and their order, are SE's;
//! - the local techniques (X-Wing, Swordfish, Jellyfish and aligned pair exclusion here;
//!   aligned triplet exclusion and Nishio forcing chains among the chains) keep the last grid
//!   they found nothing on (`quiet::Quiet`) and look again only where a candidate changed
//!   since: a fish at the digits whose places changed, an aligned exclusion at the cells
//!   that changed or whose common peers did. What they read there is what they found
//!   nothing on, so the hint found is the whole search's (checked under `cargo test`: each
//!   such search is run whole too and must find the same hint).

// Cells, houses and digits are small indexes into parallel tables: indexing reads better
// than zipped iterators here.
#![allow(clippy::needless_range_loop)]

mod als_wings;
mod board;
mod bug;
mod chain;
mod chains;
mod exclusion;
mod hint;
mod ladder;
mod quiet;
mod singles;
mod step;
mod strong;
mod subsets;
mod technique;
mod text;
mod uniqueness;
mod wings;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::grid::Grid;
use crate::position::Position;
use board::Board;
use hint::Hint;
use ladder::Finders;

pub use chain::{Branch, Branches, Lines, Link, LinkKind, NestedChain, Potential, Rule, Why};
pub use ladder::{Ladder, ParseLadderError};
pub use step::{
    ChainBranches, Difficulty, Elimination, House, HouseKind, Houses, ParseDifficultyError,
    Placement, Rating, Step, StepChain,
};
pub use technique::{Family, Technique};

/// How to rate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RateOptions {
    /// The technique ladder.
    pub ladder: Ladder,
    /// Stop a puzzle's path once the next step would be harder than this (the result is
    /// capped).
    pub max_rating: Option<Difficulty>,
}

/// Rates puzzles. Holds all its scratch, so it allocates nothing per puzzle; one lives per
/// worker thread (it is `Send`), and it gives the same result whatever thread runs it.
pub struct Rater {
    options: RateOptions,
    board: Board,
    hint: Hint,
    eliminations: [Elimination; 729],
    /// The finders' memory from step to step, and the chain producers' scratch.
    finders: Finders,
    /// A step's chains as data, and in Eureka notation (written only for
    /// `rate_with_steps`).
    record: chain::Record,
    chain_text: String,
    /// A step's sentence (written only for `rate_with_steps`).
    step_text: String,
    /// Raised by another thread: end the rating in hand early.
    stop: Stop,
}

/// A flag another thread raises to end ratings early (Ctrl-C during a long call), looked at
/// before each step and before each assumption of the dynamic forcing chains, so a raised
/// flag is seen within milliseconds. A rating it ended is meaningless: the caller that raised
/// it drops the result.
#[derive(Clone, Debug, Default)]
pub struct Stop(Option<Arc<AtomicBool>>);

impl Stop {
    /// A stop raised when `flag` is set.
    pub fn new(flag: Arc<AtomicBool>) -> Stop {
        Stop(Some(flag))
    }

    /// Whether the flag is raised.
    #[inline]
    pub fn raised(&self) -> bool {
        self.0.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
    }
}

/// Bytes reserved for a step's chains, so that `rate_with_steps` does not allocate either: ten
/// times the longest of the 64,889 chain steps of top1465 and of every 20th Exchange
/// diabolical puzzle (1,570 bytes, a dynamic contradiction forcing chain of 9.6). A longer
/// one grows the text.
const CHAIN_TEXT: usize = 1 << 14;

/// Bytes reserved for a step's sentence, for the same reason (a chain step's sentence names
/// every branch's assumption and what follows).
const STEP_TEXT: usize = 1 << 13;

impl Rater {
    /// A rater with these options.
    pub fn new(options: RateOptions) -> Rater {
        Rater {
            options,
            board: Board::blank(),
            hint: Hint::new(),
            eliminations: [Elimination { cell: 0, digit: 0 }; 729],
            finders: Finders::new(),
            stop: Stop::default(),
            record: chain::Record::new(),
            chain_text: String::with_capacity(CHAIN_TEXT),
            step_text: String::with_capacity(STEP_TEXT),
        }
    }

    /// The same rater, ending a rating early once `stop` is raised.
    pub fn stop_when(mut self, stop: Stop) -> Rater {
        self.finders.chains.stop_when(&stop);
        self.stop = stop;
        self
    }

    /// A fresh rater with the same options and stop flag (in place of one whose scratch a
    /// panic may have left half-written).
    pub fn renewed(&self) -> Rater {
        Rater::new(self.options).stop_when(self.stop.clone())
    }

    /// The options it rates with.
    pub fn options(&self) -> RateOptions {
        self.options
    }

    /// Rates a valid puzzle with exactly one solution; `solution` is that solution (the
    /// caller has solved it first, e.g. with `solver::solve_with_limit(puzzle, 2)`).
    pub fn rate(&mut self, puzzle: &Grid, solution: &Grid) -> Rating {
        self.board.load(puzzle.cells());
        self.run(solution, None, u32::MAX)
    }

    /// The same, calling `on_step` for every step of the path in order.
    pub fn rate_with_steps(
        &mut self,
        puzzle: &Grid,
        solution: &Grid,
        on_step: &mut dyn FnMut(&Step<'_>),
    ) -> Rating {
        self.board.load(puzzle.cells());
        self.run(solution, Some(on_step), u32::MAX)
    }

    /// Rates a position (a candidate grid) with exactly one solution, `solution`, calling
    /// `on_step` (when given) for every step. A cell with one candidate that no peer holds
    /// is placed; a single candidate a peer still holds is an empty cell, whose placing is
    /// a step. The position [`Position::from_grid`] makes of a puzzle rates as the puzzle.
    pub fn rate_position(
        &mut self,
        position: &Position,
        solution: &Grid,
        on_step: Option<&mut dyn FnMut(&Step<'_>)>,
    ) -> Rating {
        self.board.load_position(position.masks());
        self.run(solution, on_step, u32::MAX)
    }

    /// The next step from a position, as [`rate_position`](Self::rate_position) would take
    /// it, given to `on_step`: one step's work, not the path's. The rating says what
    /// happened: one step (`steps == 1`), none because every cell is placed (`steps == 0`,
    /// not capped), or none because no technique of the ladder applies or the next is above
    /// the cap (`capped`).
    pub fn next_step(
        &mut self,
        position: &Position,
        solution: &Grid,
        on_step: &mut dyn FnMut(&Step<'_>),
    ) -> Rating {
        self.board.load_position(position.masks());
        self.run(solution, Some(on_step), 1)
    }

    /// The step loop from the loaded board, for at most `max_steps` steps.
    fn run(
        &mut self,
        solution: &Grid,
        mut on_step: Option<&mut dyn FnMut(&Step<'_>)>,
        max_steps: u32,
    ) -> Rating {
        let ladder = self.options.ladder.rungs();
        let mut rating = Rating::default();
        let mut er_exact = 0.0f64;
        while !self.board.solved() && rating.steps < max_steps {
            if self.stop.raised() {
                rating.capped = true;
                break;
            }
            let found = self.finders.find(
                ladder,
                self.options.max_rating,
                &mut self.board,
                &mut self.hint,
                solution.cells(),
            );
            if !found {
                rating.capped = true;
                break;
            }
            let difficulty = self.hint.difficulty;
            if self.options.max_rating.is_some_and(|max| difficulty > max) {
                rating.capped = true;
                break;
            }
            // SE keeps the hardest step by comparing its doubles.
            let exact = self.hint.exact.unwrap_or(f64::from(difficulty.0) / 10.0);
            if rating.steps == 0 || exact > er_exact {
                er_exact = exact;
                rating.er = difficulty;
                rating.hardest = Some(self.hint.technique);
            }
            if rating.steps == 0 {
                rating.ed = rating.er;
            }
            if rating.ep == Difficulty(0) && self.hint.place.is_some() {
                rating.ep = rating.er;
            }
            rating.steps += 1;
            if let Some(callback) = on_step.as_mut() {
                self.report(&mut **callback);
            }
            apply(&mut self.board, &self.hint);
        }
        rating
    }

    fn report(&mut self, on_step: &mut dyn FnMut(&Step<'_>)) {
        self.chain_text.clear();
        self.record.clear();
        let shape = if self.hint.technique.is_chain() {
            let chains = &mut self.finders.chains;
            let shape = chains.explain(&self.board, &mut self.record);
            self.record.write_eureka(&mut self.chain_text);
            chains.complete(&self.board, &self.record, &mut self.hint);
            shape
        } else {
            chains::Shape::None
        };
        let hint = &self.hint;
        let mut n = 0;
        for c in board::cells_of(hint.elim_cells) {
            for d in board::digits_of(hint.elim[c]) {
                self.eliminations[n] = Elimination {
                    cell: c as u8,
                    digit: d as u8 + 1,
                };
                n += 1;
            }
        }
        let eliminations = &self.eliminations[..n];
        let board = &self.board;
        self.record.write_lines(|branches, top, out| {
            text::lines(hint, board, eliminations, (branches, top), out);
        });
        let placement = hint.place.map(|(cell, d)| Placement { cell, digit: d + 1 });
        let (chain, branched) = match shape {
            chains::Shape::None => (StepChain::None, None),
            chains::Shape::Single => (StepChain::Single(&self.chain_text), None),
            chains::Shape::Branches(branched) => (
                StepChain::Branches(ChainBranches(&self.chain_text)),
                Some(branched),
            ),
        };
        let facts = text::Facts {
            hint,
            board: &self.board,
            eliminations,
            chain,
            branches: self.record.view(),
            branched,
        };
        text::describe(&facts, &mut self.step_text);
        let step = Step {
            technique: hint.technique,
            difficulty: hint.difficulty,
            houses: Houses(hint.houses | hint.cover),
            cells: &hint.cells[..hint.n_cells as usize],
            digits: hint.digits,
            placements: placement.as_slice(),
            eliminations,
            chain,
            branches: self.record.view(),
            text: &self.step_text,
            lines: self.record.lines(),
        };
        on_step(&step);
    }
}

impl Default for Rater {
    fn default() -> Rater {
        Rater::new(RateOptions::default())
    }
}

/// Applies a hint as SE does: eliminations first, then the placement.
fn apply(b: &mut Board, hint: &Hint) {
    for c in board::cells_of(hint.elim_cells) {
        b.remove_mask(c, hint.elim[c]);
    }
    if let Some((cell, d)) = hint.place {
        b.place(cell as usize, d as usize);
    }
}

/// Rates one puzzle with default options (SE's ladder, no cap).
pub fn rate(puzzle: &Grid, solution: &Grid) -> Rating {
    Rater::default().rate(puzzle, solution)
}

#[cfg(test)]
mod tests;
