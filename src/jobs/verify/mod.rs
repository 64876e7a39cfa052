//! Checking a dataset's published solutions: every record gets the list of its problems.
//!
//! Problem codes (one report line each; a record can have several):
//! - `malformed`: the puzzle or the listed solution cannot be parsed;
//! - `missing-solution`: no solution is listed;
//! - `invalid-givens`: the puzzle's givens break a rule;
//! - `bad-grid`: the listed solution is not a complete valid grid;
//! - `clue-mismatch`: the listed solution changes a clue;
//! - `unsolvable`: the puzzle has no solution;
//! - `not-unique`: the puzzle has two or more solutions (the detail says whether the listed one
//!   is among them);
//! - `wrong-solution`: the puzzle is unique and the listed grid differs from its solution (the
//!   detail names the first differing cell and the right digit);
//! - `duplicate`: the same puzzle text appeared on an earlier line (with `--duplicates`; up
//!   to symmetry with `--duplicates=canonical`);
//! - `in-reference`: a reference file has the same (or, canonical, an equivalent) puzzle
//!   (with `--against`).

pub mod duplicates;
pub mod report;

use std::fmt;

use serde::Serialize;

use crate::engines::solver::{solve_with_limit, Outcome, Status};
use crate::error::RecordError;
use crate::grid::{cell_name, Grid, CELLS};
use crate::io::reader::Record;

/// What can be wrong with a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Problem {
    /// The puzzle or solution text does not parse.
    Malformed,
    /// No solution is listed.
    MissingSolution,
    /// The givens break a rule.
    InvalidGivens,
    /// The listed solution breaks a rule or is incomplete.
    BadGrid,
    /// The listed solution changes a clue.
    ClueMismatch,
    /// The puzzle has no solution.
    Unsolvable,
    /// The puzzle has two or more solutions.
    NotUnique,
    /// The puzzle is unique and the listed grid is not its solution.
    WrongSolution,
    /// The same puzzle appeared earlier.
    Duplicate,
    /// A reference file has the same (or an equivalent) puzzle.
    InReference,
}

impl Problem {
    /// Every problem, in report order.
    pub const ALL: [Problem; 10] = [
        Problem::Malformed,
        Problem::MissingSolution,
        Problem::InvalidGivens,
        Problem::BadGrid,
        Problem::ClueMismatch,
        Problem::Unsolvable,
        Problem::NotUnique,
        Problem::WrongSolution,
        Problem::Duplicate,
        Problem::InReference,
    ];

    /// The code used in reports.
    pub fn code(self) -> &'static str {
        match self {
            Problem::Malformed => "malformed",
            Problem::MissingSolution => "missing-solution",
            Problem::InvalidGivens => "invalid-givens",
            Problem::BadGrid => "bad-grid",
            Problem::ClueMismatch => "clue-mismatch",
            Problem::Unsolvable => "unsolvable",
            Problem::NotUnique => "not-unique",
            Problem::WrongSolution => "wrong-solution",
            Problem::Duplicate => "duplicate",
            Problem::InReference => "in-reference",
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// One problem of one record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// What is wrong.
    pub problem: Problem,
    /// A short explanation (e.g. the first differing cell).
    pub detail: String,
}

/// A record after checking.
#[derive(Clone, Debug)]
pub struct Checked {
    /// 1-based input line.
    pub line: u64,
    /// The id column, when there is one.
    pub id: Option<String>,
    /// The puzzle, when it parsed (for duplicate detection).
    pub puzzle: Option<Grid>,
    /// Its canonical form, when asked for (duplicates up to symmetry).
    pub canonical: Option<Grid>,
    /// Its problems (empty when the record is fine).
    pub findings: Vec<Finding>,
}

impl Checked {
    pub(crate) fn add(&mut self, problem: Problem, detail: impl Into<String>) {
        self.findings.push(Finding {
            problem,
            detail: detail.into(),
        });
    }
}

/// The first cell where `a` and `b` differ, described.
fn first_difference(listed: &Grid, right: &Grid) -> String {
    let cell = (0..CELLS)
        .find(|&i| listed.get(i) != right.get(i))
        .unwrap_or(0);
    format!(
        "{} is {}, the solution has {}",
        cell_name(cell as u8),
        listed.get(cell),
        right.get(cell)
    )
}

/// Why a grid is not a complete valid grid.
fn grid_fault(grid: &Grid) -> Option<String> {
    if let Some(cell) = (0..CELLS).find(|&i| grid.get(i) == 0) {
        return Some(format!("{} is empty", cell_name(cell as u8)));
    }
    grid.conflict().map(|c| c.to_string())
}

/// What [`check`] demands of a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Prove the puzzle unique (solution limit 2); without it, a listed solution that is a
    /// valid grid keeping the clues is accepted as is.
    pub unique: bool,
    /// A record without a listed solution has the `missing-solution` problem. Without it,
    /// such a record is checked on its own: givens, solvability, uniqueness.
    pub require_solution: bool,
}

