//! The real binary, end to end: every input format, stdin and gzip, every output format and
//! status, order across thread counts, malformed records with line numbers, exit codes, and a
//! closed pipe.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Command as StdCommand, Stdio};

use predicates::prelude::*;

mod common;
use common::{bin, dataset, fixture};

const LEETCODE_SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

/// Parse JSON lines output.
fn json_lines(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn stdout_of(args: &[&str]) -> String {
    let out = bin().args(args).output().unwrap();
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn mixed_line_file_reports_every_record_with_its_status() {
    let out = bin()
        .args(["solve", "--limit", "2", "--quiet"])
        .arg(fixture("mixed.txt"))
        .assert()
        .code(1);
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        [
            LEETCODE_SOLUTION,
            "malformed",
            "invalid",
            "unsolvable",
            "multiple",
            "953168742862734951417952836746893125281645397395271468138529674574386219629417583",
            "malformed",
        ]
    );
}

#[test]
fn malformed_records_name_their_line_and_problem() {
    let out = stdout_of(&[
        "solve",
        "--format",
        "jsonl",
        "--quiet",
        fixture("mixed.txt").to_str().unwrap(),
    ]);
    let rows = json_lines(&out);
    assert_eq!(rows.len(), 7);
    let lines: Vec<u64> = rows.iter().map(|r| r["line"].as_u64().unwrap()).collect();
    assert_eq!(lines, [2, 4, 5, 6, 7, 8, 9]);
    assert_eq!(rows[1]["status"], "malformed");
    assert_eq!(rows[1]["error"], "80 cells, expected 81");
    assert_eq!(rows[2]["status"], "invalid");
    assert!(rows[2]["error"]
        .as_str()
        .unwrap()
        .contains("digit 3 appears twice in row 1"));
    assert_eq!(rows[6]["status"], "malformed");
    assert!(
        rows[6]["error"]
            .as_str()
            .unwrap()
            .contains("character 81 is 'x'"),
        "{}",
        rows[6]["error"]
    );
    assert_eq!(rows[0]["solution"], LEETCODE_SOLUTION);
    assert_eq!(rows[0]["guesses"], 0);
}

#[test]
fn golden_puzzles_count_their_solutions() {
    let golden = std::fs::read_to_string(fixture("golden.txt")).unwrap();
    let cases: Vec<(&str, &str, &str)> = golden
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let mut f = l.split(':');
            (f.next().unwrap(), f.next().unwrap(), f.next().unwrap_or(""))
        })
        .collect();
    let input: String = cases.iter().map(|c| format!("{}\n", c.0)).collect();
    let out = bin()
        .args(["solve", "--limit", "3", "--format", "csv", "--quiet"])
        .write_stdin(input)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(rows.len(), cases.len());
    for ((puzzle, count, solution), row) in cases.iter().zip(&rows) {
        let (status, solutions) = (row[4], row[5]);
        if *count == "invalid" {
            assert_eq!(status, "invalid", "{puzzle}");
        } else {
            assert_eq!(solutions, *count, "{puzzle}");
            let want = match *count {
                "0" => "unsolvable",
                "1" => "solved",
                _ => "multiple",
            };
            assert_eq!(status, want, "{puzzle}");
        }
        if !solution.is_empty() {
            assert_eq!(row[3], *solution, "{puzzle}");
        }
    }
}

#[test]
fn csv_inputs_find_their_puzzle_column_and_carry_ids() {
    for (name, with_id) in [
        ("kaggle1m.csv", false),
        ("kaggle3m.csv", true),
        ("kaggle9m.csv", false),
    ] {
        let out = stdout_of(&[
            "solve",
            "--format",
            "csv",
            "--quiet",
            fixture(name).to_str().unwrap(),
        ]);
        let mut lines = out.lines();
        assert_eq!(
            lines.next(),
            Some("line,id,puzzle,solution,status,solutions,guesses,nodes,error")
        );
        let source = std::fs::read_to_string(fixture(name)).unwrap();
        for (i, (row, src)) in lines.zip(source.lines().skip(1)).enumerate() {
            let f: Vec<&str> = row.split(',').collect();
            assert_eq!(
                f[0],
                (i + 2).to_string(),
                "{name}: line numbers count the header"
            );
            assert_eq!(f[4], "solved", "{name}");
            // The published solution is in the source row.
            assert!(src.contains(f[3]), "{name}: {row}");
            assert_eq!(f[1].is_empty(), !with_id, "{name}");
        }
    }
}

