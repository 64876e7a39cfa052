//! From saved JSON to a [`BarChart`]: bench results (one run, or several compared), and the
//! `--stats-json` summaries of `solve` (guesses histogram) and `verify` (problem counts); the
//! `rate` summaries' ER histogram is drawn by [`super::ratings`].

use serde::Deserialize;
use serde_json::Value;

use super::{Bar, BarChart, PlotError, Scale, Series};
use crate::distribution::Bucket;
use crate::jobs::bench::export::grouped;
use crate::jobs::bench::BenchResult;
use crate::jobs::rate::summary::RatingBucket;

/// The fields of a bench result a chart needs. Read from `bench --json` lines and
/// `--export-json` files, old ones too: fields added since (spread, provenance) are optional.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct BenchPoint {
    /// Dataset name.
    pub dataset: String,
    /// Algorithm name.
    pub algorithm: String,
    /// Mean throughput.
    pub puzzles_per_sec: f64,
    /// Standard deviation over the runs (0 when not recorded).
    #[serde(default)]
    pub puzzles_per_sec_stddev: f64,
    /// Timed runs (1 when not recorded).
    #[serde(default = "one")]
    pub runs: u32,
    /// Worker threads.
    #[serde(default)]
    pub threads: Option<usize>,
    /// The build's git commit.
    #[serde(default)]
    pub git_commit: Option<String>,
    /// The CPU model.
    #[serde(default)]
    pub cpu: Option<String>,
    /// When it was measured.
    #[serde(default)]
    pub date: Option<String>,
}

fn one() -> u32 {
    1
}

impl From<&BenchResult> for BenchPoint {
    fn from(r: &BenchResult) -> BenchPoint {
        BenchPoint {
            dataset: r.dataset.clone(),
            algorithm: r.algorithm.name().to_string(),
            puzzles_per_sec: r.puzzles_per_sec,
            puzzles_per_sec_stddev: r.puzzles_per_sec_stddev,
            runs: r.runs,
            threads: Some(r.threads),
            git_commit: Some(r.provenance.git_commit.clone()),
            cpu: Some(r.provenance.cpu.clone()),
            date: Some(r.provenance.date.clone()),
        }
    }
}

impl BenchPoint {
    fn bar(&self) -> Bar {
        let (mean, sd) = (self.puzzles_per_sec, self.puzzles_per_sec_stddev);
        Bar {
            value: mean,
            spread: (self.runs > 1).then_some((mean - sd, mean + sd)),
            label: if self.runs > 1 {
                format!("{} ± {}/s", grouped(mean), grouped(sd))
            } else {
                format!("{}/s", grouped(mean))
            },
        }
    }

    /// "a1b2c3d4e5f6 · AMD EPYC 7B13 · 2 threads · 2026-11-30": where the figure comes from.
    fn origin(&self) -> String {
        let mut parts = Vec::new();
        if let Some(c) = &self.git_commit {
            parts.push(format!("commit {c}"));
        }
        if let Some(c) = &self.cpu {
            parts.push(c.clone());
        }
        if let Some(t) = self.threads {
            parts.push(format!("{t} thread{}", if t == 1 { "" } else { "s" }));
        }
        if let Some(d) = &self.date {
            parts.push(d.get(..10).unwrap_or(d).to_string());
        }
        parts.join(" · ")
    }
}

/// What a JSON input holds.
#[derive(Clone, Debug, PartialEq)]
pub enum PlotInput {
    /// Bench results (`--export-json`, or `--json` lines).
    Bench(Vec<BenchPoint>),
    /// A `solve --stats-json` summary: puzzles per guesses bucket.
    Guesses {
        /// The file name of the summary's input, when it had exactly one.
        dataset: Option<String>,
        /// The histogram.
        buckets: Vec<Bucket>,
    },
    /// A `verify --stats-json` summary: records per problem, and the records that passed.
    Problems(Vec<(String, u64)>),
    /// A `rate --stats-json` summary: rated puzzles per ER value.
    Ratings {
        /// The file name of the summary's input, when it had exactly one.
        dataset: Option<String>,
        /// The histogram.
        buckets: Vec<RatingBucket>,
    },
}

