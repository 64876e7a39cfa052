//! The instruction-set paths of the bitboard solver: the search is compiled once per path,
//! each copy inside a function with the path's `#[target_feature]`s, and [`run`] calls the
//! copy of the path [`SimdPath`] chose (see `simd.rs` for the choice and the measurements).

use super::{search_body, State, SCAN};
use crate::engines::solver::simd::SimdPath;
use crate::engines::solver::tables::PERM9;
use crate::engines::solver::Tally;
use crate::grid::Grid;

/// An instruction-set path: the hot loop is compiled once per path, inside a function that
/// enables the path's CPU features, and [`solve`](super::solve) calls the copy [`SimdPath::active`]
/// names.
///
/// # Safety
/// Implementations may use CPU features beyond the build target: their functions may only be
/// called when [`SimdPath::supported`] holds for the path they compile.
pub(super) unsafe trait Isa {
    /// Apply the permutation filter to each stack of `x`, the digit's columns per band
    /// (bit `band * 9 + column`).
    ///
    /// # Safety
    /// The CPU supports the path this implementation compiles.
    unsafe fn stack_filter(x: u32) -> u32;

    /// Bit `i` set when `cand[i] != prev[i]` (see `State::changed_words`).
    ///
    /// # Safety
    /// The CPU supports the path this implementation compiles.
    unsafe fn changed_words(cand: &[u32; 27], prev: &[u32; 27]) -> u32;

    /// [`occupancy`](super::bands::occupancy): which mini-rows of band word `w` hold a
    /// candidate (bit `row * 3 + box`).
    ///
    /// # Safety
    /// The CPU supports the path this implementation compiles.
    unsafe fn occupancy(w: u32) -> usize;

    /// [`State::new`], compiled for this path (POPCNT instead of a bit-twiddling count:
    /// the set-up is a fifth of an easy puzzle's time).
    ///
    /// # Safety
    /// The CPU supports the path this implementation compiles.
    unsafe fn new_state(grid: &Grid) -> Option<State>;

    /// The search, compiled for this path (`hint`: see `search_body`).
    ///
    /// # Safety
    /// The CPU supports the path this implementation compiles.
    unsafe fn search<const CAREFUL: bool, const RULE: u8>(st: State, tally: &mut Tally, hint: u32);
}

/// Portable stack filter (shifts instead of PEXT/PDEP).
#[inline(always)]
fn stack_filter_portable(x: u32) -> u32 {
    let mut allowed = 0;
    for k in 0..3 {
        let m = (x >> (3 * k)) & 0o7007007;
        let m9 = (m & 7) | (m >> 6) & 0o70 | (m >> 12) & 0o700;
        let p = PERM9[m9 as usize];
        allowed |= ((p & 7) | (p & 0o70) << 6 | (p & 0o700) << 12) << (3 * k);
    }
    allowed
}

/// Portable changed-word mask: a compare per word.
#[inline(always)]
fn changed_words_portable(cand: &[u32; 27], prev: &[u32; 27]) -> u32 {
    let mut m = 0;
    for i in 0..27 {
        m |= u32::from(cand[i] != prev[i]) << i;
    }
    m
}

/// Changed-word mask with AVX2: 8 words per compare, one `movemask` each (the compiler's own
/// vectorisation of the portable loop reduced the lanes with shifts, ORs and extracts).
///
/// # Safety
/// The CPU supports AVX2. Inlined into the `#[target_feature]` search copies.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn changed_words_avx2(cand: &[u32; 27], prev: &[u32; 27]) -> u32 {
    use std::arch::x86_64::{
        __m256i, _mm256_castsi256_ps, _mm256_cmpeq_epi32, _mm256_loadu_si256, _mm256_movemask_ps,
    };
    // Lanes equal at words `at..at + 8` (in bounds: `at` ≤ 19).
    let same = |at: usize| {
        let x = _mm256_loadu_si256(cand.as_ptr().add(at).cast::<__m256i>());
        let y = _mm256_loadu_si256(prev.as_ptr().add(at).cast::<__m256i>());
        _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(x, y))) as u32
    };
    // Words 24-26 are the top 3 lanes of words 19-26.
    let eq = same(0) | same(8) << 8 | same(16) << 16 | (same(19) >> 5) << 24;
    !eq & ((1 << 27) - 1)
}