#[test]
fn column_option_picks_a_column_by_name_or_index() {
    let path = fixture("kaggle1m.csv");
    let by_name = stdout_of(&["solve", "-q", "--column", "quizzes", path.to_str().unwrap()]);
    let by_index = stdout_of(&["solve", "-q", "--column", "0", path.to_str().unwrap()]);
    let auto = stdout_of(&["solve", "-q", path.to_str().unwrap()]);
    assert_eq!(by_name, auto);
    assert_eq!(by_index, auto);
    assert_eq!(auto.lines().count(), 3);
    bin()
        .args(["solve", "-q", "--column", "nope"])
        .arg(&path)
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("kaggle1m.csv")
                .and(predicate::str::contains("no puzzle column")),
        );
}

#[test]
fn board_and_block_inputs() {
    let board = stdout_of(&[
        "solve",
        "-q",
        fixture("leetcode_board.txt").to_str().unwrap(),
    ]);
    assert_eq!(board, format!("{LEETCODE_SOLUTION}\n"));
    let blocks = stdout_of(&["solve", "-q", fixture("blocks.txt").to_str().unwrap()]);
    assert_eq!(
        blocks,
        format!("{LEETCODE_SOLUTION}\n{LEETCODE_SOLUTION}\n")
    );
}

#[test]
fn stdin_and_gzip_inputs() {
    let text = std::fs::read(fixture("kaggle1m.csv")).unwrap();
    let plain = stdout_of(&["solve", "-q", fixture("kaggle1m.csv").to_str().unwrap()]);
    bin()
        .args(["solve", "-q"])
        .write_stdin(text.clone())
        .assert()
        .success()
        .stdout(plain.clone());
    bin()
        .args(["solve", "-q", "-"])
        .write_stdin(text.clone())
        .assert()
        .success()
        .stdout(plain.clone());
    let dir = tempfile::tempdir().unwrap();
    let gz = dir.path().join("kaggle1m.csv.gz");
    let mut enc = flate2::write::GzEncoder::new(
        std::fs::File::create(&gz).unwrap(),
        flate2::Compression::default(),
    );
    enc.write_all(&text).unwrap();
    enc.finish().unwrap();
    bin()
        .args(["solve", "-q"])
        .arg(&gz)
        .assert()
        .success()
        .stdout(plain);
}

#[test]
fn output_file_and_stats_json() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.txt");
    let stats = dir.path().join("stats.json");
    bin()
        .args(["solve", "--limit", "2"])
        .arg(fixture("mixed.txt"))
        .arg("-o")
        .arg(&out)
        .arg("--stats-json")
        .arg(&stats)
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("7 records").and(predicate::str::contains("2 malformed")));
    assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 7);
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
    assert_eq!(
        (
            &s["records"],
            &s["solved"],
            &s["multiple"],
            &s["unsolvable"],
            &s["invalid"],
            &s["malformed"]
        ),
        (
            &7.into(),
            &2.into(),
            &1.into(),
            &1.into(),
            &1.into(),
            &2.into()
        )
    );
    // Only the final file is left in the directory.
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

#[test]
#[cfg_attr(not(shared_datasets), ignore = "needs ../shared/datasets")]
fn output_order_is_the_same_for_any_thread_count() {
    let path = dataset("puzzles3_magictour_top1465");
    let path = path.to_str().unwrap();
    for format in ["line", "csv", "jsonl"] {
        let one = stdout_of(&[
            "solve",
            "-q",
            "--batch",
            "100",
            "--threads",
            "1",
            "--format",
            format,
            path,
        ]);
        let two = stdout_of(&[
            "solve",
            "-q",
            "--batch",
            "100",
            "--threads",
            "2",
            "--format",
            format,
            path,
        ]);
        assert_eq!(one.lines().count(), 1465 + usize::from(format == "csv"));
        assert!(
            one == two,
            "{format}: outputs differ between 1 and 2 threads"
        );
    }
}

#[test]
fn exit_codes() {
    // 0: everything solved.
    bin()
        .args(["solve", "-q"])
        .arg(fixture("kaggle1m.csv"))
        .assert()
        .code(0);
    // 1: some record is not fine.
    bin()
        .args(["solve", "-q"])
        .arg(fixture("mixed.txt"))
        .assert()
        .code(1);
    // 1 with --unique on a puzzle with many solutions; 0 without.
    let empty = format!("{}\n", ".".repeat(81));
    bin()
        .args(["solve", "-q", "--unique"])
        .write_stdin(empty.clone())
        .assert()
        .code(1)
        .stdout("multiple\n");
    bin()
        .args(["solve", "-q"])
        .write_stdin(empty)
        .assert()
        .code(0);
    // 2: usage and I/O errors name the path.
    bin()
        .args(["solve", "-q", "no/such/file.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no/such/file.txt: cannot open"));
    bin().args(["solve", "--limit", "0"]).assert().code(2);
    bin().args(["solve", "--format", "xml"]).assert().code(2);
    bin()
        .args(["solve", "-q"])
        .arg(fixture(""))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is a directory"));
}

