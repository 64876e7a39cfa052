//! Line records rendered on the workers (`pipeline::run_rendered` with `line_render`, as
//! `solve --format line` runs) are the bytes the writer thread writes record by record
//! (`run_stages`), whatever the threads and batch size, with malformed, invalid and
//! unsolvable records among them, and when a collect step halts the run at any record. With
//! the fine records counted on the workers (`FoldFine`), the output is the same, a halt at
//! any bad record writes the records before it, and the counts are those made in input order.

use std::io::Write;

use sudoku_batch::engines::solver::{Algorithm, Limits};
use sudoku_batch::grid::Grid;
use sudoku_batch::io::{Input, OutputFormat, ReaderOptions, Record, RecordReader};
use sudoku_batch::jobs::records::RecordFormat;
use sudoku_batch::jobs::solve::summary::{RunInfo, SearchEffort, Summary};
use sudoku_batch::jobs::solve::{
    self, FoldFine, SolveFormat, SolveStatus, SolveWork, SolveWriter, SolvedRecord,
};
use sudoku_batch::pipeline::{self, Halt, NoProgress, OnWorkers, PipelineError, Work};
use sudoku_batch::stats::RunStats;

const SOLVABLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
/// Two 5s in the first row.
const INVALID: &str =
    "55..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
/// Solved after 215 guesses (forum_hardest_1106, line 3): the hardest, many times over.
const HARD: &str =
    "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";
/// `SOLVABLE` with a 1 that fits no solution: refuted by propagation (no guesses), so `HARD`
/// stays the hardest.
const UNSOLVABLE: &str =
    "531.7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/// A line file of `n` records, every 37th malformed, every 53rd invalid, every 71st
/// unsolvable, most 29th ones hard, with a comment line now and then (not a record).
fn input(dir: &std::path::Path, n: usize) -> Input {
    let path = dir.join(format!("in-{n}.txt"));
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    for i in 0..n {
        let line = match i {
            _ if i % 37 == 36 => "not a puzzle",
            _ if i % 53 == 52 => INVALID,
            _ if i % 71 == 70 => UNSOLVABLE,
            _ if i % 29 == 28 => HARD,
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

/// How a run makes its records: written one by one, rendered on the workers, or rendered and
/// with the fine ones counted on the workers (`FoldFine`), as `solve --format line` runs.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Mode {
    Plain,
    Rendered,
    Folded,
}

/// What one run gave: its output, its error, and the summary of what it counted (the collect
/// step's counts, plus the workers' parts when folded).
struct Run {
    out: Vec<u8>,
    error: Option<String>,
    summary: serde_json::Value,
}

/// The plain runs make a `Record` of every record; the others hand the common ones on bare
/// (`SolveWork::puzzle`), as `solve` does.
struct Solving<'a> {
    bare: bool,
    work: SolveWork<'a>,
}

impl Work<SolvedRecord> for Solving<'_> {
    fn record(&self, record: Record) -> SolvedRecord {
        self.work.record(record)
    }
    fn puzzle(&self, line: u64, puzzle: Grid) -> SolvedRecord {
        match self.bare {
            true => self.work.puzzle(line, puzzle),
            false => self.work.record(Record::plain(line, puzzle)),
        }
    }
}

/// One run of line records (see [`run_as`]).
fn run(input: &Input, threads: usize, batch: usize, mode: Mode, halt_line: Option<u64>) -> Run {
    run_as(OutputFormat::Line, input, (threads, batch), mode, halt_line)
}

