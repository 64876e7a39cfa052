//! Output that joins back to its input: `--passthrough` keeps every input column and value,
//! the `puzzle` field is the puzzle as written, several inputs carry a `file` field, and
//! Sudoku Exchange hashes become ids.

mod common;

use std::path::Path;

use common::{bin, dataset};

/// Rows of a CSV (header first), every field as bytes.
fn csv_rows(bytes: &[u8]) -> Vec<Vec<Vec<u8>>> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(bytes)
        .byte_records()
        .map(|r| r.unwrap().iter().map(<[u8]>::to_vec).collect())
        .collect()
}

fn solve(args: &[&str], files: &[&Path]) -> Vec<u8> {
    let out = bin().arg("solve").args(args).args(files).output().unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
#[cfg_attr(not(shared_datasets), ignore = "needs ../shared/datasets")]
fn passthrough_keeps_every_kaggle_3m_column_byte_for_byte() {
    let path = dataset("kaggle3m_radcliffe_sample_7034.csv");
    let input = csv_rows(&std::fs::read(&path).unwrap());
    let output = csv_rows(&solve(
        &["-q", "--format", "csv", "--passthrough"],
        &[&path],
    ));
    assert_eq!(output.len(), input.len());
    let width = input[0].len();
    let header: Vec<String> = output[0]
        .iter()
        .map(|h| String::from_utf8_lossy(h).into_owned())
        .collect();
    assert_eq!(
        header[width..],
        [
            "line",
            "result_solution",
            "status",
            "solutions",
            "guesses",
            "nodes",
            "error"
        ]
    );
    for (i, (inp, out)) in input.iter().zip(&output).enumerate() {
        assert_eq!(inp[..], out[..width], "row {i}");
    }
    // The solver's solutions agree with the published ones, row by row.
    let solution = input[0].iter().position(|h| h == b"solution").unwrap();
    for (inp, out) in input.iter().zip(&output).skip(1) {
        assert_eq!(out[width + 1], inp[solution]);
        assert_eq!(out[width + 2], b"solved");
    }
}

#[test]
#[cfg_attr(not(shared_datasets), ignore = "needs ../shared/datasets")]
fn passthrough_keeps_sudoku_exchange_lines_and_hashes_become_ids() {
    let path = dataset("sudoku_exchange_hard.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().take(300).collect();
    let sample = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(sample.path(), lines.join("\n") + "\n").unwrap();
    let out = solve(
        &["-q", "--format", "jsonl", "--passthrough"],
        &[sample.path()],
    );
    let rows: Vec<serde_json::Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), lines.len());
    for (row, line) in rows.iter().zip(&lines) {
        assert_eq!(row["input"], *line);
        assert_eq!(row["status"], "solved");
    }
    // Without passthrough: the hash is the id and the puzzle is as written (0 for empty).
    let out = csv_rows(&solve(&["-q", "--format", "csv"], &[sample.path()]));
    for (row, line) in out.iter().skip(1).zip(&lines) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(row[1], fields[0].as_bytes(), "id");
        assert_eq!(row[2], fields[1].as_bytes(), "puzzle");
    }
}

#[test]
#[cfg_attr(not(shared_datasets), ignore = "needs ../shared/datasets")]
fn the_puzzle_column_joins_back_to_the_kaggle_9m_input() {
    let path = dataset("kaggle9m_vopani_first10000.csv");
    let input = csv_rows(&std::fs::read(&path).unwrap());
    let output = csv_rows(&solve(&["-q", "--format", "csv"], &[&path]));
    assert_eq!(output[0][2], b"puzzle");
    assert_eq!(input.len(), output.len());
    let joined = input
        .iter()
        .zip(&output)
        .skip(1)
        .filter(|(i, o)| i[0] == o[2])
        .count();
    assert_eq!(joined, input.len() - 1, "every puzzle as written");
    // --empty normalises.
    let dotted = csv_rows(&solve(&["-q", "--format", "csv", "--empty", "."], &[&path]));
    assert!(dotted[1][2].contains(&b'.') && !dotted[1][2].contains(&b'0'));
    assert_eq!(
        String::from_utf8_lossy(&dotted[1][2])
            .replace('.', "0")
            .as_bytes(),
        &input[1][0][..]
    );
}