// ---- what a first run on the command line meets -----------------------------------------

/// A pseudo-terminal: (the side a person types on, the side the program reads).
fn pseudo_terminal() -> (std::fs::File, std::fs::File) {
    use std::os::fd::FromRawFd;
    let (mut typed, mut read) = (0, 0);
    use std::ptr::{null, null_mut};
    // SAFETY: openpty writes two new file descriptors, owned by the Files made of them.
    let made = unsafe { libc::openpty(&mut typed, &mut read, null_mut(), null(), null()) };
    assert_eq!(made, 0, "openpty: {}", std::io::Error::last_os_error());
    unsafe {
        (
            std::fs::File::from_raw_fd(typed),
            std::fs::File::from_raw_fd(read),
        )
    }
}

#[test]
fn a_terminal_on_stdin_is_told_that_puzzles_are_read_from_it() {
    let hint = "reading puzzles from standard input";
    let (mut terminal, stdin) = pseudo_terminal();
    let child = StdCommand::new(assert_cmd::cargo::cargo_bin("sudoku-batch"))
        .args(["solve", "-q"])
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A puzzle typed, then Ctrl-D: the end of the input.
    let puzzle =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    write!(terminal, "{puzzle}\n\x04").unwrap();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(hint), "{err}");
    assert_eq!(
        String::from_utf8(out.stdout).unwrap().trim(),
        LEETCODE_SOLUTION
    );
    // Piped in, or named: no hint.
    for (args, stdin) in [
        (&["solve", "-q"][..], puzzle),
        (&["solve", "-q", "-"], puzzle),
    ] {
        bin()
            .args(args)
            .write_stdin(format!("{stdin}\n"))
            .assert()
            .success()
            .stderr("");
    }
}

#[test]
fn a_puzzle_given_as_an_argument_is_told_how_to_pass_it() {
    let puzzle =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    for command in ["solve", "rate", "canon", "verify", "shuffle", "bench"] {
        let pipe = format!("echo '{puzzle}' | sudoku-batch {command}");
        bin()
            .args([command, puzzle])
            .assert()
            .code(2)
            .stdout("")
            .stderr(
                predicate::str::contains("no such file, and it reads as a puzzle")
                    .and(predicate::str::contains(pipe)),
            );
    }
    // A missing path that is no puzzle gets the plain message.
    bin()
        .args(["solve", "-q", &puzzle[..80]])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("cannot open").and(predicate::str::contains("puzzle").not()),
        );
}

#[test]
fn output_format_is_another_name_for_format() {
    for command in ["solve", "rate", "canon", "verify"] {
        let run = |option: &str| {
            bin()
                .args([command, "-q", option, "csv"])
                .arg(fixture("mixed.txt"))
                .output()
                .unwrap()
                .stdout
        };
        let csv = run("--format");
        assert!(csv.starts_with(b"line,"), "{command}");
        assert_eq!(run("--output-format"), csv, "{command}");
    }
}

#[test]
fn an_empty_cell_mark_with_line_output_is_refused() {
    for command in ["solve", "rate"] {
        bin()
            .args([command, "-q", "--empty", "."])
            .arg(fixture("mixed.txt"))
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(
                "--empty needs --format csv or jsonl",
            ));
        let csv = bin()
            .args([command, "-q", "--empty", ".", "--format", "csv"])
            .arg(fixture("mixed.txt"))
            .output()
            .unwrap();
        assert!(matches!(csv.status.code(), Some(0 | 1)), "{command}");
    }
}

