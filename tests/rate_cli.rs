//! `rate` end to end through the real binary: ratings against Sudoku Explainer's (golden
//! fixture), every status and output format, passthrough, `--max-rating`, `--steps` replayed
//! and proved sound against each solution, the same bytes whatever the threads, the summary
//! and its chart, and a slice of every public dataset.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

mod common;
use common::{bin, datasets, eureka, fixture};

use serde_json::Value;
use sudoku_batch::engines::rater::{RateOptions, Rater};
use sudoku_batch::engines::solver::solve_with_limit;
use sudoku_batch::Grid;

/// Parse JSON lines output.
fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// Run `rate` with `args` on `input` (stdin); returns stdout and the exit code.
fn rate_stdin(args: &[&str], input: &str) -> (String, Option<i32>) {
    let out = bin()
        .arg("rate")
        .args(args)
        .write_stdin(input.to_string())
        .output()
        .unwrap();
    (String::from_utf8(out.stdout).unwrap(), out.status.code())
}

/// A record with two or more solutions is not rated; csv and jsonl say what the search
/// proved (it stops at the second solution), line output its status word alone.
#[test]
fn multiple_records_say_how_many_solutions_were_proved() {
    let empty = ".".repeat(81);
    let input = format!("{empty}\n");
    let (csv, code) = rate_stdin(&["-q", "--format", "csv"], &input);
    assert_eq!(code, Some(1));
    let row = format!("1,,{empty},multiple,,,,,,,2+ solutions");
    assert_eq!(csv.lines().nth(1), Some(row.as_str()));
    let (jsonl, _) = rate_stdin(&["-q", "--format", "jsonl"], &input);
    let rows = json_lines(&jsonl);
    assert_eq!(rows[0]["status"], "multiple");
    assert_eq!(rows[0]["error"], "2+ solutions");
    assert_eq!(rate_stdin(&["-q"], &input).0, "multiple\n");
}

/// A rating in tenths from its text (`2.3` → 23).
fn tenths(text: &str) -> u32 {
    let (whole, tenth) = text.split_once('.').unwrap_or_else(|| panic!("{text}"));
    assert_eq!(tenth.len(), 1, "{text}");
    whole.parse::<u32>().unwrap() * 10 + tenth.parse::<u32>().unwrap()
}

/// The JSON number of a rating in tenths.
fn json_tenths(v: &Value) -> u32 {
    (v.as_f64().unwrap_or_else(|| panic!("not a number: {v}")) * 10.0).round() as u32
}

/// The golden fixture: puzzle, and SE 1.2.1.3's `ER/EP/ED`.
fn golden() -> Vec<(String, [u32; 3])> {
    let text = std::fs::read_to_string(fixture("rate-golden.txt")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split(':').collect();
            let se: Vec<u32> = f[1].split('/').map(tenths).collect();
            (f[0].to_string(), [se[0], se[1], se[2]])
        })
        .collect()
}

/// Each golden puzzle rated like SE 1.2.1.3 (ER, EP and ED), or capped below SE's ER (a
/// technique not in the engine yet): never a wrong number. Puzzles SE solves with singles
/// alone are never capped.
#[test]
fn golden_puzzles_are_rated_as_sudoku_explainer_rates_them_or_capped_below() {
    let cases = golden();
    let input: String = cases.iter().map(|c| format!("{}\n", c.0)).collect();
    let (out, code) = rate_stdin(&["--format", "csv", "-q"], &input);
    assert_eq!(code, Some(0));
    let rows: Vec<Vec<&str>> = out
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(rows.len(), cases.len());
    for ((puzzle, se), row) in cases.iter().zip(&rows) {
        assert_eq!(row[2], puzzle);
        assert_eq!(row[3], "rated", "{puzzle}");
        let ours = [tenths(row[4]), tenths(row[5]), tenths(row[6])];
        let capped = row[9] == "true";
        if capped {
            assert!(
                ours[0] <= se[0],
                "{puzzle}: capped at {ours:?} above SE's {se:?}"
            );
            assert!(
                se[0] > 23,
                "{puzzle}: singles alone (SE {se:?}) were capped"
            );
        } else {
            assert_eq!(ours, *se, "{puzzle}: ours {ours:?}, SE {se:?}");
        }
    }
}

