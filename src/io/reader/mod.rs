//! Streaming puzzle readers: line files, CSV with a header, 9-line blocks and LeetCode boards.
//!
//! Every record keeps its 1-based input line number. A record whose puzzle cannot be parsed is
//! still a record (its `puzzle` is an `Err`), so every input record yields one output record.
//! Only I/O failures and file-level problems (a CSV with no puzzle column) stop the reader.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use crate::error::{InputError, RecordError};
use crate::grid::{block_row, cell_value, is_block_separator, Grid, CELLS};
use crate::io::line_ends::CsvLineEnds;
use crate::io::source::{decode, open_source, Compression, Counting, Source, BUFFER};
use crate::limits::BATCH_BYTES;
use crate::position::{Position, POSITION_LEN};

mod arrival;
mod block;
mod board;
mod csv;
mod csv_rows;
mod detect;
mod lines;
mod raw;
mod shard;

use self::csv::CsvReader;
use block::next_block;
use board::read_board;
use detect::detect;
use lines::{is_blank_or_comment, parse_line, too_long, LineReader};
use shard::open_shard;

pub use raw::RawBatch;
pub(crate) use raw::{Parsed, RawItem};

/// How to read an input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum InputFormat {
    /// Decide from the first data line (the default).
    #[default]
    Auto,
    /// One puzzle per line: the first field of 81 cells, fields split on `,` `;` tab or space.
    Lines,
    /// CSV with a header row; the puzzle column is found by name.
    Csv,
    /// 9-line blocks (9 rows of 9 cells), one puzzle after another.
    Block,
    /// One LeetCode board (`[["5","3",...],...]`) for the whole input.
    Board,
}

/// Which CSV column holds the puzzles (`--column`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Column {
    /// A header name, matched without regard to case or surrounding spaces.
    Name(String),
    /// A 0-based column index.
    Index(usize),
}

/// Reader settings.
#[derive(Clone, Debug, Default)]
pub struct ReaderOptions {
    /// The input format (auto-detected by default).
    pub format: InputFormat,
    /// The puzzle column of a CSV input (found by name when `None`).
    pub column: Option<Column>,
    /// Read only shard `k` of `n` (1-based): the k-th of n contiguous byte ranges of a plain
    /// file, aligned to line starts, so that the shards together hold every line once.
    pub shard: Option<(u64, u64)>,
    /// Keep each record's text as read ([`Record::text`]): for output that joins back to
    /// the input. Off by default: it costs an allocation or two per record.
    pub keep_text: bool,
    /// Leave out the solutions listed with the puzzles (a CSV solution column, a line's
    /// second grid): [`Record::solution`] is `None`. For commands that do not use them
    /// (`solve`), which then neither copy nor parse them.
    pub skip_solutions: bool,
}

/// Where puzzles come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// Standard input.
    Stdin,
    /// A file; gzip, zstd, xz, bzip2 and single-file zip content (recognised by its first
    /// bytes) is decompressed on the fly.
    Path(PathBuf),
}

impl Input {
    /// `-` means standard input, anything else a path.
    pub fn from_arg(arg: &str) -> Input {
        if arg == "-" {
            Input::Stdin
        } else {
            Input::Path(PathBuf::from(arg))
        }
    }

    /// The name used in messages: the path, or `<stdin>`.
    pub fn label(&self) -> String {
        match self {
            Input::Stdin => "<stdin>".to_string(),
            Input::Path(p) => p.display().to_string(),
        }
    }

    /// Check that the input can be opened, before any work starts (a typo in the last of
    /// several paths should not cost a long run).
    pub fn check(&self) -> Result<(), InputError> {
        match self {
            Input::Stdin => Ok(()),
            Input::Path(p) if p.is_dir() => Err(InputError::IsDirectory { path: self.label() }),
            Input::Path(p) => File::open(p).map(drop).map_err(|e| InputError::Open {
                path: self.label(),
                cause: e,
            }),
        }
    }