#[test]
#[cfg_attr(not(shared_datasets), ignore = "needs ../shared/datasets")]
fn closed_pipe_ends_quietly() {
    let path = dataset("puzzles2_17_clue");
    let mut child = StdCommand::new(assert_cmd::cargo::cargo_bin("sudoku-batch"))
        .args(["solve", "-q", "--threads", "2"])
        .arg(path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert_eq!(first.trim().len(), 81);
    // The reader is dropped here: the pipe is closed, like `| head -1`.
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(err.is_empty(), "stderr: {err}");
    assert!(status.success(), "{status:?}");
}

#[test]
#[cfg_attr(not(shared_datasets), ignore = "needs ../shared/datasets")]
fn every_record_of_real_files_comes_out_and_checks() {
    for name in [
        "puzzles2_17_clue",
        "puzzles5_forum_hardest_1905_11+",
        "puzzles6_forum_hardest_1106",
        "puzzles7_serg_benchmark",
        "kaggle1m_sample_first24997.csv",
        "kaggle3m_radcliffe_sample_7034.csv",
        "kaggle9m_vopani_first10000.csv",
        "sudoku_exchange_hard_500_with_solutions.txt",
    ] {
        let path = dataset(name);
        let out = bin()
            .args(["solve", "-q", "--format", "csv", "--no-header"])
            .arg(&path)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{name}");
        let text = String::from_utf8(out.stdout).unwrap();
        let records = sudoku_batch::io::RecordReader::open(
            &sudoku_batch::io::Input::Path(path.clone()),
            &Default::default(),
        )
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
        assert_eq!(
            text.lines().count(),
            records.len(),
            "{name}: records in = records out"
        );
        for (row, record) in text.lines().zip(&records) {
            let f: Vec<&str> = row.split(',').collect();
            assert_eq!(f[0], record.line.to_string(), "{name}");
            let puzzle = record.puzzle.as_ref().unwrap();
            let solution: sudoku_batch::Grid = f[3].parse().unwrap();
            assert!(solution.is_solution_of(puzzle), "{name}:{}", record.line);
        }
    }
}

#[test]
fn version_names_cpu_features() {
    bin()
        .arg("--version")
        .assert()
        .success()
        .stdout(predicate::str::contains("sudoku-batch"));
    bin()
        .arg("--version")
        .env("SUDOKU_BATCH_SIMD", "portable")
        .assert()
        .success()
        .stdout(predicate::str::contains("solver SIMD path: portable"));
    bin()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("Exit codes"));
    bin()
        .args(["solve", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Examples").and(predicate::str::contains("malformed")));
}

#[test]
fn bench_json_has_the_documented_keys() {
    let out = stdout_of(&[
        "bench",
        "--json",
        "--seconds",
        "0.2",
        "--threads",
        "1",
        "--algorithm",
        "fast,mrv,naive",
        fixture("kaggle1m.csv").to_str().unwrap(),
    ]);
    let rows = json_lines(&out);
    assert_eq!(rows.len(), 3);
    for key in [
        "dataset",
        "algorithm",
        "simd",
        "threads",
        "limit",
        "puzzles",
        "seconds",
        "puzzles_per_sec",
        "usec_per_puzzle",
        "no_guess_pct",
        "guesses_per_puzzle",
        "branch_points_per_puzzle",
        "nodes_per_puzzle",
    ] {
        assert!(rows.iter().all(|r| !r[key].is_null()), "missing {key}");
    }
    let nodes: Vec<f64> = rows
        .iter()
        .map(|r| r["nodes_per_puzzle"].as_f64().unwrap())
        .collect();
    assert!(nodes[0] <= nodes[1] && nodes[1] < nodes[2], "{nodes:?}");
}

// ---- verify ------------------------------------------------------------------------------

/// Lines of the report as (line, problem) pairs.
fn report_of(args: &[&str], path: &Path) -> (Option<i32>, Vec<(u64, String)>) {
    let out = bin()
        .arg("verify")
        .args(args)
        .args(["--format", "csv", "-q"])
        .arg(path)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("line,id,problem,detail"));
    let rows = lines
        .map(|l| {
            let f: Vec<&str> = l.splitn(4, ',').collect();
            (f[0].parse().unwrap(), f[2].to_string())
        })
        .collect();
    (out.status.code(), rows)
}

#[test]
#[cfg_attr(not(shared_datasets), ignore = "needs ../shared/datasets")]
fn verify_passes_published_datasets() {
    for name in [
        "kaggle1m_sample_10000_jerod92.csv",
        "kaggle3m_radcliffe_sample_5000_curated.csv",
        "kaggle9m_vopani_random_2000.csv",
        "sudoku_exchange_diabolical_500_with_solutions.txt",
    ] {
        let path = dataset(name);
        let (code, rows) = report_of(&[], &path);
        assert_eq!((code, rows.len()), (Some(0), 0), "{name}: {rows:?}");
    }
    let path = dataset("puzzles7_serg_benchmark");
    let (code, rows) = report_of(&[], &path);
    assert_eq!(code, Some(1));
    assert_eq!(rows.iter().filter(|r| r.1 == "not-unique").count(), 10_000);
    // No solutions listed in this line file: not a problem unless required.
    assert_eq!(rows.len(), 10_000);
    let (_, rows) = report_of(&["--require-solutions"], &path);
    assert_eq!(
        rows.iter().filter(|r| r.1 == "missing-solution").count(),
        10_000
    );
    let (_, rows) = report_of(&["--duplicates"], &dataset("norvig_easy50.txt"));
    let dups: Vec<_> = rows.iter().filter(|r| r.1 == "duplicate").collect();
    assert_eq!(dups, [&(41, "duplicate".to_string())]);
}

#[test]
#[cfg_attr(not(shared_datasets), ignore = "needs ../shared/datasets")]
fn verify_reports_exactly_the_corrupted_lines() {
    let src = dataset("kaggle1m_sample_first24997.csv");
    let text = std::fs::read_to_string(src).unwrap();
    let mut rows: Vec<String> = text.lines().take(201).map(str::to_string).collect(); // header + 200
    let edit = |row: &mut String, f: &dyn Fn(&mut Vec<u8>, &mut Vec<u8>)| {
        let (p, s) = row.split_once(',').unwrap();
        let (mut p, mut s) = (p.as_bytes().to_vec(), s.as_bytes().to_vec());
        f(&mut p, &mut s);
        *row = format!(
            "{},{}",
            String::from_utf8(p).unwrap(),
            String::from_utf8(s).unwrap()
        );
    };
    // File line numbers are index + 1 (the header is line 1).
    // Line 6: one digit of the solution changed (at a cell that is empty in the puzzle).
    edit(&mut rows[5], &|p, s| {
        let i = p.iter().position(|&c| c == b'0').unwrap();
        s[i] = if s[i] == b'9' { b'1' } else { s[i] + 1 };
    });
    // Line 11: two clues of the puzzle swapped (the published solution no longer fits them).
    edit(&mut rows[10], &|p, _| {
        let clues: Vec<usize> = (0..81).filter(|&i| p[i] != b'0').collect();
        let (a, b) = (
            clues[0],
            (1..clues.len())
                .map(|k| clues[k])
                .find(|&j| p[j] != p[clues[0]])
                .unwrap(),
        );
        p.swap(a, b);
    });
    // Line 16: truncated puzzle.
    edit(&mut rows[15], &|p, _| {
        p.pop();
    });
    // Line 26: most clues removed, so the puzzle has several solutions.
    edit(&mut rows[25], &|p, _| {
        for c in p.iter_mut().skip(10) {
            *c = b'0';
        }
    });
    // Line 31: a copy of line 21 (duplicate).
    rows[30] = rows[20].clone();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("corrupt.csv");
    std::fs::write(&path, rows.join("\n") + "\n").unwrap();

    let (code, report) = report_of(&["--duplicates"], &path);
    assert_eq!(code, Some(1));
    let lines: Vec<u64> = report.iter().map(|r| r.0).collect();
    assert!(
        lines.iter().all(|l| [6, 11, 16, 26, 31].contains(l)),
        "{report:?}"
    );
    let at = |line: u64| -> Vec<&str> {
        report
            .iter()
            .filter(|r| r.0 == line)
            .map(|r| r.1.as_str())
            .collect()
    };
    assert_eq!(at(6), ["bad-grid", "wrong-solution"]);
    assert!(at(11).contains(&"clue-mismatch"), "{:?}", at(11));
    assert_eq!(at(16), ["malformed"]);
    assert_eq!(at(26), ["not-unique"]);
    assert_eq!(at(31), ["duplicate"]);

    // The same with the solutions in a parallel file, and as text and JSON lines.
    let puzzles = dir.path().join("puzzles.txt");
    let solutions = dir.path().join("solutions.txt");
    let (p, s): (Vec<&str>, Vec<&str>) =
        rows[1..].iter().map(|r| r.split_once(',').unwrap()).unzip();
    std::fs::write(&puzzles, p.join("\n") + "\n").unwrap();
    std::fs::write(&solutions, s.join("\n") + "\n").unwrap();
    let (_, parallel) = report_of(
        &["--duplicates", "--solutions", solutions.to_str().unwrap()],
        &puzzles,
    );
    let shifted: Vec<(u64, String)> = report.iter().map(|(l, p)| (l - 1, p.clone())).collect();
    assert_eq!(parallel, shifted);
    bin()
        .args(["verify", "-q", "--format", "text"])
        .arg(&path)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "corrupt.csv:16: malformed: puzzle: 80 cells, expected 81",
        ));
}

