//! A step in words: one plain-English sentence (a few for a chain) naming the houses, cells
//! and digits the step rests on and what it places or removes, e.g. "Hidden single in box 5:
//! 7 can only go in r5c6." Our own phrasing, in the usual words of the field.
//!
//! Written only for `rate_with_steps`, into the rater's reused buffer: no allocation per
//! step once the buffer has grown to the longest sentence. [`describe`] picks the family's
//! writer; the pieces every writer uses (lists of cells, digits and houses, "so it is removed
//! from …") are here.

mod chains;
mod lines;
mod quiet;

use std::fmt::{self, Write};

use super::board::Board;
use super::chain::Branches;
use super::chains::Branched;
use super::hint::Hint;
use super::step::{Elimination, House, Houses, StepChain};
use super::Family;
use crate::grid::cell_name;

/// What a sentence is written from: the hint (before it is applied), its eliminations
/// listed by cell then digit, and its chains.
pub(crate) struct Facts<'a> {
    pub hint: &'a Hint,
    /// The grid the step is found on.
    pub board: &'a Board,
    pub eliminations: &'a [Elimination],
    pub chain: StepChain<'a>,
    /// Its chains as data.
    pub branches: Branches<'a>,
    /// How its branches were found, when it has branches.
    pub branched: Option<Branched>,
}

pub(crate) use lines::{lines, needed_excluders};

/// Writes the step's sentence into `out` (cleared first).
pub(crate) fn describe(facts: &Facts<'_>, out: &mut String) {
    out.clear();
    // Writing into a String cannot fail.
    let _ = match facts.hint.technique.family() {
        Family::Chain => chains::describe(facts, out),
        _ => quiet::describe(facts, out),
    };
}

/// The sentence any step can have: the technique, where it lies, what follows.
pub(crate) fn generic(facts: &Facts<'_>, out: &mut String) -> fmt::Result {
    let hint = facts.hint;
    out.push_str(hint.technique.name());
    if hint.digits != 0 {
        out.push_str(" on ");
        digit_list(out, hint.digits)?;
    }
    let houses = Houses(hint.houses | hint.cover);
    if !houses.is_empty() {
        out.push_str(" in ");
        houses_words(out, houses)?;
    }
    if let StepChain::Branches(branches) = facts.chain {
        write!(out, " ({} branches)", branches.iter().count())?;
    }
    out.push_str(": ");
    outcome(facts, out)
}

/// "7 goes in r5c6." or "3 is removed from r2c5 and r2c7." (digit by digit).
pub(crate) fn outcome(facts: &Facts<'_>, out: &mut String) -> fmt::Result {
    if let Some((cell, d)) = facts.hint.place {
        write!(out, "{} goes in {}", d + 1, cell_name(cell))?;
        if !facts.eliminations.is_empty() {
            out.push_str("; ");
        }
    }
    removals(out, facts.eliminations)?;
    out.push('.');
    Ok(())
}

/// "3 is removed from r2c5 and r2c7, 5 from r1c1" for eliminations listed by cell then
/// digit: grouped by digit, digits in order.
pub(crate) fn removals(out: &mut String, eliminations: &[Elimination]) -> fmt::Result {
    let mut first = true;
    for digit in 1..=9u8 {
        let mut cells = eliminations
            .iter()
            .filter(|e| e.digit == digit)
            .map(|e| e.cell)
            .peekable();
        if cells.peek().is_none() {
            continue;
        }
        if first {
            write!(out, "{digit} is removed from ")?;
        } else {
            write!(out, ", {digit} from ")?;
        }
        first = false;
        cell_list(out, cells)?;
    }
    Ok(())
}

/// "r1c1", "r1c1 and r1c2", "r1c1, r1c2 and r1c3".
pub(crate) fn cell_list(out: &mut String, cells: impl Iterator<Item = u8>) -> fmt::Result {
    words_list(out, cells.map(cell_name), |out, c| write!(out, "{c}"))
}

/// "3", "3 and 5", "1, 3 and 5" for a digit mask (bit `d - 1` for digit `d`).
pub(crate) fn digit_list(out: &mut String, digits: u16) -> fmt::Result {
    let digits = (1..=9u8).filter(|d| digits & (1 << (d - 1)) != 0);
    words_list(out, digits, |out, d| write!(out, "{d}"))
}

