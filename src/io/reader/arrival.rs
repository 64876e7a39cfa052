//! Whether the next record of a stream has arrived whole, judged from the bytes that have
//! arrived without waiting for more ([`crate::io::source::StreamReader::arrived`]). A batch
//! read from a stream ends when it has not (see [`super::RecordReader::read_raw_batch`]), so
//! the records already read are worked on at once instead of waiting for the producer.
//!
//! The judgement may say "not arrived" for a record that has (the batch then ends one record
//! early: harmless), never "arrived" for one that has not (the reader would then wait with
//! records in hand): a line whose kind is in doubt counts as one that is skipped, and CSV
//! quotes are followed as csv-core reads them ([`Quoting`]).

use super::lines::is_blank_or_comment;
use super::MAX_LINE;
use crate::grid::{block_row, is_block_separator};
use crate::io::line_ends::Quoting;

/// What one whole line does to the next record.
pub(super) enum Step {
    /// Skipped before it (blank, comment, separator).
    Skip,
    /// Part of it; more lines to come.
    Part,
    /// Ends it.
    Done,
}

/// Whether the bytes that have arrived, in order across `chunks`, hold the next record
/// whole: `classify` is told each whole line (without its line end; `\n` and `\r` each end
/// one, so a `\r\n` gives an empty line after its line) and says what it does.
pub(super) fn holds_record<'a>(
    chunks: impl Iterator<Item = &'a [u8]>,
    mut classify: impl FnMut(&[u8]) -> Step,
) -> bool {
    // A line split across chunks, put together (rare: only its start is ever copied).
    let mut split: Vec<u8> = Vec::new();
    for chunk in chunks {
        let mut rest = chunk;
        while let Some(end) = memchr::memchr2(b'\n', b'\r', rest) {
            let step = if split.is_empty() {
                classify(&rest[..end])
            } else {
                split.extend_from_slice(&rest[..end]);
                let step = classify(&split);
                split.clear();
                step
            };
            if matches!(step, Step::Done) {
                return true;
            }
            rest = &rest[end + 1..];
        }
        if split.len() + rest.len() > MAX_LINE {
            return false;
        }
        split.extend_from_slice(rest);
    }
    false
}

/// A line file's record: its first line that is not blank or a comment.
pub(super) fn line_step(line: &[u8]) -> Step {
    if is_blank_or_comment(line) {
        Step::Skip
    } else {
        Step::Done
    }
}

/// A 9-row block: nine lines that are not blank, comments or separators (a line that is not
/// a row also ends it, as a malformed record).
pub(super) fn block_step() -> impl FnMut(&[u8]) -> Step {
    let mut rows = 0;
    move |line| {
        if is_blank_or_comment(line) || is_block_separator(line) {
            return Step::Skip;
        }
        rows += 1;
        if rows == 9 || block_row(line).is_err() {
            Step::Done
        } else {
            Step::Part
        }
    }
}

