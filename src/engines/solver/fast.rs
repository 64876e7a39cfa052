//! The bitboard solver: digit planes split into band words, in the style of JCZSolve, with
//! three branching rules (JCZSolve's first bivalue cell, tdoku-style band configurations, and
//! a hybrid of the two).
//!
//! ```text
//!  grid rows          band word for one digit (u32, 27 live bits)
//!  0 ┐                 bit:  26 ........ 18 | 17 ........ 9 | 8 ......... 0
//!  1 ├ band 0                row 2 of band  | row 1 of band | row 0 of band
//!  2 ┘                       c8 c7 ... c0   | c8 c7 ... c0  | c8 c7 ... c0
//!  3 ┐
//!  4 ├ band 1         state.cand[digit * 3 + band]: cells of `band` where `digit` may go
//!  5 ┘                (a placed digit keeps its one bit; other digits lose that bit)
//!  6 ┐                state.unsolved[band]: cells of `band` not placed yet
//!  7 ├ band 2         state.prev[..]: each word as last band-updated (change detection)
//!  8 ┘
//!
//!  mini-row = 3 cells where a row crosses a box; a band has 9 (row r, box k: bits r*9+3k..+2)
//! ```
//!
//! Techniques, per step of [`State::propagate`] (cheapest first):
//! - **band update** (per changed word; JCZSolve's "shrink/complex" step): the digit's 9
//!   mini-rows must form a permutation matrix (once per row, once per box), so one table
//!   lookup gives box-line reduction both ways and hidden singles in boxes (`COMPLEX`); a row
//!   left with one cell is a hidden single in that row and is placed: its cell leaves the
//!   other 8 digits' words. A box confined to one column locks that column for the digit, and
//!   the other two bands lose it (`KEEP_OTHER`), which also does the column elimination of a
//!   placed digit. Changed words are found by comparing with `prev` (vectorised) and
//!   visited as set bits; a node's first round takes them from the branch that made it,
//!   which knows what it changed ([`State::update_hinted`]).
//! - **naked singles**, once the band updates reach a fixed point: bit-sliced counting over
//!   the 9 digit words of a band finds cells with one candidate (`once = seen & !seen_twice`)
//!   and cells with none (contradiction), for the three bands at once (one SSE2 lane each,
//!   `lanes.rs`). The same pass notes the first bivalue cell.
//! - **stack update**, when both of the above are exhausted, for the digits they changed: the
//!   column-direction twin of the band update (mini-columns of a stack form a permutation
//!   matrix too: hidden singles in columns, column-box reductions). PEXT/PDEP with BMI2.
//!   Not in `HYBRID`'s cell phase (see below) before its switch to band configurations.
//! - **mini-row counting**, in the band rules only, when propagation has stopped and the
//!   search is about to branch (fused with the band choice, [`State::band_step`]): each
//!   mini-row holds exactly 3 digits (tdoku's cardinality constraint on box-row
//!   intersections). Per band, bit-sliced counts over the 9 digits of the mini-rows each digit
//!   may use (in some configuration left, `MINI_ROWS`) and must use (in all of them). Fewer
//!   than 3 possible or more than 3 certain digits is a contradiction; 3 possible digits go
//!   in, 3 certain ones push the others out; then propagation runs again.
//! - **branching**, by one of three rules (the `RULE` parameter; `--algorithm
//!   jcz|bands|hybrid`, `fast` = `hybrid`):
//!   - `JCZ`: on the first bivalue cell, else on the first unsolved cell of each band with the
//!     fewest candidates (JCZSolve's rule). Candidates are tried in increasing digit order.
//!     "First" depends on the cell order, so the tree's size depends on the orientation.
//!   - `BANDS` (the idea of T. Dillon's tdoku, on our digit planes): a digit's 9 mini-rows in a
//!     band can be true in 6 *configurations* (a permutation of the 3 boxes over the 3 rows;
//!     `MINI_ROWS[occupancy]` lists those still possible). Take the band with the fewest
//!     configurations summed over its digits that have 2 or more (ties: fewer candidate
//!     cells), and there the digit with the fewest configurations
//!     (ties: fewer candidate cells, then the lower digit); each child keeps one
//!     configuration's 3 mini-rows (`CONFIG_CELLS`) and the band update does the rest. A count
//!     does not depend on cell order, so the choice is robust to orientation. When every
//!     digit's configuration is fixed, cells as in `JCZ`.
//!   - `HYBRID` (the default): `BANDS` from the root when the root's propagation left 50 or
//!     more cells open (the hard sets leave 54-61), under a small work budget (2,048 nodes;
//!     the public sets need at most 1,329 that way); if that runs out, or when fewer cells
//!     are open, `JCZ` until the search has met 4 dead ends (states that propagation or
//!     counting refuted), then `BANDS`. Puzzles with many solutions (serg_benchmark: 31-47
//!     open) mostly finish before the switch on the cheaper cell branching; hard ones get the
//!     smaller tree from the first branch. The budget is there because band configurations
//!     from the root cannot refute some sparse grids that cells refute at once: Norvig's
//!     "impossible" puzzle takes `BANDS` 65,536 nodes, cells 51, so the default takes
//!     2,048 + 51.
//!
//!   Without mini-row counting, the band rules could not be the default: the fuzzer found
//!   nearly empty grids on which they pick configurations that cannot fit together (4 digits
//!   in one mini-row), which nothing detected until the cells ran out; they searched dead
//!   subtrees until the work budget restarted them (~65,600 nodes instead of ~40-50).
//!   Counting refutes such a state at once (`nearly_empty_grids_are_cheap` in the tests).
//!
//!   Every alternative but the last runs on a copy of the state (228 bytes, on the call stack:
//!   depth ≤ 81), the last one continues in place.
//! - **restarts** (robustness, never reached by the public puzzle sets): past a work budget
//!   the search restarts in a careful mode with failed-literal probing at every node, and the
//!   two modes alternate with a growing budget (see [`solve`]). Found by fuzzing: a grid
//!   whose row had three digits left for two cells took 7.4 million guesses without it.
//!
//! # What was tried
//!
//! Each change below was measured against the commit before it, side by side, on the
//! public hard sets as given and as symmetry-shuffled copies, and on the easy ones (Kaggle,
//! 17-clue, serg_benchmark's many-solution puzzles). The dated figures, commits and CPUs are
//! in `docs/performance.md` ("The solver's changes, kept and lost").
//!
//! Kept, and why:
//! - The stack update run last, not after every band fixed point: 13-37% fewer guesses on
//!   the hard sets, and run eagerly it cost more than it saved. Placed cells are eliminated
//!   unconditionally (a branch there mispredicts).
//! - Band-configuration branching: branch points on 1905_11+ 145.7 → 79.6 (tdoku 65), on
//!   1106 282.8 → 132.5 (tdoku 113); it costs serg, hence the hybrid rule. A band's score
//!   counts its open digits only.
//! - Mini-row counting only when a band rule is about to branch, fused with the band choice:
//!   it refutes nearly empty grids at once (~65,600 → ~45 nodes) and cuts 1905_11+ to 67.4
//!   branch points; at every fixed point its cost exceeded what the smaller tree saved.
//! - The hybrid switch after 4 dead ends: serg within 1-3% of `jcz`, the hard sets 19-28%
//!   faster than `jcz`. The root's band rule within a 2,048-node budget: 1905_11+ and 1106
//!   9-12% faster, while Norvig's "impossible" puzzle takes 2,099 nodes, not 65,536.
//! - Filled cells found 16 at a time (SSE2 compare and movemask), the solution read out
//!   bit-sliced through a table, and the digit-by-digit set-up for 24 givens or more (below
//!   that it was 2% slower): Kaggle 772k → 1,005k puzzles/s.
//! - A naked single's digit read from four bit-sliced words (its loop's exit mispredicts).
//! - In searches from a wide root, the configuration with the fewest candidate cells first.
//! - `changed_words` as three AVX2 compares with one `movemask` each (the compiler's version
//!   reduced lanes with shifts: 19% of a profile of 1106).
//! - `State::new` compiled inside each path's copy, where `count_ones` is one instruction:
//!   Kaggle 1.37M → 1.54M puzzles/s.
//! - Branch hints (the words a branch changed feed the node's first round): the same
//!   instruction count, yet 2-3.5% faster, most likely because the comparison's 32-byte loads
//!   right after the branch's 4-byte stores cannot be forwarded from the store buffer. A
//!   debug assertion checks every hint.
//! - On the `bmi2` path, a band's mini-row occupancy by one PEXT instead of three `SHRINK`
//!   lookups (−4% instructions, 1.04-1.06x on the hard sets).
//! - Naked singles and mini-row counting over the three bands at once, one SSE2 lane each
//!   (`lanes.rs`): 1106 248.5M → 193.1M instructions, 1.03-1.08x.
//! - No stack updates in `HYBRID`'s cell phase: serg 1.045x, the trees elsewhere unchanged.
//!
//! Lost (slower, or a loss on the easy sets that the hard ones did not pay for):
//! - a global minimum-candidates cell when no bivalue cell exists (241 vs 174 guesses a
//!   puzzle on 1106); bivalue cells scored by their digits' candidates (19% fewer guesses,
//!   slower); probing fallback cells; branching on a digit with two places in a row; the
//!   digit with more places first;
//! - a pending-word bitmask updated on every elimination instead of comparing with `prev`
//!   (10-15% slower: one long dependency chain); no `prev` at all, each update reporting the
//!   words it changed (1.02-1.03x on the hard sets but Kaggle 0.85x: the nine flags vectorise
//!   lane by lane and the next round waits on them); any work added to the band update
//!   (its cost is its stores, not its instructions);
//! - the (band, digit) with the fewest configurations over the whole grid (half the speed);
//!   a bivalue cell before band configurations; mini-row counting at every fixed point, or at
//!   `jcz`'s branch points;
//! - restarting as `bands` after `jcz`'s dead ends (top1465 +14%); `bands` from a wide root
//!   without a budget (Norvig's puzzle: 65,536 guesses);
//! - stack configurations beside the band ones, as tdoku has (fewer branch points: 1106
//!   116.9 → 109.0, but 0.94-0.96x: the second pass at every branch point costs more);
//! - the band choice's counts bit-sliced in a `u64`, band updates with a constant band, and
//!   an AVX-512 path: −10-19% instructions, 1.03-1.06x on the hard sets but 0.93-0.98x on
//!   17-clue and serg (the instructions saved are not on the critical path);
//! - the column lock as a loop over the digit's three words (−3.7% instructions, no faster);
//!   `State::assign` inlined into the branch; the bounds checks of the band update dropped
//!   (within the noise, so they stay); `changed_words` with AVX-512 masks;
//! - the band with the fewest open digits first, with limit ≥ 2 (top1465 0.957x).
//!
//! Not built: an end game that counts the last few open cells' completions without
//! branching. At most 8 open cells at 9.7-13.3% of serg's branch points and almost none
//! elsewhere: a few percent on serg at most (tdoku has none either).

