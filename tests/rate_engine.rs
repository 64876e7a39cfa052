//! The rating engine against Sudoku Explainer 1.2.1.3's own ratings (fixtures), and its
//! soundness: every step of sampled paths is replayed against the solution.

mod common;

use std::collections::HashSet;

use sudoku_batch::engines::rater::{
    Difficulty, Ladder, RateOptions, Rater, Rating, Step, Technique,
};
use sudoku_batch::engines::solver::{solve_with_limit, Status};
use sudoku_batch::io::{load_puzzles, ReaderOptions};
use sudoku_batch::jobs::generate::{generate, GenerateConfig};
use sudoku_batch::symmetry::{Rng, Symmetry};
use sudoku_batch::Grid;

/// `PUZZLE ER/EP/ED [HARDEST]` lines as SE 1.2.1.3 (`serate`) rated them.
fn fixtures(name: &str) -> Vec<(Grid, [Difficulty; 3], String)> {
    let text = std::fs::read_to_string(common::fixture(name)).expect("fixture");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut fields = l.split_whitespace();
            let p = fields.next().expect("PUZZLE");
            let r = fields.next().expect("ER/EP/ED");
            let mut it = r
                .split('/')
                .map(|x| x.parse::<Difficulty>().expect("rating"));
            let ratings = [(); 3].map(|_| it.next().expect("three ratings"));
            let hardest = fields.next().unwrap_or("").to_string();
            (p.parse().expect("puzzle"), ratings, hardest)
        })
        .collect()
}

fn solution(p: &Grid) -> Grid {
    let outcome = solve_with_limit(p, 2);
    assert_eq!(outcome.status, Status::Solved, "{}", p.to_line());
    outcome.solution.expect("solved")
}

/// Chains start at 6.5.
const CHAINS: Difficulty = Difficulty(65);

/// Checks one rating against SE's: never capped (every producer of SE's ladder is in the
/// engine), and exact.
fn check(p: &Grid, r: &Rating, [er, ep, ed]: [Difficulty; 3]) {
    assert!(!r.capped, "{}: capped, SE {er}", p.to_line());
    assert_eq!((r.er, r.ep, r.ed), (er, ep, ed), "{}", p.to_line());
}

#[test]
fn agrees_with_sudoku_explainer_fixtures() {
    let mut rater = Rater::default();
    let mut exact = 0;
    for (p, ratings, _) in fixtures("rate/se-1.2.1.3.txt") {
        let r = rater.rate(&p, &solution(&p));
        check(&p, &r, ratings);
        exact += 1;
    }
    assert!(exact >= 150, "{exact} exact ratings");
}

/// Puzzles of forum_hardest_1106 and Norvig's hardest whose SE path needs nested forcing
/// chains of level 2 ("(+
/// Forcing Chains)", 9.5 + length): ER/EP/ED are SE's (serate prints no technique), the
/// hardest step is one of level 2, and no rating is capped.
#[test]
fn nested_chains_agree_with_sudoku_explainer() {
    let mut rater = Rater::default();
    let mut kinds = HashSet::new();
    let cases = fixtures("rate/se-nested.txt");
    for (p, [er, ep, ed], _) in &cases {
        let r = rater.rate(p, &solution(p));
        assert!(!r.capped, "{}: capped at {}", p.to_line(), r.er);
        assert_eq!((r.er, r.ep, r.ed), (*er, *ep, *ed), "{}", p.to_line());
        let hardest = r.hardest.expect("a step");
        assert!(
            hardest.name().ends_with(" (+ Forcing Chains)"),
            "{}: {hardest}",
            p.to_line()
        );
        kinds.insert(hardest);
    }
    assert!(cases.len() >= 16, "{} fixtures", cases.len());
    assert!(kinds.len() == 4, "{kinds:?}");
}

