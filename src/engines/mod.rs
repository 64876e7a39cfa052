//! The engines: what is done to one puzzle, with no I/O and no threads of their own. Each
//! keeps its scratch in a value the caller reuses, so nothing is allocated per puzzle.

pub mod canonical;
pub mod rater;
pub mod solver;
