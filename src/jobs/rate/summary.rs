//! The run summary of `rate`: totals by status, the ER histogram in 0.1 buckets (capped
//! ratings counted at the rating reached, and counted apart too), how many puzzles each
//! technique was the hardest step of, percentiles, and the hardest puzzle with where it is.
//! Written as JSON by `--stats-json` (which `plot` draws) and printed on stderr.

use serde::{Deserialize, Serialize};

use crate::engines::rater::{Difficulty, Ladder, Rating, Technique};
use crate::jobs::rate::{difficulty_value, RateStats};

/// Distinct difficulties: every `u8` of tenths.
const LEVELS: usize = 256;

/// The run summary (`--stats-json`).
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// The inputs, as named on the command line (`-` for stdin).
    pub inputs: Vec<String>,
    /// The technique ladder: `se`, `sukaku` or `sukaku-default`.
    pub ladder: String,
    /// `--max-rating`, if given.
    pub max_rating: Option<f64>,
    /// Worker threads.
    pub threads: usize,
    /// Wall-clock seconds of the whole run.
    pub seconds: f64,
    /// Records per second of the whole run.
    pub puzzles_per_sec: f64,
    /// Status counts.
    #[serde(flatten)]
    pub stats: RateStats,
    /// Mean ER of the rated puzzles.
    pub er_mean: Option<f64>,
    /// Percentiles of ER over the rated puzzles (nearest rank).
    pub er_spread: Option<RatingSpread>,
    /// The rated puzzle with the highest ER (the first of equals in input order).
    pub hardest: Option<HardestPuzzle>,
    /// Rated puzzles per ER value, 0.1 apart, in increasing order (values no puzzle has are
    /// left out).
    pub er_histogram: Vec<RatingBucket>,
    /// Rated puzzles per technique of their hardest step, most frequent first.
    pub hardest_techniques: Vec<TechniqueCount>,
}

/// p50 / p90 / p99 / max of ER.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RatingSpread {
    /// Median.
    pub p50: f64,
    /// 90th percentile.
    pub p90: f64,
    /// 99th percentile.
    pub p99: f64,
    /// Highest.
    pub max: f64,
}

/// One bucket of the ER histogram.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingBucket {
    /// The ER value (`2.3`).
    pub er: f64,
    /// Rated puzzles with this ER.
    pub count: u64,
    /// Of those, the capped ones (their ER is a lower bound).
    #[serde(default)]
    pub capped: u64,
}

/// How many rated puzzles had their hardest step done by one technique.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TechniqueCount {
    /// The technique's name (`null`: puzzles rated without a step, i.e. full grids).
    pub technique: Option<String>,
    /// Puzzles.
    pub count: u64,
    /// Of those, the capped ones.
    pub capped: u64,
}

/// Where the hardest rated puzzle of a run is.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HardestPuzzle {
    /// Its input.
    pub file: String,
    /// Its line.
    pub line: u64,
    /// Its ER.
    pub er: f64,
    /// Whether its rating is capped.
    pub capped: bool,
    /// The technique of its hardest step.
    pub technique: Option<String>,
}

/// The hardest puzzle while counting: the tenths kept exact for comparisons.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Hardest {
    file: String,
    line: u64,
    er: Difficulty,
    capped: bool,
    technique: Option<Technique>,
}

/// The ratings of a run (or of one worker's share of it): counts that add together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tally {
    /// Puzzles per ER, in tenths.
    er: Box<[u64; LEVELS]>,
    /// Capped puzzles per ER.
    er_capped: Box<[u64; LEVELS]>,
    /// Puzzles (and capped ones) per hardest technique, in [`Technique::ALL`] order, then
    /// the puzzles without a step.
    techniques: Vec<(u64, u64)>,
    /// Sum of ER in tenths (for the mean).
    er_sum: u64,
    hardest: Option<Hardest>,
}

impl Default for Tally {
    fn default() -> Self {
        Tally {
            er: Box::new([0; LEVELS]),
            er_capped: Box::new([0; LEVELS]),
            techniques: vec![(0, 0); Technique::ALL.len() + 1],
            er_sum: 0,
            hardest: None,
        }
    }
}

/// Where `technique` is counted in [`Tally::techniques`].
fn technique_slot(technique: Option<Technique>) -> usize {
    technique
        .and_then(|t| Technique::ALL.iter().position(|&x| x == t))
        .unwrap_or(Technique::ALL.len())
}

