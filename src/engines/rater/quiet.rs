//! What a local technique found nothing on, so that its next search skips what has not
//! changed since.

use super::board::{Board, ALL_DIGITS, CELLS};
use super::hint::Hint;

/// The candidates of the last grid on which a technique found nothing, kept so that its next
/// search can skip what no candidate change since has reached. A local technique (aligned
/// pair and triplet exclusion read their cells and those cells' common peers; fish and
/// Nishio forcing chains, one digit's places) finds nothing where its inputs are those it
/// found nothing on, whatever the puzzle. Only grids without a naked single are kept and
/// compared: such techniques run once those are placed, and only then do aligned
/// exclusion's base cells depend on nothing but their own inputs.
pub(crate) struct Quiet {
    cands: [u16; CELLS],
    /// Whether `cands` holds such a grid.
    kept: bool,
}

impl Quiet {
    pub(crate) const fn new() -> Quiet {
        Quiet {
            cands: [0; CELLS],
            kept: false,
        }
    }

    /// Whether `b` can be compared with the kept grid: there is one, and `b` has no naked
    /// single.
    fn comparable(&self, b: &Board) -> bool {
        self.kept && b.naked == 0
    }

    /// The cells whose candidates changed since the kept grid: all when it is not
    /// [`Quiet::comparable`].
    fn changed_cells(&self, b: &Board) -> u128 {
        if !self.comparable(b) {
            return !0;
        }
        (0..CELLS).fold(0u128, |s, c| {
            s | u128::from(self.cands[c] != b.cands[c]) << c
        })
    }

    /// The digits whose places changed since the kept grid: all when it is not
    /// [`Quiet::comparable`].
    pub(crate) fn changed_digits(&self, b: &Board) -> u16 {
        if !self.comparable(b) {
            return ALL_DIGITS;
        }
        (0..CELLS).fold(0u16, |s, c| s | (self.cands[c] ^ b.cands[c]))
    }

    /// Keeps `b` if the producer `found` nothing on it (and it has no naked single).
    pub(crate) fn update(&mut self, b: &Board, found: bool) {
        self.kept = !found && b.naked == 0;
        if self.kept {
            self.cands = b.cands;
        }
    }

    /// Runs `search` on `b` given the cells changed since the kept grid (`!0`: all), and
    /// keeps `b` if it found nothing.
    pub(crate) fn by_cells(
        &mut self,
        b: &Board,
        hint: &mut Hint,
        search: impl Fn(&mut Hint, u128) -> bool,
    ) -> bool {
        let changed = self.changed_cells(b);
        self.run(b, hint, (changed, !0), search)
    }

    /// Runs `search` on `b` given the digits whose places changed since the kept grid
    /// (`ALL_DIGITS`: all), and keeps `b` if it found nothing.
    pub(crate) fn by_digits(
        &mut self,
        b: &Board,
        hint: &mut Hint,
        search: impl Fn(&mut Hint, u16) -> bool,
    ) -> bool {
        let changed = self.changed_digits(b);
        self.run(b, hint, (changed, ALL_DIGITS), search)
    }

    /// Runs `search` given what changed (`all`: everything), and keeps `b` if it found
    /// nothing; under `cargo test`, a search that skipped something must find the hint the
    /// whole search finds.
    fn run<M: Copy + PartialEq>(
        &mut self,
        b: &Board,
        hint: &mut Hint,
        (changed, all): (M, M),
        search: impl Fn(&mut Hint, M) -> bool,
    ) -> bool {
        let found = search(hint, changed);
        if cfg!(debug_assertions) && changed != all {
            same_as_whole(found, hint, |h| search(h, all));
        }
        self.update(b, found);
        found
    }
}

/// Asserts that a search which skipped what a [`Quiet`] grid ruled out found the hint the
/// whole search (`whole`) finds (run under `cargo test` only).
fn same_as_whole(found: bool, hint: &Hint, whole: impl FnOnce(&mut Hint) -> bool) {
    let mut all = hint.clone();
    let whole_found = whole(&mut all);
    assert!(
        whole_found == found && (!found || all.elim == hint.elim),
        "a search skipped a hint"
    );
}