/// One run with records in `format`; `halt_line`: the collect step stops at the record on
/// that line, as `--strict` does at a bad one. Rendered runs render as `solve` does: line
/// records with `line_render`, csv and jsonl ones with the writer's `renderer`.
fn run_as(
    format: OutputFormat,
    input: &Input,
    (threads, batch): (usize, usize),
    mode: Mode,
    halt_line: Option<u64>,
) -> Run {
    // As `solve` reads: a listed solution is not parsed; the text is kept for csv and jsonl.
    let keep = format != OutputFormat::Line;
    let options = ReaderOptions {
        skip_solutions: true,
        keep_text: keep,
        ..ReaderOptions::default()
    };
    let reader = RecordReader::open(input, &options).unwrap();
    let limits = Limits::solutions(1);
    let mut out = Vec::new();
    let mut writer = SolveWriter::new(&mut out, SolveFormat::new(format), false);
    writer.set_input("in", None).unwrap();
    let records = writer.renderer();
    let line = SolveFormat::line_render();
    let render = match &records {
        Some(records) => records as &dyn pipeline::Render<SolvedRecord>,
        None => &line,
    };
    let mut stats = RunStats::default();
    let mut effort = SearchEffort::default();
    let collect = |r: &mut SolvedRecord| {
        if Some(r.line) == halt_line {
            return Err(Halt {
                line: r.line,
                message: format!("stopped at {}", r.status().as_str()),
            });
        }
        solve::tally(&mut stats, r);
        effort.add("in", r);
        Ok(())
    };
    let fold = FoldFine {
        file: "in",
        limit: 1,
    };
    let on = OnWorkers {
        render: (mode != Mode::Plain).then_some(render),
        fold: (mode == Mode::Folded).then_some(&fold),
    };
    let work = Solving {
        bare: mode != Mode::Plain,
        work: SolveWork {
            algorithm: Algorithm::Fast,
            limits,
            keep,
        },
    };
    let result = pipeline::run_rendered(
        reader,
        threads,
        batch,
        &work,
        on,
        collect,
        &mut writer,
        &NoProgress,
    );
    writer.into_inner().unwrap();
    let error = match &result {
        Ok(_) => None,
        Err(e @ PipelineError::Halted { .. }) => Some(e.to_string()),
        Err(e) => panic!("{e}"),
    };
    if let Ok(ran) = result {
        assert!(mode == Mode::Folded || ran.parts.is_empty());
        let mut input = SearchEffort::default();
        for part in ran.parts {
            stats.merge(&part.stats);
            input.merge_same_input(part.effort);
        }
        effort.append(input);
    }
    let info = RunInfo {
        inputs: vec!["in".into()],
        algorithm: Algorithm::Fast,
        threads: 1,
        limit: 1,
    };
    let summary = serde_json::to_value(Summary::new(info, 1.0, stats, effort)).unwrap();
    Run {
        out,
        error,
        summary,
    }
}

#[test]
fn rendered_lines_are_the_written_ones() {
    let dir = tempfile::tempdir().unwrap();
    let n = 3000;
    let input = input(dir.path(), n);
    let expected = run(&input, 1, 4096, Mode::Plain, None);
    assert!(expected.error.is_none());
    let text = String::from_utf8(expected.out.clone()).unwrap();
    assert_eq!(text.lines().count(), n);
    // The hardest puzzle is the first of many as hard: the counts made on the workers must
    // name the same one.
    assert_eq!(expected.summary["hardest"]["line"], 29);
    for status in [
        SolveStatus::Malformed,
        SolveStatus::Invalid,
        SolveStatus::Unsolvable,
    ] {
        assert!(
            text.lines().any(|l| l == status.as_str()),
            "{status:?} in the test"
        );
    }
    for format in FORMATS {
        let expected = run_as(format, &input, (1, 4096), Mode::Plain, None);
        for mode in [Mode::Rendered, Mode::Folded] {
            for threads in [1, 2] {
                for batch in [1, 7, 100, 4096] {
                    let got = run_as(format, &input, (threads, batch), mode, None);
                    assert!(got.error.is_none());
                    let case = format!("{format:?} {mode:?}, threads {threads}, batch {batch}");
                    assert!(got.out == expected.out, "{case}");
                    assert_eq!(got.summary, expected.summary, "{case}");
                }
            }
        }
    }
}

/// The output formats, each rendered on the workers as `solve` renders it.
const FORMATS: [OutputFormat; 3] = [OutputFormat::Line, OutputFormat::Csv, OutputFormat::Jsonl];

/// Files whose lines (or CSV rows) are all one length and all records, the Kaggle files' shape:
/// the workers split them by width and get the puzzles bare (`SolveWork::puzzle`), which must
/// give what the records give (the plain runs), invalid, unsolvable and tied hardest ones too.
#[test]
fn lines_of_one_length_render_as_their_records() {
    let dir = tempfile::tempdir().unwrap();
    let n = 3000;
    let puzzle = |i: usize| match i {
        _ if i % 53 == 52 => INVALID,
        _ if i % 71 == 70 => UNSOLVABLE,
        _ if i % 29 == 28 => HARD,
        _ => SOLVABLE,
    };
    let lines = dir.path().join("same.txt");
    let rows = dir.path().join("same.csv");
    let text: Vec<String> = (0..n).map(|i| puzzle(i).to_string()).collect();
    std::fs::write(&lines, text.join("\n") + "\n").unwrap();
    let text: Vec<String> = (0..n)
        .map(|i| format!("{},{UNSOLVABLE}", puzzle(i)))
        .collect();
    std::fs::write(&rows, format!("puzzle,solution\n{}\n", text.join("\n"))).unwrap();
    for input in [Input::Path(lines), Input::Path(rows)] {
        let expected = run(&input, 1, 4096, Mode::Plain, None);
        assert!(expected.error.is_none());
        assert_eq!(String::from_utf8_lossy(&expected.out).lines().count(), n);
        for mode in [Mode::Rendered, Mode::Folded] {
            for threads in [1, 2] {
                for batch in [7, 100, 4096] {
                    let got = run(&input, threads, batch, mode, None);
                    let case = format!("{input:?} {mode:?}, threads {threads}, batch {batch}");
                    assert!(got.error.is_none(), "{case}");
                    assert!(got.out == expected.out, "{case}");
                    assert_eq!(got.summary, expected.summary, "{case}");
                }
            }
        }
    }
}