// ---- sharding ----------------------------------------------------------------------------

/// `solve --shard K/N` of `file` for N from 1 to 7, in line and csv: the shards' outputs
/// concatenated equal the unsharded output.
fn assert_shards_concatenate(file: &Path) {
    let file = file.to_str().unwrap();
    for format in ["line", "csv"] {
        let whole = stdout_of(&["solve", "-q", "--format", format, file]);
        for n in 1..=7 {
            let joined: String = (1..=n)
                .map(|k| {
                    let shard = format!("{k}/{n}");
                    stdout_of(&["solve", "-q", "--format", format, "--shard", &shard, file])
                })
                .collect();
            assert!(joined == whole, "{file} {format} with {n} shards");
        }
    }
}

#[test]
fn shard_outputs_concatenate_to_the_unsharded_output() {
    assert_shards_concatenate(&fixture("mixed.txt"));
    assert_shards_concatenate(&fixture("kaggle3m.csv"));
    bin()
        .args(["solve", "-q", "--shard", "0/3"])
        .arg(fixture("mixed.txt"))
        .assert()
        .code(2);
    bin()
        .args(["solve", "-q", "--shard", "1/2"])
        .write_stdin("x\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--shard needs a file"));
}

#[test]
#[cfg_attr(not(shared_datasets), ignore = "needs ../shared/datasets")]
fn shard_outputs_of_public_datasets_concatenate() {
    assert_shards_concatenate(&dataset("kaggle3m_radcliffe_sample_7034.csv"));
    assert_shards_concatenate(&dataset("puzzles2_17_clue"));
}

