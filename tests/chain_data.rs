//! Every chain step carries its chains as data (`Step::branches`), and the data holds on the
//! grid the step is found on: every weak link by the rules (one digit a cell, a digit once a
//! house), every strong link of a static chain a bivalue cell or a bilocal house, every
//! strong link of a dynamic chain one once the removals its branch shows are made, every rule
//! link's rule true there with its removal among what it removes, every nested index valid
//! and every nested chain's links holding in turn. The Eureka text is written from the data:
//! it names the same candidates, branch by branch.

mod common;

use sudoku_batch::engines::rater::{
    Branches, LinkKind, Potential, RateOptions, Rater, Rule, Step, StepChain, Technique, Why,
};
use sudoku_batch::engines::solver::{solve_with_limit, Status};
use sudoku_batch::Grid;

/// The grid a step is found on: each cell's candidates (none once placed).
#[derive(Clone, Copy)]
struct Cands([u16; 81]);

fn peers(a: usize, b: usize) -> bool {
    a != b && (a / 9 == b / 9 || a % 9 == b % 9 || (a / 27 == b / 27 && a % 9 / 3 == b % 9 / 3))
}

/// The cells of house `h` (the engine's numbering: boxes 0..9, rows 9..18, columns 18..27).
fn house_cells(h: u8) -> [usize; 9] {
    let h = usize::from(h);
    std::array::from_fn(|i| match h / 9 {
        0 => (h / 3 * 3 + i / 3) * 9 + h % 3 * 3 + i % 3,
        1 => (h - 9) * 9 + i,
        _ => i * 9 + (h - 18),
    })
}

fn in_house(h: u8, cell: u8) -> bool {
    house_cells(h).contains(&usize::from(cell))
}

impl Cands {
    fn new(puzzle: &Grid) -> Cands {
        let mut g = Cands([0x1ff; 81]);
        for (c, &d) in puzzle.cells().iter().enumerate() {
            if d != 0 {
                g.place(c, d);
            }
        }
        g
    }

    fn place(&mut self, cell: usize, digit: u8) {
        self.0[cell] = 0;
        for o in (0..81).filter(|&o| peers(cell, o)) {
            self.0[o] &= !(1 << (digit - 1));
        }
    }

    fn has(&self, p: Potential) -> bool {
        self.0[usize::from(p.cell)] >> (p.digit - 1) & 1 == 1
    }

    /// Less the "off" potentials of `offs`.
    fn without(&self, offs: impl Iterator<Item = Potential>) -> Cands {
        let mut g = *self;
        for p in offs.filter(|p| !p.on) {
            g.0[usize::from(p.cell)] &= !(1 << (p.digit - 1));
        }
        g
    }

    /// The places of `digit` in house `h`.
    fn places(&self, h: u8, digit: u8) -> Vec<u8> {
        let bit = 1 << (digit - 1);
        house_cells(h)
            .into_iter()
            .filter(|&c| self.0[c] & bit != 0)
            .map(|c| c as u8)
            .collect()
    }
}

/// The techniques whose chains are static: their strong links hold on the step's grid.
fn is_static(t: Technique) -> bool {
    use Technique::*;
    matches!(
        t,
        BidirectionalXCycle
            | GeneralizedXWing
            | BidirectionalYCycle
            | BidirectionalCycle
            | ForcingXChain
            | TurbotFish
            | ForcingChain
            | CellForcingChains
            | RegionForcingChains
    )
}

/// What was checked, over all steps.
#[derive(Default, Debug)]
struct Seen {
    steps: usize,
    links: [usize; 4],
    nested: usize,
    nested_links: usize,
}