mod bands;
mod lanes;
mod paths;

use bands::{branch_on_configs, BandStep};
use lanes::Lanes;
use paths::{new_state, run, Isa};

use super::simd::SimdPath;
use super::tables::{BAND, COMPLEX, KEEP_OTHER, PEERS_IN_BAND, SHRINK, SINGLE9};
use super::{Root, Tally};
use crate::grid::{Grid, CELLS};

/// The two other bands of each band.
const OTHER_BANDS: [[usize; 2]; 3] = [[1, 2], [0, 2], [0, 1]];

/// The low `bits` bits of `m`, bit `i` moved to bit `i * stride` (for the tables below).
const fn spread_bits(m: usize, bits: usize, stride: usize) -> u64 {
    let mut out = 0u64;
    let mut i = 0;
    while i < bits {
        if m >> i & 1 == 1 {
            out |= 1 << (i * stride);
        }
        i += 1;
    }
    out
}

/// `SPREAD3[digits]`: bit `d` of the 9-bit set moved to bit `3 * d` (a set of digits as the
/// bits of their words in band 0).
const SPREAD3: [u32; 512] = {
    let mut t = [0; 512];
    let mut m = 0;
    while m < 512 {
        t[m] = spread_bits(m, 9, 3) as u32;
        m += 1;
    }
    t
};

