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
use crate::grid::{cell_value, Grid, CELLS};
use crate::io::line_ends::CsvLineEnds;
use crate::io::source::{decode, open_source, Compression, Counting, Source, BUFFER};

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
    /// The puzzle, or why its text is not one.
    pub puzzle: Result<Grid, RecordError>,
    /// The published solution carried with the puzzle (CSV solution column, or the second
    /// 81-cell field of a line), when there is one.
    pub solution: Option<Result<Grid, RecordError>>,
    /// The record's text as read, when [`ReaderOptions::keep_text`] asked for it.
    pub text: RecordText,
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
    pub fields: Option<csv::ByteRecord>,
}

/// Names of the CSV columns that hold puzzles, solutions and ids, in order of preference.
const PUZZLE_NAMES: [&str; 4] = ["puzzle", "quizzes", "quiz", "question"];
const SOLUTION_NAMES: [&str; 3] = ["solution", "solutions", "answer"];
const ID_NAMES: [&str; 1] = ["id"];

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
    /// Records returned so far.
    records: u64,
}

enum Kind {
    Lines(LineReader),
    Csv(CsvReader),
    Block(LineReader),
    Board(Option<Record>),
}

/// The longest line kept in memory; the rest of a longer line is skipped (and counted), so a
/// file with no line breaks cannot exhaust memory. No puzzle record comes near this.
pub const MAX_LINE: usize = 1 << 20;

/// Reads lines into one reused buffer, tracking line numbers, the BOM and line ends: `\n`,
/// `\r\n` and a lone `\r` (old Mac files) each end a line.
struct LineReader {
    src: Source,
    buf: Vec<u8>,
    line: u64,
    /// The last line ended in `\r`: a `\n` right after it is part of the same line break.
    after_cr: bool,
}

/// One line: its number, its text (at most [`MAX_LINE`] bytes) and its full length.
struct Line<'a> {
    number: u64,
    text: &'a [u8],
    len: u64,
}

impl LineReader {
    fn new(src: Source) -> LineReader {
        LineReader {
            src,
            buf: Vec::with_capacity(256),
            line: 0,
            after_cr: false,
        }
    }

    /// The next line without its line break and, on line 1, without a BOM.
    fn next_line(&mut self, label: &str) -> Result<Option<Line<'_>>, InputError> {
        self.buf.clear();
        let mut len = 0u64;
        let mut started = false;
        loop {
            let avail = match self.src.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    return Err(InputError::Read {
                        path: label.to_string(),
                        line: self.line,
                        cause: e,
                    })
                }
            };
            if avail.is_empty() {
                break;
            }
            if self.after_cr {
                self.after_cr = false;
                if avail[0] == b'\n' {
                    self.src.consume(1);
                    continue;
                }
            }
            started = true;
            let end = memchr::memchr2(b'\n', b'\r', avail);
            let take = end.unwrap_or(avail.len());
            let room = MAX_LINE.saturating_sub(self.buf.len());
            self.buf.extend_from_slice(&avail[..take.min(room)]);
            len += take as u64;
            if let Some(i) = end {
                self.after_cr = avail[i] == b'\r';
                self.src.consume(i + 1);
                break;
            }
            self.src.consume(take);
        }
        if !started {
            return Ok(None);
        }
        self.line += 1;
        let mut text = &self.buf[..];
        if self.line == 1 {
            if let Some(rest) = text.strip_prefix(b"\xef\xbb\xbf") {
                text = rest;
                len -= 3;
            }
        }
        Ok(Some(Line {
            number: self.line,
            text,
            len,
        }))
    }
}

fn is_blank_or_comment(line: &[u8]) -> bool {
    match line.iter().position(|b| !b.is_ascii_whitespace()) {
        None => true,
        Some(i) => line[i] == b'#',
    }
}

fn is_separator(b: u8) -> bool {
    matches!(b, b',' | b';' | b'\t' | b' ')
}

/// Fields of a line split on `,` `;` tab and space, with surrounding quotes removed.
fn fields(line: &[u8]) -> impl Iterator<Item = &[u8]> {
    line.split(|&b| is_separator(b))
        .filter(|f| !f.is_empty())
        .map(|f| match f {
            [b'"', inner @ .., b'"'] | [b'\'', inner @ .., b'\''] => inner,
            _ => f,
        })
}

