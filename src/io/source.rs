//! Byte sources: stdin or a file, decompressed when its first bytes say it is compressed.
//!
//! Formats are recognised by their magic bytes, never by the file name (a `.csv` that is
//! really gzip, or stdin from `curl`, is read right; a plain file named `.gz` is read as
//! text): gzip (several members, as `cat a.gz b.gz` makes), zstd (several frames), xz
//! (several streams), bzip2 (several streams) and zip. A zip archive must hold exactly one
//! file (directories and macOS `__MACOSX/` entries aside): several files would mean several
//! headers in one stream, so such an archive is refused with the member names and an
//! `unzip -p` hint. A zip is read through its central directory, so it must be a file, not
//! stdin or a FIFO.
//!
//! Every compressed input is decoded on a thread of its own, which hands 64 KiB chunks to
//! the reader through a bounded channel: decompression then runs beside the reading and
//! parsing of what it already produced instead of in series with it (for the zip member it
//! also gives the `zip` crate's reader, which borrows the archive, an owner).
//!
//! A stream (a pipe, a FIFO, a terminal: anything but a regular file) is read on a thread of
//! its own too ([`Source::Stream`]), so the record reader can look at what has arrived
//! without waiting ([`StreamReader::arrived`]): a batch then ends when the next record has not
//! arrived whole, instead of waiting for the producer to fill it. So `tail -f log |
//! sudoku-batch solve -` answers each puzzle as it comes, and a `--strict` halt is reported at
//! once. A regular file is read directly; its batches are always full.
//!
//! Truncated or corrupt compressed data surfaces as a read error when the reader gets there:
//! the records before it are processed and written, then the run stops with exit code 2.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::Arc;

use crate::error::InputError;
use crate::io::reader::Input;
use crate::limits::{show_bytes, MAX_DECODER_WINDOW, MAX_ZIP_ENTRIES, MAX_ZIP_INDEX};

/// The buffer size of sources and decoders.
pub const BUFFER: usize = 1 << 16;

/// A buffered stream of the input's (decompressed) bytes.
pub enum Source {
    /// A regular file, or what a thread decodes from one, or any reader a caller gives:
    /// batches read from it are full.
    Buffered(Box<dyn BufRead + Send>),
    /// A stream read on a thread of its own: what has arrived can be looked at without
    /// waiting for the producer.
    Stream(Box<StreamReader>),
}

impl Source {
    /// A reader given by a caller (reads from it may wait; batches are always full).
    pub fn buffered(src: impl BufRead + Send + 'static) -> Source {
        Source::Buffered(Box::new(src))
    }

    /// The stream's reader, when this is a stream.
    pub fn stream(&mut self) -> Option<&mut StreamReader> {
        match self {
            Source::Buffered(_) => None,
            Source::Stream(s) => Some(s),
        }
    }

    /// [`stream`](Self::stream), to look at.
    pub fn stream_ref(&self) -> Option<&StreamReader> {
        match self {
            Source::Buffered(_) => None,
            Source::Stream(s) => Some(s),
        }
    }
}

impl Read for Source {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Source::Buffered(r) => r.read(buf),
            Source::Stream(r) => r.read(buf),
        }
    }
}

impl BufRead for Source {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        match self {
            Source::Buffered(r) => r.fill_buf(),
            Source::Stream(r) => r.fill_buf(),
        }
    }

    fn consume(&mut self, n: usize) {
        match self {
            Source::Buffered(r) => r.consume(n),
            Source::Stream(r) => r.consume(n),
        }
    }
}

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
            if stdin_is_file() {
                let src = Source::buffered(BufReader::with_capacity(BUFFER, stdin));
                return decode(src, &label);
            }
            return read_stream(stdin, &label);
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
    let file = open()?;
    if !file.metadata().is_ok_and(|m| m.file_type().is_file()) {
        // A FIFO, a device, a socket: read as it comes (and never opened twice).
        return read_stream(Counting { inner: file, count }, &label);
    }
    let counted = Counting {
        inner: file,
        count: count.clone(),
    };
    let mut buffered = BufReader::with_capacity(BUFFER, counted);
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
        return zip_member(file, &label);
    }
    decode(Source::buffered(buffered), &label)
}

/// A stream read on a thread of its own, then decoded when compressed.
fn read_stream(mut stream: impl Read + Send + 'static, label: &str) -> Result<Source, InputError> {
    let reader = on_thread("input", label, move |feed| pump(&mut stream, feed))?;
    decode(Source::Stream(Box::new(reader)), label)
}