/// The givens cannot be completed (from this state).
struct Contradiction;

/// The whole search state; `Copy`, so a branch is a plain copy.
#[derive(Clone, Copy)]
pub(super) struct State {
    cand: [u32; 27],
    prev: [u32; 27],
    unsolved: [u32; 3],
}

/// No hint for a search ([`State::update_hinted`]): its first round compares all 27 words
/// with `prev` to find the changed ones.
pub(super) const SCAN: u32 = u32::MAX;

impl State {
    /// The state with `grid`'s givens placed and their row, column and box peers removed;
    /// `None` when two givens conflict.
    #[inline(always)]
    fn new(grid: &Grid) -> Option<State> {
        let given = grid.given_mask();
        if given.count_ones() >= DIGITWISE_FROM {
            return State::new_by_digit(grid, given);
        }
        State::new_by_given(grid, given)
    }

    /// [`State::new`] digit by digit: each digit's givens as three band words (a compare per
    /// 16 cells), their rows, boxes and columns cleared by whole words. Its cost does not
    /// grow with the givens, and it has no dependency chain through memory, unlike
    /// [`State::new_by_given`], which is cheaper for few givens.
    #[inline(always)]
    fn new_by_digit(grid: &Grid, given: u128) -> Option<State> {
        let band_words = |m: u128| {
            [
                m as u32 & BAND,
                (m >> 27) as u32 & BAND,
                (m >> 54) as u32 & BAND,
            ]
        };
        let unsolved = band_words(given).map(|g| BAND & !g);
        let mut st = State {
            cand: [0; 27],
            prev: [0; 27],
            unsolved,
        };
        let mut conflict = false;
        for (d, m) in grid.digit_masks().into_iter().enumerate() {
            let w = band_words(m);
            // Per band: the columns (rows folded) and the occupied rows and boxes.
            let cols = w.map(|x| (x | x >> 9 | x >> 18) & 0x1FF);
            let rows = w.map(|x| {
                u32::from(x & 0x1FF != 0)
                    | u32::from(x & 0x3FE00 != 0) << 1
                    | u32::from(x >> 18 != 0) << 2
            });
            let boxes = cols.map(|c| u32::from(SHRINK[c as usize]));
            let all_cols = cols[0] | cols[1] | cols[2];
            // Givens of one digit in distinct rows, columns and boxes, or a conflict.
            let n = w.iter().map(|x| x.count_ones()).sum::<u32>();
            let distinct = |k: [u32; 3]| k.iter().map(|x| x.count_ones()).sum::<u32>();
            conflict |= all_cols.count_ones() != n || distinct(rows) != n || distinct(boxes) != n;
            let col_words = all_cols * 0o001001001;
            for b in 0..3 {
                let seen = ROW_WORDS[rows[b] as usize] | BOX_WORDS[boxes[b] as usize] | col_words;
                st.cand[d * 3 + b] = (BAND & !seen & unsolved[b]) | w[b];
            }
        }
        (!conflict).then_some(st)
    }

    /// [`State::new`] given by given.
    #[inline(always)]
    fn new_by_given(grid: &Grid, given: u128) -> Option<State> {
        let mut st = State {
            cand: [BAND; 27],
            prev: [0; 27],
            unsolved: [BAND; 3],
        };
        // Iterate the givens as set bits (no unpredictable branch per cell).
        let cells = grid.cells();
        let filled = [given as u64, (given >> 64) as u64];
        let mut mine = [0u32; 27];
        for (half, mut bits) in filled.into_iter().enumerate() {
            while bits != 0 {
                let cell = half * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let (band, pos) = (cell / 27, cell % 27);
                let digit = usize::from(cells[cell] - 1);
                let i = digit * 3 + band;
                if st.cand[i] & (1 << pos) == 0 {
                    return None; // an earlier equal given sees this cell
                }
                st.cand[i] &= PEERS_IN_BAND[pos];
                let keep = !(0o001001001 << (pos % 9));
                st.cand[digit * 3 + (band + 1) % 3] &= keep;
                st.cand[digit * 3 + (band + 2) % 3] &= keep;
                mine[i] |= 1 << pos;
                st.unsolved[band] &= !(1 << pos);
            }
        }
        for (i, w) in st.cand.iter_mut().enumerate() {
            *w = (*w & st.unsolved[i % 3]) | mine[i];
        }
        Some(st)
    }