/// The line of each record and whether it is fine, in input order.
fn records(input: &Input) -> Vec<(u64, bool)> {
    let reader = RecordReader::open(input, &ReaderOptions::default()).unwrap();
    let limits = Limits::solutions(1);
    let mut seen = Vec::new();
    let work = |r| solve::solve_record(r, Algorithm::Fast, &limits, false);
    let collect = |r: &mut SolvedRecord| {
        seen.push((r.line, r.is_fine(1)));
        Ok(())
    };
    let mut sink = pipeline::Discard;
    pipeline::run_stages(reader, 1, 4096, &work, collect, &mut sink, &NoProgress).unwrap();
    seen
}

/// A run in `mode` halted at the record on `line` writes `expected` (the records before it)
/// and stops with the error a plain run gives; returns the plain run.
fn halted_like_plain(
    format: OutputFormat,
    input: &Input,
    (threads, batch): (usize, usize),
    mode: Mode,
    line: Option<u64>,
    expected: &[u8],
) -> Run {
    let plain = run_as(format, input, (threads, batch), Mode::Plain, line);
    let got = run_as(format, input, (threads, batch), mode, line);
    assert!(
        got.out == expected,
        "{format:?} {mode:?}: halt at line {line:?}, threads {threads}, batch {batch}: {} bytes, expected {}",
        got.out.len(),
        expected.len()
    );
    assert!(
        got.error.is_some() && got.error == plain.error,
        "{:?}",
        got.error
    );
    plain
}

#[test]
fn a_halt_inside_a_block_writes_the_records_before_it() {
    let dir = tempfile::tempdir().unwrap();
    let n = 2500;
    let input = input(dir.path(), n);
    let records = records(&input);
    assert_eq!(records.len(), n);
    for format in FORMATS {
        let all = run_as(format, &input, (1, 4096), Mode::Plain, None).out;
        let lines: Vec<&[u8]> = all.split_inclusive(|&b| b == b'\n').collect();
        assert_eq!(lines.len(), n);
        // The first record, records inside and at the ends of blocks and batches, the last.
        for halt_at in [
            0, 1, 36, 59, 60, 61, 99, 100, 101, 777, 1023, 1024, 2048, 2499,
        ] {
            let expected: Vec<u8> = lines[..halt_at].concat();
            let line = Some(records[halt_at].0);
            for (threads, batch) in [(1, 4096), (2, 4096), (2, 100), (2, 1024)] {
                let run = (threads, batch);
                let plain = halted_like_plain(format, &input, run, Mode::Rendered, line, &expected);
                assert!(
                    plain.out == expected,
                    "{format:?} unrendered: halt at {halt_at}, batch {batch}"
                );
            }
        }
    }
}

#[test]
fn a_halt_at_a_bad_record_writes_the_records_before_it_when_folded() {
    let dir = tempfile::tempdir().unwrap();
    let n = 2500;
    let input = input(dir.path(), n);
    let records = records(&input);
    // Every third bad record, and the last one (only bad ones reach the collect step).
    let bad: Vec<usize> = (0..n).filter(|&i| !records[i].1).collect();
    let mut halts: Vec<usize> = bad.iter().copied().step_by(3).collect();
    halts.push(*bad.last().unwrap());
    assert!(halts.len() > 40);
    for format in FORMATS {
        let all = run_as(format, &input, (1, 4096), Mode::Plain, None).out;
        let lines: Vec<&[u8]> = all.split_inclusive(|&b| b == b'\n').collect();
        for &halt_at in &halts {
            let expected: Vec<u8> = lines[..halt_at].concat();
            let line = Some(records[halt_at].0);
            for (threads, batch) in [(1, 4096), (2, 4096), (2, 100), (2, 7)] {
                let run = (threads, batch);
                halted_like_plain(format, &input, run, Mode::Folded, line, &expected);
            }
        }
    }
}
