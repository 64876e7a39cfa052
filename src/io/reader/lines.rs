//! Line files: one puzzle per line, fields split on `,` `;` tab and space, `#` comments and
//! blank lines skipped; the [`LineReader`] under every line-based format (lines, blocks).

use super::arrival;
use super::raw::RawBatch;
use super::*;

/// Reads lines into one reused buffer, tracking line numbers, the BOM and line ends: `\n`,
/// `\r\n` and a lone `\r` (old Mac files) each end a line.
pub(super) struct LineReader {
    pub(super) src: Source,
    pub(super) buf: Vec<u8>,
    pub(super) line: u64,
    /// The last line ended in `\r`: a `\n` right after it is part of the same line break.
    pub(super) after_cr: bool,
}

/// One line: its number, its text (at most [`MAX_LINE`] bytes) and its full length.
pub(super) struct Line<'a> {
    pub(super) number: u64,
    pub(super) text: &'a [u8],
    pub(super) len: u64,
}

impl LineReader {
    pub(super) fn new(src: Source) -> LineReader {
        LineReader {
            src,
            buf: Vec::with_capacity(256),
            line: 0,
            after_cr: false,
        }
    }

    /// The next line when it is already whole in the read buffer, handed to `f` (with its
    /// number) straight from there, without the copy [`next_line`](Self::next_line) makes.
    /// `Ok(None)` when that is not the case (no line break in the buffer, a longer line, a
    /// `\r` whose `\n` may follow, line 1 and its BOM): `next_line` then takes the line.
    #[inline]
    pub(super) fn buffered_line<T>(
        &mut self,
        label: &str,
        f: impl FnOnce(u64, &[u8]) -> T,
    ) -> Result<Option<T>, InputError> {
        if self.after_cr || self.line == 0 {
            return Ok(None);
        }
        let avail = fill_buf(&mut self.src).map_err(|e| read_error(label, e, self.line))?;
        let Some(end) = memchr::memchr2(b'\n', b'\r', avail).filter(|&e| e <= MAX_LINE) else {
            return Ok(None);
        };
        let mut used = end + 1;
        if avail[end] == b'\r' {
            match avail.get(end + 1) {
                Some(b'\n') => used += 1,
                Some(_) => {}
                None => self.after_cr = true,
            }
        }
        self.line += 1;
        let value = f(self.line, &avail[..end]);
        self.src.consume(used);
        Ok(Some(value))
    }

    /// The whole lines the read buffer holds, into `out` as blocks (numbers shifted by
    /// `offset`), without looking at each line here: the workers split them; blocks stop once
    /// `budget` records are in (the last block may pass it). Returns the records added, or
    /// `Ok(None)` when the buffer holds no whole line or the next line needs
    /// [`next_line`](Self::next_line) (line 1 and its BOM, a `\n` that may belong to a `\r`).
    #[inline]
    pub(super) fn buffered_lines(
        &mut self,
        label: &str,
        offset: u64,
        out: &mut RawBatch,
        budget: usize,
    ) -> Result<Option<usize>, InputError> {
        if self.after_cr || self.line == 0 {
            return Ok(None);
        }
        let avail = fill_buf(&mut self.src).map_err(|e| read_error(label, e, self.line))?;
        let Some(last) = memchr::memrchr(b'\n', avail) else {
            return Ok(None);
        };
        let taken = out.push_lines(self.line + 1 + offset, &avail[..=last], budget, None);
        self.line += taken.lines;
        self.src.consume(taken.bytes);
        Ok(Some(taken.records))
    }

    /// Whether the next record (its lines as `classify` tells them, see
    /// [`arrival::holds_record`]) has arrived whole from a stream, without waiting; `None`
    /// when the input is not a stream.
    pub(super) fn next_arrived(
        &mut self,
        classify: impl FnMut(&[u8]) -> arrival::Step,
    ) -> Option<bool> {
        let stream = self.src.stream()?;
        stream.receive();
        let (chunks, then) = stream.arrived();
        Some(arrival::holds_record(chunks, classify) || then)
    }

