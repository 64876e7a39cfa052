//! Which instruction-set path the bitboard solver runs, chosen once per process.
//!
//! The binary is built for the plain target baseline (SSE2 on x86-64), so it runs on every CPU
//! of a cluster or CI fleet. The solver's hot loop is compiled once per path, each copy inside
//! a `#[target_feature]` function (see `fast.rs`), and the first solve picks a copy with
//! `is_x86_feature_detected!`. The environment variable [`ENV_VAR`]
//! (`SUDOKU_BATCH_SIMD=portable|avx2|bmi2|auto`) forces a path, for tests and for comparing paths; a
//! path the CPU lacks is never used.
//!
//! The paths (figures with their dates and CPUs: `docs/performance.md`, "Portable binary"):
//! - `portable`: the x86-64 baseline (SSE2), or whatever another target guarantees.
//! - `avx2`: BMI1, POPCNT, LZCNT and AVX2; no PEXT. As fast as a `target-cpu=native` build
//!   of the same code on a Zen 2.
//! - `bmi2`: the `avx2` path plus PEXT/PDEP for the column filter. PEXT and PDEP are
//!   microcoded (tens of cycles) on AMD before Zen 3, where this path took 1.5x the time of
//!   `avx2`, so it is chosen only where they are single fast instructions (Intel since
//!   Haswell, AMD since Zen 3). On a Zen 4 it measured best on three of four hard sets;
//!   `avx2` 0.94-1.03 of it, `portable` 0.84-0.91.
//!
//! Lost: an `avx512` path (the `bmi2` copy compiled with AVX-512 F, VL and BW as well),
//! 0.94-0.99 of `bmi2` on a Zen 4. The search is scalar dependency chains: wider vectors have
//! little to work on. A `target-cpu=native` build (AVX-512, Zen 4 tuning) measured within the
//! runs' spread of this binary.

use std::sync::atomic::{AtomicU8, Ordering};

use serde::Serialize;

/// The environment variable that forces a path (read once, at the first solve).
pub const ENV_VAR: &str = "SUDOKU_BATCH_SIMD";

/// An instruction-set path of the solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SimdPath {
    /// Whatever the build target guarantees: shifts and a table instead of PEXT/PDEP.
    Portable,
    /// BMI1, POPCNT, LZCNT and AVX2, without PEXT/PDEP.
    Avx2,
    /// The AVX2 path plus BMI2's PEXT/PDEP for the column filter.
    Bmi2,
}

impl SimdPath {
    /// Every path, most portable first.
    pub const ALL: [SimdPath; 3] = [SimdPath::Portable, SimdPath::Avx2, SimdPath::Bmi2];

    /// The name used in `--version`, `bench --json` and [`ENV_VAR`].
    pub fn name(self) -> &'static str {
        match self {
            SimdPath::Portable => "portable",
            SimdPath::Avx2 => "avx2",
            SimdPath::Bmi2 => "bmi2",
        }
    }

    /// Whether this CPU can run the path (fast or not).
    pub fn supported(self) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            let avx2 = || {
                is_x86_feature_detected!("bmi1")
                    && is_x86_feature_detected!("popcnt")
                    && is_x86_feature_detected!("lzcnt")
                    && is_x86_feature_detected!("avx")
                    && is_x86_feature_detected!("avx2")
            };
            match self {
                SimdPath::Portable => true,
                SimdPath::Avx2 => avx2(),
                SimdPath::Bmi2 => avx2() && is_x86_feature_detected!("bmi2"),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self == SimdPath::Portable
        }
    }

    /// The path this CPU runs best: BMI2 where PEXT is fast, else AVX2, else portable.
    pub fn detected() -> SimdPath {
        if SimdPath::Bmi2.supported() && !slow_pext() {
            SimdPath::Bmi2
        } else if SimdPath::Avx2.supported() {
            SimdPath::Avx2
        } else {
            SimdPath::Portable
        }
    }

    /// The path named by `value` (as [`ENV_VAR`] spells it); `None` for `auto`, empty or
    /// unknown text.
    pub fn parse(value: &str) -> Option<SimdPath> {
        let value = value.trim();
        SimdPath::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(value))
    }

    /// The path to use given the text of [`ENV_VAR`]: the requested one when the CPU supports
    /// it (even where it is slow), else the detected one.
    pub fn choose(requested: Option<&str>) -> SimdPath {
        match requested.and_then(SimdPath::parse) {
            Some(p) if p.supported() => p,
            _ => SimdPath::detected(),
        }
    }

    /// The path this process runs: chosen at the first call, then fixed. The first call reads
    /// [`ENV_VAR`] (a set value is copied into a `String`: the only allocation on the solving
    /// path, once per process; programs call this at start-up).
    #[inline]
    pub fn active() -> SimdPath {
        match ACTIVE.load(Ordering::Relaxed) {
            0 => SimdPath::init(),
            n => SimdPath::ALL[usize::from(n - 1)],
        }
    }

    #[cold]
    fn init() -> SimdPath {
        let path = SimdPath::choose(std::env::var(ENV_VAR).ok().as_deref());
        // Threads racing here all compute the same value.
        ACTIVE.store(path as u8 + 1, Ordering::Relaxed);
        path
    }
}

impl std::fmt::Display for SimdPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// 0 until the first solve, then the active path's index + 1.
static ACTIVE: AtomicU8 = AtomicU8::new(0);

/// PEXT/PDEP are microcoded on AMD (and Hygon) CPUs before Zen 3 (family 0x19): the BMI2 path
/// is 1.5x slower than the others there (measured, see the module docs).
#[cfg(target_arch = "x86_64")]
fn slow_pext() -> bool {
    use std::arch::x86_64::__cpuid;
    // SAFETY: CPUID exists on every x86-64 CPU (newer compilers call `__cpuid` safe).
    #[allow(unused_unsafe)]
    let (vendor, signature) = unsafe { (__cpuid(0), __cpuid(1).eax) };
    let mut name = [0u8; 12];
    name[..4].copy_from_slice(&vendor.ebx.to_le_bytes());
    name[4..8].copy_from_slice(&vendor.edx.to_le_bytes());
    name[8..].copy_from_slice(&vendor.ecx.to_le_bytes());
    let base = (signature >> 8) & 0xF;
    let family = if base == 0xF {
        base + ((signature >> 20) & 0xFF)
    } else {
        base
    };
    matches!(&name, b"AuthenticAMD" | b"HygonGenuine") && family < 0x19
}

#[cfg(not(target_arch = "x86_64"))]
fn slow_pext() -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_means_auto() {
        for p in SimdPath::ALL {
            assert_eq!(SimdPath::parse(p.name()), Some(p));
        }
        assert_eq!(SimdPath::parse(" BMI2 "), Some(SimdPath::Bmi2));
        assert_eq!(SimdPath::parse("auto"), None);
        assert_eq!(SimdPath::parse("sse9"), None);
    }

    #[test]
    fn a_forced_path_is_used_only_if_supported() {
        let best = SimdPath::detected();
        assert!(best.supported());
        assert_eq!(SimdPath::choose(None), best);
        assert_eq!(SimdPath::choose(Some("auto")), best);
        assert_eq!(SimdPath::choose(Some("portable")), SimdPath::Portable);
        for p in SimdPath::ALL {
            let forced = SimdPath::choose(Some(p.name()));
            assert_eq!(forced == p, p.supported(), "{p} -> {forced}");
        }
    }
}
