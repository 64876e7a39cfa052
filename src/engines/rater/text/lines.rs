//! A step in sentences a person can follow one by one (the step's `lines`), written from its
//! chains' data and the grid it is found on:
//!
//! ```text
//!  chain link    If r9c5 is 6, r8c5 is not 6 (column 5)
//!                so r8c8 is 4 (the only other candidate of r8c8)
//!                so r7c4 is not 8 (Hidden Pair 2,6 in box 5 (r5c6, r6c6) removes it)
//!  bracketed     As r1c2 is 5, r4c2 is not 5 (column 2)
//!  cycle         r2c2 sees both ends of the weak link r2c1-r2c7 in row 2, one of which is 4
//!                either way round the cycle: 4 is removed from r2c2.
//!  exclusion     With r9c1=3, r7c1=2 would empty r3c1, r7c1=5 would empty r6c1: 3 is
//!                removed from r9c1.
//! ```
//!
//! Each chain's lines are its branches' links in order (a nested chain's as the step's);
//! a branch's first link starts with "If", a bracketed chain's with "As".

use std::fmt::{self, Write};

use super::super::board::{Board, CELL_HOUSES, HOUSE_MASK, PEERS};
use super::super::chain::{Branches, LinkKind, Potential, Why};
use super::super::hint::Hint;
use super::super::step::{Elimination, House};
use super::super::{Family, Technique};
use crate::grid::cell_name;