/// Whether stdin is a regular file (`< file`) rather than a pipe or a terminal.
fn stdin_is_file() -> bool {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        io::stdin()
            .as_fd()
            .try_clone_to_owned()
            .map(File::from)
            .and_then(|f| f.metadata())
            .is_ok_and(|m| m.file_type().is_file())
    }
    #[cfg(not(unix))]
    {
        false
    }
}

/// `src` through the decoder its first bytes call for, or as it is when they name no
/// compression. A zip archive needs its file (the index is at the end), so in a stream it is
/// refused with a hint. A stream's decoded bytes are a stream too.
pub fn decode(mut src: Source, label: &str) -> Result<Source, InputError> {
    let read_err = |e| InputError::Read {
        path: label.to_string(),
        line: 0,
        cause: e,
    };
    let stream = src.stream().is_some();
    let head = src.fill_buf().map_err(read_err)?;
    let mut decoded: Box<dyn Read + Send> = match Compression::detect(head) {
        None => return Ok(src),
        Some(Compression::Gzip) => Box::new(flate2::bufread::MultiGzDecoder::new(src)),
        Some(Compression::Zstd) => {
            let mut decoder = zstd::stream::read::Decoder::with_buffer(src).map_err(read_err)?;
            decoder
                .window_log_max(MAX_DECODER_WINDOW.ilog2())
                .map_err(read_err)?;
            Box::new(Windowed {
                inner: decoder,
                fix: "zstd -19 or lower (without --long or --ultra)",
            })
        }
        Some(Compression::Xz) => {
            // The window, and about what xz itself needs beside it (xz -8: 33 MiB in all).
            let memlimit = MAX_DECODER_WINDOW + (2 << 20);
            let stream = liblzma::stream::Stream::new_stream_decoder(
                memlimit,
                liblzma::stream::CONCATENATED,
            )
            .map_err(|e| read_err(e.into()))?;
            Box::new(Windowed {
                inner: liblzma::bufread::XzDecoder::new_stream(src, stream),
                fix: "xz -8 or lower",
            })
        }
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
    let threaded = on_thread("decode", label, move |feed| pump(&mut decoded, feed))?;
    Ok(if stream {
        Source::Stream(Box::new(threaded))
    } else {
        Source::Buffered(Box::new(threaded))
    })
}

/// A zstd or xz decoder, whose refusal of a window larger than [`MAX_DECODER_WINDOW`] it
/// says plainly, with the fix.
struct Windowed<R> {
    inner: R,
    fix: &'static str,
}

impl<R: Read> Read for Windowed<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).map_err(|e| {
            // zstd: "Frame requires too much memory for decoding"; liblzma: "memory limit
            // reached".
            let text = e.to_string();
            if !(text.contains("too much memory") || text.contains("memory limit")) {
                return e;
            }
            io::Error::new(
                io::ErrorKind::OutOfMemory,
                format!(
                    "the compressed stream needs a window larger than {}, the limit that keeps \
                     memory bounded; recompress it with {}",
                    show_bytes(MAX_DECODER_WINDOW),
                    self.fix
                ),
            )
        })
    }
}

/// The entries and bytes of a zip archive's index (central directory), as its end record
/// (or the zip64 one) gives them; `None` when there is none to find (the zip reader then
/// says what is wrong).
fn zip_index(file: &mut File) -> io::Result<Option<(u64, u64)>> {
    let len = file.metadata()?.len();
    // The end record: 22 bytes and a comment of up to 65,535.
    let tail_len = len.min(22 + 0xFFFF);
    let mut tail = vec![0u8; tail_len as usize];
    file.seek(SeekFrom::Start(len - tail_len))?;
    file.read_exact(&mut tail)?;
    let Some(end) = (0..tail.len().saturating_sub(21))
        .rev()
        .find(|&i| tail[i..].starts_with(b"PK\x05\x06"))
    else {
        return Ok(None);
    };
    let le = |b: &[u8]| b.iter().rev().fold(0u64, |n, &x| n << 8 | u64::from(x));
    let (entries, size) = (le(&tail[end + 10..end + 12]), le(&tail[end + 12..end + 16]));
    if entries != 0xFFFF && size != 0xFFFF_FFFF {
        return Ok(Some((entries, size)));
    }
    // Zip64: a locator just before the end record points at the zip64 end record.
    let Some(locator) = end.checked_sub(20).map(|l| &tail[l..end]) else {
        return Ok(None);
    };
    if !locator.starts_with(b"PK\x06\x07") {
        return Ok(None);
    }
    let mut record = [0u8; 56];
    file.seek(SeekFrom::Start(le(&locator[8..16])))?;
    if file.read_exact(&mut record).is_err() || !record.starts_with(b"PK\x06\x06") {
        return Ok(None);
    }
    Ok(Some((le(&record[32..40]), le(&record[40..48]))))
}

