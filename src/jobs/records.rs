//! The record writer `solve` and `rate` share: one output record per input record, in the
//! order given, in the job's line, csv or jsonl form ([`RecordFormat`]), with the input's
//! passthrough columns ([`RecordFields`]) and a csv header that is written even for an empty
//! input. Line records are gathered and written in 64 KiB pieces.

use std::io::{self, Write};

use crate::io::passthrough::{Columns, ColumnsDiffer, RecordFields};
use crate::io::write::OutputFormat;
use crate::pipeline::{BoundedRender, RecordBytes, Render, Sink, UnboundedRender};

/// What a job writes of each of its records, in every format.
pub trait RecordFormat: Clone + Sync {
    /// The job's output record.
    type Record;
    /// The CSV header line when the input's columns are not passed through.
    const CSV_HEADER: &'static [u8];
    /// The most bytes of one line record, its line break included.
    const LINE_MAX: usize;

    /// The output format.
    fn format(&self) -> OutputFormat;
    /// The passthrough columns and the current input's name.
    fn fields(&mut self) -> &mut RecordFields;
    /// Write `r` as a csv record to `out`.
    fn write_csv(&self, out: &mut impl Write, r: &Self::Record) -> io::Result<()>;
    /// Write `r` as jsonl, one object or more, to `out`.
    fn write_jsonl(&self, out: &mut impl Write, r: &Self::Record) -> io::Result<()>;
    /// One line record at the start of `out` (at least [`LINE_MAX`](Self::LINE_MAX) bytes);
    /// returns its length.
    fn line(r: &Self::Record, out: &mut [u8]) -> usize;

    /// Write `r` as a csv or jsonl record to `out`.
    fn write(&self, out: &mut impl Write, r: &Self::Record) -> io::Result<()> {
        match self.format() {
            OutputFormat::Csv => self.write_csv(out, r),
            OutputFormat::Jsonl => self.write_jsonl(out, r),
            OutputFormat::Line => unreachable!("line records are written by the line form"),
        }
    }

    /// Line records rendered on the workers ([`Render`]): the bytes the writer writes for
    /// `--format line`, so its writer thread only writes them.
    fn line_render() -> impl Render<Self::Record> {
        BoundedRender::new(Self::LINE_MAX, Self::line)
    }
}

/// Bytes of line records gathered before they are written.
const LINES_BUFFER: usize = 1 << 16;

/// Writes a job's records in one format.
pub struct RecordWriter<W: Write, F: RecordFormat> {
    out: W,
    header: bool,
    fmt: F,
    /// Line records not yet handed to `out`: formatted here in place (one copy of each byte
    /// on the way, not two).
    lines: Vec<u8>,
}

impl<W: Write, F: RecordFormat> RecordWriter<W, F> {
    /// A writer of records in `fmt`; `header` asks for the CSV header line before the first
    /// record.
    pub fn new(out: W, fmt: F, header: bool) -> RecordWriter<W, F> {
        RecordWriter {
            out,
            header: header && fmt.format() == OutputFormat::Csv,
            fmt,
            lines: Vec::new(),
        }
    }

    /// The same writer with `columns` in its csv and jsonl records.
    pub fn with_columns(mut self, columns: Columns) -> RecordWriter<W, F> {
        self.fmt.fields().set_columns(columns);
        self
    }

    /// The input whose records come next: its name, and its CSV header (`None`: a line file,
    /// whose line is one `input` column). With passthrough, every input must have the first
    /// one's columns.
    pub fn set_input(
        &mut self,
        file: &str,
        headers: Option<&csv::ByteRecord>,
    ) -> Result<(), ColumnsDiffer> {
        self.fmt.fields().set_input(file, headers)
    }

    /// The workers' [`Render`] of this writer's csv and jsonl records for the current input,
    /// formatted as [`write`](Self::write) formats them (`None` for line records:
    /// [`RecordFormat::line_render`]). Their length has no bound (they carry the input's
    /// text), so each block's go to a vector of their own.
    pub fn renderer(&self) -> Option<UnboundedRender<F>> {
        (self.fmt.format() != OutputFormat::Line).then(|| UnboundedRender(self.fmt.clone()))
    }

    /// Write the CSV header now if it is due (so an empty input still gets one).
    pub fn start(&mut self) -> io::Result<()> {
        if !std::mem::take(&mut self.header) {
            return Ok(());
        }
        let Self { out, fmt, .. } = self;
        fmt.fields().write_csv_header(out, F::CSV_HEADER)
    }

    /// Write one record.
    pub fn write(&mut self, r: &F::Record) -> io::Result<()> {
        if self.header {
            self.start()?;
        }
        match self.fmt.format() {
            OutputFormat::Line => self.write_line(r),
            _ => self.fmt.write(&mut self.out, r),
        }
    }

    fn write_line(&mut self, r: &F::Record) -> io::Result<()> {
        if self.lines.capacity() == 0 {
            self.lines.reserve_exact(LINES_BUFFER + F::LINE_MAX);
        }
        let at = self.lines.len();
        self.lines.resize(at + F::LINE_MAX, 0);
        let len = F::line(r, &mut self.lines[at..]);
        self.lines.truncate(at + len);
        if self.lines.len() >= LINES_BUFFER {
            self.write_lines()?;
        }
        Ok(())
    }

    /// Hand the gathered line records to `out`.
    fn write_lines(&mut self) -> io::Result<()> {
        if !self.lines.is_empty() {
            self.out.write_all(&self.lines)?;
            self.lines.clear();
        }
        Ok(())
    }

    /// Flush the underlying writer (with the line records gathered so far).
    pub fn flush(&mut self) -> io::Result<()> {
        self.write_lines()?;
        self.out.flush()
    }

    /// The underlying writer, the line records gathered so far written to it.
    pub fn into_inner(mut self) -> io::Result<W> {
        self.write_lines()?;
        Ok(self.out)
    }
}

impl<W: Write, F: RecordFormat> Sink<F::Record> for RecordWriter<W, F> {
    fn start(&mut self) -> io::Result<()> {
        RecordWriter::start(self)
    }
    fn write(&mut self, item: &F::Record) -> io::Result<()> {
        RecordWriter::write(self, item)
    }
    fn flush(&mut self) -> io::Result<()> {
        RecordWriter::flush(self)
    }
    fn write_rendered(&mut self, bytes: &[u8]) -> io::Result<()> {
        if self.header {
            self.start()?;
        }
        self.write_lines()?;
        self.out.write_all(bytes)
    }
}

/// Every format's csv and jsonl records render on the workers.
impl<F: RecordFormat> RecordBytes<F::Record> for F {
    fn append(&self, item: &F::Record, out: &mut Vec<u8>) {
        self.write(out, item)
            .expect("writing to a vector does not fail");
    }
}