/// Check one record against `rules`.
pub fn check(record: Record, rules: Rules) -> Checked {
    let unique = rules.unique;
    let mut out = Checked {
        line: record.line,
        id: record.id,
        puzzle: None,
        canonical: None,
        findings: Vec::new(),
    };
    let puzzle = match record.puzzle {
        Ok(p) => p,
        Err(e) => {
            out.add(Problem::Malformed, format!("puzzle: {e}"));
            return out;
        }
    };
    out.puzzle = Some(puzzle);
    // Fast path for the common case: a unique puzzle whose listed solution is its solution
    // (the solver's answer is a valid grid keeping the clues, so nothing else to check).
    let proof = unique.then(|| solve_with_limit(&puzzle, 2));
    if let (Some(o), Some(Ok(s))) = (&proof, &record.solution) {
        if o.status == Status::Solved && o.solution.as_ref() == Some(s) {
            return out;
        }
    }
    let listed = listed_solution(record.solution, rules, &mut out);
    let listed_fine = listed.is_some_and(|s| out.check_listed(&puzzle, &s));
    if let Some(c) = puzzle.conflict() {
        out.add(Problem::InvalidGivens, c.to_string());
        out.findings.sort_by_key(|f| f.problem);
        return out;
    }
    if !unique && listed_fine {
        return out; // the listed grid proves the puzzle solvable
    }
    let outcome = proof.unwrap_or_else(|| solve_with_limit(&puzzle, 1));
    out.check_outcome(&outcome, listed, listed_fine, unique);
    out
}

/// The listed solution, if there is one that parses (a missing or malformed one is noted).
fn listed_solution(
    solution: Option<Result<Grid, RecordError>>,
    rules: Rules,
    out: &mut Checked,
) -> Option<Grid> {
    match solution {
        None => {
            if rules.require_solution {
                out.add(Problem::MissingSolution, "no solution listed");
            }
            None
        }
        Some(Err(e)) => {
            out.add(Problem::Malformed, format!("solution: {e}"));
            None
        }
        Some(Ok(s)) => Some(s),
    }
}

impl Checked {
    /// Check the listed solution `s` on its own and against the clues; true when it is a
    /// complete valid grid that keeps them.
    fn check_listed(&mut self, puzzle: &Grid, s: &Grid) -> bool {
        let fault = grid_fault(s);
        if let Some(f) = &fault {
            self.add(Problem::BadGrid, f.clone());
        }
        let mismatch = (0..CELLS).find(|&i| puzzle.get(i) != 0 && puzzle.get(i) != s.get(i));
        if let Some(cell) = mismatch {
            self.add(
                Problem::ClueMismatch,
                format!(
                    "{} is {}, the clue is {}",
                    cell_name(cell as u8),
                    s.get(cell),
                    puzzle.get(cell)
                ),
            );
        }
        fault.is_none() && mismatch.is_none()
    }

    /// Judge the solver's `outcome` for the puzzle and the listed solution.
    fn check_outcome(
        &mut self,
        outcome: &Outcome,
        listed: Option<Grid>,
        listed_fine: bool,
        unique: bool,
    ) {
        match outcome.status {
            Status::Unsolvable => self.add(Problem::Unsolvable, "no grid completes the givens"),
            Status::Multiple => {
                let detail = match &listed {
                    Some(_) if listed_fine => "2 or more solutions; the listed one is one of them",
                    Some(_) => "2 or more solutions; the listed grid is not one of them",
                    None => "2 or more solutions",
                };
                self.add(Problem::NotUnique, detail);
            }
            Status::Solved if unique => {
                let right = outcome.solution.expect("solved has a solution");
                if let Some(s) = listed.filter(|s| *s != right) {
                    self.add(Problem::WrongSolution, first_difference(&s, &right));
                }
            }
            _ => {}
        }
    }
}

pub use duplicates::Duplicates;

/// The run summary of `verify` (`--stats-json`).
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// The inputs, as named on the command line.
    pub inputs: Vec<String>,
    /// Whether uniqueness was proved (not `--no-unique`).
    pub unique_checked: bool,
    /// Wall-clock seconds of the whole run.
    pub seconds: f64,
    /// Records per second of the whole run.
    pub puzzles_per_sec: f64,
    /// The totals.
    #[serde(flatten)]
    pub stats: VerifyStats,
}

impl Summary {
    /// The summary of a run of `seconds` over `inputs` with these totals.
    pub fn new(
        inputs: Vec<String>,
        unique_checked: bool,
        seconds: f64,
        stats: VerifyStats,
    ) -> Summary {
        Summary {
            inputs,
            unique_checked,
            seconds,
            puzzles_per_sec: stats.records as f64 / seconds.max(1e-9),
            stats,
        }
    }
}

/// Totals of a verify run.
#[derive(Clone, Debug, Default, Serialize)]
pub struct VerifyStats {
    /// Records checked.
    pub records: u64,
    /// Records with no problem.
    pub passed: u64,
    /// Findings per problem code.
    pub problems: std::collections::BTreeMap<Problem, u64>,
}