fn is_cell_field(f: &[u8]) -> bool {
    f.len() == CELLS && f.iter().all(|&b| cell_value(b).is_some())
}

/// Parse one line of a line file: the first 81-cell field is the puzzle, a second one the
/// solution, and a field before the puzzle its id (the Sudoku Exchange `hash puzzle rating`
/// lines). A line with no such field is malformed, described by its longest field.
fn parse_line(line: &[u8], number: u64, keep_text: bool) -> Record {
    let mut cells = fields(line).enumerate().filter(|(_, f)| is_cell_field(f));
    let first = cells.next();
    let (puzzle, puzzle_text) = match first {
        Some((_, p)) => (Grid::from_line_bytes(p).map_err(RecordError::Grid), p),
        None => {
            let longest = fields(line).max_by_key(|f| f.len()).unwrap_or(line);
            let e = Grid::from_line_bytes(longest).expect_err("not an 81-cell field");
            (Err(RecordError::Grid(e)), longest)
        }
    };
    let solution = cells
        .next()
        .map(|(_, s)| Grid::from_line_bytes(s).map_err(RecordError::Grid));
    let id = match first {
        Some((i, _)) if i > 0 => fields(line)
            .next()
            .filter(|f| !f.is_empty())
            .map(|f| String::from_utf8_lossy(f).into_owned()),
        _ => None,
    };
    let text = if keep_text {
        let mut whole = csv::ByteRecord::new();
        whole.push_field(line);
        RecordText {
            puzzle: Some(puzzle_text.to_vec()),
            fields: Some(whole),
        }
    } else {
        RecordText::default()
    };
    Record {
        line: number,
        id,
        puzzle,
        solution,
        text,
    }
}

/// A line too long to be a record: malformed, without parsing it.
fn too_long(line: &Line<'_>) -> Record {
    Record {
        line: line.number,
        id: None,
        puzzle: Err(RecordError::TooLong { bytes: line.len }),
        solution: None,
        text: RecordText::default(),
    }
}

/// CSV input with a header: the puzzle, solution and id columns by index.
struct CsvReader {
    rdr: csv::Reader<CsvLineEnds<Source>>,
    row: csv::ByteRecord,
    puzzle: usize,
    puzzle_name: String,
    /// The line of the last record read (for read errors).
    last_line: u64,
    solution: Option<usize>,
    id: Option<usize>,
    /// Keep each row's text ([`ReaderOptions::keep_text`]).
    keep_text: bool,
    /// The header row, for output that repeats the input's columns.
    headers: csv::ByteRecord,
}

fn find_column(headers: &csv::ByteRecord, names: &[&str]) -> Option<usize> {
    names.iter().find_map(|want| {
        headers
            .iter()
            .position(|h| String::from_utf8_lossy(h).trim().eq_ignore_ascii_case(want))
    })
}

