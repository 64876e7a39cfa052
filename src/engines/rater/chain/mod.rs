//! A step's chains as data: its branches, each a list of links between potentials (a
//! candidate assumed true, "on", or false, "off"), every link with why it holds, and the
//! nested chains some links rest on, held the same way. The chain producers fill it from the
//! parent links they keep ([`Record`], reserved once: a rating allocates nothing), only when
//! a step is reported; the Eureka text of `--steps` (`chain`), the step's cells, its
//! sentences and `explain`'s drawings are all written from it.
//!
//! ```text
//!  Branches (the step's, or a nested chain's)
//!   └ Branch: its assumption (start) and links, in the order the Eureka text writes them
//!      └ Link: from → to, and why:
//!           Cell(c)     a weak link inside cell c (it holds one digit), or a strong one
//!                       (c has these two candidates left)
//!           House(h)    a weak link in house h (a digit once), or a strong one (the digit's
//!                       two places left in h)
//!           Rule(i)     off → off: a basic rule (intersection, hidden or naked pair,
//!                       X-Wing) on the grid the assumption has reduced removes `to`
//!           Nested(j)   off → off: nested chain j, found on that grid, removes `to`
//! ```
//!
//! A link that `opens` starts a chain the Eureka text brackets: from a node already written
//! to a removal an earlier link read (a dynamic chain's "hidden parents").
//!
//! Layer: the rater's values, beside [`step`](super::step); the chain producers
//! ([`chains`](super::chains)) fill a [`Record`].

use std::fmt::{self, Write};

mod record;

pub(crate) use record::Record;
use record::{BranchAt, ChainAt, END};

use super::step::{House, Houses};
use super::Technique;
use crate::grid::cell_name;

/// A candidate assumed true (`on`) or false.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Potential {
    /// Cell 0..81, row-major.
    pub cell: u8,
    /// Digit 1..=9.
    pub digit: u8,
    /// Assumed true (placed) or false (removed).
    pub on: bool,
}

impl Potential {
    /// The potential of the chain producers' id (`(cell * 9 + digit - 1) << 1 | on`).
    #[inline]
    pub(crate) fn of_id(id: u16) -> Potential {
        let candidate = id >> 1;
        Potential {
            cell: (candidate / 9) as u8,
            digit: (candidate % 9) as u8 + 1,
            on: id & 1 == 1,
        }
    }

    /// The chain producers' id.
    #[cfg(test)]
    pub(crate) fn id(self) -> u16 {
        ((u16::from(self.cell) * 9 + u16::from(self.digit) - 1) << 1) | u16::from(self.on)
    }
}

/// `r1c2=5` (on) or `r1c2<>5` (off).
impl fmt::Display for Potential {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let op = if self.on { "=" } else { "<>" };
        write!(f, "{}{op}{}", cell_name(self.cell), self.digit)
    }
}

/// What kind of link joins two potentials.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkKind {
    /// Off, so on: the only other candidate of a cell, or place of a digit in a house.
    Strong,
    /// On, so off: a cell holds one digit, a house a digit once.
    Weak,
    /// Off, so off: a basic rule on the grid the assumption has reduced.
    Rule,
    /// Off, so off: a nested chain on the grid the assumption has reduced.
    Nested,
}

impl LinkKind {
    /// `strong`, `weak`, `rule` or `nested`.
    pub fn name(self) -> &'static str {
        match self {
            LinkKind::Strong => "strong",
            LinkKind::Weak => "weak",
            LinkKind::Rule => "rule",
            LinkKind::Nested => "nested",
        }
    }
}

/// Why a link holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// Inside this cell: it holds one digit (weak), or has these two candidates left
    /// (strong).
    Cell(u8),
    /// In this house: it holds the digit once (weak), or has these two places of it left
    /// (strong).
    House(House),
    /// The basic rule of this index ([`Branches::rule`]) removes `to`.
    Rule(u16),
    /// The nested chain of this index ([`Branches::nested_chain`]) removes `to`.
    Nested(u16),
}

/// One link of a chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    /// Where it starts.
    pub from: Potential,
    /// What follows.
    pub to: Potential,
    /// Why it holds.
    pub why: Why,
    /// Whether it starts a chain of its own, from a node already written (bracketed in the
    /// Eureka text: the way to a removal a link of the branch reads).
    pub opens: bool,
}

