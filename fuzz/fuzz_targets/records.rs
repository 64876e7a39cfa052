//! The record readers on arbitrary input, in every input format: no panic, one record per
//! line at most, line numbers never go backwards, errors render as text.
#![no_main]

use std::io::Cursor;

use libfuzzer_sys::fuzz_target;
use sudoku_batch::io::{Column, InputFormat, ReaderOptions, RecordReader};

const FORMATS: [InputFormat; 5] = [
    InputFormat::Auto,
    InputFormat::Lines,
    InputFormat::Csv,
    InputFormat::Block,
    InputFormat::Board,
];

fuzz_target!(|data: &[u8]| {
    // The first byte picks the format and the CSV column option; the rest is the input.
    let Some((&mode, input)) = data.split_first() else {
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
    };
    let src = Box::new(Cursor::new(input.to_vec()));
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
    loop {
        match reader.next_record() {
            Ok(Some(r)) => {
                assert!(
                    r.line >= last,
                    "line numbers go back: {} after {last}",
                    r.line
                );
                assert!(r.line <= line_breaks + 1, "line {} past the end", r.line);
                last = r.line;
                records += 1;
                assert!(records <= line_breaks + 1, "more records than lines");
                match &r.puzzle {
                    Ok(g) => assert_eq!(g.to_line().len(), 81),
                    Err(e) => assert!(!e.to_string().is_empty()),
                }
            }
            Ok(None) => break,
            Err(e) => {
                assert!(!e.to_string().is_empty());
                break;
            }
        }
    }
});
