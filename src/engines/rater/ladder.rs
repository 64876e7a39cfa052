//! The ladders: which finders run, in which order, each with the least difficulty it can
//! give. The step loop ([`Rater`](super::Rater)) runs a ladder from the top at every step
//! and takes the first hint found. The techniques of each ladder, in order, are drawn on
//! [`Ladder`].
//!
//! # Stopping at `max_rating`
//!
//! Every rung carries the least difficulty of its finder and of every finder after it (its
//! *floor*). When `max_rating` is below a rung's floor, any hint from there on would be
//! harder than the cap, so the path stops there, capped, without searching: the same
//! outcome as searching, at no cost. (Not every ladder is in difficulty order: Sukaku's
//! UVWXYZ-Wing, 6.6, runs before the chains' 6.5, so the floor is a minimum over the rest.)

use std::fmt;
use std::str::FromStr;

use super::board::{Board, CELLS};
use super::chains::Chains;
use super::hint::Hint;
use super::quiet::Quiet;
use super::{als_wings, bug, exclusion, singles, strong, subsets, uniqueness, wings, Difficulty};

/// Which technique ladder: Sudoku Explainer 1.2.1.3 (the default) or Sukaku Explainer's
/// default set (the Sudoku Exchange bank's ratings).
///
/// # SE 1.2.1.3 (`Solver.java`), in the order the finders run
///
/// Each finder visits houses, digits and cells in SE's own order (see each function), since
/// the first hint found is applied and a different one can lead to a different path.
///
/// | order | technique | rating | definition |
/// |---|---|---|---|
/// | 1 | Hidden Single | 1.0 / 1.2 / 1.5 | last empty cell of a house / a digit with one place in a block / in a column or row |
/// | 2 | Direct Pointing, Direct Claiming | 1.7 / 1.9 | a digit of a block locked in a line (of a line locked in a block) leaves a hidden single in another house crossing the second; only the single is placed |
/// | 3 | Direct Hidden Pair | 2.0 | two digits confined to two cells of a house leave another digit one place there; only that single is placed |
/// | 4 | Naked Single | 2.3 | a cell with one candidate |
/// | 5 | Direct Hidden Triplet | 2.5 | as 3, with three digits |
/// | 6 | Pointing, Claiming | 2.6 / 2.8 | a digit of a block confined to a line leaves the rest of the line (of a line confined to a block, the rest of the block) |
/// | 7 | Naked Pair | 3.0 | two cells of a house holding two digits between them: the rest of the house loses them |
/// | 8 | X-Wing | 3.2 | a digit's places in two base lines (columns first, then rows) lie in two cross lines: the cross lines lose it elsewhere |
/// | 9 | Hidden Pair | 3.4 | two digits confined to two cells of a house: those cells lose their other digits |
/// | 10 | Naked Triplet | 3.6 | as 7, three cells |
/// | 11 | Swordfish | 3.8 | as 8, three lines |
/// | 12 | Hidden Triplet | 4.0 | as 9, three digits |
/// | 13 | XY-Wing | 4.2 | pivot `xy` seeing wings `xz` and `yz` (all bivalue): cells seeing both wings lose `z` |
/// | 14 | XYZ-Wing | 4.4 | pivot `xyz`, wings `xz` and `yz`: cells seeing all three lose `z` |
/// | 15 | Unique Rectangle / Loop types 1-4 | 4.5 / 4.6 / 4.7 / 5.0 (+0.1-0.5 for type 3) | cells that would make two solutions (`uniqueness` has the types); all found, the lowest (rating, type) first |
/// | 16 | Naked Quad | 5.0 | as 7, four cells |
/// | 17 | Jellyfish | 5.2 | as 8, four lines |
/// | 18 | Hidden Quad | 5.4 | as 9, four digits |
/// | 19 | BUG types 1-4 | 5.6 / 5.7 / 5.7+ | a few candidates off a bivalue universal grave: one of them is true |
/// | 20 | Aligned Pair Exclusion | 6.2 | two cells whose value pairs would empty a common bivalue peer |
/// | 21 | Bidirectional X-/Y-Cycle, Generalized X-Wing, Bidirectional Cycle; Forcing X-Chain, Turbot Fish, Forcing Chain | 6.5 / 7.0; 6.6 / 7.0; + length bonus | SE's "Forcing Chains & Cycles": loops and chains of implications on one digit's strong links (X), bivalue cells (Y) or both; all collected, the least (difficulty, length, kind) first (`chains`) |
/// | 22 | Aligned Triplet Exclusion | 7.5 | three cells whose value triples would empty a common peer |
/// | 23 | Nishio Forcing Chains | 7.5 + length bonus | an assumption on one digit (a candidate on, or off) whose dynamic consequences on that digit alone clash (`chains`) |
/// | 24 | Cell / Region Forcing Chains | 8.0 + length bonus | every candidate of a cell (of three or more), or every place of a digit in a house, assumed true, implies the same conclusion (`chains`) |
/// | 25 | Dynamic Contradiction / Double / Cell / Region Forcing Chains | 8.5 + length bonus | as 23 and 24 on every digit, with both rules, each removal read by the links after it (`chains`) |
/// | 26 | the same, (+) | 9.0 + length bonus | as 25, and when the links run dry, the removals of intersections, hidden and naked pairs and X-Wings on the reduced grid (`chains`) |
/// | 27 | the same, (+ Forcing Chains) | 9.5 + length bonus | as 26, and when those rules find nothing, the removals of the cycles and forcing chains of 21 on the reduced grid (nested forcing chains, level 2; `chains`) |
/// | 28 | the same, (+ Multiple Forcing Chains) | 10.0 + length bonus | as 27, and when the forcing chains find nothing either, the removals of the cell and region forcing chains of 24 on the reduced grid (nested forcing chains, level 3; `chains`) |
/// | 29 | the same, (+ Dynamic Forcing Chains) | 10.5 + length bonus | as 26, and when those rules find nothing, the removals of the dynamic forcing chains of 25 on the reduced grid (nested forcing chains, level 4; `chains`) |
/// | 30 | the same, (+ Dynamic Forcing Chains (+ Forcing Chains)) | 11.0 + length bonus | as 29, and when the dynamic forcing chains find nothing either, the removals of the nested forcing chains of 27 on the reduced grid (nested forcing chains, level 5; `chains`) |
///
/// Note the list order is not difficulty order (a 10-cell loop, 5.0, comes before a naked
/// quad; XYZ-Wing, 4.4, before a rectangle): SE's order decides, as here.
///
/// When SE's last chain producer finds nothing either (SE then rates the puzzle 20.0), the
/// path stops there: its rating is the path so far and [`Rating::capped`](super::Rating::capped) is set, never a
/// wrong number.
///
/// # The Sukaku ladders ([`Ladder::Sukaku`], [`Ladder::SukakuDefault`])
///
/// Sukaku Explainer's default set (its `Solver.java`, default settings: not the "revised
/// rating") keeps SE's ratings and definitions for the techniques they share, but not all
/// of SE's order: its intersections visit digits before houses, and its unique loops and
/// BUG carry lkSudoku's fixes (see `uniqueness`, `bug`). It runs:
///
/// | order | technique | rating | definition |
/// |---|---|---|---|
/// | 1-12 | as SE's 1-12 above | | intersections digit first |
/// | 13 | 2 strong links: Skyscraper, 2-String Kite, turbot fish ("2 Strong links"), grouped, loops | 4.0-4.3 | `strong` |
/// | 14-15 | XY-Wing, XYZ-Wing | 4.2, 4.4 | as SE |
/// | 16 | Unique Rectangle / Loop types 1-4 | 4.5-5.0+ | lkSudoku's walk and type 3 |
/// | 17-19 | Naked Quad, Jellyfish, Hidden Quad | 5.0, 5.2, 5.4 | as SE |
/// | 20 | 3 strong links (3 Skyscrapers, 3-String Kite, ...) | 5.4-5.7 | `strong` |
/// | 21 | WXYZ-Wing | 5.5-5.6 | three cells with four digits and a bivalue cell (`als_wings`) |
/// | 22 | BUG types 1-4 | 5.6-6.1 | lkSudoku's BUG cells and type 3 |
/// | 23 | 4 strong links | 5.8-6.1 | `strong` |
/// | 24 | VWXYZ-Wing | 6.2-6.4 | four cells with five digits and a bivalue cell |
/// | 25 | Aligned Pair Exclusion | 6.2 | as SE |
/// | 26 | UVWXYZ-Wing | 6.6 | five cells with six digits and a bivalue cell: **only in `SukakuDefault`** |
/// | 27 | Forcing Chains & Cycles | 6.5-7.x | as SE's 21 |
/// | 28 | TUVWXYZ-Wing | 7.5 | six cells with seven digits and a bivalue cell: **only in `SukakuDefault`** |
/// | 29 | Aligned Triplet Exclusion | 7.5 | as SE's 22, a cell's peers in index order |
/// | 30-32 | Nishio, Multiple, Dynamic Forcing Chains | 7.5, 8.0, 8.5 + length | as SE's 23-25 |
///
/// (5- and 6-strong-link fish and generalized naked sets are off in Sukaku's default set.)
/// Sukaku's chain producers are SE's, with SE's difficulties, length bonus, search order
/// and sorting of hints (`chains`). [`Ladder::Sukaku`] is the set the
/// Sudoku Exchange bank's ratings reflect: Sukaku's default set without UVWXYZ- and
/// TUVWXYZ-Wing (Sukaku
/// so configured agrees with the bank on 99.3% of a 744-puzzle diabolical sample, the full
/// default set on 96.4%: with UVWXYZ-Wing on, its 6.6 replaces the bank's 6.7-7.7 chains).
/// [`Ladder::SukakuDefault`] is the default set as Sukaku's current release runs it. Both
/// go on, as SE's ladder does, up to nested forcing chains of level 5.
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

