//! `sudoku-batch canon` through the real binary: one form per record in input order, the same
//! form for shuffled copies, idempotence, statuses and exit codes, formats, threads and shards;
//! and `verify --duplicates[=canonical] --against`, which uses the same form.

use sudoku_batch::engines::canonical::canonicalize;
use sudoku_batch::Grid;

mod common;
use common::{bin, dataset, fixture};

fn run(args: &[&str], stdin: &str) -> (Option<i32>, String) {
    let out = bin().args(args).write_stdin(stdin).output().unwrap();
    (out.status.code(), String::from_utf8(out.stdout).unwrap())
}

#[test]
fn every_record_gets_a_form_or_its_status_word() {
    let out = bin()
        .args(["canon", "--quiet"])
        .arg(fixture("mixed.txt"))
        .assert()
        .code(1);
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 7, "{text}");
    assert_eq!(lines[1], "malformed");
    assert_eq!(lines[2], "invalid");
    assert_eq!(lines[4], ".".repeat(81), "the empty grid is its own form");
    assert_eq!(lines[6], "malformed");
    for i in [0, 3, 5] {
        assert_eq!(lines[i].len(), 81);
    }
    // The message names file, line and problem.
    let err = String::from_utf8(
        bin()
            .arg("canon")
            .arg(fixture("mixed.txt"))
            .output()
            .unwrap()
            .stderr,
    )
    .unwrap();
    assert!(err.contains("mixed.txt:5: invalid: "), "{err}");
}

#[test]
#[cfg_attr(not(shared_datasets), ignore = "needs ../shared/datasets")]
fn shuffled_copies_share_a_form_and_forms_are_fixed_points() {
    let path = dataset("puzzles6_forum_hardest_1106");
    let path = path.to_str().unwrap();
    let original = run(&["canon", "-q", path], "").1;
    let copies = 4;
    let shuffled = run(&["shuffle", "-q", "--copies", "4", "--seed", "3", path], "").1;
    let forms = run(&["canon", "-q", "-"], &shuffled).1;
    let original: Vec<&str> = original.lines().collect();
    let forms: Vec<&str> = forms.lines().collect();
    assert_eq!(forms.len(), original.len() * copies);
    for (i, form) in forms.iter().enumerate() {
        assert_eq!(*form, original[i / copies], "copy {i}");
    }
    // Canonicalising forms changes nothing; clue counts are kept.
    let again = run(&["canon", "-q", "-"], &original.join("\n")).1;
    assert_eq!(again.lines().collect::<Vec<_>>(), original);
    let puzzles = std::fs::read_to_string(path).unwrap();
    let puzzles: Vec<&str> = puzzles
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .collect();
    for (p, f) in puzzles.iter().zip(&original) {
        let clues = |s: &str| {
            s[..81]
                .bytes()
                .filter(|b| b.is_ascii_digit() && *b != b'0')
                .count()
        };
        assert_eq!(clues(p), clues(f), "{p}");
    }
    // Different puzzles of a set of distinct puzzles keep distinct forms.
    let mut distinct = original.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), original.len());
}

#[test]
fn csv_and_jsonl_add_the_automorphisms() {
    // Clues on the diagonal: transposition and many row-and-column swaps map it to itself.
    let mut diagonal = Grid::EMPTY;
    for i in 0..9 {
        diagonal.set(i * 10, i as u8 + 1);
    }
    let p = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    let input = format!("{p}\n{}\nnot a puzzle\n", diagonal.to_line());
    let (code, csv) = run(&["canon", "-q", "--format", "csv"], &input);
    assert_eq!(code, Some(1));
    let rows: Vec<Vec<&str>> = csv.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(
        rows[0],
        [
            "line",
            "id",
            "puzzle",
            "canonical",
            "automorphisms",
            "status",
            "error"
        ]
    );
    for (row, grid) in rows[1..3]
        .iter()
        .zip([p.parse::<Grid>().unwrap(), diagonal])
    {
        let c = canonicalize(&grid);
        assert_eq!(row[3], c.form.to_line());
        assert_eq!(row[4], c.automorphisms.to_string());
        assert_eq!(row[5], "ok");
    }
    assert!(rows[2][4].parse::<u32>().unwrap() > 1);
    assert_eq!(rows[3][5], "malformed");
    let (_, jsonl) = run(&["canon", "-q", "--format", "jsonl"], &input);
    let values: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(values.len(), 3);
    assert_eq!(values[1]["automorphisms"].to_string(), rows[2][4]);
    assert_eq!(values[1]["canonical"], rows[2][3]);
    assert_eq!(values[2]["status"], "malformed");
    assert!(values[2]["error"].is_string());
}