/// Puzzles of forum_hardest_1106 (as given and symmetry-shuffled) whose SE path needs nested
/// forcing chains of level 3 ("(+ Multiple Forcing Chains)", 10.0 + length): ER/EP/ED are
/// SE's, the hardest step is one of level 3, and no rating is capped. Rated on two threads
/// (a rater each), as they take seconds each.
#[test]
fn nested_multiple_chains_agree_with_sudoku_explainer() {
    let cases = fixtures("rate/se-nested3.txt");
    assert!(cases.len() >= 8, "{} fixtures", cases.len());
    // The first puzzle is the slowest: half the rest go with it.
    let kinds = nested_on_two_threads(&cases, cases.len() / 2 - 1, " (+ Multiple Forcing Chains)");
    assert!(kinds.len() >= 2, "{kinds:?}");
}

/// Puzzles of forum_hardest_1106 (as given and symmetry-shuffled) whose SE path needs nested
/// forcing chains of level 4 ("(+ Dynamic Forcing Chains)", 10.5 + length): ER/EP/ED are
/// SE's, the hardest step is one of level 4, and no rating is capped. Rated on two threads
/// (a rater each), as they take seconds each.
#[test]
fn nested_dynamic_chains_agree_with_sudoku_explainer() {
    let cases = fixtures("rate/se-nested4.txt");
    assert!(cases.len() >= 6, "{} fixtures", cases.len());
    let kinds = nested_on_two_threads(&cases, cases.len() / 2, " (+ Dynamic Forcing Chains)");
    // Contradiction, cell and region forcing chains.
    assert!(kinds.len() >= 3, "{kinds:?}");
}

/// Rates `cases` with a rater on each of two threads (the first `split` on one, the rest on
/// the other), each as SE does (ER/EP/ED), uncapped, its hardest step's name ending with
/// `suffix`; the hardest techniques seen.
fn nested_on_two_threads(
    cases: &[(Grid, [Difficulty; 3], String)],
    split: usize,
    suffix: &str,
) -> HashSet<Technique> {
    let rate = |part: &[(Grid, [Difficulty; 3], String)]| {
        let mut rater = Rater::default();
        let mut kinds = HashSet::new();
        for (p, [er, ep, ed], _) in part {
            let r = rater.rate(p, &solution(p));
            assert!(!r.capped, "{}: capped at {}", p.to_line(), r.er);
            assert_eq!((r.er, r.ep, r.ed), (*er, *ep, *ed), "{}", p.to_line());
            let hardest = r.hardest.expect("a step");
            assert!(
                hardest.name().ends_with(suffix),
                "{}: {hardest}",
                p.to_line()
            );
            kinds.insert(hardest);
        }
        kinds
    };
    let (first, rest) = cases.split_at(split);
    std::thread::scope(|s| {
        let other = s.spawn(|| rate(rest));
        let mut kinds = rate(first);
        kinds.extend(other.join().unwrap());
        kinds
    })
}