/// A finder: one technique (or a family of them) searched at one place of a ladder.
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
    /// Sukaku's WXYZ- (3), VWXYZ- (4), UVWXYZ- (5), TUVWXYZ-Wing (6): sets of this many
    /// cells.
    AlsWing(u8),
    /// Sukaku's intersections: digit first.
    DirectLockingByDigit,
    LockingByDigit,
    /// SE's "Forcing Chains & Cycles": X-, Y- and XY-cycles and forcing chains.
    ForcingChains,
    /// Aligned triplet exclusion, a cell's peers in SE's order, or (Sukaku) by index.
    AlignedTripletExclusion {
        peers_by_index: bool,
    },
    Nishio,
    /// Cell and region forcing chains.
    MultipleChains,
    DynamicChains,
    /// Dynamic forcing chains (+) (level 1) and nested forcing chains (levels 2-5).
    DynamicPlus(u8),
}

impl Finder {
    /// The least difficulty of the hints it gives, in tenths.
    const fn least(self) -> u8 {
        match self {
            Finder::HiddenSingle => 10,
            Finder::DirectLocking | Finder::DirectLockingByDigit => 17,
            Finder::DirectHiddenPair => 20,
            Finder::NakedSingle => 23,
            Finder::DirectHiddenTriplet => 25,
            Finder::Locking | Finder::LockingByDigit => 26,
            Finder::NakedSet(k) => [30, 36, 50][k as usize - 2],
            Finder::Fish(k) => [32, 38, 52][k as usize - 2],
            Finder::HiddenSet(k) => [34, 40, 54][k as usize - 2],
            Finder::XYWing => 42,
            Finder::XYZWing => 44,
            Finder::UniqueLoop | Finder::UniqueLoopLk => 45,
            Finder::Bug | Finder::BugLk => 56,
            Finder::AlignedPairExclusion => 62,
            Finder::StrongLinks(k) => [40, 54, 58][k as usize - 2],
            Finder::AlsWing(n) => [55, 62, 66, 75][n as usize - 3],
            Finder::ForcingChains => 65,
            Finder::AlignedTripletExclusion { .. } | Finder::Nishio => 75,
            Finder::MultipleChains => 80,
            Finder::DynamicChains => 85,
            Finder::DynamicPlus(level) => 85 + 5 * level,
        }
    }
}

