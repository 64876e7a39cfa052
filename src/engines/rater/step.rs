//! What the rater gives: difficulties in tenths, a puzzle's rating, and each step of its
//! path (what it places and removes, the cells and digits it rests on, its chains).

use std::fmt;
use std::str::FromStr;

use super::chain::{Branches, Lines};
use super::Technique;
use crate::grid::cell_name;

/// A difficulty in tenths, as SE prints it: `Difficulty(23)` is 2.3.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Difficulty(pub u8);

impl Difficulty {
    /// The difficulty as SE prints it (`2.3`, `10.5`) into `out` (at least 4 bytes), without
    /// allocating; returns the bytes written.
    #[inline]
    pub fn write_text(self, out: &mut [u8]) -> usize {
        let (whole, tenth) = (self.0 / 10, self.0 % 10);
        let mut len = 0;
        if whole >= 10 {
            out[len] = b'0' + whole / 10;
            len += 1;
        }
        out[len] = b'0' + whole % 10;
        out[len + 1] = b'.';
        out[len + 2] = b'0' + tenth;
        len + 3
    }
}

impl fmt::Display for Difficulty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0u8; 4];
        let len = self.write_text(&mut buf);
        f.write_str(std::str::from_utf8(&buf[..len]).expect("ASCII"))
    }
}

/// A difficulty that does not parse (`FromStr` of [`Difficulty`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid difficulty {0:?} (expected a rating like 2.3, from 0.0 to 25.5)")]
pub struct ParseDifficultyError(String);

impl FromStr for Difficulty {
    type Err = ParseDifficultyError;
    /// `"2.3"`, `"2"` or `"11.0"`: one decimal at most.
    fn from_str(s: &str) -> Result<Difficulty, ParseDifficultyError> {
        let err = || ParseDifficultyError(s.to_string());
        let t = s.trim();
        let (whole, tenth) = match t.split_once('.') {
            Some((w, f)) if f.len() == 1 => (w, f),
            Some(_) => return Err(err()),
            None => (t, "0"),
        };
        if whole.is_empty() || !whole.bytes().all(|b| b.is_ascii_digit()) {
            return Err(err());
        }
        let whole: u32 = whole.parse().map_err(|_| err())?;
        let tenth: u32 = tenth.parse().map_err(|_| err())?;
        let value = whole.checked_mul(10).and_then(|w| w.checked_add(tenth));
        match value {
            Some(v) if v <= u32::from(u8::MAX) => Ok(Difficulty(v as u8)),
            _ => Err(err()),
        }
    }
}

/// The rating of one puzzle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rating {
    /// The hardest step on the path (SE's ER).
    pub er: Difficulty,
    /// The hardest step up to and including the first placement (SE's EP); 0.0 when the
    /// path stopped before any placement.
    pub ep: Difficulty,
    /// The first step's difficulty (SE's ED: the hardest step up to the first
    /// elimination); 0.0 for a grid with no step.
    pub ed: Difficulty,
    /// The technique of the hardest step (the first one at that difficulty); `None` when
    /// there was no step.
    pub hardest: Option<Technique>,
    /// Steps taken.
    pub steps: u32,
    /// The path stopped early: no technique of the ladder applied, or the next step was
    /// harder than `max_rating`.
    pub capped: bool,
}

/// A placement, `r1c2=5`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Cell 0..81, row-major.
    pub cell: u8,
    /// Digit 1..=9.
    pub digit: u8,
}

impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", cell_name(self.cell), self.digit)
    }
}

/// An elimination, `r3c4<>7`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Elimination {
    /// Cell 0..81, row-major.
    pub cell: u8,
    /// Digit 1..=9.
    pub digit: u8,
}

impl fmt::Display for Elimination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}<>{}", cell_name(self.cell), self.digit)
    }
}

