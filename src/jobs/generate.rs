//! Seeded, deterministic puzzle generation.
//!
//! Puzzle `i` of a run depends only on `(seed, i)`, so the output is the same whatever the
//! number of threads. Each puzzle:
//! 1. a random solution grid: the three diagonal boxes get random permutations of 1-9 (they
//!    never constrain each other), the `jcz` solver completes the grid, and a random Sudoku
//!    symmetry (digit relabelling, row/column permutations within bands/stacks, band/stack
//!    permutations, transposition) is applied;
//! 2. clues are removed in a random order as long as the puzzle stays uniquely solvable
//!    (checked with solution limit 2), down to a target clue count drawn from the requested
//!    range, or until no clue can be removed (`minimal`);
//! 3. a puzzle outside the clue or guess range is discarded and the next attempt (drawn from
//!    the same puzzle's random stream) is made, up to [`GenerateConfig::max_attempts`]; then
//!    the run stops with a [`Shortfall`] naming the bound that could not be met;
//! 4. with a [`RatingBand`], a puzzle within those bounds is rated last (it is the costly
//!    test) by the human-style engine ([`crate::engines::rater`]) on the band's ladder, capped at the
//!    band's top as `rate --max-rating` caps: a candidate whose path needs a step above the
//!    band stops there instead of being rated in full. It is kept only when its ER lies in
//!    the band and its path was not capped (a capped path needed a harder step, or no
//!    technique of the ladder applied, so its ER is unknown). Rating takes no random numbers: the
//!    puzzles a seed gives are those it gives without a band, minus the ones out of it.
//!
//! Every solver call (completion, uniqueness, guesses) goes to one fixed, named algorithm,
//! [`SOLVER`] (`jcz`), never to the default solver, which gets retuned.
//!
//! What is practical (measured on 4,000 minimal puzzles, seed 5): random clue removal ends at
//! 22-27 clues; 21 clues come ~1 attempt in 400, 20 clues ~1 in 4,000, fewer practically
//! never (17-clue puzzles are found by other means). Guesses needed (limit 1): 55% need none,
//! ~1 in 1,000 needs 32 or more. An attempt costs ~0.25 ms (~0.75 ms when a low clue target makes
//! removal try every cell), so the default budget of 10,000 attempts gives up after 3-8 s.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::engines::rater::{Difficulty, Ladder, RateOptions, Rater, Rating};
use crate::engines::solver::{Algorithm, Limits, Outcome, Status};
use crate::grid::{Grid, CELLS};
use crate::symmetry::{Rng, Symmetry};

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenerateConfig {
    /// The run's seed.
    pub seed: u64,
    /// Fewest clues allowed.
    pub min_clues: usize,
    /// Most clues allowed (at most [`MAX_CLUES`]: a full grid is never a puzzle).
    pub max_clues: usize,
    /// Remove clues until none can be removed (ignores the target count).
    pub minimal: bool,
    /// Fewest guesses the [`SOLVER`] (`jcz`) may need (limit 1).
    pub min_guesses: u64,
    /// Most guesses the [`SOLVER`] (`jcz`) may need (limit 1).
    pub max_guesses: u64,
    /// Attempts per puzzle before giving up with a [`Shortfall`].
    pub max_attempts: u32,
    /// Keep only puzzles whose ER lies in this band (`None`: no rating).
    pub rating: Option<RatingBand>,
}

/// A closed band of ER ratings (Sudoku Explainer's scale) and the ladder that rates it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RatingBand {
    /// The lowest ER kept.
    pub min: Difficulty,
    /// The highest ER kept; also the rater's cap.
    pub max: Difficulty,
    /// The technique ladder.
    pub ladder: Ladder,
}

impl RatingBand {
    /// How candidates are rated: on the band's ladder, capped at its top (a path whose next
    /// step is harder than `max` stops there, as with `rate --max-rating`).
    pub fn rate_options(&self) -> RateOptions {
        RateOptions {
            ladder: self.ladder,
            max_rating: Some(self.max),
        }
    }

    /// True when `rating` is an exact ER (not capped) within the band.
    pub fn contains(&self, rating: &Rating) -> bool {
        !rating.capped && (self.min..=self.max).contains(&rating.er)
    }
}

impl std::fmt::Display for RatingBand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}..{}", self.min, self.max)
    }
}

/// The clue range when none is asked for: that of typical published puzzles.
pub const DEFAULT_CLUES: (usize, usize) = (22, 36);

/// The most clues a puzzle may have: a full grid is never a puzzle.
pub const MAX_CLUES: usize = CELLS - 1;