/// SE's name of a technique as the reference files write it (spaces as `_`), with the size
/// SE adds to loops of 8 cells and more ("Unique Loop 8 type 1") dropped.
fn se_name(hardest: &str) -> String {
    let words: Vec<&str> = hardest.split('_').collect();
    words
        .iter()
        .enumerate()
        .filter(|&(i, w)| !(i > 0 && words[i - 1] == "Loop" && w.parse::<u32>().is_ok()))
        .map(|(_, w)| *w)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Puzzles SE rates with cycles, forcing chains, aligned triplet exclusion, Nishio,
/// multiple (cell, region), dynamic forcing chains and dynamic forcing chains (+) (6.5-9.0 +
/// length): ER/EP/ED and the hardest technique are SE's, and no rating is capped.
#[test]
fn chains_agree_with_sudoku_explainer() {
    let mut rater = Rater::default();
    let mut exact = 0;
    let mut seen = HashSet::new();
    for (p, ratings, hardest) in fixtures("rate/se-chains.txt") {
        let r = rater.rate(&p, &solution(&p));
        check(&p, &r, ratings);
        let ours = r.hardest.expect("a step");
        assert_eq!(ours.name(), se_name(&hardest), "{}", p.to_line());
        seen.insert(ours);
        exact += 1;
    }
    assert!(exact >= 316, "{exact} exact ratings");
    for t in [
        Technique::BidirectionalXCycle,
        Technique::BidirectionalYCycle,
        Technique::BidirectionalCycle,
        Technique::ForcingXChain,
        Technique::TurbotFish,
        Technique::ForcingChain,
        Technique::AlignedTripletExclusion,
        Technique::NishioForcingChains,
        Technique::CellForcingChains,
        Technique::RegionForcingChains,
        Technique::DynamicContradictionForcingChains,
        Technique::DynamicCellForcingChains,
        Technique::DynamicRegionForcingChains,
        Technique::DynamicContradictionForcingChainsPlus,
    ] {
        assert!(seen.contains(&t), "{t} never the hardest");
    }
}

/// Sukaku's default set against Sukaku Explainer's own ratings: exact, chains included, and
/// never capped.
#[test]
fn sukaku_ladder_agrees_with_sukaku_explainer() {
    let mut rater = Rater::new(RateOptions {
        ladder: Ladder::SukakuDefault,
        max_rating: None,
    });
    let mut exact = 0;
    for (p, [er, ep, ed], _) in fixtures("rate/sukaku.txt") {
        let r = rater.rate(&p, &solution(&p));
        assert!(!r.capped, "{}: capped, Sukaku {er}", p.to_line());
        assert_eq!((r.er, r.ep, r.ed), (er, ep, ed), "{}", p.to_line());
        exact += 1;
    }
    assert!(exact >= 60, "{exact} exact ratings");
}

/// Sukaku Explainer's name of a technique without what ours leaves out: a loop's size
/// (`Unique_Loop_8_type_1`) and the link or wing kinds of its own techniques
/// (`Skyscraper_011`, `WXYZ-Wing_126`).
fn sukaku_name(hardest: &str) -> String {
    let words: Vec<&str> = hardest.split('_').collect();
    let last = words.len() - 1;
    words
        .iter()
        .enumerate()
        .filter(|&(i, w)| {
            let number = w.parse::<u32>().is_ok();
            !(number && (i == last && w.len() >= 3 || i > 0 && words[i - 1] == "Loop"))
        })
        .map(|(_, w)| *w)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The techniques only Sukaku's ladder has (strong-link fish and the wings past XYZ-Wing).
fn sukaku_only(t: Technique) -> bool {
    let name = t.name();
    ["Strong", "Skyscraper", "Kite", "WXYZ"]
        .iter()
        .any(|w| name.contains(w))
}

/// One set of puzzles per technique Sukaku's default set adds to SE's or runs its own way
/// (strong-link fish, wings, lkSudoku's unique loops and BUG): the rating and the hardest
/// technique are Sukaku's, every technique of the fixture is seen, no path is capped. The
/// bank's ladder
/// (`Ladder::Sukaku`, no UVWXYZ- nor TUVWXYZ-Wing) rates the same, except that a path
/// needing one of those wings needs chains instead there.
#[test]
fn every_sukaku_technique_agrees_with_sukaku_explainer() {
    let rater = |ladder| {
        Rater::new(RateOptions {
            ladder,
            max_rating: None,
        })
    };
    let (mut default, mut bank) = (rater(Ladder::SukakuDefault), rater(Ladder::Sukaku));
    let mut seen = HashSet::new();
    let mut names = HashSet::new();
    for (p, [er, ep, ed], hardest) in fixtures("rate/sukaku-techniques.txt") {
        let s = solution(&p);
        let r = default.rate(&p, &s);
        let name = sukaku_name(&hardest);
        assert!(
            !r.capped,
            "{}: capped at {}, Sukaku {er}",
            p.to_line(),
            r.er
        );
        assert_eq!((r.er, r.ep, r.ed), (er, ep, ed), "{}", p.to_line());
        let ours = r.hardest.expect("a step");
        assert_eq!(ours.name(), name, "{}", p.to_line());
        seen.insert(ours);
        names.insert(name);
        let b = bank.rate(&p, &s);
        if ours == Technique::UVWXYZWing || ours == Technique::TUVWXYZWing {
            // The ratings themselves are in rate/sukaku-bank-chains.txt.
            assert!(
                !b.capped && b.er >= CHAINS && b.hardest != Some(ours),
                "{}: bank ladder {} {:?}",
                p.to_line(),
                b.er,
                b.hardest
            );
        } else {
            assert_eq!(b, r, "{}: bank ladder", p.to_line());
        }
    }
    assert_eq!(seen.len(), names.len());
    assert!(seen.len() >= 25, "{} techniques seen", seen.len());
    for t in [
        Technique::WXYZWing,
        Technique::VWXYZWing,
        Technique::TUVWXYZWing,
        Technique::Bug3,
    ] {
        assert!(seen.contains(&t), "{t} not seen");
    }
}

/// Sudoku Exchange bank puzzles whose path needs chains (6.6-9.3): the bank's ladder
/// (`Ladder::Sukaku`) gives the bank's own rating as ER, and Sukaku Explainer's EP, ED and
/// hardest technique; none is capped.
#[test]
fn sukaku_chains_give_the_bank_rating() {
    let text =
        std::fs::read_to_string(common::fixture("rate/sukaku-bank-chains.txt")).expect("fixture");
    let mut rater = Rater::new(RateOptions {
        ladder: Ladder::Sukaku,
        max_rating: None,
    });
    let mut levels = HashSet::new();
    let mut rated = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        let p: Grid = f[0].parse().expect("puzzle");
        let bank: Difficulty = f[1].parse().expect("bank rating");
        let sukaku: Vec<Difficulty> = f[2]
            .split('/')
            .map(|x| x.parse().expect("rating"))
            .collect();
        let r = rater.rate(&p, &solution(&p));
        assert!(!r.capped, "{}: capped at {}", p.to_line(), r.er);
        assert_eq!(r.er, bank, "{}: bank rating", p.to_line());
        assert_eq!([r.er, r.ep, r.ed], sukaku[..], "{}", p.to_line());
        let hardest = r.hardest.expect("a step");
        assert_eq!(hardest.name(), f[3].replace('_', " "), "{}", p.to_line());
        levels.insert(bank);
        rated += 1;
    }
    assert!(rated >= 40, "{rated} puzzles");
    assert!(levels.len() >= 25, "{} bank ratings", levels.len());
}

/// One set of puzzles per technique of SE's ladder below chains: the rating and the
/// hardest technique are SE's.
#[test]
fn every_technique_agrees_with_sudoku_explainer() {
    let mut rater = Rater::default();
    let mut seen = HashSet::new();
    for (p, [er, ep, ed], hardest) in fixtures("rate/se-techniques.txt") {
        let r = rater.rate(&p, &solution(&p));
        assert!(!r.capped, "{}", p.to_line());
        assert_eq!((r.er, r.ep, r.ed), (er, ep, ed), "{}", p.to_line());
        let ours = r.hardest.expect("a step");
        assert_eq!(ours.name(), se_name(&hardest), "{}", p.to_line());
        seen.insert(ours);
    }
    // SE's own techniques: Technique::ALL holds the Sukaku ladder's too.
    let ladder = Technique::ALL
        .iter()
        .take_while(|&&t| t != Technique::AlignedPairExclusion)
        .filter(|t| !sukaku_only(**t))
        .count()
        + 1;
    assert!(
        seen.len() + 2 >= ladder,
        "{} of {ladder} techniques seen",
        seen.len()
    );
    assert!(seen.contains(&Technique::AlignedPairExclusion));
    assert!(seen.contains(&Technique::Bug3));
}

/// Replays a path on a grid of its own: placements are the solution's digits, eliminations
/// never remove the solution's digit, and an uncapped path fills the grid.
fn replay(rater: &mut Rater, p: &Grid) -> Rating {
    let s = solution(p);
    let mut grid = *p;
    let mut steps = 0u32;
    let mut last = Difficulty(0);
    let r = rater.rate_with_steps(p, &s, &mut |step: &Step<'_>| {
        steps += 1;
        last = last.max(step.difficulty);
        assert!(!step.placements.is_empty() || !step.eliminations.is_empty());
        for e in step.eliminations {
            assert_ne!(
                s.get(e.cell as usize),
                e.digit,
                "{}: {e} by {}",
                p.to_line(),
                step.technique
            );
        }
        for pl in step.placements {
            assert_eq!(
                s.get(pl.cell as usize),
                pl.digit,
                "{}: {pl} by {}",
                p.to_line(),
                step.technique
            );
            assert_eq!(grid.get(pl.cell as usize), 0);
            grid.set(pl.cell as usize, pl.digit);
        }
    });
    assert_eq!(r.steps, steps);
    assert_eq!(r.er, last);
    if !r.capped {
        assert_eq!(
            grid,
            s,
            "{}: uncapped path ends in the solution",
            p.to_line()
        );
    }
    r
}