/// Writes the sentences of a step's chains (`branches`; `top`: the step's own, else a
/// nested chain's), or of an aligned exclusion, one a line, appended to `out`.
pub(crate) fn lines(
    hint: &Hint,
    board: &Board,
    eliminations: &[Elimination],
    (branches, top): (Branches<'_>, bool),
    out: &mut String,
) {
    let mut w = Writer {
        out,
        start: 0,
        branches,
    };
    w.start = w.out.len();
    // Writing into a String cannot fail.
    let _ = if !branches.is_empty() {
        w.chains().and_then(|_| match hint.technique {
            _ if !top => Ok(()),
            Technique::BidirectionalXCycle
            | Technique::GeneralizedXWing
            | Technique::BidirectionalYCycle
            | Technique::BidirectionalCycle => w.cycle(eliminations),
            _ => Ok(()),
        })
    } else if top && hint.technique.family() == Family::Exclusion {
        w.exclusion(hint, board, eliminations)
    } else {
        Ok(())
    };
}

/// Lines written into `out` from `start`.
struct Writer<'o, 'a> {
    out: &'o mut String,
    start: usize,
    branches: Branches<'a>,
}

impl Writer<'_, '_> {
    /// Starts a line.
    fn line(&mut self) {
        if self.out.len() > self.start {
            self.out.push('\n');
        }
    }

    /// One line per link of each branch.
    fn chains(&mut self) -> fmt::Result {
        let branches = self.branches;
        for branch in branches.iter() {
            for (i, link) in branch.links().iter().enumerate() {
                self.line();
                if i == 0 || link.opens {
                    self.out.push_str(if i == 0 { "If " } else { "As " });
                    state(self.out, link.from)?;
                    self.out.push_str(", ");
                } else {
                    self.out.push_str("so ");
                }
                state(self.out, link.to)?;
                self.out.push_str(" (");
                self.why(link.kind(), link.to, link.why)?;
                self.out.push(')');
            }
        }
        Ok(())
    }

    /// Why a link holds, in words.
    fn why(&mut self, kind: LinkKind, to: Potential, why: Why) -> fmt::Result {
        let out = &mut *self.out;
        match (kind, why) {
            (LinkKind::Weak, Why::Cell(_)) => out.push_str("a cell holds one digit"),
            (LinkKind::Weak, Why::House(h)) => write!(out, "{h:#}")?,
            (_, Why::Cell(c)) => write!(out, "the only other candidate of {}", cell_name(c))?,
            (_, Why::House(h)) => {
                write!(out, "the only other place of {} in {h:#}", to.digit)?;
            }
            (_, Why::Rule(i)) => match self.branches.rule(i) {
                Some(rule) => write!(out, "{rule} removes it")?,
                None => out.push_str("a basic rule removes it"),
            },
            (_, Why::Nested(j)) => match self.branches.nested_chain(j) {
                Some(chain) => write!(
                    out,
                    "nested chain {}, a {}, removes it",
                    j + 1,
                    chain.technique.name()
                )?,
                None => out.push_str("a nested chain removes it"),
            },
        }
        Ok(())
    }

    /// How each removal of a cycle follows: its cell sees an "on" and an "off" candidate of
    /// the digit on the loop, one of which holds it whichever way the loop is read; best
    /// both ends of one weak link, named with its house.
    fn cycle(&mut self, eliminations: &[Elimination]) -> fmt::Result {
        let Some(branch) = self.branches.iter().next() else {
            return Ok(());
        };
        let links = branch.links();
        for e in eliminations {
            let (c, d) = (e.cell, e.digit);
            let sees = |p: Potential| p.digit == d && PEERS[c as usize] >> p.cell & 1 == 1;
            let weak = links
                .iter()
                .find(|l| l.kind() == LinkKind::Weak && sees(l.from) && sees(l.to));
            self.line();
            let out = &mut *self.out;
            if let Some(l) = weak {
                write!(
                    out,
                    "{} sees both ends of the weak link {}-{}",
                    cell_name(c),
                    cell_name(l.from.cell),
                    cell_name(l.to.cell)
                )?;
                if let Why::House(h) = l.why {
                    write!(out, " in {h:#}")?;
                }
            } else {
                let nodes = std::iter::once(branch.start()).chain(links.iter().map(|l| l.to));
                let on = nodes.clone().find(|&p| p.on && sees(p));
                let off = nodes.clone().find(|&p| !p.on && sees(p));
                let (Some(on), Some(off)) = (on, off) else {
                    continue;
                };
                write!(
                    out,
                    "{} sees {} and {}",
                    cell_name(c),
                    cell_name(on.cell),
                    cell_name(off.cell)
                )?;
            }
            write!(
                out,
                ", one of which is {d} either way round the cycle: {d} is removed from {}.",
                cell_name(c)
            )?;
        }
        Ok(())
    }

    /// One line per candidate an aligned exclusion removes: each combination of the other
    /// aligned cells' values it would make, and what excludes it (an excluder it would
    /// empty, or a digit repeated in a house).
    fn exclusion(&mut self, hint: &Hint, b: &Board, eliminations: &[Elimination]) -> fmt::Result {
        let aligned = match hint.technique {
            Technique::AlignedPairExclusion => 2,
            _ => 3,
        };
        let cells = &hint.cells[..hint.n_cells as usize];
        let (aligned, excluders) = cells.split_at(aligned.min(cells.len()));
        for e in eliminations {
            let Some(others) = others_of(aligned, e.cell) else {
                continue;
            };
            self.line();
            write!(self.out, "With {}={}", cell_name(e.cell), e.digit)?;
            let combos = Combinations::new(b, others);
            for (i, combo) in combos.enumerate() {
                self.out.push_str(if i == 0 { ", " } else { "; " });
                combo.write(self.out, b, (e, excluders))?;
            }
            write!(
                self.out,
                ": {} is removed from {}.",
                e.digit,
                cell_name(e.cell)
            )?;
        }
        Ok(())
    }
}

/// The excluders an aligned exclusion's removals rest on: those some combination with a
/// removed candidate would empty (as a set of cells).
pub(crate) fn needed_excluders(hint: &Hint, b: &Board, eliminations: &[Elimination]) -> u128 {
    let n = match hint.technique {
        Technique::AlignedPairExclusion => 2,
        _ => 3,
    };
    let cells = &hint.cells[..hint.n_cells as usize];
    let (aligned, excluders) = cells.split_at(n.min(cells.len()));
    let mut needed = 0u128;
    for e in eliminations {
        let Some(others) = others_of(aligned, e.cell) else {
            continue;
        };
        for combo in Combinations::new(b, others) {
            if combo.repeat(e).is_none() {
                if let Some(x) = combo.emptied(b, (e, excluders)) {
                    needed |= 1u128 << x;
                }
            }
        }
    }
    needed
}

/// The aligned cells other than `cell`: one (a pair, the second `u8::MAX`) or two.
fn others_of(aligned: &[u8], cell: u8) -> Option<[u8; 2]> {
    Some(match *aligned {
        [a, b] => [if a == cell { b } else { a }, u8::MAX],
        [a, b, c] => {
            let mut o = [a, b, c].into_iter().filter(|&x| x != cell);
            [o.next()?, o.next()?]
        }
        _ => return None,
    })
}

/// "r8c5 is 6" / "r8c5 is not 6".
fn state(out: &mut String, p: Potential) -> fmt::Result {
    let not = if p.on { "" } else { "not " };
    write!(out, "{} is {not}{}", cell_name(p.cell), p.digit)
}

/// The values the other aligned cells can take beside a removed candidate: each of the
/// other cell's (a pair), each pair of the two others' (a triplet).
struct Combinations {
    cells: [u8; 2],
    values: [(u8, u8); 81],
    len: usize,
    next: usize,
}

impl Combinations {
    fn new(b: &Board, others: [u8; 2]) -> Combinations {
        let mut c = Combinations {
            cells: others,
            values: [(0, 0); 81],
            len: 0,
            next: 0,
        };
        let digits =
            |cell: u8| (1..=9u8).filter(move |d| b.cands[cell as usize] >> (d - 1) & 1 == 1);
        for x in digits(others[0]) {
            if others[1] == u8::MAX {
                c.values[c.len] = (x, 0);
                c.len += 1;
                continue;
            }
            for y in digits(others[1]) {
                c.values[c.len] = (x, y);
                c.len += 1;
            }
        }
        c
    }
}

/// One combination of the other aligned cells' values.
struct Combination {
    cells: [u8; 2],
    values: (u8, u8),
}

impl Iterator for Combinations {
    type Item = Combination;
    fn next(&mut self) -> Option<Combination> {
        let values = *self.values[..self.len].get(self.next)?;
        self.next += 1;
        Some(Combination {
            cells: self.cells,
            values,
        })
    }
}

impl Combination {
    /// The cells and values: (cell, digit), one or two.
    fn pairs(&self) -> impl Iterator<Item = (u8, u8)> + Clone {
        let [a, c] = self.cells;
        let (x, y) = self.values;
        [(a, x), (c, y)]
            .into_iter()
            .filter(|&(cell, _)| cell != u8::MAX)
    }

    /// Two aligned cells seeing each other that the combination, with removed candidate
    /// `e`, gives one digit: (cell, cell, digit).
    fn repeat(&self, e: &Elimination) -> Option<(u8, u8, u8)> {
        let all = [(e.cell, e.digit)].into_iter().chain(self.pairs());
        all.clone().find_map(|(c1, d1)| {
            all.clone()
                .find(|&(c2, d2)| c2 != c1 && d2 == d1 && PEERS[c1 as usize] >> c2 & 1 == 1)
                .map(|(c2, _)| (c1, c2, d1))
        })
    }

    /// The first excluder the combination, with removed candidate `e`, would empty.
    fn emptied(&self, b: &Board, (e, excluders): (&Elimination, &[u8])) -> Option<u8> {
        let all = [(e.cell, e.digit)].into_iter().chain(self.pairs());
        let digits = all.fold(0u16, |m, (_, d)| m | 1 << (d - 1));
        excluders
            .iter()
            .copied()
            .find(|&x| b.cands[x as usize] & !digits == 0)
    }

    /// "r7c1=2 would empty r3c1" / "r7c1=3 would repeat 3 in column 1" / "r1c2=4 and
    /// r1c3=5 would empty r2c2".
    fn write(
        &self,
        out: &mut String,
        b: &Board,
        (e, excluders): (&Elimination, &[u8]),
    ) -> fmt::Result {
        for (i, (cell, d)) in self.pairs().enumerate() {
            if i > 0 {
                out.push_str(" and ");
            }
            write!(out, "{}={d}", cell_name(cell))?;
        }
        if let Some((c1, c2, d)) = self.repeat(e) {
            let house = shared_house(c1, c2);
            return write!(out, " would repeat {d} in {house:#}");
        }
        match self.emptied(b, (e, excluders)) {
            Some(x) => write!(out, " would empty {}", cell_name(x)),
            None => write!(out, " is excluded"),
        }
    }
}

/// The first of rows, columns and boxes holding both cells.
fn shared_house(a: u8, b: u8) -> House {
    let h = [1, 2, 0]
        .map(|k| CELL_HOUSES[a as usize][k])
        .into_iter()
        .find(|&h| HOUSE_MASK[h as usize] >> b & 1 == 1)
        .unwrap_or(CELL_HOUSES[a as usize][0]);
    House(h)
}