/// Recognise `text`: a bench export (`{"results": [...]}`), one bench result per line, or a
/// `solve` / `verify` `--stats-json` summary.
pub fn parse_input(text: &str) -> Result<PlotInput, PlotError> {
    let Ok(value) = serde_json::from_str::<Value>(text) else {
        // Not one JSON document: bench --json lines.
        let points = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(serde_json::from_str::<BenchPoint>)
            .collect::<Result<Vec<_>, _>>()?;
        return Ok(PlotInput::Bench(points));
    };
    if let Some(results) = value.get("results") {
        return Ok(PlotInput::Bench(Vec::deserialize(results)?));
    }
    if let Some(histogram) = value.get("guesses_histogram") {
        return Ok(PlotInput::Guesses {
            dataset: only_input(&value),
            buckets: Vec::deserialize(histogram)?,
        });
    }
    if let Some(histogram) = value.get("er_histogram") {
        return Ok(PlotInput::Ratings {
            dataset: only_input(&value),
            buckets: Vec::deserialize(histogram)?,
        });
    }
    if let (Some(problems), Some(passed)) = (value.get("problems"), value.get("passed")) {
        let mut counts = vec![("passed".to_string(), u64::deserialize(passed)?)];
        let problems: std::collections::BTreeMap<String, u64> = Deserialize::deserialize(problems)?;
        counts.extend(problems);
        return Ok(PlotInput::Problems(counts));
    }
    // A single bench result (one line of --json); solve summaries have these fields too,
    // hence last.
    if value.get("puzzles_per_sec").is_some() && value.get("dataset").is_some() {
        return Ok(PlotInput::Bench(vec![BenchPoint::deserialize(&value)?]));
    }
    Err(PlotError::Unknown(
        "expected bench results, or a summary with guesses_histogram, er_histogram or problems"
            .into(),
    ))
}

/// The file name of a summary's input, when it names exactly one.
fn only_input(summary: &Value) -> Option<String> {
    let inputs = summary.get("inputs").and_then(Value::as_array);
    match inputs.map(Vec::as_slice) {
        Some([Value::String(path)]) => std::path::Path::new(path)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned()),
        _ => None,
    }
}

/// Names in first-seen order, without repeats.
fn distinct<'a>(names: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for n in names {
        if !out.iter().any(|o| o == n) {
            out.push(n.to_string());
        }
    }
    out
}

/// Throughput of one run of `bench`: a group per dataset, a bar per algorithm.
pub fn bench_chart(points: &[BenchPoint], scale: Scale) -> BarChart {
    let datasets = distinct(points.iter().map(|p| p.dataset.as_str()));
    let algorithms = distinct(points.iter().map(|p| p.algorithm.as_str()));
    let series = algorithms
        .iter()
        .map(|a| Series {
            name: a.clone(),
            bars: datasets
                .iter()
                .map(|d| {
                    points
                        .iter()
                        .find(|p| &p.dataset == d && &p.algorithm == a)
                        .map(BenchPoint::bar)
                })
                .collect(),
        })
        .collect();
    let runs = points.iter().map(|p| p.runs).max().unwrap_or(1);
    let mut chart = BarChart {
        title: "Solve throughput per dataset and algorithm".into(),
        value_axis: String::new(),
        group_axis: "dataset".into(),
        groups: datasets,
        series,
        scale,
        note: points.first().map(BenchPoint::origin),
    };
    chart.value_axis = value_axis(&chart, runs);
    // One algorithm: the legend would only repeat the title.
    if algorithms.len() == 1 {
        chart.title = format!("Solve throughput of `{}` per dataset", algorithms[0]);
    }
    chart
}

fn value_axis(chart: &BarChart, runs: u32) -> String {
    let spread = if runs > 1 {
        format!(", mean ± σ of {runs} runs")
    } else {
        String::new()
    };
    let log = if chart.is_log() { ", log scale" } else { "" };
    format!("puzzles per second (more is better{spread}{log})")
}

