//! The one bit set of the chain producers: a set of potentials ([`PotSet`], a bit per
//! potential id, [`links`](super::links)) or of candidates ([`CandSet`], a bit per
//! `cell * 9 + digit`), in fixed words, `Copy`, compared word by word.
//!
//! ```text
//!  member i  →  word i / 64, bit i % 64         PotSet: 23 words (1,458 potentials)
//!                                               CandSet: 12 words (729 candidates)
//! ```
//!
//! The same operations on bare word slices ([`has_in`], [`insert_in`], [`intersect_in`],
//! [`union_in`])
//! serve the reach sets of [`Closure`](super::closure::Closure), whose width is the step's
//! count of potentials (far fewer than 1,458 late in a puzzle: the union of reach sets is
//! its costly part).
//!
//! Layer: shared, at the bottom with [`links`](super::links): every module above uses it.

use super::links::POTENTIALS;
use crate::engines::rater::board::{cells_of, digits_of, CELLS};

/// A set of small numbers, a bit each, in `W` words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bits<const W: usize>([u64; W]);

/// A set of potentials (bit `p` for potential id `p`).
pub(crate) type PotSet = Bits<{ POTENTIALS.div_ceil(64) }>;

/// A set of candidates (bit `cell * 9 + digit`).
pub(crate) type CandSet = Bits<{ (CELLS * 9).div_ceil(64) }>;

impl<const W: usize> Bits<W> {
    /// The empty set.
    pub(crate) const EMPTY: Bits<W> = Bits([0; W]);

    /// Whether `i` is in.
    #[inline]
    pub(crate) fn has(&self, i: impl Into<usize>) -> bool {
        has_in(&self.0, i.into())
    }

    /// Puts `i` in.
    #[inline]
    pub(crate) fn insert(&mut self, i: impl Into<usize>) {
        insert_in(&mut self.0, i.into());
    }

    /// Empties the word holding `i`: a sparse set is emptied member by member this way
    /// (each member's word emptied, the others in it going too), cheaper than all words.
    #[inline]
    pub(crate) fn clear_word_of(&mut self, i: impl Into<usize>) {
        self.0[i.into() >> 6] = 0;
    }

    /// Whether nothing is in.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Keeps only what `other` holds too; whether anything is left.
    #[inline]
    pub(crate) fn intersect(&mut self, other: &Bits<W>) -> bool {
        intersect_in(&mut self.0, &other.0)
    }

    /// The members, in increasing order.
    #[inline]
    pub(crate) fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let i = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    i
                })
            })
        })
    }

    /// The words, for hashing.
    #[inline]
    pub(crate) fn words(&self) -> &[u64; W] {
        &self.0
    }
}

impl CandSet {
    /// Adds `cells` of digit `d` (0-based).
    pub(crate) fn add_cells(&mut self, cells: u128, d: usize) {
        for c in cells_of(cells) {
            self.insert(c * 9 + d);
        }
    }

    /// Adds the digits of `mask` in cell `c`.
    pub(crate) fn add_digits(&mut self, c: usize, mask: u16) {
        for d in digits_of(mask) {
            self.insert(c * 9 + d);
        }
    }
}

/// Whether `i` is in the set of `words`.
#[inline]
pub(crate) fn has_in(words: &[u64], i: usize) -> bool {
    words[i >> 6] >> (i & 63) & 1 != 0
}

/// Puts `i` in the set of `words`.
#[inline]
pub(crate) fn insert_in(words: &mut [u64], i: usize) {
    words[i >> 6] |= 1 << (i & 63);
}

/// `into` &= `from` (as long); whether anything is left.
#[inline]
pub(crate) fn intersect_in(into: &mut [u64], from: &[u64]) -> bool {
    let mut any = 0;
    for (c, s) in into.iter_mut().zip(from) {
        *c &= s;
        any |= *c;
    }
    any != 0
}

/// `into` |= `from` (as long).
#[inline]
pub(crate) fn union_in(into: &mut [u64], from: &[u64]) {
    for (c, s) in into.iter_mut().zip(from) {
        *c |= s;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_come_back_in_order() {
        let mut s = PotSet::EMPTY;
        assert!(s.is_empty());
        for p in [1457u16, 0, 64, 63, 700] {
            s.insert(p);
        }
        assert!(s.has(64u16) && !s.has(65u16));
        assert_eq!(s.iter().collect::<Vec<_>>(), [0, 63, 64, 700, 1457]);
        let mut t = PotSet::EMPTY;
        t.insert(700u16);
        assert!(t.clone().intersect(&s));
        let mut u = PotSet::EMPTY;
        u.insert(701u16);
        assert!(!u.intersect(&s) && u.is_empty());
        s.clear_word_of(700u16);
        assert!(!s.has(700u16) && s.has(1457u16));
    }

    #[test]
    fn candidates_by_cell_and_digit() {
        let mut s = CandSet::EMPTY;
        s.add_cells(1 << 80 | 1, 8);
        s.add_digits(40, 0b101);
        assert_eq!(s.iter().collect::<Vec<_>>(), [8, 360, 362, 728]);
    }
}
