//! The instruction-set paths of the bitboard solver: the search is compiled once per path,
//! each copy inside a function with the path's `#[target_feature]`s, and [`run`] calls the
//! copy of the path [`SimdPath`] chose (see `simd.rs` for the choice and the measurements).

use super::{search_body, State};
use crate::solver::simd::SimdPath;
use crate::solver::tables::PERM9;
use crate::solver::Tally;

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

    /// The search, compiled for this path.
    ///
    /// # Safety
    /// The CPU supports the path this implementation compiles.
    unsafe fn search<const CAREFUL: bool, const RULE: u8>(st: State, tally: &mut Tally);
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

/// The build target's own instructions.
pub(super) struct Portable;

// SAFETY: uses nothing beyond the build target.
unsafe impl Isa for Portable {
    #[inline(always)]
    unsafe fn stack_filter(x: u32) -> u32 {
        stack_filter_portable(x)
    }
    #[inline]
    unsafe fn search<const CAREFUL: bool, const RULE: u8>(st: State, tally: &mut Tally) {
        search_body::<Portable, CAREFUL, RULE>(st, tally);
    }
}

/// Declares an x86-64 path: a marker type whose search is a copy of [`search_body`] compiled
/// with `$features` enabled.
macro_rules! x86_path {
    ($name:ident, $search:ident, $filter:ident, $features:literal) => {
        #[doc = concat!("The `", $features, "` path.")]
        #[cfg(target_arch = "x86_64")]
        pub(super) struct $name;

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $features)]
        unsafe fn $search<const CAREFUL: bool, const RULE: u8>(st: State, tally: &mut Tally) {
            search_body::<$name, CAREFUL, RULE>(st, tally);
        }

        // SAFETY: the features are used only inside `$search` and `stack_filter_bmi2`, whose
        // callers promise (via this trait's contract) that the CPU has them.
        #[cfg(target_arch = "x86_64")]
        unsafe impl Isa for $name {
            #[inline(always)]
            unsafe fn stack_filter(x: u32) -> u32 {
                $filter(x)
            }
            #[inline(always)]
            unsafe fn search<const CAREFUL: bool, const RULE: u8>(st: State, tally: &mut Tally) {
                $search::<CAREFUL, RULE>(st, tally);
            }
        }
    };
}

x86_path!(
    Avx2,
    search_avx2,
    stack_filter_portable,
    "bmi1,popcnt,lzcnt,avx,avx2"
);
x86_path!(
    Bmi2,
    search_bmi2,
    stack_filter_bmi2,
    "bmi1,bmi2,popcnt,lzcnt,avx,avx2"
);

/// Run the search copy of `path` (checked by [`solve_on`](super::solve_on): the CPU supports it).
#[inline]
pub(super) fn run<const CAREFUL: bool, const RULE: u8>(
    path: SimdPath,
    st: State,
    tally: &mut Tally,
) {
    // SAFETY: `solve_on` checked that the CPU has the path's features.
    unsafe {
        match path {
            #[cfg(target_arch = "x86_64")]
            SimdPath::Bmi2 => Bmi2::search::<CAREFUL, RULE>(st, tally),
            #[cfg(target_arch = "x86_64")]
            SimdPath::Avx2 => Avx2::search::<CAREFUL, RULE>(st, tally),
            _ => Portable::search::<CAREFUL, RULE>(st, tally),
        }
    }
}
