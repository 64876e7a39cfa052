//! What a nested producer gives: one hint on a grid an assumption reduced ([`Nested`]), with
//! what it removes there and its *rule parents* (SE's `getRuleParents`: the candidates the
//! assumption removed that the hint's links need gone), and the helpers every nested
//! producer reads them with.
//!
//! Layer: the nesting driver's, over [`shared`](super::super::shared): what every nested
//! half hands the driver.

use crate::engines::rater::board::{two_cells, Board, CELL_HOUSES, HOUSE_MASK};
use crate::engines::rater::chains::forcing::Pass;
use crate::engines::rater::chains::shared::bits::CandSet;
use crate::engines::rater::chains::shared::key::Key;
use crate::engines::rater::chains::shared::links::{cell_of, digit_of, is_on};

/// One hint of a producer on a grid an assumption reduced, for nested chains: one of SE's
/// `getHints` on that grid.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Nested {
    pub key: Key,
    /// Its place in SE's discovery order (SE's sort is stable).
    pub order: u32,
    /// The candidates it removes from the reduced grid.
    pub removals: CandSet,
    /// The candidates the assumption removed that it rests on (SE's `getRuleParents`).
    pub parents: CandSet,
    /// Its potentials, from the assumption on, as a fingerprint
    /// ([`nest_set`](crate::engines::rater::chains::shared::nest_set)).
    pub chain: u64,
    /// The cells of its potentials and of the nested chains they rest on.
    pub cells: u128,
    /// Where its search found it: what `--steps` needs to find its chains again.
    pub origin: Origin,
}

/// Where a nested hint was found, to record its chains again for `--steps` (a few bytes a
/// hint: its chains are not kept).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Origin {
    /// A cycle of `pass` from "root on": the tree path to "on" `on`, then "off" `off`, back
    /// to the root.
    Cycle {
        pass: Pass,
        root: u16,
        on: u16,
        off: u16,
    },
    /// The chain of `pass` from "root on" to "root off": the tree path to `at`, then "root
    /// off".
    FromOn { pass: Pass, root: u16, at: u16 },
    /// The chain of `pass` from "root off" to "root on": the tree path (from "root off") to
    /// `at`, then "root on".
    FromOff { pass: Pass, root: u16, at: u16 },
    /// From every candidate of `cell` to `target`.
    Cell { cell: u8, target: u16 },
    /// From every place of `digit` in `house` to `target`.
    Region { house: u8, digit: u8, target: u16 },
    /// From `root` to a clash.
    Contradiction { root: u16 },
    /// From `digit` of `cell` on and off to `target`.
    Double { cell: u8, digit: u8, target: u16 },
}

/// What a hint given on a reduced grid adds to the outer hints that rest on it: for a
/// nested chain its complexity (counted once an outer hint), fingerprint and cells; for a
/// basic rule's hint nothing ([`NestedChain::NONE`]).
#[derive(Clone, Copy)]
pub(crate) struct NestedChain {
    pub complexity: u32,
    pub print: u64,
    pub cells: u128,
}

impl NestedChain {
    /// A basic rule's hint: no nested chain.
    pub(crate) const NONE: NestedChain = NestedChain {
        complexity: 0,
        print: 0,
        cells: 0,
    };

    /// What `hint` adds.
    pub(crate) fn of(hint: &Nested) -> NestedChain {
        NestedChain {
            complexity: hint.key.complexity,
            print: hint.chain,
            cells: hint.cells,
        }
    }
}

impl Nested {
    /// A hint with nothing in it yet, `order`-th discovered, found at `origin`.
    pub(crate) fn empty(key: Key, order: usize, origin: Origin) -> Nested {
        Nested {
            key,
            order: order as u32,
            removals: CandSet::EMPTY,
            parents: CandSet::EMPTY,
            chain: 0,
            cells: 0,
            origin,
        }
    }

    /// SE's order of a producer's hints: by [`Key::before`], then as discovered (SE's sort
    /// is stable).
    pub(crate) fn se_order(&self, other: &Nested) -> std::cmp::Ordering {
        if self.key.before(&other.key) {
            std::cmp::Ordering::Less
        } else if other.key.before(&self.key) {
            std::cmp::Ordering::Greater
        } else {
            self.order.cmp(&other.order)
        }
    }
}

/// What a hint concluding `p` removes from `b`: an "on" conclusion its cell's other
/// candidates, an "off" one its own candidate; none when that is nothing (SE's `isWorth`).
pub(crate) fn conclusion_removals(b: &Board, p: u16) -> Option<CandSet> {
    let (c, d) = (cell_of(p), digit_of(p));
    let mut removals = CandSet::EMPTY;
    let digits = if is_on(p) {
        b.cands[c] & !(1 << d)
    } else {
        1 << d
    };
    if digits == 0 {
        return None;
    }
    removals.add_digits(c, digits);
    Some(removals)
}

/// The candidates `src` had and `b` lost that the link from "off" `from` to "on" `to`
/// rests on (SE's cause of `to` and `collectRuleParents`): `to`'s cell's if the link is in
/// the cell, else the digit's places in the first of `from`'s block, row and column through
/// `to` where it has two.
pub(crate) fn on_parents(src: &Board, b: &Board, from: u16, to: u16, set: &mut CandSet) {
    lost_parents(src, b, (from, to), |m, d| two_cells(b.planes[d] & m), set);
}

/// As [`on_parents`], for "off" `to` reached from "on" `from`, read backwards (a reversed
/// cycle, where `to` is "on"): the cell's lost candidates if the link is in the cell, else
/// the digit's lost places in the first of `from`'s block, row and column through `to`.
pub(crate) fn off_parents(src: &Board, b: &Board, from: u16, to: u16, set: &mut CandSet) {
    lost_parents(src, b, (from, to), |_, _| true, set);
}

/// The candidates `src` had and `b` lost that link `from` → `to` rests on: `to`'s cell's
/// if the link is in the cell, else the digit's places in the first house of `from`
/// through `to` (block, row, column) that `house(mask, digit)` takes.
fn lost_parents(
    src: &Board,
    b: &Board,
    (from, to): (u16, u16),
    house: impl Fn(u128, usize) -> bool,
    set: &mut CandSet,
) {
    let (fc, tc, d) = (cell_of(from), cell_of(to), digit_of(to));
    if fc == tc {
        set.add_digits(tc, src.cands[tc] & !b.cands[tc]);
        return;
    }
    for &h in &CELL_HOUSES[fc] {
        let m = HOUSE_MASK[h as usize];
        if m >> tc & 1 == 1 && house(m, d) {
            set.add_cells(src.planes[d] & !b.planes[d] & m, d);
            return;
        }
    }
}
