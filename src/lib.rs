//! sudoku-batch: solve, check and benchmark Sudoku puzzles in bulk.
//!
//! The layers, each depending only on those before it:
//! [`error`] ← [`grid`] ← [`solver`] ← [`stats`] and [`distribution`] ← [`io`] ← [`pipeline`].
//!
//! ```
//! use sudoku_batch::{Grid, solver::{solve_with_limit, Status}};
//! let puzzle: Grid = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
//!     .parse().unwrap();
//! let outcome = solve_with_limit(&puzzle, 2);
//! assert_eq!(outcome.status, Status::Solved);
//! assert!(outcome.solution.unwrap().is_solution_of(&puzzle));
//! ```
#![deny(missing_docs)]

pub mod bench;
pub mod canonical;
pub mod dedupe;
pub mod distribution;
pub mod error;
pub mod generate;
pub mod grid;
pub mod io;
pub mod pipeline;
pub mod plot;
pub mod solver;
pub mod stats;
pub mod verify;

pub use error::{GridError, InputError, RecordError};
pub use grid::{Conflict, Grid, Unit};
