//! The sentences of the techniques that are not chains: singles, intersections, subsets,
//! fish, wings, strong links, ALS wings, uniqueness, BUG, aligned exclusion.

use std::fmt::{self, Write};

use super::Facts;
use crate::engines::rater::step::{House, Houses};
use crate::engines::rater::Technique;
use crate::grid::cell_name;

/// Writes the sentence of a step that is not a chain.
pub(super) fn describe(facts: &Facts<'_>, out: &mut String) -> fmt::Result {
    match facts.hint.technique {
        Technique::HiddenSingle | Technique::NakedSingle => single(facts, out),
        _ => super::generic(facts, out),
    }
}

/// "Hidden single in box 5: 7 can only go in r5c6." / "Last empty cell of row 3: r3c4
/// takes 7." / "Naked single: r5c6 can only hold 7."
fn single(facts: &Facts<'_>, out: &mut String) -> fmt::Result {
    let hint = facts.hint;
    let Some((cell, d)) = hint.place else {
        return super::generic(facts, out);
    };
    let (cell, digit) = (cell_name(cell), d + 1);
    let house = Houses(hint.houses).iter().next();
    match (hint.technique, house) {
        (Technique::HiddenSingle, Some(h)) if hint.difficulty.0 == 10 => {
            write!(out, "Last empty cell of {h:#}: {cell} takes {digit}.")
        }
        (Technique::HiddenSingle, Some(h)) => hidden(out, h, digit, cell),
        _ => write!(out, "Naked single: {cell} can only hold {digit}."),
    }
}

fn hidden(out: &mut String, h: House, digit: u8, cell: impl fmt::Display) -> fmt::Result {
    write!(
        out,
        "Hidden single in {h:#}: {digit} can only go in {cell}."
    )
}
