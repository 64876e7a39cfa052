//! `explain` as a library: each record's rating and solving path, kept step by step for
//! drawing: one HTML page for all records ([`page`]), one SVG per step ([`svg`]), both from
//! one layout ([`layout`]).
//!
//! A record is rated as `rate --steps` rates it (a uniqueness solve, then the engine's path,
//! [`Start`]); each step is kept as an [`ExplainStep`]: its houses, cells, placements,
//! eliminations, its chains' links (from the engine's data: [`Link`]) and its sentence. The grid a step is taken on is not stored with it: a [`Board`] replays the
//! steps from the record's start (a placement fixes its cell and leaves its peers, an
//! elimination removes one candidate), as the page's script does.
//!
//! A page holds at most [`RECORD_LIMIT`] records: 13-20 KB each for hard puzzles (Exchange
//! diabolical, top1465), so a full page stays a file a browser opens without a wait.

pub mod layout;
pub mod page;
pub mod svg;

use serde::Serialize;

use crate::engines::rater::Step;
use crate::engines::rater::{self, Difficulty, Rater, Rating, StepChain};
use crate::grid::Grid;
use crate::io::reader::Record;
use crate::jobs::rate::{guarded, RateStatus, Raters, Start};
use crate::pipeline::Work;
use crate::position::Position;

pub use page::{entry, PageWriter};

/// The most records one page holds (see the module doc).
pub const RECORD_LIMIT: u64 = 1000;

/// The message for an input past [`RECORD_LIMIT`].
pub fn limit_message() -> String {
    format!(
        "a page holds at most {RECORD_LIMIT} records: split the input and make one page per \
         part, e.g. `split -l {RECORD_LIMIT} -d puzzles.txt part-` then `sudoku-batch explain \
         part-00 -o part-00.html`, or `head -n {RECORD_LIMIT}` for the first ones"
    )
}

/// A candidate: cell 0..81 (row-major) and digit 1..=9.
pub type Candidate = (u8, u8);

/// How a link is drawn: its class in the drawing (`link strong`, `link weak`, `link rule`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkKind {
    /// Off, so on.
    Strong,
    /// On, so off.
    Weak,
    /// Off, so off: by a basic rule or a nested chain (dynamic forcing chains (+), nested
    /// ones).
    Rule,
}

impl LinkKind {
    /// The kind's class name in the drawing.
    pub fn class(self) -> &'static str {
        match self {
            LinkKind::Strong => "strong",
            LinkKind::Weak => "weak",
            LinkKind::Rule => "rule",
        }
    }
}

/// One link of a step's chains, as drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    /// Where it starts.
    pub from: Candidate,
    /// Where it ends.
    pub to: Candidate,
    /// Strong, weak or a rule.
    pub kind: LinkKind,
}

impl Link {
    /// The engine's link, as drawn.
    pub fn of(link: &rater::Link) -> Link {
        let kind = match link.kind() {
            rater::LinkKind::Strong => LinkKind::Strong,
            rater::LinkKind::Weak => LinkKind::Weak,
            rater::LinkKind::Rule | rater::LinkKind::Nested => LinkKind::Rule,
        };
        Link {
            from: (link.from.cell, link.from.digit),
            to: (link.to.cell, link.to.digit),
            kind,
        }
    }
}

/// One step of a path, owned (the engine's [`Step`] borrows its scratch).
#[derive(Clone, Debug, PartialEq)]
pub struct ExplainStep {
    /// The technique's name.
    pub technique: &'static str,
    /// Its difficulty.
    pub difficulty: Difficulty,
    /// The houses it rests on (0..9 boxes, 9..18 rows, 18..27 columns), as a person names
    /// them: rows, columns, boxes.
    pub houses: Vec<u8>,
    /// The cells it rests on.
    pub cells: Vec<u8>,
    /// What it places: (cell, digit).
    pub placements: Vec<(u8, u8)>,
    /// What it removes: (cell, digit).
    pub eliminations: Vec<(u8, u8)>,
    /// Its chains in Eureka notation, one per branch (none for a step without a chain).
    pub chains: Vec<String>,
    /// The chains' links, every branch's in order.
    pub links: Vec<Link>,
    /// The step in words.
    pub text: String,
}