/// For each ladder and `--max-rating`, the CLI's ratings are the library's: ER/EP/ED, hardest
/// technique, steps and capped, record for record (the CLI adds the record handling around
/// the engine, nothing to its numbers).
#[test]
fn the_cli_gives_the_engines_ratings_for_every_ladder_and_cap() {
    let puzzles: Vec<String> = golden().into_iter().map(|c| c.0).collect();
    let input: String = puzzles.iter().map(|p| format!("{p}\n")).collect();
    for (ladder, max) in [
        ("se", None),
        ("sukaku", None),
        ("se", Some("2.6")),
        ("sukaku", Some("3.4")),
    ] {
        let mut args = vec!["--ladder", ladder, "--format", "jsonl", "-q"];
        if let Some(max) = max {
            args.extend(["--max-rating", max]);
        }
        let (out, code) = rate_stdin(&args, &input);
        assert_eq!(code, Some(0));
        let rows = json_lines(&out);
        assert_eq!(rows.len(), puzzles.len());
        let options = RateOptions {
            ladder: ladder.parse().unwrap(),
            max_rating: max.map(|m| m.parse().unwrap()),
        };
        let mut rater = Rater::new(options);
        for (p, row) in puzzles.iter().zip(&rows) {
            let grid = Grid::from_line(p).unwrap();
            let solution = solve_with_limit(&grid, 2).solution.unwrap();
            let want = rater.rate(&grid, &solution);
            let at = format!("{ladder} {max:?} {p}");
            assert_eq!(json_tenths(&row["er"]), u32::from(want.er.0), "{at}");
            assert_eq!(json_tenths(&row["ep"]), u32::from(want.ep.0), "{at}");
            assert_eq!(json_tenths(&row["ed"]), u32::from(want.ed.0), "{at}");
            assert_eq!(
                row["hardest"].as_str(),
                want.hardest.map(|t| t.name()),
                "{at}"
            );
            assert_eq!(row["steps"].as_u64(), Some(u64::from(want.steps)), "{at}");
            assert_eq!(row["capped"].as_bool(), Some(want.capped), "{at}");
        }
    }
}

/// One record per input record, in input order, each rated one as `ER/EP/ED` and every other
/// as its status word; the exit code says some were not rated.
#[test]
fn every_record_gets_one_line_with_its_rating_or_status_word() {
    let out = bin()
        .args(["rate", "-q"])
        .arg(fixture("mixed.txt"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 7);
    let words = [
        "",
        "malformed",
        "invalid",
        "unsolvable",
        "multiple",
        "",
        "malformed",
    ];
    for (line, word) in lines.iter().zip(words) {
        if word.is_empty() {
            let rating = line.strip_suffix(" capped").unwrap_or(line);
            let parts: Vec<u32> = rating.split('/').map(tenths).collect();
            assert_eq!(parts.len(), 3, "{line}");
            assert!(parts.iter().all(|&p| (10..=255).contains(&p)), "{line}");
        } else {
            assert_eq!(*line, word);
        }
    }
}

#[test]
fn csv_and_jsonl_records_carry_line_puzzle_status_rating_and_error() {
    let mixed = fixture("mixed.txt");
    let out = bin()
        .args(["rate", "-q", "--format", "csv"])
        .arg(&mixed)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next().unwrap(),
        "line,id,puzzle,status,er,ep,ed,hardest,steps,capped,error"
    );
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 7);
    assert!(rows[0].starts_with(
        "2,,53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79,rated,"
    ));
    assert!(
        rows[0].ends_with(",false,") || rows[0].ends_with(",true,"),
        "{}",
        rows[0]
    );
    assert_eq!(
        rows[1],
        "4,,53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..7,malformed,,,,,,,\"80 cells, expected 81\""
    );
    assert!(
        rows[4].starts_with("7,,") && rows[4].ends_with(",multiple,,,,,,,2+ solutions"),
        "{}",
        rows[4]
    );
    let out = bin()
        .args(["rate", "-q", "--format", "jsonl"])
        .arg(&mixed)
        .output()
        .unwrap();
    let rows = json_lines(&String::from_utf8(out.stdout).unwrap());
    let lines: Vec<u64> = rows.iter().map(|r| r["line"].as_u64().unwrap()).collect();
    assert_eq!(lines, [2, 4, 5, 6, 7, 8, 9]);
    let statuses: Vec<&str> = rows.iter().map(|r| r["status"].as_str().unwrap()).collect();
    assert_eq!(
        statuses,
        [
            "rated",
            "malformed",
            "invalid",
            "unsolvable",
            "multiple",
            "rated",
            "malformed"
        ]
    );
    assert!(rows[2]["error"]
        .as_str()
        .unwrap()
        .contains("digit 3 appears twice in row 1"));
    let rated = &rows[0];
    assert!(rated["er"].is_f64() && rated["ep"].is_f64() && rated["ed"].is_f64());
    assert!(rated["hardest"].is_string() && rated["steps"].as_u64().unwrap() > 0);
    assert!(rated.get("error").is_none());
    for key in ["er", "ep", "ed", "hardest", "steps", "capped"] {
        assert!(rows[3][key].is_null(), "{key}: {}", rows[3]);
    }
    assert!(rows[3].get("error").is_none(), "unsolvable: {}", rows[3]);
    assert_eq!(rows[4]["error"], "2+ solutions");
}