impl VerifyStats {
    /// Count one checked record.
    pub fn add(&mut self, c: &Checked) {
        self.records += 1;
        self.passed += u64::from(c.findings.is_empty());
        for f in &c.findings {
            *self.problems.entry(f.problem).or_default() += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{GridError, RecordError};

    const P: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    const S: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    fn record(p: &str, s: Option<&str>) -> Record {
        Record {
            position: None,
            line: 3,
            id: None,
            puzzle: Grid::from_line(p).map_err(RecordError::from),
            solution: s.map(|s| Grid::from_line(s).map_err(RecordError::from)),
            text: Default::default(),
        }
    }

    const ALL_RULES: Rules = Rules {
        unique: true,
        require_solution: true,
    };
    const NO_UNIQUE: Rules = Rules {
        unique: false,
        require_solution: true,
    };

    #[test]
    fn without_a_listed_solution_the_puzzle_is_checked_on_its_own() {
        let alone = Rules {
            unique: true,
            require_solution: false,
        };
        assert!(check(record(P, None), alone).findings.is_empty());
        let empty = ".".repeat(81);
        assert_eq!(
            codes(&check(record(&empty, None), alone)),
            [Problem::NotUnique]
        );
        let mut bad = P.to_string();
        bad.replace_range(2..3, "3");
        assert_eq!(
            codes(&check(record(&bad, None), alone)),
            [Problem::InvalidGivens]
        );
        assert_eq!(
            codes(&check(record(P, None), ALL_RULES)),
            [Problem::MissingSolution]
        );
    }

    fn codes(c: &Checked) -> Vec<Problem> {
        c.findings.iter().map(|f| f.problem).collect()
    }

    #[test]
    fn a_right_solution_passes() {
        assert!(check(record(P, Some(S)), ALL_RULES).findings.is_empty());
        assert!(check(record(P, Some(S)), NO_UNIQUE).findings.is_empty());
    }

    #[test]
    fn each_fault_has_its_code() {
        // A changed digit: the grid breaks a rule and is not the solution.
        let mut changed = S.to_string();
        changed.replace_range(2..3, "5"); // r1c3 is empty in the puzzle
        let c = check(record(P, Some(&changed)), ALL_RULES);
        assert_eq!(codes(&c), [Problem::BadGrid, Problem::WrongSolution]);
        assert_eq!(c.findings[1].detail, "r1c3 is 5, the solution has 4");
        // A changed clue in the solution (digits 5 and 3 swapped everywhere: still valid).
        let relabelled: String = S
            .chars()
            .map(|ch| match ch {
                '5' => '3',
                '3' => '5',
                c => c,
            })
            .collect();
        let c = check(record(P, Some(&relabelled)), ALL_RULES);
        assert_eq!(codes(&c), [Problem::ClueMismatch, Problem::WrongSolution]);
        assert_eq!(c.findings[0].detail, "r1c1 is 3, the clue is 5");
        // Missing, malformed, invalid, unsolvable, not unique.
        assert_eq!(
            codes(&check(record(P, None), ALL_RULES)),
            [Problem::MissingSolution]
        );
        let c = check(record(P, Some(&S[..80])), ALL_RULES);
        assert_eq!(codes(&c), [Problem::Malformed]);
        assert_eq!(
            c.findings[0].detail,
            format!("solution: {}", GridError::Length { found: 80 })
        );
        assert_eq!(
            codes(&check(record(&P[1..], Some(S)), ALL_RULES)),
            [Problem::Malformed]
        );
        let mut bad = P.to_string();
        bad.replace_range(2..3, "3");
        assert_eq!(
            codes(&check(record(&bad, Some(S)), ALL_RULES)),
            [Problem::InvalidGivens, Problem::ClueMismatch]
        );
        let empty = ".".repeat(81);
        let c = check(record(&empty, Some(S)), ALL_RULES);
        assert_eq!(codes(&c), [Problem::NotUnique]);
        assert!(c.findings[0]
            .detail
            .contains("the listed one is one of them"));
        assert!(
            check(record(&empty, Some(S)), NO_UNIQUE)
                .findings
                .is_empty(),
            "--no-unique accepts it"
        );
        let impossible =
            ".....5.8....6.1.43..........1.5........1.6...3.......553.....61........4.........";
        assert_eq!(
            codes(&check(record(impossible, None), ALL_RULES)),
            [Problem::MissingSolution, Problem::Unsolvable]
        );
    }

    #[test]
    fn duplicates_name_the_first_line() {
        let mut d = Duplicates::new(false);
        d.start_file("input");
        let mut a = check(record(P, Some(S)), ALL_RULES);
        d.note(&mut a);
        let mut b = check(
            Record {
                line: 9,
                ..record(P, Some(S))
            },
            ALL_RULES,
        );
        d.note(&mut b);
        assert!(a.findings.is_empty());
        assert_eq!(b.findings[0].detail, "same puzzle as line 3");
    }
}