    /// The size in bytes of a regular file (the compressed size, for compressed files), for
    /// progress.
    pub fn size(&self) -> Option<u64> {
        match self {
            Input::Stdin => None,
            Input::Path(p) => std::fs::metadata(p)
                .ok()
                .filter(|m| m.is_file())
                .map(|m| m.len()),
        }
    }
}

/// One input record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// 1-based line number where the record starts.
    pub line: u64,
    /// The `id` column of a CSV input, when there is one.
    pub id: Option<String>,
    /// The puzzle, or why its text is not one: [`RecordError::Candidates`] when the record
    /// is a candidate grid, whose position is then in [`position`](Self::position).
    pub puzzle: Result<Grid, RecordError>,
    /// The candidate grid of a 729-character record (`None` for every other record): the
    /// commands that take positions (solve, rate, hint, shuffle) read it here; the others
    /// report the record with [`RecordError::Candidates`]. Boxed so that the common record
    /// stays small.
    pub position: Option<Box<Position>>,
    /// The published solution carried with the puzzle (CSV solution column, or the second
    /// 81-cell field of a line), when there is one.
    pub solution: Option<Result<Grid, RecordError>>,
    /// The record's text as read, when [`ReaderOptions::keep_text`] asked for it.
    pub text: RecordText,
}

impl Record {
    /// The record of line `line` that is `puzzle` alone (no id, no solution, no text).
    pub fn plain(line: u64, puzzle: Grid) -> Record {
        Record {
            position: None,
            line,
            id: None,
            puzzle: Ok(puzzle),
            solution: None,
            text: RecordText::default(),
        }
    }
}

/// A record's text as read (empty unless [`ReaderOptions::keep_text`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordText {
    /// The puzzle field as written (surrounding spaces and quotes removed): `0` or `.` for
    /// empty cells as the input had them; for a malformed record, the text that was not a
    /// puzzle. `None` for 9-line blocks and boards, whose text is not one field.
    pub puzzle: Option<Vec<u8>>,
    /// The whole record: a CSV row's fields (unquoted, byte for byte), or a line file's line
    /// as one field.
    pub fields: Option<::csv::ByteRecord>,
}

/// The puzzle and position of a record whose puzzle field has [`POSITION_LEN`] bytes: a
/// candidate grid, or why it is not one.
pub(super) fn candidate_field(field: &[u8]) -> (Result<Grid, RecordError>, Option<Box<Position>>) {
    match Position::from_bytes(field) {
        Ok(p) => (Err(RecordError::Candidates), Some(Box::new(p))),
        Err(e) => (Err(RecordError::Grid(e)), None),
    }
}

/// Names of the CSV columns that hold puzzles, solutions and ids, in order of preference.
const PUZZLE_NAMES: [&str; 4] = ["puzzle", "quizzes", "quiz", "question"];
const SOLUTION_NAMES: [&str; 3] = ["solution", "solutions", "answer"];
const ID_NAMES: [&str; 1] = ["id"];

/// A read error in input `label`; `last_line` is the line of the last record read completely.
pub(super) fn read_error(label: &str, cause: io::Error, last_line: u64) -> InputError {
    InputError::Read {
        path: label.to_string(),
        line: last_line,
        cause,
    }
}

/// What `src` has buffered, read when it has nothing (`fill_buf`, tried again when a signal
/// interrupts it).
pub(super) fn fill_buf(src: &mut (impl BufRead + ?Sized)) -> io::Result<&[u8]> {
    loop {
        match src.fill_buf() {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
            // Asked again to return it: the borrow checker cannot yet see that a borrow
            // returned from one pass of a loop does not outlive it. The data is buffered
            // now, so the second call only hands it out.
            Ok(_) => return src.fill_buf(),
        }
    }
}

/// How a line is parsed into a [`Record`]: what is kept besides the puzzle.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ParseOptions {
    /// Keep the text ([`ReaderOptions::keep_text`]).
    pub(crate) keep_text: bool,
    /// Parse a listed solution (not [`ReaderOptions::skip_solutions`]).
    pub(crate) solutions: bool,
}

