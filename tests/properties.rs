//! Property tests of the whole pipeline, through the real binary, on random mixes of good
//! and bad records (relabelled real puzzles, puzzles with clues removed, clashing givens,
//! random junk, comments, blank lines, mixed line endings):
//! - the output is byte-identical for 1 thread and 2 threads (with small batches);
//! - every input record yields exactly one output record, with its own line number;
//! - `verify` accepts what `solve --limit 2` produced: the records it passes are exactly the
//!   solved ones.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use proptest::prelude::*;

/// Real puzzles with a unique solution (tests/fixtures/golden.txt).
fn base_puzzles() -> Vec<String> {
    let golden = common::fixture("golden.txt");
    std::fs::read_to_string(golden)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && l.split(':').nth(1) == Some("1"))
        .map(|l| l[..81].to_string())
        .collect()
}

/// Swap digit labels by `perm` (a permutation of 1..=9 given as 9 bytes).
fn relabel(puzzle: &str, perm: &[u8; 9]) -> String {
    puzzle
        .bytes()
        .map(|b| match b {
            b'1'..=b'9' => (b'0' + perm[usize::from(b - b'1')]) as char,
            _ => b as char,
        })
        .collect()
}

#[derive(Clone, Debug)]
enum Piece {
    Good(usize, [u8; 9]),
    Holes(usize, Vec<usize>),
    Clash(usize, usize),
    Junk(String),
    Comment(String),
    Blank,
}

fn permutation() -> impl Strategy<Value = [u8; 9]> {
    Just([1u8, 2, 3, 4, 5, 6, 7, 8, 9]).prop_shuffle()
}

fn piece(n: usize) -> impl Strategy<Value = Piece> {
    prop_oneof![
        4 => (0..n, permutation()).prop_map(|(i, p)| Piece::Good(i, p)),
        2 => (0..n, prop::collection::vec(0usize..81, 1..12)).prop_map(|(i, h)| Piece::Holes(i, h)),
        1 => (0..n, 0usize..81).prop_map(|(i, c)| Piece::Clash(i, c)),
        2 => "[0-9.x,; \"]{0,90}".prop_map(Piece::Junk),
        1 => "[ -~]{0,20}".prop_map(Piece::Comment),
        1 => Just(Piece::Blank),
    ]
}

/// The text of a piece (one line, no line break).
fn render(piece: &Piece, base: &[String]) -> String {
    match piece {
        Piece::Good(i, perm) => relabel(&base[*i], perm),
        Piece::Holes(i, holes) => {
            let mut b = base[*i].clone().into_bytes();
            for &h in holes {
                b[h] = b'.';
            }
            String::from_utf8(b).unwrap()
        }
        Piece::Clash(i, cell) => {
            // Copy a clue into an empty cell of the same row: the givens clash (or, when the
            // row has no empty cell, the puzzle stays as it is).
            let mut b = base[*i].clone().into_bytes();
            let row = cell / 9 * 9;
            let clue = (row..row + 9).find(|&c| b[c] != b'.');
            let empty = (row..row + 9).find(|&c| b[c] == b'.');
            if let (Some(c), Some(e)) = (clue, empty) {
                b[e] = b[c];
            }
            String::from_utf8(b).unwrap()
        }
        Piece::Junk(s) => s.clone(),
        Piece::Comment(s) => format!("# {s}"),
        Piece::Blank => String::new(),
    }
}

/// Build an input file; returns it with the line numbers of its records. Lines end in
/// `\n`, `\r\n` or `\r`; a `\r` followed by a blank `\n` line reads as one `\r\n`, so
/// line numbers are counted on the finished text.
fn build(pieces: &[(Piece, u8)], base: &[String]) -> (Vec<u8>, Vec<u64>) {
    let mut text = Vec::new();
    for (piece, ending) in pieces {
        let line = render(piece, base);
        text.extend_from_slice(line.as_bytes());
        text.extend_from_slice(match ending % 3 {
            0 => b"\n",
            1 => b"\r\n",
            _ => b"\r",
        });
    }
    let normalised = String::from_utf8(text.clone())
        .unwrap()
        .replace("\r\n", "\n")
        .replace('\r', "\n");
    let records = normalised
        .lines()
        .enumerate()
        .filter(|(_, l)| {
            let t = l.trim_start();
            !(t.is_empty() || t.starts_with('#'))
        })
        .map(|(n, _)| n as u64 + 1)
        .collect();
    (text, records)
}

fn run(args: &[&str], input: &[u8]) -> (Option<i32>, String) {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("sudoku-batch"))
        .args(args)
        .arg("--quiet")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let feeder = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap().unwrap();
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code(), String::from_utf8(out.stdout).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn one_thread_and_two_threads_write_the_same_records_one_per_input_record(
        pieces in prop::collection::vec((piece(base_puzzles().len()), any::<u8>()), 0..60),
        batch in 1usize..7,
        format in prop::sample::select(vec!["line", "csv", "jsonl"]),
    ) {
        let base = base_puzzles();
        let (input, records) = build(&pieces, &base);
        let batch = batch.to_string();
        let (code1, one) = run(&["solve", "--threads", "1", "--format", format, "--limit", "2"], &input);
        let (code2, two) = run(
            &["solve", "--threads", "2", "--batch", &batch, "--format", format, "--limit", "2"],
            &input,
        );
        prop_assert_eq!(&one, &two);
        prop_assert_eq!(code1, code2);
        prop_assert!(code1 == Some(0) || code1 == Some(1));
        // Records in == records out, each with its own line number.
        let (_, jsonl) = run(&["solve", "--format", "jsonl", "--threads", "2", "--batch", &batch], &input);
        let lines: Vec<u64> = jsonl
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["line"].as_u64().unwrap())
            .collect();
        prop_assert_eq!(lines, records.clone());
        let body = if format == "csv" { one.lines().count().saturating_sub(1) } else { one.lines().count() };
        prop_assert_eq!(body, records.len());
    }

    #[test]
    fn verify_accepts_what_solve_produced(
        pieces in prop::collection::vec((piece(base_puzzles().len()), any::<u8>()), 1..40),
    ) {
        let base = base_puzzles();
        let (input, records) = build(&pieces, &base);
        let (_, csv) = run(&["solve", "--format", "csv", "--limit", "2", "--threads", "2"], &input);
        let mut rdr = csv::Reader::from_reader(csv.as_bytes());
        let mut solved = Vec::new();
        let mut not_solved = Vec::new();
        for (i, row) in rdr.records().enumerate() {
            let row = row.unwrap();
            // The report numbers lines of the CSV it reads: data row i is line i + 2.
            if &row[4] == "solved" {
                solved.push(i as u64 + 2);
            } else {
                not_solved.push(i as u64 + 2);
            }
        }
        prop_assert_eq!(solved.len() + not_solved.len(), records.len());
        let (code, report) = run(&["verify", "--format", "csv", "--threads", "2"], csv.as_bytes());
        let mut failed: Vec<u64> = csv::Reader::from_reader(report.as_bytes())
            .records()
            .map(|r| r.unwrap()[0].parse().unwrap())
            .collect();
        failed.dedup();
        prop_assert_eq!(&failed, &not_solved);
        prop_assert_eq!(code, Some(if not_solved.is_empty() { 0 } else { 1 }));
    }
}