/// Stack filter with PEXT/PDEP: gather each stack's 9 bits, look up, scatter back.
///
/// # Safety
/// The CPU supports BMI2. Inlined into the `#[target_feature]` search copies, so the
/// intrinsics become single instructions there.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn stack_filter_bmi2(x: u32) -> u32 {
    use std::arch::x86_64::{_pdep_u32, _pext_u32};
    const M: [u32; 3] = [0o007007007, 0o070070070, 0o700700700];
    let mut allowed = 0;
    for m in M {
        allowed |= _pdep_u32(PERM9[_pext_u32(x, m) as usize], m);
    }
    allowed
}

/// Mini-row occupancy with PEXT: each mini-row's 3 cells folded onto its lowest bit, then
/// the 9 bits gathered (instead of three table lookups).
///
/// # Safety
/// The CPU supports BMI2. Inlined into the `#[target_feature]` search copies.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn occupancy_bmi2(w: u32) -> usize {
    use std::arch::x86_64::_pext_u32;
    _pext_u32(w | w >> 1 | w >> 2, 0o111_111_111) as usize
}

/// The build target's own instructions.
pub(super) struct Portable;

// SAFETY: uses nothing beyond the build target.
unsafe impl Isa for Portable {
    #[inline(always)]
    unsafe fn stack_filter(x: u32) -> u32 {
        stack_filter_portable(x)
    }
    #[inline(always)]
    unsafe fn changed_words(cand: &[u32; 27], prev: &[u32; 27]) -> u32 {
        changed_words_portable(cand, prev)
    }
    #[inline(always)]
    unsafe fn occupancy(w: u32) -> usize {
        super::bands::occupancy(w)
    }
    #[inline]
    unsafe fn new_state(grid: &Grid) -> Option<State> {
        State::new(grid)
    }
    #[inline]
    unsafe fn search<const CAREFUL: bool, const RULE: u8>(st: State, tally: &mut Tally, hint: u32) {
        search_body::<Portable, CAREFUL, RULE>(st, tally, hint);
    }
}

/// Declares an x86-64 path: a marker type whose search is a copy of [`search_body`] compiled
/// with `$features` enabled.
macro_rules! x86_path {
    ($name:ident, $new:ident, $search:ident, $filter:ident, $occupancy:path, $features:literal) => {
        #[doc = concat!("The `", $features, "` path.")]
        #[cfg(target_arch = "x86_64")]
        pub(super) struct $name;

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $features)]
        unsafe fn $new(grid: &Grid) -> Option<State> {
            State::new(grid)
        }

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $features)]
        unsafe fn $search<const CAREFUL: bool, const RULE: u8>(
            st: State,
            tally: &mut Tally,
            hint: u32,
        ) {
            search_body::<$name, CAREFUL, RULE>(st, tally, hint);
        }

        // SAFETY: the features are used only inside `$new`, `$search`, `stack_filter_bmi2`,
        // `occupancy_bmi2` (both on the BMI2 path only) and `changed_words_avx2` (every x86
        // path enables AVX2), whose callers promise (via this trait's contract) that the CPU
        // has them.
        #[cfg(target_arch = "x86_64")]
        unsafe impl Isa for $name {
            #[inline(always)]
            unsafe fn stack_filter(x: u32) -> u32 {
                $filter(x)
            }
            #[inline(always)]
            unsafe fn changed_words(cand: &[u32; 27], prev: &[u32; 27]) -> u32 {
                changed_words_avx2(cand, prev)
            }
            #[inline(always)]
            unsafe fn occupancy(w: u32) -> usize {
                $occupancy(w)
            }
            #[inline(always)]
            unsafe fn new_state(grid: &Grid) -> Option<State> {
                $new(grid)
            }
            #[inline(always)]
            unsafe fn search<const CAREFUL: bool, const RULE: u8>(
                st: State,
                tally: &mut Tally,
                hint: u32,
            ) {
                $search::<CAREFUL, RULE>(st, tally, hint);
            }
        }
    };
}