#[test]
fn several_inputs_carry_a_file_field_and_their_own_lines() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.txt");
    let b = dir.path().join("b.txt");
    let p = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    std::fs::write(&a, format!("{p}\n{p}\n")).unwrap();
    std::fs::write(&b, format!("# comment\n{p}\n")).unwrap();
    let rows = csv_rows(&solve(&["-q", "--format", "csv"], &[&a, &b]));
    assert_eq!(rows[0][..2], [b"file".to_vec(), b"line".to_vec()]);
    let where_: Vec<(String, String)> = rows[1..]
        .iter()
        .map(|r| {
            (
                String::from_utf8_lossy(&r[0]).into_owned(),
                String::from_utf8_lossy(&r[1]).into_owned(),
            )
        })
        .collect();
    let (a, b) = (a.display().to_string(), b.display().to_string());
    assert_eq!(
        where_,
        [(a.clone(), "1".into()), (a, "2".into()), (b, "2".into())]
    );
    let out = solve(&["-q", "--format", "jsonl"], &[&dir.path().join("a.txt")]);
    assert!(
        !String::from_utf8_lossy(&out).contains("\"file\""),
        "one input: no file field"
    );
    // Passthrough of files with different columns is refused.
    let csv = dir.path().join("c.csv");
    std::fs::write(&csv, format!("puzzle\n{p}\n")).unwrap();
    let out = bin()
        .args(["solve", "-q", "--format", "csv", "--passthrough"])
        .arg(dir.path().join("a.txt"))
        .arg(&csv)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--passthrough"));
}

#[test]
#[cfg_attr(not(shared_datasets), ignore = "needs ../shared/datasets")]
fn verify_checks_inputs_without_solutions_on_their_own() {
    let path = dataset("puzzles3_magictour_top1465");
    // A clean unique set without solutions passes: givens, solvability and uniqueness.
    bin().args(["verify", "-q"]).arg(&path).assert().code(0);
    // --require-solutions makes the missing solutions problems again.
    let out = bin()
        .args(["verify", "-q", "--require-solutions", "--format", "csv"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let rows = csv_rows(&out.stdout);
    assert_eq!(rows.len(), 1 + 1465);
    assert!(rows[1..].iter().all(|r| r[2] == b"missing-solution"));
}

#[test]
fn verify_finds_two_solutions_without_a_published_one() {
    let dir = tempfile::tempdir().unwrap();
    let two = dir.path().join("two.txt");
    std::fs::write(&two, format!("{}\n", ".".repeat(81))).unwrap();
    let out = bin().args(["verify", "-q"]).arg(&two).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("not-unique"));
}

#[test]
fn solutions_files_pair_up_one_to_one_and_may_be_csv() {
    let dir = tempfile::tempdir().unwrap();
    let puzzles = dir.path().join("p.txt");
    let p = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    std::fs::write(&puzzles, format!("{p}\n").repeat(5)).unwrap();
    // solve's CSV output as the solutions file.
    let csv = dir.path().join("s.csv");
    let out = solve(&["-q", "--format", "csv"], &[&puzzles]);
    std::fs::write(&csv, &out).unwrap();
    bin()
        .args(["verify", "-q"])
        .arg(&puzzles)
        .arg("--solutions")
        .arg(&csv)
        .assert()
        .code(0);
    // One line short, one line long: an error naming both counts.
    let lines = String::from_utf8(solve(&["-q"], &[&puzzles])).unwrap();
    let short = dir.path().join("short.txt");
    std::fs::write(&short, lines.lines().take(4).collect::<Vec<_>>().join("\n")).unwrap();
    let long = dir.path().join("long.txt");
    std::fs::write(&long, lines.repeat(2)).unwrap();
    for (file, listed) in [(&short, 4), (&long, 10)] {
        let out = bin()
            .args(["verify", "-q"])
            .arg(&puzzles)
            .arg("--solutions")
            .arg(file)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&format!("has {listed} solution records"))
                && stderr.contains("has 5 records"),
            "{stderr}"
        );
    }
}