impl CsvReader {
    fn new(
        src: Source,
        delimiter: u8,
        options: &ReaderOptions,
        label: &str,
    ) -> Result<Self, InputError> {
        let column = options.column.as_ref();
        let mut rdr = csv::ReaderBuilder::new()
            .delimiter(delimiter)
            .flexible(true)
            .has_headers(true)
            .from_reader(CsvLineEnds::new(src, delimiter));
        let headers = rdr
            .byte_headers()
            .map_err(|e| csv_error(label, e, 0))?
            .clone();
        let header_names = || {
            headers
                .iter()
                .map(|h| String::from_utf8_lossy(h).into_owned())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let puzzle = match column {
            Some(Column::Index(i)) if *i < headers.len() => Some(*i),
            Some(Column::Index(_)) => None,
            Some(Column::Name(n)) => find_column(&headers, &[n.as_str()]),
            None => find_column(&headers, &PUZZLE_NAMES),
        };
        let Some(puzzle) = puzzle else {
            return Err(InputError::NoPuzzleColumn {
                path: label.to_string(),
                wanted: match column {
                    Some(Column::Name(n)) => format!("a column named {n:?}"),
                    Some(Column::Index(i)) => {
                        format!("a column {i} (the header has {})", headers.len())
                    }
                    None => format!("a column named {}", PUZZLE_NAMES.join(", ")),
                },
                found: header_names(),
            });
        };
        let puzzle_name = String::from_utf8_lossy(&headers[puzzle]).trim().to_string();
        Ok(CsvReader {
            solution: find_column(&headers, &SOLUTION_NAMES).filter(|&s| s != puzzle),
            id: find_column(&headers, &ID_NAMES).filter(|&s| s != puzzle),
            rdr,
            row: csv::ByteRecord::new(),
            puzzle,
            puzzle_name,
            last_line: 1,
            keep_text: options.keep_text,
            headers,
        })
    }

    fn next(&mut self, label: &str) -> Result<Option<Record>, InputError> {
        loop {
            if !self
                .rdr
                .read_byte_record(&mut self.row)
                .map_err(|e| csv_error(label, e, self.last_line))?
            {
                return Ok(None);
            }
            // Blank lines come back as one empty field; skip them like the line reader does.
            if self.row.len() == 1 && self.row[0].iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let line = self.row.position().map_or(0, |p| p.line());
            self.last_line = line;
            let field = |i: usize| self.row.get(i).map(|f| f.trim_ascii());
            let puzzle = match field(self.puzzle) {
                Some(f) => Grid::from_line_bytes(f).map_err(RecordError::Grid),
                None => Err(RecordError::MissingField {
                    column: self.puzzle_name.clone(),
                    fields: self.row.len(),
                }),
            };
            let solution = self
                .solution
                .and_then(field)
                .filter(|f| !f.is_empty())
                .map(|f| Grid::from_line_bytes(f).map_err(RecordError::Grid));
            let id = self
                .id
                .and_then(field)
                .map(|f| String::from_utf8_lossy(f).into_owned());
            let text = if self.keep_text {
                RecordText {
                    puzzle: Some(field(self.puzzle).unwrap_or_default().to_vec()),
                    fields: Some(self.row.clone()),
                }
            } else {
                RecordText::default()
            };
            return Ok(Some(Record {
                line,
                id,
                puzzle,
                solution,
                text,
            }));
        }
    }
}

/// A CSV reader error; `last_line` is the line of the last record read completely.
fn csv_error(label: &str, e: csv::Error, last_line: u64) -> InputError {
    let line = e.position().map_or(last_line, |p| p.line());
    let message = e.to_string();
    match e.into_kind() {
        csv::ErrorKind::Io(cause) => InputError::Read {
            path: label.to_string(),
            line: last_line,
            cause,
        },
        _ => InputError::Csv {
            path: label.to_string(),
            line,
            message,
        },
    }
}

/// Pick the CSV delimiter of a header line: the most frequent of `,` `;` tab (`,` if none).
fn csv_delimiter(header: &[u8]) -> u8 {
    [b',', b';', b'\t']
        .into_iter()
        .map(|d| (header.iter().filter(|&&b| b == d).count(), d))
        .max_by_key(|&(n, d)| (n, d == b','))
        .filter(|&(n, _)| n > 0)
        .map_or(b',', |(_, d)| d)
}

/// Decide the format from the first data line (BOM, blank and `#` lines skipped).
fn detect(head: &[u8]) -> (InputFormat, u8) {
    let head = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
    let first = head
        .split(|&b| b == b'\n' || b == b'\r')
        .find(|l| !is_blank_or_comment(l));
    let Some(first) = first else {
        return (InputFormat::Lines, b',');
    };
    let trimmed = first.trim_ascii();
    if trimmed.starts_with(b"[") {
        return (InputFormat::Board, b',');
    }
    if fields(first).any(is_cell_field) {
        return (InputFormat::Lines, b',');
    }
    let row_cells: Vec<u8> = trimmed
        .iter()
        .copied()
        .filter(|b| !matches!(b, b'|' | b'+') && !b.is_ascii_whitespace())
        .collect();
    if row_cells.len() == 9 && row_cells.iter().all(|&b| cell_value(b).is_some()) {
        return (InputFormat::Block, b',');
    }
    let delimiter = csv_delimiter(first);
    let names: Vec<String> = first
        .split(|&b| b == delimiter)
        .map(|f| {
            String::from_utf8_lossy(f)
                .trim()
                .trim_matches('"')
                .to_ascii_lowercase()
        })
        .collect();
    let known = PUZZLE_NAMES.iter().chain(&SOLUTION_NAMES).chain(&ID_NAMES);
    if known.clone().any(|k| names.iter().any(|n| n == k)) {
        return (InputFormat::Csv, delimiter);
    }
    (InputFormat::Lines, b',')
}

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
    /// like stdin when its first bytes say it is compressed.
    pub fn from_reader(
        src: Box<dyn BufRead + Send>,
        label: &str,
        options: &ReaderOptions,
    ) -> Result<RecordReader, InputError> {
        let src = decode(src, label)?;
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
                Kind::Csv(CsvReader::new(src, delimiter, options, &label)?)
            }
            InputFormat::Board => {
                let mut text = String::new();
                let mut bytes_in = Vec::new();
                src.read_to_end(&mut bytes_in).map_err(read_err)?;
                text.push_str(&String::from_utf8_lossy(&bytes_in));
                let line = text
                    .lines()
                    .position(|l| !l.trim().is_empty())
                    .map_or(1, |i| i as u64 + 1);
                let puzzle = Grid::from_leetcode(text.trim_start_matches('\u{feff}'))
                    .map_err(RecordError::Grid);
                Kind::Board(Some(Record {
                    line,
                    id: None,
                    puzzle,
                    solution: None,
                    text: RecordText::default(),
                }))
            }
        };
        Ok(RecordReader {
            label,
            bytes,
            kind,
            solutions: None,
            line_offset: 0,
            keep_text: options.keep_text,
            records: 0,
        })
    }

    /// The header row of a CSV input (`None` for other formats).
    pub fn csv_headers(&self) -> Option<&csv::ByteRecord> {
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
        match &mut self.kind {
            Kind::Lines(r) => loop {
                let Some(line) = r.next_line(label)? else {
                    return Ok(None);
                };
                if line.len > MAX_LINE as u64 {
                    return Ok(Some(too_long(&line)));
                }
                if !is_blank_or_comment(line.text) {
                    return Ok(Some(parse_line(line.text, line.number, self.keep_text)));
                }
            },
            Kind::Csv(r) => r.next(label),
            Kind::Block(r) => next_block(r, label),
            Kind::Board(b) => Ok(b.take()),
        }
    }

    /// Append up to `max` records to `out`; returns how many were added (0 at the end).
    pub fn read_batch(&mut self, out: &mut Vec<Record>, max: usize) -> Result<usize, InputError> {
        let start = out.len();
        while out.len() - start < max {
            match self.next_record()? {
                Some(r) => out.push(r),
                None => break,
            }
        }
        Ok(out.len() - start)
    }
}