/// Checks `branches` (a step's, or a nested chain's of `technique`) on `grid` (the step's
/// grid), with `outer` the removals of the branch a nested chain rests on.
fn check_branches(
    at: &str,
    grid: &Cands,
    (branches, technique, outer): (Branches<'_>, Technique, &[Potential]),
    all: Branches<'_>,
    seen: &mut Seen,
    depth: usize,
) {
    assert!(!branches.is_empty(), "{at}: no branch");
    assert!(depth <= 2, "{at}: nested deeper than level 2");
    let strict = depth == 0 && is_static(technique);
    for branch in branches.iter() {
        let nodes: Vec<Potential> = std::iter::once(branch.start())
            .chain(branch.links().iter().map(|l| l.to))
            .chain(outer.iter().copied())
            .collect();
        let reduced = grid.without(nodes.iter().copied());
        let mut written = vec![branch.start()];
        for link in branch.links() {
            let (from, to) = (link.from, link.to);
            let at = format!("{at}: {from} -> {to} ({:?})", link.why);
            assert!(
                written.contains(&from),
                "{at}: starts from a node not written"
            );
            written.push(to);
            assert!(grid.has(from) && grid.has(to), "{at}: not a candidate");
            let kind = link.kind();
            if depth == 0 {
                seen.links[kind as usize] += 1;
            } else {
                seen.nested_links += 1;
            }
            match kind {
                LinkKind::Weak => {
                    assert!(from.on && !to.on, "{at}: a weak link is on, then off");
                    match link.why {
                        Why::Cell(c) => assert!(
                            from.cell == c && to.cell == c && from.digit != to.digit,
                            "{at}"
                        ),
                        Why::House(h) => assert!(
                            in_house(h.0, from.cell)
                                && in_house(h.0, to.cell)
                                && from.cell != to.cell
                                && from.digit == to.digit,
                            "{at}"
                        ),
                        _ => panic!("{at}: a weak link's reason"),
                    }
                }
                LinkKind::Strong => {
                    assert!(!from.on && to.on, "{at}: a strong link is off, then on");
                    // A static chain's strong link holds on the step's grid; a dynamic
                    // one once the removals the branch shows are made.
                    match link.why {
                        Why::Cell(c) => {
                            assert!(from.cell == c && to.cell == c, "{at}");
                            let pair = 1 << (from.digit - 1) | 1 << (to.digit - 1);
                            let m = usize::from(c);
                            if strict {
                                assert_eq!(grid.0[m], pair, "{at}: not bivalue");
                            } else {
                                assert_eq!(reduced.0[m] & !pair, 0, "{at}: not bivalue");
                            }
                        }
                        Why::House(h) => {
                            assert!(from.digit == to.digit, "{at}");
                            assert!(in_house(h.0, from.cell) && in_house(h.0, to.cell), "{at}");
                            let pair = [from.cell.min(to.cell), from.cell.max(to.cell)];
                            if strict {
                                assert_eq!(grid.places(h.0, to.digit), pair, "{at}: not bilocal");
                            } else {
                                let left = reduced.places(h.0, to.digit);
                                assert!(left.iter().all(|c| pair.contains(c)), "{at}: {left:?}");
                            }
                        }
                        _ => panic!("{at}: a strong link's reason"),
                    }
                }
                LinkKind::Rule => {
                    assert!(!from.on && !to.on, "{at}: a rule link is off, then off");
                    let Why::Rule(i) = link.why else {
                        panic!("{at}")
                    };
                    let rule = all.rule(i).unwrap_or_else(|| panic!("{at}: no rule {i}"));
                    assert!(
                        removes(&reduced, rule, to),
                        "{at}: {rule} does not remove it"
                    );
                }
                LinkKind::Nested => {
                    assert!(!from.on && !to.on, "{at}: a nested link is off, then off");
                    let Why::Nested(j) = link.why else {
                        panic!("{at}")
                    };
                    let chain = all
                        .nested_chain(j)
                        .unwrap_or_else(|| panic!("{at}: no nested chain {j}"));
                    assert_eq!(usize::from(chain.level), depth + 1, "{at}");
                    assert!(!chain.lines.is_empty(), "{at}");
                    seen.nested += 1;
                    let removed: Vec<Potential> = nodes.iter().copied().filter(|p| !p.on).collect();
                    let inner = (chain.branches, chain.technique, &removed[..]);
                    check_branches(&at, grid, inner, all, seen, depth + 1);
                }
            }
        }
    }
}

/// Whether `rule` holds on `g` and removes `to` there.
fn removes(g: &Cands, rule: &Rule, to: Potential) -> bool {
    let houses: Vec<u8> = rule.houses.iter().map(|h| h.0).collect();
    let digits: Vec<u8> = (1..=9)
        .filter(|d| rule.digits >> (d - 1) & 1 == 1)
        .collect();
    let cells = rule.cells();
    let within = |h: u8, d: u8, set: &dyn Fn(u8) -> bool| g.places(h, d).iter().all(|&c| set(c));
    match rule.technique {
        Technique::Pointing | Technique::Claiming => {
            let (&[a, b], &[d]) = (&houses[..], &digits[..]) else {
                return false;
            };
            // The digit's places in one house all lie in the other; it leaves the rest of
            // the other.
            [(a, b), (b, a)].into_iter().any(|(from, into)| {
                within(from, d, &|c| in_house(into, c))
                    && to.digit == d
                    && in_house(into, to.cell)
                    && !in_house(from, to.cell)
            })
        }
        Technique::HiddenPair => {
            let (&[h], &[x, y]) = (&houses[..], &digits[..]) else {
                return false;
            };
            let at_pair = |c: u8| cells.contains(&c);
            within(h, x, &at_pair)
                && within(h, y, &at_pair)
                && cells.contains(&to.cell)
                && to.digit != x
                && to.digit != y
        }
        Technique::NakedPair => {
            let (&[h], &[x, y]) = (&houses[..], &digits[..]) else {
                return false;
            };
            let pair = 1 << (x - 1) | 1 << (y - 1);
            cells.len() == 2
                && cells.iter().all(|&c| g.0[usize::from(c)] & !pair == 0)
                && in_house(h, to.cell)
                && !cells.contains(&to.cell)
                && (to.digit == x || to.digit == y)
        }
        Technique::XWing => {
            let &[d] = &digits[..] else { return false };
            let rows: Vec<u8> = houses
                .iter()
                .copied()
                .filter(|h| (9..18).contains(h))
                .collect();
            let cols: Vec<u8> = houses.iter().copied().filter(|&h| h >= 18).collect();
            let holds = [(&rows, &cols), (&cols, &rows)]
                .into_iter()
                .any(|(base, cover)| {
                    let in_cover = |c: u8| cover.iter().any(|&h| in_house(h, c));
                    base.iter().all(|&h| within(h, d, &in_cover))
                        && to.digit == d
                        && in_cover(to.cell)
                        && !base.iter().any(|&h| in_house(h, to.cell))
                });
            holds
        }
        _ => false,
    }
}

/// Rates `puzzles` with steps and checks every chain step's data; what it checked.
fn check_puzzles(puzzles: &[Grid]) -> Seen {
    let mut rater = Rater::new(RateOptions::default());
    let mut seen = Seen::default();
    for puzzle in puzzles {
        let outcome = solve_with_limit(puzzle, 2);
        if outcome.status != Status::Solved {
            continue;
        }
        let solution = outcome.solution.expect("solved");
        let mut grid = Cands::new(puzzle);
        let mut n = 0;
        rater.rate_with_steps(puzzle, &solution, &mut |step: &Step<'_>| {
            n += 1;
            let at = format!("{} step {n} {}", puzzle.to_line(), step.technique.name());
            check_step(&at, &grid, step, &mut seen);
            for e in step.eliminations {
                grid.0[usize::from(e.cell)] &= !(1 << (e.digit - 1));
            }
            for p in step.placements {
                grid.place(usize::from(p.cell), p.digit);
            }
        });
    }
    seen
}