impl ExplainStep {
    /// The engine's step, owned, with its chains' links (every branch's, in order).
    pub fn of(step: &Step<'_>) -> ExplainStep {
        let chains: Vec<String> = match step.chain {
            StepChain::None => Vec::new(),
            StepChain::Single(chain) => vec![chain.to_string()],
            StepChain::Branches(branches) => branches.iter().map(str::to_string).collect(),
        };
        let links = step
            .branches
            .iter()
            .flat_map(|b| b.links().iter().map(Link::of))
            .collect();
        ExplainStep {
            technique: step.technique.name(),
            difficulty: step.difficulty,
            houses: step.houses.iter().map(|h| h.0).collect(),
            cells: step.cells.to_vec(),
            placements: step.placements.iter().map(|p| (p.cell, p.digit)).collect(),
            eliminations: step
                .eliminations
                .iter()
                .map(|e| (e.cell, e.digit))
                .collect(),
            chains,
            links,
            text: step.text.to_string(),
        }
    }
}

/// The grid a step is taken on: each cell's candidates, and the digits placed (by the
/// record, `given`, or by a step).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    /// Candidates, bit `d - 1` for digit `d`.
    pub masks: [u16; 81],
    /// The digit placed in each cell, 0 for none.
    pub placed: [u8; 81],
    /// The cells placed at the start (bit `cell`).
    pub given: u128,
}

/// Whether cells `a` and `b` (different) share a row, column or box.
pub fn peers(a: usize, b: usize) -> bool {
    a != b && (a / 9 == b / 9 || a % 9 == b % 9 || (a / 27, a % 9 / 3) == (b / 27, b % 9 / 3))
}

impl Board {
    /// The start of a record: a cell with one candidate that no peer holds is placed.
    pub fn start(position: &Position) -> Board {
        let masks = *position.masks();
        let mut board = Board {
            masks,
            placed: [0; 81],
            given: 0,
        };
        for (cell, &m) in masks.iter().enumerate() {
            let alone = (0..81).all(|o| !peers(cell, o) || masks[o] & m == 0);
            if m.is_power_of_two() && alone {
                board.placed[cell] = m.trailing_zeros() as u8 + 1;
                board.given |= 1 << cell;
            }
        }
        board
    }

    /// The grid after `step`: its eliminations, then its placements (the cell keeps its digit
    /// alone, its peers lose it).
    pub fn apply(&mut self, step: &ExplainStep) {
        for &(cell, digit) in &step.eliminations {
            self.masks[usize::from(cell)] &= !(1 << (digit - 1));
        }
        for &(cell, digit) in &step.placements {
            let (cell, bit) = (usize::from(cell), 1u16 << (digit - 1));
            self.masks[cell] = bit;
            self.placed[cell] = digit;
            for o in (0..81).filter(|&o| peers(cell, o)) {
                self.masks[o] &= !bit;
            }
        }
    }
}

/// An input record with its path, for `explain`.
#[derive(Clone, Debug)]
pub struct ExplainRecord {
    /// 1-based line number where the record starts.
    pub line: u64,
    /// What became of it (`rate`'s statuses).
    pub status: RateStatus,
    /// The message of a record not rated (`2+ solutions` for a multiple one).
    pub error: Option<String>,
    /// The rating (rated records).
    pub rating: Option<Rating>,
    /// The grid the path starts from (`None` for a malformed record).
    pub start: Option<Board>,
    /// The path.
    pub steps: Vec<ExplainStep>,
}

impl ExplainRecord {
    fn new(line: u64, status: RateStatus) -> ExplainRecord {
        ExplainRecord {
            line,
            status,
            error: None,
            rating: None,
            start: None,
            steps: Vec::new(),
        }
    }

    /// A malformed record and its message.
    pub fn malformed(line: u64, message: String) -> ExplainRecord {
        let mut r = ExplainRecord::new(line, RateStatus::Malformed);
        r.error = Some(message);
        r
    }

    /// What is wrong with the record, for `--strict` and stderr (`None`: it was rated).
    pub fn problem(&self) -> Option<String> {
        if self.status == RateStatus::Rated {
            return None;
        }
        let status = self.status.as_str();
        Some(match &self.error {
            Some(e) => format!("{status}: {e}"),
            None => status.to_string(),
        })
    }
}

