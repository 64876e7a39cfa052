//! CSV with a header: the puzzle, solution and id columns found by name or index, the
//! delimiter picked from the header line.

use super::csv_rows::{too_many_fields, RowAt, RowReader};
use super::raw::{RawBatch, RawItem};
use super::*;

/// How the rows of a CSV input are split into records (shared with the workers, which split
/// quote-free rows themselves).
#[derive(Debug)]
pub(crate) struct CsvLayout {
    pub(super) delimiter: u8,
    pub(super) puzzle: usize,
    pub(super) puzzle_name: String,
    pub(super) solution: Option<usize>,
    pub(super) id: Option<usize>,
}

/// A row that is no record: empty, or one field of blanks (skipped like a blank line).
pub(super) fn blank_row(row: &[u8], delimiter: u8) -> bool {
    row.iter().all(u8::is_ascii_whitespace) && !row.contains(&delimiter)
}

impl CsvLayout {
    /// The puzzle of the common row, whose record is that puzzle alone: only its first field
    /// is wanted, and it is 81 cells (which holds no delimiter and no blank, so it is the
    /// whole field, trimmed). `None` for other rows.
    #[inline]
    pub(super) fn plain_puzzle(&self, row: &[u8]) -> Option<Grid> {
        if self.puzzle != 0 || self.solution.is_some() || self.id.is_some() {
            return None;
        }
        match row.get(..=CELLS)?.split_last()? {
            (&d, cells) if d == self.delimiter => Grid::from_cell_bytes(cells.try_into().ok()?),
            _ => None,
        }
    }

    /// The record of a quote-free `row` (without its `\n`) on `line`: what
    /// [`CsvReader::next`] gives for it, with its text when `keep_text` (the row's fields as
    /// split, for passthrough). `None` for a [`blank_row`]. (The workers take the common row
    /// through [`plain_puzzle`](Self::plain_puzzle) first.)
    #[inline]
    pub(super) fn record(&self, line: u64, row: &[u8], keep_text: bool) -> Option<Record> {
        if blank_row(row, self.delimiter) {
            return None;
        }
        if let Some(over) = too_many_fields(row, self.delimiter) {
            return Some(over_limit(line, over));
        }
        let ((puzzle, solution, id), count, fields) = self.split_row(row, keep_text);
        let text = |puzzle: &[u8]| match fields {
            Some(fields) => RecordText {
                puzzle: Some(puzzle.to_vec()),
                fields: Some(fields),
            },
            None => RecordText::default(),
        };
        let solution = solution.filter(|f| !f.is_empty());
        // Without a puzzle field, every field was looked at: `count` is their number.
        let Some(puzzle) = puzzle else {
            return Some(Record {
                position: None,
                line,
                id: id.map(|f| String::from_utf8_lossy(f).into_owned()),
                puzzle: Err(RecordError::MissingField {
                    column: self.puzzle_name.clone(),
                    fields: count,
                }),
                solution: solution.map(parse_field),
                text: text(b""),
            });
        };
        Some(Record {
            text: text(puzzle),
            ..csv_record(line, puzzle, solution, id)
        })
    }

    /// The puzzle, solution and id fields of a quote-free `row` (trimmed), the number of
    /// fields looked at (all of them when the puzzle's is missing), and with `keep_text` every
    /// field as split.
    #[inline]
    fn split_row<'a>(
        &self,
        row: &'a [u8],
        keep_text: bool,
    ) -> (RowFields<'a>, usize, Option<::csv::ByteRecord>) {
        let last = [Some(self.puzzle), self.solution, self.id]
            .into_iter()
            .flatten()
            .max()
            .unwrap_or(0);
        let (mut puzzle, mut solution, mut id) = (None, None, None);
        // With the text kept, every field is split (a quote-free row's fields are its text
        // between delimiters, as the row reader splits it).
        let mut fields = keep_text.then(|| ::csv::ByteRecord::with_capacity(row.len(), last + 1));
        let ends = memchr::memchr_iter(self.delimiter, row).chain([row.len()]);
        let (mut index, mut start) = (0, 0);
        for end in ends {
            if let Some(fields) = fields.as_mut() {
                fields.push_field(&row[start..end]);
            }
            let field = Some(row[start..end].trim_ascii());
            if index == self.puzzle {
                puzzle = field;
            } else if Some(index) == self.solution {
                solution = field;
            } else if Some(index) == self.id {
                id = field;
            }
            index += 1;
            start = end + 1;
            if index > last && fields.is_none() {
                break;
            }
        }
        ((puzzle, solution, id), index, fields)
    }
}

/// Header names a message shows.
const SHOWN_NAMES: usize = 20;