/// A finder at its place in a ladder.
#[derive(Clone, Copy, Debug)]
pub(super) struct Rung {
    finder: Finder,
    /// The least difficulty of this finder and every one after it (tenths).
    floor: u8,
}

/// A ladder from its parts, in order, with each rung's floor.
const fn rungs<const N: usize>(parts: &[&[Finder]]) -> [Rung; N] {
    let mut out = [Rung {
        finder: Finder::HiddenSingle,
        floor: 0,
    }; N];
    let (mut n, mut i) = (0, 0);
    while i < parts.len() {
        let mut j = 0;
        while j < parts[i].len() {
            out[n].finder = parts[i][j];
            n += 1;
            j += 1;
        }
        i += 1;
    }
    assert!(n == N, "a ladder's length");
    let mut floor = u8::MAX;
    while n > 0 {
        n -= 1;
        let least = out[n].finder.least();
        if least < floor {
            floor = least;
        }
        out[n].floor = floor;
    }
    out
}

/// SE 1.2.1.3's producers in `Solver`'s order, up to aligned pair exclusion.
const SE_BASIC: &[Finder] = &[
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

/// Sukaku Explainer's default set (`Solver.java`, its default order) up to aligned pair
/// exclusion.
const SUKAKU_BASIC: &[Finder] = &[
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
];

/// The chain producers after aligned triplet exclusion, in SE's order (Sukaku's is the same).
const DYNAMIC_CHAINS: &[Finder] = &[
    Finder::Nishio,
    Finder::MultipleChains,
    Finder::DynamicChains,
    Finder::DynamicPlus(1),
    Finder::DynamicPlus(2),
    Finder::DynamicPlus(3),
    Finder::DynamicPlus(4),
    Finder::DynamicPlus(5),
];

static SE: [Rung; 30] = rungs(&[
    SE_BASIC,
    &[
        Finder::ForcingChains,
        Finder::AlignedTripletExclusion {
            peers_by_index: false,
        },
    ],
    DYNAMIC_CHAINS,
]);

/// The Exchange bank's Sukaku: without UVWXYZ- and TUVWXYZ-Wing.
static SUKAKU: [Rung; 35] = rungs(&[
    SUKAKU_BASIC,
    &[
        Finder::ForcingChains,
        Finder::AlignedTripletExclusion {
            peers_by_index: true,
        },
    ],
    DYNAMIC_CHAINS,
]);

/// Sukaku's default set as its release runs it: UVWXYZ-Wing last below the chains,
/// TUVWXYZ-Wing between the static chains and aligned triplet exclusion.
static SUKAKU_DEFAULT: [Rung; 37] = rungs(&[
    SUKAKU_BASIC,
    &[
        Finder::AlsWing(5),
        Finder::ForcingChains,
        Finder::AlsWing(6),
        Finder::AlignedTripletExclusion {
            peers_by_index: true,
        },
    ],
    DYNAMIC_CHAINS,
]);

impl Ladder {
    /// The ladder's rungs, in the order they run.
    pub(super) fn rungs(self) -> &'static [Rung] {
        match self {
            Ladder::Se => &SE,
            Ladder::Sukaku => &SUKAKU,
            Ladder::SukakuDefault => &SUKAKU_DEFAULT,
        }
    }
}

