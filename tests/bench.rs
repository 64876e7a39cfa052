//! `bench` repeats, provenance and exports, and the SVG charts of `bench --plot` and `plot`.
//! Timing figures are not asserted (benchmarks are measurements, not tests): only shapes,
//! fields and their consistency.

mod common;

use std::path::Path;

use common::{bin, fixture};
use serde_json::Value;

/// A short bench of `algorithms` on the shipped datasets (two of them), with `extra` flags.
fn short_bench(algorithms: &str, extra: &[&str]) -> std::process::Output {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    bin()
        .args(["bench", "--seconds", "0.2", "--runs", "3", "--threads", "1"])
        .args(["--algorithm", algorithms])
        .args(extra)
        .arg(root.join("datasets/generated-hard-1k.txt"))
        .arg(fixture("kaggle1m.csv"))
        .output()
        .unwrap()
}

fn stdout(out: &std::process::Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

const PROVENANCE: [&str; 14] = [
    "version",
    "git_commit",
    "cpu",
    "cpus",
    "os",
    "date",
    "simd",
    "threads",
    "limit",
    "algorithm",
    "dataset_path",
    "dataset_bytes",
    "dataset_mtime",
    "dataset_sha256",
];

#[test]
fn every_json_result_carries_its_runs_and_provenance() {
    let out = stdout(&short_bench("fast,mrv", &["--json"]));
    let rows: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 4);
    for r in &rows {
        for key in PROVENANCE {
            assert!(!r[key].is_null(), "missing {key} in {r}");
        }
        assert_eq!(r["version"], env!("CARGO_PKG_VERSION"));
        assert_eq!(r["runs"], 3);
        let runs: Vec<f64> = r["run_puzzles_per_sec"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        assert_eq!(runs.len(), 3);
        let (mean, min, max) = (
            r["puzzles_per_sec"].as_f64().unwrap(),
            r["puzzles_per_sec_min"].as_f64().unwrap(),
            r["puzzles_per_sec_max"].as_f64().unwrap(),
        );
        assert!((mean - runs.iter().sum::<f64>() / 3.0).abs() < 1e-6 * mean.max(1.0));
        assert!(min <= mean && mean <= max, "{r}");
        assert!(r["puzzles_per_sec_stddev"].as_f64().unwrap() >= 0.0);
        // The slowest algorithm of each dataset is the default baseline.
        assert_eq!(r["baseline"], "mrv");
        let path = Path::new(r["dataset_path"].as_str().unwrap());
        let sha = sudoku_batch::jobs::bench::provenance::sha256_file(path).unwrap();
        assert_eq!(r["dataset_sha256"], sha.as_str());
        assert_eq!(r["dataset_bytes"], std::fs::metadata(path).unwrap().len());
    }
    let mrv = rows.iter().find(|r| r["algorithm"] == "mrv").unwrap();
    assert_eq!(mrv["relative"], 1.0);
}

#[test]
fn baseline_sets_the_relative_column_and_must_be_measured() {
    let out = stdout(&short_bench("fast,mrv", &["--json", "--baseline", "fast"]));
    for line in out.lines() {
        let r: Value = serde_json::from_str(line).unwrap();
        assert_eq!(r["baseline"], "fast");
        if r["algorithm"] == "fast" {
            assert_eq!(r["relative"], 1.0);
        }
    }
    let out = short_bench("fast", &["--baseline", "mrv"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--baseline mrv"));
}

#[test]
fn the_table_shows_spread_and_relative_columns() {
    let out = stdout(&short_bench("fast,mrv", &[]));
    let header = out.lines().next().unwrap();
    for column in ["puzzles/s", "± σ", "min", "max", "relative"] {
        assert!(header.contains(column), "{header}");
    }
    assert_eq!(out.lines().count(), 5);
}

/// Texts of an SVG document (each `<text>` element's content).
fn svg_texts(doc: &roxmltree::Document<'_>) -> Vec<String> {
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or("").trim().to_string())
        .collect()
}

/// Bars of a chart: rectangles filled at the bar opacity (legend swatches are opaque).
fn svg_bars(doc: &roxmltree::Document<'_>) -> usize {
    let opacity = sudoku_batch::jobs::plot::BAR_OPACITY.to_string();
    doc.descendants()
        .filter(|n| n.has_tag_name("rect") && n.attribute("opacity") == Some(&opacity))
        .count()
}

/// Parse an SVG file, check its axes are labelled, return (bars, texts).
fn check_svg(path: &Path, value_axis: &str, group_axis: &str) -> (usize, Vec<String>) {
    let text = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let texts = svg_texts(&doc);
    assert!(texts.iter().any(|t| t.starts_with(value_axis)), "{texts:?}");
    assert!(texts.iter().any(|t| t == group_axis), "{texts:?}");
    (svg_bars(&doc), texts)
}

#[test]
fn exports_parse_and_the_chart_has_a_bar_per_dataset_and_algorithm() {
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let (json, csv, md, svg) = (file("r.json"), file("r.csv"), file("r.md"), file("r.svg"));
    let args = [
        "--export-json",
        &json,
        "--export-csv",
        &csv,
        "--export-markdown",
        &md,
        "--plot",
        &svg,
    ];
    stdout(&short_bench("fast,mrv,naive", &args));

    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let results = doc["results"].as_array().unwrap();
    assert_eq!(results.len(), 6);
    assert!(results
        .iter()
        .all(|r| PROVENANCE.iter().all(|k| !r[k].is_null())));

    let mut rdr = csv::Reader::from_path(&csv).unwrap();
    let header: Vec<String> = rdr.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(header, sudoku_batch::jobs::bench::export::CSV_COLUMNS);
    let rows: Vec<csv::StringRecord> = rdr.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 6);
    for row in &rows {
        let mean: f64 = row[3].parse().unwrap();
        let stddev: f64 = row[4].parse().unwrap();
        assert!(mean >= 0.0 && stddev >= 0.0);
    }

    let text = std::fs::read_to_string(&md).unwrap();
    let table: Vec<Vec<&str>> = text
        .lines()
        .filter(|l| l.starts_with('|'))
        .map(|l| l.trim_matches('|').split('|').map(str::trim).collect())
        .collect();
    assert_eq!(table.len(), 2 + 6, "{text}");
    assert!(table.iter().all(|cells| cells.len() == 6), "{text}");
    assert!(table[0][2].starts_with("Mean ± σ"));
    assert!(table[1]
        .iter()
        .all(|c| c.starts_with(':') || c.ends_with(':')));
    assert!(table[2..].iter().all(|r| r[2].contains(" ± ")));

    let (bars, texts) = check_svg(Path::new(&svg), "puzzles per second", "dataset");
    assert_eq!(bars, 2 * 3);
    assert_eq!(texts.iter().filter(|t| t.ends_with("/s")).count(), 6);
    assert!(texts.iter().any(|t| t == "generated-hard-1k.txt"));
}

#[test]
fn an_export_on_stdout_moves_the_table_to_stderr() {
    let out = short_bench("fast", &["--export-markdown", "-"]);
    let text = stdout(&out);
    assert!(text.starts_with("| Dataset |"), "{text}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("puzzles/s"));
    let out = short_bench("fast", &["--export-json", "-", "--plot", "-"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn plot_draws_saved_runs_side_by_side() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.json");
    let b = dir.path().join("b.jsonl");
    stdout(&short_bench(
        "fast,mrv",
        &["--export-json", a.to_str().unwrap()],
    ));
    // bench --json lines are an input too.
    std::fs::write(&b, stdout(&short_bench("fast,mrv", &["--json"]))).unwrap();
    let svg = dir.path().join("cmp.svg");
    bin()
        .args(["plot", "-o"])
        .arg(&svg)
        .arg(&a)
        .arg(&b)
        .assert()
        .success();
    let (bars, texts) = check_svg(&svg, "puzzles per second", "dataset · algorithm");
    // 2 datasets × 2 algorithms, one bar per saved run.
    assert_eq!(bars, 4 * 2);
    assert!(
        texts.iter().any(|t| t.starts_with("a.json: commit ")),
        "{texts:?}"
    );
    assert!(texts.iter().any(|t| t.starts_with("b.jsonl: commit ")));
}

#[test]
fn plot_draws_the_guesses_histogram_of_a_stats_file() {
    let dir = tempfile::tempdir().unwrap();
    let stats = dir.path().join("stats.json");
    bin()
        .args(["solve", "-q", "-o", "/dev/null", "--stats-json"])
        .arg(&stats)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/generated-hard-1k.txt"))
        .assert()
        .success();
    let summary: Value = serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
    let buckets = summary["guesses_histogram"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["count"].as_u64().unwrap() > 0)
        .count();
    let svg = dir.path().join("h.svg");
    bin()
        .args(["plot", "-o"])
        .arg(&svg)
        .arg(&stats)
        .assert()
        .success();
    let (bars, texts) = check_svg(&svg, "% of puzzles", "guesses per puzzle");
    assert_eq!(bars, buckets);
    assert!(texts.iter().any(|t| t == "2-3"), "{texts:?}");
    // Named after the dataset it summarises, not the summary file.
    assert!(texts
        .iter()
        .any(|t| t.starts_with("Guesses per puzzle: generated-hard-1k.txt")));
    // Different kinds together make no chart.
    let bench = dir.path().join("b.jsonl");
    std::fs::write(&bench, stdout(&short_bench("fast", &["--json"]))).unwrap();
    let out = bin().arg("plot").arg(&stats).arg(&bench).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn plot_refuses_json_it_does_not_know() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("x.json");
    std::fs::write(&bad, "{\"hello\": 1}").unwrap();
    let out = bin().arg("plot").arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("x.json"));
}

#[test]
fn an_empty_file_stops_the_run_before_any_table() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    // The empty file last: nothing is measured or printed before its error.
    let out = bin()
        .args(["bench", "--seconds", "0.1", "--runs", "1", "--threads", "1"])
        .arg(fixture("kaggle1m.csv"))
        .arg(&empty)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err.trim(),
        format!("sudoku-batch: {}: no puzzles to time", empty.display())
    );
}
