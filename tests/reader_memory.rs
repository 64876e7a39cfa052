//! Memory stays bounded whatever an input holds: a counting global allocator tracks the bytes
//! alive at once while the record readers go through generated hostile streams of hundreds of
//! megabytes (a quote that never closes, a line with no end, a header of millions of columns,
//! gigabytes of blank lines, a board of gigabytes), each made on the fly, never stored. Each
//! kind of record is bounded by its limit in `sudoku_batch::limits`, and what happens past it
//! is checked too (one malformed record, or an error naming the line).

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::{self, BufRead, BufReader, Read};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use sudoku_batch::error::{InputError, RecordError};
use sudoku_batch::io::{InputFormat, RawBatch, ReaderOptions, Record, RecordReader};
use sudoku_batch::limits::{BATCH_BYTES, MAX_FIELDS, MAX_RECORD};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let now = LIVE.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            grew(new_size - layout.size());
        } else {
            LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The tests share the counters: one at a time (see [`serial`]).
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/// Hostile inputs are this large: far past every limit, and past what fits in the ceiling.
const HOSTILE: u64 = 200 << 20;

/// The ceiling on bytes alive at once while reading: the limits allow a record of 256 KiB, a
/// batch of 256 KiB past it, and the reader's buffers.
const CEILING: usize = 8 << 20;

/// `head`, then `pattern` repeated for `bytes`, then `tail`: generated as it is read.
fn stream(head: &str, pattern: &str, bytes: u64, tail: &str) -> Box<dyn BufRead + Send> {
    struct Cycle {
        pattern: Vec<u8>,
        at: usize,
    }
    impl Read for Cycle {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            for b in buf.iter_mut() {
                *b = self.pattern[self.at];
                self.at = (self.at + 1) % self.pattern.len();
            }
            Ok(buf.len())
        }
    }
    let body = Cycle {
        pattern: pattern.as_bytes().to_vec(),
        at: 0,
    }
    .take(bytes);
    let text = io::Cursor::new(head.as_bytes().to_vec())
        .chain(body)
        .chain(io::Cursor::new(tail.as_bytes().to_vec()));
    Box::new(BufReader::with_capacity(1 << 16, text))
}

/// One test at a time: the counters are the whole process's.
fn serial() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// A record without its text (kept records near the limit must not pile up in the test itself),
/// and a hash of the text, to compare the two ways of reading.
#[derive(Debug, PartialEq)]
struct Seen {
    line: u64,
    puzzle: Result<sudoku_batch::Grid, RecordError>,
    text: u64,
}

fn seen(r: Record) -> Seen {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (&r.id, &r.text.puzzle, format!("{:?}", r.solution)).hash(&mut h);
    if let Some(fields) = &r.text.fields {
        (fields.len(), fields.as_slice()).hash(&mut h);
    }
    Seen {
        line: r.line,
        puzzle: r.puzzle,
        text: h.finish(),
    }
}

/// The records of one way of reading an input, or the error that stopped it.
type ReadAll = Result<Vec<Seen>, InputError>;

/// Read every record of `src` (both ways: one by one, and in raw batches as the pipeline
/// does), and the most bytes alive at once meanwhile, above what was alive before.
fn read_all(
    src: impl Fn() -> Box<dyn BufRead + Send>,
    options: &ReaderOptions,
) -> (ReadAll, ReadAll, usize) {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let one_by_one = RecordReader::from_reader(src(), "hostile", options)
        .and_then(|reader| reader.map(|r| r.map(seen)).collect::<Result<Vec<_>, _>>());
    let batched = RecordReader::from_reader(src(), "hostile", options).and_then(|mut reader| {
        let mut records = Vec::new();
        loop {
            let mut batch = RawBatch::default();
            let n = reader.read_raw_batch(&mut batch, 4096)?;
            assert!(
                batch.held() < BATCH_BYTES + MAX_RECORD + (64 << 10),
                "a batch holds {} bytes",
                batch.held()
            );
            records.extend(batch.into_records().into_iter().map(seen));
            if n == 0 {
                return Ok(records);
            }
        }
    });
    let peak = PEAK.load(Ordering::Relaxed) - base;
    (one_by_one, batched, peak)
}