/// What the finders keep from step to step: the last grids on which the local techniques
/// found nothing, and the chain producers' scratch.
pub(super) struct Finders {
    /// X-Wing, Swordfish, Jellyfish, aligned pair and aligned triplet exclusion.
    quiet: [Quiet; 5],
    pub(super) chains: Box<Chains>,
}

impl Finders {
    pub(super) fn new() -> Finders {
        Finders {
            quiet: [const { Quiet::new() }; 5],
            chains: Chains::new(),
        }
    }

    /// Runs `ladder`'s finders in order; the first hint found is in `hint`. `false` when none
    /// finds anything, or when every one left is harder than `max`.
    pub(super) fn find(
        &mut self,
        ladder: &[Rung],
        max: Option<Difficulty>,
        b: &mut Board,
        hint: &mut Hint,
        solution: &[u8; CELLS],
    ) -> bool {
        for rung in ladder {
            if max.is_some_and(|m| m.0 < rung.floor) {
                return false;
            }
            if self.run(rung.finder, b, hint, solution) {
                debug_assert!(
                    hint.difficulty.0 >= rung.finder.least(),
                    "{:?} {}",
                    hint.technique,
                    hint.difficulty
                );
                return true;
            }
        }
        false
    }

    fn run(
        &mut self,
        finder: Finder,
        b: &mut Board,
        hint: &mut Hint,
        solution: &[u8; CELLS],
    ) -> bool {
        let quiet = &mut self.quiet;
        match finder {
            Finder::HiddenSingle => singles::hidden_single(b, hint),
            Finder::DirectLocking => singles::locking(b, hint, true),
            Finder::DirectHiddenPair => singles::direct_hidden_set(b, hint, 2),
            Finder::NakedSingle => singles::naked_single(b, hint),
            Finder::DirectHiddenTriplet => singles::direct_hidden_set(b, hint, 3),
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
            Finder::BugLk => bug::bug(b, hint, true),
            Finder::AlignedPairExclusion => {
                quiet[3].by_cells(b, hint, |h, changed| exclusion::aligned_pair(b, h, changed))
            }
            Finder::DirectLockingByDigit => singles::locking_by_digit(b, hint, true),
            Finder::LockingByDigit => singles::locking_by_digit(b, hint, false),
            Finder::StrongLinks(k) => strong::strong_links(b, hint, k as usize),
            Finder::AlsWing(n) => als_wings::als_wing(b, hint, n as usize),
            Finder::ForcingChains => self.chains.forcing(b, hint, solution),
            Finder::AlignedTripletExclusion { peers_by_index } => {
                quiet[4].by_cells(b, hint, |h, changed| {
                    exclusion::aligned_triplet(b, h, peers_by_index, solution, changed)
                })
            }
            Finder::Nishio => self.chains.nishio(b, hint, solution),
            Finder::MultipleChains => self.chains.multiple(b, hint),
            Finder::DynamicChains => self.chains.dynamic(b, hint),
            Finder::DynamicPlus(level) => self.chains.plus(b, hint, level),
        }
    }
}