impl Link {
    /// Its kind: a rule or a nested chain by its reason, else strong (off to on) or weak.
    pub fn kind(&self) -> LinkKind {
        match self.why {
            Why::Rule(_) => LinkKind::Rule,
            Why::Nested(_) => LinkKind::Nested,
            _ if self.from.on => LinkKind::Weak,
            _ => LinkKind::Strong,
        }
    }
}

/// A basic rule of dynamic forcing chains (+) as found on the grid an assumption reduced:
/// Pointing, Claiming, Hidden Pair, Naked Pair or X-Wing, with its houses, cells and digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    /// Which rule.
    pub technique: Technique,
    /// Its houses: an intersection's box and line, a pair's house, an X-Wing's base and
    /// cover lines.
    pub houses: Houses,
    /// Its digits (bit `d - 1` for digit `d`).
    pub digits: u16,
    cells: [u8; 4],
    n_cells: u8,
}

impl Rule {
    /// No rule: what a link no search can tell again rests on (never seen).
    pub(crate) const UNKNOWN: Rule = Rule {
        technique: Technique::Pointing,
        houses: Houses(0),
        digits: 0,
        cells: [0; 4],
        n_cells: 0,
    };

    /// A rule on `cells` (at most four: an X-Wing's corners).
    pub(crate) fn new(technique: Technique, houses: u32, digits: u16, cells: u128) -> Rule {
        let mut rule = Rule {
            technique,
            houses: Houses(houses),
            digits,
            cells: [0; 4],
            n_cells: 0,
        };
        for c in super::board::cells_of(cells).take(4) {
            rule.cells[rule.n_cells as usize] = c as u8;
            rule.n_cells += 1;
        }
        rule
    }

    /// Its cells: where an intersection's digit lies, the pair's two cells, the X-Wing's
    /// corners.
    pub fn cells(&self) -> &[u8] {
        &self.cells[..self.n_cells as usize]
    }
}

/// "Hidden Pair 2,6 in box 5 (r5c6, r6c6)", "Pointing 4 in row 6, box 5 (r6c4, r6c5)",
/// "X-Wing 7 in rows 2 and 8, columns 3 and 5 (r2c3, r2c5, r8c3, r8c5)".
impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ", self.technique.name())?;
        let mut first = true;
        for d in (1..=9u8).filter(|d| self.digits >> (d - 1) & 1 == 1) {
            if !first {
                f.write_char(',')?;
            }
            first = false;
            write!(f, "{d}")?;
        }
        f.write_str(" in ")?;
        write_houses(f, self.houses)?;
        f.write_str(" (")?;
        for (i, &c) in self.cells().iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{}", cell_name(c))?;
        }
        f.write_char(')')
    }
}

/// "rows 2 and 8, columns 3 and 5, box 1": houses of one kind share its word, kinds in
/// [`Houses::iter`]'s order.
fn write_houses(f: &mut dyn Write, houses: Houses) -> fmt::Result {
    use super::step::HouseKind::{Box, Column, Row};
    let mut first_kind = true;
    for (kind, one, many) in [
        (Row, "row", "rows"),
        (Column, "column", "columns"),
        (Box, "box", "boxes"),
    ] {
        let of_kind = || houses.iter().filter(move |h| h.kind() == kind);
        let n = of_kind().count();
        if n == 0 {
            continue;
        }
        if !first_kind {
            f.write_str(", ")?;
        }
        first_kind = false;
        f.write_str(if n > 1 { many } else { one })?;
        for (i, h) in of_kind().enumerate() {
            let sep = match i {
                0 => " ",
                _ if i + 1 == n => " and ",
                _ => ", ",
            };
            write!(f, "{sep}{}", h.number())?;
        }
    }
    Ok(())
}

/// The chains of a step (or of one nested chain): branches of links, and the rules and
/// nested chains their links rest on. Empty for a step that is no chain.
#[derive(Clone, Copy)]
pub struct Branches<'a> {
    record: Option<&'a Record>,
    chain: ChainAt,
}

impl Default for Branches<'_> {
    fn default() -> Self {
        Branches {
            record: None,
            chain: ChainAt::EMPTY,
        }
    }
}

impl fmt::Debug for Branches<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.iter().map(|b| b.links()))
            .finish()
    }
}

impl<'a> Branches<'a> {
    /// The branches in order: one per entry of the step's `chain` (a cycle or a static
    /// forcing chain is one branch).
    pub fn iter(&self) -> impl Iterator<Item = Branch<'a>> + 'a {
        let record = self.record;
        let mut next = if record.is_some() {
            self.chain.first
        } else {
            END
        };
        std::iter::from_fn(move || {
            let r = record?;
            let at = *r.branches.get(next as usize)?;
            next = at.next;
            Some(Branch {
                at,
                links: &r.links,
            })
        })
    }