#[test]
#[cfg_attr(not(shared_datasets), ignore = "needs ../shared/datasets")]
fn threads_and_shards_do_not_change_the_output() {
    let path = dataset("kaggle1m_sample_first24997.csv");
    let path = path.to_str().unwrap();
    let one = run(
        &["canon", "-q", "--threads", "1", "--format", "csv", path],
        "",
    )
    .1;
    let two = run(
        &["canon", "-q", "--threads", "2", "--format", "csv", path],
        "",
    )
    .1;
    assert_eq!(one.lines().count(), 24_998);
    assert_eq!(one, two);
    let shards: String = (1..=3)
        .map(|k| {
            let shard = format!("{k}/3");
            run(
                &["canon", "-q", "--format", "csv", "--shard", &shard, path],
                "",
            )
            .1
        })
        .collect();
    assert_eq!(shards, one);
}

#[test]
fn output_file_is_written_whole() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("forms.txt");
    bin()
        .args(["canon", "-q", "-o"])
        .arg(&out)
        .write_stdin(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n",
        )
        .assert()
        .success();
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(text.lines().count(), 1);
    assert!(text.starts_with("......"), "{text}");
}

/// The `line,problem,detail` rows of a verify CSV report for the given problems.
fn findings(report: &str, problems: &[&str]) -> Vec<String> {
    report
        .lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.splitn(4, ',').collect();
            problems
                .contains(&f[2])
                .then(|| format!("{},{},{}", f[0], f[2], f[3]))
        })
        .collect()
}

#[test]
#[cfg_attr(not(shared_datasets), ignore = "needs ../shared/datasets")]
fn verify_reports_leaks_from_reference_files_by_file_and_line() {
    let path = dataset("norvig_top95.txt");
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let puzzles: Vec<&str> = text.lines().filter(|l| l.len() >= 81).collect();
    // Reference: puzzles 0-49. Input: shuffled copies of reference puzzles 3 and 40, one exact
    // copy of 7, then puzzles 60-69 (unseen), with puzzle 65 repeated once shuffled.
    let reference = dir.path().join("train.txt");
    std::fs::write(&reference, puzzles[..50].join("\n") + "\n").unwrap();
    let shuffled = |p: &str, seed: &str| run(&["shuffle", "-q", "--seed", seed, "-"], p).1;
    let mut input = shuffled(puzzles[3], "1") + &shuffled(puzzles[40], "2");
    input += &format!("{}\n", puzzles[7]);
    for p in &puzzles[60..70] {
        input += &format!("{p}\n");
    }
    input += &shuffled(puzzles[65], "3");
    let test = dir.path().join("test.txt");
    std::fs::write(&test, &input).unwrap();
    let report = |mode: &str| {
        let out = bin()
            .args([
                "verify",
                "-q",
                "--no-unique",
                "--format",
                "csv",
                mode,
                "--against",
            ])
            .arg(&reference)
            .arg(&test)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        findings(
            &String::from_utf8(out.stdout).unwrap(),
            &["duplicate", "in-reference"],
        )
    };
    let train = reference.display().to_string();
    assert_eq!(
        report("--duplicates=canonical"),
        [
            format!("1,in-reference,equivalent to {train}:4"),
            format!("2,in-reference,equivalent to {train}:41"),
            format!("3,in-reference,equivalent to {train}:8"),
            "14,duplicate,equivalent to line 9".to_string(),
        ]
    );
    // Exact matching sees only the unshuffled copy.
    assert_eq!(
        report("--duplicates"),
        [format!("3,in-reference,same puzzle as {train}:8")]
    );
}