#[test]
fn completions_and_man_page() {
    for shell in ["bash", "zsh", "fish"] {
        bin()
            .args(["completions", shell])
            .assert()
            .success()
            .stdout(predicate::str::contains("solve").and(predicate::str::contains("shard")));
    }
    bin()
        .arg("man")
        .assert()
        .success()
        .stdout(predicate::str::contains(".TH sudoku-batch 1"));
}

// ---- generate and shuffle -----------------------------------------------------------------

#[test]
fn generate_is_reproducible_and_verifies() {
    let generate = |seed: &str, threads: &str| {
        bin()
            .args(["generate", "-q", "-n", "300", "--with-solutions"])
            .args(["--seed", seed, "-j", threads])
            .output()
            .unwrap()
    };
    let one = generate("5", "1");
    let two = generate("5", "2");
    assert!(one.status.success());
    assert_eq!(
        one.stdout, two.stdout,
        "same seed, same bytes, whatever the threads"
    );
    assert_eq!(String::from_utf8_lossy(&one.stdout).lines().count(), 301);
    bin()
        .args(["verify", "-q"])
        .write_stdin(one.stdout.clone())
        .assert()
        .code(0);
    let other = generate("6", "2");
    assert_ne!(one.stdout, other.stdout);
    bin()
        .args(["generate", "--clues", "10..20"])
        .assert()
        .code(2);
}

