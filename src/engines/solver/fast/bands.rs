//! Band-configuration branching with mini-row counting (the `BANDS` rule, and `HYBRID`
//! after its switch; see the parent module's doc for the rules and what was measured): the
//! one pass over the 27 band words that counts mini-rows and chooses the band and digit to
//! branch on, and the branch itself.

use super::lanes::Lanes;
use super::paths::Isa;
use super::{Contradiction, State, BANDS, HYBRID};
use crate::engines::solver::tables::{CONFIG_CELLS, MINI_ROWS, MINI_ROW_CELLS, SHRINK};
use crate::engines::solver::{Root, Tally};

impl State {
    /// Mini-row counting and band-configuration branching in one pass over the 27 words.
    ///
    /// Counting (tdoku's cardinality constraint on box-row intersections): each mini-row
    /// holds exactly 3 digits. Per band, bit-sliced counts over the 9 digits of the
    /// mini-rows each digit may use (in some configuration left) and must use (in all of
    /// them). Fewer than 3 possible or more than 3 certain digits is a contradiction; 3
    /// possible digits all go in (their rows lose the other boxes), 3 certain ones push the
    /// others out ([`State::fill_mini_rows`]). Run only when the search is about to branch.
    ///
    /// Choice, when counting removed nothing: of the bands where some digit still has two or
    /// more configurations, the one with the fewest configurations over those digits (ties:
    /// fewer candidate cells), and there the digit with the fewest configurations (ties:
    /// fewer candidate cells, then the lower digit). Counting configurations does not depend
    /// on the order of cells, so the choice barely moves when the puzzle is rotated or
    /// shuffled.
    #[inline(always)]
    pub(super) fn band_step(&mut self) -> Result<BandStep, Contradiction> {
        // Each word's mini-row occupancy and candidate count, all 27 at once (shifts, masks
        // and counts that vectorise), then one table lookup each. Padded to 28 words so the
        // three bands of each digit load as one 4-lane group below.
        let mut info = [0u32; 28];
        let mut cells = [0u32; 28];
        for ((x, n), &w) in info.iter_mut().zip(cells.iter_mut()).zip(&self.cand) {
            *x = occupancy_of(w);
            *n = w.count_ones();
        }
        for x in info[..27].iter_mut() {
            *x = MINI_ROWS[*x as usize];
        }
        // The three bands side by side, lane = band (lane 3 is padding), digit by digit:
        // bit-sliced counts of the mini-rows each digit may use (bits 0-8) and must use
        // (bits 9-17) in one 18-bit field (at least 1, 2, 3, 4 digits), and the key of the
        // band choice: configurations to choose from (`MINI_ROWS` bits 24-27, 0 for a fixed
        // digit) above candidate cells (the tie-break, < 256) in the low 8 bits.
        let (mut c1, mut c2, mut c3, mut c4) = (Lanes::ZERO, Lanes::ZERO, Lanes::ZERO, Lanes::ZERO);
        let mut key = Lanes::ZERO;
        let fields = Lanes::splat(0x3FFFF);
        for d in 0..9 {
            let x = Lanes::load(&info, d * 3);
            let y = x.and(fields);
            c4 = c4.or(c3.and(y));
            c3 = c3.or(c2.and(y));
            c2 = c2.or(c1.and(y));
            c1 = c1.or(y);
            key = key
                .add(x.shr::<24>().shl::<8>())
                .add(Lanes::load(&cells, d * 3));
        }
        let (c3, c4, key) = (c3.get(), c4.get(), key.get());
        let mut best = (u32::MAX, 0);
        let mut changed = false;
        for band in 0..3 {
            let (p3, p4) = (c3[band] & 0x1FF, c4[band] & 0x1FF);
            let (f3, f4) = (c3[band] >> 9, c4[band] >> 9);
            if (0x1FF & !p3) | f4 != 0 {
                return Err(Contradiction);
            }
            // Only 3 digits possible, not all certain yet; 3 certain, others still possible.
            let (fill, full) = (p3 & !p4 & !f3, f3 & p4);
            if fill | full != 0 {
                self.fill_mini_rows(band, fill, full);
                changed = true;
            }
            if key[band] >> 8 != 0 && key[band] < best.0 {
                best = (key[band], band);
            }
        }
        if changed {
            return Ok(BandStep::Changed);
        }
        if best.0 == u32::MAX {
            return Ok(BandStep::Fixed);
        }
        Ok(State::branch_digit(&info, &cells, best.1))
    }

