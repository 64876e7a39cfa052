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