/// A reader of `text`, shared (not copied) by every call.
fn shared(text: String) -> impl Fn() -> Box<dyn BufRead + Send> {
    let text: std::sync::Arc<[u8]> = text.into_bytes().into();
    move || Box::new(io::Cursor::new(text.clone())) as Box<dyn BufRead + Send>
}

fn csv() -> ReaderOptions {
    ReaderOptions {
        format: InputFormat::Csv,
        ..ReaderOptions::default()
    }
}

/// Check both ways gave `expected` (line, and whether the puzzle parsed), within the ceiling;
/// returns the records.
fn bounded(
    src: impl Fn() -> Box<dyn BufRead + Send>,
    options: &ReaderOptions,
    expected: &[(u64, bool)],
) -> Vec<Seen> {
    let (one, batched, peak) = read_all(src, options);
    let (one, batched) = (one.unwrap(), batched.unwrap());
    assert_eq!(one, batched, "one by one and in batches differ");
    let got: Vec<(u64, bool)> = one.iter().map(|r| (r.line, r.puzzle.is_ok())).collect();
    assert_eq!(got, expected);
    assert!(peak < CEILING, "{peak} bytes alive at once");
    one
}

#[test]
fn a_csv_quote_that_never_closes_is_one_malformed_record() {
    let _serial = serial();
    let head = format!("puzzle,note\n{PUZZLE},a\n{PUZZLE},\"opens\n");
    let src = || stream(&head, "text, \"\"and\"\" more\n", HOSTILE, "");
    let records = bounded(src, &csv(), &[(2, true), (3, false)]);
    match &records[1].puzzle {
        Err(RecordError::RecordTooLong {
            what: "CSV record",
            to_end: true,
            bytes,
            lines,
        }) => {
            assert!(*bytes > HOSTILE && *lines > 1_000_000, "{bytes} {lines}");
        }
        other => panic!("{other:?}"),
    }
    let message = records[1].puzzle.as_ref().unwrap_err().to_string();
    assert!(message.contains("never closes"), "{message}");
}

#[test]
fn a_long_quoted_record_ends_where_its_quote_closes_and_the_next_ones_are_read() {
    let _serial = serial();
    // A quoted field of 3 MiB over many lines, closed, then good rows: their lines are right.
    let mut field = String::new();
    for _ in 0..30_000 {
        field.push_str(&"x".repeat(99));
        field.push('\n');
    }
    let text = format!("puzzle,note\n{PUZZLE},\"{field}\"\n{PUZZLE},b\n\n{PUZZLE},c\n");
    let records = bounded(
        shared(text),
        &csv(),
        &[(2, false), (30_003, true), (30_005, true)],
    );
    let message = records[0].puzzle.as_ref().unwrap_err().to_string();
    assert!(
        message.contains("over 30001 lines") && !message.contains("never closes"),
        "{message}"
    );
}

#[test]
fn an_unquoted_csv_row_longer_than_the_limit_is_one_malformed_record() {
    let _serial = serial();
    let head = format!("puzzle\n{PUZZLE}\n");
    let row = "1".repeat(MAX_RECORD + 1);
    let src = || stream(&head, &row, row.len() as u64 * 3, &format!("\n{PUZZLE}\n"));
    // The generated rows run together into one line of three times the limit.
    bounded(src, &csv(), &[(2, true), (3, false), (4, true)]);
    // Exactly at the limit, it is a record (malformed for its length only).
    let at_limit = format!("puzzle,x\n{PUZZLE},{}\n", "1".repeat(MAX_RECORD - 82));
    bounded(shared(at_limit), &csv(), &[(2, true)]);
}

