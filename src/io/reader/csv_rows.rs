//! CSV records split from a buffered stream. A line without a quote, the common case (every
//! Kaggle file), is split at the delimiter directly: one `memchr` for the line end, one for
//! the quote, a split per field. A line with a quote goes through csv-core's parser (RFC 4180:
//! quoted fields, doubled quotes, line breaks inside quotes), fed line after line until the
//! record ends. Blank lines are skipped, as csv-core skips them.
//!
//! The csv crate's reader took ~0.25 µs per record on the reader thread, about a sixth of a
//! `solve` run's CPU on the Kaggle files (`docs/performance.md`, "The record path").
//!
//! Line ends: the stream has been through [`CsvLineEnds`], so outside quotes every line ends
//! in `\n` alone.

use std::io::{self, BufRead, BufReader, Read};

use super::{arrival, fill_buf};
use crate::error::RecordError;
use crate::io::line_ends::CsvLineEnds;
use crate::io::source::Source;
use crate::limits::{MAX_FIELDS, MAX_RECORD};

use csv_core::ReadRecordResult;

/// Reads CSV records, tracking the line each starts on. A record longer than [`MAX_RECORD`]
/// bytes or with more than [`MAX_FIELDS`] fields (an unclosed quote runs to the end of the
/// input) is read to its end without keeping it: memory stays bounded whatever the input.
pub(super) struct RowReader<R> {
    src: BufReader<R>,
    core: csv_core::Reader,
    delimiter: u8,
    /// Lines read so far.
    line: u64,
    /// csv-core's output: the fields' bytes, and where each ends (at most [`MAX_RECORD`]
    /// bytes and [`MAX_FIELDS`] ends).
    out: Vec<u8>,
    ends: Vec<usize>,
}

/// A record [`RowReader::read`] found: the line it starts on, and, when it passes a limit,
/// why (its fields are then not read).
#[derive(Debug)]
pub(super) struct RowAt {
    pub(super) line: u64,
    pub(super) over: Option<RecordError>,
}

/// Why `text`, a quote-free row, is no record: more than [`MAX_FIELDS`] fields (counted only
/// for rows that long).
#[inline]
pub(super) fn too_many_fields(text: &[u8], delimiter: u8) -> Option<RecordError> {
    if text.len() <= MAX_FIELDS {
        return None;
    }
    let fields = memchr::memchr_iter(delimiter, text).count() as u64 + 1;
    (fields > MAX_FIELDS as u64).then_some(RecordError::TooManyFields { fields })
}

impl<R: Read> RowReader<R> {
    /// Records of `src`, fields split at `delimiter`.
    pub(super) fn new(src: R, delimiter: u8) -> RowReader<R> {
        RowReader {
            src: BufReader::with_capacity(1 << 16, src),
            core: csv_core::ReaderBuilder::new().delimiter(delimiter).build(),
            delimiter,
            line: 0,
            out: vec![0; 256],
            ends: vec![0; 16],
        }
    }

    /// The next record's fields into `row` (blank lines skipped); where it starts, or `None`
    /// at the end of the input.
    pub(super) fn read(&mut self, row: &mut ::csv::ByteRecord) -> io::Result<Option<RowAt>> {
        loop {
            match self.buffered(row)? {
                Some(Ok(())) => {
                    let over = None;
                    return Ok(Some(RowAt {
                        line: self.line,
                        over,
                    }));
                }
                Some(Err(Some(over))) => {
                    let over = Some(over);
                    return Ok(Some(RowAt {
                        line: self.line,
                        over,
                    }));
                }
                Some(Err(None)) => continue,
                None => {}
            }
            let avail = fill_buf(&mut self.src)?;
            match avail.first() {
                None => return Ok(None),
                Some(b'\n') => {
                    self.src.consume(1);
                    self.line += 1;
                }
                Some(_) => return self.parse(row).map(Some),
            }
        }
    }