fn sample(name: &str, every: usize) -> Vec<Grid> {
    let (puzzles, _) =
        load_puzzles(&common::dataset(name), &ReaderOptions::default()).expect("dataset");
    puzzles.into_iter().step_by(every).collect()
}

#[test]
#[cfg_attr(not(shared_datasets), ignore = "needs ../shared/datasets")]
fn paths_are_sound_on_datasets() {
    for ladder in [Ladder::Se, Ladder::Sukaku, Ladder::SukakuDefault] {
        let mut rater = Rater::new(RateOptions {
            ladder,
            max_rating: None,
        });
        for (name, every) in [
            ("kaggle1m_sample_first24997.csv", 250),
            ("sudoku_exchange_hard.txt", 3000),
            ("sudoku_exchange_diabolical.txt", 1200),
            ("puzzles2_17_clue", 500),
            ("puzzles3_magictour_top1465", 15),
            ("tdoku_puzzles1_unbiased_first1000", 10),
        ] {
            for p in sample(name, every) {
                replay(&mut rater, &p);
            }
        }
    }
}

#[test]
fn generated_and_shuffled_puzzles_never_panic() {
    let mut rater = Rater::default();
    let cfg = GenerateConfig {
        seed: 29,
        minimal: true,
        ..GenerateConfig::default()
    };
    let mut rng = Rng::new(7, 0);
    for i in 0..150 {
        let g = generate(&cfg, i).expect("a puzzle");
        replay(&mut rater, &g.puzzle);
        let shuffled = Symmetry::random(&mut rng).apply(&g.puzzle);
        replay(&mut rater, &shuffled);
    }
}