/// `--passthrough`: the input record as read, then the results, renamed where a name is taken.
#[test]
fn passthrough_repeats_the_input_record_before_the_results() {
    let input = "puzzle,status,note\n\
        53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79,kept,\"a, b\"\n";
    let (out, code) = rate_stdin(&["--format", "csv", "--passthrough", "-q"], input);
    assert_eq!(code, Some(0));
    let mut lines = out.lines();
    assert_eq!(
        lines.next().unwrap(),
        "puzzle,status,note,line,result_status,er,ep,ed,hardest,steps,capped,error"
    );
    let row = lines.next().unwrap();
    assert!(row.contains(",kept,\"a, b\",2,rated,"), "{row}");
    let (out, _) = rate_stdin(&["--format", "jsonl", "--passthrough", "-q"], input);
    let v = &json_lines(&out)[0];
    assert_eq!(v["status"], "kept");
    assert_eq!(v["result_status"], "rated");
    assert_eq!(v["note"], "a, b");
}

/// `--max-rating X`: no step harder than X is taken; a puzzle that needs one is capped.
#[test]
fn max_rating_caps_every_path_at_the_rating_given() {
    let cases = golden();
    let input: String = cases.iter().map(|c| format!("{}\n", c.0)).collect();
    let (out, code) = rate_stdin(&["--max-rating", "1.5", "--format", "jsonl", "-q"], &input);
    assert_eq!(code, Some(0));
    let rows = json_lines(&out);
    for ((puzzle, se), row) in cases.iter().zip(&rows) {
        let er = json_tenths(&row["er"]);
        assert!(er <= 15, "{puzzle}: {row}");
        if se[0] > 15 {
            assert_eq!(row["capped"], true, "{puzzle}: SE {se:?}, {row}");
        }
    }
    let (out, _) = rate_stdin(&["--max-rating", "1.5", "-q"], &input);
    assert!(out.lines().any(|l| l.ends_with(" capped")), "{out}");
}

/// The candidates of a grid being solved by the steps: placed digits, and each empty cell's
/// candidates (bit d-1 for digit d).
struct Board {
    digits: [u8; 81],
    candidates: [u16; 81],
}

fn peers(a: usize, b: usize) -> bool {
    a != b && (a / 9 == b / 9 || a % 9 == b % 9 || (a / 27 == b / 27 && a % 9 / 3 == b % 9 / 3))
}

impl Board {
    fn new(puzzle: &Grid) -> Board {
        let mut board = Board {
            digits: [0; 81],
            candidates: [0x1ff; 81],
        };
        for (cell, &d) in puzzle.cells().iter().enumerate() {
            if d != 0 {
                board.place(cell, d);
            }
        }
        board
    }

