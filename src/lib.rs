//! sudoku-batch: solve, check and benchmark Sudoku puzzles in bulk.
//!
//! The modules in layers: each uses only the layers below it (tests aside).
//!
//! ```text
//!  jobs/        one module per command: a record's work, its statuses, writers, run summary
//!               solve  verify  rate  hint  canon  shuffle  generate  bench;  plot draws bench
//!               and rate summaries
//!               │
//!               ▼
//!  pipeline     batches of records → rayon → results in input order → a Sink
//!               │
//!               ▼
//!  io           readers of every input format (reader/), decompression, shared writing code
//!  stats, distribution     totals and exact percentiles of a run
//!               │
//!               ▼
//!  engines/     solver: the search; rater: human-style ratings (SE's ER/EP/ED), step by
//!               step; canonical: canonical forms up to symmetry
//!               │
//!               ▼
//!  symmetry     random numbers and Sudoku symmetries
//!  grid, position   the 81-cell grid, and a position as its candidates (the 729-character
//!               form): parse and format
//!  error        what can go wrong with input
//!  limits       how much of an input is held in memory, at most
//! ```
//!
//! The binary (`src/app/`: arguments beside each command's `run`, the command skeleton
//! `job.rs`, output rules, progress bar) sits above all of them and is the only part that
//! knows about the command line. Its crates come with the default `cli` feature; without it
//! (`default-features = false`, as the Python module in `python/` builds the library) the
//! library needs none of them, and `plot` is there only with the `plot` feature.
//!
//! ```
//! use sudoku_batch::{Grid, engines::solver::{solve_with_limit, Status}};
//! let puzzle: Grid = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
//!     .parse().unwrap();
//! let outcome = solve_with_limit(&puzzle, 2);
//! assert_eq!(outcome.status, Status::Solved);
//! assert!(outcome.solution.unwrap().is_solution_of(&puzzle));
//! ```
#![deny(missing_docs)]

pub mod distribution;
pub mod engines;
pub mod error;
pub mod grid;
pub mod io;
pub mod jobs;
pub mod limits;
pub mod pipeline;
pub mod position;
pub mod stats;
pub mod symmetry;

pub use error::{GridError, InputError, RecordError};
pub use grid::{Conflict, Grid, Unit};
pub use position::Position;