impl Tally {
    /// Count the rating of the puzzle on `line` of input `file`. The ratings of one input may
    /// come in any order (each worker counts the records it took): of two equally hard
    /// puzzles, the one on the earlier line is the hardest, as when counted in input order.
    pub fn add(&mut self, file: &str, line: u64, rating: &Rating) {
        let er = usize::from(rating.er.0);
        self.er[er] += 1;
        self.er_capped[er] += u64::from(rating.capped);
        self.er_sum += u64::from(rating.er.0);
        let slot = &mut self.techniques[technique_slot(rating.hardest)];
        slot.0 += 1;
        slot.1 += u64::from(rating.capped);
        let harder = self
            .hardest
            .as_ref()
            .is_none_or(|h| (rating.er, h.line) > (h.er, line));
        if harder {
            self.hardest = Some(Hardest {
                file: file.to_string(),
                line,
                er: rating.er,
                capped: rating.capped,
                technique: rating.hardest,
            });
        }
    }

    /// Rated puzzles counted.
    pub fn rated(&self) -> u64 {
        self.er.iter().sum()
    }

    /// Add the counts of `other`, made from records of a later input than this one's (of two
    /// equally hard puzzles, this one's stays the hardest).
    pub fn append(&mut self, other: Tally) {
        self.merge(other, false);
    }

    /// Add the counts of `other`, made from records of the same input as this one's, in any
    /// order: of two equally hard puzzles, the one on the earlier line is the hardest.
    pub fn merge_same_input(&mut self, other: Tally) {
        self.merge(other, true);
    }

    fn merge(&mut self, other: Tally, same_input: bool) {
        for (mine, theirs) in self.er.iter_mut().zip(other.er.iter()) {
            *mine += theirs;
        }
        for (mine, theirs) in self.er_capped.iter_mut().zip(other.er_capped.iter()) {
            *mine += theirs;
        }
        for (mine, theirs) in self.techniques.iter_mut().zip(&other.techniques) {
            mine.0 += theirs.0;
            mine.1 += theirs.1;
        }
        self.er_sum += other.er_sum;
        let Some(theirs) = other.hardest else { return };
        let better = self.hardest.as_ref().is_none_or(|mine| {
            theirs.er > mine.er || (theirs.er == mine.er && same_input && theirs.line < mine.line)
        });
        if better {
            self.hardest = Some(theirs);
        }
    }

    /// The ER at nearest rank `p` (0 < p ≤ 1) of `n` rated puzzles.
    fn percentile(&self, p: f64, n: u64) -> Difficulty {
        let rank = ((p * n as f64).ceil() as u64).clamp(1, n);
        let mut seen = 0;
        for (tenths, &count) in self.er.iter().enumerate() {
            seen += count;
            if seen >= rank {
                return Difficulty(tenths as u8);
            }
        }
        Difficulty(u8::MAX)
    }
}

/// What a run was asked to do, for its summary.
#[derive(Clone, Debug)]
pub struct RunInfo {
    /// The inputs' names.
    pub inputs: Vec<String>,
    /// The ladder.
    pub ladder: Ladder,
    /// `--max-rating`.
    pub max_rating: Option<Difficulty>,
    /// Worker threads.
    pub threads: usize,
}

impl Summary {
    /// The summary of a run of `seconds` with these totals and ratings.
    pub fn new(info: RunInfo, seconds: f64, stats: RateStats, tally: &Tally) -> Summary {
        let n = tally.rated();
        let spread = (n > 0).then(|| RatingSpread {
            p50: difficulty_value(tally.percentile(0.5, n)),
            p90: difficulty_value(tally.percentile(0.9, n)),
            p99: difficulty_value(tally.percentile(0.99, n)),
            max: difficulty_value(tally.percentile(1.0, n)),
        });
        let er_histogram = (0..LEVELS)
            .filter(|&i| tally.er[i] > 0)
            .map(|i| RatingBucket {
                er: difficulty_value(Difficulty(i as u8)),
                count: tally.er[i],
                capped: tally.er_capped[i],
            })
            .collect();
        let names = Technique::ALL.iter().map(|t| Some(t.name().to_string()));
        let mut hardest_techniques: Vec<TechniqueCount> = names
            .chain([None])
            .zip(&tally.techniques)
            .filter(|(_, &(count, _))| count > 0)
            .map(|(technique, &(count, capped))| TechniqueCount {
                technique,
                count,
                capped,
            })
            .collect();
        // Stable: equal counts stay in ladder order.
        hardest_techniques.sort_by_key(|t| std::cmp::Reverse(t.count));
        Summary {
            inputs: info.inputs,
            ladder: info.ladder.to_string(),
            max_rating: info.max_rating.map(difficulty_value),
            threads: info.threads,
            seconds,
            puzzles_per_sec: stats.records as f64 / seconds.max(1e-9),
            stats,
            er_mean: (n > 0).then(|| tally.er_sum as f64 / n as f64 / 10.0),
            er_spread: spread,
            hardest: tally.hardest.as_ref().map(|h| HardestPuzzle {
                file: h.file.clone(),
                line: h.line,
                er: difficulty_value(h.er),
                capped: h.capped,
                technique: h.technique.map(|t| t.name().to_string()),
            }),
            er_histogram,
            hardest_techniques,
        }
    }
}
