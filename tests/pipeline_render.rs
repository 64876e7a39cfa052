//! Line records rendered on the workers (`pipeline::run_rendered` with `LineRender`, as
//! `solve --format line` runs) are the bytes the writer thread writes record by record
//! (`run_stages`), whatever the threads and batch size, with malformed, invalid and
//! unsolvable records among them, and when a collect step halts the run at any record.

use std::io::Write;

use sudoku_batch::io::{Input, OutputFormat, ReaderOptions, RecordReader};
use sudoku_batch::pipeline::{self, Halt, NoProgress, PipelineError};
use sudoku_batch::solve::{self, LineRender, RecordStatus, ResultWriter, SolvedRecord};
use sudoku_batch::solver::{Algorithm, Limits};

const SOLVABLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
/// Two 5s in the first row.
const INVALID: &str =
    "55..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const UNSOLVABLE: &str =
    ".....5.8....6.1.43..........1.5........1.6...3.......553.....61........4.........";

/// A line file of `n` records, every 37th malformed, every 53rd invalid, every 71st
/// unsolvable, with a comment line now and then (not a record).
fn input(dir: &std::path::Path, n: usize) -> Input {
    let path = dir.join(format!("in-{n}.txt"));
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    for i in 0..n {
        let line = match i {
            _ if i % 37 == 36 => "not a puzzle",
            _ if i % 53 == 52 => INVALID,
            _ if i % 71 == 70 => UNSOLVABLE,
            _ => SOLVABLE,
        };
        if i % 101 == 100 {
            writeln!(out, "# a comment").unwrap();
        }
        writeln!(out, "{line}").unwrap();
    }
    out.flush().unwrap();
    Input::Path(path)
}

/// The output of one run, and its error; `halt_at`: the collect step stops at that record
/// (0-based), as `--strict` does at a bad one.
fn run(
    input: &Input,
    threads: usize,
    batch: usize,
    rendered: bool,
    halt_at: Option<u64>,
) -> (Vec<u8>, Option<String>) {
    let reader = RecordReader::open(input, &ReaderOptions::default()).unwrap();
    let limits = Limits::solutions(1);
    let mut out = Vec::new();
    let mut writer = ResultWriter::new(&mut out, OutputFormat::Line, false);
    let mut seen = 0u64;
    let collect = |r: &mut SolvedRecord| {
        seen += 1;
        if Some(seen - 1) == halt_at {
            return Err(Halt {
                line: r.line,
                message: format!("stopped at {}", r.status().as_str()),
            });
        }
        Ok(())
    };
    let work = |r| solve::solve_record(r, Algorithm::Fast, &limits, false);
    let render = rendered.then_some(&LineRender as &dyn pipeline::Render<SolvedRecord>);
    let result = pipeline::run_rendered(
        reader,
        threads,
        batch,
        &work,
        render,
        collect,
        &mut writer,
        &NoProgress,
    );
    writer.into_inner().unwrap();
    let error = match result {
        Ok(_) => None,
        Err(e @ PipelineError::Halted { .. }) => Some(e.to_string()),
        Err(e) => panic!("{e}"),
    };
    (out, error)
}

#[test]
fn rendered_lines_are_the_written_ones() {
    let dir = tempfile::tempdir().unwrap();
    let n = 3000;
    let input = input(dir.path(), n);
    let (expected, none) = run(&input, 1, 4096, false, None);
    assert!(none.is_none());
    let text = String::from_utf8(expected.clone()).unwrap();
    assert_eq!(text.lines().count(), n);
    for status in [
        RecordStatus::Malformed,
        RecordStatus::Invalid,
        RecordStatus::Unsolvable,
    ] {
        assert!(
            text.lines().any(|l| l == status.as_str()),
            "{status:?} in the test"
        );
    }
    for threads in [1, 2] {
        for batch in [1, 7, 100, 4096] {
            let (got, none) = run(&input, threads, batch, true, None);
            assert!(none.is_none());
            assert!(got == expected, "threads {threads}, batch {batch}");
        }
    }
}

#[test]
fn a_halt_inside_a_block_writes_the_records_before_it() {
    let dir = tempfile::tempdir().unwrap();
    let n = 2500;
    let input = input(dir.path(), n);
    let (all, _) = run(&input, 1, 4096, false, None);
    let lines: Vec<&[u8]> = all.split_inclusive(|&b| b == b'\n').collect();
    // The first record, records inside and at the ends of blocks and batches, the last one.
    for halt_at in [
        0, 1, 36, 59, 60, 61, 99, 100, 101, 777, 1023, 1024, 2048, 2499,
    ] {
        let expected: Vec<u8> = lines[..halt_at].concat();
        for (threads, batch) in [(1, 4096), (2, 4096), (2, 100), (2, 1024)] {
            let (plain, plain_error) = run(&input, threads, batch, false, Some(halt_at as u64));
            let (got, error) = run(&input, threads, batch, true, Some(halt_at as u64));
            assert!(
                plain == expected,
                "unrendered: halt at {halt_at}, batch {batch}"
            );
            assert!(
                got == expected,
                "halt at {halt_at}, threads {threads}, batch {batch}: {} bytes, expected {}",
                got.len(),
                expected.len()
            );
            assert!(error.is_some() && error == plain_error, "{error:?}");
        }
    }
}
