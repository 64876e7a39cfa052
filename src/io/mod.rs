//! Reading puzzles from files and stdin, and writing results.

pub mod canon;
mod line_ends;
pub mod reader;
pub mod report;
mod source;
pub mod writer;

pub use reader::{
    load_puzzles, Column, Input, InputFormat, ReaderOptions, Record, RecordReader, RecordText,
};
pub use writer::{OutputFormat, RecordStatus, ResultWriter, SolvedRecord};

/// Where results go, in input order (the pipeline calls it on its writer thread).
pub trait Sink<T> {
    /// Called once before the first result (headers).
    fn start(&mut self) -> std::io::Result<()>;
    /// One result.
    fn write(&mut self, item: &T) -> std::io::Result<()>;
    /// Called once after the last result.
    fn flush(&mut self) -> std::io::Result<()>;
}

impl<W: std::io::Write> Sink<SolvedRecord> for ResultWriter<W> {
    fn start(&mut self) -> std::io::Result<()> {
        ResultWriter::start(self)
    }
    fn write(&mut self, item: &SolvedRecord) -> std::io::Result<()> {
        ResultWriter::write(self, item)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        ResultWriter::flush(self)
    }
}
