//! Reading puzzles from files and stdin (every format, compressed or not), and the writing
//! functions the report formats share.

mod line_ends;
pub mod passthrough;
pub mod reader;
mod source;
pub mod write;

pub use reader::{
    load_puzzles, Column, Input, InputFormat, RawBatch, ReaderOptions, Record, RecordReader,
    RecordText,
};
pub use write::OutputFormat;
