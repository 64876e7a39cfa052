//! Candidate grids (729 characters) through every command that reads records: statuses and
//! messages of good, invalid, unsolvable, multiple and malformed grids, one output record per
//! input record, in line files and CSV puzzle columns.

mod common;

use common::bin;
use sudoku_batch::{Grid, Position};

const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

/// A good grid, then one per status, then a puzzle, with the status each gets from `solve`.
fn records() -> Vec<(String, &'static str)> {
    let good = Position::from_grid(&PUZZLE.parse::<Grid>().unwrap()).to_line();
    let mut no_candidate = good.clone();
    no_candidate.replace_range(18..27, ".........");
    // r1c3 holds 1, 2 or 4, and 4 in the one solution.
    let mut no_four = good.clone();
    no_four.replace_range(18..27, "12.......");
    let mut clash = good.clone();
    clash.replace_range(18..27, "..3......"); // 3 is placed at r1c2 already
    let open = Position::from_grid(&Grid::EMPTY).to_line();
    let mut bad_char = good.clone();
    bad_char.replace_range(10..11, "7");
    vec![
        (good.replace('.', "0"), "solved"),
        (no_candidate, "invalid"),
        (no_four, "unsolvable"),
        (clash, "invalid"),
        (open, "multiple"),
        (bad_char, "malformed"),
        (good[..728].to_string(), "malformed"),
        (PUZZLE.to_string(), "solved"),
    ]
}

fn run(args: &[&str], input: String) -> (String, String, i32) {
    let out = bin().args(args).write_stdin(input).output().unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (
        text(out.stdout),
        text(out.stderr),
        out.status.code().unwrap(),
    )
}

fn lines_of(records: &[(String, &str)]) -> String {
    records.iter().map(|(r, _)| format!("{r}\n")).collect()
}

#[test]
fn solve_gives_each_candidate_grid_its_status_and_message() {
    let records = records();
    let (out, err, code) = run(
        &["solve", "--format", "csv", "--limit", "2"],
        lines_of(&records),
    );
    let rows: Vec<&str> = out.lines().skip(1).collect();
    assert_eq!(rows.len(), records.len(), "{out}");
    for (row, (input, status)) in rows.iter().zip(&records) {
        assert!(row.contains(&format!(",{status},")), "{row}");
        if input.len() == 729 {
            assert!(
                row.contains(input.as_str()),
                "the puzzle field is the grid as read"
            );
        }
    }
    assert!(rows[0].contains(SOLUTION));
    assert!(
        rows[1].ends_with(",cell r1c3 has no candidate"),
        "{}",
        rows[1]
    );
    assert!(
        rows[3].ends_with(",digit 3 appears twice in row 1 (r1c2 and r1c3)"),
        "{}",
        rows[3]
    );
    assert!(err.contains("<stdin>:6: malformed: character 11 is '7', not 2 (a candidate)"));
    assert!(err.contains("<stdin>:7: malformed: 728 cells, expected 81"));
    assert_eq!(code, 1);
}

#[test]
fn a_csv_puzzle_column_holds_candidate_grids_too() {
    let records = records();
    let csv: String = std::iter::once("id,puzzle\n".to_string())
        .chain(
            records
                .iter()
                .enumerate()
                .map(|(i, (r, _))| format!("{i},{r}\n")),
        )
        .collect();
    let (out, _, _) = run(&["solve", "--limit", "2"], csv);
    let statuses: Vec<&str> = out.lines().collect();
    assert_eq!(statuses.len(), records.len());
    assert_eq!(statuses[0], SOLUTION);
    for (got, (_, want)) in statuses.iter().zip(&records).skip(1) {
        if *want != "solved" {
            assert_eq!(got, want);
        }
    }
}

#[test]
fn rate_and_hint_give_one_record_each_with_solves_statuses() {
    let records = records();
    let (out, _, code) = run(&["rate"], lines_of(&records));
    let rated: Vec<&str> = out.lines().collect();
    assert_eq!(rated.len(), records.len());
    for (got, (_, want)) in rated.iter().zip(&records) {
        match *want {
            "solved" => assert!(got.contains('/'), "{got}"),
            _ => assert_eq!(got, want),
        }
    }
    assert_eq!(code, 1);
    let (out, _, _) = run(&["hint"], lines_of(&records));
    let hints: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(hints.len(), records.len());
    for (h, (_, want)) in hints.iter().zip(&records) {
        let status = h["status"].as_str().unwrap_or("step");
        assert_eq!(status, if *want == "solved" { "step" } else { want });
    }
    let (out, _, code) = run(&["hint", "--format", "text"], lines_of(&records[..1]));
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 1 + 27 + 2 + 6 + 1, "{out}");
}

#[test]
fn verify_and_canon_report_candidate_grids_and_go_on() {
    let records = records();
    let message = "a candidate grid (729 characters): this command takes only 81-cell puzzles";
    // verify lists each record's problems: the five grids that read as grids are malformed.
    let (out, _, code) = run(&["verify", "--format", "jsonl"], lines_of(&records));
    assert_eq!(out.matches(message).count(), 5, "{out}");
    assert_eq!(code, 1);
    // canon writes one record per record.
    let (out, err, code) = run(&["canon", "--format", "jsonl"], lines_of(&records));
    assert_eq!(out.lines().count(), records.len(), "{out}");
    assert!(out.matches(message).count() + err.matches(message).count() >= 5);
    assert_eq!(code, 1);
}

#[test]
fn shuffled_candidate_grids_keep_their_solution_count() {
    let records = records();
    let input = lines_of(&records[..5]);
    let (out, _, _) = run(&["shuffle", "--seed", "7"], input);
    assert!(out.lines().all(|l| l.len() == 729));
    let (solved, _, _) = run(&["solve", "--limit", "2"], out);
    let statuses: Vec<&str> = solved
        .lines()
        .map(|l| if l.len() == 81 { "solved" } else { l })
        .collect();
    let want: Vec<&str> = records[..5].iter().map(|(_, s)| *s).collect();
    assert_eq!(statuses, want);
}