    /// Place `digit`; false when the cell was already placed.
    fn place(&mut self, cell: usize, digit: u8) -> bool {
        if self.digits[cell] != 0 {
            return false;
        }
        self.digits[cell] = digit;
        self.candidates[cell] = 0;
        for other in (0..81).filter(|&o| peers(cell, o)) {
            self.candidates[other] &= !(1 << (digit - 1));
        }
        true
    }

    /// Remove a candidate; false when it was not there.
    fn eliminate(&mut self, cell: usize, digit: u8) -> bool {
        let bit = 1 << (digit - 1);
        let had = self.candidates[cell] & bit != 0;
        self.candidates[cell] &= !bit;
        had
    }
}

/// `r1c2` → cell 1; `r1c2=5` or `r1c2<>5` → (1, 5).
fn cell_of(text: &str) -> usize {
    let b = text.as_bytes();
    assert!(b.len() == 4 && b[0] == b'r' && b[2] == b'c', "{text}");
    usize::from(b[1] - b'1') * 9 + usize::from(b[3] - b'1')
}

fn candidate_of(text: &str, op: &str) -> (usize, u8) {
    let (cell, digit) = text.split_once(op).unwrap_or_else(|| panic!("{text}"));
    let digit: u8 = digit.parse().unwrap();
    assert!((1..=9).contains(&digit), "{text}");
    (cell_of(cell), digit)
}

/// Replay one record's steps from its puzzle: every placement is the solution's digit, every
/// elimination is not, every step changes the board, a chain step's chains hold on the board
/// it was found on and prove what it does ([`eureka::check_step`]), the rating is the
/// hardest step, and an uncapped path ends in the solution. Returns the number of steps;
/// counts the chain steps by technique into `chains`.
fn replay(
    puzzle: &Grid,
    steps: &[&Value],
    rating: &Value,
    chains: &mut BTreeMap<String, usize>,
) -> usize {
    let solution = solve_with_limit(puzzle, 2).solution.unwrap();
    let at = |s: &Value| format!("{puzzle} step {}", s["step"]);
    let mut board = Board::new(puzzle);
    let mut hardest = 0;
    for (i, step) in steps.iter().enumerate() {
        assert_eq!(step["step"].as_u64(), Some(i as u64 + 1), "{}", at(step));
        assert!(step["technique"].as_str().is_some_and(|t| !t.is_empty()));
        hardest = hardest.max(json_tenths(&step["difficulty"]));
        for cell in step["cells"].as_array().unwrap() {
            cell_of(cell.as_str().unwrap());
        }
        for digit in step["digits"].as_array().unwrap() {
            assert!((1..=9).contains(&digit.as_u64().unwrap()), "{}", at(step));
        }
        match eureka::check_step(&board.candidates, step) {
            Ok(Some(_)) => {
                let technique = step["technique"].as_str().unwrap().to_string();
                *chains.entry(technique).or_default() += 1;
            }
            Ok(None) => {}
            Err(e) => panic!("{}: {e}", at(step)),
        }
        let mut changed = false;
        for p in step["placements"].as_array().unwrap() {
            let (cell, digit) = candidate_of(p.as_str().unwrap(), "=");
            assert_eq!(solution.cells()[cell], digit, "{}: unsound {p}", at(step));
            changed |= board.place(cell, digit);
        }
        for e in step["eliminations"].as_array().unwrap() {
            let (cell, digit) = candidate_of(e.as_str().unwrap(), "<>");
            assert_ne!(solution.cells()[cell], digit, "{}: unsound {e}", at(step));
            changed |= board.eliminate(cell, digit);
        }
        assert!(changed, "{}: the step changes nothing", at(step));
    }
    assert_eq!(
        rating["steps"].as_u64(),
        Some(steps.len() as u64),
        "{puzzle}"
    );
    let er = json_tenths(&rating["er"]);
    if !steps.is_empty() {
        assert_eq!(er, hardest, "{puzzle}: ER is not the hardest step");
    }
    if rating["capped"] == false {
        assert_eq!(
            &board.digits,
            solution.cells(),
            "{puzzle}: the steps end elsewhere"
        );
    }
    steps.len()
}