    /// Put `digit` in the cell `bit` of `band`: its row keeps only that cell for the digit
    /// (the band update then places it), and the other digits lose the cell.
    #[inline]
    fn assign(&mut self, band: usize, bit: u32, digit: usize) {
        for d in 0..9 {
            self.cand[d * 3 + band] &= !bit;
        }
        self.cand[digit * 3 + band] |= bit;
        self.place(digit * 3 + band, bit);
    }

    /// Remove the row, box and column peers of cell `bit` from word `i` (keeping the cell)
    /// and the column from the digit's other two bands.
    #[inline(always)]
    fn place(&mut self, i: usize, bit: u32) {
        let pos = bit.trailing_zeros() as usize;
        let band = i % 3;
        self.cand[i] &= PEERS_IN_BAND[pos];
        let keep = !(0o001001001 << (pos % 9));
        self.cand[i - band + OTHER_BANDS[band][0]] &= keep;
        self.cand[i - band + OTHER_BANDS[band][1]] &= keep;
    }

    /// Band update of word `i` (digit `i / 3`, band `i % 3`; see the module docs).
    ///
    /// # Safety
    /// The CPU supports `P`'s path.
    #[inline(always)]
    unsafe fn update_word<P: Isa>(&mut self, i: usize) -> Result<(), Contradiction> {
        let band = i % 3;
        let mut a = self.cand[i];
        a &= COMPLEX[P::occupancy(a)];
        if a == 0 {
            return Err(Contradiction);
        }
        let keep = KEEP_OTHER[((a | a >> 9 | a >> 18) & 0x1FF) as usize];
        let base = i - band;
        self.cand[base + OTHER_BANDS[band][0]] &= keep;
        self.cand[base + OTHER_BANDS[band][1]] &= keep;
        let singles = u32::from(SINGLE9[(a & 0x1FF) as usize])
            | u32::from(SINGLE9[((a >> 9) & 0x1FF) as usize]) << 9
            | u32::from(SINGLE9[(a >> 18) as usize]) << 18;
        // Unconditional: a branch here mispredicts more often than 9 ANDs cost (measured).
        let placed = singles & self.unsolved[band];
        self.unsolved[band] &= !placed;
        for d in 0..9 {
            self.cand[d * 3 + band] &= !placed;
        }
        self.cand[i] = a;
        self.prev[i] = a;
        Ok(())
    }

    /// Stack update of digit `d`: the column-direction twin of the band update. In each stack
    /// the digit's 9 *mini-columns* (band × column) form a permutation matrix too; filtering
    /// them finds hidden singles in columns and column-box reductions. True if a word changed.
    ///
    /// # Safety
    /// The CPU supports `P`'s path.
    #[inline(always)]
    unsafe fn stack_update<P: Isa>(&mut self, d: usize) -> bool {
        let w = &mut self.cand[d * 3..d * 3 + 3];
        let cols = |a: u32| (a | a >> 9 | a >> 18) & 0x1FF;
        let x = cols(w[0]) | cols(w[1]) << 9 | cols(w[2]) << 18;
        let allowed = P::stack_filter(x);
        if allowed == x {
            return false;
        }
        for (b, word) in w.iter_mut().enumerate() {
            let c = (allowed >> (9 * b)) & 0x1FF;
            *word &= c | c << 9 | c << 18;
        }
        true
    }

    /// Band updates to a fixed point.
    ///
    /// # Safety
    /// The CPU supports `P`'s path.
    #[inline(always)]
    unsafe fn update_all<P: Isa>(&mut self) -> Result<u32, Contradiction> {
        // Digits whose words were updated (for the stack updates).
        let mut dirty = 0u32;
        loop {
            let mut pending = self.changed_words::<P>();
            if pending == 0 {
                return Ok(dirty);
            }
            while pending != 0 {
                let i = pending.trailing_zeros() as usize;
                pending &= pending - 1;
                dirty |= 1 << (i / 3);
                self.update_word::<P>(i)?;
            }
        }
    }

    /// The band updates of the words in `hint`, a set that holds every word changed since
    /// its last update (from a branch, which knows what it changed): the first round of
    /// [`State::update_all`] without comparing all 27 words with `prev` to find them.
    /// Returns the digits updated. Extra words in the hint cost an update each (an update
    /// of an unchanged word changes nothing), so hints are kept tight.
    ///
    /// It saves one comparison per node, and more time than its instructions (3% on
    /// forum_hardest_1106): likely the comparison's wide loads, right after the branch's
    /// narrow stores, wait for those stores to reach the cache (no hardware counters here
    /// to confirm it).
    ///
    /// # Safety
    /// The CPU supports `P`'s path.
    #[inline(always)]
    unsafe fn update_hinted<P: Isa>(&mut self, mut hint: u32) -> Result<u32, Contradiction> {
        debug_assert_eq!(
            self.changed_words::<P>() & !hint,
            0,
            "a changed word not hinted"
        );
        // The same loop as a round of `update_all`, written twice on purpose: one shared
        // `update_words` for both compiled to 0.4-0.75% more instructions (callgrind, 1106
        // and serg at limit 1).
        let mut dirty = 0u32;
        while hint != 0 {
            let i = hint.trailing_zeros() as usize;
            hint &= hint - 1;
            dirty |= 1 << (i / 3);
            self.update_word::<P>(i)?;
        }
        Ok(dirty)
    }

