use super::*;

fn grid(s: &str) -> Grid {
    s.parse().expect("a puzzle")
}

fn rated(puzzle: &str) -> Rating {
    let p = grid(puzzle);
    let solution = crate::engines::solver::solve_with_limit(&p, 2)
        .solution
        .expect("solvable");
    rate(&p, &solution)
}

#[test]
fn difficulty_text() {
    assert_eq!(Difficulty(23).to_string(), "2.3");
    assert_eq!(Difficulty(110).to_string(), "11.0");
    assert_eq!("2.3".parse(), Ok(Difficulty(23)));
    assert_eq!("7".parse(), Ok(Difficulty(70)));
    assert!("2.35".parse::<Difficulty>().is_err());
    assert!("-1".parse::<Difficulty>().is_err());
    assert!("x".parse::<Difficulty>().is_err());
    assert!("26.0".parse::<Difficulty>().is_err());
    assert_eq!("sukaku".parse(), Ok(Ladder::Sukaku));
    assert_eq!("Sukaku-Default".parse(), Ok(Ladder::SukakuDefault));
    assert_eq!(Ladder::SukakuDefault.to_string(), "sukaku-default");
    assert_eq!(Ladder::default().to_string(), "se");
    assert!("hodoku".parse::<Ladder>().is_err());
}

#[test]
fn full_grid_has_no_step() {
    let s =
        grid("534678912672195348198342567859761423426853791713924856961537284287419635345286179");
    let r = rate(&s, &s);
    assert_eq!(r, Rating::default());
}

#[test]
fn hidden_singles_only() {
    let r =
        rated("050703060007000800000816000000030000005000100730040086906000204840572093000409000");
    assert_eq!(
        (r.er, r.ep, r.ed),
        (Difficulty(12), Difficulty(12), Difficulty(12))
    );
    assert_eq!(r.hardest, Some(Technique::HiddenSingle));
    assert!(!r.capped);
    assert_eq!(r.steps, 81 - 30);
}

#[test]
fn technique_names_are_unique() {
    for (i, a) in Technique::ALL.iter().enumerate() {
        for b in &Technique::ALL[i + 1..] {
            assert_ne!(a.name(), b.name());
        }
    }
}

/// Each step of a path as text: technique, difficulty, cells, placements, eliminations and
/// chains.
fn path_of(rate: impl FnOnce(&mut dyn FnMut(&Step<'_>)) -> Rating) -> (Rating, Vec<String>) {
    let mut steps = Vec::new();
    let rating = rate(&mut |s: &Step<'_>| steps.push(format!("{s:?}")));
    (rating, steps)
}

/// Whether an empty cell of `p` has one candidate that no peer holds: its position cannot
/// tell it from a given, so it reads as placed where the puzzle's path places it in a step.
fn has_settled_empty_cell(p: &Grid) -> bool {
    let position = Position::from_grid(p);
    let mut b = Board::blank();
    b.load_position(position.masks());
    (0..81).any(|c| p.get(c) == 0 && b.values[c] != 0)
}

/// A puzzle's position (givens as single candidates, the other cells every digit their
/// houses leave) rates as the puzzle, step for step; its next step is the path's first.
#[test]
fn a_puzzles_position_rates_as_the_puzzle() {
    let fixture = include_str!("../../../tests/fixtures/rate/se-1.2.1.3.txt");
    let puzzles = fixture.lines().filter(|l| !l.starts_with('#')).take(60);
    let mut rater = Rater::default();
    let mut compared = 0;
    for line in puzzles {
        let p = grid(line.split_whitespace().next().unwrap());
        if has_settled_empty_cell(&p) {
            continue;
        }
        compared += 1;
        let solution = crate::engines::solver::solve_with_limit(&p, 2)
            .solution
            .unwrap();
        let puzzle = path_of(|f| rater.rate_with_steps(&p, &solution, f));
        let position = Position::from_grid(&p);
        let from = path_of(|f| rater.rate_position(&position, &solution, Some(f)));
        assert_eq!(puzzle, from, "{p}");
        let (next, first) = path_of(|f| rater.next_step(&position, &solution, f));
        assert_eq!((next.steps, first.first()), (1, puzzle.1.first()), "{p}");
    }
    assert!(compared >= 40, "{compared}");
}