/// The one file of a zip archive, inflated on its own thread.
fn zip_member(mut file: Counting<File>, label: &str) -> Result<Source, InputError> {
    let archive_err = |message: String| InputError::Archive {
        path: label.to_string(),
        message,
    };
    // The zip reader keeps its whole index in memory: a small one is asked for first.
    let index = zip_index(&mut file.inner).map_err(|e| InputError::Read {
        path: label.to_string(),
        line: 0,
        cause: e,
    })?;
    if let Some((entries, bytes)) = index {
        if entries > MAX_ZIP_ENTRIES || bytes > MAX_ZIP_INDEX {
            return Err(InputError::Limit {
                path: label.to_string(),
                line: 0,
                message: format!(
                    "the zip archive lists {entries} entries in an index of {bytes} bytes, \
                     more than the limits ({MAX_ZIP_ENTRIES} entries, {}); a puzzle archive \
                     holds one file: extract it with `unzip -p`",
                    show_bytes(MAX_ZIP_INDEX)
                ),
            });
        }
    }
    file.inner.rewind().map_err(|e| InputError::Read {
        path: label.to_string(),
        line: 0,
        cause: e,
    })?;
    let mut archive = zip::ZipArchive::new(file)
        .map_err(|e| archive_err(format!("not a readable zip archive ({e}); truncated?")))?;
    let index = only_member(&mut archive, label).map_err(archive_err)?;
    let member = on_thread("unzip", label, move |feed| match archive.by_index(index) {
        Ok(mut member) => pump(&mut member, feed),
        Err(e) => {
            let _ = feed
                .tx
                .send(Err(io::Error::new(io::ErrorKind::InvalidData, e)));
        }
    })?;
    Ok(Source::Buffered(Box::new(member)))
}

/// The data `produce` sends, read from a thread of its own (a decoder's work then runs beside
/// the parsing of what it already decoded; a stream's reads wait there, not in the reader).
fn on_thread(
    name: &str,
    label: &str,
    produce: impl FnOnce(&Feed) + Send + 'static,
) -> Result<StreamReader, InputError> {
    let (tx, rx) = mpsc::sync_channel::<io::Result<Vec<u8>>>(CHUNKS);
    let (spare_tx, spare) = mpsc::sync_channel::<Vec<u8>>(CHUNKS + 2);
    let feed = Feed { tx, spare };
    std::thread::Builder::new()
        .name(name.into())
        .spawn(move || produce(&feed))
        .map_err(|e| InputError::Read {
            path: label.to_string(),
            line: 0,
            cause: e,
        })?;
    Ok(StreamReader {
        rx,
        spare: spare_tx,
        chunk: Vec::new(),
        at: 0,
        queued: VecDeque::new(),
        closed: false,
        #[cfg(test)]
        on_wait: None,
    })
}

/// Chunks sent ahead of the reader by [`on_thread`]'s thread.
const CHUNKS: usize = 4;

/// [`on_thread`]'s thread's side: the channel of chunks, and the chunks the reader is done
/// with, to fill again (no allocation per chunk).
struct Feed {
    tx: mpsc::SyncSender<io::Result<Vec<u8>>>,
    spare: mpsc::Receiver<Vec<u8>>,
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
            // The first names, not all: a message stays a line.
            let mut names: Vec<&str> = several.iter().take(5).map(|(_, n)| n.as_str()).collect();
            let first = names[0];
            if several.len() > names.len() {
                names.push("...");
            }
            Err(format!(
                "the zip archive holds {} files ({}); read one with `unzip -p {label} {first} | \
                 sudoku-batch ... -`",
                several.len(),
                names.join(", "),
            ))
        }
    }
}