/// The fewest clues a puzzle with one solution can have.
pub const MIN_CLUES: usize = 17;

impl Default for GenerateConfig {
    fn default() -> Self {
        GenerateConfig {
            seed: 1,
            min_clues: DEFAULT_CLUES.0,
            max_clues: DEFAULT_CLUES.1,
            minimal: false,
            min_guesses: 0,
            max_guesses: u64::MAX,
            max_attempts: 10_000,
            rating: None,
        }
    }
}

/// The solver that completes grids, checks uniqueness and counts the guesses that
/// `min_guesses`/`max_guesses` bound. It is a fixed, named algorithm and not the default
/// ([`Algorithm::Fast`]) because the default's branching gets retuned: its completions and
/// guess counts would change, and with them every puzzle a seed gives (the shipped
/// `datasets/generated-*` files must stay reproducible from their documented commands).
/// Changing this changes every generated puzzle.
pub const SOLVER: Algorithm = Algorithm::Jcz;

/// [`SOLVER`], stopping after `limit` solutions.
fn solve(grid: &Grid, limit: u32) -> Outcome {
    SOLVER.solve(grid, &Limits::solutions(limit))
}

/// A generated puzzle with its unique solution and the attempts it took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle (unique solution).
    pub puzzle: Grid,
    /// Its solution.
    pub solution: Grid,
    /// Attempts made (1 when the first candidate fit).
    pub attempts: u32,
    /// Its rating, when the run has a [`RatingBand`] (within it, not capped).
    pub rating: Option<Rating>,
}

/// A random complete valid grid.
pub fn random_solution(rng: &mut Rng) -> Grid {
    let mut grid = Grid::EMPTY;
    for b in 0..3 {
        let mut digits = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
        rng.shuffle(&mut digits);
        for (k, &d) in digits.iter().enumerate() {
            grid.set((b * 3 + k / 3) * 9 + b * 3 + k % 3, d);
        }
    }
    let full = solve(&grid, 1)
        .solution
        .expect("three independent boxes always complete");
    Symmetry::random(rng).apply(&full)
}

/// Remove clues of `solution` in random order while the puzzle stays unique, stopping at
/// `target` clues (or when no clue can go).
pub fn reduce(solution: &Grid, target: usize, rng: &mut Rng) -> Grid {
    let mut order: [u8; CELLS] = std::array::from_fn(|i| i as u8);
    rng.shuffle(&mut order);
    let mut puzzle = *solution;
    let mut clues = CELLS;
    for &cell in &order {
        if clues <= target {
            break;
        }
        let cell = usize::from(cell);
        let value = puzzle.get(cell);
        puzzle.set(cell, 0);
        if solve(&puzzle, 2).status == Status::Solved {
            clues -= 1;
        } else {
            puzzle.set(cell, value);
        }
    }
    puzzle
}

/// Why puzzle `index` could not be generated: every attempt of the budget fell outside a
/// bound. Counts say which bound rejected how many attempts, extremes say how close they came.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shortfall {
    /// The puzzle's index in the run.
    pub index: u64,
    /// The configuration asked for.
    pub cfg: GenerateConfig,
    /// Attempts with more clues than `max_clues` (clue removal got stuck above it).
    pub too_many_clues: u32,
    /// Attempts with fewer clues than `min_clues` (a minimal puzzle below it).
    pub too_few_clues: u32,
    /// Attempts needing fewer guesses than `min_guesses`.
    pub too_few_guesses: u32,
    /// Attempts needing more guesses than `max_guesses`.
    pub too_many_guesses: u32,
    /// Attempts rated below the band.
    pub too_easy: u32,
    /// Attempts whose rating was capped: their path needed a step above the band (the
    /// rater's cap), or no technique of the ladder applied.
    pub too_hard: u32,
    /// The fewest and most clues of any attempt.
    pub clues_seen: (usize, usize),
    /// The fewest and most guesses of any attempt within the clue range (`None`: no attempt
    /// got that far).
    pub guesses_seen: Option<(u64, u64)>,
    /// The lowest and highest ER of the attempts rated in full (`None`: none was).
    pub ratings_seen: Option<(Difficulty, Difficulty)>,
}

impl Shortfall {
    /// Nothing rejected yet.
    fn new(index: u64, cfg: GenerateConfig) -> Shortfall {
        Shortfall {
            index,
            cfg,
            too_many_clues: 0,
            too_few_clues: 0,
            too_few_guesses: 0,
            too_many_guesses: 0,
            too_easy: 0,
            too_hard: 0,
            clues_seen: (CELLS, 0),
            guesses_seen: None,
            ratings_seen: None,
        }
    }

