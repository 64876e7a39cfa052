//! Human-style difficulty ratings: Sudoku Explainer's ER/EP/ED, by solving a puzzle the way
//! SE 1.2.1.3 does, step by step.
//!
//! ```text
//!  Rater::rate(puzzle, solution)
//!    │ Board::load: candidates of the givens (cell masks, house x digit position masks)
//!    ▼
//!  ┌─ step loop ──────────────────────────────────────────────────────────────────────┐
//!  │  finders in ladder order; the FIRST hint the first finder reports is the step     │
//!  │  (SE's SingleHintAccumulator), whatever a later finder might have rated lower     │
//!  │  apply: eliminations, then the placement (a placed digit leaves its 20 peers)     │
//!  │  ER = max difficulty; ED = the first step's; EP = the running max at the first    │
//!  │  step that places a digit                                                         │
//!  └─ until solved, or no finder applies (capped), or the next step > max_rating ─────┘
//! ```
//!
//! # The ladder (SE 1.2.1.3, `Solver.java`), in the order the finders run
//!
//! Each finder visits houses, digits and cells in SE's own order (see each function), since
//! the first hint found is applied and a different one can lead to a different path.
//!
//! | order | technique | rating | definition |
//! |---|---|---|---|
//! | 1 | Hidden Single | 1.0 / 1.2 / 1.5 | last empty cell of a house / a digit with one place in a block / in a column or row |
//! | 2 | Direct Pointing, Direct Claiming | 1.7 / 1.9 | a digit of a block locked in a line (of a line locked in a block) leaves a hidden single in another house crossing the second; only the single is placed |
//! | 3 | Direct Hidden Pair | 2.0 | two digits confined to two cells of a house leave another digit one place there; only that single is placed |
//! | 4 | Naked Single | 2.3 | a cell with one candidate |
//! | 5 | Direct Hidden Triplet | 2.5 | as 3, with three digits |
//! | 6 | Pointing, Claiming | 2.6 / 2.8 | a digit of a block confined to a line leaves the rest of the line (of a line confined to a block, the rest of the block) |
//! | 7 | Naked Pair | 3.0 | two cells of a house holding two digits between them: the rest of the house loses them |
//! | 8 | X-Wing | 3.2 | a digit's places in two base lines (columns first, then rows) lie in two cross lines: the cross lines lose it elsewhere |
//! | 9 | Hidden Pair | 3.4 | two digits confined to two cells of a house: those cells lose their other digits |
//! | 10 | Naked Triplet | 3.6 | as 7, three cells |
//! | 11 | Swordfish | 3.8 | as 8, three lines |
//! | 12 | Hidden Triplet | 4.0 | as 9, three digits |
//! | 13 | XY-Wing | 4.2 | pivot `xy` seeing wings `xz` and `yz` (all bivalue): cells seeing both wings lose `z` |
//! | 14 | XYZ-Wing | 4.4 | pivot `xyz`, wings `xz` and `yz`: cells seeing all three lose `z` |
//! | 15 | Unique Rectangle / Loop types 1-4 | 4.5 / 4.6 / 4.7 / 5.0 (+0.1-0.5 for type 3) | cells that would make two solutions ([`uniqueness`](self) has the types); all found, the lowest (rating, type) first |
//! | 16 | Naked Quad | 5.0 | as 7, four cells |
//! | 17 | Jellyfish | 5.2 | as 8, four lines |
//! | 18 | Hidden Quad | 5.4 | as 9, four digits |
//! | 19 | BUG types 1-4 | 5.6 / 5.7 / 5.7+ | a few candidates off a bivalue universal grave: one of them is true |
//! | 20 | Aligned Pair Exclusion | 6.2 | two cells whose value pairs would empty a common bivalue peer |
//! | 21 | Bidirectional X-/Y-Cycle, Generalized X-Wing, Bidirectional Cycle; Forcing X-Chain, Turbot Fish, Forcing Chain | 6.5 / 7.0; 6.6 / 7.0; + length bonus | SE's "Forcing Chains & Cycles": loops and chains of implications on one digit's strong links (X), bivalue cells (Y) or both; all collected, the least (difficulty, length, kind) first ([`chains`](self)) |
//! | 22 | Aligned Triplet Exclusion | 7.5 | three cells whose value triples would empty a common peer |
//! | 23 | Nishio Forcing Chains | 7.5 + length bonus | an assumption on one digit (a candidate on, or off) whose dynamic consequences on that digit alone clash ([`chains`](self)) |
//! | 24 | Cell / Region Forcing Chains | 8.0 + length bonus | every candidate of a cell (of three or more), or every place of a digit in a house, assumed true, implies the same conclusion ([`chains`](self)) |
//! | 25 | Dynamic Contradiction / Double / Cell / Region Forcing Chains | 8.5 + length bonus | as 23 and 24 on every digit, with both rules, each removal read by the links after it ([`chains`](self)) |
//! | 26 | the same, (+) | 9.0 + length bonus | as 25, and when the links run dry, the removals of intersections, hidden and naked pairs and X-Wings on the reduced grid ([`chains`](self)) |
//! | 27 | the same, (+ Forcing Chains) | 9.5 + length bonus | as 26, and when those rules find nothing, the removals of the cycles and forcing chains of 21 on the reduced grid (nested forcing chains, level 2; [`chains`](self)) |
//! | 28 | the same, (+ Multiple Forcing Chains) | 10.0 + length bonus | as 27, and when the forcing chains find nothing either, the removals of the cell and region forcing chains of 24 on the reduced grid (nested forcing chains, level 3; [`chains`](self)) |
//! | 29 | the same, (+ Dynamic Forcing Chains) | 10.5 + length bonus | as 26, and when those rules find nothing, the removals of the dynamic forcing chains of 25 on the reduced grid (nested forcing chains, level 4; [`chains`](self)) |
//! | 30 | the same, (+ Dynamic Forcing Chains (+ Forcing Chains)) | 11.0 + length bonus | as 29, and when the dynamic forcing chains find nothing either, the removals of the nested forcing chains of 27 on the reduced grid (nested forcing chains, level 5; [`chains`](self)) |
//!
//! Note the list order is not difficulty order (a 10-cell loop, 5.0, comes before a naked
//! quad; XYZ-Wing, 4.4, before a rectangle): SE's order decides, as here.
//!
//! When SE's last chain producer finds nothing either (SE then rates the puzzle 20.0), the
//! path stops there: its rating is the path so far and [`Rating::capped`] is set, never a
//! wrong number.
//!
//! # The Sukaku ladders ([`Ladder::Sukaku`], [`Ladder::SukakuDefault`])
//!
//! Sukaku Explainer's default set (its `Solver.java`, default settings: not the "revised
//! rating") keeps SE's ratings and definitions for the techniques they share, but not all
//! of SE's order: its intersections visit digits before houses, and its unique loops and
//! BUG carry lkSudoku's fixes (see [`uniqueness`](self), [`bug`](self)). It runs:
//!
//! | order | technique | rating | definition |
//! |---|---|---|---|
//! | 1-12 | as SE's 1-12 above | | intersections digit first |
//! | 13 | 2 strong links: Skyscraper, 2-String Kite, turbot fish ("2 Strong links"), grouped, loops | 4.0-4.3 | [`strong`](self) |
//! | 14-15 | XY-Wing, XYZ-Wing | 4.2, 4.4 | as SE |
//! | 16 | Unique Rectangle / Loop types 1-4 | 4.5-5.0+ | lkSudoku's walk and type 3 |
//! | 17-19 | Naked Quad, Jellyfish, Hidden Quad | 5.0, 5.2, 5.4 | as SE |
//! | 20 | 3 strong links (3 Skyscrapers, 3-String Kite, ...) | 5.4-5.7 | [`strong`](self) |
//! | 21 | WXYZ-Wing | 5.5-5.6 | three cells with four digits and a bivalue cell ([`als_wings`](self)) |
//! | 22 | BUG types 1-4 | 5.6-6.1 | lkSudoku's BUG cells and type 3 |
//! | 23 | 4 strong links | 5.8-6.1 | [`strong`](self) |
//! | 24 | VWXYZ-Wing | 6.2-6.4 | four cells with five digits and a bivalue cell |
//! | 25 | Aligned Pair Exclusion | 6.2 | as SE |
//! | 26 | UVWXYZ-Wing | 6.6 | five cells with six digits and a bivalue cell: **only in `SukakuDefault`** |
//! | 27 | Forcing Chains & Cycles | 6.5-7.x | as SE's 21 |
//! | 28 | TUVWXYZ-Wing | 7.5 | six cells with seven digits and a bivalue cell: **only in `SukakuDefault`** |
//! | 29 | Aligned Triplet Exclusion | 7.5 | as SE's 22, a cell's peers in index order |
//! | 30-32 | Nishio, Multiple, Dynamic Forcing Chains | 7.5, 8.0, 8.5 + length | as SE's 23-25 |
//!
//! (5- and 6-strong-link fish and generalized naked sets are off in Sukaku's default set.)
//! Sukaku's chain producers are SE's, with SE's difficulties, length bonus, search order
//! and sorting of hints ([`chains`](self)). [`Ladder::Sukaku`] is the set the
//! Sudoku Exchange bank's ratings reflect: Sukaku's default set without UVWXYZ- and
//! TUVWXYZ-Wing (Sukaku
//! so configured agrees with the bank on 99.3% of a 744-puzzle diabolical sample, the full
//! default set on 96.4%: with UVWXYZ-Wing on, its 6.6 replaces the bank's 6.7-7.7 chains).
//! [`Ladder::SukakuDefault`] is the default set as Sukaku's current release runs it. Both
//! go on, as SE's ladder does, up to nested forcing chains of level 5.
//!
//! # Speed: what is kept between steps
//!
//! Every step runs the finders from the top, as SE does, so the cheap ones must stay cheap:
//! - the board keeps, incrementally, the digits with one place per house, the houses with
//!   one empty cell and the cells with one candidate: hidden and naked singles are O(1);
//! - a house a direct hidden pair/triplet scan found empty stays skipped until one of its
//!   positions changes; likewise an intersection scan from one first house, until a house it
//!   reads changes;
//! - subsets visit only sets of members that can fit (2 to `degree` places or candidates);
//!   intersections compute the one crossing house of a digit's places directly;
//! - the unique-loop walk (SE's depth-first search, exponential in the worst case) does not
//!   enter a cell that cannot lie on a loop (another cell with both digits in fewer than two
//!   of its houses) or that repeats a house on its side of the path (SE's validity test
//!   rejects every loop through it); it still lets such cells add their extra digits to the
//!   set SE accumulates, so the loops found, and their order, are SE's;
//! - the local techniques (X-Wing, Swordfish, Jellyfish and aligned pair exclusion here;
//!   aligned triplet exclusion and Nishio forcing chains among the chains) keep the last grid
//!   they found nothing on (`quiet::Quiet`) and look again only where a candidate changed
//!   since: a fish at the digits whose places changed, an aligned exclusion at the cells
//!   that changed or whose common peers did. What they read there is what they found
//!   nothing on, so the hint found is the whole search's (checked under `cargo test`: each
//!   such search is run whole too and must find the same hint).
//!
//! Measured 2026-12-02 (AMD EPYC Zen 4, 2 cores shared with other builds, load ~20; CPU time
//! of the rating thread, one thread, the uniqueness solve included; SE 1.2.1.3's CPU time
//! per puzzle from the same machine's reference runs; `examples/rate_file.rs`,
//! `scripts/rate-speed.py`):
//! - 17-clue sample: unique loops took 88% of the time before the walk was pruned (5.2 ms
//!   a puzzle wall, loaded): 0.2 ms after the first pruning, ~0.1 ms now.
//! - Kaggle 1M (24,997 puzzles): 7.8 → 4.3-4.7 µs a puzzle (board set-up in one pass over the
//!   candidates: 3.8 → ~1.5 µs; incremental singles).
//! - Exchange and tdoku puzzles rated 4.0-6.4 by SE: 93 → 60-75 µs (direct-set and
//!   intersection memory, subsets of members, pruned walk, XY-Wing's forced second wing).