/// One step: a chain step has branches, as many as its Eureka text has entries, each
/// written from them; every link holds.
fn check_step(at: &str, grid: &Cands, step: &Step<'_>, seen: &mut Seen) {
    let texts: Vec<&str> = match step.chain {
        StepChain::None => {
            assert!(step.branches.is_empty(), "{at}: branches without a chain");
            return;
        }
        StepChain::Single(text) => vec![text],
        StepChain::Branches(b) => b.iter().collect(),
    };
    seen.steps += 1;
    assert_eq!(texts.len(), step.branches.len(), "{at}");
    for (text, branch) in texts.iter().zip(step.branches.iter()) {
        let mut written = String::new();
        branch.write_eureka(&mut written);
        assert_eq!(&written, text, "{at}");
    }
    let links: usize = step.branches.iter().map(|b| b.links().len()).sum();
    assert!(step.lines.iter().count() >= links, "{at}: a line per link");
    let top = (step.branches, step.technique, &[][..]);
    check_branches(at, grid, top, step.branches, seen, 0);
}

/// The puzzles of a fixture or dataset file (the first 81-character field of each line),
/// every `every`-th, the first `first`.
fn puzzles(path: &std::path::Path, every: usize, first: usize) -> Vec<Grid> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_whitespace().find(|f| f.len() == 81))
        .step_by(every)
        .take(first)
        .map(|p| p.parse().expect("a puzzle"))
        .collect()
}

#[test]
fn the_fixtures_chains_hold_as_data() {
    let mut all = Vec::new();
    for (name, every, first) in [
        ("rate/se-chains.txt", 1, usize::MAX),
        ("rate/se-techniques.txt", 1, usize::MAX),
        ("rate/sukaku-bank-chains.txt", 1, usize::MAX),
        ("rate/se-nested.txt", 1, 3),
        ("rate/se-nested3.txt", 1, 1),
        ("rate/se-nested4.txt", 1, 1),
    ] {
        all.extend(puzzles(&common::fixture(name), every, first));
    }
    let seen = check_puzzles(&all);
    assert!(seen.steps > 1000, "{seen:?}");
    assert!(
        seen.links.iter().all(|&n| n > 0),
        "every kind of link: {seen:?}"
    );
    assert!(seen.nested > 0 && seen.nested_links > 0, "{seen:?}");
}

#[test]
#[cfg_attr(not(shared_datasets), ignore = "needs ../shared/datasets")]
fn the_datasets_chains_hold_as_data() {
    let mut all = Vec::new();
    for (name, every, first) in [
        ("puzzles3_magictour_top1465", 7, usize::MAX),
        ("sudoku_exchange_diabolical.txt", 500, usize::MAX),
        ("sudoku_exchange_hard.txt", 4000, usize::MAX),
        ("puzzles6_forum_hardest_1106", 110, usize::MAX),
    ] {
        all.extend(puzzles(&common::dataset(name), every, first));
    }
    let seen = check_puzzles(&all);
    assert!(seen.steps > 4000, "{seen:?}");
    assert!(seen.nested > 0, "{seen:?}");
}