/// Rate `start` with `rater` as `rate --steps` does, keeping every step (the work of each
/// record of `explain`, in the CLI's pipeline and the Python module). A failure of the engine
/// becomes a [`RateStatus::Failed`] record, and `rater` a fresh one.
pub fn explain_start(rater: &mut Rater, line: u64, start: Start<'_>) -> ExplainRecord {
    let (status, outcome) = start.solve();
    let mut r = ExplainRecord::new(line, status);
    let position = start.position();
    r.start = Some(Board::start(&position));
    r.error = match status {
        RateStatus::Invalid => position
            .fault()
            .map(|f| f.to_string())
            .or_else(|| outcome.conflict.map(|c| c.to_string())),
        RateStatus::Multiple => Some("2+ solutions".into()),
        RateStatus::Unsolvable => Some("no solution".into()),
        RateStatus::Failed => Some("the search stopped early".into()),
        RateStatus::Rated | RateStatus::Malformed => None,
    };
    let (RateStatus::Rated, Some(solution)) = (status, outcome.solution) else {
        return r;
    };
    let steps = &mut r.steps;
    let rated = guarded(rater, |rater| {
        let mut on_step = |step: &Step<'_>| steps.push(ExplainStep::of(step));
        match start {
            Start::Puzzle(p) => rater.rate_with_steps(p, &solution, &mut on_step),
            Start::Position(p) => rater.rate_position(p, &solution, Some(&mut on_step)),
        }
    });
    match rated {
        Ok(rating) => r.rating = Some(rating),
        Err(message) => {
            r.status = RateStatus::Failed;
            r.steps.clear();
            r.error = Some(message);
        }
    }
    r
}

/// `explain` as the pipeline's [`Work`]: [`explain_start`] with the calling worker's rater.
pub struct ExplainWork<'a> {
    /// The workers' raters.
    pub raters: &'a Raters,
}

impl Work<ExplainRecord> for ExplainWork<'_> {
    fn record(&self, record: Record) -> ExplainRecord {
        let start = match (&record.puzzle, &record.position) {
            (_, Some(p)) => Start::Position(p),
            (Ok(p), None) => Start::Puzzle(p),
            (Err(e), None) => return ExplainRecord::malformed(record.line, e.to_string()),
        };
        self.raters
            .with_rater(|rater| explain_start(rater, record.line, start))
    }

    fn puzzle(&self, line: u64, puzzle: Grid) -> ExplainRecord {
        self.raters
            .with_rater(|rater| explain_start(rater, line, Start::Puzzle(&puzzle)))
    }
}

/// Run totals of `explain`: records by status, and steps drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ExplainStats {
    /// Input records seen (every status).
    pub records: u64,
    /// Records rated.
    pub rated: u64,
    /// Records not rated (multiple, unsolvable, invalid, malformed, failed).
    pub problems: u64,
    /// Steps on the page.
    pub steps: u64,
}

impl ExplainStats {
    /// Count one record.
    pub fn add(&mut self, r: &ExplainRecord) {
        self.records += 1;
        if r.status == RateStatus::Rated {
            self.rated += 1;
        } else {
            self.problems += 1;
        }
        self.steps += r.steps.len() as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::rater::RateOptions;

    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    fn explain(start: Start<'_>) -> ExplainRecord {
        explain_start(&mut Rater::new(RateOptions::default()), 1, start)
    }

    #[test]
    fn a_path_replays_to_the_solution() {
        let p: Grid = PUZZLE.parse().unwrap();
        let r = explain(Start::Puzzle(&p));
        assert_eq!(r.status, RateStatus::Rated);
        let rating = r.rating.unwrap();
        assert_eq!(r.steps.len() as u32, rating.steps);
        let mut board = r.start.unwrap();
        assert_eq!(board.given.count_ones(), 30);
        for step in &r.steps {
            board.apply(step);
        }
        let solution = crate::engines::solver::solve_with_limit(&p, 2)
            .solution
            .unwrap();
        assert_eq!(&board.placed, solution.cells());
    }

    #[test]
    fn bad_records_keep_their_message() {
        let r = explain(Start::Puzzle(&Grid::EMPTY));
        assert_eq!(r.status, RateStatus::Multiple);
        assert_eq!(r.problem().unwrap(), "multiple: 2+ solutions");
        let p: Grid = PUZZLE.parse().unwrap();
        let mut masks = *Position::from_grid(&p).masks();
        masks[2] = 0;
        let r = explain(Start::Position(&Position::from_masks(masks)));
        assert_eq!(r.status, RateStatus::Invalid);
        assert_eq!(r.error.as_deref(), Some("cell r1c3 has no candidate"));
        assert!(r.steps.is_empty());
    }
}