// Cells, houses and digits are small indexes into parallel tables: indexing reads better
// than zipped iterators here.
#![allow(clippy::needless_range_loop)]

mod als_wings;
mod board;
mod bug;
mod chains;
mod exclusion;
mod hint;
mod quiet;
mod singles;
mod strong;
mod subsets;
mod uniqueness;
mod wings;

use std::fmt;
use std::str::FromStr;

use crate::grid::{cell_name, Grid};
use board::Board;
use hint::Hint;
use quiet::Quiet;

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

/// Which technique ladder: Sudoku Explainer 1.2.1.3 (the default) or Sukaku Explainer's
/// default set (the Sudoku Exchange bank's ratings).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Ladder {
    /// Sudoku Explainer 1.2.1.3 (gsf's `serate`).
    #[default]
    Se,
    /// Sukaku Explainer's default technique set as the Sudoku Exchange bank was rated with
    /// it: without UVWXYZ-Wing (and TUVWXYZ-Wing, past chains).
    Sukaku,
    /// Sukaku Explainer's default technique set as its current release runs it: the Sukaku
    /// ladder, UVWXYZ-Wing (6.6) and TUVWXYZ-Wing (7.5, after the first chains).
    SukakuDefault,
}

impl Ladder {
    /// The ladder's name on the command line: `se`, `sukaku` or `sukaku-default`.
    pub fn name(self) -> &'static str {
        match self {
            Ladder::Se => "se",
            Ladder::Sukaku => "sukaku",
            Ladder::SukakuDefault => "sukaku-default",
        }
    }
}