/// A CSV row split at `delimiter`: its first line that is not blank, and the lines after it
/// while a quoted field is open (as csv-core reads quotes: only a `"` at the start of a field
/// opens one; a doubled `"` inside it is a quote).
pub(super) fn csv_step(delimiter: u8) -> impl FnMut(&[u8]) -> Step {
    let mut started = false;
    let mut state = Quoting::FieldStart;
    move |line| {
        if !started {
            if line.iter().all(u8::is_ascii_whitespace) {
                return Step::Skip;
            }
            started = true;
        }
        let mut i = 0;
        while i < line.len() {
            // Only the bytes that can change the state are looked at one by one.
            let skip = match state {
                Quoting::Unquoted => memchr::memchr(delimiter, &line[i..]),
                Quoting::Quoted => memchr::memchr(b'"', &line[i..]),
                Quoting::FieldStart | Quoting::QuoteInQuoted => Some(0),
            };
            let Some(skip) = skip else {
                break;
            };
            state = state.after(line[i + skip], delimiter);
            i += skip + 1;
        }
        // A line break outside quotes ends the row.
        if state == Quoting::Quoted {
            Step::Part
        } else {
            Step::Done
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::reader::{InputFormat, RawBatch, ReaderOptions, RecordReader};
    use crate::io::source::{Source, StreamReader};
    use std::sync::atomic::AtomicU64;
    use std::sync::{mpsc, Arc};
    use std::time::Duration;

    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    /// A small deterministic generator (xorshift).
    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
        fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
            from[self.below(from.len())]
        }
    }

    /// A text of `format`: its head (a CSV header) and records, each with the lines skipped
    /// before it, line ends of every kind.
    fn text(format: InputFormat, rng: &mut Rng) -> (String, usize) {
        let ends = ["\n", "\r\n", "\n", "\r"];
        let mut text = String::new();
        if format == InputFormat::Csv {
            text.push_str("id,puzzle");
            // A lone `\r` is a line end csv-core knows too.
            text.push_str(rng.pick(&ends));
        }
        let head = text.len();
        for _ in 0..4 {
            for _ in 0..rng.below(3) {
                let skip = match format {
                    InputFormat::Csv => rng.pick(&["", "  "]),
                    InputFormat::Block => rng.pick(&["", "# c", "------+-------+------"]),
                    _ => rng.pick(&["", "  ", "# c", "\t# c"]),
                };
                text.push_str(skip);
                text.push_str(rng.pick(&ends));
            }
            match format {
                InputFormat::Csv => {
                    let id = rng.pick(&["7", "\"a,\nb\"\"c\"", "x\"y", "\"\"", "\"q\r\nq\""]);
                    let puzzle = rng.pick(&["P", "\"P\"", "\"PU\nZ\"", "\"P\",z"]);
                    text.push_str(id);
                    text.push(',');
                    text.push_str(&puzzle.replace('P', PUZZLE));
                    text.push_str(rng.pick(&ends));
                }
                InputFormat::Block => {
                    for row in PUZZLE.as_bytes().chunks(9) {
                        text.push_str(std::str::from_utf8(row).unwrap());
                        text.push_str(rng.pick(&ends));
                        if rng.below(4) == 0 {
                            text.push_str(rng.pick(&["", "# c", "------+-------+------"]));
                            text.push_str(rng.pick(&ends));
                        }
                    }
                }
                _ => {
                    text.push_str(rng.pick(&[PUZZLE, "bad", "4.1 extra field"]));
                    text.push_str(rng.pick(&ends));
                }
            }
        }
        (text, head)
    }

    /// What the reading thread of [`a_batch_never_waits_with_a_record_in_hand`] tells.
    enum Event {
        /// A read is about to wait for the producer.
        Waits,
        /// The batch was read: its records.
        Read(usize),
    }

    /// The invariant the module promises, against the real readers: for every prefix of a
    /// text that has arrived from a stream that stays open (in 1 to 3 chunks), a read of a
    /// batch waits for the producer only when no record has arrived whole; with one, it
    /// returns it (and maybe more) without waiting.
    #[test]
    fn a_batch_never_waits_with_a_record_in_hand() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for format in [InputFormat::Lines, InputFormat::Csv, InputFormat::Block] {
            for _ in 0..5 {
                let (text, head) = text(format, &mut rng);
                for end in head + 1..=text.len() {
                    let arrived = text.as_bytes()[..end].to_vec();
                    let (tx, rx) = mpsc::channel();
                    let mut at = 0;
                    for _ in 0..rng.below(3) {
                        let cut = at + rng.below(end - at + 1);
                        tx.send(Ok(arrived[at..cut].to_vec())).unwrap();
                        at = cut;
                    }
                    tx.send(Ok(arrived[at..].to_vec())).unwrap();
                    let (events, told) = mpsc::channel();
                    let waits = events.clone();
                    let on_wait = Box::new(move || {
                        let _ = waits.send(Event::Waits);
                    });
                    std::thread::spawn(move || {
                        let options = ReaderOptions {
                            format,
                            ..ReaderOptions::default()
                        };
                        let stream = StreamReader::from_channel(rx, on_wait);
                        let src = Source::Stream(Box::new(stream));
                        let bytes = Arc::new(AtomicU64::new(0));
                        let mut reader =
                            RecordReader::with_source(src, "t".into(), bytes, &options).unwrap();
                        let mut batch = RawBatch::default();
                        let n = reader.read_raw_batch(&mut batch, 1 << 20).unwrap();
                        let _ = events.send(Event::Read(n));
                    });
                    let whole = whole_records(format, &text[..end]);
                    let shown = &text[..end];
                    // A watchdog against a bug that never returns, not a speed limit.
                    match told.recv_timeout(Duration::from_secs(60)).unwrap() {
                        Event::Waits => {
                            assert_eq!(whole, 0, "{format:?}: waited with records in {shown:?}");
                            // The producer ends the stream: the read returns.
                            drop(tx);
                            assert!(told.recv_timeout(Duration::from_secs(60)).is_ok());
                        }
                        Event::Read(n) => {
                            assert!(n >= 1 && whole >= 1, "{format:?}: {n} read, {shown:?}");
                        }
                    }
                }
            }
        }
    }

    /// The records that `prefix` holds whole (read from a closed stream, a record is whole
    /// when the same record comes out of the prefix and of the prefix with more text after
    /// it: a cut record reads differently or not at all).
    fn whole_records(format: InputFormat, prefix: &str) -> usize {
        let read = |text: String| -> Vec<String> {
            // The records' text too: two cut records may fail the same way.
            let options = ReaderOptions {
                format,
                keep_text: true,
                ..ReaderOptions::default()
            };
            let src = Box::new(std::io::Cursor::new(text.into_bytes()));
            RecordReader::from_reader(src, "t", &options)
                .unwrap()
                .map(|r| format!("{:?}", r.unwrap()))
                .collect()
        };
        let alone = read(prefix.to_string());
        let more = read(format!("{prefix}{PUZZLE}\n\"\n"));
        alone.iter().zip(&more).take_while(|(a, b)| a == b).count()
    }

    fn holds(chunks: &[&str], classify: impl FnMut(&[u8]) -> Step) -> bool {
        holds_record(chunks.iter().map(|c| c.as_bytes()), classify)
    }

    #[test]
    fn a_line_record_needs_its_line_end() {
        assert!(!holds(&[""], line_step));
        assert!(!holds(&["53..7"], line_step));
        assert!(!holds(&["53..7", "...6"], line_step));
        assert!(holds(&["53..7", "...6\n"], line_step));
        assert!(holds(&["53..7\r"], line_step));
        // Blank and comment lines (and the `\n` of a `\r\n`) are skipped, not records.
        assert!(!holds(&["\n", "# note\n", "  \r\n"], line_step));
        assert!(holds(&["\n# note\n", "4.1", "\n"], line_step));
        // A comment split across chunks is still a comment.
        assert!(!holds(&["  ", "# a\n"], line_step));
    }

    #[test]
    fn a_block_needs_nine_rows() {
        let row = "1 2 3 | 4 5 6 | 7 8 9\n";
        let eight = row.repeat(8);
        assert!(!holds(
            &[&eight, "------+-------+------\n", "\n"],
            block_step()
        ));
        assert!(holds(&[&eight, "\n", row], block_step()));
        // A line that is not a row ends the block (a malformed record).
        assert!(holds(&[row, "not a row\n"], block_step()));
    }

    #[test]
    fn a_csv_row_ends_outside_quotes() {
        let row = || csv_step(b',');
        assert!(holds(&["a,b\n"], row()));
        assert!(!holds(&["\n", "  \n"], row()));
        assert!(!holds(&["\"a\nb", "\n"], row()));
        assert!(holds(&["\"a\nb\",c\n"], row()));
        assert!(holds(&["\"a\"\"b\",c\r\n"], row()));
        // A quote inside an unquoted field is a byte; one at a field's start opens a quoted
        // field (two quotes in the line, and still open).
        assert!(holds(&["x\"y,z\n"], row()));
        assert!(!holds(&["x\"y,\"z\n"], row()));
        assert!(!holds(&["\"a\"x\"y,\"b\n"], row()));
        assert!(holds(&["x\"y,\"z\n", "z\"\n"], row()));
        // The delimiter decides where fields start.
        assert!(!holds(&["a;\"b\n"], csv_step(b';')));
        assert!(holds(&["a;\"b\n"], row()));
    }
}