/// CSV input with a header: the puzzle, solution and id columns by index.
pub(super) struct CsvReader {
    pub(super) rows: RowReader<CsvLineEnds<Source>>,
    pub(super) row: ::csv::ByteRecord,
    pub(super) puzzle: usize,
    pub(super) puzzle_name: String,
    /// The line of the last record read (for read errors).
    pub(super) last_line: u64,
    /// Why the row just read has no fields: it passes a limit.
    pub(super) over: Option<RecordError>,
    pub(super) solution: Option<usize>,
    pub(super) id: Option<usize>,
    /// Keep each row's text ([`ReaderOptions::keep_text`]).
    pub(super) keep_text: bool,
    /// The header row, for output that repeats the input's columns.
    pub(super) headers: ::csv::ByteRecord,
    /// The columns, for rows read in blocks.
    pub(super) layout: Arc<CsvLayout>,
}

pub(super) fn find_column(headers: &::csv::ByteRecord, names: &[&str]) -> Option<usize> {
    names.iter().find_map(|want| {
        headers
            .iter()
            .position(|h| String::from_utf8_lossy(h).trim().eq_ignore_ascii_case(want))
    })
}

impl CsvReader {
    pub(super) fn new(
        src: Source,
        delimiter: u8,
        options: &ReaderOptions,
        label: &str,
    ) -> Result<Self, InputError> {
        let mut rows = RowReader::new(CsvLineEnds::new(src, delimiter), delimiter);
        let headers = read_header(&mut rows, label)?;
        let puzzle = puzzle_column(&headers, options.column.as_ref(), label)?;
        let puzzle_name = String::from_utf8_lossy(&headers[puzzle]).trim().to_string();
        let solution = find_column(&headers, &SOLUTION_NAMES)
            .filter(|&s| s != puzzle && !options.skip_solutions);
        let id = find_column(&headers, &ID_NAMES).filter(|&s| s != puzzle);
        Ok(CsvReader {
            layout: Arc::new(CsvLayout {
                delimiter,
                puzzle,
                puzzle_name: puzzle_name.clone(),
                solution,
                id,
            }),
            solution,
            id,
            rows,
            row: ::csv::ByteRecord::new(),
            puzzle,
            puzzle_name,
            last_line: 1,
            over: None,
            keep_text: options.keep_text,
            headers,
        })
    }

    pub(super) fn next(&mut self, label: &str) -> Result<Option<Record>, InputError> {
        Ok(self.read_row(label)?.map(|line| self.record(line)))
    }

    /// The quote-free rows the read buffer holds, into `out` as blocks the workers split
    /// (numbers shifted by `offset`), until `budget` records are in. Returns the records
    /// added, or `Ok(None)` when the buffer holds no whole row or a quote comes first:
    /// [`next_raw`](Self::next_raw) then reads the next row.
    pub(super) fn next_block(
        &mut self,
        label: &str,
        offset: u64,
        out: &mut RawBatch,
        budget: usize,
    ) -> Result<Option<usize>, InputError> {
        let layout = &self.layout;
        let taken = self
            .rows
            .buffered_lines(|first, text| {
                let taken = out.push_lines(first + offset, text, budget, Some(layout));
                (taken.bytes, taken.lines, taken)
            })
            .map_err(|e| read_error(label, e, self.last_line))?;
        Ok(taken.map(|taken| {
            if taken.records > 0 {
                self.last_line = taken.last_record - offset;
            }
            taken.records
        }))
    }

    /// The next row into `out` unparsed (its puzzle, solution and id fields), or parsed when
    /// it has no puzzle field; false at the end. `offset` is added to its line number.
    pub(super) fn next_raw(
        &mut self,
        label: &str,
        offset: u64,
        out: &mut RawBatch,
    ) -> Result<bool, InputError> {
        let Some(line) = self.read_row(label)? else {
            return Ok(false);
        };
        match self.fields() {
            (Some(puzzle), solution, id) if !self.keep_text && self.over.is_none() => {
                let puzzle = out.push_field(puzzle);
                let solution = solution.map(|f| out.push_field(f));
                let id = id.map(|f| out.push_field(f));
                out.push_item(RawItem::Csv {
                    line: line + offset,
                    puzzle,
                    solution,
                    id,
                });
            }
            // No puzzle field, or the row's text is kept (the workers' items carry only its
            // fields): parsed here.
            _ => {
                let mut record = self.record(line);
                record.line += offset;
                out.push_record(record);
            }
        }
        Ok(true)
    }

    /// Read the next row that is not blank into `self.row`; its line, or `None` at the end.
    fn read_row(&mut self, label: &str) -> Result<Option<u64>, InputError> {
        loop {
            let Some(RowAt { line, over }) = self
                .rows
                .read(&mut self.row)
                .map_err(|e| read_error(label, e, self.last_line))?
            else {
                return Ok(None);
            };
            // A line of blanks is one field of spaces; skip it like the line reader does.
            if over.is_none()
                && self.row.len() == 1
                && self.row[0].iter().all(u8::is_ascii_whitespace)
            {
                continue;
            }
            self.last_line = line;
            self.over = over;
            return Ok(Some(line));
        }
    }

