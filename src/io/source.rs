//! Byte sources: stdin or a file, decompressed when its first bytes say it is compressed.
//!
//! Formats are recognised by their magic bytes, never by the file name (a `.csv` that is
//! really gzip, or stdin from `curl`, is read right; a plain file named `.gz` is read as
//! text): gzip (several members, as `cat a.gz b.gz` makes), zstd (several frames), xz
//! (several streams), bzip2 (several streams) and zip. A zip archive must hold exactly one
//! file (directories and macOS `__MACOSX/` entries aside): several files would mean several
//! headers in one stream, so such an archive is refused with the member names and an
//! `unzip -p` hint. A zip is read through its central directory, so it must be a file, not
//! stdin.
//!
//! Every compressed input is decoded on a thread of its own, which hands 64 KiB chunks to
//! the reader through a bounded channel: decompression then runs beside the reading and
//! parsing of what it already produced instead of in series with it (for the zip member it
//! also gives the `zip` crate's reader, which borrows the archive, an owner).
//!
//! Truncated or corrupt compressed data surfaces as a read error when the reader gets there:
//! the records before it are processed and written, then the run stops with exit code 2.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::Arc;

use crate::error::InputError;
use crate::io::reader::Input;

/// The buffer size of sources and decoders.
pub const BUFFER: usize = 1 << 16;

/// A buffered stream of the input's (decompressed) bytes.
pub type Source = Box<dyn BufRead + Send>;

/// Counts the bytes read from the underlying source (compressed bytes for compressed files).
pub struct Counting<R> {
    /// The source.
    pub inner: R,
    /// Bytes read so far.
    pub count: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

impl<R: Seek> Seek for Counting<R> {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        self.inner.seek(pos)
    }
}

/// A compression format, recognised by its first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// gzip (RFC 1952).
    Gzip,
    /// Zstandard.
    Zstd,
    /// xz (LZMA2).
    Xz,
    /// bzip2.
    Bzip2,
    /// A zip archive.
    Zip,
}

impl Compression {
    /// The format whose magic bytes start `head`, if any.
    pub fn detect(head: &[u8]) -> Option<Compression> {
        if head.starts_with(&[0x1f, 0x8b]) {
            Some(Compression::Gzip)
        } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
            Some(Compression::Zstd)
        } else if head.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0x00]) {
            Some(Compression::Xz)
        } else if is_bzip2(head) {
            Some(Compression::Bzip2)
        } else if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
            Some(Compression::Zip)
        } else {
            None
        }
    }
}

/// `BZh` and a block size digit are printable, so a text line could start with them; the
/// 48-bit block (or end-of-stream) magic that follows cannot.
fn is_bzip2(head: &[u8]) -> bool {
    const BLOCK: [u8; 6] = [0x31, 0x41, 0x59, 0x26, 0x53, 0x59];
    const END: [u8; 6] = [0x17, 0x72, 0x45, 0x38, 0x50, 0x90];
    head.len() >= 10
        && head.starts_with(b"BZh")
        && (b'1'..=b'9').contains(&head[3])
        && (head[4..10] == BLOCK || head[4..10] == END)
}

/// Open `input` as a buffered byte stream, decompressed when compressed; counts the raw bytes
/// read into `count` (for progress).
pub fn open_source(input: &Input, count: Arc<AtomicU64>) -> Result<Source, InputError> {
    let label = input.label();
    let path = match input {
        Input::Stdin => {
            let stdin = Counting {
                inner: io::stdin(),
                count,
            };
            return decode(BufReader::with_capacity(BUFFER, stdin), &label);
        }
        Input::Path(p) if p.is_dir() => return Err(InputError::IsDirectory { path: label }),
        Input::Path(p) => p,
    };
    let open = || {
        File::open(path).map_err(|e| InputError::Open {
            path: label.clone(),
            cause: e,
        })
    };
    let mut buffered = BufReader::with_capacity(
        BUFFER,
        Counting {
            inner: open()?,
            count: count.clone(),
        },
    );
    let head = buffered.fill_buf().map_err(|e| InputError::Read {
        path: label.clone(),
        line: 0,
        cause: e,
    })?;
    if Compression::detect(head) == Some(Compression::Zip) {
        let file = Counting {
            inner: open()?,
            count,
        };
        let member = zip_member(file, &label)?;
        return Ok(Box::new(BufReader::with_capacity(BUFFER, member)));
    }
    decode(buffered, &label)
}

/// `src` through the decoder its first bytes call for, or as it is when they name no
/// compression. A zip archive needs its file (the index is at the end), so in a stream it is
/// refused with a hint.
pub fn decode<B: BufRead + Send + 'static>(mut src: B, label: &str) -> Result<Source, InputError> {
    let read_err = |e| InputError::Read {
        path: label.to_string(),
        line: 0,
        cause: e,
    };
    let head = src.fill_buf().map_err(read_err)?;
    let mut decoded: Box<dyn Read + Send> = match Compression::detect(head) {
        None => return Ok(Box::new(src)),
        Some(Compression::Gzip) => Box::new(flate2::bufread::MultiGzDecoder::new(src)),
        Some(Compression::Zstd) => {
            Box::new(zstd::stream::read::Decoder::with_buffer(src).map_err(read_err)?)
        }
        Some(Compression::Xz) => Box::new(liblzma::bufread::XzDecoder::new_multi_decoder(src)),
        Some(Compression::Bzip2) => Box::new(bzip2::bufread::MultiBzDecoder::new(src)),
        Some(Compression::Zip) => {
            return Err(InputError::Archive {
                path: label.to_string(),
                message: "a zip archive cannot be read from a stream such as stdin (its index \
                          is at the end); pass the file's path, or pipe it through `unzip -p`"
                    .into(),
            })
        }
    };
    let threaded = on_thread("decode", label, move |tx| pump(&mut decoded, tx))?;
    Ok(Box::new(BufReader::with_capacity(BUFFER, threaded)))
}

