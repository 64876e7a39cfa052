//! Four `u32` lanes, one per band (the fourth is padding), for the passes that count over
//! the 9 digit words of all three bands at once (naked singles, mini-row counting): SSE2 on
//! x86-64, where it is part of the baseline (so every path has it), plain arrays elsewhere.
//! The band words of digit `d` are `cand[d * 3..d * 3 + 3]`, so one unaligned load takes a
//! digit's three bands.

/// Four `u32` lanes.
#[derive(Clone, Copy)]
pub(super) struct Lanes(LanesRepr);

#[cfg(target_arch = "x86_64")]
type LanesRepr = std::arch::x86_64::__m128i;
#[cfg(not(target_arch = "x86_64"))]
type LanesRepr = [u32; 4];

#[cfg(target_arch = "x86_64")]
impl Lanes {
    pub(super) const ZERO: Lanes =
        Lanes(unsafe { std::mem::transmute::<[u32; 4], LanesRepr>([0; 4]) });

    #[inline(always)]
    pub(super) fn splat(v: u32) -> Lanes {
        use std::arch::x86_64::_mm_set1_epi32;
        // SAFETY: SSE2 is part of the x86-64 baseline (as for the calls below).
        Lanes(unsafe { _mm_set1_epi32(v as i32) })
    }

    /// Words `at..at + 4` of `a`.
    #[inline(always)]
    pub(super) fn load(a: &[u32; 28], at: usize) -> Lanes {
        use std::arch::x86_64::_mm_loadu_si128;
        let lanes = &a[at..at + 4];
        // SAFETY: `lanes` holds the 16 bytes read (an unaligned load).
        Lanes(unsafe { _mm_loadu_si128(lanes.as_ptr().cast()) })
    }

    #[inline(always)]
    pub(super) fn and(self, o: Lanes) -> Lanes {
        Lanes(unsafe { std::arch::x86_64::_mm_and_si128(self.0, o.0) })
    }

    #[inline(always)]
    pub(super) fn or(self, o: Lanes) -> Lanes {
        Lanes(unsafe { std::arch::x86_64::_mm_or_si128(self.0, o.0) })
    }

    #[inline(always)]
    pub(super) fn add(self, o: Lanes) -> Lanes {
        Lanes(unsafe { std::arch::x86_64::_mm_add_epi32(self.0, o.0) })
    }

    #[inline(always)]
    pub(super) fn shr<const N: i32>(self) -> Lanes {
        Lanes(unsafe { std::arch::x86_64::_mm_srli_epi32::<N>(self.0) })
    }

    #[inline(always)]
    pub(super) fn shl<const N: i32>(self) -> Lanes {
        Lanes(unsafe { std::arch::x86_64::_mm_slli_epi32::<N>(self.0) })
    }

    #[inline(always)]
    pub(super) fn get(self) -> [u32; 4] {
        // SAFETY: any 16 bytes are four valid `u32`s.
        unsafe { std::mem::transmute::<LanesRepr, [u32; 4]>(self.0) }
    }

    /// The three band words of digit `d` in `words` (lanes 0-2; lane 3 is the next
    /// digit's first word, or 0 for the last digit).
    #[inline(always)]
    pub(super) fn digit(words: &[u32; 27], d: usize) -> Lanes {
        use std::arch::x86_64::{_mm_loadu_si128, _mm_srli_si128};
        if d < 8 {
            let lanes = &words[d * 3..d * 3 + 4];
            // SAFETY: `lanes` holds the 16 bytes read (an unaligned load).
            Lanes(unsafe { _mm_loadu_si128(lanes.as_ptr().cast()) })
        } else {
            // The last four words, moved down one lane.
            let lanes = &words[23..27];
            // SAFETY: `lanes` holds the 16 bytes read; SSE2 as above.
            Lanes(unsafe { _mm_srli_si128::<4>(_mm_loadu_si128(lanes.as_ptr().cast())) })
        }
    }

    /// `words` in lanes 0-2, lane 3 zero.
    #[inline(always)]
    pub(super) fn bands(words: [u32; 3]) -> Lanes {
        let [a, b, c] = words.map(|w| w as i32);
        Lanes(unsafe { std::arch::x86_64::_mm_set_epi32(0, c, b, a) })
    }

    /// `self & !o`.
    #[inline(always)]
    pub(super) fn and_not(self, o: Lanes) -> Lanes {
        Lanes(unsafe { std::arch::x86_64::_mm_andnot_si128(o.0, self.0) })
    }
}

#[cfg(not(target_arch = "x86_64"))]
impl Lanes {
    pub(super) const ZERO: Lanes = Lanes([0; 4]);

    #[inline(always)]
    pub(super) fn splat(v: u32) -> Lanes {
        Lanes([v; 4])
    }

    /// Words `at..at + 4` of `a`.
    #[inline(always)]
    pub(super) fn load(a: &[u32; 28], at: usize) -> Lanes {
        Lanes(a[at..at + 4].try_into().expect("4 words"))
    }

    #[inline(always)]
    pub(super) fn zip(self, o: Lanes, f: impl Fn(u32, u32) -> u32) -> Lanes {
        Lanes(std::array::from_fn(|k| f(self.0[k], o.0[k])))
    }

    #[inline(always)]
    pub(super) fn and(self, o: Lanes) -> Lanes {
        self.zip(o, |a, b| a & b)
    }

    #[inline(always)]
    pub(super) fn or(self, o: Lanes) -> Lanes {
        self.zip(o, |a, b| a | b)
    }

    #[inline(always)]
    pub(super) fn add(self, o: Lanes) -> Lanes {
        self.zip(o, u32::wrapping_add)
    }

    #[inline(always)]
    pub(super) fn shr<const N: i32>(self) -> Lanes {
        Lanes(self.0.map(|a| a >> N))
    }

    #[inline(always)]
    pub(super) fn shl<const N: i32>(self) -> Lanes {
        Lanes(self.0.map(|a| a << N))
    }

    #[inline(always)]
    pub(super) fn get(self) -> [u32; 4] {
        self.0
    }

    /// The three band words of digit `d` in `words` (lanes 0-2; lane 3 is the next
    /// digit's first word, or 0 for the last digit).
    #[inline(always)]
    pub(super) fn digit(words: &[u32; 27], d: usize) -> Lanes {
        Lanes(std::array::from_fn(|k| {
            words.get(d * 3 + k).copied().unwrap_or(0)
        }))
    }

    /// `words` in lanes 0-2, lane 3 zero.
    #[inline(always)]
    pub(super) fn bands(words: [u32; 3]) -> Lanes {
        Lanes([words[0], words[1], words[2], 0])
    }

    /// `self & !o`.
    #[inline(always)]
    pub(super) fn and_not(self, o: Lanes) -> Lanes {
        self.zip(o, |a, b| a & !b)
    }
}