    /// The branch in `band`: of its digits with two or more configurations (`info`: each
    /// word's `MINI_ROWS` entry; `cells`: its candidate cells), the one with the fewest (ties: fewer
    /// candidate cells, then the lower digit).
    #[inline(always)]
    fn branch_digit(info: &[u32; 28], cells: &[u32; 28], band: usize) -> BandStep {
        let mut pick = (u32::MAX, 0);
        for d in 0..9 {
            // Configurations to choose from (0 for a fixed digit), then candidate cells.
            let choices = info[d * 3 + band] >> 24;
            let key = choices << 8 | cells[d * 3 + band];
            if choices != 0 && key < pick.0 {
                pick = (key, d * 3 + band);
            }
        }
        BandStep::Branch(pick.1, info[pick.1] >> 18 & 0x3F)
    }

    /// The eliminations of mini-row counting in `band`: the digits possible in a mini-row of
    /// `fill` go there (their rows lose the other boxes), digits not certain in a mini-row
    /// of `full` leave it (9-bit sets, bit `row * 3 + box`).
    #[cold]
    fn fill_mini_rows(&mut self, band: usize, fill: u32, full: u32) {
        for d in 0..9 {
            let w = self.cand[d * 3 + band];
            let info = MINI_ROWS[occupancy(w)];
            let (p, f) = (info & 0x1FF, info >> 9 & 0x1FF);
            let hits = fill & p;
            let rows = ((hits | hits >> 1 | hits >> 2) & 0o111) * 7;
            let kill = (rows & !hits) | (full & !f);
            self.cand[d * 3 + band] = w & !MINI_ROW_CELLS[kill as usize];
        }
    }
}

/// Which mini-rows of band word `w` hold a candidate (bit `row * 3 + box`).
#[inline(always)]
pub(super) fn occupancy(w: u32) -> usize {
    usize::from(SHRINK[(w & 0x1FF) as usize])
        | usize::from(SHRINK[((w >> 9) & 0x1FF) as usize]) << 3
        | usize::from(SHRINK[(w >> 18) as usize]) << 6
}

/// [`occupancy`] by shifts and masks alone (no lookup, so a loop of them vectorises): each
/// mini-row's 3 cells folded onto its lowest bit, then the 9 bits packed.
#[inline(always)]
fn occupancy_of(w: u32) -> u32 {
    let p = (w | w >> 1 | w >> 2) & 0o111_111_111;
    let y = p | p >> 2 | p >> 4;
    (y & 7) | (y >> 6 & 0o70) | (y >> 12 & 0o700)
}

/// What [`State::band_step`] found.
pub(super) enum BandStep {
    /// Mini-row counting removed candidates: propagate again.
    Changed,
    /// Branch on the configurations (bit set) of band word `.0`.
    Branch(usize, u32),
    /// Every digit's configuration is fixed in every band: branch on a cell.
    Fixed,
}

/// Of the configurations `configs` of band word `w`, the one whose mini-rows hold the fewest
/// candidate cells (ties: the lower one).
#[inline(always)]
fn tightest_config(w: u32, configs: u32) -> usize {
    let mut best = (u32::MAX, 0);
    let mut left = configs;
    while left != 0 {
        let p = left.trailing_zeros() as usize;
        left &= left - 1;
        let cells = (w & CONFIG_CELLS[p]).count_ones();
        if cells < best.0 {
            best = (cells, p);
        }
    }
    best.1
}