#[test]
fn generate_ends_naming_the_bound_it_cannot_meet() {
    for (args, bound) in [
        (&["--clues", "17..17"][..], "--clues 17..17"),
        (&["--min-guesses", "100000"][..], "--min-guesses 100000"),
        (&["--minimal", "--clues", "40..80"][..], "--clues 40..80"),
    ] {
        let out = bin()
            .args([
                "generate",
                "-q",
                "--count",
                "50",
                "--max-attempts",
                "30",
                "-o",
            ])
            .arg(std::env::temp_dir().join("sudoku-batch-never-written.txt"))
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(bound) && stderr.contains("in 30 attempts"),
            "{args:?}: {stderr}"
        );
        assert!(!std::env::temp_dir()
            .join("sudoku-batch-never-written.txt")
            .exists());
    }
    bin()
        .args(["generate", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Practical bounds"));
}

#[test]
fn generate_defaults_give_typical_puzzles_never_full_grids() {
    let out = bin()
        .args(["generate", "-q", "--count", "200", "--seed", "777"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 200);
    for line in text.lines() {
        let clues = line.bytes().filter(|b| (b'1'..=b'9').contains(b)).count();
        assert!((22..=36).contains(&clues), "{clues} clues: {line}");
    }
    bin()
        .args(["generate", "--clues", "30..81"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("full grid"));
}

/// `generate` with `args` on `threads` threads: exit code, stdout, stderr.
fn generate_with(args: &[&str], threads: &str) -> (Option<i32>, String, String) {
    let out = bin()
        .args(["generate", "-j", threads])
        .args(args)
        .output()
        .unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (out.status.code(), text(out.stdout), text(out.stderr))
}

/// Every puzzle `generate --rating` keeps, rated again by `rate` (uncapped, same ladder), has
/// the ER/EP/ED generate wrote, within the band; lines and `--with-solutions` CSV.
#[test]
fn generate_rating_keeps_puzzles_rate_puts_in_the_band() {
    for (band, ladder, extra, count) in [
        ("3.0..4.5", "se", &[][..], 10),
        ("6.0..7.5", "se", &["--minimal"][..], 3),
        ("4.0..4.4", "sukaku", &["--with-solutions"][..], 6),
    ] {
        let (lo, hi): (f64, f64) = {
            let (a, b) = band.split_once("..").unwrap();
            (a.parse().unwrap(), b.parse().unwrap())
        };
        let count_text = count.to_string();
        let mut args = vec!["-q", "-n", &count_text, "--seed", "1", "--rating", band];
        args.extend(["--ladder", ladder]);
        args.extend(extra);
        let (code, text, stderr) = generate_with(&args, "2");
        assert_eq!(code, Some(0), "{band}: {stderr}");
        let csv = extra.contains(&"--with-solutions");
        // What generate wrote for each puzzle: its ER/EP/ED.
        let written: Vec<(String, String)> = if csv {
            let mut lines = text.lines();
            assert_eq!(lines.next(), Some("puzzle,solution,er,ep,ed"));
            lines
                .map(|l| {
                    let f: Vec<&str> = l.split(',').collect();
                    assert_eq!(f.len(), 5, "{l}");
                    (f[0].to_string(), f[2..].join("/"))
                })
                .collect()
        } else {
            text.lines()
                .map(|l| {
                    let (p, r) = l.split_once(' ').expect("puzzle ER/EP/ED");
                    (p.to_string(), r.to_string())
                })
                .collect()
        };
        assert_eq!(written.len(), count, "{band}");
        // rate reads generate's output as it is (the lines' first field, the CSV's puzzle
        // column), with no cap.
        let rated = bin()
            .args(["rate", "-q", "--format", "csv", "--ladder", ladder])
            .write_stdin(text.clone())
            .output()
            .unwrap();
        assert_eq!(rated.status.code(), Some(0), "{band}");
        let rated = String::from_utf8(rated.stdout).unwrap();
        let mut rows = rated.lines();
        assert_eq!(
            rows.next(),
            Some("line,id,puzzle,status,er,ep,ed,hardest,steps,capped,error")
        );
        let rows: Vec<Vec<&str>> = rows.map(|r| r.split(',').collect()).collect();
        assert_eq!(rows.len(), count);
        for ((puzzle, rating), row) in written.iter().zip(&rows) {
            assert_eq!(
                (row[2], row[3], row[9]),
                (puzzle.as_str(), "rated", "false")
            );
            assert_eq!(&row[4..7].join("/"), rating, "{puzzle}");
            let er: f64 = row[4].parse().unwrap();
            assert!((lo..=hi).contains(&er), "{band}: {puzzle} rated {er}");
        }
    }
}

#[test]
fn generate_rating_is_the_same_whatever_the_threads() {
    for extra in [&[][..], &["--with-solutions", "--minimal"][..]] {
        let mut args = vec!["-q", "-n", "24", "--seed", "5", "--rating", "3.4..5.0"];
        args.extend(extra);
        let one = generate_with(&args, "1");
        let two = generate_with(&args, "2");
        assert_eq!(one.0, Some(0), "{}", one.2);
        assert_eq!(one, two, "{extra:?}");
        let lines = one.1.lines().count();
        assert_eq!(lines, 24 + usize::from(!extra.is_empty()));
    }
}

/// A band too rare for the attempt budget ends the run with exit code 2, saying how many
/// puzzles were found of how many, after how many attempts, and to widen the band; the
/// puzzles found before the miss are written (the same whatever the threads), an -o file
/// is not.
#[test]
fn generate_rating_too_rare_ends_saying_what_was_found() {
    let never = std::env::temp_dir().join("sudoku-batch-rare-band-never-written.txt");
    let out = bin()
        .args([
            "generate",
            "-q",
            "-n",
            "20",
            "--seed",
            "1",
            "--max-attempts",
            "40",
        ])
        .args(["--rating", "11.5..12.0", "-o"])
        .arg(&never)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    for part in [
        "generate: 0 of 20 puzzles found after 40 attempts",
        "puzzle 1: no puzzle met the bounds in 40 attempts",
        "--rating 11.5..12.0 on the se ladder (40 attempts rated",
        "widen the band or raise --max-attempts",
    ] {
        assert!(stderr.contains(part), "{part:?} not in {stderr}");
    }
    assert!(!never.exists());

    // Some found, then one puzzle misses: the ones before it are on stdout, as many as the
    // message says, and all of it is the same with 1 and 2 threads.
    let args = [
        "-q",
        "-n",
        "200",
        "--seed",
        "2",
        "--max-attempts",
        "150",
        "--rating",
        "3.0..4.0",
    ];
    let one = generate_with(&args, "1");
    assert_eq!(one, generate_with(&args, "2"));
    let (code, text, stderr) = one;
    assert_eq!(code, Some(2));
    let found = text.lines().count();
    assert!(found > 0 && found < 200, "{found}");
    let attempts = stderr
        .strip_prefix(&format!(
            "sudoku-batch: generate: {found} of 200 puzzles found after "
        ))
        .and_then(|rest| rest.split_once(" attempts;"))
        .map(|(n, _)| n.parse::<u64>().unwrap())
        .unwrap_or_else(|| panic!("{stderr}"));
    assert!(attempts >= found as u64 + 150, "{stderr}");
    assert!(
        stderr.contains(&format!("puzzle {}: ", found + 1)),
        "{stderr}"
    );
}

/// Without --rating, generate writes what it always wrote: the shipped datasets' first
/// puzzles from their documented commands (datasets/README.md), bare lines and the
/// `puzzle,solution` CSV, whatever the threads.
#[test]
fn generate_without_rating_is_unchanged() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shipped = |name: &str, lines: usize| -> String {
        let text = std::fs::read_to_string(root.join("datasets").join(name)).unwrap();
        text.lines().take(lines).map(|l| format!("{l}\n")).collect()
    };
    for threads in ["1", "2"] {
        let args = [
            "-q",
            "-n",
            "300",
            "--seed",
            "1",
            "--clues",
            "30..36",
            "--with-solutions",
        ];
        let (code, text, _) = generate_with(&args, threads);
        assert_eq!(code, Some(0));
        assert_eq!(text, shipped("generated-easy-10k.csv", 301));
        let args = [
            "-q",
            "-n",
            "40",
            "--seed",
            "2",
            "--minimal",
            "--min-guesses",
            "5",
        ];
        let (code, text, _) = generate_with(&args, threads);
        assert_eq!(code, Some(0));
        assert_eq!(text, shipped("generated-hard-1k.txt", 40));
    }
}

#[test]
fn generate_rating_refuses_bad_bands_and_a_ladder_alone() {
    for (args, message) in [
        (&["--rating", "7..6"][..], "7.0 is above 6.0"),
        (&["--rating", "abc"][..], "expected a band A..B"),
        (&["--rating", "-1..3"][..], "negative"),
        (&["--rating=-1..3"][..], "negative"),
        (&["--rating", "2..x"][..], "\"x\" is not a rating"),
        (&["--rating", "6.25..7"][..], "is not a rating"),
        (&["--rating", "6..30"][..], "is not a rating"),
        (&["--ladder", "sukaku"][..], "--rating <A..B>"),
        (
            &["--rating", "6..7", "--ladder", "hodoku"][..],
            "possible values: se, sukaku",
        ),
    ] {
        bin()
            .arg("generate")
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message));
    }
    let help = stdout_of(&["generate", "--help"]);
    assert!(
        help.contains("--rating <A..B>") && help.contains("--ladder"),
        "{help}"
    );
    let man = stdout_of(&["man", "generate"]);
    assert!(man.contains("rating"), "{man}");
}