    /// The puzzle, solution and id fields of the row just read (trimmed; an empty solution is
    /// none).
    fn fields(&self) -> RowFields<'_> {
        let field = |i: usize| self.row.get(i).map(|f| f.trim_ascii());
        let solution = self.solution.and_then(field).filter(|f| !f.is_empty());
        (field(self.puzzle), solution, self.id.and_then(field))
    }

    /// The record of the row just read, on `line`.
    fn record(&self, line: u64) -> Record {
        if let Some(over) = &self.over {
            return over_limit(line, over.clone());
        }
        let (puzzle, solution, id) = self.fields();
        let Some(puzzle) = puzzle else {
            return Record {
                position: None,
                line,
                id: id.map(|f| String::from_utf8_lossy(f).into_owned()),
                puzzle: Err(RecordError::MissingField {
                    column: self.puzzle_name.clone(),
                    fields: self.row.len(),
                }),
                solution: solution.map(parse_field),
                text: self.text(b""),
            };
        };
        Record {
            text: self.text(puzzle),
            ..csv_record(line, puzzle, solution, id)
        }
    }

    /// The row's text, when it is kept.
    fn text(&self, puzzle: &[u8]) -> RecordText {
        if !self.keep_text {
            return RecordText::default();
        }
        RecordText {
            puzzle: Some(puzzle.to_vec()),
            fields: Some(self.row.clone()),
        }
    }
}

/// The header row (none for an empty input), or why it cannot be read.
fn read_header(
    rows: &mut RowReader<CsvLineEnds<Source>>,
    label: &str,
) -> Result<::csv::ByteRecord, InputError> {
    let mut headers = ::csv::ByteRecord::new();
    let header = rows
        .read(&mut headers)
        .map_err(|e| read_error(label, e, 0))?;
    if let Some(RowAt {
        line,
        over: Some(over),
    }) = header
    {
        return Err(InputError::Limit {
            path: label.to_string(),
            line,
            message: format!("the header is too long to be read: {over}"),
        });
    }
    Ok(headers)
}

/// The puzzle column: `column` (`--column`), else the first of [`PUZZLE_NAMES`] in `headers`.
fn puzzle_column(
    headers: &::csv::ByteRecord,
    column: Option<&Column>,
    label: &str,
) -> Result<usize, InputError> {
    let puzzle = match column {
        Some(Column::Index(i)) if *i < headers.len() => Some(*i),
        Some(Column::Index(_)) => None,
        Some(Column::Name(n)) => find_column(headers, &[n.as_str()]),
        None => find_column(headers, &PUZZLE_NAMES),
    };
    puzzle.ok_or_else(|| InputError::NoPuzzleColumn {
        path: label.to_string(),
        wanted: match column {
            Some(Column::Name(n)) => format!("a column named {n:?}"),
            Some(Column::Index(i)) => {
                format!("a column {i} (the header has {})", headers.len())
            }
            None => format!("a column named {}", PUZZLE_NAMES.join(", ")),
        },
        found: header_names(headers),
    })
}

/// The header's first names, not all: a message stays a line.
fn header_names(headers: &::csv::ByteRecord) -> String {
    let mut names = headers
        .iter()
        .take(SHOWN_NAMES)
        .map(|h| String::from_utf8_lossy(h).into_owned())
        .collect::<Vec<_>>()
        .join(", ");
    if headers.len() > SHOWN_NAMES {
        names += &format!(", ... ({} columns)", headers.len());
    }
    names
}

/// The record of a row on `line` that passes a limit (nothing of it is kept).
pub(super) fn over_limit(line: u64, why: RecordError) -> Record {
    Record {
        position: None,
        line,
        id: None,
        puzzle: Err(why),
        solution: None,
        text: RecordText::default(),
    }
}

/// A row's puzzle, solution and id fields, each if present.
type RowFields<'a> = (Option<&'a [u8]>, Option<&'a [u8]>, Option<&'a [u8]>);

/// The record of a CSV row from its puzzle, solution and id fields (no text kept): on the
/// reader for parsed rows, on the workers for raw ones.
pub(super) fn csv_record(
    line: u64,
    puzzle: &[u8],
    solution: Option<&[u8]>,
    id: Option<&[u8]>,
) -> Record {
    let (puzzle, position) = match puzzle.len() {
        POSITION_LEN => candidate_field(puzzle),
        _ => (parse_field(puzzle), None),
    };
    Record {
        position,
        line,
        id: id.map(|f| String::from_utf8_lossy(f).into_owned()),
        puzzle,
        solution: solution.map(parse_field),
        text: RecordText::default(),
    }
}

fn parse_field(field: &[u8]) -> Result<Grid, RecordError> {
    Grid::from_line_bytes(field).map_err(RecordError::Grid)
}

/// Pick the CSV delimiter of a header line: the most frequent of `,` `;` tab (`,` if none).
pub(super) fn csv_delimiter(header: &[u8]) -> u8 {
    [b',', b';', b'\t']
        .into_iter()
        .map(|d| (header.iter().filter(|&&b| b == d).count(), d))
        .max_by_key(|&(n, d)| (n, d == b','))
        .filter(|&(n, _)| n > 0)
        .map_or(b',', |(_, d)| d)
}
