//! Exact distributions of per-puzzle counts (guesses, nodes): percentiles and a power-of-two
//! histogram for run summaries.
//!
//! Every value is counted exactly: values below [`Distribution::SMALL`] in a fixed array (the
//! common case costs one increment), larger ones in a sorted map whose size is the number of
//! distinct large values (a few thousand at most on real datasets), so memory stays flat
//! however many records a run has.

use std::collections::BTreeMap;

use serde::Serialize;

/// Counts of values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Distribution {
    small: Box<[u64; Distribution::SMALL as usize]>,
    large: BTreeMap<u64, u64>,
    total: u64,
}

impl Default for Distribution {
    fn default() -> Self {
        Distribution {
            small: Box::new([0; Distribution::SMALL as usize]),
            large: BTreeMap::new(),
            total: 0,
        }
    }
}

/// Percentiles of a distribution (nearest rank), and its maximum.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Spread {
    /// Median.
    pub p50: u64,
    /// 90th percentile.
    pub p90: u64,
    /// 99th percentile.
    pub p99: u64,
    /// Largest value.
    pub max: u64,
}

/// One histogram bucket: values `from..=to` (0, 1, 2-3, 4-7, 8-15, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Bucket {
    /// Smallest value of the bucket.
    pub from: u64,
    /// Largest value of the bucket.
    pub to: u64,
    /// How many values fell in it.
    pub count: u64,
}

impl Distribution {
    /// Values below this are counted in a fixed array.
    pub const SMALL: u64 = 256;

    /// Count one value.
    #[inline]
    pub fn add(&mut self, value: u64) {
        self.total += 1;
        if value < Self::SMALL {
            self.small[value as usize] += 1;
        } else {
            *self.large.entry(value).or_insert(0) += 1;
        }
    }

    /// Count the values `other` counted (the result does not depend on the order of adds and
    /// merges).
    pub fn merge(&mut self, other: &Distribution) {
        self.total += other.total;
        for (mine, theirs) in self.small.iter_mut().zip(other.small.iter()) {
            *mine += theirs;
        }
        for (&value, &count) in &other.large {
            *self.large.entry(value).or_insert(0) += count;
        }
    }

    /// How many values were counted.
    pub fn len(&self) -> u64 {
        self.total
    }

    /// True when nothing was counted.
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// (value, count) pairs in increasing order of value.
    fn counts(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        let small = (0..Self::SMALL)
            .map(|v| (v, self.small[v as usize]))
            .filter(|&(_, n)| n > 0);
        small.chain(self.large.iter().map(|(&v, &n)| (v, n)))
    }

    /// The smallest value with at least `fraction` of the values at or below it (nearest
    /// rank); 0 when empty.
    pub fn percentile(&self, fraction: f64) -> u64 {
        let rank = ((fraction * self.total as f64).ceil() as u64).max(1);
        let mut seen = 0;
        for (value, n) in self.counts() {
            seen += n;
            if seen >= rank {
                return value;
            }
        }
        0
    }

    /// p50, p90, p99 and the maximum.
    pub fn spread(&self) -> Spread {
        Spread {
            p50: self.percentile(0.50),
            p90: self.percentile(0.90),
            p99: self.percentile(0.99),
            max: self.counts().last().map_or(0, |(v, _)| v),
        }
    }

    /// Power-of-two buckets from 0 up to the one holding the maximum (empty buckets in
    /// between included, so a chart's axis has no gaps).
    pub fn histogram(&self) -> Vec<Bucket> {
        let bucket_of = |v: u64| if v == 0 { 0 } else { 64 - v.leading_zeros() } as usize;
        let mut buckets: Vec<Bucket> = Vec::new();
        for (value, n) in self.counts() {
            let b = bucket_of(value);
            while buckets.len() <= b {
                let k = buckets.len() as u32;
                let (from, to) = if k == 0 {
                    (0, 0)
                } else {
                    (1u64 << (k - 1), (1u64 << (k - 1)).saturating_mul(2) - 1)
                };
                buckets.push(Bucket { from, to, count: 0 });
            }
            buckets[b].count += n;
        }
        buckets
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_and_histogram_are_exact() {
        let mut d = Distribution::default();
        assert_eq!(d.spread(), Spread::default());
        assert!(d.histogram().is_empty());
        // 0 x50, 1 x30, 5 x15, 300 x4, 100000 x1
        for (v, n) in [(0, 50), (1, 30), (5, 15), (300, 4), (100_000, 1)] {
            for _ in 0..n {
                d.add(v);
            }
        }
        assert_eq!(d.len(), 100);
        assert_eq!(
            d.spread(),
            Spread {
                p50: 0,
                p90: 5,
                p99: 300,
                max: 100_000
            }
        );
        assert_eq!(d.percentile(0.51), 1);
        let h = d.histogram();
        assert_eq!(
            h[0],
            Bucket {
                from: 0,
                to: 0,
                count: 50
            }
        );
        assert_eq!(
            h[1],
            Bucket {
                from: 1,
                to: 1,
                count: 30
            }
        );
        assert_eq!(
            h[2],
            Bucket {
                from: 2,
                to: 3,
                count: 0
            }
        );
        assert_eq!(
            h[3],
            Bucket {
                from: 4,
                to: 7,
                count: 15
            }
        );
        assert_eq!(
            h[9],
            Bucket {
                from: 256,
                to: 511,
                count: 4
            }
        );
        assert_eq!(h.len(), 18);
        assert_eq!(
            h[17],
            Bucket {
                from: 65536,
                to: 131071,
                count: 1
            }
        );
        assert_eq!(h.iter().map(|b| b.count).sum::<u64>(), 100);
    }
}