impl Iterator for RecordReader {
    type Item = Result<Record, InputError>;
    fn next(&mut self) -> Option<Self::Item> {
        self.next_record().transpose()
    }
}

/// The next 9-row block: rows are lines with 9 cells (`|`, `+` and spaces ignored); separator,
/// blank and comment lines between rows are skipped. A row that is not 9 cells ends the block
/// as a malformed record at that line.
fn next_block(r: &mut LineReader, label: &str) -> Result<Option<Record>, InputError> {
    let mut cells = [0u8; CELLS];
    let mut rows = 0usize;
    let mut start = 0u64;
    loop {
        let Some(Line {
            number,
            text: line,
            len,
        }) = r.next_line(label)?
        else {
            if rows == 0 {
                return Ok(None);
            }
            let err = GridBlockError::Rows(rows);
            return Ok(Some(block_error(start, err)));
        };
        if len > MAX_LINE as u64 {
            if rows == 0 {
                start = number;
            }
            return Ok(Some(Record {
                line: start,
                ..too_long(&Line {
                    number,
                    text: line,
                    len,
                })
            }));
        }
        if is_blank_or_comment(line) || line.iter().all(|b| b"-+|=* \t".contains(b)) {
            continue;
        }
        if rows == 0 {
            start = number;
        }
        let row: Vec<u8> = line
            .iter()
            .copied()
            .filter(|b| !matches!(b, b'|' | b'+') && !b.is_ascii_whitespace())
            .collect();
        if row.len() != 9 || !row.iter().all(|&b| cell_value(b).is_some()) {
            return Ok(Some(block_error(
                start,
                GridBlockError::Row(number - start + 1, row.len()),
            )));
        }
        for (c, &b) in row.iter().enumerate() {
            cells[rows * 9 + c] = cell_value(b).unwrap_or(0);
        }
        rows += 1;
        if rows == 9 {
            let grid = Grid::from_cells(cells).expect("cells are 0..=9");
            return Ok(Some(Record {
                line: start,
                id: None,
                puzzle: Ok(grid),
                solution: None,
                text: RecordText::default(),
            }));
        }
    }
}