/// A streaming reader of [`Record`]s from one input.
pub struct RecordReader {
    label: String,
    bytes: Arc<AtomicU64>,
    kind: Kind,
    /// A parallel file of solutions, one per record (`verify --solutions`).
    solutions: Option<Box<RecordReader>>,
    /// Added to every record's line number (the lines before a shard).
    line_offset: u64,
    /// Keep each record's text ([`ReaderOptions::keep_text`]).
    keep_text: bool,
    /// Read the solutions listed with the puzzles (not [`ReaderOptions::skip_solutions`]).
    listed_solutions: bool,
    /// Records returned so far.
    records: u64,
    /// The input has ended (or failed).
    ended: bool,
}

enum Kind {
    Lines(LineReader),
    Csv(Box<CsvReader>),
    Block(LineReader),
    Board(Option<Box<Record>>),
}

/// The longest line kept in memory ([`MAX_RECORD`](crate::limits::MAX_RECORD)); the rest of a
/// longer line is skipped (and counted), so a file with no line breaks cannot exhaust memory.
pub const MAX_LINE: usize = crate::limits::MAX_RECORD;

impl RecordReader {
    /// Open `input` for reading records.
    pub fn open(input: &Input, options: &ReaderOptions) -> Result<RecordReader, InputError> {
        let bytes = Arc::new(AtomicU64::new(0));
        if let Some((k, n)) = options.shard {
            return open_shard(input, k, n, bytes, options);
        }
        let src = open_source(input, bytes.clone())?;
        RecordReader::with_source(src, input.label(), bytes, options)
    }

    /// Read records from any buffered byte stream (`label` names it in messages), decompressed
    /// like stdin when its first bytes say it is compressed. Its batches are always full
    /// (reads from it may wait): only inputs opened with [`open`](Self::open) are known to
    /// be streams.
    pub fn from_reader(
        src: Box<dyn BufRead + Send>,
        label: &str,
        options: &ReaderOptions,
    ) -> Result<RecordReader, InputError> {
        let src = decode(Source::Buffered(src), label)?;
        RecordReader::with_source(src, label.to_string(), Arc::new(AtomicU64::new(0)), options)
    }

    fn with_source(
        mut src: Source,
        label: String,
        bytes: Arc<AtomicU64>,
        options: &ReaderOptions,
    ) -> Result<RecordReader, InputError> {
        let read_err = |e| InputError::Read {
            path: label.clone(),
            line: 0,
            cause: e,
        };
        let head = src.fill_buf().map_err(read_err)?;
        if head.starts_with(b"\xff\xfe") || head.starts_with(b"\xfe\xff") {
            return Err(InputError::Utf16 { path: label });
        }
        let (detected, delimiter) = detect(head);
        let format = match options.format {
            InputFormat::Auto => detected,
            f => f,
        };
        let lines = LineReader::new;
        let kind = match format {
            InputFormat::Auto | InputFormat::Lines => Kind::Lines(lines(src)),
            InputFormat::Block => Kind::Block(lines(src)),
            InputFormat::Csv => {
                if src
                    .fill_buf()
                    .map_err(read_err)?
                    .starts_with(b"\xef\xbb\xbf")
                {
                    src.consume(3);
                }
                Kind::Csv(Box::new(CsvReader::new(src, delimiter, options, &label)?))
            }
            InputFormat::Board => {
                Kind::Board(Some(Box::new(read_board(&mut src).map_err(read_err)?)))
            }
        };
        Ok(RecordReader {
            label,
            bytes,
            kind,
            solutions: None,
            line_offset: 0,
            keep_text: options.keep_text,
            listed_solutions: !options.skip_solutions,
            records: 0,
            ended: false,
        })
    }

    /// The header row of a CSV input (`None` for other formats).
    pub fn csv_headers(&self) -> Option<&::csv::ByteRecord> {
        match &self.kind {
            Kind::Csv(r) => Some(&r.headers),
            _ => None,
        }
    }

