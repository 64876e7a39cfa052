//! The sentences of the techniques that are not chains: singles, intersections and subsets
//! here; fish, wings, strong links and ALS wings in `patterns`; unique loops, BUGs and
//! aligned exclusion in `uniqueness`.
//!
//! What each sentence names besides what is placed or removed, and where it finds it:
//! - a single, an intersection, a subset: its houses (`houses`, the intersection's line or
//!   box in `cover`) and the cells the digits are confined to (`cells`);
//! - a fish: its base lines (`houses`), cover lines (`cover`) and base cells;
//! - wings, ALS wings, strong links: every cell of the pattern, in the finder's order;
//! - unique loops and BUGs: the loop's or BUG's cells, then those of a type 3's subset.

mod patterns;
mod uniqueness;

use std::fmt::{self, Write};

use super::{cell_list, digit_list, house_of, removals_short, Facts};
use crate::engines::rater::step::{House, Houses};
use crate::engines::rater::{Family, Technique};
use crate::grid::cell_name;

/// Writes the sentence of a step that is not a chain.
pub(super) fn describe(facts: &Facts<'_>, out: &mut String) -> fmt::Result {
    match facts.hint.technique.family() {
        Family::Single => single(facts, out),
        Family::Intersection => intersection(facts, out),
        Family::Subset => subset(facts, out),
        Family::Fish => patterns::fish(facts, out),
        Family::Wing => patterns::wing(facts, out),
        Family::StrongLinks => patterns::strong_links(facts, out),
        Family::AlsWing => patterns::als_wing(facts, out),
        Family::Uniqueness => uniqueness::unique_loop(facts, out),
        Family::Bug => uniqueness::bug(facts, out),
        Family::Exclusion => uniqueness::exclusion(facts, out),
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

/// The cells a step rests on, its placed cell left out.
fn pattern_cells<'a>(facts: &'a Facts<'_>) -> &'a [u8] {
    let hint = facts.hint;
    let cells = &hint.cells[..hint.n_cells as usize];
    match hint.place {
        Some((placed, _)) if cells.last() == Some(&placed) => &cells[..cells.len() - 1],
        _ => cells,
    }
}

/// "; then 9 can only go in r7c5 in row 7." (the hidden single a direct technique leaves),
/// or ", so 3 is removed from r2c5 and r2c7."
fn conclusion(facts: &Facts<'_>, out: &mut String) -> fmt::Result {
    let hint = facts.hint;
    if let Some((cell, d)) = hint.place {
        write!(out, "; then {} can only go in {}", d + 1, cell_name(cell))?;
        if let Some(h) = house_of(hint.houses, cell) {
            write!(out, " in {h:#}")?;
        }
    } else {
        out.push_str(", so ");
        removals_short(out, facts.eliminations)?;
    }
    out.push('.');
    Ok(())
}

/// "Pointing: in box 1, 3 lies only in row 2, so 3 is removed from r2c5 and r2c7." /
/// "Direct claiming: in row 4, 6 lies only in box 5; then 6 can only go in r6c2 in row 6."
fn intersection(facts: &Facts<'_>, out: &mut String) -> fmt::Result {
    let hint = facts.hint;
    let name = match hint.technique {
        Technique::DirectPointing => "Direct pointing",
        Technique::DirectClaiming => "Direct claiming",
        Technique::Claiming => "Claiming",
        _ => "Pointing",
    };
    let cells = pattern_cells(facts);
    let base = cells.first().and_then(|&c| house_of(hint.houses, c));
    let line = Houses(hint.cover).iter().next();
    let (Some(base), Some(line)) = (base, line) else {
        return super::generic(facts, out);
    };
    write!(out, "{name}: in {base:#}, ")?;
    digit_list(out, hint.digits)?;
    write!(out, " lies only in {line:#} (")?;
    cell_list(out, cells.iter().copied())?;
    out.push(')');
    conclusion(facts, out)
}

/// "Naked pair in row 2: r2c1 and r2c3 hold only 3 and 5, so 3 is removed from r2c5, 5
/// from r2c8." / "Hidden triplet in box 3: 2, 6 and 8 lie only in r1c7, r2c9 and r3c8, so
/// …" / "Direct hidden pair in row 4: 2 and 6 lie only in r4c1 and r4c5; then 7 can only go
/// in r4c9 in row 4."
fn subset(facts: &Facts<'_>, out: &mut String) -> fmt::Result {
    let hint = facts.hint;
    let (name, naked) = match hint.technique {
        Technique::DirectHiddenPair => ("Direct hidden pair", false),
        Technique::DirectHiddenTriplet => ("Direct hidden triplet", false),
        Technique::NakedPair => ("Naked pair", true),
        Technique::NakedTriplet => ("Naked triplet", true),
        Technique::NakedQuad => ("Naked quad", true),
        Technique::HiddenPair => ("Hidden pair", false),
        Technique::HiddenTriplet => ("Hidden triplet", false),
        _ => ("Hidden quad", false),
    };
    let cells = pattern_cells(facts);
    let Some(house) = Houses(hint.houses).iter().next() else {
        return super::generic(facts, out);
    };
    write!(out, "{name} in {house:#}: ")?;
    if naked {
        cell_list(out, cells.iter().copied())?;
        out.push_str(" hold only ");
        digit_list(out, hint.digits)?;
    } else {
        digit_list(out, hint.digits)?;
        out.push_str(" lie only in ");
        cell_list(out, cells.iter().copied())?;
    }
    conclusion(facts, out)
}

/// "r1c1", "r1c1 or r1c2", "r1c1, r1c2 or r1c3".
fn or_list<T: fmt::Display>(out: &mut String, items: impl Iterator<Item = T>) -> fmt::Result {
    let mut items = items.peekable();
    let mut first = true;
    while let Some(item) = items.next() {
        if !first {
            out.push_str(if items.peek().is_some() { ", " } else { " or " });
        }
        first = false;
        write!(out, "{item}")?;
    }
    Ok(())
}

/// "2", "2 or 7", "1, 2 or 7" for a digit mask (bit `d - 1` for digit `d`).
fn digit_or_list(out: &mut String, digits: u16) -> fmt::Result {
    or_list(out, (1..=9u8).filter(|d| digits & (1 << (d - 1)) != 0))
}

/// "X-Wing on 4", "Unique Rectangle type 1 on 2 and 7": the technique and its digits.
fn name_on_digits(facts: &Facts<'_>, out: &mut String) -> fmt::Result {
    write!(out, "{} on ", facts.hint.technique.name())?;
    digit_list(out, facts.hint.digits)
}

/// The name of a subset of `n` cells or digits: "pair", "triplet", …
fn subset_word(n: u32) -> &'static str {
    match n {
        2 => "pair",
        3 => "triplet",
        4 => "quad",
        5 => "quintuplet",
        6 => "sextuplet",
        _ => "septuplet",
    }
}

#[cfg(test)]
mod tests {
    use crate::engines::rater::hint::Hint;
    use crate::engines::rater::step::StepChain;
    use crate::engines::rater::text::{describe, Facts};
    use crate::engines::rater::Technique;

    /// Direct claiming is too rare on the datasets for the fixture of tests/step_text.rs:
    /// in row 4, 6 lies only in box 4, which leaves row 6 one place for it.
    #[test]
    fn direct_claiming() {
        let mut hint = Hint::new();
        hint.start(Technique::DirectClaiming, 19);
        hint.add_cell(27);
        hint.add_cell(28);
        hint.digits = 1 << 5;
        hint.add_house(12);
        hint.add_cover(3);
        hint.add_cell(47);
        hint.add_house(14);
        hint.set_place(47, 5);
        let board = crate::engines::rater::board::Board::blank();
        let facts = Facts {
            hint: &hint,
            board: &board,
            eliminations: &[],
            chain: StepChain::None,
            branches: Default::default(),
            branched: None,
        };
        let mut out = String::new();
        describe(&facts, &mut out);
        assert_eq!(
            out,
            "Direct claiming: in row 4, 6 lies only in box 4 (r4c1 and r4c2); then 6 can only \
             go in r6c3 in row 6."
        );
    }
}