/// The one file of a zip archive, inflated on its own thread.
fn zip_member(file: Counting<File>, label: &str) -> Result<Box<dyn Read + Send>, InputError> {
    let archive_err = |message: String| InputError::Archive {
        path: label.to_string(),
        message,
    };
    let mut archive = zip::ZipArchive::new(file)
        .map_err(|e| archive_err(format!("not a readable zip archive ({e}); truncated?")))?;
    let index = only_member(&mut archive, label).map_err(archive_err)?;
    on_thread("unzip", label, move |tx| match archive.by_index(index) {
        Ok(mut member) => pump(&mut member, tx),
        Err(e) => {
            let _ = tx.send(Err(io::Error::new(io::ErrorKind::InvalidData, e)));
        }
    })
}

/// The data `produce` sends, read from a thread of its own (a decoder's work then runs beside
/// the parsing of what it already decoded).
fn on_thread(
    name: &str,
    label: &str,
    produce: impl FnOnce(&mpsc::SyncSender<io::Result<Vec<u8>>>) + Send + 'static,
) -> Result<Box<dyn Read + Send>, InputError> {
    let (tx, rx) = mpsc::sync_channel::<io::Result<Vec<u8>>>(4);
    std::thread::Builder::new()
        .name(name.into())
        .spawn(move || produce(&tx))
        .map_err(|e| InputError::Read {
            path: label.to_string(),
            line: 0,
            cause: e,
        })?;
    Ok(Box::new(ChannelReader {
        rx,
        chunk: Vec::new(),
        at: 0,
    }))
}

/// The index of the one file of `archive` (folders and macOS metadata aside), or why there is
/// not exactly one.
fn only_member(
    archive: &mut zip::ZipArchive<Counting<File>>,
    label: &str,
) -> Result<usize, String> {
    let members: Vec<(usize, String)> = (0..archive.len())
        .filter_map(|i| {
            let entry = archive.by_index_raw(i).ok()?;
            let name = entry.name().to_string();
            (!entry.is_dir() && !name.starts_with("__MACOSX/")).then_some((i, name))
        })
        .collect();
    match members.as_slice() {
        [(i, _)] => Ok(*i),
        [] => Err("the zip archive holds no file".into()),
        several => {
            let names: Vec<&str> = several.iter().map(|(_, n)| n.as_str()).collect();
            Err(format!(
                "the zip archive holds {} files ({}); read one with `unzip -p {label} {} | \
                 sudoku-batch ... -`",
                names.len(),
                names.join(", "),
                names[0]
            ))
        }
    }
}

/// Send `data` chunk by chunk until it ends, fails, or the receiver hangs up.
fn pump(data: &mut impl Read, tx: &mpsc::SyncSender<io::Result<Vec<u8>>>) {
    loop {
        let mut chunk = vec![0u8; BUFFER];
        match data.read(&mut chunk) {
            Ok(0) => return,
            Ok(n) => {
                chunk.truncate(n);
                // The reader hung up (the run stopped early): nothing more to do.
                if tx.send(Ok(chunk)).is_err() {
                    return;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                let _ = tx.send(Err(e));
                return;
            }
        }
    }
}

/// Reads the chunks a producer thread sends; the channel closing is the end of the data.
struct ChannelReader {
    rx: mpsc::Receiver<io::Result<Vec<u8>>>,
    chunk: Vec<u8>,
    at: usize,
}

impl Read for ChannelReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.chunk.len() {
            match self.rx.recv() {
                Ok(chunk) => {
                    self.chunk = chunk?;
                    self.at = 0;
                }
                Err(mpsc::RecvError) => return Ok(0),
            }
        }
        let n = buf.len().min(self.chunk.len() - self.at);
        buf[..n].copy_from_slice(&self.chunk[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_recognised_by_their_first_bytes() {
        assert_eq!(
            Compression::detect(b"\x1f\x8b\x08"),
            Some(Compression::Gzip)
        );
        assert_eq!(
            Compression::detect(b"\x28\xb5\x2f\xfd"),
            Some(Compression::Zstd)
        );
        assert_eq!(
            Compression::detect(b"\xfd7zXZ\x00\x00"),
            Some(Compression::Xz)
        );
        assert_eq!(
            Compression::detect(b"BZh91AY&SY..."),
            Some(Compression::Bzip2)
        );
        assert_eq!(Compression::detect(b"PK\x03\x04"), Some(Compression::Zip));
        // Text that merely starts like a magic number stays text.
        assert_eq!(Compression::detect(b"BZh9 is not a puzzle"), None);
        assert_eq!(Compression::detect(b"PK,solution"), None);
        assert_eq!(Compression::detect(b"4.....8.5.3"), None);
        assert_eq!(Compression::detect(b""), None);
    }
}