    /// How many branches.
    pub fn len(&self) -> usize {
        if self.record.is_some() {
            self.chain.len as usize
        } else {
            0
        }
    }

    /// Whether there is none (the step is no chain).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every nested chain of the step, by index ([`Why::Nested`]), in the order first met.
    pub fn nested(&self) -> impl Iterator<Item = NestedChain<'a>> + 'a {
        let record = self.record;
        let n = record.map_or(0, |r| r.nested.len());
        (0..n).filter_map(move |j| Some(NestedChain::of(record?, j)))
    }

    /// Nested chain `j` ([`Why::Nested`]).
    pub fn nested_chain(&self, j: u16) -> Option<NestedChain<'a>> {
        let r = self.record?;
        (usize::from(j) < r.nested.len()).then(|| NestedChain::of(r, j as usize))
    }

    /// Basic rule `i` ([`Why::Rule`]).
    pub fn rule(&self, i: u16) -> Option<&'a Rule> {
        self.record?.rules.get(usize::from(i))
    }

    /// Every basic rule of the step, by index.
    pub fn rules(&self) -> &'a [Rule] {
        self.record.map_or(&[], |r| &r.rules)
    }
}

/// One branch: from its assumption, its links in the order the Eureka text writes them.
#[derive(Clone, Copy, Debug)]
pub struct Branch<'a> {
    at: BranchAt,
    links: &'a [Link],
}

impl<'a> Branch<'a> {
    /// Its assumption.
    pub fn start(&self) -> Potential {
        self.at.start
    }

    /// Its links: the main chain's, then each bracketed chain's (each starting with a
    /// link that [`opens`](Link::opens)).
    pub fn links(&self) -> &'a [Link] {
        let (a, b) = self.at.links;
        &self.links[a as usize..b as usize]
    }

    /// The main chain's links: from the assumption to the conclusion.
    pub fn main(&self) -> &'a [Link] {
        let links = self.links();
        let end = links.iter().position(|l| l.opens).unwrap_or(links.len());
        &links[..end]
    }

    /// What the main chain concludes (its assumption when it has no link).
    pub fn end(&self) -> Potential {
        self.main().last().map_or(self.at.start, |l| l.to)
    }

    /// The branch in Eureka notation: the main chain, then each bracketed one.
    pub fn write_eureka(&self, out: &mut String) {
        let links = self.links();
        let main = self.main();
        write_path(out, self.at.start, main);
        let mut rest = &links[main.len()..];
        while let Some((first, more)) = rest.split_first() {
            let end = more.iter().position(|l| l.opens).unwrap_or(more.len());
            out.push_str(" [");
            write_path(out, first.from, &rest[..end + 1]);
            out.push(']');
            rest = &more[end..];
        }
    }
}

/// A chain nested in a step: found on the grid an assumption reduced, its removal is a link
/// of the step's chains (or of another nested chain's).
#[derive(Clone, Copy, Debug)]
pub struct NestedChain<'a> {
    /// Its technique ("Forcing X-Chain", "Dynamic Region Forcing Chains", ...).
    pub technique: Technique,
    /// 1 for a chain the step's own links rest on, 2 for one a nested chain's links rest on.
    pub level: u8,
    /// Its branches.
    pub branches: Branches<'a>,
    /// Its sentences, one a link.
    pub lines: Lines<'a>,
}

