//! `--shard K/N`: the K-th of N contiguous byte ranges of a plain file, aligned to line starts,
//! with line numbers that continue those of the shards before it.

use super::*;

/// The first line start at or after byte `at` of `file` (0 stays 0; the file length when none).
pub(super) fn line_start_at(file: &mut File, at: u64, len: u64) -> io::Result<u64> {
    if at == 0 || at >= len {
        return Ok(at.min(len));
    }
    file.seek(SeekFrom::Start(at - 1))?;
    let mut r = BufReader::with_capacity(BUFFER, file.take(len - (at - 1)));
    // Searched buffer by buffer, not read into one: a line may be gigabytes long.
    let mut skipped = 0u64;
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            return Ok(at - 1 + skipped);
        }
        if let Some(i) = memchr::memchr(b'\n', buf) {
            return Ok(at - 1 + skipped + i as u64 + 1);
        }
        let n = buf.len();
        skipped += n as u64;
        r.consume(n);
    }
}

/// Count the line breaks in the first `end` bytes of `file`.
pub(super) fn lines_before(file: &mut File, end: u64) -> io::Result<u64> {
    file.seek(SeekFrom::Start(0))?;
    let mut r = BufReader::with_capacity(BUFFER, file.take(end));
    let mut count = 0u64;
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            return Ok(count);
        }
        count += buf.iter().filter(|&&b| b == b'\n').count() as u64;
        let n = buf.len();
        r.consume(n);
    }
}

/// The bytes of shard `k` of `n` of `file` (`len` bytes, starting with `head`), with the
/// header line in front for a CSV shard after the first; and the line offset of its records.
fn shard_source(
    mut file: File,
    head: &[u8],
    (k, n, len): (u64, u64, u64),
    is_csv: bool,
    bytes: Arc<AtomicU64>,
) -> io::Result<(Box<dyn Read + Send>, u64)> {
    // In 128 bits: `len * k` overflows 64 for a large file and a large N.
    let at = |k: u64| (u128::from(len) * u128::from(k) / u128::from(n)) as u64;
    let start = line_start_at(&mut file, at(k - 1), len)?;
    let end = line_start_at(&mut file, at(k), len)?;
    let before = lines_before(&mut file, start)?;
    // The header line of a CSV shard after the first, read again when it is longer than
    // `head`, at most one byte past the record limit (the CSV reader refuses a longer one,
    // as in the first shard).
    let header = match head.iter().position(|&b| b == b'\n') {
        _ if !is_csv || start == 0 => None,
        Some(i) => Some(head[..=i].to_vec()),
        None => {
            file.seek(SeekFrom::Start(0))?;
            let mut header = Vec::new();
            let mut first = BufReader::new((&mut file).take(MAX_LINE as u64 + 1));
            first.read_until(b'\n', &mut header)?;
            Some(header)
        }
    };
    file.seek(SeekFrom::Start(start))?;
    let body = Counting {
        inner: file.take(end - start),
        count: bytes,
    };
    Ok(match header {
        Some(header) => (Box::new(io::Cursor::new(header).chain(body)), before - 1),
        None => (Box::new(body), before),
    })
}

/// Open shard `k` of `n` of a plain file (see [`ReaderOptions::shard`]). A CSV shard other
/// than the first reads the header line first, so columns are found the same way.
pub(super) fn open_shard(
    input: &Input,
    k: u64,
    n: u64,
    bytes: Arc<AtomicU64>,
    options: &ReaderOptions,
) -> Result<RecordReader, InputError> {
    let label = input.label();
    let Input::Path(path) = input else {
        return Err(InputError::Shard {
            path: label,
            message: "needs a file, not stdin".into(),
        });
    };
    if !(1..=n).contains(&k) {
        return Err(InputError::Shard {
            path: label,
            message: format!("shard {k}/{n}: K must be 1 to N"),
        });
    }
    let io_err = |e| InputError::Read {
        path: label.clone(),
        line: 0,
        cause: e,
    };
    let mut file = File::open(path).map_err(|e| InputError::Open {
        path: label.clone(),
        cause: e,
    })?;
    let len = file.metadata().map_err(io_err)?.len();
    let mut head = vec![0u8; len.min(BUFFER as u64) as usize];
    file.read_exact(&mut head).map_err(io_err)?;
    if Compression::detect(&head).is_some() {
        return Err(InputError::Shard {
            path: label,
            message: "cannot shard a compressed file".into(),
        });
    }
    let (format, _) = detect(&head);
    let is_csv = options.format == InputFormat::Csv
        || (options.format == InputFormat::Auto && format == InputFormat::Csv);
    let (src, offset) =
        shard_source(file, &head, (k, n, len), is_csv, bytes.clone()).map_err(io_err)?;
    let options = ReaderOptions {
        format: if is_csv {
            InputFormat::Csv
        } else {
            options.format
        },
        ..options.clone()
    };
    let mut reader = RecordReader::with_source(
        Source::buffered(BufReader::with_capacity(BUFFER, src)),
        label,
        bytes,
        &options,
    )?;
    reader.line_offset = offset;
    Ok(reader)
}
