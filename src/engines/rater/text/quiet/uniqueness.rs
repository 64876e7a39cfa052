//! Unique rectangles and loops, bivalue universal graves, aligned exclusion.

use std::fmt::{self, Write};

use super::{digit_or_list, subset_word};
use crate::engines::rater::step::Houses;
use crate::engines::rater::text::{
    cell_list, digit_list, removal_cells, removals_short, removed_digits, Facts,
};
use crate::engines::rater::Technique;
use crate::grid::cell_name;

/// The cells of the pattern proper, and those of the subset that follow them.
fn split<'a>(facts: &'a Facts<'_>) -> (&'a [u8], &'a [u8]) {
    let hint = facts.hint;
    let cells = &hint.cells[..hint.n_cells as usize];
    match hint.pattern as usize {
        0 => (cells, &[]),
        n => cells.split_at(n.min(cells.len())),
    }
}

/// "…: 4 is removed from r3c2 and r3c9." (the conclusion after the reason).
fn end(facts: &Facts<'_>, out: &mut String) -> fmt::Result {
    removals_short(out, facts.eliminations)?;
    out.push('.');
    Ok(())
}

/// "Unique Rectangle type 1 on 2 and 7 (r1c1, r1c5, r3c5 and r3c1): only r3c5 holds more,
/// so it can be neither without two solutions: 2 and 7 are removed from r3c5." Types 2-4
/// in [`unique_loop_more`].
pub(super) fn unique_loop(facts: &Facts<'_>, out: &mut String) -> fmt::Result {
    let hint = facts.hint;
    let (corners, _) = split(facts);
    super::name_on_digits(facts, out)?;
    out.push_str(" (");
    cell_list(out, corners.iter().copied())?;
    out.push_str("): ");
    if let Technique::UniqueRectangle1 | Technique::UniqueLoop1 = hint.technique {
        out.push_str("only ");
        removal_cells(out, facts.eliminations)?;
        out.push_str(" holds more, so it can be neither without two solutions: ");
        return end(facts, out);
    }
    unique_loop_more(facts, out)
}

/// Types 2, 3 and 4 of a unique rectangle or loop, after its name and cells.
fn unique_loop_more(facts: &Facts<'_>, out: &mut String) -> fmt::Result {
    let hint = facts.hint;
    let removed = removed_digits(facts.eliminations);
    let house = Houses(hint.houses).iter().next();
    let (corners, _) = split(facts);
    // The corners holding more than the pattern's two digits.
    let more = corners
        .iter()
        .copied()
        .filter(|&c| facts.board.cands[c as usize] & !hint.digits != 0);
    match (hint.technique, house) {
        (Technique::UniqueRectangle2 | Technique::UniqueLoop2, _) => {
            cell_list(out, more)?;
            out.push_str(" hold one digit beyond ");
            digit_list(out, hint.digits)?;
            out.push_str(", the same one, ");
            digit_list(out, removed)?;
            out.push_str(", so one of them is ");
            digit_list(out, removed)?;
            out.push_str(" (else the pattern would hold only ");
            digit_list(out, hint.digits)?;
            out.push_str(" and have two solutions)");
        }
        (Technique::UniqueRectangle4 | Technique::UniqueLoop4, Some(h)) => {
            let kept = hint.digits & !removed;
            write!(out, "in {h:#}, ")?;
            digit_list(out, kept)?;
            out.push_str(" lies only in ");
            removal_cells(out, facts.eliminations)?;
            out.push_str(", the cells holding more, so one of them is ");
            digit_list(out, kept)?;
            out.push_str("; if either were ");
            digit_list(out, removed)?;
            out.push_str(", the pattern would hold only ");
            digit_list(out, hint.digits)?;
            out.push_str(" and have two solutions, so neither can be ");
            digit_list(out, removed)?;
        }
        (_, Some(h)) => {
            let (corners, others) = split(facts);
            let in_house = corners
                .iter()
                .copied()
                .filter(|&c| super::house_of(hint.houses, c).is_some());
            let word = subset_word(hint.extra.count_ones());
            let hidden = facts.eliminations.iter().all(|e| others.contains(&e.cell));
            write!(out, "in {h:#}, ")?;
            if hidden {
                digit_list(out, hint.extra)?;
                out.push_str(" lie only in ");
                cell_list(out, in_house.chain(others.iter().copied()))?;
                write!(out, " (a hidden {word}, the extra cells as one)")?;
            } else {
                out.push_str("the extra digits of ");
                cell_list(out, in_house)?;
                out.push_str(" and the cells ");
                cell_list(out, others.iter().copied())?;
                write!(out, " form a naked {word} on ")?;
                digit_list(out, hint.extra)?;
            }
        }
        _ => return super::super::generic(facts, out),
    }
    out.push_str(": ");
    end(facts, out)
}