    /// The next line when it is whole in the read buffer and has no quote, split into `row`
    /// straight from there: `Some(Ok(()))`; `Some(Err(None))` for a blank line (skipped),
    /// `Some(Err(Some(why)))` for one with too many fields. `None` when that is not the case:
    /// [`read`](Self::read) then takes the record through csv-core.
    #[inline]
    #[allow(clippy::type_complexity)]
    fn buffered(
        &mut self,
        row: &mut ::csv::ByteRecord,
    ) -> io::Result<Option<Result<(), Option<RecordError>>>> {
        let avail = fill_buf(&mut self.src)?;
        // One scan finds the line end, or a quote before it.
        let end = match memchr::memchr2(b'\n', b'"', avail) {
            Some(end) if avail[end] == b'\n' => end,
            _ => return Ok(None),
        };
        let text = &avail[..end];
        self.line += 1;
        let taken = if text.is_empty() {
            Err(None)
        } else if let Some(over) = too_many_fields(text, self.delimiter) {
            Err(Some(over))
        } else {
            row.clear();
            let mut start = 0;
            for end in memchr::memchr_iter(self.delimiter, text) {
                row.push_field(&text[start..end]);
                start = end + 1;
            }
            row.push_field(&text[start..]);
            Ok(())
        };
        self.src.consume(end + 1);
        Ok(Some(taken))
    }

    /// The whole lines the read buffer holds before its first quote (each with its `\n`,
    /// blank ones included), handed to `take`, which returns how many bytes and lines it used
    /// (whole lines). `Ok(None)`: no such line (the next line is not whole in the buffer, or
    /// has a quote): [`read`](Self::read) then takes it.
    #[inline]
    pub(super) fn buffered_lines<T>(
        &mut self,
        take: impl FnOnce(u64, &[u8]) -> (usize, u64, T),
    ) -> io::Result<Option<T>> {
        let avail = fill_buf(&mut self.src)?;
        // Rows up to the first quote (a quoted row, and any row after it, is read on its own).
        let quote = memchr::memchr(b'"', avail).unwrap_or(avail.len());
        let Some(last) = memchr::memrchr(b'\n', &avail[..quote]) else {
            return Ok(None);
        };
        let (bytes, lines, value) = take(self.line + 1, &avail[..=last]);
        self.line += lines;
        self.src.consume(bytes);
        Ok(Some(value))
    }

    /// The record that starts at the read position (not a blank line), through csv-core fed
    /// straight from the read buffer, refill after refill while a quoted field goes on (a
    /// row with a quote, or one not whole in the buffer). Past [`MAX_RECORD`] bytes or
    /// [`MAX_FIELDS`] fields its output is dropped as it comes, so an unclosed quote costs
    /// no memory, only the read to the end of the input.
    fn parse(&mut self, row: &mut ::csv::ByteRecord) -> io::Result<RowAt> {
        let start = self.line + 1;
        let fed = self.feed()?;
        // Lines: each `\n` read, and a last line without one.
        self.line += fed.breaks + u64::from(fed.last != b'\n');
        let lines = self.line + 1 - start;
        // The record's length without the line break that ends it.
        let bytes = fed.bytes - u64::from(fed.last == b'\n');
        let over = if bytes > MAX_RECORD as u64 {
            let what = "CSV record";
            let to_end = fed.eof;
            Some(RecordError::RecordTooLong {
                what,
                bytes,
                lines,
                to_end,
            })
        } else if fed.dropped_fields > 0 {
            let fields = fed.dropped_fields + fed.nends as u64;
            Some(RecordError::TooManyFields { fields })
        } else {
            row.clear();
            let mut at = 0;
            for &end in &self.ends[..fed.nends] {
                row.push_field(&self.out[at..end]);
                at = end;
            }
            None
        };
        Ok(RowAt { line: start, over })
    }

    /// One record through csv-core, from the read position to its end: its output in
    /// `self.out` and `self.ends` (grown up to the limits, then dropped as it comes).
    #[inline]
    fn feed(&mut self) -> io::Result<Fed> {
        let mut fed = Fed {
            nout: 0,
            nends: 0,
            bytes: 0,
            breaks: 0,
            last: b'\n',
            dropped_fields: 0,
            eof: false,
        };
        loop {
            let input = if fed.eof {
                &[][..]
            } else {
                fill_buf(&mut self.src)?
            };
            if input.is_empty() && !fed.eof {
                fed.eof = true;
                continue;
            }
            let (result, i, o, e) = self.core.read_record(
                input,
                &mut self.out[fed.nout..],
                &mut self.ends[fed.nends..],
            );
            if i > 0 {
                fed.breaks += memchr::memchr_iter(b'\n', &input[..i]).count() as u64;
                fed.last = input[i - 1];
                fed.bytes += i as u64;
                self.src.consume(i);
            }
            (fed.nout, fed.nends) = (fed.nout + o, fed.nends + e);
            match result {
                ReadRecordResult::InputEmpty => {}
                ReadRecordResult::OutputFull if self.out.len() < MAX_RECORD => {
                    let len = (self.out.len() * 2).min(MAX_RECORD);
                    self.out.resize(len, 0);
                }
                // Past the limit (output is never longer than input): drop what came.
                ReadRecordResult::OutputFull => fed.nout = 0,
                ReadRecordResult::OutputEndsFull if self.ends.len() < MAX_FIELDS => {
                    let len = (self.ends.len() * 2).min(MAX_FIELDS);
                    self.ends.resize(len, 0);
                }
                ReadRecordResult::OutputEndsFull => {
                    fed.dropped_fields += fed.nends as u64;
                    fed.nends = 0;
                }
                ReadRecordResult::Record | ReadRecordResult::End => return Ok(fed),
            }
        }
    }
}