/// Send `data` chunk by chunk until it ends, fails, or the receiver hangs up.
fn pump(data: &mut impl Read, feed: &Feed) {
    let mut chunk = Vec::new();
    loop {
        if chunk.is_empty() {
            chunk = feed.spare.try_recv().unwrap_or_default();
        }
        // Zeroes only what a chunk given back lacks (a new one: all of it).
        chunk.resize(BUFFER, 0);
        match data.read(&mut chunk) {
            Ok(0) => return,
            Ok(n) => {
                chunk.truncate(n);
                // The reader hung up (the run stopped early): nothing more to do.
                if feed.tx.send(Ok(std::mem::take(&mut chunk))).is_err() {
                    return;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                let _ = feed.tx.send(Err(e));
                return;
            }
        }
    }
}

/// Reads the chunks a producer thread sends, straight from them (no copy into a buffer of its
/// own); the channel closing is the end of the data. What has arrived can be looked at
/// without waiting ([`arrived`](Self::arrived)).
pub struct StreamReader {
    rx: mpsc::Receiver<io::Result<Vec<u8>>>,
    /// Chunks read, back to the thread to fill again.
    spare: mpsc::SyncSender<Vec<u8>>,
    chunk: Vec<u8>,
    at: usize,
    /// Chunks (or an error) received by [`arrived`](Self::arrived), not read yet.
    queued: VecDeque<io::Result<Vec<u8>>>,
    /// The channel has closed (the producer is done).
    closed: bool,
    /// Tests: told when a read is about to wait for the producer.
    #[cfg(test)]
    on_wait: Option<Box<dyn Fn() + Send>>,
}

impl StreamReader {
    /// A reader of the chunks sent on `rx` (tests: the sender stands for the producer);
    /// `on_wait` is called whenever a read is about to wait for it.
    #[cfg(test)]
    pub(crate) fn from_channel(
        rx: mpsc::Receiver<io::Result<Vec<u8>>>,
        on_wait: Box<dyn Fn() + Send>,
    ) -> StreamReader {
        StreamReader {
            rx,
            spare: mpsc::sync_channel(1).0,
            chunk: Vec::new(),
            at: 0,
            queued: VecDeque::new(),
            closed: false,
            on_wait: Some(on_wait),
        }
    }

    /// Take in what the producer has sent so far, without waiting (see
    /// [`arrived`](Self::arrived)).
    pub fn receive(&mut self) {
        // Bounded like the channel, or a fast producer would never wait and memory would
        // grow with the input (what is not taken in only makes a batch end early).
        while !self.closed && self.queued.len() < CHUNKS {
            match self.rx.try_recv() {
                Ok(chunk) => self.queued.push_back(chunk),
                Err(mpsc::TryRecvError::Empty) => break,
                Err(mpsc::TryRecvError::Disconnected) => self.closed = true,
            }
        }
    }

    /// The bytes taken in and not read yet, in order, chunk by chunk; and whether reading
    /// past them returns at once (the stream's end, or an error, is there) rather than
    /// waiting for the producer. Call [`receive`](Self::receive) first.
    pub fn arrived(&self) -> (impl Iterator<Item = &[u8]>, bool) {
        let then = self.closed || self.queued.iter().any(Result::is_err);
        let queued = self.queued.iter().map_while(|c| c.as_deref().ok());
        (std::iter::once(&self.chunk[self.at..]).chain(queued), then)
    }
}

impl BufRead for StreamReader {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.at == self.chunk.len() {
            let next = match self.queued.pop_front() {
                Some(next) => next,
                None if self.closed => break,
                None => match self.rx.try_recv() {
                    Ok(next) => next,
                    Err(mpsc::TryRecvError::Disconnected) => {
                        self.closed = true;
                        break;
                    }
                    Err(mpsc::TryRecvError::Empty) => {
                        #[cfg(test)]
                        if let Some(on_wait) = &self.on_wait {
                            on_wait();
                        }
                        match self.rx.recv() {
                            Ok(next) => next,
                            Err(mpsc::RecvError) => {
                                self.closed = true;
                                break;
                            }
                        }
                    }
                },
            };
            let done = std::mem::replace(&mut self.chunk, next?);
            if done.capacity() > 0 {
                let _ = self.spare.try_send(done);
            }
            self.at = 0;
        }
        Ok(&self.chunk[self.at..])
    }

    fn consume(&mut self, n: usize) {
        self.at = (self.at + n).min(self.chunk.len());
    }
}

impl Read for StreamReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let avail = self.fill_buf()?;
        let n = buf.len().min(avail.len());
        buf[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
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