    /// The rating band's part of the message: how the rated attempts fell.
    fn fmt_rating(&self, f: &mut std::fmt::Formatter<'_>, band: &RatingBand) -> std::fmt::Result {
        write!(
            f,
            "--rating {band} on the {} ladder ({} attempts rated: {} below {}",
            band.ladder,
            self.too_easy + self.too_hard,
            self.too_easy,
            band.min
        )?;
        if let Some((low, high)) = self.ratings_seen {
            write!(f, ", ER {low} to {high}")?;
        }
        write!(
            f,
            "; {} capped: a step above {} was needed, or no technique of the ladder applied)",
            self.too_hard, band.max
        )
    }
}

impl std::fmt::Display for Shortfall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let c = &self.cfg;
        write!(
            f,
            "puzzle {}: no puzzle met the bounds in {} attempts: ",
            self.index + 1,
            c.max_attempts
        )?;
        let worst = [
            self.too_many_clues,
            self.too_few_clues,
            self.too_few_guesses,
            self.too_many_guesses,
            self.too_easy + self.too_hard,
        ];
        let (fewest, most) = self.clues_seen;
        let (low_g, high_g) = self.guesses_seen.unwrap_or((0, 0));
        match worst.iter().enumerate().max_by_key(|&(_, n)| n).map(|(i, _)| i) {
            Some(0) => write!(
                f,
                "--clues {}..{} (the fewest reached was {fewest}; clue removal rarely ends below 22)",
                c.min_clues, c.max_clues
            ),
            Some(1) => write!(
                f,
                "--clues {}..{} (minimal puzzles had at most {most} clues)",
                c.min_clues, c.max_clues
            ),
            Some(2) => write!(
                f,
                "--min-guesses {} (the most any attempt needed was {high_g}; above ~30 is rare)",
                c.min_guesses
            ),
            Some(4) => match &c.rating {
                Some(band) => {
                    self.fmt_rating(f, band)?;
                    return write!(f, "; widen the band or raise --max-attempts");
                }
                None => unreachable!("only a band rates attempts"),
            },
            _ => write!(
                f,
                "--max-guesses {} (the fewest any attempt needed was {low_g})",
                c.max_guesses
            ),
        }?;
        write!(f, "; widen the bound or raise --max-attempts")
    }
}

impl std::error::Error for Shortfall {}

/// Makes the puzzles of a run: its configuration and, with a [`RatingBand`], a rater whose
/// scratch is reused from attempt to attempt. Keep one per worker thread; puzzle `index`
/// is the same whatever generator (or thread) makes it.
pub struct Generator {
    cfg: GenerateConfig,
    rater: Option<Rater>,
}

impl Generator {
    /// A generator for the run `cfg`.
    pub fn new(cfg: GenerateConfig) -> Generator {
        Generator {
            cfg,
            rater: cfg.rating.map(|band| Rater::new(band.rate_options())),
        }
    }

    /// The run's configuration.
    pub fn config(&self) -> &GenerateConfig {
        &self.cfg
    }

    /// Puzzle `index` of the run, or why none was found within `max_attempts` attempts.
    // A Shortfall ends a run, at most once: its size (its counts and the configuration it
    // names) costs nothing, and Generated, the Ok side, is larger still.
    #[allow(clippy::result_large_err)]
    pub fn generate(&mut self, index: u64) -> Result<Generated, Shortfall> {
        self.generate_unless(index, &AtomicBool::new(false))
            .expect("never cancelled")
    }

    /// [`Generator::generate`], giving up (`None`) between attempts once `cancel` is set:
    /// when one puzzle of a parallel batch cannot be made, the others need not use up their
    /// budgets.
    pub fn generate_unless(
        &mut self,
        index: u64,
        cancel: &AtomicBool,
    ) -> Option<Result<Generated, Shortfall>> {
        let mut rng = Rng::new(self.cfg.seed, index);
        let mut miss = Shortfall::new(index, self.cfg);
        for attempts in 1..=self.cfg.max_attempts {
            if cancel.load(Ordering::Relaxed) {
                return None;
            }
            if let Some(g) = self.attempt(&mut rng, &mut miss) {
                return Some(Ok(Generated { attempts, ..g }));
            }
        }
        Some(Err(miss))
    }

