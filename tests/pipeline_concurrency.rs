//! The threaded pipeline works on several batches at once (`pipeline::run_stages` with 2 or
//! more threads): whatever order the batches finish in, the records are collected and written
//! in input order; a halt, a failing writer, an input error or a panic in the work ends the
//! run (never a hang) with exactly the records before it written; and on an input that stays
//! open (a FIFO), a halt is reported without waiting for the input to end.

mod common;

use std::io::Write;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use sudoku_batch::io::{Input, InputFormat, ReaderOptions, Record, RecordReader};
use sudoku_batch::pipeline::{self, Halt, NoProgress, PipelineError, Sink};

const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/// Keeps the line of each record written; fails (a closed pipe) after `fail_after` records.
struct Lines {
    seen: Arc<Mutex<Vec<u64>>>,
    fail_after: Option<usize>,
}

impl Sink<(u64, bool)> for Lines {
    fn start(&mut self) -> std::io::Result<()> {
        Ok(())
    }
    fn write(&mut self, item: &(u64, bool)) -> std::io::Result<()> {
        let mut seen = self.seen.lock().unwrap();
        if Some(seen.len()) == self.fail_after {
            return Err(std::io::Error::from(std::io::ErrorKind::BrokenPipe));
        }
        seen.push(item.0);
        Ok(())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A line file of `n` copies of one puzzle.
fn file(dir: &std::path::Path, n: usize) -> Input {
    common::copies_file(dir, PUZZLE, n)
}

/// What a run should do besides working.
#[derive(Clone, Copy, Default)]
struct Run {
    threads: usize,
    batch: usize,
    /// The collect step halts at this line (it also halts at a malformed record).
    halt: Option<u64>,
    /// The sink fails after this many records.
    fail_after: Option<usize>,
    /// The work panics at this line.
    panic_at: Option<u64>,
}

/// The run's result (`Err`: it panicked) and the lines written, from another thread; panics
/// if the run does not end within a minute (a hang).
fn run(input: Input, how: Run) -> (Result<Result<u64, String>, String>, Vec<u64>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let written = seen.clone();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let reader = RecordReader::open(&input, &ReaderOptions::default()).unwrap();
            let mut sink = Lines {
                seen: written,
                fail_after: how.fail_after,
            };
            let work = |r: Record| {
                if Some(r.line) == how.panic_at {
                    panic!("the work panics at line {}", r.line);
                }
                // Every seventh batch slow, so that batches finish out of order.
                if (r.line - 1) / how.batch as u64 % 7 == 3 {
                    std::thread::sleep(Duration::from_micros(300));
                }
                (r.line, r.puzzle.is_ok())
            };
            let collect = |r: &mut (u64, bool)| {
                if Some(r.0) == how.halt || !r.1 {
                    return Err(Halt {
                        line: r.0,
                        message: "stop".into(),
                    });
                }
                Ok(())
            };
            pipeline::run_stages(
                reader,
                how.threads,
                how.batch,
                &work,
                collect,
                &mut sink,
                &NoProgress,
            )
            .map_err(|e: PipelineError| e.to_string())
        }));
        let _ = tx.send(ran.map_err(|_| "panicked".to_string()));
    });
    let ran = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("the run ends");
    let seen = seen.lock().unwrap().clone();
    (ran, seen)
}

#[test]
fn records_are_written_in_input_order_up_to_a_halt() {
    let dir = tempfile::tempdir().unwrap();
    let n = 1500;
    for threads in [2, 3, 5] {
        for batch in [1, 8, 13] {
            for halt in [None, Some(1), Some(9), Some(777), Some(n as u64)] {
                let how = Run {
                    threads,
                    batch,
                    halt,
                    ..Run::default()
                };
                let (ran, seen) = run(file(dir.path(), n), how);
                let upto = halt.map_or(n as u64, |h| h - 1);
                let what = format!("{threads} threads, batch {batch}, halt {halt:?}");
                assert_eq!(seen, (1..=upto).collect::<Vec<_>>(), "{what}");
                match halt {
                    None => assert_eq!(ran, Ok(Ok(n as u64)), "{what}"),
                    Some(h) => assert!(
                        matches!(&ran, Ok(Err(e)) if e.contains(&format!(":{h}: stop"))),
                        "{what}: {ran:?}"
                    ),
                }
            }
        }
    }
}

#[test]
fn a_panic_in_the_work_ends_the_run() {
    let dir = tempfile::tempdir().unwrap();
    for threads in [2, 4] {
        let how = Run {
            threads,
            batch: 8,
            panic_at: Some(700),
            ..Run::default()
        };
        let (ran, seen) = run(file(dir.path(), 2000), how);
        assert_eq!(ran, Err("panicked".to_string()));
        assert!(seen.len() < 700);
        assert!(seen.iter().copied().eq(1..=seen.len() as u64));
    }
}

