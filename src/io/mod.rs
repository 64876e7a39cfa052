//! Reading puzzles from files and stdin, and writing results.

pub mod reader;
pub mod writer;

pub use reader::{load_puzzles, Column, Input, InputFormat, ReaderOptions, Record, RecordReader};
pub use writer::{OutputFormat, RecordStatus, ResultWriter, SolvedRecord};