x86_path!(
    Avx2,
    new_state_avx2,
    search_avx2,
    stack_filter_portable,
    super::bands::occupancy,
    "bmi1,popcnt,lzcnt,avx,avx2"
);
x86_path!(
    Bmi2,
    new_state_bmi2,
    search_bmi2,
    stack_filter_bmi2,
    occupancy_bmi2,
    "bmi1,bmi2,popcnt,lzcnt,avx,avx2"
);

/// Evaluate `$body` with `$P` naming the [`Isa`] of `$path` (the portable one for a path this
/// target lacks).
macro_rules! with_path {
    ($path:expr, $P:ident => $body:expr) => {
        match $path {
            #[cfg(target_arch = "x86_64")]
            SimdPath::Bmi2 => {
                type $P = Bmi2;
                $body
            }
            #[cfg(target_arch = "x86_64")]
            SimdPath::Avx2 => {
                type $P = Avx2;
                $body
            }
            _ => {
                type $P = Portable;
                $body
            }
        }
    };
}

/// [`State::new`] in the copy of `path` (checked by [`solve_on`](super::solve_on): the CPU
/// supports it).
#[inline]
pub(super) fn new_state(path: SimdPath, grid: &Grid) -> Option<State> {
    // SAFETY: `solve_on` checked that the CPU has the path's features.
    unsafe { with_path!(path, P => P::new_state(grid)) }
}

/// Run the search copy of `path` (checked by [`solve_on`](super::solve_on): the CPU supports it).
#[inline]
pub(super) fn run<const CAREFUL: bool, const RULE: u8>(
    path: SimdPath,
    st: State,
    tally: &mut Tally,
) {
    // SAFETY: `solve_on` checked that the CPU has the path's features.
    unsafe { with_path!(path, P => P::search::<CAREFUL, RULE>(st, tally, SCAN)) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symmetry::Rng;

    /// The AVX2 changed-word mask equals the portable one, whichever words differ (each
    /// word alone, and random sets, the last three words included).
    #[test]
    fn changed_words_agree_on_every_path() {
        if !SimdPath::Avx2.supported() {
            eprintln!("skipped: this CPU has no AVX2");
            return;
        }
        let mut rng = Rng::new(27, 0);
        let prev: [u32; 27] = std::array::from_fn(|_| rng.below(1 << 27) as u32);
        let mut cases: Vec<u32> = (0..27).map(|i| 1 << i).collect();
        cases.extend([0, (1 << 27) - 1, 0b111 << 24]);
        cases.extend((0..1000).map(|_| rng.below(1 << 27) as u32));
        for differ in cases {
            let mut cand = prev;
            for (i, w) in cand.iter_mut().enumerate() {
                if differ >> i & 1 == 1 {
                    *w ^= 1 << rng.below(27);
                }
            }
            // SAFETY: AVX2 checked above.
            let avx2 = unsafe { changed_words_avx2(&cand, &prev) };
            assert_eq!(avx2, changed_words_portable(&cand, &prev));
            assert_eq!(avx2, differ);
        }
    }

    /// The PEXT occupancy equals the table one on every mini-row pattern (each band word's
    /// 512 patterns of occupied mini-rows, each mini-row by one of its cells or all three),
    /// and on random words, sparse and dense.
    #[test]
    fn occupancy_agrees_on_every_path() {
        if !SimdPath::Bmi2.supported() {
            eprintln!("skipped: this CPU has no BMI2");
            return;
        }
        let lookup = super::super::bands::occupancy;
        let mut words = Vec::new();
        for rows in 0..512u32 {
            for cell in 0..4 {
                // Mini-row k is bits 3k..3k+2: set its cell `cell` (all three for 3).
                let fill = if cell == 3 { 0b111 } else { 1 << cell };
                words.push(
                    (0..9)
                        .filter(|k| rows >> k & 1 == 1)
                        .fold(0, |w, k| w | fill << (3 * k)),
                );
            }
        }
        let mut rng = Rng::new(9, 0);
        words.extend((0..100_000).map(|_| {
            (rng.next_u64() & rng.next_u64() | rng.next_u64() >> 40) as u32 & 0o777_777_777
        }));
        for w in words {
            // SAFETY: BMI2 checked above.
            assert_eq!(unsafe { occupancy_bmi2(w) }, lookup(w), "{w:#o}");
        }
    }
}