impl fmt::Display for Ladder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A ladder name that is not `se`, `sukaku` or `sukaku-default`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown ladder {0:?} (expected se, sukaku or sukaku-default)")]
pub struct ParseLadderError(String);

impl FromStr for Ladder {
    type Err = ParseLadderError;
    fn from_str(s: &str) -> Result<Ladder, ParseLadderError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "se" => Ok(Ladder::Se),
            "sukaku" => Ok(Ladder::Sukaku),
            "sukaku-default" => Ok(Ladder::SukakuDefault),
            _ => Err(ParseLadderError(s.to_string())),
        }
    }
}

/// How to rate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RateOptions {
    /// The technique ladder.
    pub ladder: Ladder,
    /// Stop a puzzle's path once the next step would be harder than this (the result is
    /// capped).
    pub max_rating: Option<Difficulty>,
}

macro_rules! techniques {
    ($($(#[$doc:meta])* $variant:ident => $name:literal,)*) => {
        /// One technique of the ladders. [`Technique::name`] is its name as SE prints it.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Technique {
            $($(#[$doc])* $variant,)*
        }

        impl Technique {
            /// Every technique, in ladder order.
            pub const ALL: &'static [Technique] = &[$(Technique::$variant,)*];

            /// The technique's name as Sudoku Explainer prints it.
            pub fn name(self) -> &'static str {
                match self {
                    $(Technique::$variant => $name,)*
                }
            }
        }
    };
}

techniques! {
    /// The last empty cell of a house, or a digit with one place in a house.
    HiddenSingle => "Hidden Single",
    /// A block's digit locked in a line leaves a hidden single elsewhere (placed).
    DirectPointing => "Direct Pointing",
    /// A line's digit locked in a block leaves a hidden single elsewhere (placed).
    DirectClaiming => "Direct Claiming",
    /// A hidden pair leaves a hidden single in its house (placed).
    DirectHiddenPair => "Direct Hidden Pair",
    /// A cell with one candidate.
    NakedSingle => "Naked Single",
    /// A hidden triplet leaves a hidden single in its house (placed).
    DirectHiddenTriplet => "Direct Hidden Triplet",
    /// A block's digit confined to one line: the rest of the line loses it.
    Pointing => "Pointing",
    /// A line's digit confined to one block: the rest of the block loses it.
    Claiming => "Claiming",
    /// Two cells of a house with the same two candidates.
    NakedPair => "Naked Pair",
    /// A digit in two rows (columns) confined to two columns (rows).
    XWing => "X-Wing",
    /// Two digits confined to two cells of a house.
    HiddenPair => "Hidden Pair",
    /// Three cells of a house with three candidates between them.
    NakedTriplet => "Naked Triplet",
    /// A digit in three rows (columns) confined to three columns (rows).
    Swordfish => "Swordfish",
    /// Three digits confined to three cells of a house.
    HiddenTriplet => "Hidden Triplet",
    /// A digit's strong links in two parallel lines joined by a weak link (Sukaku).
    Skyscraper => "Skyscraper",
    /// Strong links in a row and a column joined in a block (Sukaku).
    TwoStringKite => "2-String Kite",
    /// Two strong links, one in a block: the turbot fish family (Sukaku).
    TwoStrongLinks => "2 Strong links",
    /// Two strong links closing into a loop (Sukaku).
    TwoStrongLinksLoop => "(2 Strong Links) X-Loop",
    /// A skyscraper with a grouped link (Sukaku).
    GroupedSkyscraper => "Grouped Skyscraper",
    /// A 2-string kite with a grouped link (Sukaku).
    GroupedTwoStringKite => "Grouped 2-String Kite",
    /// Two strong links, one grouped (Sukaku): empty rectangles and grouped turbot fish.
    GroupedTwoStrongLinks => "Grouped 2 Strong links",
    /// Two strong links, one grouped, closing into a loop (Sukaku).
    TwoStrongLinksGroupedLoop => "(2 Strong Links) Grouped X-Loop",
    /// A bivalue pivot and two bivalue wings.
    XYWing => "XY-Wing",
    /// A trivalue pivot and two bivalue wings.
    XYZWing => "XYZ-Wing",
    /// A unique rectangle with one extra cell.
    UniqueRectangle1 => "Unique Rectangle type 1",
    /// A unique rectangle whose extra cells share one extra digit.
    UniqueRectangle2 => "Unique Rectangle type 2",
    /// A unique rectangle whose extra digits form a subset with other cells.
    UniqueRectangle3 => "Unique Rectangle type 3",
    /// A unique rectangle whose extra cells hold a locked digit of the pair.
    UniqueRectangle4 => "Unique Rectangle type 4",
    /// A unique loop (6 cells or more) with one extra cell.
    UniqueLoop1 => "Unique Loop type 1",
    /// A unique loop whose extra cells share one extra digit.
    UniqueLoop2 => "Unique Loop type 2",
    /// A unique loop whose extra digits form a subset with other cells.
    UniqueLoop3 => "Unique Loop type 3",
    /// A unique loop whose extra cells hold a locked digit of the pair.
    UniqueLoop4 => "Unique Loop type 4",
    /// Four cells of a house with four candidates between them.
    NakedQuad => "Naked Quad",
    /// A digit in four rows (columns) confined to four columns (rows).
    Jellyfish => "Jellyfish",
    /// Four digits confined to four cells of a house.
    HiddenQuad => "Hidden Quad",
    /// Three strong links in parallel lines (Sukaku).
    ThreeSkyscrapers => "3 Skyscrapers",
    /// Three strong links in rows and columns (Sukaku).
    ThreeStringKite => "3-String Kite",
    /// Three strong links, one at least in a block (Sukaku).
    ThreeStrongLinks => "3 Strong links",
    /// Three strong links closing into a loop (Sukaku).
    ThreeStrongLinksLoop => "(3 Strong Links) X-Loop",
    /// Three skyscraper links, one grouped (Sukaku).
    GroupedThreeSkyscrapers => "Grouped 3 Skyscrapers",
    /// A 3-string kite with a grouped link (Sukaku).
    GroupedThreeStringKite => "Grouped 3-String Kite",
    /// Three strong links, one grouped (Sukaku).
    GroupedThreeStrongLinks => "Grouped 3 Strong links",
    /// Three strong links, one grouped, closing into a loop (Sukaku).
    ThreeStrongLinksGroupedLoop => "(3 Strong Links) Grouped X-Loop",
    /// Three cells holding four digits and a bivalue cell sharing a restricted digit
    /// with them (Sukaku).
    WXYZWing => "WXYZ-Wing",
    /// One cell off a bivalue universal grave.
    Bug1 => "BUG type 1",
    /// BUG cells sharing one extra digit.
    Bug2 => "BUG type 2",
    /// BUG cells whose extra digits form a naked set in a house.
    Bug3 => "BUG type 3",
    /// Two BUG cells in a house sharing a locked digit.
    Bug4 => "BUG type 4",
    /// Four strong links in parallel lines (Sukaku).
    FourSkyscrapers => "4 Skyscrapers",
    /// Four strong links of mixed kinds (Sukaku).
    FourStrongLinks => "4 Strong links",
    /// Four strong links closing into a loop (Sukaku).
    FourStrongLinksLoop => "(4 Strong Links) X-Loop",
    /// Four skyscraper links, one grouped (Sukaku).
    GroupedFourSkyscrapers => "Grouped 4 Skyscrapers",
    /// Four strong links, one grouped (Sukaku).
    GroupedFourStrongLinks => "Grouped 4 Strong links",
    /// Four strong links, one grouped, closing into a loop (Sukaku).
    FourStrongLinksGroupedLoop => "(4 Strong Links) Grouped X-Loop",
    /// Four cells holding five digits and a bivalue cell sharing a restricted digit with
    /// them (Sukaku).
    VWXYZWing => "VWXYZ-Wing",
    /// Two cells whose candidate pairs are cut down by bivalue cells seeing both.
    AlignedPairExclusion => "Aligned Pair Exclusion",
    /// Five cells holding six digits and a bivalue cell sharing a restricted digit with
    /// them (Sukaku's default set; not in the Exchange bank's ratings).
    UVWXYZWing => "UVWXYZ-Wing",
    /// Six cells holding seven digits and a bivalue cell sharing a restricted digit with
    /// them (Sukaku's default set, after its first chains; not in the Exchange bank's
    /// ratings).
    TUVWXYZWing => "TUVWXYZ-Wing",
    /// A loop of one digit's strong and weak links.
    BidirectionalXCycle => "Bidirectional X-Cycle",
    /// An X-cycle through four cells.
    GeneralizedXWing => "Generalized X-Wing",
    /// A loop through bivalue cells.
    BidirectionalYCycle => "Bidirectional Y-Cycle",
    /// A loop of links of both kinds.
    BidirectionalCycle => "Bidirectional Cycle",
    /// A chain of one digit from a candidate to its own negation.
    ForcingXChain => "Forcing X-Chain",
    /// A forcing X-chain of six potentials.
    TurbotFish => "Turbot Fish",
    /// A chain of links of both kinds from a candidate to its own negation.
    ForcingChain => "Forcing Chain",
    /// Three cells whose value combinations are cut down by cells seeing all three.
    AlignedTripletExclusion => "Aligned Triplet Exclusion",
    /// An assumption on one digit whose consequences, on that digit's places alone, clash.
    NishioForcingChains => "Nishio Forcing Chains",
    /// Every candidate of a cell, assumed true, implies the same conclusion.
    CellForcingChains => "Cell Forcing Chains",
    /// Every place of a digit in a house, assumed true, implies the same conclusion.
    RegionForcingChains => "Region Forcing Chains",
    /// An assumption whose dynamic consequences clash.
    DynamicContradictionForcingChains => "Dynamic Contradiction Forcing Chains",
    /// A candidate implied both by an assumption and by its negation (dynamic).
    DynamicDoubleForcingChains => "Dynamic Double Forcing Chains",
    /// Every candidate of a cell, assumed true, implies the same conclusion (dynamic).
    DynamicCellForcingChains => "Dynamic Cell Forcing Chains",
    /// Every place of a digit in a house, assumed true, implies the same conclusion
    /// (dynamic).
    DynamicRegionForcingChains => "Dynamic Region Forcing Chains",
    /// A dynamic contradiction whose propagation also applies intersections, hidden and
    /// naked pairs and X-Wings to the reduced grid.
    DynamicContradictionForcingChainsPlus => "Dynamic Contradiction Forcing Chains (+)",
    /// A dynamic double forcing chain whose propagations also apply the basic rules.
    DynamicDoubleForcingChainsPlus => "Dynamic Double Forcing Chains (+)",
    /// A dynamic cell forcing chain whose propagations also apply the basic rules.
    DynamicCellForcingChainsPlus => "Dynamic Cell Forcing Chains (+)",
    /// A dynamic region forcing chain whose propagations also apply the basic rules.
    DynamicRegionForcingChainsPlus => "Dynamic Region Forcing Chains (+)",
    /// A dynamic contradiction whose propagation, when the basic rules find nothing, also
    /// applies the cycles and forcing chains of one or both link kinds to the reduced grid
    /// (nested forcing chains, level 2).
    DynamicContradictionForcingChainsNested => "Dynamic Contradiction Forcing Chains (+ Forcing Chains)",
    /// A dynamic double forcing chain whose propagations nest forcing chains (level 2).
    DynamicDoubleForcingChainsNested => "Dynamic Double Forcing Chains (+ Forcing Chains)",
    /// A dynamic cell forcing chain whose propagations nest forcing chains (level 2).
    DynamicCellForcingChainsNested => "Dynamic Cell Forcing Chains (+ Forcing Chains)",
    /// A dynamic region forcing chain whose propagations nest forcing chains (level 2).
    DynamicRegionForcingChainsNested => "Dynamic Region Forcing Chains (+ Forcing Chains)",
    /// A dynamic contradiction whose propagation, when the basic rules and the forcing
    /// chains find nothing, also applies cell and region forcing chains to the reduced grid
    /// (nested forcing chains, level 3).
    DynamicContradictionForcingChainsNestedMultiple => "Dynamic Contradiction Forcing Chains (+ Multiple Forcing Chains)",
    /// A dynamic double forcing chain whose propagations nest multiple forcing chains
    /// (level 3).
    DynamicDoubleForcingChainsNestedMultiple => "Dynamic Double Forcing Chains (+ Multiple Forcing Chains)",
    /// A dynamic cell forcing chain whose propagations nest multiple forcing chains (level
    /// 3).
    DynamicCellForcingChainsNestedMultiple => "Dynamic Cell Forcing Chains (+ Multiple Forcing Chains)",
    /// A dynamic region forcing chain whose propagations nest multiple forcing chains
    /// (level 3).
    DynamicRegionForcingChainsNestedMultiple => "Dynamic Region Forcing Chains (+ Multiple Forcing Chains)",
    /// A dynamic contradiction whose propagation, when the basic rules find nothing, also
    /// applies dynamic forcing chains to the reduced grid (nested forcing chains, level 4).
    DynamicContradictionForcingChainsNestedDynamic => "Dynamic Contradiction Forcing Chains (+ Dynamic Forcing Chains)",
    /// A dynamic double forcing chain whose propagations nest dynamic forcing chains (level
    /// 4).
    DynamicDoubleForcingChainsNestedDynamic => "Dynamic Double Forcing Chains (+ Dynamic Forcing Chains)",
    /// A dynamic cell forcing chain whose propagations nest dynamic forcing chains (level
    /// 4).
    DynamicCellForcingChainsNestedDynamic => "Dynamic Cell Forcing Chains (+ Dynamic Forcing Chains)",
    /// A dynamic region forcing chain whose propagations nest dynamic forcing chains (level
    /// 4).
    DynamicRegionForcingChainsNestedDynamic => "Dynamic Region Forcing Chains (+ Dynamic Forcing Chains)",
    /// A dynamic contradiction whose propagation, when the basic rules and the dynamic
    /// forcing chains find nothing, also applies nested forcing chains of level 2 to the
    /// reduced grid (nested forcing chains, level 5).
    DynamicContradictionForcingChainsNestedDynamicNested => "Dynamic Contradiction Forcing Chains (+ Dynamic Forcing Chains (+ Forcing Chains))",
    /// A dynamic double forcing chain whose propagations nest nested forcing chains of
    /// level 2 (level 5).
    DynamicDoubleForcingChainsNestedDynamicNested => "Dynamic Double Forcing Chains (+ Dynamic Forcing Chains (+ Forcing Chains))",
    /// A dynamic cell forcing chain whose propagations nest nested forcing chains of level
    /// 2 (level 5).
    DynamicCellForcingChainsNestedDynamicNested => "Dynamic Cell Forcing Chains (+ Dynamic Forcing Chains (+ Forcing Chains))",
    /// A dynamic region forcing chain whose propagations nest nested forcing chains of
    /// level 2 (level 5).
    DynamicRegionForcingChainsNestedDynamicNested => "Dynamic Region Forcing Chains (+ Dynamic Forcing Chains (+ Forcing Chains))",
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
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
    /// The cells it rests on.
    pub cells: &'a [u8],
    /// The digits it rests on (bit `d - 1` for digit `d`).
    pub digits: u16,
    /// What it places (at most one digit).
    pub placements: &'a [Placement],
    /// What it eliminates, by cell then digit.
    pub eliminations: &'a [Elimination],
    /// A chaining step's chains, in Eureka notation.
    pub chain: StepChain<'a>,
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
pub struct ChainBranches<'a>(&'a str);

impl<'a> ChainBranches<'a> {
    /// The branches in order.
    pub fn iter(&self) -> impl Iterator<Item = &'a str> {
        self.0.split('\n')
    }
}

/// The finders of a ladder, in the order they run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Finder {
    HiddenSingle,
    DirectLocking,
    DirectHiddenPair,
    NakedSingle,
    DirectHiddenTriplet,
    Locking,
    NakedSet(u8),
    HiddenSet(u8),
    Fish(u8),
    XYWing,
    XYZWing,
    UniqueLoop,
    Bug,
    AlignedPairExclusion,
    /// Sukaku's unique loops: with lkSudoku's fixes.
    UniqueLoopLk,
    /// Sukaku's strong-link fish with this many links.
    StrongLinks(u8),
    /// Sukaku's BUG: with lkSudoku's fixes.
    BugLk,
    /// Sukaku's WXYZ- (3), VWXYZ- (4), UVWXYZ-Wing (5): sets of this many cells.
    AlsWing(u8),
    /// Sukaku's intersections: digit first.
    DirectLockingByDigit,
    LockingByDigit,
}