    /// Bit `i` set when word `i` changed since its last band update.
    ///
    /// # Safety
    /// The CPU supports `P`'s path.
    #[inline(always)]
    unsafe fn changed_words<P: Isa>(&self) -> u32 {
        P::changed_words(&self.cand, &self.prev)
    }

    /// Place every naked single; true if any was found. Also notes the first bivalue cell
    /// seen (valid for branching when no single was found).
    ///
    /// All three bands at once, one lane each ([`Lanes`]): bit-sliced counts of each cell's
    /// candidates over the 9 digits (at least 1, 2, 3). The counts are taken before any
    /// single is placed: a single that an earlier one emptied (a cell of its column, in
    /// another band) gets a stale digit, which no longer fits its cell; the emptied cell is a
    /// contradiction at the next pass either way.
    #[inline(always)]
    fn naked_singles(&mut self, bivalue: &mut Option<(usize, u32)>) -> Result<bool, Contradiction> {
        let words: [Lanes; 9] = std::array::from_fn(|d| Lanes::digit(&self.cand, d));
        let (mut one, mut two, mut three) = (Lanes::ZERO, Lanes::ZERO, Lanes::ZERO);
        for w in words {
            three = three.or(two.and(w));
            two = two.or(one.and(w));
            one = one.or(w);
        }
        let unsolved = Lanes::bands(self.unsolved);
        let [e0, e1, e2, _] = unsolved.and_not(one).get();
        if e0 | e1 | e2 != 0 {
            return Err(Contradiction);
        }
        let pairs = unsolved.and(two).and_not(three).get();
        if bivalue.is_none() {
            if let Some(band) = (0..3).find(|&b| pairs[b] != 0) {
                *bivalue = Some((band, pairs[band] & pairs[band].wrapping_neg()));
            }
        }
        let singles = unsolved.and_not(two).get();
        if singles[0] | singles[1] | singles[2] == 0 {
            return Ok(false);
        }
        // Bit k of each cell's digit index, bit-sliced (as in [`State::solution`]): the digit
        // of a single without a loop whose exit mispredicts.
        let w = |d: usize| words[d];
        let bits = [
            w(1).or(w(3)).or(w(5)).or(w(7)).get(),
            w(2).or(w(3)).or(w(6)).or(w(7)).get(),
            w(4).or(w(5)).or(w(6)).or(w(7)).get(),
            w(8).get(),
        ];
        for (band, &found) in singles.iter().take(3).enumerate() {
            let mut left = found;
            while left != 0 {
                let bit = left & left.wrapping_neg();
                left ^= bit;
                let d = bits
                    .iter()
                    .enumerate()
                    .map(|(k, w)| usize::from(w[band] & bit != 0) << k)
                    .sum::<usize>();
                self.place(d * 3 + band, bit);
            }
        }
        Ok(true)
    }

    /// Propagate to a fixed point of band updates and naked singles. Returns the first
    /// bivalue cell of the final state, if it has one (and is not solved). `dirty`: digits
    /// whose words were band-updated before the call (by [`State::update_hinted`]), due a
    /// stack update like those updated here (when [`stack_updates`] allows them, from
    /// `tally` and the branching rule).
    ///
    /// # Safety
    /// The CPU supports `P`'s path.
    #[inline(always)]
    unsafe fn propagate<P: Isa, const RULE: u8>(
        &mut self,
        mut dirty: u32,
        tally: &Tally,
    ) -> Result<Option<(usize, u32)>, Contradiction> {
        // Cheap rules first: the stack updates (the costliest) run only when band updates
        // and naked singles are exhausted, on the digits changed since they last ran.
        loop {
            dirty |= self.update_all::<P>()?;
            if self.is_solved() {
                return Ok(None);
            }
            let mut bivalue = None;
            if self.naked_singles(&mut bivalue)? {
                continue;
            }
            if dirty != 0 && stack_updates::<RULE>(tally) {
                // Every word equals `prev` here (band updates at a fixed point, no single
                // placed), so a word changed exactly when a stack update changed it.
                let mut changed = false;
                while dirty != 0 {
                    let d = dirty.trailing_zeros() as usize;
                    dirty &= dirty - 1;
                    changed |= self.stack_update::<P>(d);
                }
                if changed {
                    continue;
                }
            }
            return Ok(bivalue);
        }
    }

    #[inline]
    fn is_solved(&self) -> bool {
        self.unsolved[0] | self.unsolved[1] | self.unsolved[2] == 0
    }

    /// The cell to branch on when there is no bivalue cell: of the first unsolved cell of
    /// each band, the one with fewest candidates (as JCZSolve's successors do; a global
    /// minimum measured worse on the hardest sets).
    #[cold]
    fn fallback_cell(&self) -> (usize, u32) {
        let mut best = (0, 0, u32::MAX);
        for band in 0..3 {
            let mut cells = self.unsolved[band];
            cells &= cells.wrapping_neg();
            while cells != 0 {
                let bit = cells & cells.wrapping_neg();
                cells ^= bit;
                let n = (0..9)
                    .filter(|d| self.cand[d * 3 + band] & bit != 0)
                    .count() as u32;
                if n < best.2 {
                    best = (band, bit, n);
                }
            }
        }
        (best.0, best.1)
    }

