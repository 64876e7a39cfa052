//! Benchmark results as files, as hyperfine exports them: JSON (every field, for scripts
//! and `sudoku-batch plot`), CSV (one flat row per result, for spreadsheets) and a markdown
//! table (for READMEs).

use std::io::{self, Write};

use serde::Serialize;

use super::BenchResult;

/// The JSON export: the results under `results`, as hyperfine's `--export-json` has them.
#[derive(Serialize)]
struct JsonExport<'a> {
    results: &'a [BenchResult],
}

/// Write `results` as one pretty-printed JSON object `{"results": [...]}`.
pub fn write_json(w: &mut dyn Write, results: &[BenchResult]) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *w, &JsonExport { results })?;
    writeln!(w)
}

/// The CSV columns, in order.
pub const CSV_COLUMNS: [&str; 25] = [
    "dataset",
    "algorithm",
    "runs",
    "puzzles_per_sec",
    "puzzles_per_sec_stddev",
    "puzzles_per_sec_min",
    "puzzles_per_sec_max",
    "relative",
    "baseline",
    "usec_per_puzzle",
    "puzzles",
    "dataset_puzzles",
    "complete",
    "seconds",
    "threads",
    "limit",
    "simd",
    "version",
    "git_commit",
    "cpu",
    "os",
    "date",
    "dataset_path",
    "dataset_bytes",
    "dataset_sha256",
];

/// One CSV row, in [`CSV_COLUMNS`] order.
fn csv_row(r: &BenchResult) -> Vec<String> {
    let p = &r.provenance;
    vec![
        r.dataset.clone(),
        r.algorithm.name().to_string(),
        r.runs.to_string(),
        r.puzzles_per_sec.to_string(),
        r.puzzles_per_sec_stddev.to_string(),
        r.puzzles_per_sec_min.to_string(),
        r.puzzles_per_sec_max.to_string(),
        r.relative.to_string(),
        r.baseline.name().to_string(),
        r.usec_per_puzzle.to_string(),
        r.puzzles.to_string(),
        r.dataset_puzzles.to_string(),
        r.complete.to_string(),
        r.seconds.to_string(),
        r.threads.to_string(),
        r.limit.to_string(),
        r.simd.name().to_string(),
        p.version.clone(),
        p.git_commit.clone(),
        p.cpu.clone(),
        p.os.clone(),
        p.date.clone(),
        r.source.dataset_path.clone(),
        r.source.dataset_bytes.to_string(),
        r.source.dataset_sha256.clone().unwrap_or_default(),
    ]
}

/// Write `results` as CSV with a header line ([`CSV_COLUMNS`]).
pub fn write_csv(w: &mut dyn Write, results: &[BenchResult]) -> io::Result<()> {
    let mut wtr = csv::Writer::from_writer(w);
    wtr.write_record(CSV_COLUMNS)?;
    for r in results {
        wtr.write_record(csv_row(r))?;
    }
    wtr.flush()
}

/// Write `results` as a markdown table: mean ± σ, min and max puzzles/s and the relative
/// speed, one row per dataset × algorithm, then a line saying where it was measured.
pub fn write_markdown(w: &mut dyn Write, results: &[BenchResult]) -> io::Result<()> {
    writeln!(
        w,
        "| Dataset | Algorithm | Mean ± σ [puzzles/s] | Min [puzzles/s] | Max [puzzles/s] | Relative |"
    )?;
    writeln!(w, "|:---|:---|---:|---:|---:|---:|")?;
    for r in results {
        writeln!(
            w,
            "| `{}` | `{}` | {} ± {} | {} | {} | {} |",
            r.dataset.replace('|', "\\|"),
            r.algorithm.name(),
            grouped(r.puzzles_per_sec),
            grouped(r.puzzles_per_sec_stddev),
            grouped(r.puzzles_per_sec_min),
            grouped(r.puzzles_per_sec_max),
            relative(r.relative),
        )?;
    }
    if let Some(r) = results.first() {
        let p = &r.provenance;
        writeln!(
            w,
            "\n{} runs each; sudoku-batch {} ({}), {}, {} thread(s), SIMD path {}, {}, {}.",
            r.runs,
            p.version,
            p.git_commit,
            p.cpu,
            r.threads,
            r.simd.name(),
            p.os,
            p.date
        )?;
    }
    Ok(())
}

/// A whole number with thousands separators: 12345.6 → "12,346".
pub fn grouped(value: f64) -> String {
    if !value.is_finite() {
        return "-".to_string();
    }
    let digits = format!("{:.0}", value.abs());
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if value < -0.5 {
        out.insert(0, '-');
    }
    out
}

/// A speed ratio as people read it: "1.00", "3.52x", "4,512x" ("-" when undefined).
pub fn relative(ratio: f64) -> String {
    if !ratio.is_finite() {
        "-".to_string()
    } else if ratio >= 100.0 {
        format!("{}x", grouped(ratio))
    } else if (ratio - 1.0).abs() < 0.005 {
        "1.00".to_string()
    } else {
        format!("{ratio:.2}x")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_like_hyperfine() {
        assert_eq!(grouped(0.4), "0");
        assert_eq!(grouped(999.0), "999");
        assert_eq!(grouped(12_345.6), "12,346");
        assert_eq!(grouped(1_234_567.0), "1,234,567");
        assert_eq!(grouped(f64::INFINITY), "-");
        assert_eq!(relative(1.0), "1.00");
        assert_eq!(relative(3.519), "3.52x");
        assert_eq!(relative(4512.3), "4,512x");
        assert_eq!(relative(f64::NAN), "-");
    }
}
