//! Batches of records as read, before parsing: the reader thread only finds where records
//! are, and the pipeline's workers parse them in parallel (parsing an 81-byte line costs about
//! as much as solving an easy puzzle, so on one reader thread it capped the whole run).
//!
//! Line files and quote-free CSV rows travel as blocks of whole lines ([`RawItem::Lines`]:
//! the reader copies what its read buffer holds in one go and only counts the line breaks),
//! split and parsed on the workers ([`parse_line`], or the batch's [`CsvLayout`]). A line that
//! needs more care (one straddling a buffer refill, line 1 with its BOM, one after a lone
//! `\r`) travels alone, and so does a CSV row with a quote (the bytes of its puzzle, solution
//! and id fields). Everything else (9-line blocks, boards, CSV rows read alone whose text is
//! kept for csv or jsonl output, records with an attached solutions file) is parsed on the
//! reader as before and travels as a [`Record`].

use super::csv::{blank_row, csv_record, CsvLayout};
use super::lines::{is_blank_or_comment, parse_line, plain_puzzle, too_long, Line};
use super::*;
use crate::limits::MAX_FIELDS;
use std::sync::Mutex;

/// Records as read: their bytes in one buffer, and where each one is.
#[derive(Debug, Default)]
pub struct RawBatch {
    bytes: Vec<u8>,
    items: Vec<RawItem>,
    /// Records the items stand for (a block of lines stands for several).
    records: usize,
    /// Whether an item is a block of lines (so items and records are not one to one).
    blocks: bool,
    /// The heap bytes of the records parsed on the reader (their text, when kept).
    parsed: usize,
    options: ParseOptions,
    /// How the CSV rows of [`Block::Csv`] items are split.
    csv: Option<Arc<CsvLayout>>,
    /// Where the bytes go back once the batch is worked on (batches made by
    /// [`empty_like`](RawBatch::empty_like)).
    spare: Option<Arc<Spare>>,
}

/// Byte buffers of batches the workers are done with, back to the reader for its next ones:
/// a new buffer for each batch cost page faults on its fresh memory, and a copy whenever a
/// batch outgrew it (together about 1% of an easy puzzle's run).
#[derive(Debug, Default)]
struct Spare(Mutex<Vec<Vec<u8>>>);

impl Spare {
    /// At most this many are kept (more than can be in flight at once).
    const KEEP: usize = 8;
    /// Nor any larger than this (a batch of 4,096 Kaggle CSV rows takes 0.7 MiB).
    const LARGEST: usize = 4 << 20;

    fn take(&self) -> Option<Vec<u8>> {
        self.0.lock().ok()?.pop()
    }

    /// Keep `bytes` unless it is larger than batches usually are (one batch that held many
    /// lines that are not records must not stay resident for the rest of the run).
    fn give(&self, mut bytes: Vec<u8>) {
        if bytes.capacity() > Spare::LARGEST {
            return;
        }
        bytes.clear();
        if let Ok(mut kept) = self.0.lock() {
            if kept.len() < Spare::KEEP {
                kept.push(bytes);
            }
        }
    }
}

/// What a block of lines holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Block {
    /// Lines of a line file; `cr`: some line break is a `\r` or `\r\n` (without, lines are
    /// split on `\n` alone).
    Lines { cr: bool },
    /// Quote-free rows of a CSV file (whose line breaks are all `\n`), split as the batch's
    /// [`CsvLayout`] says.
    Csv,
}

/// One record of a [`RawBatch`].
#[derive(Debug)]
pub(crate) enum RawItem {
    /// A line of a line file, `bytes[start..end]`.
    Line { line: u64, start: usize, end: usize },
    /// Whole lines, `bytes[start..end]` (each line ended by its line break), the first one
    /// numbered `line`; `records` of them are records (not blank, not comments).
    Lines {
        line: u64,
        start: usize,
        end: usize,
        records: usize,
        kind: Block,
        /// The length of every line, its break included, when all are as long and all are
        /// records (split without a search); 0 otherwise.
        width: usize,
    },
    /// A CSV row's puzzle field, and its solution and id fields if any (ranges of `bytes`).
    Csv {
        line: u64,
        puzzle: (usize, usize),
        solution: Option<(usize, usize)>,
        id: Option<(usize, usize)>,
    },
    /// A record parsed on the reader (boxed: the other items are a few words, so a batch's
    /// 4,096 items take 320 KiB instead of 1 MiB).
    Parsed(Box<Record>),
}

