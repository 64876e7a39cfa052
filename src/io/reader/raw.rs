//! Batches of records as read, before parsing: the reader thread only finds where each record
//! is, and the pipeline's workers parse them in parallel (parsing an 81-byte line costs about
//! as much as solving an easy puzzle, so on one reader thread it capped the whole run).
//!
//! A line file's line is kept as its bytes and parsed by [`parse_line`] on the worker; a CSV
//! row keeps the bytes of its puzzle, solution and id fields. Everything else (blocks, boards,
//! CSV rows whose text is kept for passthrough, records with an attached solutions file,
//! too-long lines) is parsed on the reader as before and travels as a [`Record`].

use super::csv::csv_record;
use super::lines::parse_line;
use super::*;

/// Records as read: their bytes in one buffer, and where each one is.
#[derive(Debug, Default)]
pub struct RawBatch {
    bytes: Vec<u8>,
    items: Vec<RawItem>,
    options: ParseOptions,
}

/// One record of a [`RawBatch`].
#[derive(Debug)]
pub(crate) enum RawItem {
    /// A line of a line file, `bytes[start..end]`.
    Line { line: u64, start: usize, end: usize },
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
    /// allocates per batch, not per record).
    pub fn empty_like(&self) -> RawBatch {
        RawBatch {
            bytes: Vec::with_capacity(self.bytes.len()),
            items: Vec::with_capacity(self.items.len()),
            options: self.options,
        }
    }

    /// Records in the batch.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// True when the batch holds no record.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Every record, parsed, in order (on the calling thread).
    pub fn into_records(self) -> Vec<Record> {
        let (bytes, items) = self.into_parts();
        items.into_iter().map(|item| bytes.parse(item)).collect()
    }

    /// The bytes (to parse items with) and the items.
    pub(crate) fn into_parts(self) -> (RawBytes, Vec<RawItem>) {
        (
            RawBytes {
                bytes: self.bytes,
                options: self.options,
            },
            self.items,
        )
    }

    pub(super) fn push_line(&mut self, line: u64, text: &[u8]) {
        let start = self.bytes.len();
        self.bytes.extend_from_slice(text);
        let end = self.bytes.len();
        self.items.push(RawItem::Line { line, start, end });
    }

    /// Keep `field` (absent: `None`); its range in the batch.
    pub(super) fn push_field(&mut self, field: &[u8]) -> (usize, usize) {
        let start = self.bytes.len();
        self.bytes.extend_from_slice(field);
        (start, self.bytes.len())
    }

    pub(super) fn push_item(&mut self, item: RawItem) {
        self.items.push(item);
    }

    pub(super) fn push_record(&mut self, record: Record) {
        self.items.push(RawItem::Parsed(Box::new(record)));
    }

    pub(super) fn set_options(&mut self, options: ParseOptions) {
        self.options = options;
    }
}

/// The bytes of a batch, shared by the workers that parse its items.
#[derive(Debug)]
pub(crate) struct RawBytes {
    bytes: Vec<u8>,
    options: ParseOptions,
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
        ];
        for (i, text) in texts.iter().enumerate() {
            for (keep_text, skip_solutions) in [(false, false), (true, false), (false, true)] {
                let options = ReaderOptions {
                    keep_text,
                    skip_solutions,
                    ..ReaderOptions::default()
                };
                for (max, buffer) in [(1, 1 << 16), (2, 100), (5, 83), (100, 4096), (3, 1 << 16)] {
                    let (one, raw) = both_ways(text, &options, max, buffer);
                    assert!(!one.is_empty());
                    assert_eq!(raw, one, "{text:?} {options:?} max {max} buffer {buffer}");
                    let listed = one.iter().filter(|r| r.solution.is_some()).count();
                    // The third and fourth texts list solutions; the others have none to skip.
                    let expected = !skip_solutions && (i == 2 || i == 3);
                    assert_eq!(listed > 0, expected, "{text:?} {options:?}");
                }
            }
        }
    }
}