    /// One attempt: a candidate from `rng`, kept when it meets every bound, else counted in
    /// `miss` by the first bound it fails (clues, guesses, then the rating: the costly test
    /// last).
    fn attempt(&mut self, rng: &mut Rng, miss: &mut Shortfall) -> Option<Generated> {
        let cfg = &self.cfg;
        let (lo, hi) = (
            cfg.min_clues.clamp(MIN_CLUES, MAX_CLUES),
            cfg.max_clues.clamp(MIN_CLUES, MAX_CLUES),
        );
        let solution = random_solution(rng);
        let target = if cfg.minimal {
            0
        } else {
            lo + rng.below(hi.saturating_sub(lo) + 1)
        };
        let puzzle = reduce(&solution, target, rng);
        let clues = puzzle.clues();
        miss.clues_seen = (miss.clues_seen.0.min(clues), miss.clues_seen.1.max(clues));
        if clues > hi {
            miss.too_many_clues += 1;
            return None;
        }
        if clues < lo {
            miss.too_few_clues += 1;
            return None;
        }
        let guesses = solve(&puzzle, 1).guesses;
        let (low, high) = miss.guesses_seen.unwrap_or((guesses, guesses));
        miss.guesses_seen = Some((low.min(guesses), high.max(guesses)));
        if guesses < cfg.min_guesses {
            miss.too_few_guesses += 1;
            return None;
        }
        if guesses > cfg.max_guesses {
            miss.too_many_guesses += 1;
            return None;
        }
        let rating = match (&cfg.rating, &mut self.rater) {
            (Some(band), Some(rater)) => Some(rate_in_band(band, rater, &puzzle, &solution, miss)?),
            _ => None,
        };
        Some(Generated {
            puzzle,
            solution,
            attempts: 0,
            rating,
        })
    }
}

/// `puzzle`'s rating when it lies in `band` (`None`: counted in `miss` as too easy, or too
/// hard when capped).
fn rate_in_band(
    band: &RatingBand,
    rater: &mut Rater,
    puzzle: &Grid,
    solution: &Grid,
    miss: &mut Shortfall,
) -> Option<Rating> {
    let rating = rater.rate(puzzle, solution);
    if rating.capped || rating.er > band.max {
        miss.too_hard += 1;
        return None;
    }
    let (low, high) = miss.ratings_seen.unwrap_or((rating.er, rating.er));
    miss.ratings_seen = Some((low.min(rating.er), high.max(rating.er)));
    if rating.er < band.min {
        miss.too_easy += 1;
        return None;
    }
    debug_assert!(band.contains(&rating));
    Some(rating)
}

/// Puzzle `index` of the run configured by `cfg`, or why none was found within
/// `cfg.max_attempts` attempts (a [`Generator`] made for the one puzzle; keep one
/// [`Generator`] to make many with a rating band).
#[allow(clippy::result_large_err)] // as Generator::generate
pub fn generate(cfg: &GenerateConfig, index: u64) -> Result<Generated, Shortfall> {
    Generator::new(*cfg).generate(index)
}

