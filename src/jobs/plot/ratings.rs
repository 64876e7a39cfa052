//! The ER histogram of `rate --stats-json` summaries as a [`BarChart`]: a group per 0.1 of
//! rating from the lowest to the highest ER of the inputs (empty buckets keep their row, so
//! the shape is true), a bar per input giving its share of the rated puzzles.

use super::charts::percent;
use super::{Bar, BarChart, Scale, Series};
use crate::jobs::bench::export::grouped;
use crate::jobs::rate::summary::RatingBucket;

/// A bucket's rating in tenths (the summary writes one decimal).
fn tenths(b: &RatingBucket) -> i64 {
    (b.er * 10.0).round() as i64
}

/// How hard datasets are for a person: the share of rated puzzles per ER value, one series per
/// `(name, buckets)` input (the `er_histogram` of `rate --stats-json`).
pub fn rating_chart(inputs: &[(String, Vec<RatingBucket>)]) -> BarChart {
    let levels = levels(inputs);
    let capped: u64 = rated(inputs).map(|b| b.capped).sum();
    let series = inputs
        .iter()
        .map(|(name, buckets)| series(name, buckets, &levels))
        .collect();
    let title = match inputs {
        [(name, _)] => format!("Sudoku Explainer rating (ER): {name}"),
        _ => "Sudoku Explainer rating (ER), datasets compared".to_string(),
    };
    let mut note = "ER: the hardest step of the path (rate --stats-json)".to_string();
    if capped > 0 {
        note.push_str("; capped puzzles are counted at the rating reached, a lower bound");
    }
    BarChart {
        title,
        value_axis: "% of rated puzzles".into(),
        group_axis: "ER".into(),
        groups: levels
            .iter()
            .map(|l| format!("{}.{}", l / 10, l % 10))
            .collect(),
        series,
        scale: Scale::Linear,
        note: Some(note),
    }
}

/// The buckets of all inputs that hold rated puzzles.
fn rated(inputs: &[(String, Vec<RatingBucket>)]) -> impl Iterator<Item = &RatingBucket> {
    inputs
        .iter()
        .flat_map(|(_, b)| b.iter())
        .filter(|b| b.count > 0)
}

/// Every tenth of rating from the lowest to the highest ER of the inputs (none when nothing
/// was rated).
fn levels(inputs: &[(String, Vec<RatingBucket>)]) -> Vec<i64> {
    let (lo, hi) = rated(inputs).fold((i64::MAX, i64::MIN), |(lo, hi), b| {
        (lo.min(tenths(b)), hi.max(tenths(b)))
    });
    if lo <= hi {
        (lo..=hi).collect()
    } else {
        Vec::new()
    }
}

/// The bars of input `name`: at each level, its share of its rated puzzles (none for an
/// empty bucket).
fn series(name: &str, buckets: &[RatingBucket], levels: &[i64]) -> Series {
    let total: u64 = buckets.iter().map(|b| b.count).sum();
    Series {
        name: format!("{name} ({} rated puzzles)", grouped(total as f64)),
        bars: levels
            .iter()
            .map(|&level| {
                let b = buckets.iter().find(|b| tenths(b) == level)?;
                let pct = 100.0 * b.count as f64 / total.max(1) as f64;
                let capped = if b.capped > 0 {
                    format!(", {} capped", grouped(b.capped as f64))
                } else {
                    String::new()
                };
                (b.count > 0).then(|| Bar {
                    value: pct,
                    spread: None,
                    label: format!("{} ({}{capped})", percent(pct), grouped(b.count as f64)),
                })
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tenth_between_the_lowest_and_highest_rating_is_a_row() {
        let b = |er, count, capped| RatingBucket { er, count, capped };
        let chart = rating_chart(&[("a".into(), vec![b(1.2, 3, 0), b(1.5, 1, 1)])]);
        assert_eq!(chart.groups, ["1.2", "1.3", "1.4", "1.5"]);
        let bars = &chart.series[0].bars;
        assert_eq!(bars[0].as_ref().unwrap().value, 75.0);
        assert!(bars[1].is_none() && bars[2].is_none());
        assert_eq!(bars[3].as_ref().unwrap().label, "25.0% (1, 1 capped)");
        assert!(chart.note.unwrap().contains("lower bound"));
    }
}