#[test]
fn shuffle_keeps_solution_counts_and_is_reproducible() {
    let input = fixture("kaggle3m.csv");
    let args = [
        "shuffle",
        "-q",
        "--copies",
        "20",
        "--seed",
        "3",
        "--with-solutions",
    ];
    let one = bin()
        .args(args)
        .args(["-j", "1"])
        .arg(&input)
        .output()
        .unwrap();
    let two = bin()
        .args(args)
        .args(["-j", "2"])
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(one.stdout, two.stdout);
    let text = String::from_utf8(one.stdout).unwrap();
    assert_eq!(text.lines().count(), 1 + 3 * 20);
    let distinct: std::collections::HashSet<&str> = text.lines().collect();
    assert_eq!(distinct.len(), 1 + 3 * 20, "the copies look different");
    bin()
        .args(["verify", "-q"])
        .write_stdin(text)
        .assert()
        .code(0);
    // A puzzle with several solutions keeps several solutions.
    let empty = format!("{}\n", ".".repeat(81));
    let shuffled = bin()
        .args(["shuffle", "-q"])
        .write_stdin(empty)
        .output()
        .unwrap()
        .stdout;
    bin()
        .args(["solve", "-q", "--unique"])
        .write_stdin(shuffled)
        .assert()
        .code(1)
        .stdout("multiple\n");
}

#[test]
fn verify_finds_duplicates_up_to_symmetry() {
    let lines: Vec<&str> = [
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
    ]
    .to_vec();
    let original = lines.join("\n") + "\n";
    let shuffled = bin()
        .args(["shuffle", "-q", "--seed", "11"])
        .write_stdin(original.clone())
        .output()
        .unwrap()
        .stdout;
    let input = original + &String::from_utf8(shuffled).unwrap();
    let out = bin()
        .args([
            "verify",
            "-q",
            "--no-unique",
            "--format",
            "csv",
            "--duplicates=canonical",
            "-",
        ])
        .write_stdin(input.clone())
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let dups: Vec<&str> = text.lines().filter(|l| l.contains(",duplicate,")).collect();
    assert_eq!(
        dups,
        [
            "3,,duplicate,equivalent to line 1",
            "4,,duplicate,equivalent to line 2"
        ]
    );
    // Exact duplicates do not see through the symmetry.
    let exact = bin()
        .args([
            "verify",
            "-q",
            "--no-unique",
            "--format",
            "csv",
            "--duplicates",
        ])
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(!String::from_utf8(exact.stdout)
        .unwrap()
        .contains(",duplicate,"));
}