/// "row 2", "row 2 and box 1", houses in words in [`Houses::iter`]'s order.
pub(crate) fn houses_words(out: &mut String, houses: Houses) -> fmt::Result {
    words_list(out, houses.iter(), |out, h: House| write!(out, "{h:#}"))
}

/// Items separated by ", " with " and " before the last.
fn words_list<T>(
    out: &mut String,
    items: impl Iterator<Item = T>,
    mut write: impl FnMut(&mut String, T) -> fmt::Result,
) -> fmt::Result {
    let mut items = items.peekable();
    let mut first = true;
    while let Some(item) = items.next() {
        if !first {
            out.push_str(if items.peek().is_some() {
                ", "
            } else {
                " and "
            });
        }
        first = false;
        write(out, item)?;
    }
    Ok(())
}

/// The first house of `houses` (in [`Houses::iter`]'s order) that holds `cell`.
pub(crate) fn house_of(houses: u32, cell: u8) -> Option<House> {
    Houses(houses & super::board::HOUSE_BITS[cell as usize])
        .iter()
        .next()
}

/// "rows 2 and 7", "row 3 and column 7", "columns 1, 4 and 8, box 5": houses of one kind
/// share its word, kinds in [`Houses::iter`]'s order.
pub(crate) fn houses_grouped(out: &mut String, houses: Houses) -> fmt::Result {
    use super::step::HouseKind;
    let kinds = [
        (HouseKind::Row, "row", "rows"),
        (HouseKind::Column, "column", "columns"),
        (HouseKind::Box, "box", "boxes"),
    ];
    let present = kinds
        .into_iter()
        .filter(|&(kind, _, _)| houses.iter().any(|h| h.kind() == kind));
    words_list(out, present, |out, (kind, one, many)| {
        let of_kind = || houses.iter().filter(move |h| h.kind() == kind);
        let word = if of_kind().count() > 1 { many } else { one };
        write!(out, "{word} ")?;
        words_list(out, of_kind(), |out, h| write!(out, "{}", h.number()))
    })
}

/// "1 and 9 are removed from r8c1" when the eliminations are all in one cell, else
/// [`removals`]'s "3 is removed from r2c5 and r2c7, 5 from r1c1".
pub(crate) fn removals_short(out: &mut String, eliminations: &[Elimination]) -> fmt::Result {
    match eliminations {
        [first, rest @ ..] if rest.iter().all(|e| e.cell == first.cell) => {
            digit_list(out, removed_digits(eliminations))?;
            let verb = if rest.is_empty() { "is" } else { "are" };
            write!(out, " {verb} removed from {}", cell_name(first.cell))
        }
        _ => removals(out, eliminations),
    }
}

/// The cells of a step's eliminations, each once, in order ("r5c3 and r9c8").
pub(crate) fn removal_cells(out: &mut String, eliminations: &[Elimination]) -> fmt::Result {
    let mut last = None;
    let cells = eliminations.iter().map(|e| e.cell).filter(move |&c| {
        let new = last != Some(c);
        last = Some(c);
        new
    });
    cell_list(out, cells)
}

/// The digits of a step's eliminations as a mask (bit `d - 1` for digit `d`).
pub(crate) fn removed_digits(eliminations: &[Elimination]) -> u16 {
    eliminations.iter().fold(0, |m, e| m | 1 << (e.digit - 1))
}

/// "5", "5 or 6", "5, 6 or 9" for a digit mask (bit `d - 1` for digit `d`): alternatives.
pub(crate) fn digit_alternatives(out: &mut String, digits: u16) -> fmt::Result {
    let start = out.len();
    digit_list(out, digits)?;
    or_before_last(out, start);
    Ok(())
}

/// "r1c1", "r1c1 or r1c2", "r1c1, r1c2 or r1c3".
pub(crate) fn cell_alternatives(out: &mut String, cells: impl Iterator<Item = u8>) -> fmt::Result {
    let start = out.len();
    cell_list(out, cells)?;
    or_before_last(out, start);
    Ok(())
}

/// Turns the list written from `start` on into alternatives: its last " and " into " or "
/// (no cell, digit or house name holds one).
fn or_before_last(out: &mut String, start: usize) {
    if let Some(i) = out[start..].rfind(" and ") {
        out.replace_range(start + i..start + i + 5, " or ");
    }
}
