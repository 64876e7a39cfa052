//! The record readers on arbitrary input, in every input format, plain or compressed: no
//! panic, one record per line at most, line numbers never go backwards, errors render as
//! text. The second byte can compress the input first (gzip, zstd, xz, bzip2), so the
//! decoders see valid streams as well as the corrupt ones raw bytes make.
#![no_main]

use std::io::{Cursor, Write};

use libfuzzer_sys::fuzz_target;
use sudoku_batch::io::{Column, InputFormat, RawBatch, ReaderOptions, RecordReader};

const FORMATS: [InputFormat; 5] = [
    InputFormat::Auto,
    InputFormat::Lines,
    InputFormat::Csv,
    InputFormat::Block,
    InputFormat::Board,
];

/// `text` compressed as the `how` byte says (or `None`: left as it is).
fn compress(how: u8, text: &[u8]) -> Option<Vec<u8>> {
    Some(match how % 8 {
        0 => {
            let mut w = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            w.write_all(text).ok()?;
            w.finish().ok()?
        }
        1 => zstd::stream::encode_all(text, 1).ok()?,
        2 => {
            let mut w = liblzma::write::XzEncoder::new(Vec::new(), 0);
            w.write_all(text).ok()?;
            w.finish().ok()?
        }
        3 => {
            let mut w = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
            w.write_all(text).ok()?;
            w.finish().ok()?
        }
        _ => return None,
    })
}

fuzz_target!(|data: &[u8]| {
    // The first byte picks the format and the CSV column option, the second the compression (and
    // whether the record text is kept, and the listed solutions skipped);
    // the rest is the input.
    let Some((&[mode, how], input)) = data.split_first_chunk::<2>() else {
        return;
    };
    let column = match mode >> 4 {
        0 => Some(Column::Index(usize::from(mode & 3))),
        1 => Some(Column::Name("quizzes".into())),
        _ => None,
    };
    let options = ReaderOptions {
        format: FORMATS[usize::from(mode & 0x0f) % FORMATS.len()],
        column,
        shard: None,
        keep_text: how & 0x10 != 0,
        skip_solutions: how & 0x20 != 0,
    };
    let compressed = compress(how, input);
    // Raw bytes that start like a compressed stream may decode to more lines than they hold:
    // the line bounds below are checked on known text only.
    let known_text = compressed.is_some()
        || !input
            .first()
            .is_some_and(|b| [0x1f, 0x28, 0xfd, b'B', b'P'].contains(b));
    let bytes = compressed.unwrap_or_else(|| input.to_vec());
    let src = Box::new(Cursor::new(bytes.clone()));
    let mut reader = match RecordReader::from_reader(src, "fuzz", &options) {
        Ok(r) => r,
        Err(e) => {
            let _ = e.to_string();
            return;
        }
    };
    let line_breaks = input.iter().filter(|&&b| b == b'\n' || b == b'\r').count() as u64;
    let mut last = 0u64;
    let mut records = 0u64;
    let mut read = Vec::new();
    let mut failed = false;
    loop {
        match reader.next_record() {
            Ok(Some(r)) => {
                read.push(r.clone());
                assert!(
                    r.line >= last,
                    "line numbers go back: {} after {last}",
                    r.line
                );
                if known_text {
                    assert!(r.line <= line_breaks + 1, "line {} past the end", r.line);
                }
                last = r.line;
                records += 1;
                assert!(
                    !known_text || records <= line_breaks + 1,
                    "more records than lines"
                );
                match &r.puzzle {
                    Ok(g) => assert_eq!(g.to_line().len(), 81),
                    Err(e) => assert!(!e.to_string().is_empty()),
                }
            }
            Ok(None) => break,
            Err(e) => {
                assert!(!e.to_string().is_empty());
                failed = true;
                break;
            }
        }
    }
    // Read in raw batches (parsed afterwards, as the pipeline's workers do), the same records
    // must come out, and the same failure.
    let src = Box::new(Cursor::new(bytes));
    let mut reader = RecordReader::from_reader(src, "fuzz", &options).expect("opened once");
    let max = 1 + usize::from(how >> 5);
    let mut raw = Vec::new();
    let raw_failed = loop {
        let mut batch = RawBatch::default();
        let got = reader.read_raw_batch(&mut batch, max);
        raw.extend(batch.into_records());
        match got {
            Ok(0) => break false,
            Ok(_) => {}
            Err(_) => break true,
        }
    };
    assert_eq!(raw, read, "raw batches give other records");
    assert_eq!(raw_failed, failed, "raw batches fail otherwise");
});