    /// The grid of a solved state. Bit-sliced and branch-free: per band, four words hold
    /// bit k of each cell's digit (1..=9), and a table spreads 8 cells at a time into bytes.
    /// (Visiting each digit's set bits mispredicted at the end of each of the 27 loops: 9% of
    /// a run on easy puzzles.)
    fn solution(&self) -> Grid {
        let mut out = [0u8; CELLS + 7];
        for band in 0..3 {
            let p = |d: usize| self.cand[d * 3 + band];
            let bits = [
                p(0) | p(2) | p(4) | p(6) | p(8),
                p(1) | p(2) | p(5) | p(6),
                p(3) | p(4) | p(5) | p(6),
                p(7) | p(8),
            ];
            // Bands in order: a band's last chunk spills zeros into the next band's first
            // cells, which that band then writes.
            for chunk in 0..4 {
                let mut v = 0u64;
                for (k, w) in bits.iter().enumerate() {
                    v |= SPREAD8[(w >> (8 * chunk) & 0xff) as usize] << k;
                }
                let at = band * 27 + chunk * 8;
                out[at..at + 8].copy_from_slice(&v.to_le_bytes());
            }
        }
        let cells: [u8; CELLS] = out[..CELLS].try_into().expect("81 cells");
        Grid::from_cells(cells).expect("cells are 1..=9")
    }
}

/// Givens from which [`State::new`] goes digit by digit.
const DIGITWISE_FROM: u32 = 24;

/// `ROW_WORDS[rows]`: the band cells of the rows in the 3-bit set `rows`.
const ROW_WORDS: [u32; 8] = {
    let mut t = [0; 8];
    let mut r = 0;
    while r < 8 {
        // Each row's bit to its first cell, then filled to its 9 cells.
        t[r] = spread_bits(r, 3, 9) as u32 * 0x1FF;
        r += 1;
    }
    t
};

/// `BOX_WORDS[boxes]`: the band cells of the boxes in the 3-bit set `boxes`.
const BOX_WORDS: [u32; 8] = {
    let mut t = [0; 8];
    let mut b = 0;
    while b < 8 {
        let mut k = 0;
        while k < 3 {
            if b >> k & 1 == 1 {
                t[b] |= 0o007007007 << (3 * k);
            }
            k += 1;
        }
        b += 1;
    }
    t
};

/// Each bit of a byte spread to the low bit of its own byte (bit i → byte i).
const SPREAD8: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut m = 0;
    while m < 256 {
        table[m] = spread_bits(m, 8, 8);
        m += 1;
    }
    table
};

/// Depth-first search from `st`, counting into `tally`. `CAREFUL` adds failed-literal
/// probing at every node (see [`solve`]). `hint`: the words changed since `st` was last at a
/// fixed point (from the branch that made it; [`State::update_hinted`]), or [`SCAN`].
/// Inlined into each path's `#[target_feature]` copy.
///
/// # Safety
/// The CPU supports `P`'s path.
#[inline(always)]
unsafe fn search_body<P: Isa, const CAREFUL: bool, const RULE: u8>(
    mut st: State,
    tally: &mut Tally,
    mut hint: u32,
) {
    loop {
        let mut dirty = 0;
        if hint != SCAN {
            let Ok(digits) = st.update_hinted::<P>(hint) else {
                tally.dead_ends += 1;
                return;
            };
            dirty = digits;
            hint = SCAN;
        }
        let Ok(bivalue) = st.propagate::<P, RULE>(dirty, tally) else {
            tally.dead_ends += 1;
            return;
        };
        if st.is_solved() {
            tally.found(|| st.solution());
            return;
        }
        if RULE == HYBRID && tally.root == Root::Undecided {
            decide_root(&st, tally);
        }
        if !CAREFUL && branches_on_bands::<RULE>(tally) {
            let Ok(step) = st.band_step() else {
                tally.dead_ends += 1;
                return;
            };
            match step {
                BandStep::Changed => continue,
                BandStep::Branch(i, configs) => {
                    match branch_on_configs::<P, CAREFUL, RULE>(&mut st, tally, i, configs) {
                        Some(changed) => hint = changed,
                        None => return,
                    }
                    continue;
                }
                BandStep::Fixed => {}
            }
        }
        let (band, bit) = if CAREFUL {
            match st.probe::<P>(tally) {
                Err(Contradiction) => return,
                Ok(Probed::Changed) => continue,
                Ok(Probed::Stable(b)) => b.unwrap_or_else(|| st.fallback_cell()),
            }
        } else {
            bivalue.unwrap_or_else(|| st.fallback_cell())
        };
        match branch_on_cell::<P, CAREFUL, RULE>(&mut st, tally, band, bit) {
            Some(changed) => hint = changed,
            None => return,
        }
    }
}

/// At the root's fixed point (`HYBRID`): a wide-open grid takes band configurations from
/// here, under a small budget (see `solve_on`).
#[inline(always)]
fn decide_root(st: &State, tally: &mut Tally) {
    let open: u32 = st.unsolved.iter().map(|u| u.count_ones()).sum();
    tally.root = if open >= HYBRID_WIDE {
        tally.budget = tally.budget.min(WIDE_BUDGET);
        Root::Wide
    } else {
        Root::Narrow
    };
}

/// Whether propagation runs the stack updates: not in a hybrid search on cells that has met
/// few dead ends (mostly puzzles with many solutions, whose trees they do not shrink).
#[inline(always)]
fn stack_updates<const RULE: u8>(tally: &Tally) -> bool {
    RULE != HYBRID || tally.root != Root::Narrow || tally.dead_ends >= HYBRID_AFTER
}

/// Whether the search branches on band configurations here. Hybrid: from the root of a
/// wide-open grid; else cells while the search has met few dead ends (most puzzles with many
/// solutions never meet more), band configurations after.
#[inline(always)]
fn branches_on_bands<const RULE: u8>(tally: &Tally) -> bool {
    RULE == BANDS
        || (RULE == HYBRID && (tally.root == Root::Wide || tally.dead_ends >= HYBRID_AFTER))
}