/// SE 1.2.1.3's producers in `Solver`'s order, up to aligned pair exclusion (the chains
/// follow).
const SE_LADDER: &[Finder] = &[
    Finder::HiddenSingle,
    Finder::DirectLocking,
    Finder::DirectHiddenPair,
    Finder::NakedSingle,
    Finder::DirectHiddenTriplet,
    Finder::Locking,
    Finder::NakedSet(2),
    Finder::Fish(2),
    Finder::HiddenSet(2),
    Finder::NakedSet(3),
    Finder::Fish(3),
    Finder::HiddenSet(3),
    Finder::XYWing,
    Finder::XYZWing,
    Finder::UniqueLoop,
    Finder::NakedSet(4),
    Finder::Fish(4),
    Finder::HiddenSet(4),
    Finder::Bug,
    Finder::AlignedPairExclusion,
];

/// Sukaku Explainer's default set (`Solver.java`, its default order) below chains; the
/// Sukaku ladder is the same without its last producer, UVWXYZ-Wing (the Exchange bank's
/// ratings). The chains follow ([`chain_variant`]).
const SUKAKU_DEFAULT_LADDER: &[Finder] = &[
    Finder::HiddenSingle,
    Finder::DirectLockingByDigit,
    Finder::DirectHiddenPair,
    Finder::NakedSingle,
    Finder::DirectHiddenTriplet,
    Finder::LockingByDigit,
    Finder::NakedSet(2),
    Finder::Fish(2),
    Finder::HiddenSet(2),
    Finder::NakedSet(3),
    Finder::Fish(3),
    Finder::HiddenSet(3),
    Finder::StrongLinks(2),
    Finder::XYWing,
    Finder::XYZWing,
    Finder::UniqueLoopLk,
    Finder::NakedSet(4),
    Finder::Fish(4),
    Finder::HiddenSet(4),
    Finder::StrongLinks(3),
    Finder::AlsWing(3),
    Finder::BugLk,
    Finder::StrongLinks(4),
    Finder::AlsWing(4),
    Finder::AlignedPairExclusion,
    Finder::AlsWing(5),
];