#[test]
fn max_rating_caps_the_path() {
    // A puzzle SE rates 2.3 (a naked single is needed).
    let (p, [er, ..], _) = fixtures("rate/se-1.2.1.3.txt")
        .into_iter()
        .find(|(_, r, _)| r[0] == Difficulty(23))
        .expect("a 2.3 fixture");
    let s = solution(&p);
    let low = Rater::new(RateOptions {
        ladder: Ladder::Se,
        max_rating: Some(Difficulty(20)),
    })
    .rate(&p, &s);
    assert!(low.capped);
    assert!(low.er <= Difficulty(20));
    let high = Rater::new(RateOptions {
        ladder: Ladder::Se,
        max_rating: Some(er),
    })
    .rate(&p, &s);
    assert!(!high.capped);
    assert_eq!(high.er, er);
}

#[test]
fn raters_are_reusable_and_deterministic() {
    let shipped =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/generated-hard-1k.txt");
    let (puzzles, _) = load_puzzles(&shipped, &ReaderOptions::default()).expect("shipped");
    let puzzles: Vec<Grid> = puzzles.into_iter().step_by(25).collect();
    assert_raters_reusable_and_deterministic(&puzzles);
}

#[test]
#[cfg_attr(not(shared_datasets), ignore = "needs ../shared/datasets")]
fn raters_are_reusable_and_deterministic_on_datasets() {
    assert_raters_reusable_and_deterministic(&sample("sudoku_exchange_hard.txt", 8000));
}

/// One rater rates `puzzles` twice, and fresh raters once: the same ratings.
fn assert_raters_reusable_and_deterministic(puzzles: &[Grid]) {
    assert!(!puzzles.is_empty());
    let mut a = Rater::default();
    let first: Vec<Rating> = puzzles.iter().map(|p| a.rate(p, &solution(p))).collect();
    let again: Vec<Rating> = puzzles.iter().map(|p| a.rate(p, &solution(p))).collect();
    let fresh: Vec<Rating> = puzzles
        .iter()
        .map(|p| Rater::default().rate(p, &solution(p)))
        .collect();
    assert_eq!(first, again);
    assert_eq!(first, fresh);
}
