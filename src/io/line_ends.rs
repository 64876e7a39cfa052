//! Line ends for the CSV reader: every line break outside a quoted field becomes one `\n`.
//!
//! The `csv` crate counts lines by `\n` bytes and takes a record's position before it skips
//! the line break that ended the previous record. With `\r\n` line ends the previous record
//! stops at the `\r`, so every record of a CRLF file was reported one line early (the first
//! data row as line 1), and a file with lone `\r` line ends was all "line 1". Rewriting
//! `\r\n` and a lone `\r` to `\n` before the CSV parser sees them makes its line numbers the
//! same as the line reader's for LF, CRLF, mixed and lone-CR files alike.
//!
//! Inside a quoted field the bytes are passed on untouched (a field's value must not change):
//! an embedded `\r\n` still counts as one line there (by its `\n`); an embedded lone `\r`
//! does not count as a line break.
//!
//! Cost: the quoting state only matters at `"` and `\r`, so the common file (no quotes, LF
//! ends) costs one `memchr2` scan per buffer.

use std::io::{self, Read};

/// Where the scanner is in the CSV grammar (quote character `"`, doubled to escape), as
/// csv-core reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Quoting {
    /// At the start of a field: a `"` here opens a quoted field.
    FieldStart,
    /// In an unquoted field: a `"` here is an ordinary byte.
    Unquoted,
    /// In a quoted field.
    Quoted,
    /// Just after a `"` inside a quoted field: closed, unless another `"` follows.
    QuoteInQuoted,
}

impl Quoting {
    /// The state after `byte` (not a line break) in a row split at `delimiter`.
    pub(crate) fn after(self, byte: u8, delimiter: u8) -> Quoting {
        match (self, byte) {
            (Quoting::Quoted, b'"') => Quoting::QuoteInQuoted,
            (Quoting::Quoted, _) => Quoting::Quoted,
            (Quoting::FieldStart | Quoting::QuoteInQuoted, b'"') => Quoting::Quoted,
            (_, b) if b == delimiter => Quoting::FieldStart,
            _ => Quoting::Unquoted,
        }
    }
}

/// A reader that rewrites line breaks outside quoted fields to `\n` (see the module doc).
pub struct CsvLineEnds<R> {
    inner: R,
    delimiter: u8,
    state: Quoting,
    /// The last byte passed on was a `\r` turned into `\n`: a `\n` right after it is dropped.
    after_cr: bool,
}

impl<R: Read> CsvLineEnds<R> {
    /// Wrap `inner`, a CSV stream with fields separated by `delimiter`.
    pub fn new(inner: R, delimiter: u8) -> CsvLineEnds<R> {
        CsvLineEnds {
            inner,
            delimiter,
            state: Quoting::FieldStart,
            after_cr: false,
        }
    }

    /// The stream under it.
    pub fn get_ref(&self) -> &R {
        &self.inner
    }

    /// The stream under it, to read from (bytes read this way are not rewritten).
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.inner
    }

    /// Rewrite `buf` in place; returns how many bytes remain.
    fn rewrite(&mut self, buf: &mut [u8]) -> usize {
        let n = buf.len();
        let (mut read, mut write) = (0, 0);
        while read < n {
            if std::mem::take(&mut self.after_cr) && buf[read] == b'\n' {
                read += 1;
                continue;
            }
            let rest = &buf[read..];
            let stop = match self.state {
                Quoting::Quoted => memchr::memchr(b'"', rest),
                _ => memchr::memchr2(b'"', b'\r', rest),
            }
            .map_or(n, |i| read + i);
            if stop > read {
                // Nothing to change up to `stop`; outside quotes, the state there follows
                // from the last byte of the run.
                if self.state != Quoting::Quoted {
                    let last = buf[stop - 1];
                    self.state = if last == self.delimiter || last == b'\n' {
                        Quoting::FieldStart
                    } else {
                        Quoting::Unquoted
                    };
                }
                buf.copy_within(read..stop, write);
                write += stop - read;
                read = stop;
                continue;
            }
            let byte = buf[read];
            // A quote (the only stop inside quotes), or a `\r` outside them.
            buf[write] = if byte == b'"' {
                self.state = self.state.after(byte, self.delimiter);
                byte
            } else {
                self.state = Quoting::FieldStart;
                self.after_cr = true;
                b'\n'
            };
            write += 1;
            read += 1;
        }
        write
    }
}

impl<R: Read> Read for CsvLineEnds<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            let n = self.inner.read(buf)?;
            if n == 0 {
                return Ok(0);
            }
            let kept = self.rewrite(&mut buf[..n]);
            // Zero would mean the end of the input: read on when all was a dropped `\n`.
            if kept > 0 {
                return Ok(kept);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rewritten text, read through buffers of `chunk` bytes (line breaks split across
    /// reads must come out the same).
    fn rewrite(text: &[u8], chunk: usize) -> Vec<u8> {
        struct Chunks<'a>(&'a [u8], usize);
        impl Read for Chunks<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let n = self.0.len().min(self.1).min(buf.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let mut out = Vec::new();
        CsvLineEnds::new(Chunks(text, chunk), b',')
            .read_to_end(&mut out)
            .unwrap();
        out
    }

    #[test]
    fn line_breaks_outside_quotes_become_lf() {
        for chunk in [1, 2, 3, 7, 1 << 16] {
            assert_eq!(rewrite(b"a,b\r\n1,2\r\n", chunk), b"a,b\n1,2\n");
            assert_eq!(rewrite(b"a,b\r1,2\r3,4", chunk), b"a,b\n1,2\n3,4");
            assert_eq!(rewrite(b"a\r\nb\nc\rd", chunk), b"a\nb\nc\nd");
            assert_eq!(rewrite(b"a\r\r\nb", chunk), b"a\n\nb");
        }
    }

    #[test]
    fn quoted_fields_keep_their_bytes() {
        for chunk in [1, 2, 5, 1 << 16] {
            assert_eq!(
                rewrite(b"p,q\r\n\"x\r\ny\",1\r\n\"a\"\"\r\",2\r\n", chunk),
                b"p,q\n\"x\r\ny\",1\n\"a\"\"\r\",2\n"
            );
            // A quote inside an unquoted field opens nothing.
            assert_eq!(rewrite(b"ab\"c,1\r\nd,2\r\n", chunk), b"ab\"c,1\nd,2\n");
            // Text after a closing quote is unquoted.
            assert_eq!(rewrite(b"\"a\"b\r\nc\r\n", chunk), b"\"a\"b\nc\n");
        }
    }
}