/// Rates puzzles. Holds all its scratch, so it allocates nothing per puzzle; one lives per
/// worker thread (it is `Send`), and it gives the same result whatever thread runs it.
pub struct Rater {
    options: RateOptions,
    board: Board,
    hint: Hint,
    eliminations: [Elimination; 729],
    chains: Box<chains::Chains>,
    /// The last grids on which X-Wing, Swordfish, Jellyfish and aligned pair exclusion found
    /// nothing.
    quiet: [Quiet; 4],
    /// A step's chains in Eureka notation (written only for `rate_with_steps`).
    chain_text: String,
}

/// Bytes reserved for a step's chains, so that `rate_with_steps` does not allocate either: ten
/// times the longest of the 64,889 chain steps of top1465 and of every 20th Exchange
/// diabolical puzzle (1,570 bytes, a dynamic contradiction forcing chain of 9.6). A longer
/// one grows the text.
const CHAIN_TEXT: usize = 1 << 14;

impl Rater {
    /// A rater with these options.
    pub fn new(options: RateOptions) -> Rater {
        Rater {
            options,
            board: Board::blank(),
            hint: Hint::new(),
            eliminations: [Elimination { cell: 0, digit: 0 }; 729],
            chains: chains::Chains::new(),
            quiet: [const { Quiet::new() }; 4],
            chain_text: String::with_capacity(CHAIN_TEXT),
        }
    }