/// Branch on the candidates of the cell `bit` of `band`: every digit but the last is searched
/// on a copy (and then removed from `st`); the last is assigned in `st` itself. `None` when
/// the search is done, else the words of `st` the branch changed (the hint for its search,
/// [`State::update_hinted`]).
///
/// # Safety
/// The CPU supports `P`'s path.
#[inline(always)]
unsafe fn branch_on_cell<P: Isa, const CAREFUL: bool, const RULE: u8>(
    st: &mut State,
    tally: &mut Tally,
    band: usize,
    bit: u32,
) -> Option<u32> {
    let mut digits = 0u32;
    for d in 0..9 {
        if st.cand[d * 3 + band] & bit != 0 {
            digits |= 1 << d;
        }
    }
    tally.branch_points += 1;
    // The words an assignment changes: the band's words of the cell's digits (the others
    // lose the cell; the assigned digit's loses the cell's peers in the band), and those of
    // the assigned digit's other two bands that lose the column (the state is at a fixed
    // point: no other word differs from `prev`).
    let words = SPREAD3[digits as usize] << band;
    let [b1, b2] = OTHER_BANDS[band];
    let changed = |st: &State, d: usize| {
        let (j1, j2) = (d * 3 + b1, d * 3 + b2);
        words
            | u32::from(st.cand[j1] != st.prev[j1]) << j1
            | u32::from(st.cand[j2] != st.prev[j2]) << j2
    };
    while digits & (digits - 1) != 0 {
        let d = digits.trailing_zeros() as usize;
        digits &= digits - 1;
        let mut child = *st;
        child.assign(band, bit, d);
        tally.guess();
        let hint = changed(&child, d);
        P::search::<CAREFUL, RULE>(child, tally, hint);
        if tally.done() {
            return None;
        }
        st.cand[d * 3 + band] &= !bit;
    }
    let last = digits.trailing_zeros() as usize;
    st.assign(band, bit, last);
    tally.guess();
    Some(changed(st, last))
}

/// What one round of probing did.
enum Probed {
    /// Some candidates were removed: propagate again.
    Changed,
    /// Nothing to remove; the first bivalue cell, if any.
    Stable(Option<(usize, u32)>),
}

impl State {
    /// Failed-literal probing: try every candidate of every unsolved cell on a copy and
    /// propagate; a candidate that leads to a contradiction is removed. Finds what the
    /// per-digit filters cannot see, such as three digits confined to two cells of a row.
    ///
    /// # Safety
    /// The CPU supports `P`'s path.
    #[cold]
    unsafe fn probe<P: Isa>(&mut self, tally: &mut Tally) -> Result<Probed, Contradiction> {
        let mut changed = false;
        let mut bivalue = None;
        for band in 0..3 {
            let mut cells = self.unsolved[band];
            while cells != 0 {
                let bit = cells & cells.wrapping_neg();
                cells ^= bit;
                let mut left = 0;
                for d in 0..9 {
                    if self.cand[d * 3 + band] & bit == 0 {
                        continue;
                    }
                    let mut child = *self;
                    child.assign(band, bit, d);
                    tally.work += 1;
                    if child.propagate::<P, JCZ>(0, tally).is_err() {
                        self.cand[d * 3 + band] &= !bit;
                        changed = true;
                    } else {
                        left += 1;
                    }
                }
                match left {
                    0 => return Err(Contradiction),
                    2 if bivalue.is_none() => bivalue = Some((band, bit)),
                    _ => {}
                }
            }
        }
        Ok(if changed {
            Probed::Changed
        } else {
            Probed::Stable(bivalue)
        })
    }
}

/// Branching rule: the first bivalue cell, else JCZSolve's fallback cell.
pub(super) const JCZ: u8 = 0;
/// Branching rule: band configurations ([`State::band_step`], with mini-row counting), cells
/// once every digit's configuration is fixed.
pub(super) const BANDS: u8 = 1;
/// Branching rule: [`BANDS`] from the root when it left [`HYBRID_WIDE`] cells open or more
/// (within [`WIDE_BUDGET`]); else [`JCZ`] until the search has met [`HYBRID_AFTER`] dead
/// ends, then [`BANDS`] (the default).
pub(super) const HYBRID: u8 = 2;
/// Dead ends after which [`HYBRID`] switches to band configurations: puzzles with many
/// solutions (serg_benchmark, 6-7 branch points each) mostly finish before, with the cheaper
/// cell branching.
const HYBRID_AFTER: u64 = 4;
/// Open cells after the root's propagation from which [`HYBRID`] branches on band
/// configurations from the start: the hard sets leave 54-61 open, serg_benchmark's puzzles
/// (several solutions each, small trees where cells are cheaper) 31-47.
const HYBRID_WIDE: u32 = 50;
/// Work allowed to [`HYBRID`]'s search from the root on band configurations before it gives
/// way to the search that starts on cells. The public sets need at most 1,329 nodes that way
/// (forum_hardest_1905_11+ shuffled, limit 2); Norvig's impossible puzzle would need 65,536
/// (cells: 51).
const WIDE_BUDGET: u64 = 1 << 11;

/// Work allowed to the first attempt: 24 times the most nodes any puzzle of the public hard
/// sets needs (2,750 on forum_hardest_1106 with limit 2), so real puzzles never restart.
pub(super) const FIRST_BUDGET: u64 = 1 << 16;

