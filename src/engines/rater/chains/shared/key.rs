//! How SE orders the hints of one chaining producer, and its length bonus.
//!
//! A producer gathers all its hints, then sorts them (a stable sort) by difficulty, then
//! complexity, then a sort key, and the first is taken. So the hint a step takes is the
//! *first discovered* among those with the least `(difficulty, complexity, sort key)`: a
//! running minimum with a strict comparison gives the same hint without storing any other.
//! Difficulties are compared as SE's doubles (`base + bonus`, the bonus summed in steps of
//! 0.1 as SE sums it), so two hints printed alike can still order as SE orders them.
//!
//! Layer: shared, over [`links`](super::links): every chaining producer keeps its best hint
//! by this order.

use super::links::{cell_of, digit_of, is_on};
use crate::engines::rater::board::Board;

/// One hint's place in SE's sort.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Key {
    /// Difficulty, as SE computes it (a double).
    pub difficulty: f64,
    /// Number of distinct potentials on the chains (SE's `getComplexity`).
    pub complexity: u32,
    /// SE's `getSortKey`: 1 double forcing, 2 X, 3 Y, 4 XY, 5 cell, 6 region, 7 contradiction.
    pub sort: u8,
}

impl Key {
    /// Worse than any hint.
    pub(crate) const NONE: Key = Key {
        difficulty: f64::INFINITY,
        complexity: u32::MAX,
        sort: u8::MAX,
    };

    /// The key of a hint of difficulty `base` (before the bonus) on chains of `complexity`.
    #[inline]
    pub(crate) fn new(base: f64, complexity: u32, sort: u8) -> Key {
        Key {
            difficulty: base + length_bonus(complexity).0,
            complexity,
            sort,
        }
    }

    /// Whether SE's sort puts `self` strictly before `other`.
    #[inline]
    pub(crate) fn before(&self, other: &Key) -> bool {
        if self.difficulty < other.difficulty {
            return true;
        }
        if self.difficulty > other.difficulty {
            return false;
        }
        if self.complexity != other.complexity {
            return self.complexity < other.complexity;
        }
        self.sort < other.sort
    }

    /// The difficulty in tenths, rounded as serate prints it (`(int)((x + 0.05) * 10)`).
    pub(crate) fn tenths(&self) -> u8 {
        ((self.difficulty + 0.05) * 10.0) as u8
    }
}

/// SE's length bonus for chains of `complexity` potentials: `(the double it adds, tenths)`.
/// With `L = complexity - 2`, 0.1 each time `L` passes 4, 6, 8, 12, 16, 24, 32, 48, ...
#[inline]
pub(crate) fn length_bonus(complexity: u32) -> (f64, u8) {
    let tenths = match BONUS.get(complexity as usize) {
        Some(&tenths) => tenths,
        None => bonus_tenths(complexity),
    };
    (BONUS_SUM[tenths as usize], tenths)
}

/// The bonus in tenths of `complexity` potentials.
const fn bonus_tenths(complexity: u32) -> u8 {
    let length = complexity as i64 - 2;
    let mut tenths = 0u8;
    let mut ceil = 4i64;
    let mut odd = false;
    while length > ceil {
        tenths += 1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    tenths
}

/// [`bonus_tenths`] of the complexities most chains have.
const BONUS: [u8; 1024] = {
    let mut t = [0u8; 1024];
    let mut i = 0;
    while i < t.len() {
        t[i] = bonus_tenths(i as u32);
        i += 1;
    }
    t
};

/// The bonus of `n` tenths as SE sums it: 0.1 added `n` times (a count of potentials never
/// passes 63 steps: the ceilings grow by a third at least).
const BONUS_SUM: [f64; 64] = {
    let mut t = [0.0f64; 64];
    let mut i = 1;
    while i < t.len() {
        t[i] = t[i - 1] + 0.1;
        i += 1;
    }
    t
};

/// The best hint so far of a forcing-chain level whose hints conclude one potential from the
/// assumptions on one cell or house: `K` tells the level's kinds of chain apart.
#[derive(Clone, Copy)]
pub(crate) struct Found<K> {
    pub key: Key,
    /// The conclusion: a potential ("on": placed, "off": removed).
    pub target: u16,
    /// The cell the assumptions start from.
    pub source: usize,
    pub kind: K,
}

/// Keeps a hint of a level rated `base`, concluding `target`, if it removes something and
/// comes before the best.
#[allow(clippy::too_many_arguments)]
pub(crate) fn offer<K>(
    b: &Board,
    base: f64,
    target: u16,
    complexity: u32,
    sort: u8,
    source: usize,
    kind: K,
    best: &mut Option<Found<K>>,
) {
    let (tc, td) = (cell_of(target), digit_of(target));
    if is_on(target) && b.cands[tc] & !(1 << td) == 0 {
        return;
    }
    let key = Key::new(base, complexity, sort);
    if best.as_ref().is_none_or(|f| key.before(&f.key)) {
        *best = Some(Found {
            key,
            target,
            source,
            kind,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bonus_thresholds() {
        let tenths: Vec<u8> = [
            4, 6, 7, 8, 9, 10, 11, 14, 15, 18, 19, 26, 27, 34, 35, 50, 51,
        ]
        .iter()
        .map(|&c| length_bonus(c).1)
        .collect();
        assert_eq!(tenths, [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8]);
        // Past the table, the same steps; the largest count still has a sum.
        assert_eq!(length_bonus(1023).1, bonus_tenths(1023));
        assert_eq!(length_bonus(1024).1, bonus_tenths(1024));
        assert_eq!((length_bonus(1026).1, length_bonus(1027).1), (16, 17));
        assert!(length_bonus(u32::MAX).1 < 64);
        assert_eq!(length_bonus(11).0, 0.1 + 0.1 + 0.1);
    }

    #[test]
    fn keys_order_as_se_sorts() {
        let a = Key::new(6.6, 8, 2);
        assert_eq!(a.tenths(), 67);
        assert!(Key::new(6.5, 8, 2).before(&a));
        assert!(Key::new(7.0, 4, 4).before(&Key::new(7.0, 5, 2)));
        assert!(Key::new(7.0, 5, 2).before(&Key::new(7.0, 5, 4)));
        assert!(!a.before(&a));
        assert!(a.before(&Key::NONE));
        assert_eq!(Key::new(6.6, 14, 2).tenths(), 69);
        assert_eq!(Key::new(6.6, 15, 2).tenths(), 70);
    }
}