    /// The next line without its line break and, on line 1, without a BOM.
    pub(super) fn next_line(&mut self, label: &str) -> Result<Option<Line<'_>>, InputError> {
        self.buf.clear();
        let mut len = 0u64;
        let mut started = false;
        loop {
            let avail = fill_buf(&mut self.src).map_err(|e| read_error(label, e, self.line))?;
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
                // A `\r\n` whole in the buffer is taken at once; a `\r` at its end leaves the
                // `\n` that may follow to the next read.
                let crlf = avail[i] == b'\r' && avail.get(i + 1) == Some(&b'\n');
                self.after_cr = avail[i] == b'\r' && !crlf;
                self.src.consume(i + 1 + usize::from(crlf));
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

pub(super) fn is_blank_or_comment(line: &[u8]) -> bool {
    match line.iter().position(|b| !b.is_ascii_whitespace()) {
        None => true,
        Some(i) => line[i] == b'#',
    }
}

pub(super) fn is_separator(b: u8) -> bool {
    matches!(b, b',' | b';' | b'\t' | b' ')
}

/// Fields of a line split on `,` `;` tab and space, with surrounding quotes removed.
pub(super) fn fields(line: &[u8]) -> impl Iterator<Item = &[u8]> {
    line.split(|&b| is_separator(b))
        .filter(|f| !f.is_empty())
        .map(|f| match f {
            [b'"', inner @ .., b'"'] | [b'\'', inner @ .., b'\''] => inner,
            _ => f,
        })
}

pub(super) fn is_cell_field(f: &[u8]) -> bool {
    f.len() == CELLS && f.iter().all(|&b| cell_value(b).is_some())
}

/// Parse one line of a line file: the first 81-cell field is the puzzle, a second one the
/// solution, and a field before the puzzle its id (the Sudoku Exchange `hash puzzle rating`
/// lines). A line with no such field is malformed, described by its longest field.
#[inline]
pub(super) fn parse_line(line: &[u8], number: u64, options: ParseOptions) -> Record {
    match parse_plain_line(line, number, options) {
        Some(record) => record,
        None => parse_fields(line, number, options),
    }
}

/// [`parse_line`] for the lines [`parse_plain_line`] leaves: fields split and checked. A
/// line with no 81-cell field and a field of [`POSITION_LEN`] characters is a candidate grid.
fn parse_fields(line: &[u8], number: u64, options: ParseOptions) -> Record {
    let keep_text = options.keep_text;
    // Each field is checked and parsed in one pass (the fast 81-cell parser).
    let as_grid = |f: &[u8]| f.try_into().ok().and_then(Grid::from_cell_bytes);
    let mut cells = fields(line)
        .enumerate()
        .filter_map(|(i, f)| as_grid(f).map(|g| (i, f, g)));
    let first = cells.next();
    let mut position = None;
    let (puzzle, puzzle_text, at) = match first {
        Some((i, p, grid)) => (Ok(grid), p, Some(i)),
        None => match fields(line)
            .enumerate()
            .find(|(_, f)| f.len() == POSITION_LEN)
        {
            Some((i, f)) => {
                let (puzzle, p) = candidate_field(f);
                position = p;
                (puzzle, f, Some(i))
            }
            None => {
                let longest = fields(line).max_by_key(|f| f.len()).unwrap_or(line);
                let e = Grid::from_line_bytes(longest).expect_err("not an 81-cell field");
                (Err(RecordError::Grid(e)), longest, None)
            }
        },
    };
    let solution = cells
        .next()
        .filter(|_| options.solutions)
        .map(|(_, _, s)| Ok(s));
    let id = match at {
        Some(i) if i > 0 => fields(line)
            .next()
            .filter(|f| !f.is_empty())
            .map(|f| String::from_utf8_lossy(f).into_owned()),
        _ => None,
    };
    Record {
        position,
        line: number,
        id,
        puzzle,
        solution,
        text: line_text(line, puzzle_text, keep_text),
    }
}

/// The text of a line file's record, if kept: the puzzle field, and the line as one field.
#[inline]
fn line_text(line: &[u8], puzzle: &[u8], keep_text: bool) -> RecordText {
    if !keep_text {
        return RecordText::default();
    }
    let mut whole = ::csv::ByteRecord::new();
    whole.push_field(line);
    RecordText {
        puzzle: Some(puzzle.to_vec()),
        fields: Some(whole),
    }
}

/// The common lines, parsed without splitting fields: exactly a puzzle, or a puzzle, one
/// separator and a solution (`None`: any other line, for [`parse_line`]).
#[inline]
fn parse_plain_line(line: &[u8], number: u64, options: ParseOptions) -> Option<Record> {
    let (puzzle, solution) = plain_cells(line, options)?;
    Some(Record {
        position: None,
        line: number,
        id: None,
        puzzle: Ok(puzzle),
        solution: solution.map(Ok),
        text: line_text(line, &line[..CELLS], options.keep_text),
    })
}

/// The puzzle of a line whose record is that puzzle alone (a plain line, its solution not
/// asked for and its text not kept): what the workers hand on without making a [`Record`].
#[inline]
pub(super) fn plain_puzzle(line: &[u8], options: ParseOptions) -> Option<Grid> {
    match plain_cells(line, options) {
        Some((puzzle, None)) if !options.keep_text => Some(puzzle),
        _ => None,
    }
}

/// The puzzle and solution (when `options` asks for it) of a line [`parse_plain_line`] takes.
#[inline]
fn plain_cells(line: &[u8], options: ParseOptions) -> Option<(Grid, Option<Grid>)> {
    let cells = |at: usize| {
        let bytes: &[u8; CELLS] = line.get(at..at + CELLS)?.try_into().ok()?;
        Grid::from_cell_bytes(bytes)
    };
    let solution = match line.len() {
        CELLS => None,
        n if n == 2 * CELLS + 1 && is_separator(line[CELLS]) && !options.solutions => None,
        n if n == 2 * CELLS + 1 && is_separator(line[CELLS]) => Some(cells(CELLS + 1)?),
        _ => return None,
    };
    Some((cells(0)?, solution))
}

/// A line too long to be a record: malformed, without parsing it.
pub(super) fn too_long(line: &Line<'_>) -> Record {
    Record {
        position: None,
        line: line.number,
        id: None,
        puzzle: Err(RecordError::TooLong { bytes: line.len }),
        solution: None,
        text: RecordText::default(),
    }
}