enum GridBlockError {
    Rows(usize),
    Row(u64, usize),
}

fn block_error(line: u64, e: GridBlockError) -> Record {
    let message = match e {
        GridBlockError::Rows(n) => format!("{n} rows at the end of the input, expected 9"),
        GridBlockError::Row(at, n) => {
            format!("line {at} of the block is not a row of 9 cells ({n} characters)")
        }
    };
    Record {
        line,
        id: None,
        puzzle: Err(RecordError::Grid(crate::error::GridError::Block {
            line: 0,
            message,
        })),
        solution: None,
        text: RecordText::default(),
    }
}

/// The first line start at or after byte `at` of `file` (0 stays 0; the file length when none).
fn line_start_at(file: &mut File, at: u64, len: u64) -> io::Result<u64> {
    if at == 0 || at >= len {
        return Ok(at.min(len));
    }
    file.seek(SeekFrom::Start(at - 1))?;
    let mut r = BufReader::new(file.take(len - (at - 1)));
    let mut skipped = Vec::new();
    let n = r.read_until(b'\n', &mut skipped)?;
    Ok(at - 1 + n as u64)
}

/// Count the line breaks in the first `end` bytes of `file`.
fn lines_before(file: &mut File, end: u64) -> io::Result<u64> {
    file.seek(SeekFrom::Start(0))?;
    let mut r = BufReader::with_capacity(BUFFER, file.take(end));
    let mut count = 0u64;
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            return Ok(count);
        }
        count += buf.iter().filter(|&&b| b == b'\n').count() as u64;
        let n = buf.len();
        r.consume(n);
    }
}

/// Open shard `k` of `n` of a plain file (see [`ReaderOptions::shard`]). A CSV shard other
/// than the first reads the header line first, so columns are found the same way.
fn open_shard(
    input: &Input,
    k: u64,
    n: u64,
    bytes: Arc<AtomicU64>,
    options: &ReaderOptions,
) -> Result<RecordReader, InputError> {
    let label = input.label();
    let Input::Path(path) = input else {
        return Err(InputError::Shard {
            path: label,
            message: "needs a file, not stdin".into(),
        });
    };
    if !(1..=n).contains(&k) {
        return Err(InputError::Shard {
            path: label,
            message: format!("shard {k}/{n}: K must be 1 to N"),
        });
    }
    let io_err = |e| InputError::Read {
        path: label.clone(),
        line: 0,
        cause: e,
    };
    let mut file = File::open(path).map_err(|e| InputError::Open {
        path: label.clone(),
        cause: e,
    })?;
    let len = file.metadata().map_err(io_err)?.len();
    let mut head = vec![0u8; len.min(BUFFER as u64) as usize];
    file.read_exact(&mut head).map_err(io_err)?;
    if Compression::detect(&head).is_some() {
        return Err(InputError::Shard {
            path: label,
            message: "cannot shard a compressed file".into(),
        });
    }
    let (format, _) = detect(&head);
    let is_csv = options.format == InputFormat::Csv
        || (options.format == InputFormat::Auto && format == InputFormat::Csv);
    let start = line_start_at(&mut file, len * (k - 1) / n, len).map_err(io_err)?;
    let end = line_start_at(&mut file, len * k / n, len).map_err(io_err)?;
    let before = lines_before(&mut file, start).map_err(io_err)?;
    file.seek(SeekFrom::Start(start)).map_err(io_err)?;
    let body = Counting {
        inner: file.take(end - start),
        count: bytes.clone(),
    };
    let (src, offset): (Box<dyn Read + Send>, u64) = if is_csv && start > 0 {
        let header_end = head
            .iter()
            .position(|&b| b == b'\n')
            .map_or(head.len(), |i| i + 1);
        let header = head[..header_end].to_vec();
        (Box::new(io::Cursor::new(header).chain(body)), before - 1)
    } else {
        (Box::new(body), before)
    };
    let options = ReaderOptions {
        format: if is_csv {
            InputFormat::Csv
        } else {
            options.format
        },
        ..options.clone()
    };
    let mut reader = RecordReader::with_source(
        Box::new(BufReader::with_capacity(BUFFER, src)),
        label,
        bytes,
        &options,
    )?;
    reader.line_offset = offset;
    Ok(reader)
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