impl RawBatch {
    /// An empty batch with room for as much as this one holds (so a stream of batches
    /// allocates per batch, not per record): its bytes are those of a batch already worked
    /// on, once one has come back (so the stream stops allocating them).
    pub fn empty_like(&self) -> RawBatch {
        let spare = self.spare.clone().unwrap_or_default();
        RawBatch {
            bytes: spare
                .take()
                .unwrap_or_else(|| Vec::with_capacity(self.bytes.len())),
            spare: Some(spare),
            items: Vec::with_capacity(self.items.len()),
            records: 0,
            blocks: false,
            parsed: 0,
            options: self.options,
            csv: self.csv.clone(),
        }
    }

    /// Records in the batch.
    pub fn len(&self) -> usize {
        self.records
    }

    /// True when the batch holds nothing from the input (not even blank lines).
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Whether the batch holds a record (it may hold blank lines only).
    pub(super) fn has_records(&self) -> bool {
        self.records > 0
    }

    /// About how many bytes of memory the batch's records hold (their text, copied or
    /// parsed), to bound a batch by bytes as well as by records.
    pub fn held(&self) -> usize {
        self.bytes.len() + self.parsed + self.items.len() * std::mem::size_of::<RawItem>()
    }

    /// Forget what a batch without records holds (blank and comment lines, which give no
    /// output): a long run of them must not stay in memory until a record comes.
    pub(super) fn drop_blank(&mut self) {
        debug_assert_eq!(self.records, 0);
        self.bytes.clear();
        self.items.clear();
        self.parsed = 0;
    }

    /// Every record, parsed, in order (on the calling thread).
    pub fn into_records(self) -> Vec<Record> {
        let counted = self.records;
        let mut records = Vec::with_capacity(counted);
        let (bytes, items) = self.into_parts();
        for item in items {
            bytes.each(item, |r| records.push(r.into_record()));
        }
        assert_eq!(
            records.len(),
            counted,
            "the items gave other than their records"
        );
        records
    }

    /// Whether some item stands for several records (see [`RawItem::records`]).
    pub(crate) fn has_blocks(&self) -> bool {
        self.blocks
    }

    /// The bytes (to parse items with) and the items.
    pub(crate) fn into_parts(self) -> (RawBytes, Vec<RawItem>) {
        (
            RawBytes {
                bytes: self.bytes,
                options: self.options,
                csv: self.csv,
                spare: self.spare,
            },
            self.items,
        )
    }

    pub(super) fn push_line(&mut self, line: u64, text: &[u8]) {
        let start = self.bytes.len();
        self.bytes.extend_from_slice(text);
        let end = self.bytes.len();
        self.push_item(RawItem::Line { line, start, end });
    }

    /// Append whole lines (`text` ends with a line break) as blocks of about `BLOCK` bytes,
    /// the first line numbered `line`, until `budget` records are in: lines of a line file,
    /// or with `csv`, quote-free rows of a CSV file split as it says. Returns the line breaks,
    /// the records added, the bytes of `text` taken (whole lines) and the number of the last
    /// record's line (0: none).
    pub(super) fn push_lines(
        &mut self,
        line: u64,
        text: &[u8],
        budget: usize,
        csv: Option<&Arc<CsvLayout>>,
    ) -> Taken {
        /// Bytes per block: small enough that the workers share a batch evenly (about 60
        /// Kaggle lines), large enough that a block costs nothing per line.
        const BLOCK: usize = 5 << 10;
        if let Some(layout) = csv {
            if self.csv.as_ref().is_none_or(|l| !Arc::ptr_eq(l, layout)) {
                self.csv = Some(layout.clone());
            }
        }
        let base = self.bytes.len();
        let mut taken = Taken::default();
        let mut at = 0;
        while at < text.len() && taken.records < budget {
            let end = match text.get(at + BLOCK..) {
                None => text.len(),
                Some(rest) => {
                    memchr::memchr(b'\n', rest).map_or(text.len(), |i| at + BLOCK + i + 1)
                }
            };
            let counted = match csv {
                None => count_lines(&text[at..end]),
                Some(layout) => count_rows(&text[at..end], layout.delimiter),
            };
            let first = line + taken.lines;
            self.items.push(RawItem::Lines {
                line: first,
                start: base + at,
                end: base + end,
                records: counted.records,
                kind: counted.kind,
                width: counted.width,
            });
            self.blocks = true;
            self.records += counted.records;
            if let Some(last) = counted.last_record {
                taken.last_record = first + last;
            }
            taken.lines += counted.lines;
            taken.records += counted.records;
            at = end;
        }
        self.bytes.extend_from_slice(&text[..at]);
        taken.bytes = at;
        taken
    }

