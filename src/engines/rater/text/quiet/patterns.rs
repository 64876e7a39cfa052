//! Fish, XY- and XYZ-Wings, strong-link fish and ALS wings.

use std::fmt::{self, Write};

use crate::engines::rater::step::Houses;
use crate::engines::rater::text::{
    cell_list, digit_list, houses_grouped, removal_cells, removals_short, removed_digits, Facts,
};
use crate::engines::rater::Technique;
use crate::grid::cell_name;

/// The cells the step rests on.
fn cells<'a>(facts: &'a Facts<'_>) -> &'a [u8] {
    &facts.hint.cells[..facts.hint.n_cells as usize]
}

/// "…, so it is removed from r5c3 and r9c8." for a step removing one digit.
fn it_is_removed(facts: &Facts<'_>, out: &mut String) -> fmt::Result {
    out.push_str("it is removed from ");
    removal_cells(out, facts.eliminations)?;
    out.push('.');
    Ok(())
}

/// "X-Wing on 4: in rows 2 and 7, 4 lies only in columns 3 and 8 (r2c3, r2c8, r7c3 and
/// r7c8), so it is removed from r5c3 and r9c8."
pub(super) fn fish(facts: &Facts<'_>, out: &mut String) -> fmt::Result {
    let hint = facts.hint;
    super::name_on_digits(facts, out)?;
    out.push_str(": in ");
    houses_grouped(out, Houses(hint.houses))?;
    out.push_str(", ");
    digit_list(out, hint.digits)?;
    out.push_str(" lies only in ");
    houses_grouped(out, Houses(hint.cover))?;
    out.push_str(" (");
    cell_list(out, cells(facts).iter().copied())?;
    out.push_str("), so ");
    it_is_removed(facts, out)
}

/// "XY-Wing: pivot r2c2 holds 3 and 7, pincers r2c8 and r5c2 hold 5 with one of them each,
/// so one pincer is 5: it is removed from r5c8." / "XYZ-Wing: pivot r2c2 holds 3, 5 and 7,
/// pincers … hold 5 with one other each, so one of the three is 5: …"
pub(super) fn wing(facts: &Facts<'_>, out: &mut String) -> fmt::Result {
    let hint = facts.hint;
    let &[pivot, w1, w2] = cells(facts) else {
        return super::super::generic(facts, out);
    };
    let z = removed_digits(facts.eliminations);
    let xyz = hint.technique == Technique::XYZWing;
    let pivot_digits = if xyz { hint.digits } else { hint.digits & !z };
    write!(
        out,
        "{}: pivot {} holds ",
        hint.technique.name(),
        cell_name(pivot)
    )?;
    digit_list(out, pivot_digits)?;
    write!(
        out,
        ", pincers {} and {} hold ",
        cell_name(w1),
        cell_name(w2)
    )?;
    digit_list(out, z)?;
    if xyz {
        out.push_str(" with one other each, so one of the three is ");
    } else {
        out.push_str(" with one of them each, so one pincer is ");
    }
    digit_list(out, z)?;
    out.push_str(": ");
    it_is_removed(facts, out)
}

/// "Skyscraper on 4: strong links in columns 2 and 6 chain r1c2, r7c2, r8c6 and r2c6; one
/// end holds 4, so it is removed from r1c5 and r2c1." / loops: "… close into a loop through
/// …; each weak link holds 4 once, so …"
pub(super) fn strong_links(facts: &Facts<'_>, out: &mut String) -> fmt::Result {
    let hint = facts.hint;
    super::name_on_digits(facts, out)?;
    out.push_str(": strong links in ");
    houses_grouped(out, Houses(hint.houses))?;
    use Technique::*;
    let looped = matches!(
        hint.technique,
        TwoStrongLinksLoop
            | TwoStrongLinksGroupedLoop
            | ThreeStrongLinksLoop
            | ThreeStrongLinksGroupedLoop
            | FourStrongLinksLoop
            | FourStrongLinksGroupedLoop
    );
    out.push_str(if looped {
        " close into a loop through "
    } else {
        " chain "
    });
    cell_list(out, cells(facts).iter().copied())?;
    if looped {
        out.push_str("; each weak link holds ");
    } else {
        out.push_str("; one end holds ");
    }
    digit_list(out, hint.digits)?;
    out.push_str(if looped { " once, so " } else { ", so " });
    it_is_removed(facts, out)
}

/// "WXYZ-Wing: r1c1, r1c2 and r1c3 hold 1, 2, 5 and 7, one digit more than cells; r4c1
/// holds 2 and 7 and sees each of them holding 2, so 7 lies in r4c1 or in the set: it is
/// removed from r4c3." / doubly linked: "… sees each of them holding 2 or 7, so the set is
/// locked: …"
pub(super) fn als_wing(facts: &Facts<'_>, out: &mut String) -> fmt::Result {
    let hint = facts.hint;
    let Some((&pincer, set)) = cells(facts).split_last() else {
        return super::super::generic(facts, out);
    };
    let removed = removed_digits(facts.eliminations);
    let single = removed.count_ones() == 1 && hint.extra & removed != 0;
    let linked = if single {
        hint.extra & !removed
    } else {
        hint.extra
    };
    write!(out, "{}: ", hint.technique.name())?;
    cell_list(out, set.iter().copied())?;
    out.push_str(" hold ");
    digit_list(out, hint.digits)?;
    write!(
        out,
        ", one digit more than cells; {} holds ",
        cell_name(pincer)
    )?;
    digit_list(out, hint.extra)?;
    out.push_str(" and sees each of them holding ");
    super::digit_or_list(out, linked)?;
    if single {
        out.push_str(", so ");
        digit_list(out, removed)?;
        write!(out, " lies in {} or in the set: ", cell_name(pincer))?;
        it_is_removed(facts, out)
    } else {
        out.push_str(", so the set is locked: ");
        removals_short(out, facts.eliminations)?;
        out.push('.');
        Ok(())
    }
}