/// Group `--steps` output by record: the steps before each rating object.
fn records_with_steps(rows: &[Value]) -> Vec<(Vec<&Value>, &Value)> {
    let mut out = Vec::new();
    let mut steps = Vec::new();
    for row in rows {
        match row["kind"].as_str() {
            Some("step") => steps.push(row),
            Some("rating") => {
                for s in &steps {
                    assert_eq!(s["line"], row["line"], "a step of another record: {s}");
                }
                out.push((std::mem::take(&mut steps), row));
            }
            _ => panic!("no kind: {row}"),
        }
    }
    assert!(steps.is_empty(), "steps after the last rating object");
    out
}

/// `--steps`: each record's steps, then its rating object; replayed, every placement and
/// elimination is sound against the solution and an uncapped path ends in it.
#[test]
fn steps_replay_soundly_into_the_solution() {
    let hard = Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/generated-hard-1k.txt");
    let text = std::fs::read_to_string(hard).unwrap();
    let mut input: String = text.lines().take(150).map(|l| format!("{l}\n")).collect();
    for (puzzle, _) in golden() {
        input.push_str(&puzzle);
        input.push('\n');
    }
    input.push_str("not a puzzle\n");
    let (out, code) = rate_stdin(&["--steps", "-q", "--threads", "2"], &input);
    assert_eq!(code, Some(1));
    let rows = json_lines(&out);
    let records = records_with_steps(&rows);
    assert_eq!(records.len(), input.lines().count());
    let (mut steps, mut uncapped) = (0, 0);
    let mut chains = BTreeMap::new();
    for (record_steps, rating) in &records {
        if rating["status"] != "rated" {
            assert!(record_steps.is_empty());
            continue;
        }
        let puzzle = Grid::from_line(rating["puzzle"].as_str().unwrap()).unwrap();
        steps += replay(&puzzle, record_steps, rating, &mut chains);
        uncapped += usize::from(rating["capped"] == false);
    }
    assert!(
        steps > 1000 && uncapped > 10,
        "{steps} steps, {uncapped} uncapped"
    );
    // The rating objects are the plain jsonl records with a kind.
    let (plain, _) = rate_stdin(&["--format", "jsonl", "-q"], &input);
    for ((_, rating), plain) in records.iter().zip(json_lines(&plain)) {
        let mut rating = (*rating).clone();
        rating.as_object_mut().unwrap().remove("kind");
        assert_eq!(rating, plain);
    }
}

/// Rates `input` with `--steps` (every record rated) and replays each record ([`replay`]):
/// the chain steps checked, by technique.
fn checked_chain_steps(input: &str) -> BTreeMap<String, usize> {
    let (out, code) = rate_stdin(&["--steps", "-q", "--threads", "2"], input);
    assert_eq!(code, Some(0));
    let rows = json_lines(&out);
    let records = records_with_steps(&rows);
    assert_eq!(records.len(), input.lines().count());
    let mut chains = BTreeMap::new();
    for (record_steps, rating) in &records {
        let puzzle = Grid::from_line(rating["puzzle"].as_str().unwrap()).unwrap();
        replay(&puzzle, record_steps, rating, &mut chains);
    }
    let total: usize = chains.values().sum();
    eprintln!("{total} chain steps checked: {chains:?}");
    chains
}

/// Every technique named was checked at least once; a name starting with a space is a
/// family's ending (` (+ Multiple Forcing Chains)`).
fn assert_checked(chains: &BTreeMap<String, usize>, techniques: &[&str]) {
    for technique in techniques {
        let met = if technique.starts_with(' ') {
            chains.keys().any(|t| t.ends_with(technique))
        } else {
            chains.get(*technique).is_some_and(|&n| n > 0)
        };
        assert!(met, "no {technique} step checked: {chains:?}");
    }
}