/// What [`RowReader::feed`] read of a record.
struct Fed {
    /// The bytes and field ends of csv-core's output in use.
    nout: usize,
    nends: usize,
    /// The bytes read, the line breaks among them, and the last of them.
    bytes: u64,
    breaks: u64,
    last: u8,
    /// The field ends dropped past [`MAX_FIELDS`].
    dropped_fields: u64,
    /// Whether the input ended.
    eof: bool,
}

impl RowReader<CsvLineEnds<Source>> {
    /// Whether the next record has arrived whole from a stream (in the read buffer, or sent
    /// by the stream's thread), without waiting; `None` when the input is not a stream.
    pub(super) fn next_arrived(&mut self) -> Option<bool> {
        self.src.get_mut().get_mut().stream()?.receive();
        let stream = self.src.get_ref().get_ref().stream_ref()?;
        let (chunks, then) = stream.arrived();
        let buffered = std::iter::once(self.src.buffer());
        Some(
            arrival::holds_record(buffered.chain(chunks), arrival::csv_step(self.delimiter))
                || then,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Rows = Vec<Vec<Vec<u8>>>;

    /// Records as the csv crate reads them, and as [`RowReader`] does (with its lines).
    fn both(text: &[u8], delimiter: u8) -> (Rows, Rows, Vec<u64>) {
        let mut theirs = Vec::new();
        let mut rdr = ::csv::ReaderBuilder::new()
            .delimiter(delimiter)
            .flexible(true)
            .has_headers(false)
            .from_reader(text);
        let mut record = ::csv::ByteRecord::new();
        while rdr.read_byte_record(&mut record).unwrap() {
            theirs.push(record.iter().map(<[u8]>::to_vec).collect());
        }
        let (mut ours, mut lines) = (Vec::new(), Vec::new());
        let mut rows = RowReader::new(text, delimiter);
        while let Some(at) = rows.read(&mut record).unwrap() {
            ours.push(record.iter().map(<[u8]>::to_vec).collect());
            lines.push(at.line);
        }
        (theirs, ours, lines)
    }

    #[test]
    fn rows_match_the_csv_crate_and_lines_are_where_records_start() {
        let texts: [(&[u8], &[u64]); 9] = [
            (b"a,b\n1,2\n", &[1, 2]),
            // The csv crate reports the second record at line 2 (where it began looking).
            (b"a,b\n\n\n1,2", &[1, 4]),
            (
                b"\"x,y\",z\n\"multi\nline\",q\nlast,\"\"\"quoted\"\"\"\n",
                &[1, 2, 4],
            ),
            (b"a,\"b\"c,d\n", &[1]),
            (b"p\n\"unterminated\n", &[1, 2]),
            (b" , \n,,\n", &[1, 2]),
            (b"\"a\"\"\n\n\"\n2\n", &[1, 4]),
            (b"", &[]),
            (b"\n\n", &[]),
        ];
        for (text, lines) in texts {
            let (theirs, ours, ours_lines) = both(text, b',');
            assert_eq!(ours, theirs, "{:?}", String::from_utf8_lossy(text));
            assert_eq!(ours_lines, lines, "{:?}", String::from_utf8_lossy(text));
        }
        let (theirs, ours, _) = both(b"a;b\n\"1;2\";3\n", b';');
        assert_eq!(ours, theirs);
    }

    proptest::proptest! {
        #[test]
        fn random_csv_splits_as_the_csv_crate_does(
            bytes in proptest::collection::vec(
                proptest::sample::select(b"a1,\"\n ;".to_vec()), 0..80)
        ) {
            let (theirs, ours, lines) = both(&bytes, b',');
            proptest::prop_assert_eq!(ours, theirs);
            let breaks = bytes.iter().filter(|&&b| b == b'\n').count() as u64;
            proptest::prop_assert!(lines.windows(2).all(|w| w[0] < w[1]));
            proptest::prop_assert!(lines.iter().all(|&l| l >= 1 && l <= breaks + 1));
        }
    }
}