    /// Keep `field` (absent: `None`); its range in the batch.
    pub(super) fn push_field(&mut self, field: &[u8]) -> (usize, usize) {
        let start = self.bytes.len();
        self.bytes.extend_from_slice(field);
        (start, self.bytes.len())
    }

    pub(super) fn push_item(&mut self, item: RawItem) {
        self.records += item.records();
        self.items.push(item);
    }

    pub(super) fn push_record(&mut self, record: Record) {
        let text = &record.text;
        let fields = text
            .fields
            .as_ref()
            .map_or(0, |f| f.as_slice().len() + 16 * f.len());
        self.parsed += std::mem::size_of::<Record>()
            + text.puzzle.as_ref().map_or(0, Vec::len)
            + fields
            + record.id.as_ref().map_or(0, String::len);
        self.push_item(RawItem::Parsed(Box::new(record)));
    }

    pub(super) fn set_options(&mut self, options: ParseOptions) {
        self.options = options;
    }
}

impl RawItem {
    /// How many records the item stands for.
    #[inline]
    pub(crate) fn records(&self) -> usize {
        match self {
            RawItem::Lines { records, .. } => *records,
            _ => 1,
        }
    }
}

/// What [`RawBatch::push_lines`] took.
#[derive(Debug, Default)]
pub(super) struct Taken {
    /// Line breaks.
    pub(super) lines: u64,
    /// Records.
    pub(super) records: usize,
    /// Bytes.
    pub(super) bytes: usize,
    /// The number of the last record's line (0: no record).
    pub(super) last_record: u64,
}

/// What one block holds.
struct Counted {
    lines: u64,
    records: usize,
    /// The last record's line, counted from 0 at the block's first line.
    last_record: Option<u64>,
    kind: Block,
    /// See [`RawItem::Lines`].
    width: usize,
}

/// What [`scan_lines`] found.
#[derive(Debug, PartialEq)]
struct Scan {
    /// Some line starts with a suspect byte.
    suspects: bool,
    /// Line breaks (`\n`).
    breaks: usize,
    /// The length of every line with its break, when all are as long (0: they are not).
    width: usize,
}

/// Whether some line of `text` (whole lines) starts with a byte in `suspect`, the number of
/// `\n`, and whether the lines are all as long: by the vector search for `\n`, with one look
/// at the byte after each.
fn scan_lines(text: &[u8], suspect: impl Fn(u8) -> bool) -> Scan {
    debug_assert_eq!(text.last(), Some(&b'\n'));
    // The common text: lines all as long as the first. Its breaks are then at known places,
    // looked at there, and counted in one vector pass (a search per line costs more).
    if let Some(first) = memchr::memchr(b'\n', text) {
        let step = first + 1;
        let lines = text.len() / step;
        if text.len() % step == 0
            && (0..lines).all(|k| text[k * step + first] == b'\n')
            && count_breaks(text) == lines
        {
            return Scan {
                suspects: (0..lines).any(|k| suspect(text[k * step])),
                breaks: lines,
                width: step,
            };
        }
    }
    let mut suspects = suspect(text[0]);
    let mut breaks = 0usize;
    for at in memchr::memchr_iter(b'\n', text) {
        breaks += 1;
        suspects |= text.get(at + 1).is_some_and(|&b| suspect(b));
    }
    Scan {
        suspects,
        breaks,
        width: 0,
    }
}

/// The `\n` in `text` (memchr's vector count, chosen at run time like its search).
fn count_breaks(text: &[u8]) -> usize {
    memchr::memchr_iter(b'\n', text).count()
}

/// Count the lines of `text` one by one: `record` says which are records.
fn walk_lines(text: &[u8], kind: Block, record: impl Fn(&[u8]) -> bool) -> Counted {
    let mut counted = Counted {
        lines: 0,
        records: 0,
        last_record: None,
        kind,
        width: 0,
    };
    for_each_line(text, kind == (Block::Lines { cr: true }), 0, |line| {
        if record(line) {
            counted.records += 1;
            counted.last_record = Some(counted.lines);
        }
        counted.lines += 1;
    });
    counted
}

