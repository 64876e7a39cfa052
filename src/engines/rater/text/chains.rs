//! The sentences of chain steps: cycles, forcing chains, Nishio, cell and region forcing
//! chains, dynamic and nested ones.
//!
//! Each names the assumptions (each branch's first candidate), what they lead to (its main
//! chain's last one) and what is placed or removed; the chains themselves are the step's
//! `chain` and `branches`, one sentence per link in its `lines` ([`lines`](super::lines)).
//!
//! ```text
//!  cycle           X-cycle on 4 through r1c2, r1c7, r3c8 and r3c2: …: 4 is removed from r2c2.
//!  forcing chain   … : if r5c9 were 4, it could not be 4, so 4 is removed from r5c9.
//!  contradiction   … : if r9c2 were 2, r7c7 would have to be both 2 and not 2, so …
//!  double          … : whether r2c9 is 7 or not, r5c2 is not 7, so …
//!  cell            … from r1c2 (5, 6 or 9): each candidate leads to r4c4 not being 3, so …
//!  region          … on 9 in column 4 (r1c4, r3c4 or r5c4): wherever 9 goes, …, so …
//! ```

use std::fmt::{self, Write};

use super::Facts;
use crate::engines::rater::chain::{Branch, Branches, Potential};
use crate::engines::rater::chains::Branching;
use crate::engines::rater::step::{Houses, StepChain};
use crate::engines::rater::Technique;
use crate::grid::cell_name;

/// A branch's (or a chain's) first and last candidates: its assumption and its conclusion.
type Ends = (Potential, Potential);

/// Writes the sentence of a chain step.
pub(super) fn describe(facts: &Facts<'_>, out: &mut String) -> fmt::Result {
    use Technique::*;
    let t = facts.hint.technique;
    let Some(first) = facts.branches.iter().next() else {
        return super::generic(facts, out);
    };
    let ends = (first.start(), first.end());
    let branches = facts.branches;
    let (StepChain::Branches(_), Some(branched)) = (facts.chain, facts.branched) else {
        return match t {
            BidirectionalXCycle | GeneralizedXWing | BidirectionalYCycle | BidirectionalCycle => {
                cycle(facts, first, out)
            }
            _ => forcing(facts, first, ends, out),
        };
    };
    match branched.how {
        Branching::Contradiction => contradiction(facts, branches, ends, out)?,
        Branching::Double => double(facts, ends, out)?,
        Branching::Region => region(facts, branches, ends, out)?,
        Branching::Cell => cell(facts, branches, ends, out)?,
    }
    reduced(branched.level, out)
}

/// "Bidirectional X-Cycle on 4 through r1c2, r1c7, r3c8 and r3c2: its strong and weak links
/// alternate all the way round, so one end of each weak link is true: 4 is removed from
/// r2c2."
fn cycle(facts: &Facts<'_>, chain: Branch<'_>, out: &mut String) -> fmt::Result {
    write!(out, "{} on ", facts.hint.technique.name())?;
    super::digit_list(out, facts.hint.digits)?;
    out.push_str(" through ");
    distinct_cells(out, chain)?;
    out.push_str(": its strong and weak links alternate all the way round, so one end of ");
    out.push_str("each weak link is true: ");
    super::outcome(facts, out)
}

/// "Turbot Fish through r5c9, r6c7, r3c7, r3c4 and r5c4: if r5c9 were 4, it could not be 4,
/// so 4 is removed from r5c9."
fn forcing(
    facts: &Facts<'_>,
    chain: Branch<'_>,
    (start, end): Ends,
    out: &mut String,
) -> fmt::Result {
    write!(out, "{} through ", facts.hint.technique.name())?;
    distinct_cells(out, chain)?;
    out.push_str(": ");
    assumption(out, start)?;
    out.push_str(", ");
    follows(out, start, end)?;
    out.push_str(", so ");
    super::outcome(facts, out)
}

/// "Nishio Forcing Chains: if r9c2 were 2, r7c7 would have to be both 2 and not 2, so 2 is
/// removed from r9c2." (one branch: the assumption leads to its own negation).
fn contradiction(
    facts: &Facts<'_>,
    branches: Branches<'_>,
    (start, end): Ends,
    out: &mut String,
) -> fmt::Result {
    write!(out, "{}: ", facts.hint.technique.name())?;
    assumption(out, start)?;
    if branches.len() == 1 {
        out.push_str(", ");
        follows(out, start, end)?;
    } else {
        let (cell, digit) = (cell_name(end.cell), end.digit);
        write!(
            out,
            ", {cell} would have to be both {digit} and not {digit}"
        )?;
    }
    out.push_str(", so ");
    super::outcome(facts, out)
}