#[test]
fn stats_json_has_percentiles_the_hardest_puzzle_and_a_histogram() {
    let hard = Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/generated-hard-1k.txt");
    let dir = tempfile::tempdir().unwrap();
    let stats = dir.path().join("stats.json");
    let out = bin()
        .args(["solve", "-q", "--format", "jsonl", "--stats-json"])
        .arg(&stats)
        .arg(&hard)
        .output()
        .unwrap();
    assert!(out.status.success());
    let rows: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut guesses: Vec<u64> = rows
        .iter()
        .map(|r| r["guesses"].as_u64().unwrap())
        .collect();
    guesses.sort_unstable();
    let rank = |f: f64| guesses[((f * guesses.len() as f64).ceil() as usize).max(1) - 1];
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
    let spread = &s["guesses_spread"];
    assert_eq!(spread["p50"], rank(0.5));
    assert_eq!(spread["p90"], rank(0.9));
    assert_eq!(spread["p99"], rank(0.99));
    assert_eq!(spread["max"], *guesses.last().unwrap());
    assert!(s["nodes_spread"]["max"].as_u64().unwrap() > 0);
    // The hardest puzzle's line really needed the most guesses.
    let line = s["hardest"]["line"].as_u64().unwrap();
    let row = rows.iter().find(|r| r["line"] == line).unwrap();
    assert_eq!(row["guesses"], spread["max"]);
    assert_eq!(s["hardest"]["file"], hard.display().to_string());
    // Power-of-two buckets that add up to every puzzle.
    let buckets = s["guesses_histogram"].as_array().unwrap();
    let total: u64 = buckets.iter().map(|b| b["count"].as_u64().unwrap()).sum();
    assert_eq!(total, rows.len() as u64);
    assert_eq!(
        (&buckets[2]["from"], &buckets[2]["to"]),
        (&2.into(), &3.into())
    );
    let in_2_3 = guesses.iter().filter(|&&g| (2..=3).contains(&g)).count();
    assert_eq!(buckets[2]["count"], in_2_3);
}

#[test]
fn man_pages_per_command_and_completions_of_choices() {
    let dir = tempfile::tempdir().unwrap();
    bin()
        .args(["man", "--dir"])
        .arg(dir.path())
        .assert()
        .success();
    for name in ["", "-solve", "-verify", "-generate", "-shuffle", "-bench"] {
        let page = std::fs::read_to_string(dir.path().join(format!("sudoku-batch{name}.1")))
            .unwrap_or_else(|e| panic!("sudoku-batch{name}.1: {e}"));
        assert!(
            page.contains(&format!(".TH sudoku-batch{name} 1")),
            "{name}"
        );
    }
    let solve = bin().args(["man", "solve"]).output().unwrap();
    assert!(String::from_utf8_lossy(&solve.stdout).contains("passthrough"));
    bin().args(["man", "nope"]).assert().code(2);
    // The shells complete the choices of enum options.
    let bash = bin().args(["completions", "bash"]).output().unwrap();
    let bash = String::from_utf8_lossy(&bash.stdout);
    for choices in [
        "line csv jsonl",
        "text csv jsonl",
        "auto lines csv block board",
    ] {
        assert!(bash.contains(choices), "{choices}");
    }
    let algorithms = bash
        .lines()
        .find(|l| l.contains("fast ") && l.contains(" naive"));
    let algorithms = algorithms.expect("algorithm names are completed");
    for name in ["fast", "jcz", "mrv", "naive"] {
        assert!(algorithms.contains(name), "{name} in {algorithms}");
    }
}

/// Csv and jsonl records are formatted on the workers with 2 threads and on the writer thread
/// with 1: the same bytes, with passthrough, several inputs and bad records among them.
#[test]
#[cfg_attr(not(shared_datasets), ignore = "needs ../shared/datasets")]
fn records_formatted_on_the_workers_are_the_writers() {
    let kaggle = dataset("kaggle3m_radcliffe_first1000.csv");
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    // The fixture has the dataset's columns, and bad records; `mixed.txt` is a line file.
    let (small, mixed) = (fixtures.join("kaggle3m.csv"), fixtures.join("mixed.txt"));
    let cases: [(&[&str], [&Path; 2]); 3] = [
        (&[], [&kaggle, &mixed]),
        (&["--passthrough"], [&kaggle, &small]),
        (&["--limit", "2", "--empty", "0"], [&mixed, &kaggle]),
    ];
    for format in ["csv", "jsonl"] {
        for (extra, files) in cases {
            let run = |threads: &str| {
                let mut args = vec!["-q", "--format", format, "--batch", "7"];
                args.extend(["--threads", threads]);
                args.extend(extra);
                solve(&args, &files)
            };
            let one = run("1");
            assert!(
                one.split(|&b| b == b'\n').count() > 1000,
                "{format} {extra:?}"
            );
            assert!(run("2") == one, "{format} {extra:?}");
        }
    }
}
