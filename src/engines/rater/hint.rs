//! One hint: what a technique found, before the step loop applies it.

use super::board::CELLS;
use super::{Difficulty, Technique};

/// The hint a finder fills in: the technique and its difficulty, the cells and digits it
/// rests on, at most one placement and any number of eliminations (as per-cell masks).
#[derive(Clone)]
pub(crate) struct Hint {
    pub technique: Technique,
    pub difficulty: Difficulty,
    /// `(cell, digit - 1)` placed by the hint.
    pub place: Option<(u8, u8)>,
    /// Digits removed per cell (bit `d` for digit `d + 1`).
    pub elim: [u16; CELLS],
    /// The cells with a nonzero `elim` mask.
    pub elim_cells: u128,
    /// The cells the hint rests on, in the order the technique names them.
    pub cells: [u8; CELLS],
    pub n_cells: u8,
    /// The digits the hint rests on.
    pub digits: u16,
    /// The houses the pattern lies in (bit `h` for board house `h`: a hidden single's house,
    /// a pointing's box, a fish's base lines).
    pub houses: u32,
    /// The houses it removes from, when they are not those (a pointing's line, a fish's
    /// cover lines).
    pub cover: u32,
    /// Digits the sentence tells apart from `digits`: an ALS wing's bivalue cell's two, a
    /// unique loop's (type 3) or a BUG's (type 3) subset, a BUG's extra digits (type 4).
    pub extra: u16,
    /// How many of the first `cells` are the pattern proper when cells it leans on follow
    /// (a unique loop's cells before a type 3's subset, a BUG's cells before its subset);
    /// 0 when they all are.
    pub pattern: u8,
    /// SE's difficulty as the double it computes, for chaining hints (their length bonus
    /// is a sum of 0.1s, so two hints printed alike can differ: 6.6 + 0.1 < 6.5 + 0.2);
    /// `None` for the others, whose difficulties are SE's literals.
    pub exact: Option<f64>,
}

impl Hint {
    pub(crate) const fn new() -> Hint {
        Hint {
            technique: Technique::HiddenSingle,
            difficulty: Difficulty(0),
            place: None,
            elim: [0; CELLS],
            elim_cells: 0,
            cells: [0; CELLS],
            n_cells: 0,
            digits: 0,
            houses: 0,
            cover: 0,
            extra: 0,
            pattern: 0,
            exact: None,
        }
    }

    /// Forgets the previous hint (only the eliminations it set are cleared).
    #[inline]
    pub(crate) fn clear(&mut self) {
        let mut set = self.elim_cells;
        while set != 0 {
            self.elim[set.trailing_zeros() as usize] = 0;
            set &= set - 1;
        }
        self.elim_cells = 0;
        self.place = None;
        self.n_cells = 0;
        self.digits = 0;
        self.houses = 0;
        self.cover = 0;
        self.extra = 0;
        self.pattern = 0;
        self.exact = None;
    }

    /// Starts a hint of `technique` at `difficulty` (tenths).
    #[inline]
    pub(crate) fn start(&mut self, technique: Technique, difficulty: u8) {
        self.clear();
        self.technique = technique;
        self.difficulty = Difficulty(difficulty);
    }

    /// Adds a cell the hint rests on.
    #[inline]
    pub(crate) fn add_cell(&mut self, cell: usize) {
        if (self.n_cells as usize) < CELLS {
            self.cells[self.n_cells as usize] = cell as u8;
            self.n_cells += 1;
        }
    }

    /// Adds a house (board numbering) the pattern lies in.
    #[inline]
    pub(crate) fn add_house(&mut self, house: usize) {
        self.houses |= 1 << house;
    }

    /// Adds a house (board numbering) the hint removes from.
    #[inline]
    pub(crate) fn add_cover(&mut self, house: usize) {
        self.cover |= 1 << house;
    }

    /// Removes the digits of `mask` from `cell`.
    #[inline]
    pub(crate) fn eliminate(&mut self, cell: usize, mask: u16) {
        if mask != 0 {
            self.elim[cell] |= mask;
            self.elim_cells |= 1u128 << cell;
        }
    }

    /// Places digit `d` (0-based) in `cell`.
    #[inline]
    pub(crate) fn set_place(&mut self, cell: usize, d: usize) {
        self.place = Some((cell as u8, d as u8));
    }
}