/// Line breaks and records in `text`, whole lines of a line file each ended by a line break
/// (`\n`, `\r\n` or a lone `\r`, as [`LineReader`] reads them). Without a `\r`, and with no
/// line that starts with a space or `#` (or is empty), every `\n` ends a record. Otherwise
/// the lines are walked one by one.
fn count_lines(text: &[u8]) -> Counted {
    let scan = scan_lines(text, |b| b.is_ascii_whitespace() || b == b'#');
    let cr = memchr::memchr(b'\r', text).is_some();
    if !scan.suspects && !cr {
        return every_line(&scan, Block::Lines { cr });
    }
    walk_lines(text, Block::Lines { cr }, |line| !is_blank_or_comment(line))
}

/// Every one of `breaks` lines is a record.
fn every_line(scan: &Scan, kind: Block) -> Counted {
    let breaks = scan.breaks;
    Counted {
        lines: breaks as u64,
        records: breaks,
        last_record: breaks.checked_sub(1).map(|l| l as u64),
        kind,
        width: scan.width,
    }
}

/// [`count_lines`] for quote-free CSV rows (line breaks all `\n`): a row is a record unless
/// it is empty or one field of blanks (as [`RowReader`](super::csv_rows::RowReader) and
/// [`CsvReader`](super::csv::CsvReader) skip them).
fn count_rows(text: &[u8], delimiter: u8) -> Counted {
    let scan = scan_lines(text, |b| b.is_ascii_whitespace());
    if !scan.suspects {
        return every_line(&scan, Block::Csv);
    }
    walk_lines(text, Block::Csv, |row| !blank_row(row, delimiter))
}

/// Each line of `text` (whole lines, as in [`count_lines`]) without its line break; `cr`: the
/// text may hold a `\r` (without one, a line of 81 cells is taken without a search); `width`:
/// every line is that long with its `\n` (0: not known).
#[inline]
fn for_each_line(mut text: &[u8], cr: bool, width: usize, mut f: impl FnMut(&[u8])) {
    if width > 0 {
        debug_assert!(!cr && text.len() % width == 0);
        text.chunks_exact(width)
            .for_each(|line| f(&line[..width - 1]));
        return;
    }
    if cr {
        while let Some(i) = memchr::memchr2(b'\n', b'\r', text) {
            f(&text[..i]);
            let crlf = text[i] == b'\r' && text.get(i + 1) == Some(&b'\n');
            text = &text[i + 1 + usize::from(crlf)..];
        }
    } else {
        while !text.is_empty() {
            // A line of 81 bytes: its break is at 81 and none before (checked without an early
            // exit, which compiles to a few vector compares).
            let i = match text.get(..=CELLS) {
                Some([cells @ .., b'\n'])
                    if !cells.iter().fold(false, |a, &b| a | (b == b'\n')) =>
                {
                    CELLS
                }
                _ => memchr::memchr(b'\n', text).unwrap_or(text.len()),
            };
            f(&text[..i]);
            text = text.get(i + 1..).unwrap_or_default();
        }
    }
    debug_assert!(text.is_empty());
}

/// A record as [`RawBytes::each`] gives it.
pub(crate) enum Parsed {
    /// Any record.
    Record(Record),
    /// The record of line `line` that is `puzzle` alone ([`Record::plain`]), the common one,
    /// handed on without making a [`Record`] (which is moved and dropped at some cost).
    Puzzle { line: u64, puzzle: Grid },
}

impl Parsed {
    /// As a record.
    #[inline]
    pub(crate) fn into_record(self) -> Record {
        match self {
            Parsed::Record(r) => r,
            Parsed::Puzzle { line, puzzle } => Record::plain(line, puzzle),
        }
    }
}

/// The bytes of a batch, shared by the workers that parse its items.
#[derive(Debug)]
pub(crate) struct RawBytes {
    bytes: Vec<u8>,
    options: ParseOptions,
    csv: Option<Arc<CsvLayout>>,
    spare: Option<Arc<Spare>>,
}

impl Drop for RawBytes {
    fn drop(&mut self) {
        if let Some(spare) = &self.spare {
            spare.give(std::mem::take(&mut self.bytes));
        }
    }
}

impl RawBytes {
    /// The record `item` stands for.
    #[inline]
    pub(crate) fn parse(&self, item: RawItem) -> Record {
        let field = |(start, end): (usize, usize)| &self.bytes[start..end];
        match item {
            RawItem::Line { line, start, end } => {
                parse_line(&self.bytes[start..end], line, self.options)
            }
            RawItem::Csv {
                line,
                puzzle,
                solution,
                id,
            } => csv_record(line, field(puzzle), solution.map(field), id.map(field)),
            RawItem::Parsed(record) => *record,
            RawItem::Lines { .. } => unreachable!("a block of lines goes through `each`"),
        }
    }