/// "BUG type 2: r1c1 and r5c5 hold 4 beyond a bivalue grave, so one of them is 4: 4 is
/// removed from r1c5." Type 1 keeps the extra digits in its one cell, type 3 makes a naked
/// subset of them, type 4 keeps them and a digit both cells share.
pub(super) fn bug(facts: &Facts<'_>, out: &mut String) -> fmt::Result {
    let hint = facts.hint;
    let (cells, others) = split(facts);
    let extra = match hint.technique {
        Technique::Bug1 | Technique::Bug2 => hint.digits,
        _ => hint.extra,
    };
    if hint.technique == Technique::Bug4 {
        return bug4(facts, (cells, extra), out);
    }
    write!(out, "{}: ", hint.technique.name())?;
    cell_list(out, cells.iter().copied())?;
    if let Some(h) = Houses(hint.houses).iter().next() {
        write!(out, " in {h:#}")?;
    }
    out.push_str(if cells.len() > 1 { " hold " } else { " holds " });
    digit_list(out, extra)?;
    out.push_str(
        " beyond a bivalue grave (every other open cell two digits, each twice per house), so ",
    );
    match hint.technique {
        Technique::Bug1 => out.push_str("it must keep only these: "),
        Technique::Bug2 => {
            out.push_str("one of them is ");
            digit_list(out, extra)?;
            out.push_str(": ");
        }
        Technique::Bug3 => {
            out.push_str("one of them holds ");
            digit_or_list(out, extra)?;
            out.push_str(", which with ");
            cell_list(out, others.iter().copied())?;
            write!(
                out,
                " makes a naked {} on ",
                subset_word(hint.digits.count_ones())
            )?;
            digit_list(out, hint.digits)?;
            out.push_str(": ");
        }
        _ => {}
    }
    end(facts, out)
}

/// "BUG type 4: r9c1 holds 7, r9c5 holds 8, beyond a bivalue grave (…), so one of them
/// takes its extra digit; 4 has no other place in row 9 than these two, so one of them is
/// 4: each keeps only 4 and its extra digits: …" (the sentence from its cells on).
fn bug4(facts: &Facts<'_>, (cells, extra): (&[u8], u16), out: &mut String) -> fmt::Result {
    let hint = facts.hint;
    let common = hint.digits & !extra;
    write!(out, "{}: ", hint.technique.name())?;
    for (i, &c) in cells.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let removed = facts
            .eliminations
            .iter()
            .filter(|e| e.cell == c)
            .fold(0u16, |m, e| m | 1 << (e.digit - 1));
        let own = facts.board.cands[c as usize] & !removed & !common;
        write!(out, "{} holds ", cell_name(c))?;
        digit_list(out, own)?;
    }
    out.push_str(
        ", beyond a bivalue grave (every other open cell two digits, each twice per house), so \
         one of them takes its extra digit; ",
    );
    digit_list(out, common)?;
    out.push_str(" has no other place");
    if let Some(h) = Houses(hint.houses).iter().next() {
        write!(out, " in {h:#}")?;
    }
    out.push_str(" than these two, so one of them is ");
    digit_list(out, common)?;
    out.push_str(": each keeps only ");
    digit_list(out, common)?;
    out.push_str(" and its extra digits: ");
    end(facts, out)
}

/// "Aligned Pair Exclusion: r1c1 and r5c1 cannot take values that would repeat in a house or
/// leave r1c5 or r5c5 (each seeing them all) empty: 3 is removed from r1c1." (only the
/// excluders the removals rest on; each excluded combination is in the step's lines).
pub(super) fn exclusion(facts: &Facts<'_>, out: &mut String) -> fmt::Result {
    let hint = facts.hint;
    let aligned = if hint.technique == Technique::AlignedPairExclusion {
        2
    } else {
        3
    };
    let cells = &hint.cells[..hint.n_cells as usize];
    let (aligned, excluders) = cells.split_at(aligned.min(cells.len()));
    // Only the excluders some excluded combination would empty.
    let needed =
        crate::engines::rater::text::needed_excluders(hint, facts.board, facts.eliminations);
    let excluders = excluders.iter().filter(|&&c| needed >> c & 1 == 1);
    write!(out, "{}: ", hint.technique.name())?;
    cell_list(out, aligned.iter().copied())?;
    out.push_str(" cannot take values that would repeat in a house or leave ");
    super::or_list(out, excluders.map(|&c| cell_name(c)))?;
    out.push_str(" (each seeing them all) empty: ");
    end(facts, out)
}