/// Solve `grid`, stopping after `limit` solutions; `None` when givens conflict.
///
/// Branching on the first bivalue cell is fast on real puzzles, but a contradiction the
/// filters cannot see (say three digits left for two cells of a row) may then be found only
/// after the rest of the grid is enumerated: seconds, on grids the fuzzer made. So the plain
/// search runs with a work budget; when it runs out, a careful search (failed-literal
/// probing at every node) gets the same budget, and the two alternate with the budget
/// growing fourfold, so the answer costs at most a small factor more than the better of the
/// two strategies would. Before all that, [`HYBRID`] may first try band configurations from
/// the root of a wide-open grid within [`WIDE_BUDGET`]. Counts (`nodes`, `guesses`,
/// `branch_points`) add up every attempt.
pub(super) fn solve<const RULE: u8>(grid: &Grid, limit: u32) -> Option<super::Outcome> {
    solve_on::<RULE>(SimdPath::active(), grid, limit)
}

/// [`solve`] on the given path, which the CPU must support (tests run every path this way).
pub(super) fn solve_on<const RULE: u8>(
    path: SimdPath,
    grid: &Grid,
    limit: u32,
) -> Option<super::Outcome> {
    assert!(path.supported(), "the CPU cannot run the {path} path");
    let start = new_state(path, grid)?;
    Some(search_from::<RULE>(path, start, limit))
}

/// [`solve`] from a position's candidates (`masks[cell]`, bit `d` for digit `d + 1`): every
/// cell starts unsolved with its candidates, so a cell of one candidate is a naked single of
/// the first propagation, placed there with its peers cleared. The caller has checked that
/// no cell is empty and no two placed cells clash.
pub(super) fn solve_masks<const RULE: u8>(masks: &[u16; 81], limit: u32) -> super::Outcome {
    let mut cand = [0u32; 27];
    for (cell, &m) in masks.iter().enumerate() {
        let (band, pos) = (cell / 27, cell % 27);
        for d in 0..9 {
            cand[d * 3 + band] |= u32::from(m >> d & 1) << pos;
        }
    }
    let start = State {
        cand,
        prev: [0; 27],
        unsolved: [BAND; 3],
    };
    search_from::<RULE>(SimdPath::active(), start, limit)
}

/// The search of [`solve_on`] from its first state.
fn search_from<const RULE: u8>(path: SimdPath, start: State, limit: u32) -> super::Outcome {
    let (mut nodes, mut guesses, mut branch_points) = (0, 0, 0);
    let mut budget = FIRST_BUDGET;
    // The hybrid rule's first attempt may branch on band configurations from the root.
    let mut wide = RULE == HYBRID;
    let mut attempt = 0u32;
    loop {
        let careful = attempt % 2 == 1;
        let mut tally = Tally::new(limit);
        tally.budget = budget;
        if careful {
            run::<true, RULE>(path, start, &mut tally);
        } else {
            tally.root = if wide { Root::Undecided } else { Root::Narrow };
            run::<false, RULE>(path, start, &mut tally);
        }
        nodes += tally.nodes;
        guesses += tally.guesses;
        branch_points += tally.branch_points;
        if !tally.out_of_budget() {
            tally.nodes = nodes;
            tally.guesses = guesses;
            tally.branch_points = branch_points;
            return tally.outcome();
        }
        if tally.root == Root::Wide {
            // Band configurations from the root did not finish within their small budget
            // (they cannot refute some sparse grids that cells refute at once): start over
            // on cells, as the first attempt.
            wide = false;
            continue;
        }
        if careful {
            budget = budget.saturating_mul(4);
        }
        attempt += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symmetry::Rng;

    /// Both set-ups agree: the same state, or both find a conflict.
    fn same_setup(grid: &Grid) {
        let given = grid.given_mask();
        let (a, b) = (
            State::new_by_digit(grid, given),
            State::new_by_given(grid, given),
        );
        match (a, b) {
            (Some(a), Some(b)) => {
                assert_eq!((a.cand, a.unsolved), (b.cand, b.unsolved), "{grid:?}");
                assert_eq!((a.prev, b.prev), ([0; 27], [0; 27]));
            }
            (None, None) => {}
            (a, b) => panic!(
                "{grid:?}: by digit {}, by given {}",
                a.map_or("conflict", |_| "fine"),
                b.map_or("conflict", |_| "fine")
            ),
        }
    }

    #[test]
    fn set_up_by_digit_equals_set_up_by_given() {
        let solved = crate::engines::solver::solve_with_limit(
            &Grid::from_cells([0; CELLS]).expect("empty"),
            1,
        )
        .solution
        .expect("the empty grid has a solution");
        let mut rng = Rng::new(16, 0);
        let (mut fine, mut conflicting) = (0, 0);
        for _ in 0..20_000 {
            // Keep each cell of a solution with a random probability, then write a few
            // random digits over random cells (which makes most such grids conflict).
            let keep = rng.below(101);
            let mut cells = *solved.cells();
            for c in cells.iter_mut() {
                if rng.below(100) >= keep {
                    *c = 0;
                }
            }
            for _ in 0..rng.below(3) {
                cells[rng.below(CELLS)] = rng.below(10) as u8;
            }
            let grid = Grid::from_cells(cells).expect("digits");
            same_setup(&grid);
            match State::new_by_given(&grid, grid.given_mask()) {
                Some(_) => fine += 1,
                None => conflicting += 1,
            }
        }
        assert!(
            fine > 5_000 && conflicting > 5_000,
            "{fine} fine, {conflicting} conflicting"
        );
    }
}
