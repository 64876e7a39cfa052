//! The dynamic producers run alone on a puzzle's grid, against SE 1.2.1.3 run the same way
//! (its `Chaining(true, true, false, level).getHints` on the grid of the givens).

use super::dynamic::{Dynamic, Kind};
use super::nested::dynamic::Every;
use super::nested::hint::Nested;
use super::shared::bits::CandSet;
use super::shared::links::{cell_of, digit_of, is_on};
use crate::engines::rater::board::{Board, CELLS};
use crate::engines::rater::Difficulty;

/// The first hint of the producer of `level` on the grid of `puzzle`'s givens, as SE's
/// probe writes it: difficulty, complexity, removals (`r1c2-5,r1c2-7`), and its kind.
pub(super) fn first_hint(puzzle: &str, level: u8) -> Option<String> {
    let mut cells = [0u8; CELLS];
    for (c, ch) in cells.iter_mut().zip(puzzle.bytes()) {
        *c = if ch.is_ascii_digit() { ch - b'0' } else { 0 };
    }
    let mut b = Board::blank();
    b.load(&cells);
    let mut producer = Dynamic::new(level);
    let found = producer.find(&b)?;
    let (c, d) = (cell_of(found.target), digit_of(found.target));
    let removed = if is_on(found.target) {
        b.cands[c] & !(1 << d)
    } else {
        1 << d
    };
    let mut removals = CandSet::EMPTY;
    removals.add_digits(c, removed);
    let kind = match found.kind {
        Kind::Contradiction => "Contradiction",
        Kind::Double { .. } => "Double",
        Kind::Cell => "Cell",
        Kind::Region { .. } => "Region",
    };
    Some(format!(
        "{} {} {} {kind}",
        Difficulty(found.key.tenths()),
        found.key.complexity,
        write_set(&removals)
    ))
}

/// Writes `first_hint` for each puzzle of the file `PROBE_FILE` at `PROBE_LEVEL`.
#[test]
#[ignore = "a probe: PROBE_FILE and PROBE_LEVEL name the puzzles and the level"]
fn probe() {
    let file = std::env::var("PROBE_FILE").expect("PROBE_FILE");
    let level: u8 = std::env::var("PROBE_LEVEL")
        .expect("PROBE_LEVEL")
        .parse()
        .expect("a level");
    for line in std::fs::read_to_string(file).expect("readable").lines() {
        if line.len() < 81 {
            continue;
        }
        let t = std::time::Instant::now();
        let hint = first_hint(&line[..81], level);
        println!(
            "{} {} # {} ms",
            &line[..81],
            hint.as_deref().unwrap_or("-"),
            t.elapsed().as_millis(),
        );
    }
}

/// The grid of `puzzle`'s givens, and the same less `removals` (`r1c2-57,r3c4-1`).
fn grids(puzzle: &str, removals: &str) -> (Board, Board) {
    let mut cells = [0u8; CELLS];
    for (c, ch) in cells.iter_mut().zip(puzzle.bytes()) {
        *c = if ch.is_ascii_digit() { ch - b'0' } else { 0 };
    }
    let mut src = Board::blank();
    src.load(&cells);
    let mut b = src.clone();
    for r in removals.split(',').filter(|r| !r.is_empty()) {
        let r = r.as_bytes();
        let c = usize::from(r[1] - b'1') * 9 + usize::from(r[3] - b'1');
        for &d in &r[5..] {
            b.remove(c, usize::from(d - b'1'));
        }
    }
    (src, b)
}

/// A set of candidates as SE's probe writes it.
fn write_set(set: &CandSet) -> String {
    let out: Vec<String> = set
        .iter()
        .map(|i| format!("r{}c{}-{}", i / 81 + 1, i / 9 % 9 + 1, i % 9 + 1))
        .collect();
    out.join(",")
}