impl<'a> NestedChain<'a> {
    fn of(r: &'a Record, j: usize) -> NestedChain<'a> {
        let n = r.nested[j];
        let (a, b) = n.lines;
        NestedChain {
            technique: n.technique,
            level: n.level,
            branches: Branches {
                record: Some(r),
                chain: n.branches,
            },
            lines: Lines(&r.lines[a as usize..b as usize]),
        }
    }
}

/// Sentences, one a line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lines<'a>(pub(crate) &'a str);

impl<'a> Lines<'a> {
    /// The sentences in order.
    pub fn iter(&self) -> impl Iterator<Item = &'a str> {
        let text = self.0;
        text.split('\n').filter(move |_| !text.is_empty())
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Appends the chain from `start` through `links` in Eureka notation: `-` a weak link (the
/// node before on), `=` a strong one (off, so on), `~` a rule's or nested chain's (off, so
/// off); an off-to-on pair in one cell as one node, `(5=3)r2c8`; a node's digit left out
/// when it is the previous node's last digit and its cell differs.
fn write_path(out: &mut String, start: Potential, links: &[Link]) {
    let node = |i: usize| if i == 0 { start } else { links[i - 1].to };
    let n = links.len() + 1;
    let mut last: Option<(u8, u8)> = None;
    let mut i = 0;
    while i < n {
        let p = node(i);
        if i > 0 {
            out.push(match (node(i - 1).on, p.on) {
                (true, _) => '-',
                (false, true) => '=',
                (false, false) => '~',
            });
        }
        let merged = (i + 1 < n)
            .then(|| node(i + 1))
            .filter(|q| !p.on && q.on && q.cell == p.cell);
        let end = match merged {
            Some(q) => {
                let _ = write!(out, "({}={})", p.digit, q.digit);
                i += 2;
                q.digit
            }
            None => {
                if last.is_none_or(|(lc, ld)| ld != p.digit || lc == p.cell) {
                    let _ = write!(out, "({})", p.digit);
                }
                i += 1;
                p.digit
            }
        };
        let _ = write!(out, "{}", cell_name(p.cell));
        last = Some((p.cell, end));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(cell: u16, digit: u16, on: bool) -> u16 {
        ((cell * 9 + digit - 1) << 1) | u16::from(on)
    }

    fn path(potentials: &[u16]) -> String {
        let mut r = Record::new();
        r.open(potentials[0]);
        for w in potentials.windows(2) {
            r.link(w[0], w[1], Why::Cell(0), false, false);
        }
        let mut s = String::new();
        r.write_eureka(&mut s);
        s
    }

    #[test]
    fn links_and_nodes_are_written_as_eureka_writes_them() {
        let chain = [
            id(1, 5, true),
            id(6, 5, false),
            id(7, 5, true),
            id(16, 5, false),
            id(16, 3, true),
            id(26, 3, false),
            id(18, 3, true),
        ];
        assert_eq!(path(&chain), "(5)r1c2-r1c7=r1c8-(5=3)r2c8-r3c9=r3c1");
        let chain = [
            id(0, 1, false),
            id(0, 2, true),
            id(0, 3, false),
            id(9, 3, true),
        ];
        assert_eq!(path(&chain), "(1=2)r1c1-(3)r1c1=r2c1");
        assert_eq!(path(&[id(0, 1, false), id(9, 1, true)]), "(1)r1c1=r2c1");
        assert_eq!(path(&[id(0, 1, true)]), "(1)r1c1");
    }

    #[test]
    fn bracketed_chains_follow_their_branch() {
        let mut r = Record::new();
        let (a, b, c, x) = (
            id(0, 1, true),
            id(9, 1, false),
            id(20, 1, true),
            id(1, 1, false),
        );
        r.open(a);
        r.link(a, b, Why::Cell(0), false, false);
        r.link(b, c, Why::Cell(0), false, false);
        r.link(a, x, Why::Cell(0), true, false);
        let mut s = String::new();
        r.write_eureka(&mut s);
        assert_eq!(s, "(1)r1c1-r2c1=r3c3 [(1)r1c1-r1c2]");
        let view = r.view();
        let branch = view.iter().next().unwrap();
        assert_eq!(branch.main().len(), 2);
        assert_eq!(branch.end(), Potential::of_id(c));
        assert_eq!(Potential::of_id(c).id(), c);
        assert_eq!(Potential::of_id(c).to_string(), "r3c3=1");
        assert_eq!(Potential::of_id(x).to_string(), "r1c2<>1");
    }

    #[test]
    fn rules_name_their_houses_cells_and_digits() {
        let pair = Rule::new(Technique::HiddenPair, 1 << 4, 0b10_0010, 1 << 41 | 1 << 50);
        assert_eq!(pair.to_string(), "Hidden Pair 2,6 in box 5 (r5c6, r6c6)");
        let wing = Rule::new(
            Technique::XWing,
            1 << 10 | 1 << 16 | 1 << 20 | 1 << 22,
            1 << 6,
            1 << 11 | 1 << 13 | 1 << 65 | 1 << 67,
        );
        assert_eq!(
            wing.to_string(),
            "X-Wing 7 in rows 2 and 8, columns 3 and 5 (r2c3, r2c5, r8c3, r8c5)"
        );
        let pointing = Rule::new(
            Technique::Pointing,
            1 << 4 | 1 << 14,
            1 << 3,
            1 << 48 | 1 << 49,
        );
        assert_eq!(
            pointing.to_string(),
            "Pointing 4 in row 6, box 5 (r6c4, r6c5)"
        );
    }
}