/// Branch on the configurations `configs` of band-digit row `i` of `st`, the one with the
/// fewest candidate cells first ([`tightest_config`]; with limit 1 this finds the solution
/// sooner) in searches on configurations from the root: every one but the last is searched
/// on a copy; the last continues in `st` itself. `None` when the search is done, else the
/// word of `st` the branch changed (the hint for its search, [`State::update_hinted`]).
///
/// # Safety
/// The CPU supports `P`'s path.
#[inline(always)]
pub(super) unsafe fn branch_on_configs<P: Isa, const CAREFUL: bool, const RULE: u8>(
    st: &mut State,
    tally: &mut Tally,
    i: usize,
    mut configs: u32,
) -> Option<u32> {
    tally.branch_points += 1;
    // Tightest first where the search runs on configurations from the root (`bands`, and
    // `hybrid` on a wide-open grid); in a hybrid search that switches late (mostly puzzles
    // with several solutions), in increasing order, which reports the same first solution
    // as before.
    let tight = RULE == BANDS || (RULE == HYBRID && tally.root == Root::Wide);
    while configs & (configs - 1) != 0 {
        let p = if tight {
            tightest_config(st.cand[i], configs)
        } else {
            configs.trailing_zeros() as usize
        };
        configs &= !(1 << p);
        let mut child = *st;
        child.cand[i] &= CONFIG_CELLS[p];
        tally.guess();
        P::search::<CAREFUL, RULE>(child, tally, 1 << i);
        if tally.done() {
            return None;
        }
    }
    st.cand[i] &= CONFIG_CELLS[configs.trailing_zeros() as usize];
    tally.guess();
    Some(1 << i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::solver::tables::BAND;
    use crate::grid::Grid;
    use crate::symmetry::Rng;

    #[test]
    fn occupancy_by_shifts_equals_occupancy_by_lookup() {
        let mut rng = Rng::new(17, 0);
        for _ in 0..100_000 {
            // Sparse and dense words alike.
            let w = (rng.next_u64() & rng.next_u64() | rng.next_u64() >> 40) as u32 & BAND;
            assert_eq!(occupancy_of(w) as usize, occupancy(w), "{w:#o}");
        }
        for k in 0..27 {
            assert_eq!(occupancy(1 << k), 1 << (k / 9 * 3 + k % 9 / 3));
        }
    }

    /// The empty grid's state with digits `digits` confined, in row 0, to its first 3 cells.
    fn confined_in_first_mini_row(digits: std::ops::Range<usize>) -> State {
        let mut st = State::new(&Grid::EMPTY).expect("no givens");
        for d in digits {
            st.cand[d * 3] &= !0o770;
        }
        st
    }

    #[test]
    fn mini_row_counting() {
        // Four digits in one mini-row: a contradiction, though each digit alone is fine.
        let mut st = confined_in_first_mini_row(0..4);
        assert!(st.band_step().is_err());
        // Three digits there: the other six leave its cells.
        let mut st = confined_in_first_mini_row(0..3);
        assert!(matches!(st.band_step(), Ok(BandStep::Changed)));
        for d in 0..9 {
            assert_eq!(st.cand[d * 3] & 0o7 != 0, d < 3, "digit {}", d + 1);
        }
        // Only three digits left possible there: they must go in (row 0 loses boxes 1, 2).
        let mut st = State::new(&Grid::EMPTY).expect("no givens");
        for d in 3..9 {
            st.cand[d * 3] &= !0o7;
        }
        assert!(matches!(st.band_step(), Ok(BandStep::Changed)));
        for d in 0..3 {
            assert_eq!(st.cand[d * 3] & 0o777, 0o7, "digit {}", d + 1);
        }
        // Nothing to count on the empty grid: a band branch.
        let mut st = State::new(&Grid::EMPTY).expect("no givens");
        assert!(matches!(st.band_step(), Ok(BandStep::Branch(0, 0b111111))));
    }
}