/// One step of a path, borrowed from the rater's scratch for the duration of the callback.
#[derive(Clone, Copy, Debug)]
pub struct Step<'a> {
    /// The technique.
    pub technique: Technique,
    /// Its difficulty.
    pub difficulty: Difficulty,
    /// The houses it rests on: where its pattern lies and where it removes from.
    pub houses: Houses,
    /// The cells it rests on: for a chain step, every cell of every chain.
    pub cells: &'a [u8],
    /// The digits it rests on (bit `d - 1` for digit `d`).
    pub digits: u16,
    /// What it places (at most one digit).
    pub placements: &'a [Placement],
    /// What it eliminates, by cell then digit.
    pub eliminations: &'a [Elimination],
    /// A chaining step's chains, in Eureka notation (written from `branches`).
    pub chain: StepChain<'a>,
    /// A chaining step's chains as data: its branches of links, each with why it holds,
    /// and the rules and nested chains they rest on (empty for other steps).
    pub branches: Branches<'a>,
    /// The step in a plain-English sentence (or a few) naming its houses, cells and digits
    /// and what it places or removes.
    pub text: &'a str,
    /// The step in sentences a person can follow one by one: a chain's, one per link of
    /// each branch (then, for a cycle, how each removal follows); an aligned exclusion's,
    /// one per candidate removed, with the combinations that exclude it (empty for other
    /// steps).
    pub lines: Lines<'a>,
}

/// A set of houses, bit `h` for house `h`: `0..9` boxes 1-9 (left to right, top to
/// bottom), `9..18` rows 1-9, `18..27` columns 1-9.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Houses(pub u32);

impl Houses {
    /// The houses in the order a person names them: rows, then columns, then boxes.
    pub fn iter(self) -> impl Iterator<Item = House> {
        const ORDER: [u8; 27] = {
            let mut t = [0u8; 27];
            let mut i = 0;
            while i < 27 {
                t[i] = ((i + 9) % 27) as u8;
                i += 1;
            }
            t
        };
        ORDER
            .into_iter()
            .filter(move |&h| self.0 & (1 << h) != 0)
            .map(House)
    }

    /// Whether there is none.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

/// One house ([`Houses`] numbering). `Display` gives its short name (`r3`, `c4`, `b5`), the
/// alternate form `{:#}` its name in words (`row 3`, `column 4`, `box 5`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct House(pub u8);

/// The kind of a house.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HouseKind {
    /// A 3×3 box.
    Box,
    /// A row.
    Row,
    /// A column.
    Column,
}

impl House {
    /// Its kind.
    pub fn kind(self) -> HouseKind {
        match self.0 / 9 {
            0 => HouseKind::Box,
            1 => HouseKind::Row,
            _ => HouseKind::Column,
        }
    }

    /// Its number among its kind, 1-9.
    pub fn number(self) -> u8 {
        self.0 % 9 + 1
    }
}

impl fmt::Display for House {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (short, long) = match self.kind() {
            HouseKind::Box => ('b', "box"),
            HouseKind::Row => ('r', "row"),
            HouseKind::Column => ('c', "column"),
        };
        if f.alternate() {
            write!(f, "{long} {}", self.number())
        } else {
            write!(f, "{short}{}", self.number())
        }
    }
}

/// The chains a step rests on, in Eureka notation: `(5)r1c2-r1c7=(5=3)r2c8-r3c9`, weak links
/// `-` (the node before is on, so this one is off), strong links `=` (off, so on), a cell's
/// two digits linked inside it `(5=3)r2c8`, a node's digit left out when it is the previous
/// node's. A chain's first link tells its first node's state: `-`, assumed on; `=`, off.
/// A link of the dynamic chains (Nishio, dynamic forcing chains) may read removals made on
/// other paths from the same assumption; those paths follow the chain in brackets, each from
/// a node already written: `(5)r1c2-r1c7=r3c8 [(5)r1c2-r3c1]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StepChain<'a> {
    /// No chain: the step's technique is not a chain (nor is aligned triplet exclusion).
    #[default]
    None,
    /// A cycle (from a candidate on, around, back to it) or a forcing chain (from a
    /// candidate on to its removal, or off to its placement).
    Single(&'a str),
    /// Forcing chains of several branches ([`ChainBranches`]).
    Branches(ChainBranches<'a>),
}

/// The branches of a forcing-chain step, each from its assumption to the conclusion:
/// - Nishio and dynamic contradiction forcing chains: from the assumption to the "on" and
///   to the "off" of the candidate that clashes (one branch, to the assumption's negation,
///   when the clash is on the assumption itself);
/// - dynamic double forcing chains: from the digit on, then off, to the conclusion;
/// - cell (region) forcing chains: from each candidate of the cell (place of the digit in
///   the house), in order, to the conclusion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChainBranches<'a>(pub(super) &'a str);

impl<'a> ChainBranches<'a> {
    /// The branches in order.
    pub fn iter(&self) -> impl Iterator<Item = &'a str> {
        self.0.split('\n')
    }
}
