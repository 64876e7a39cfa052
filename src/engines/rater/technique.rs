//! The techniques of every ladder, in ladder order, each with the name SE prints and its
//! family.

use std::fmt;

/// What kind of reasoning a technique is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Family {
    /// Hidden and naked singles.
    Single,
    /// Pointing and claiming, direct or not.
    Intersection,
    /// Naked and hidden pairs, triplets and quads, direct or not.
    Subset,
    /// X-Wing, Swordfish, Jellyfish.
    Fish,
    /// XY-Wing and XYZ-Wing.
    Wing,
    /// Sukaku's strong-link fish: skyscrapers, kites, turbot fish and their loops.
    StrongLinks,
    /// Sukaku's wings of almost locked sets: WXYZ- to TUVWXYZ-Wing.
    AlsWing,
    /// Unique rectangles and loops.
    Uniqueness,
    /// Bivalue universal graves.
    Bug,
    /// Aligned pair and triplet exclusion.
    Exclusion,
    /// Cycles and forcing chains of every kind, nested ones included: the steps that rest
    /// on chains.
    Chain,
}

macro_rules! techniques {
    ($($(#[$doc:meta])* $variant:ident => $name:literal, $family:ident;)*) => {
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

            /// The family the technique belongs to.
            pub fn family(self) -> Family {
                match self {
                    $(Technique::$variant => Family::$family,)*
                }
            }
        }
    };
}

techniques! {
    /// The last empty cell of a house, or a digit with one place in a house.
    HiddenSingle => "Hidden Single", Single;
    /// A block's digit locked in a line leaves a hidden single elsewhere (placed).
    DirectPointing => "Direct Pointing", Intersection;
    /// A line's digit locked in a block leaves a hidden single elsewhere (placed).
    DirectClaiming => "Direct Claiming", Intersection;
    /// A hidden pair leaves a hidden single in its house (placed).
    DirectHiddenPair => "Direct Hidden Pair", Subset;
    /// A cell with one candidate.
    NakedSingle => "Naked Single", Single;
    /// A hidden triplet leaves a hidden single in its house (placed).
    DirectHiddenTriplet => "Direct Hidden Triplet", Subset;
    /// A block's digit confined to one line: the rest of the line loses it.
    Pointing => "Pointing", Intersection;
    /// A line's digit confined to one block: the rest of the block loses it.
    Claiming => "Claiming", Intersection;
    /// Two cells of a house with the same two candidates.
    NakedPair => "Naked Pair", Subset;
    /// A digit in two rows (columns) confined to two columns (rows).
    XWing => "X-Wing", Fish;
    /// Two digits confined to two cells of a house.
    HiddenPair => "Hidden Pair", Subset;
    /// Three cells of a house with three candidates between them.
    NakedTriplet => "Naked Triplet", Subset;
    /// A digit in three rows (columns) confined to three columns (rows).
    Swordfish => "Swordfish", Fish;
    /// Three digits confined to three cells of a house.
    HiddenTriplet => "Hidden Triplet", Subset;
    /// A digit's strong links in two parallel lines joined by a weak link (Sukaku).
    Skyscraper => "Skyscraper", StrongLinks;
    /// Strong links in a row and a column joined in a block (Sukaku).
    TwoStringKite => "2-String Kite", StrongLinks;
    /// Two strong links, one in a block: the turbot fish family (Sukaku).
    TwoStrongLinks => "2 Strong links", StrongLinks;
    /// Two strong links closing into a loop (Sukaku).
    TwoStrongLinksLoop => "(2 Strong Links) X-Loop", StrongLinks;
    /// A skyscraper with a grouped link (Sukaku).
    GroupedSkyscraper => "Grouped Skyscraper", StrongLinks;
    /// A 2-string kite with a grouped link (Sukaku).
    GroupedTwoStringKite => "Grouped 2-String Kite", StrongLinks;
    /// Two strong links, one grouped (Sukaku): empty rectangles and grouped turbot fish.
    GroupedTwoStrongLinks => "Grouped 2 Strong links", StrongLinks;
    /// Two strong links, one grouped, closing into a loop (Sukaku).
    TwoStrongLinksGroupedLoop => "(2 Strong Links) Grouped X-Loop", StrongLinks;
    /// A bivalue pivot and two bivalue wings.
    XYWing => "XY-Wing", Wing;
    /// A trivalue pivot and two bivalue wings.
    XYZWing => "XYZ-Wing", Wing;
    /// A unique rectangle with one extra cell.
    UniqueRectangle1 => "Unique Rectangle type 1", Uniqueness;
    /// A unique rectangle whose extra cells share one extra digit.
    UniqueRectangle2 => "Unique Rectangle type 2", Uniqueness;
    /// A unique rectangle whose extra digits form a subset with other cells.
    UniqueRectangle3 => "Unique Rectangle type 3", Uniqueness;
    /// A unique rectangle whose extra cells hold a locked digit of the pair.
    UniqueRectangle4 => "Unique Rectangle type 4", Uniqueness;
    /// A unique loop (6 cells or more) with one extra cell.
    UniqueLoop1 => "Unique Loop type 1", Uniqueness;
    /// A unique loop whose extra cells share one extra digit.
    UniqueLoop2 => "Unique Loop type 2", Uniqueness;
    /// A unique loop whose extra digits form a subset with other cells.
    UniqueLoop3 => "Unique Loop type 3", Uniqueness;
    /// A unique loop whose extra cells hold a locked digit of the pair.
    UniqueLoop4 => "Unique Loop type 4", Uniqueness;
    /// Four cells of a house with four candidates between them.
    NakedQuad => "Naked Quad", Subset;
    /// A digit in four rows (columns) confined to four columns (rows).
    Jellyfish => "Jellyfish", Fish;
    /// Four digits confined to four cells of a house.
    HiddenQuad => "Hidden Quad", Subset;
    /// Three strong links in parallel lines (Sukaku).
    ThreeSkyscrapers => "3 Skyscrapers", StrongLinks;
    /// Three strong links in rows and columns (Sukaku).
    ThreeStringKite => "3-String Kite", StrongLinks;
    /// Three strong links, one at least in a block (Sukaku).
    ThreeStrongLinks => "3 Strong links", StrongLinks;
    /// Three strong links closing into a loop (Sukaku).
    ThreeStrongLinksLoop => "(3 Strong Links) X-Loop", StrongLinks;
    /// Three skyscraper links, one grouped (Sukaku).
    GroupedThreeSkyscrapers => "Grouped 3 Skyscrapers", StrongLinks;
    /// A 3-string kite with a grouped link (Sukaku).
    GroupedThreeStringKite => "Grouped 3-String Kite", StrongLinks;
    /// Three strong links, one grouped (Sukaku).
    GroupedThreeStrongLinks => "Grouped 3 Strong links", StrongLinks;
    /// Three strong links, one grouped, closing into a loop (Sukaku).
    ThreeStrongLinksGroupedLoop => "(3 Strong Links) Grouped X-Loop", StrongLinks;
    /// Three cells holding four digits and a bivalue cell sharing a restricted digit
    /// with them (Sukaku).
    WXYZWing => "WXYZ-Wing", AlsWing;
    /// One cell off a bivalue universal grave.
    Bug1 => "BUG type 1", Bug;
    /// BUG cells sharing one extra digit.
    Bug2 => "BUG type 2", Bug;
    /// BUG cells whose extra digits form a naked set in a house.
    Bug3 => "BUG type 3", Bug;
    /// Two BUG cells in a house sharing a locked digit.
    Bug4 => "BUG type 4", Bug;
    /// Four strong links in parallel lines (Sukaku).
    FourSkyscrapers => "4 Skyscrapers", StrongLinks;
    /// Four strong links of mixed kinds (Sukaku).
    FourStrongLinks => "4 Strong links", StrongLinks;
    /// Four strong links closing into a loop (Sukaku).
    FourStrongLinksLoop => "(4 Strong Links) X-Loop", StrongLinks;
    /// Four skyscraper links, one grouped (Sukaku).
    GroupedFourSkyscrapers => "Grouped 4 Skyscrapers", StrongLinks;
    /// Four strong links, one grouped (Sukaku).
    GroupedFourStrongLinks => "Grouped 4 Strong links", StrongLinks;
    /// Four strong links, one grouped, closing into a loop (Sukaku).
    FourStrongLinksGroupedLoop => "(4 Strong Links) Grouped X-Loop", StrongLinks;
    /// Four cells holding five digits and a bivalue cell sharing a restricted digit with
    /// them (Sukaku).
    VWXYZWing => "VWXYZ-Wing", AlsWing;
    /// Two cells whose candidate pairs are cut down by bivalue cells seeing both.
    AlignedPairExclusion => "Aligned Pair Exclusion", Exclusion;
    /// Five cells holding six digits and a bivalue cell sharing a restricted digit with
    /// them (Sukaku's default set; not in the Exchange bank's ratings).
    UVWXYZWing => "UVWXYZ-Wing", AlsWing;
    /// Six cells holding seven digits and a bivalue cell sharing a restricted digit with
    /// them (Sukaku's default set, after its first chains; not in the Exchange bank's
    /// ratings).
    TUVWXYZWing => "TUVWXYZ-Wing", AlsWing;
    /// A loop of one digit's strong and weak links.
    BidirectionalXCycle => "Bidirectional X-Cycle", Chain;
    /// An X-cycle through four cells.
    GeneralizedXWing => "Generalized X-Wing", Chain;
    /// A loop through bivalue cells.
    BidirectionalYCycle => "Bidirectional Y-Cycle", Chain;
    /// A loop of links of both kinds.
    BidirectionalCycle => "Bidirectional Cycle", Chain;
    /// A chain of one digit from a candidate to its own negation.
    ForcingXChain => "Forcing X-Chain", Chain;
    /// A forcing X-chain of six potentials.
    TurbotFish => "Turbot Fish", Chain;
    /// A chain of links of both kinds from a candidate to its own negation.
    ForcingChain => "Forcing Chain", Chain;
    /// Three cells whose value combinations are cut down by cells seeing all three.
    AlignedTripletExclusion => "Aligned Triplet Exclusion", Exclusion;
    /// An assumption on one digit whose consequences, on that digit's places alone, clash.
    NishioForcingChains => "Nishio Forcing Chains", Chain;
    /// Every candidate of a cell, assumed true, implies the same conclusion.
    CellForcingChains => "Cell Forcing Chains", Chain;
    /// Every place of a digit in a house, assumed true, implies the same conclusion.
    RegionForcingChains => "Region Forcing Chains", Chain;
    /// An assumption whose dynamic consequences clash.
    DynamicContradictionForcingChains => "Dynamic Contradiction Forcing Chains", Chain;
    /// A candidate implied both by an assumption and by its negation (dynamic).
    DynamicDoubleForcingChains => "Dynamic Double Forcing Chains", Chain;
    /// Every candidate of a cell, assumed true, implies the same conclusion (dynamic).
    DynamicCellForcingChains => "Dynamic Cell Forcing Chains", Chain;
    /// Every place of a digit in a house, assumed true, implies the same conclusion
    /// (dynamic).
    DynamicRegionForcingChains => "Dynamic Region Forcing Chains", Chain;
    /// A dynamic contradiction whose propagation also applies intersections, hidden and
    /// naked pairs and X-Wings to the reduced grid.
    DynamicContradictionForcingChainsPlus => "Dynamic Contradiction Forcing Chains (+)", Chain;
    /// A dynamic double forcing chain whose propagations also apply the basic rules.
    DynamicDoubleForcingChainsPlus => "Dynamic Double Forcing Chains (+)", Chain;
    /// A dynamic cell forcing chain whose propagations also apply the basic rules.
    DynamicCellForcingChainsPlus => "Dynamic Cell Forcing Chains (+)", Chain;
    /// A dynamic region forcing chain whose propagations also apply the basic rules.
    DynamicRegionForcingChainsPlus => "Dynamic Region Forcing Chains (+)", Chain;
    /// A dynamic contradiction whose propagation, when the basic rules find nothing, also
    /// applies the cycles and forcing chains of one or both link kinds to the reduced grid
    /// (nested forcing chains, level 2).
    DynamicContradictionForcingChainsNested => "Dynamic Contradiction Forcing Chains (+ Forcing Chains)", Chain;
    /// A dynamic double forcing chain whose propagations nest forcing chains (level 2).
    DynamicDoubleForcingChainsNested => "Dynamic Double Forcing Chains (+ Forcing Chains)", Chain;
    /// A dynamic cell forcing chain whose propagations nest forcing chains (level 2).
    DynamicCellForcingChainsNested => "Dynamic Cell Forcing Chains (+ Forcing Chains)", Chain;
    /// A dynamic region forcing chain whose propagations nest forcing chains (level 2).
    DynamicRegionForcingChainsNested => "Dynamic Region Forcing Chains (+ Forcing Chains)", Chain;
    /// A dynamic contradiction whose propagation, when the basic rules and the forcing
    /// chains find nothing, also applies cell and region forcing chains to the reduced grid
    /// (nested forcing chains, level 3).
    DynamicContradictionForcingChainsNestedMultiple => "Dynamic Contradiction Forcing Chains (+ Multiple Forcing Chains)", Chain;
    /// A dynamic double forcing chain whose propagations nest multiple forcing chains
    /// (level 3).
    DynamicDoubleForcingChainsNestedMultiple => "Dynamic Double Forcing Chains (+ Multiple Forcing Chains)", Chain;
    /// A dynamic cell forcing chain whose propagations nest multiple forcing chains (level
    /// 3).
    DynamicCellForcingChainsNestedMultiple => "Dynamic Cell Forcing Chains (+ Multiple Forcing Chains)", Chain;
    /// A dynamic region forcing chain whose propagations nest multiple forcing chains
    /// (level 3).
    DynamicRegionForcingChainsNestedMultiple => "Dynamic Region Forcing Chains (+ Multiple Forcing Chains)", Chain;
    /// A dynamic contradiction whose propagation, when the basic rules find nothing, also
    /// applies dynamic forcing chains to the reduced grid (nested forcing chains, level 4).
    DynamicContradictionForcingChainsNestedDynamic => "Dynamic Contradiction Forcing Chains (+ Dynamic Forcing Chains)", Chain;
    /// A dynamic double forcing chain whose propagations nest dynamic forcing chains (level
    /// 4).
    DynamicDoubleForcingChainsNestedDynamic => "Dynamic Double Forcing Chains (+ Dynamic Forcing Chains)", Chain;
    /// A dynamic cell forcing chain whose propagations nest dynamic forcing chains (level
    /// 4).
    DynamicCellForcingChainsNestedDynamic => "Dynamic Cell Forcing Chains (+ Dynamic Forcing Chains)", Chain;
    /// A dynamic region forcing chain whose propagations nest dynamic forcing chains (level
    /// 4).
    DynamicRegionForcingChainsNestedDynamic => "Dynamic Region Forcing Chains (+ Dynamic Forcing Chains)", Chain;
    /// A dynamic contradiction whose propagation, when the basic rules and the dynamic
    /// forcing chains find nothing, also applies nested forcing chains of level 2 to the
    /// reduced grid (nested forcing chains, level 5).
    DynamicContradictionForcingChainsNestedDynamicNested => "Dynamic Contradiction Forcing Chains (+ Dynamic Forcing Chains (+ Forcing Chains))", Chain;
    /// A dynamic double forcing chain whose propagations nest nested forcing chains of
    /// level 2 (level 5).
    DynamicDoubleForcingChainsNestedDynamicNested => "Dynamic Double Forcing Chains (+ Dynamic Forcing Chains (+ Forcing Chains))", Chain;
    /// A dynamic cell forcing chain whose propagations nest nested forcing chains of level
    /// 2 (level 5).
    DynamicCellForcingChainsNestedDynamicNested => "Dynamic Cell Forcing Chains (+ Dynamic Forcing Chains (+ Forcing Chains))", Chain;
    /// A dynamic region forcing chain whose propagations nest nested forcing chains of
    /// level 2 (level 5).
    DynamicRegionForcingChainsNestedDynamicNested => "Dynamic Region Forcing Chains (+ Dynamic Forcing Chains (+ Forcing Chains))", Chain;
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Technique {
    /// Whether a step of this technique rests on chains.
    pub fn is_chain(self) -> bool {
        self.family() == Family::Chain
    }
}