#[test]
fn a_csv_header_past_the_limits_is_an_error_naming_line_1() {
    let src = || stream("puzzle", ",", HOSTILE, &format!("\n{PUZZLE}\n"));
    let (one, batched, peak) = read_all(src, &csv());
    for result in [one, batched] {
        let message = result.unwrap_err().to_string();
        assert!(
            message.starts_with("hostile:1: the header is too long to be read: CSV record of"),
            "{message}"
        );
    }
    assert!(peak < CEILING, "{peak} bytes alive at once");
    // Few bytes, too many fields.
    let header = format!("puzzle{}\n{PUZZLE}\n", ",".repeat(MAX_FIELDS));
    let message = read_all(shared(header), &csv()).0.unwrap_err().to_string();
    assert!(
        message.contains("4097 fields, more than the limit of 4096"),
        "{message}"
    );
}

#[test]
fn a_csv_row_with_too_many_fields_is_malformed_however_it_is_read() {
    let _serial = serial();
    // Quote-free (split on the workers in batches, on the reader one by one) and quoted
    // (through csv-core), with and without the text kept: the same verdict each way.
    let wide = ",".repeat(MAX_FIELDS);
    let text = format!("puzzle,b\n{PUZZLE}{wide}\n{PUZZLE},\"q\"{wide}\n{PUZZLE},ok\n");
    for keep_text in [false, true] {
        let options = ReaderOptions { keep_text, ..csv() };
        let records = bounded(
            shared(text.clone()),
            &options,
            &[(2, false), (3, false), (4, true)],
        );
        let fields = |r: &Seen| match r.puzzle {
            Err(RecordError::TooManyFields { fields }) => fields,
            _ => 0,
        };
        assert_eq!((fields(&records[0]), fields(&records[1])), (4097, 4098));
    }
}

#[test]
fn a_line_without_an_end_is_one_malformed_record() {
    let _serial = serial();
    let lines = ReaderOptions::default();
    let src = || {
        stream(
            &format!("{PUZZLE}\n"),
            "5",
            HOSTILE,
            &format!("\n{PUZZLE}\n"),
        )
    };
    let records = bounded(src, &lines, &[(1, true), (2, false), (3, true)]);
    assert_eq!(
        records[1].puzzle,
        Err(RecordError::TooLong { bytes: HOSTILE })
    );
    // As 9-line blocks too.
    let blocks = ReaderOptions {
        format: InputFormat::Block,
        ..ReaderOptions::default()
    };
    let src = || stream("", "5", HOSTILE, "\n");
    bounded(src, &blocks, &[(1, false)]);
}

#[test]
fn lines_near_the_limit_end_batches_early() {
    let _serial = serial();
    // 200 lines just under the limit: each is a record (kept for the workers), so batches
    // end by bytes, not by count.
    let line = format!("{PUZZLE} {}\n", "x".repeat(MAX_RECORD - 100));
    let src = || stream("", &line, line.len() as u64 * 200, "");
    let expected: Vec<(u64, bool)> = (1..=200).map(|l| (l, true)).collect();
    for keep_text in [false, true] {
        let options = ReaderOptions {
            keep_text,
            ..ReaderOptions::default()
        };
        bounded(src, &options, &expected);
    }
}

#[test]
fn blank_and_comment_lines_do_not_pile_up_in_a_batch() {
    let _serial = serial();
    // Far past the ceiling, though not as far as the others (one line at a time is slow).
    let blank = 64 << 20;
    let src = || stream("puzzle\n", "\n", blank, &format!("{PUZZLE}\n"));
    bounded(src, &csv(), &[(blank + 2, true)]);
    let comments = "# a comment line\n";
    let src = || {
        stream(
            "",
            comments,
            comments.len() as u64 * 10_000_000,
            &format!("{PUZZLE}\n"),
        )
    };
    bounded(src, &ReaderOptions::default(), &[(10_000_001, true)]);
}

#[test]
fn a_leetcode_board_longer_than_the_limit_is_one_malformed_record() {
    let _serial = serial();
    let board = ReaderOptions {
        format: InputFormat::Board,
        ..ReaderOptions::default()
    };
    let src = || stream("[[", " ", HOSTILE, "]]\n");
    let records = bounded(src, &board, &[(1, false)]);
    let message = records[0].puzzle.as_ref().unwrap_err().to_string();
    assert_eq!(
        message,
        format!(
            "LeetCode board of {} bytes, longer than the limit of 256 KiB for one record",
            HOSTILE + 5
        )
    );
}