    /// The input's name in messages.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// A counter of the raw bytes read so far (compressed bytes for compressed files).
    pub fn bytes_read(&self) -> Arc<AtomicU64> {
        self.bytes.clone()
    }

    /// Take each record's solution from `solutions` instead: its records, in the same order.
    /// The two must hold as many records: a difference is an error naming both counts.
    pub fn attach_solutions(&mut self, solutions: RecordReader) {
        self.solutions = Some(Box::new(solutions));
    }

    /// True when the input lists solutions: a CSV solution column, or an attached solutions
    /// file. (A line file may list one per line, or not: it does not count.)
    pub fn has_solutions(&self) -> bool {
        self.solutions.is_some() || matches!(&self.kind, Kind::Csv(r) if r.solution.is_some())
    }

    /// The next record, or `None` at the end of the input.
    pub fn next_record(&mut self) -> Result<Option<Record>, InputError> {
        let mut record = self.next_own()?;
        if let Some(r) = &mut record {
            r.line += self.line_offset;
            self.records += 1;
        }
        let Some(solutions) = &mut self.solutions else {
            return Ok(record);
        };
        let solution = solutions.next_record()?;
        match (&mut record, solution) {
            (Some(r), Some(s)) => r.solution = Some(s.puzzle),
            (None, None) => {}
            (Some(_), None) => {
                let listed = self.records - 1;
                let mut records = self.records;
                while self.next_own()?.is_some() {
                    records += 1;
                }
                return Err(self.count_error(records, listed));
            }
            (None, Some(_)) => {
                let solutions = self.solutions.as_mut().expect("attached");
                let mut listed = self.records + 1;
                while solutions.next_record()?.is_some() {
                    listed += 1;
                }
                return Err(self.count_error(self.records, listed));
            }
        }
        Ok(record)
    }

    fn count_error(&self, records: u64, listed: u64) -> InputError {
        InputError::SolutionCount {
            path: self.label.clone(),
            records,
            solutions: self
                .solutions
                .as_ref()
                .map_or(String::new(), |s| s.label.clone()),
            listed,
        }
    }

    fn next_own(&mut self) -> Result<Option<Record>, InputError> {
        let label = &self.label;
        let options = self.parse_options();
        match &mut self.kind {
            Kind::Lines(r) => loop {
                let Some(line) = r.next_line(label)? else {
                    return Ok(None);
                };
                if line.len > MAX_LINE as u64 {
                    return Ok(Some(too_long(&line)));
                }
                if !is_blank_or_comment(line.text) {
                    return Ok(Some(parse_line(line.text, line.number, options)));
                }
            },
            Kind::Csv(r) => r.next(label),
            Kind::Block(r) => next_block(r, label),
            Kind::Board(b) => Ok(b.take().map(|r| *r)),
        }
    }

    /// Append `max` records to `out` (fewer at the end of the input; a block of lines may take
    /// it a little past `max`; fewer once it holds [`BATCH_BYTES`] of text, so that records
    /// near [`MAX_LINE`] do not fill memory), unparsed where the format allows (see
    /// [`RawBatch`]); returns how many were added (0 at the end, and only there: see
    /// [`ended`](Self::ended)).
    ///
    /// From a stream, fewer too when the next record has not arrived whole: the batch then
    /// ends rather than wait for the producer, so that the records in it are worked on at
    /// once. Only a batch's first record is waited for.
    pub fn read_raw_batch(&mut self, out: &mut RawBatch, max: usize) -> Result<usize, InputError> {
        out.set_options(self.parse_options());
        let start = out.len();
        // Whether records can go unparsed is a property of the input: decided once a batch.
        let raw = self.solutions.is_none() && matches!(&self.kind, Kind::Lines(_) | Kind::Csv(_));
        while out.len() - start < max {
            if out.len() > start && (out.held() >= BATCH_BYTES || self.would_wait()) {
                break;
            }
            // Lines that are no records (blank, comments) do not end a batch: past the
            // limit they are dropped, so a file of them cannot fill memory.
            if !out.has_records() && out.held() >= BATCH_BYTES {
                out.drop_blank();
            }
            if raw {
                let budget = max - (out.len() - start);
                let (label, offset) = (&self.label, self.line_offset);
                let block = match &mut self.kind {
                    Kind::Lines(r) => r.buffered_lines(label, offset, out, budget)?,
                    Kind::Csv(r) => r.next_block(label, offset, out, budget)?,
                    _ => None,
                };
                if let Some(n) = block {
                    self.records += n as u64;
                    continue;
                }
            }
            let more = if raw {
                self.next_raw(out)?
            } else {
                self.next_record()?.map(|r| out.push_record(r)).is_some()
            };
            if !more {
                self.ended = true;
                break;
            }
        }
        Ok(out.len() - start)
    }