/// `--steps` on the fixtures' puzzles that need dynamic forcing chains (+), and four that
/// need nested ones (two of level 2, one of level 3, one of level 4): every step replays
/// soundly, and every chain step's chains, parsed, hold link by link on the grid of that step
/// and prove its placement or eliminations ([`eureka::check_step`]). With the datasets'
/// test below, every family of chains is met.
#[test]
fn chain_steps_prove_what_they_do() {
    let mut input = String::new();
    let text = std::fs::read_to_string(fixture("rate/se-chains.txt")).unwrap();
    for line in text.lines().filter(|l| l.ends_with("(+)")) {
        input.push_str(&line[..81]);
        input.push('\n');
    }
    for (name, n) in [
        ("rate/se-nested.txt", 2),
        ("rate/se-nested3.txt", 1),
        ("rate/se-nested4.txt", 1),
    ] {
        let text = std::fs::read_to_string(fixture(name)).unwrap();
        for line in text.lines().filter(|l| !l.starts_with('#')).take(n) {
            input.push_str(&line[..81]);
            input.push('\n');
        }
    }
    let chains = checked_chain_steps(&input);
    assert_checked(&chains, NESTED_CHAINS);
    let chains_met: Vec<&str> = CHAINS
        .iter()
        .copied()
        .filter(|&t| t != "Bidirectional X-Cycle")
        .collect();
    assert_checked(&chains, &chains_met);
}

/// The same on a sample of magictour's top1465 and of the Sudoku Exchange diabolical bank.
#[test]
#[cfg_attr(not(shared_datasets), ignore = "needs ../shared/datasets")]
fn chain_steps_prove_what_they_do_on_datasets() {
    let mut input = String::new();
    for (name, every) in [
        ("puzzles3_magictour_top1465", 5),
        ("sudoku_exchange_diabolical.txt", 400),
    ] {
        let text = std::fs::read_to_string(common::dataset(name)).unwrap();
        let puzzles = text.lines().filter_map(|l| {
            let l = l.trim();
            // A bank line is `hash puzzle rating`; magictour's, the puzzle alone.
            let p = l.split_whitespace().find(|f| f.len() == 81)?;
            (!l.starts_with('#')).then_some(p)
        });
        for p in puzzles.step_by(every) {
            input.push_str(p);
            input.push('\n');
        }
    }
    let chains = checked_chain_steps(&input);
    assert_checked(&chains, CHAINS);
    let total: usize = chains.values().sum();
    assert!(total > 1000, "{total} chain steps");
}

/// The families of chains below dynamic forcing chains (+): the datasets' sample meets each,
/// the fixtures' puzzles all but the bidirectional X-cycle.
const CHAINS: &[&str] = &[
    "Bidirectional Y-Cycle",
    "Bidirectional Cycle",
    "Bidirectional X-Cycle",
    "Forcing X-Chain",
    "Turbot Fish",
    "Forcing Chain",
    "Nishio Forcing Chains",
    "Cell Forcing Chains",
    "Region Forcing Chains",
    "Dynamic Contradiction Forcing Chains",
    "Dynamic Double Forcing Chains",
    "Dynamic Cell Forcing Chains",
    "Dynamic Region Forcing Chains",
];

/// Dynamic forcing chains (+) and nested forcing chains: the fixtures' puzzles meet each.
const NESTED_CHAINS: &[&str] = &[
    "Dynamic Contradiction Forcing Chains (+)",
    "Dynamic Region Forcing Chains (+)",
    "Dynamic Region Forcing Chains (+ Forcing Chains)",
    " (+ Multiple Forcing Chains)",
    " (+ Dynamic Forcing Chains)",
];