    /// The options it rates with.
    pub fn options(&self) -> RateOptions {
        self.options
    }

    /// Rates a valid puzzle with exactly one solution; `solution` is that solution (the
    /// caller has solved it first, e.g. with `solver::solve_with_limit(puzzle, 2)`).
    pub fn rate(&mut self, puzzle: &Grid, solution: &Grid) -> Rating {
        self.run(puzzle, solution, None)
    }

    /// The same, calling `on_step` for every step of the path in order.
    pub fn rate_with_steps(
        &mut self,
        puzzle: &Grid,
        solution: &Grid,
        on_step: &mut dyn FnMut(&Step<'_>),
    ) -> Rating {
        self.run(puzzle, solution, Some(on_step))
    }

    fn ladder(&self) -> &'static [Finder] {
        match self.options.ladder {
            Ladder::Se => SE_LADDER,
            Ladder::Sukaku => &SUKAKU_DEFAULT_LADDER[..SUKAKU_DEFAULT_LADDER.len() - 1],
            Ladder::SukakuDefault => SUKAKU_DEFAULT_LADDER,
        }
    }

    fn run(
        &mut self,
        puzzle: &Grid,
        solution: &Grid,
        mut on_step: Option<&mut dyn FnMut(&Step<'_>)>,
    ) -> Rating {
        self.board.load(puzzle.cells());
        let ladder = self.ladder();
        let mut rating = Rating::default();
        let mut er_exact = 0.0f64;
        while !self.board.solved() {
            let found = find(ladder, &mut self.board, &mut self.hint, &mut self.quiet)
                || self.chains.find(
                    &self.board,
                    &mut self.hint,
                    solution.cells(),
                    self.options.max_rating,
                    chain_variant(self.options.ladder),
                );
            if !found {
                rating.capped = true;
                break;
            }
            let difficulty = self.hint.difficulty;
            if self.options.max_rating.is_some_and(|max| difficulty > max) {
                rating.capped = true;
                break;
            }
            // SE keeps the hardest step by comparing its doubles.
            let exact = self.hint.exact.unwrap_or(f64::from(difficulty.0) / 10.0);
            if rating.steps == 0 || exact > er_exact {
                er_exact = exact;
                rating.er = difficulty;
                rating.hardest = Some(self.hint.technique);
            }
            if rating.steps == 0 {
                rating.ed = rating.er;
            }
            if rating.ep == Difficulty(0) && self.hint.place.is_some() {
                rating.ep = rating.er;
            }
            rating.steps += 1;
            if let Some(callback) = on_step.as_mut() {
                self.report(&mut **callback);
            }
            apply(&mut self.board, &self.hint);
        }
        rating
    }

    fn report(&mut self, on_step: &mut dyn FnMut(&Step<'_>)) {
        let hint = &self.hint;
        let mut n = 0;
        for c in board::cells_of(hint.elim_cells) {
            for d in board::digits_of(hint.elim[c]) {
                self.eliminations[n] = Elimination {
                    cell: c as u8,
                    digit: d as u8 + 1,
                };
                n += 1;
            }
        }
        let placement = hint.place.map(|(cell, d)| Placement { cell, digit: d + 1 });
        self.chain_text.clear();
        let shape = if is_chain(hint.technique) {
            self.chains.explain(&self.board, &mut self.chain_text)
        } else {
            chains::Shape::None
        };
        let chain = match shape {
            chains::Shape::None => StepChain::None,
            chains::Shape::Single => StepChain::Single(&self.chain_text),
            chains::Shape::Branches => StepChain::Branches(ChainBranches(&self.chain_text)),
        };
        let step = Step {
            technique: hint.technique,
            difficulty: hint.difficulty,
            cells: &hint.cells[..hint.n_cells as usize],
            digits: hint.digits,
            placements: placement.as_slice(),
            eliminations: &self.eliminations[..n],
            chain,
        };
        on_step(&step);
    }
}

/// Whether a step of `technique` comes from a chain producer and rests on chains.
fn is_chain(technique: Technique) -> bool {
    use Technique::*;
    matches!(
        technique,
        BidirectionalXCycle
            | GeneralizedXWing
            | BidirectionalYCycle
            | BidirectionalCycle
            | ForcingXChain
            | TurbotFish
            | ForcingChain
            | NishioForcingChains
            | CellForcingChains
            | RegionForcingChains
            | DynamicContradictionForcingChains
            | DynamicDoubleForcingChains
            | DynamicCellForcingChains
            | DynamicRegionForcingChains
            | DynamicContradictionForcingChainsPlus
            | DynamicDoubleForcingChainsPlus
            | DynamicCellForcingChainsPlus
            | DynamicRegionForcingChainsPlus
            | DynamicContradictionForcingChainsNested
            | DynamicDoubleForcingChainsNested
            | DynamicCellForcingChainsNested
            | DynamicRegionForcingChainsNested
            | DynamicContradictionForcingChainsNestedMultiple
            | DynamicDoubleForcingChainsNestedMultiple
            | DynamicCellForcingChainsNestedMultiple
            | DynamicRegionForcingChainsNestedMultiple
            | DynamicContradictionForcingChainsNestedDynamic
            | DynamicDoubleForcingChainsNestedDynamic
            | DynamicCellForcingChainsNestedDynamic
            | DynamicRegionForcingChainsNestedDynamic
            | DynamicContradictionForcingChainsNestedDynamicNested
            | DynamicDoubleForcingChainsNestedDynamicNested
            | DynamicCellForcingChainsNestedDynamicNested
            | DynamicRegionForcingChainsNestedDynamicNested
    )
}

impl Default for Rater {
    fn default() -> Rater {
        Rater::new(RateOptions::default())
    }
}

/// The chain part of a ladder: SE's, or Sukaku's (peers by index in aligned triplet
/// exclusion; TUVWXYZ-Wing after the static chains in its default set).
fn chain_variant(ladder: Ladder) -> chains::Variant {
    match ladder {
        Ladder::Se => chains::Variant::default(),
        Ladder::Sukaku => chains::Variant {
            peers_by_index: true,
            after_static: None,
        },
        Ladder::SukakuDefault => chains::Variant {
            peers_by_index: true,
            after_static: Some(|b, hint| als_wings::als_wing(b, hint, 6)),
        },
    }
}

/// Runs the finders in order; the first hint found is in `hint`. `quiet`: the last grids on
/// which X-Wing, Swordfish, Jellyfish and aligned pair exclusion found nothing.
fn find(ladder: &[Finder], b: &mut Board, hint: &mut Hint, quiet: &mut [Quiet; 4]) -> bool {
    ladder.iter().any(|&finder| match finder {
        Finder::DirectHiddenPair => singles::direct_hidden_set(b, hint, 2),
        Finder::DirectHiddenTriplet => singles::direct_hidden_set(b, hint, 3),
        Finder::HiddenSingle => singles::hidden_single(b, hint),
        Finder::DirectLocking => singles::locking(b, hint, true),
        Finder::NakedSingle => singles::naked_single(b, hint),
        Finder::Locking => singles::locking(b, hint, false),
        Finder::NakedSet(k) => subsets::naked_set(b, hint, k as usize),
        Finder::HiddenSet(k) => subsets::hidden_set(b, hint, k as usize),
        Finder::Fish(k) => quiet[k as usize - 2]
            .by_digits(b, hint, |h, digits| subsets::fish(b, h, k as usize, digits)),
        Finder::XYWing => wings::xy_wing(b, hint, false),
        Finder::XYZWing => wings::xy_wing(b, hint, true),
        Finder::UniqueLoop => uniqueness::unique_loops(b, hint, false),
        Finder::UniqueLoopLk => uniqueness::unique_loops(b, hint, true),
        Finder::Bug => bug::bug(b, hint, false),
        Finder::AlignedPairExclusion => {
            quiet[3].by_cells(b, hint, |h, changed| exclusion::aligned_pair(b, h, changed))
        }
        Finder::DirectLockingByDigit => singles::locking_by_digit(b, hint, true),
        Finder::LockingByDigit => singles::locking_by_digit(b, hint, false),
        Finder::StrongLinks(k) => strong::strong_links(b, hint, k as usize),
        Finder::BugLk => bug::bug(b, hint, true),
        Finder::AlsWing(n) => als_wings::als_wing(b, hint, n as usize),
    })
}

/// Applies a hint as SE does: eliminations first, then the placement.
fn apply(b: &mut Board, hint: &Hint) {
    for c in board::cells_of(hint.elim_cells) {
        b.remove_mask(c, hint.elim[c]);
    }
    if let Some((cell, d)) = hint.place {
        b.place(cell as usize, d as usize);
    }
}

/// Rates one puzzle with default options (SE's ladder, no cap).
pub fn rate(puzzle: &Grid, solution: &Grid) -> Rating {
    Rater::default().rate(puzzle, solution)
}

#[cfg(test)]
mod tests;