/// Every hint of nested forcing chains of level 2 on `puzzle`'s grid less `removals`, in
/// SE's order without those of the same removals, each as SE's probe writes it:
/// difficulty, complexity, removals, rule parents against the grid of the givens.
pub(super) fn every_nested(puzzle: &str, removals: &str) -> Vec<String> {
    let (src, b) = grids(puzzle, removals);
    let mut every = Every::new(2);
    let mut hints = Vec::new();
    every.hints(&src, &b, &mut hints);
    hints.sort_by(Nested::se_order);
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for h in hints {
        if seen.contains(&h.removals) {
            continue;
        }
        seen.push(h.removals);
        out.push(format!(
            "{} {} s{} {} | {}",
            Difficulty(h.key.tenths()),
            h.key.complexity,
            h.key.sort,
            write_set(&h.removals),
            write_set(&h.parents)
        ));
    }
    out
}

/// Writes `every_nested` for each line (`puzzle removals`) of the file `PROBE_FILE`.
#[test]
#[ignore = "a probe: PROBE_FILE names the puzzles and removals"]
fn probe_every() {
    let file = std::env::var("PROBE_FILE").expect("PROBE_FILE");
    for line in std::fs::read_to_string(file).expect("readable").lines() {
        let (puzzle, removals) = line.split_at(81);
        let t = std::time::Instant::now();
        let hints = every_nested(puzzle, removals.trim());
        println!(
            "# {} {} {} hints {} ms",
            puzzle,
            removals.trim(),
            hints.len(),
            t.elapsed().as_millis()
        );
        for h in hints {
            println!("{h}");
        }
    }
}

/// The text of `tests/fixtures/rate/NAME`.
fn fixture(name: &str) -> String {
    let path = format!("{}/tests/fixtures/rate/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).expect("the fixture")
}

/// Every hint of nested forcing chains of level 2 (what level 5 nests) equals SE's on the
/// grids of `tests/fixtures/rate/se-nested-every.txt`: difficulty, complexity, sort key,
/// removals and rule parents, in SE's order but among hints of the same key, which SE's
/// hash maps order.
#[test]
fn every_nested_hint_is_se() {
    let text = fixture("se-nested-every.txt");
    let mut grids = 0;
    let mut lines = text.lines().filter(|l| !l.starts_with('#')).peekable();
    while let Some(head) = lines.next() {
        let (puzzle, removals) = head
            .strip_prefix("> ")
            .expect("a grid")
            .split_once(' ')
            .expect("puzzle and removals");
        let mut se = Vec::new();
        while let Some(line) = lines.next_if(|l| !l.starts_with('>')) {
            se.push(line.to_string());
        }
        let ours = every_nested(puzzle, removals);
        // The key (difficulty, complexity, sort key) of a line.
        let key = |l: &String| {
            let mut w = l.split(' ');
            let d: f64 = w.next().unwrap().parse().unwrap();
            let c: u32 = w.next().unwrap().parse().unwrap();
            let s: u8 = w.next().unwrap()[1..].parse().unwrap();
            ((d * 10.0).round() as u32, c, s)
        };
        let keys: Vec<_> = ours.iter().map(key).collect();
        assert_eq!(keys, se.iter().map(key).collect::<Vec<_>>(), "{puzzle}");
        let (mut a, mut b) = (ours.clone(), se.clone());
        a.sort();
        b.sort();
        assert_eq!(a, b, "{puzzle}");
        grids += 1;
    }
    assert_eq!(grids, 4);
}

/// The first hint of nested forcing chains of level 5 on the grid of a puzzle's givens is
/// SE's (`tests/fixtures/rate/se-level5.txt`): difficulty, complexity, removals and kind.
#[test]
fn level_5_first_hint_is_se() {
    let text = fixture("se-level5.txt");
    let mut grids = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let (puzzle, se) = line.split_once(' ').expect("puzzle and hint");
        assert_eq!(first_hint(puzzle, 5).as_deref(), Some(se), "{puzzle}");
        grids += 1;
    }
    assert!(grids >= 1);
}