/// Several saved runs side by side: a group per dataset (× algorithm, when several), a bar
/// per run, labelled `name` (a file name) and where it was measured.
pub fn compare_chart(runs: &[(String, Vec<BenchPoint>)], scale: Scale) -> BarChart {
    let all = || runs.iter().flat_map(|(_, points)| points.iter());
    let algorithms = distinct(all().map(|p| p.algorithm.as_str()));
    let key = |p: &BenchPoint| {
        if algorithms.len() > 1 {
            format!("{} · {}", p.dataset, p.algorithm)
        } else {
            p.dataset.clone()
        }
    };
    let keys: Vec<String> = all().map(key).collect();
    let groups = distinct(keys.iter().map(String::as_str));
    let series = runs
        .iter()
        .map(|(name, points)| Series {
            name: match points.first().map(BenchPoint::origin) {
                Some(o) if !o.is_empty() => format!("{name}: {o}"),
                _ => name.clone(),
            },
            bars: groups
                .iter()
                .map(|g| points.iter().find(|p| &key(p) == g).map(BenchPoint::bar))
                .collect(),
        })
        .collect();
    let most_runs = all().map(|p| p.runs).max().unwrap_or(1);
    let mut chart = BarChart {
        title: "Solve throughput, saved runs compared".into(),
        value_axis: String::new(),
        group_axis: if algorithms.len() > 1 {
            "dataset · algorithm".into()
        } else {
            "dataset".into()
        },
        groups,
        series,
        scale,
        note: (algorithms.len() == 1).then(|| format!("algorithm: {}", algorithms[0])),
    };
    chart.value_axis = value_axis(&chart, most_runs);
    chart
}

/// A share for a bar label: "12.3%", and "<0.1%" rather than a "0.0%" that is not zero.
pub(super) fn percent(pct: f64) -> String {
    if pct > 0.0 && pct < 0.05 {
        "<0.1%".to_string()
    } else {
        format!("{pct:.1}%")
    }
}

/// Bucket names as the axis shows them: 0, 1, 2-3, 4-7, ...
fn bucket_name(b: &Bucket) -> String {
    if b.from == b.to {
        b.from.to_string()
    } else {
        format!("{}-{}", b.from, b.to)
    }
}

/// How hard datasets are: the share of puzzles per guesses bucket, a bar per `(name,
/// buckets)` input (the buckets of `solve --stats-json`) and non-empty bucket.
pub fn histogram_chart(inputs: &[(String, Vec<Bucket>)]) -> BarChart {
    let widest = inputs.iter().map(|(_, b)| b.len()).max().unwrap_or(0);
    let longest = inputs
        .iter()
        .map(|(_, b)| b)
        .find(|b| b.len() == widest)
        .cloned()
        .unwrap_or_default();
    let series = inputs
        .iter()
        .map(|(name, buckets)| {
            let total: u64 = buckets.iter().map(|b| b.count).sum();
            Series {
                name: format!("{name} ({} puzzles)", grouped(total as f64)),
                bars: (0..widest)
                    .map(|i| {
                        // An empty bucket gets no bar: a row of "0.0% (0)" only hides the
                        // buckets that matter.
                        let count = buckets.get(i).map_or(0, |b| b.count);
                        let pct = 100.0 * count as f64 / total.max(1) as f64;
                        (count > 0).then(|| Bar {
                            value: pct,
                            spread: None,
                            label: format!("{} ({})", percent(pct), grouped(count as f64)),
                        })
                    })
                    .collect(),
            }
        })
        .collect();
    let title = match inputs {
        [(name, _)] => format!("Guesses per puzzle: {name}"),
        _ => "Guesses per puzzle, datasets compared".to_string(),
    };
    BarChart {
        title,
        value_axis: "% of puzzles searched".into(),
        group_axis: "guesses per puzzle".into(),
        groups: longest.iter().map(bucket_name).collect(),
        series,
        scale: Scale::Linear,
        note: Some(
            "guesses: every alternative tried at a branch point (solve --stats-json)".into(),
        ),
    }
}

/// What `verify` found: records per problem kind, a bar per `(name, counts)` input.
pub fn problems_chart(inputs: &[(String, Vec<(String, u64)>)]) -> BarChart {
    let kinds = distinct(
        inputs
            .iter()
            .flat_map(|(_, c)| c.iter().map(|(k, _)| k.as_str())),
    );
    let series = inputs
        .iter()
        .map(|(name, counts)| Series {
            name: name.clone(),
            bars: kinds
                .iter()
                .map(|k| {
                    let n = counts.iter().find(|(c, _)| c == k).map_or(0, |(_, n)| *n);
                    Some(Bar {
                        value: n as f64,
                        spread: None,
                        label: grouped(n as f64),
                    })
                })
                .collect(),
        })
        .collect();
    BarChart {
        title: "verify: records per outcome".into(),
        value_axis: "records".into(),
        group_axis: "outcome".into(),
        groups: kinds,
        series,
        scale: Scale::Auto,
        note: Some("a record can have several problems (verify --stats-json)".into()),
    }
}