/// "Dynamic Double Forcing Chains: whether r2c9 is 7 or not, r5c2 is not 7, so 7 is removed
/// from r5c2."
fn double(facts: &Facts<'_>, (start, end): Ends, out: &mut String) -> fmt::Result {
    let (cell, digit) = (cell_name(start.cell), start.digit);
    write!(
        out,
        "{}: whether {cell} is {digit} or not, ",
        facts.hint.technique.name()
    )?;
    state(out, end, "is", "is not")?;
    out.push_str(", so ");
    super::outcome(facts, out)
}

/// "Cell Forcing Chains from r1c2 (5, 6 or 9): each candidate leads to r4c4 not being 3, so
/// 3 is removed from r4c4."
fn cell(
    facts: &Facts<'_>,
    branches: Branches<'_>,
    (start, end): Ends,
    out: &mut String,
) -> fmt::Result {
    let digits = branches
        .iter()
        .fold(0u16, |m, b| m | 1 << (b.start().digit - 1));
    let name = facts.hint.technique.name();
    write!(out, "{name} from {} (", cell_name(start.cell))?;
    super::digit_alternatives(out, digits)?;
    out.push_str("): each candidate leads to ");
    state(out, end, "being", "not being")?;
    out.push_str(", so ");
    super::outcome(facts, out)
}

/// "Region Forcing Chains on 9 in column 4 (r1c4, r3c4 or r5c4): wherever 9 goes there,
/// r1c6 is not 9, so 9 is removed from r1c6."
fn region(
    facts: &Facts<'_>,
    branches: Branches<'_>,
    (start, end): Ends,
    out: &mut String,
) -> fmt::Result {
    let digit = start.digit;
    write!(out, "{} on {digit} in ", facts.hint.technique.name())?;
    super::houses_words(out, Houses(facts.hint.houses))?;
    out.push_str(" (");
    let places = branches.iter().map(|b| b.start().cell);
    super::cell_alternatives(out, places)?;
    write!(out, "): wherever {digit} goes there, ")?;
    state(out, end, "is", "is not")?;
    out.push_str(", so ");
    super::outcome(facts, out)
}

/// What links marked `~` mean, for dynamic forcing chains (+) and nested ones.
fn reduced(level: u8, out: &mut String) -> fmt::Result {
    let by = match level {
        0 => return Ok(()),
        1 => "a basic rule (an intersection, a hidden or naked pair, an X-Wing)",
        _ => "a basic rule or a nested forcing chain",
    };
    write!(
        out,
        " A link marked ~ is a removal made by {by} on the grid the assumption has reduced."
    )
}

/// "if r5c9 were 4" / "if r5c9 were not 4".
fn assumption(out: &mut String, node: Potential) -> fmt::Result {
    let not = if node.on { "" } else { "not " };
    write!(out, "if {} were {not}{}", cell_name(node.cell), node.digit)
}

/// "r5c9 would have to be 4" / "r5c9 could not be 4" ("it" for the assumed candidate).
fn follows(out: &mut String, start: Potential, node: Potential) -> fmt::Result {
    let verb = if node.on {
        "would have to be"
    } else {
        "could not be"
    };
    if (start.cell, start.digit) == (node.cell, node.digit) {
        write!(out, "it {verb} {}", node.digit)
    } else {
        state(out, node, verb, verb)
    }
}

/// The candidate's cell, then `yes` or `no` (as it is true or false), then its digit.
fn state(out: &mut String, node: Potential, yes: &str, no: &str) -> fmt::Result {
    let verb = if node.on { yes } else { no };
    write!(out, "{} {verb} {}", cell_name(node.cell), node.digit)
}

/// The cells `chain` names, each once, in order.
fn distinct_cells(out: &mut String, chain: Branch<'_>) -> fmt::Result {
    let mut seen = 0u128;
    let named = std::iter::once(chain.start().cell)
        .chain(chain.links().iter().flat_map(|l| [l.from.cell, l.to.cell]));
    let cells = named.filter(move |&c| {
        let new = seen >> c & 1 == 0;
        seen |= 1u128 << c;
        new
    });
    super::cell_list(out, cells)
}