/// The chain checker refuses broken chains: on every chain step of one puzzle per hardest
/// technique of `se-chains.txt`, the chains as written pass, and each of these fails: every
/// link of the first chain flipped (`-` and `=` swapped), its last node moved to the next row,
/// its bracketed chains dropped (when it has some), one elimination more.
#[test]
fn the_chain_checker_refuses_broken_chains() {
    let text = std::fs::read_to_string(fixture("rate/se-chains.txt")).unwrap();
    let mut seen = std::collections::HashSet::new();
    let mut input = String::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split_whitespace().collect();
        if seen.insert(f[2]) {
            input.push_str(f[0]);
            input.push('\n');
        }
    }
    let (out, _) = rate_stdin(&["--steps", "-q", "--threads", "2"], &input);
    let rows = json_lines(&out);
    let (mut checked, mut dropped) = (0, 0);
    for (steps, rating) in records_with_steps(&rows) {
        let puzzle = Grid::from_line(rating["puzzle"].as_str().unwrap()).unwrap();
        let mut board = Board::new(&puzzle);
        for step in steps {
            let at = format!("{puzzle} step {}", step["step"]);
            let family = eureka::check_step(&board.candidates, step);
            if family.unwrap_or_else(|e| panic!("{at}: {e}")).is_some() {
                let broken = eureka::broken(step, &board.candidates);
                dropped += usize::from(broken.len() == 4);
                for b in &broken {
                    assert!(
                        eureka::check_step(&board.candidates, b).is_err(),
                        "{at}: a broken chain passes: {}",
                        b["chain"]
                    );
                }
                checked += 1;
            }
            for p in step["placements"].as_array().unwrap() {
                let (cell, digit) = candidate_of(p.as_str().unwrap(), "=");
                board.place(cell, digit);
            }
            for e in step["eliminations"].as_array().unwrap() {
                let (cell, digit) = candidate_of(e.as_str().unwrap(), "<>");
                board.eliminate(cell, digit);
            }
        }
    }
    assert!(
        checked > 50 && dropped > 5,
        "{checked} chain steps, {dropped} with brackets"
    );
}

/// The same bytes with 1 and 2 threads, in every format, small batches (many in flight).
#[test]
fn output_is_the_same_whatever_the_threads() {
    let hard = Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/generated-hard-1k.txt");
    let mut all = Vec::new();
    for format in [
        &["-f", "line"][..],
        &["-f", "csv"],
        &["-f", "jsonl"],
        &["--steps"],
    ] {
        let run = |threads: &str| {
            let out = bin()
                .args(["rate", "-q", "--batch", "64", "--threads", threads])
                .args(format)
                .arg(&hard)
                .arg(fixture("mixed.txt"))
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(1));
            out.stdout
        };
        let one = run("1");
        assert_eq!(one, run("2"), "{format:?}");
        all.push(one);
    }
    let lines = String::from_utf8(all.swap_remove(0)).unwrap();
    assert_eq!(lines.lines().count(), 1000 + 7);
}