#[test]
fn a_failing_writer_ends_the_run_after_its_records() {
    let dir = tempfile::tempdir().unwrap();
    for threads in [2, 4] {
        let how = Run {
            threads,
            batch: 8,
            fail_after: Some(100),
            ..Run::default()
        };
        let (ran, seen) = run(file(dir.path(), 5000), how);
        assert!(
            matches!(&ran, Ok(Err(e)) if e.contains("cannot write")),
            "{ran:?}"
        );
        assert_eq!(seen, (1..=100).collect::<Vec<_>>());
    }
}

#[test]
fn an_input_error_comes_after_the_records_before_it() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/bad/truncated.txt.gz");
    for threads in [2, 4] {
        for batch in [1, 16, 100] {
            let how = Run {
                threads,
                batch,
                ..Run::default()
            };
            let (ran, seen) = run(Input::Path(path.clone()), how);
            assert!(
                matches!(&ran, Ok(Err(e)) if e.contains("read error")),
                "{ran:?}"
            );
            assert_eq!(seen, (1..=888).collect::<Vec<_>>(), "{threads} {batch}");
        }
    }
}

/// The input stays open after its records (a FIFO whose writer waits): a bad record among
/// them halts the run, and the run ends while the input is still open: whether the records
/// fill their batches or not (batches of 4: the reader's first batch may take more than 4,
/// as many as have arrived, and leave fewer than 4 after it; batches of 4096: the stream
/// never fills one).
#[cfg(unix)]
#[test]
fn a_halt_on_an_open_stream_is_reported_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [(2u64, 40usize, 4), (18, 20, 4), (20, 20, 4), (5, 8, 4)];
    let unfilled = [(3, 7, 4096), (1, 1, 4096), (6, 6, 4096)];
    for (bad, total, batch) in cases.into_iter().chain(unfilled) {
        let fifo = dir.path().join(format!("fifo-{bad}-{total}-{batch}"));
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("skipped: mkfifo is not available");
            return;
        }
        let (release, released) = mpsc::channel::<()>();
        let path = fifo.clone();
        let feeder = std::thread::spawn(move || {
            let mut f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
            for i in 1..=total as u64 {
                let line = if i == bad { "bad" } else { PUZZLE };
                writeln!(f, "{line}").unwrap();
            }
            f.flush().unwrap();
            // Keep the FIFO open until the run has ended (or for 20 s): true when the run
            // ended first.
            released.recv_timeout(Duration::from_secs(20)).is_ok()
        });
        let how = Run {
            threads: 2,
            batch,
            ..Run::default()
        };
        let (ran, seen) = run(Input::Path(fifo.clone()), how);
        let _ = release.send(());
        assert!(
            feeder.join().unwrap(),
            "the run waited for the input to end (bad record {bad} of {total}, batches of \
             {batch}): {ran:?} {seen:?}"
        );
        assert!(
            matches!(&ran, Ok(Err(e)) if e.contains(&format!(":{bad}: stop"))),
            "{ran:?}"
        );
        assert_eq!(seen, (1..bad).collect::<Vec<_>>());
    }
}

/// How a paused stream's records are written: line ends, what follows a burst, the format.
#[derive(Clone, Copy, Debug)]
enum Style {
    /// `\n` line ends.
    Lf,
    /// `\r\n` line ends.
    Crlf,
    /// Each burst ends with a comment and a blank line (skipped, not records).
    Trailing,
    /// A CSV with a header, its rows' text kept (`keep_text`: records read one by one), each
    /// burst ending with a blank line.
    CsvText,
    /// 9-row blocks, each followed by a blank line.
    Blocks,
    /// A CSV whose rows hold a quoted field with a quote, a delimiter and a line break (two
    /// lines each), read raw; the first burst ends inside a row whose two quotes leave a
    /// quoted field open (`x"y,"z`): the rows before it are written before it ends.
    CsvQuoted,
}