    /// Each record `item` stands for, in order, to `f` (exactly [`RawItem::records`] of them):
    /// the common ones, a puzzle alone, as [`Parsed::Puzzle`].
    #[inline]
    pub(crate) fn each(&self, item: RawItem, mut f: impl FnMut(Parsed)) {
        let RawItem::Lines {
            line,
            start,
            end,
            kind,
            width,
            ..
        } = item
        else {
            return f(Parsed::Record(self.parse(item)));
        };
        let mut number = line;
        let text = &self.bytes[start..end];
        match kind {
            Block::Lines { cr } => for_each_line(text, cr, width, |text| {
                if text.len() > MAX_LINE {
                    f(Parsed::Record(too_long(&Line {
                        number,
                        text: &text[..MAX_LINE],
                        len: text.len() as u64,
                    })));
                } else if let Some(puzzle) = plain_puzzle(text, self.options) {
                    f(Parsed::Puzzle {
                        line: number,
                        puzzle,
                    });
                } else if !is_blank_or_comment(text) {
                    f(Parsed::Record(parse_line(text, number, self.options)));
                }
                number += 1;
            }),
            Block::Csv => {
                let layout = self
                    .csv
                    .as_deref()
                    .expect("a CSV block comes with its layout");
                for_each_line(text, false, width, |row| {
                    let keep_text = self.options.keep_text;
                    // A row longer than the field limit goes the long way (its fields
                    // counted), so that its verdict does not depend on the output format.
                    let plain = !keep_text && row.len() <= MAX_FIELDS;
                    if let Some(puzzle) = layout.plain_puzzle(row).filter(|_| plain) {
                        f(Parsed::Puzzle {
                            line: number,
                            puzzle,
                        });
                    } else if let Some(record) = layout.record(number, row, keep_text) {
                        f(Parsed::Record(record));
                    }
                    number += 1;
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records read one by one, and read in raw batches of `max` then parsed (through a
    /// read buffer of `buffer` bytes, so lines and line breaks straddle its refills).
    fn both_ways(
        text: &str,
        options: &ReaderOptions,
        max: usize,
        buffer: usize,
    ) -> (Vec<Record>, Vec<Record>) {
        let open = || {
            let cursor = io::Cursor::new(text.as_bytes().to_vec());
            let src = Box::new(io::BufReader::with_capacity(buffer, cursor));
            RecordReader::from_reader(src, "test", options).unwrap()
        };
        let one_by_one: Vec<Record> = open().map(Result::unwrap).collect();
        let mut reader = open();
        let mut raw = Vec::new();
        loop {
            let mut batch = RawBatch::default();
            let n = reader.read_raw_batch(&mut batch, max).unwrap();
            raw.extend(batch.into_records());
            if n == 0 {
                break;
            }
        }
        (one_by_one, raw)
    }

    /// A CSV text: `header`, then 400 rows made by `row`.
    fn csv_rows(header: &str, row: impl Fn(usize) -> String) -> String {
        let rows: Vec<String> = (0..400).map(row).collect();
        format!("{header}\n{}\n", rows.join("\n"))
    }

    #[test]
    fn lines_of_one_length_are_scanned_at_their_places() {
        let suspect = |b: u8| b == b'#';
        let scan = |suspects, breaks, width| Scan {
            suspects,
            breaks,
            width,
        };
        assert_eq!(scan_lines(b"ab\ncd\nef\n", suspect), scan(false, 3, 3));
        assert_eq!(scan_lines(b"ab\n#d\nef\n", suspect), scan(true, 3, 3));
        // The breaks are where lines of 2 would end, and one more is inside.
        assert_eq!(scan_lines(b"ab\nc\n\nef\n", suspect), scan(false, 4, 0));
        assert_eq!(scan_lines(b"ab\n\n#\nef\n", suspect), scan(true, 4, 0));
        assert_eq!(scan_lines(b"abc\n#\n", suspect), scan(true, 2, 0));
        let text = b"123\n".repeat(3000);
        assert_eq!(count_breaks(&text), 3000);
        assert_eq!(count_breaks(&text[..4 * 2000 - 1]), 1999);
    }

    #[test]
    fn items_stay_small() {
        assert!(std::mem::size_of::<RawItem>() <= 80);
    }

    #[test]
    fn raw_batches_parse_to_the_same_records() {
        let solved =
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
        let puzzle =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        // CRLF lines after a 50-byte comment line put a `\r` at the last byte of a 64 KiB
        // read buffer (lines taken from the buffer must leave its `\n` to the next).
        let crlf = format!(
            "#{}\n{}",
            "-".repeat(48),
            format!("{puzzle}\r\n").repeat(1000)
        );
        let texts = [
            crlf,
            format!("{puzzle}\r{puzzle}\r\r\n\r {puzzle}\n# c\r\n\n{solved}"),
            format!("# comment\n{puzzle}\n\n{puzzle} {solved}\r\nabc\nid7 {puzzle} 3\n12345\n"),
            format!("puzzle,solution,id\n{puzzle},{solved},a\n{puzzle},,\"b,c\"\n,x\nshort\n"),
            format!("id;quizzes\n1;{puzzle}\n\n2;{solved}\n"),
            // Blocks of lines: short lines whose 82nd byte is a line break, lines of every
            // length around 81, blank, comment and indented lines, a lone `\r` in a long run.
            "x\n".repeat(300),
            (0..400)
                .map(|i| match i % 9 {
                    0 => String::new(),
                    1 => " # comment".to_string(),
                    2 => format!("\t{puzzle}"),
                    3 if i == 300 => format!("{puzzle}\r{solved}"),
                    _ => format!("{puzzle}{}", "7".repeat(i % 5))
                        .chars()
                        .skip(i % 4)
                        .collect(),
                })
                .collect::<Vec<_>>()
                .join("\n"),
            // A line too long to be a record, whole in a 2 MiB read buffer.
            format!("{puzzle}\n{}\n{puzzle}\n", "5".repeat(MAX_LINE + 10)),
            // CSV rows in blocks: blank and blank-field rows, missing fields, fields around 81
            // bytes, blanks around fields, a quoted row (its block ends before it), CRLF ends.
            csv_rows("puzzle,solution", |i| match i % 11 {
                0 => String::new(),
                1 => "  ".to_string(),
                2 => format!(" {puzzle} ,{solved}"),
                3 => format!("{puzzle}7,{solved}"),
                4 if i == 202 => format!("\"{puzzle}\",x"),
                5 => format!("{},", &puzzle[..80]),
                6 => "x".to_string(),
                7 => ",".to_string(),
                8 => format!("{puzzle}\r"),
                _ => format!("{puzzle},{solved}"),
            }),
            csv_rows("id;quizzes;solutions", |i| match i % 7 {
                0 => format!("a{i};{puzzle};{solved}"),
                1 => format!("b{i}"),
                2 => format!(" ;{puzzle}; "),
                3 => format!("c;{puzzle};{solved};extra"),
                4 => ";;".to_string(),
                _ => format!("d;{puzzle}"),
            }),
            csv_rows("quizzes", |i| {
                if i % 5 == 0 {
                    "\t".into()
                } else {
                    puzzle.into()
                }
            }),
            // Lines all as long and all records (split by their width on the workers): plain
            // lines, and CSV rows of one length.
            format!("{puzzle}\n{solved}\n").repeat(70),
            csv_rows("puzzle,solution", |i| match i % 2 {
                0 => format!("{puzzle},{solved}"),
                _ => format!("{solved},{puzzle}"),
            }),
            // Lines all as long as the first, one a comment, one indented; and two short
            // lines that fill one such line's place (its break where a long line's would be).
            format!(
                "{puzzle}\n#{}\n {}\n{puzzle}\n",
                "x".repeat(80),
                &puzzle[1..]
            )
            .repeat(40),
            format!("{puzzle}\n{}\n{}\n{puzzle}\n", &puzzle[..40], &puzzle[41..]).repeat(40),
        ];
        for (i, text) in texts.iter().enumerate() {
            for (keep_text, skip_solutions) in [(false, false), (true, false), (false, true)] {
                let options = ReaderOptions {
                    keep_text,
                    skip_solutions,
                    ..ReaderOptions::default()
                };
                for (max, buffer) in [(1, 1 << 16), (2, 100), (5, 83), (100, 4096), (3, 1 << 21)] {
                    let (one, raw) = both_ways(text, &options, max, buffer);
                    assert!(!one.is_empty());
                    assert_eq!(raw, one, "{text:?} {options:?} max {max} buffer {buffer}");
                    let listed = one.iter().filter(|r| r.solution.is_some()).count();
                    // These texts list solutions; the others have none to skip.
                    let expected = !skip_solutions && [2, 3, 8, 9, 12].contains(&i);
                    assert_eq!(listed > 0, expected, "{text:?} {options:?}");
                }
            }
        }
    }
}