/// The summary: ER histogram and hardest techniques add up to the rated records, and `plot`
/// draws the histogram.
#[test]
fn stats_json_counts_ratings_and_plot_draws_them() {
    let dir = tempfile::tempdir().unwrap();
    let stats = dir.path().join("stats.json");
    let hard = Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/generated-hard-1k.txt");
    let out = bin()
        .args(["rate", "-q", "--threads", "2", "-o"])
        .arg(dir.path().join("out.txt"))
        .arg("--stats-json")
        .arg(&stats)
        .arg(&hard)
        .arg(fixture("mixed.txt"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let ratings = std::fs::read_to_string(dir.path().join("out.txt")).unwrap();
    let s: Value = serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
    assert_eq!(s["records"], 1007);
    assert_eq!(s["rated"], 1002);
    assert_eq!(s["malformed"], 2);
    assert_eq!(
        (&s["invalid"], &s["unsolvable"], &s["multiple"]),
        (&1.into(), &1.into(), &1.into())
    );
    // The histogram is the output's ratings counted.
    let mut want: BTreeMap<u32, u64> = BTreeMap::new();
    let mut capped = 0;
    for line in ratings.lines().filter(|l| l.contains('/')) {
        capped += u64::from(line.ends_with(" capped"));
        *want
            .entry(tenths(line.split('/').next().unwrap()))
            .or_default() += 1;
    }
    let histogram: BTreeMap<u32, u64> = s["er_histogram"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (json_tenths(&b["er"]), b["count"].as_u64().unwrap()))
        .collect();
    assert_eq!(histogram, want);
    assert_eq!(s["capped"], capped);
    let by_technique: u64 = s["hardest_techniques"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["count"].as_u64().unwrap())
        .sum();
    assert_eq!(by_technique, 1002);
    assert_eq!(
        json_tenths(&s["er_spread"]["max"]),
        *want.keys().last().unwrap()
    );
    let svg = dir.path().join("er.svg");
    bin()
        .arg("plot")
        .arg(&stats)
        .arg("-o")
        .arg(&svg)
        .assert()
        .success();
    let svg = std::fs::read_to_string(svg).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let texts: Vec<&str> = doc.descendants().filter_map(|n| n.text()).collect();
    assert!(
        texts
            .iter()
            .any(|t| t.contains("Sudoku Explainer rating (ER)")),
        "{texts:?}"
    );
    let lowest = *want.keys().next().unwrap();
    let label = format!("{}.{}", lowest / 10, lowest % 10);
    assert!(
        texts.iter().any(|t| t.trim() == label),
        "{label} in {texts:?}"
    );
}

/// Bad input as `solve` handles it: messages naming file and line on stderr, `--strict`
/// stopping at the first record not rated with exit 2, usage errors with exit 2.
#[test]
fn bad_records_and_bad_usage_are_reported_like_solve_reports_them() {
    let mixed = fixture("mixed.txt");
    let out = bin().arg("rate").arg(&mixed).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let name = mixed.display().to_string();
    assert!(
        stderr.contains(&format!("{name}:4: malformed: 80 cells")),
        "{stderr}"
    );
    assert!(stderr.contains(&format!("{name}:5: invalid:")), "{stderr}");
    assert!(stderr.contains("7 records"), "{stderr}");
    let out = bin()
        .args(["rate", "--strict"])
        .arg(&mixed)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 1);
    assert!(String::from_utf8_lossy(&out.stderr).contains(&format!("{name}:4:")));
    for args in [
        &["--steps", "--format", "csv"][..],
        &["--passthrough"],
        &["--max-rating", "0.5"],
        &["--max-rating", "six"],
        &["--ladder", "hodoku"],
    ] {
        let out = bin().arg("rate").args(args).arg(&mixed).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    let out = bin().args(["rate", "no-such-file.txt"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no-such-file.txt"));
}

/// A gzip file, stdin and the plain file give the same output.
#[test]
fn gzip_stdin_and_plain_files_are_rated_alike() {
    let hard = Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/generated-hard-1k.txt");
    let text = std::fs::read(&hard).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let gz = dir.path().join("hard.txt.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(&text).unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    let plain = bin().args(["rate", "-q"]).arg(&hard).output().unwrap();
    let zipped = bin().args(["rate", "-q"]).arg(&gz).output().unwrap();
    let piped = bin()
        .args(["rate", "-q", "-"])
        .write_stdin(text)
        .output()
        .unwrap();
    assert!(plain.status.success());
    assert_eq!(plain.stdout, zipped.stdout);
    assert_eq!(plain.stdout, piped.stdout);
}

/// A slice of every public dataset (`--shard`, through the real readers): one record per
/// record (as many as `solve` gives), none failed, statuses as `solve` finds them.
#[test]
#[cfg_attr(not(shared_datasets), ignore = "needs ../shared/datasets")]
fn a_slice_of_every_public_dataset_is_rated_record_for_record() {
    let dir = datasets();
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "SOURCES.md")
        .collect();
    names.sort();
    assert!(names.len() >= 20);
    for name in names {
        let path = dir.join(&name);
        // About 300 records of each file (big ones sliced, small ones whole).
        let size = std::fs::metadata(&path).unwrap().len();
        let shards = (size / 30_000).max(1).to_string();
        let shard = format!("1/{shards}");
        let solve = bin()
            .args(["solve", "-q", "--unique", "--shard", &shard])
            .arg(&path)
            .output()
            .unwrap();
        let rate = bin()
            .args([
                "rate",
                "-q",
                "--threads",
                "2",
                "--max-rating",
                "6.2",
                "--shard",
                &shard,
            ])
            .arg(&path)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&rate.stderr);
        assert!(!stderr.contains("panicked"), "{name}: {stderr}");
        let solved = String::from_utf8(solve.stdout).unwrap();
        let rated = String::from_utf8(rate.stdout).unwrap();
        assert_eq!(solved.lines().count(), rated.lines().count(), "{name}");
        for (s, r) in solved.lines().zip(rated.lines()) {
            if s.len() == 81 {
                assert!(r.contains('/'), "{name}: solved, but {r}");
            } else {
                assert_eq!(s, r, "{name}");
            }
        }
        assert_eq!(rate.status.code(), solve.status.code(), "{name}: {stderr}");
    }
}