impl Style {
    /// The text of `n` records, the first on line `line` (moved on past them); their lines
    /// go to `lines`.
    /// `open`: where a row split between bursts starts (set by the first burst, closed by
    /// the next, which counts it among its `n`).
    fn burst(
        self,
        n: usize,
        line: &mut u64,
        lines: &mut Vec<u64>,
        open: &mut Option<u64>,
    ) -> String {
        let mut text = String::new();
        if *line == 1 && matches!(self, Style::CsvText | Style::CsvQuoted) {
            text.push_str("id,puzzle\n");
            *line += 1;
        }
        if let Style::CsvQuoted = self {
            let first = lines.is_empty();
            let mut n = n;
            if let Some(start) = open.take() {
                lines.push(start);
                text.push_str("z\"\n");
                *line += 1;
                n -= 1;
            }
            for _ in 0..n {
                lines.push(*line);
                text.push_str(&format!("\"q\"\",x\ny\",{PUZZLE}\n"));
                *line += 2;
            }
            if first {
                *open = Some(*line);
                text.push_str("x\"y,\"z\n");
                *line += 1;
            }
            return text;
        }
        for _ in 0..n {
            lines.push(*line);
            match self {
                Style::Lf | Style::Trailing => text.push_str(&format!("{PUZZLE}\n")),
                Style::Crlf => text.push_str(&format!("{PUZZLE}\r\n")),
                Style::CsvText => text.push_str(&format!("{line},{PUZZLE}\n")),
                Style::CsvQuoted => unreachable!("written above"),
                Style::Blocks => {
                    for row in PUZZLE.as_bytes().chunks(9) {
                        text.push_str(std::str::from_utf8(row).unwrap());
                        text.push('\n');
                    }
                    text.push('\n');
                    *line += 9;
                }
            }
            *line += 1;
        }
        match self {
            Style::Trailing => {
                text.push_str("# more to come\n\n");
                *line += 2;
            }
            Style::CsvText => {
                text.push('\n');
                *line += 1;
            }
            _ => {}
        }
        text
    }

    fn options(self) -> ReaderOptions {
        ReaderOptions {
            keep_text: matches!(self, Style::CsvText),
            format: match self {
                Style::Blocks => InputFormat::Block,
                _ => InputFormat::Auto,
            },
            ..ReaderOptions::default()
        }
    }
}

/// A stream that pauses (a FIFO kept open after some records): every record that has arrived
/// is worked on and written without waiting for the batch to fill or the stream to end, with
/// one thread and with several, whatever the line ends, the lines skipped after the records,
/// or the format (raw lines, CSV rows read one by one, 9-row blocks).
#[cfg(unix)]
#[test]
fn a_paused_stream_has_its_records_written_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let styles = [
        Style::Lf,
        Style::Crlf,
        Style::Trailing,
        Style::CsvText,
        Style::Blocks,
        Style::CsvQuoted,
    ];
    for style in styles {
        for threads in [1, 2, 3] {
            let fifo = dir.path().join(format!("paused-{style:?}-{threads}"));
            let made = std::process::Command::new("mkfifo").arg(&fifo).status();
            if !made.is_ok_and(|s| s.success()) {
                eprintln!("skipped: mkfifo is not available");
                return;
            }
            let seen = Arc::new(Mutex::new(Vec::new()));
            let written = seen.clone();
            let path = fifo.clone();
            let running = std::thread::spawn(move || {
                let reader = RecordReader::open(&Input::Path(path), &style.options())
                    .map_err(|e| e.to_string())?;
                let mut sink = Lines {
                    seen: written,
                    fail_after: None,
                };
                let work = |r: Record| (r.line, r.puzzle.is_ok());
                pipeline::run_stages(
                    reader,
                    threads,
                    pipeline::BATCH,
                    &work,
                    |_: &mut (u64, bool)| Ok(()),
                    &mut sink,
                    &NoProgress,
                )
                .map_err(|e| e.to_string())
            });
            let mut f = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
            let (mut line, mut lines, mut open) = (1, Vec::new(), None);
            // Two bursts, each written while the stream stays open: each must be written
            // before the next arrives.
            for burst in [5, 3] {
                f.write_all(
                    style
                        .burst(burst, &mut line, &mut lines, &mut open)
                        .as_bytes(),
                )
                .unwrap();
                f.flush().unwrap();
                // A watchdog against waiting for the stream, not a speed limit.
                let deadline = std::time::Instant::now() + Duration::from_secs(30);
                while seen.lock().unwrap().len() < lines.len() {
                    assert!(
                        std::time::Instant::now() < deadline,
                        "{style:?}, {threads} threads: records {:?} of {lines:?} written while \
                         the stream is open",
                        seen.lock().unwrap()
                    );
                    std::thread::sleep(Duration::from_millis(5));
                }
            }
            drop(f);
            let ran = running.join().unwrap();
            assert_eq!(ran, Ok(8), "{style:?}, {threads} threads");
            assert_eq!(*seen.lock().unwrap(), lines, "{style:?}, {threads} threads");
        }
    }
}