    /// Whether the input has ended: a read of records returned fewer than asked because
    /// there are no more (not because no more had arrived yet).
    pub fn ended(&self) -> bool {
        self.ended
    }

    /// Whether reading the next record would wait for a stream's producer: it has not
    /// arrived whole (see [`arrival`]), or its solution (`verify --solutions` from a
    /// stream) has not. Never for files.
    fn would_wait(&mut self) -> bool {
        let arrived = match &mut self.kind {
            Kind::Lines(r) => r.next_arrived(arrival::line_step),
            Kind::Block(r) => r.next_arrived(arrival::block_step()),
            Kind::Csv(r) => r.rows.next_arrived(),
            Kind::Board(_) => None,
        };
        arrived == Some(false) || self.solutions.as_mut().is_some_and(|s| s.would_wait())
    }

    /// How the records' text is parsed.
    fn parse_options(&self) -> ParseOptions {
        ParseOptions {
            keep_text: self.keep_text,
            solutions: self.listed_solutions,
        }
    }

    /// One line or CSV row into `out`, unparsed; false at the end of the input.
    fn next_raw(&mut self, out: &mut RawBatch) -> Result<bool, InputError> {
        let (label, offset) = (&self.label, self.line_offset);
        let more = match &mut self.kind {
            Kind::Lines(r) => next_raw_line(r, label, offset, out)?,
            Kind::Csv(r) => r.next_raw(label, offset, out)?,
            _ => unreachable!("only lines and csv are read raw"),
        };
        self.records += u64::from(more);
        Ok(more)
    }
}

/// The next line of a line file into `out` (skipping blank and comment lines; a line too long
/// to be a record goes as a malformed record); false at the end.
fn next_raw_line(
    r: &mut LineReader,
    label: &str,
    offset: u64,
    out: &mut RawBatch,
) -> Result<bool, InputError> {
    loop {
        let taken = r.buffered_line(label, |number, text| {
            let record = !is_blank_or_comment(text);
            if record {
                out.push_line(number + offset, text);
            }
            record
        })?;
        match taken {
            Some(true) => return Ok(true),
            Some(false) => continue,
            None => {}
        }
        let Some(line) = r.next_line(label)? else {
            return Ok(false);
        };
        if line.len > MAX_LINE as u64 {
            let mut record = too_long(&line);
            record.line += offset;
            out.push_record(record);
            return Ok(true);
        }
        if !is_blank_or_comment(line.text) {
            out.push_line(line.number + offset, line.text);
            return Ok(true);
        }
    }
}

impl Iterator for RecordReader {
    type Item = Result<Record, InputError>;
    fn next(&mut self) -> Option<Self::Item> {
        self.next_record().transpose()
    }
}

/// Read every puzzle of a file (for benchmarks, which preload their input). Returns the
/// puzzles and the number of records that were not puzzles.
pub fn load_puzzles(
    path: &Path,
    options: &ReaderOptions,
) -> Result<(Vec<Grid>, usize), InputError> {
    let mut puzzles = Vec::new();
    let mut malformed = 0;
    for record in RecordReader::open(&Input::Path(path.to_path_buf()), options)? {
        match record?.puzzle {
            Ok(g) => puzzles.push(g),
            Err(_) => malformed += 1,
        }
    }
    Ok((puzzles, malformed))
}