/// [`generate`], giving up (`None`) between attempts once `cancel` is set (see
/// [`Generator::generate_unless`]).
pub fn generate_unless(
    cfg: &GenerateConfig,
    index: u64,
    cancel: &AtomicBool,
) -> Option<Result<Generated, Shortfall>> {
    Generator::new(*cfg).generate_unless(index, cancel)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn puzzles_are_unique_reproducible_and_in_range() {
        let cfg = GenerateConfig {
            seed: 7,
            min_clues: 26,
            max_clues: 30,
            ..GenerateConfig::default()
        };
        for i in 0..30 {
            let g = generate(&cfg, i).unwrap();
            assert_eq!(
                g,
                generate(&cfg, i).unwrap(),
                "same seed and index, same puzzle"
            );
            assert!(
                (26..=30).contains(&g.puzzle.clues()),
                "{}",
                g.puzzle.clues()
            );
            let out = solve(&g.puzzle, 2);
            assert_eq!(out.status, Status::Solved);
            assert_eq!(out.solution, Some(g.solution));
        }
        assert_ne!(
            generate(&cfg, 0).unwrap().puzzle,
            generate(&cfg, 1).unwrap().puzzle
        );
        let other_seed = GenerateConfig { seed: 8, ..cfg };
        assert_ne!(
            generate(&cfg, 0).unwrap().puzzle,
            generate(&other_seed, 0).unwrap().puzzle
        );
    }

    #[test]
    fn minimal_puzzles_have_no_removable_clue() {
        let cfg = GenerateConfig {
            seed: 3,
            minimal: true,
            ..GenerateConfig::default()
        };
        for i in 0..5 {
            let p = generate(&cfg, i).unwrap().puzzle;
            for cell in 0..CELLS {
                if p.get(cell) != 0 {
                    let mut q = p;
                    q.set(cell, 0);
                    assert_eq!(solve(&q, 2).status, Status::Multiple);
                }
            }
        }
    }

    #[test]
    fn guess_range_is_respected() {
        let cfg = GenerateConfig {
            seed: 11,
            minimal: true,
            min_guesses: 2,
            ..GenerateConfig::default()
        };
        for i in 0..5 {
            assert!(solve(&generate(&cfg, i).unwrap().puzzle, 1).guesses >= 2);
        }
    }

    #[test]
    fn impossible_bounds_end_with_the_bound_named() {
        let cfg = GenerateConfig {
            min_clues: 17,
            max_clues: 17,
            max_attempts: 20,
            ..GenerateConfig::default()
        };
        let miss = generate(&cfg, 0).unwrap_err();
        assert_eq!(miss.too_many_clues, 20);
        assert!(miss.clues_seen.0 > 17);
        assert!(miss.to_string().contains("--clues 17..17"), "{miss}");

        let cfg = GenerateConfig {
            min_guesses: 100_000,
            max_attempts: 20,
            ..GenerateConfig::default()
        };
        let miss = generate(&cfg, 3).unwrap_err();
        assert_eq!(miss.too_few_guesses, 20);
        assert!(miss.to_string().contains("--min-guesses 100000"), "{miss}");
        assert_eq!(miss.to_string(), generate(&cfg, 3).unwrap_err().to_string());
    }

    fn band(min: u8, max: u8, ladder: Ladder) -> RatingBand {
        RatingBand {
            min: Difficulty(min),
            max: Difficulty(max),
            ladder,
        }
    }

    /// Kept puzzles lie in the band, and their rating is the one a rater without a cap gives.
    #[test]
    fn a_rating_band_keeps_puzzles_rated_within_it() {
        for (ladder, min, max) in [(Ladder::Se, 30, 45), (Ladder::Sukaku, 40, 43)] {
            let cfg = GenerateConfig {
                seed: 4,
                rating: Some(band(min, max, ladder)),
                ..GenerateConfig::default()
            };
            let mut generator = Generator::new(cfg);
            let mut uncapped = Rater::new(RateOptions {
                ladder,
                max_rating: None,
            });
            for i in 0..6 {
                let g = generator.generate(i).unwrap();
                let rating = g.rating.expect("rated");
                assert!(cfg.rating.unwrap().contains(&rating), "{rating:?}");
                assert_eq!(uncapped.rate(&g.puzzle, &g.solution), rating);
                assert_eq!(generate(&cfg, i).unwrap(), g, "same with a fresh generator");
            }
        }
    }

    /// A band changes which attempt is kept, never the attempts: the puzzle a band keeps is
    /// the one the same seed gives without a band at that attempt.
    #[test]
    fn a_band_keeps_one_of_the_unbanded_attempts() {
        let plain = GenerateConfig {
            seed: 9,
            ..GenerateConfig::default()
        };
        let banded = GenerateConfig {
            rating: Some(band(26, 40, Ladder::Se)),
            ..plain
        };
        let g = generate(&banded, 2).unwrap();
        let mut rng = Rng::new(plain.seed, 2);
        let mut generator = Generator::new(plain);
        let mut miss = Shortfall::new(2, plain);
        let nth = (0..g.attempts)
            .map(|_| generator.attempt(&mut rng, &mut miss).unwrap())
            .last()
            .unwrap();
        assert_eq!((nth.puzzle, nth.solution), (g.puzzle, g.solution));
        assert_eq!(generate(&plain, 2).unwrap().rating, None);
    }

    #[test]
    fn an_unmet_band_is_named_with_what_was_rated() {
        let cfg = GenerateConfig {
            max_attempts: 15,
            rating: Some(band(115, 120, Ladder::Se)),
            ..GenerateConfig::default()
        };
        let miss = generate(&cfg, 0).unwrap_err();
        assert_eq!(miss.too_easy + miss.too_hard, 15);
        let (low, high) = miss.ratings_seen.expect("some rated in full");
        assert!(low <= high && high < Difficulty(115));
        let text = miss.to_string();
        assert!(
            text.contains("--rating 11.5..12.0 on the se ladder (15 attempts rated")
                && text.ends_with("widen the band or raise --max-attempts"),
            "{text}"
        );
    }
}
