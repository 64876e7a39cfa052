//! Hostile conditions through the real binary: peak memory (the child's `wait4` rusage, never
//! a timing) under 64 MiB for `solve`, `verify`, `canon`, `shuffle` and `rate` on inputs of ~100 MB
//! made on the fly in a temporary folder (a quote that never closes, a header of millions of
//! columns, lines near the 256 KiB limit, blank lines, a giant board, a file with no line
//! break, read as files and from a pipe; `rate --steps` writing ~190 MB); argument values with no sensible meaning refused at
//! once; and no output file (nor a temporary one) left by a run that fails after the work
//! started.

mod common;

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use common::bin;

const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/// The ceiling, in KiB.
const CEILING_KIB: u64 = 64 << 10;

/// The ceiling of `rate --steps` with 8 workers, in KiB: each has a rater whose scratch for
/// nested forcing chains (levels 2 and 3) is over a MiB, and its allocator's own heap, which
/// keeps the pages of freed step buffers for mimalloc's purge delay (with
/// `MIMALLOC_PURGE_DELAY=0` the run peaks at about 58 MiB); the run peaks at 85-98 MiB, well
/// under the 280 MB of steps it writes.
const RATE_STEPS_8_CEILING_KIB: u64 = 112 << 10;

/// Hostile inputs are about this large: past the ceiling, so that an input held whole
/// would show. (The test process itself stays small: see [`lines_with`].)
const HOSTILE: usize = 100 << 20;

/// Write `head`, `pattern` repeated to about `bytes`, and `tail` to `dir/name`.
fn hostile(dir: &Path, name: &str, head: &str, pattern: &str, bytes: usize, tail: &str) -> PathBuf {
    let path = dir.join(name);
    let mut out = BufWriter::with_capacity(1 << 16, File::create(&path).unwrap());
    out.write_all(head.as_bytes()).unwrap();
    let chunk = pattern.repeat((1 << 16) / pattern.len() + 1);
    let mut left = bytes;
    while left > 0 {
        let n = left.min(chunk.len()) / pattern.len() * pattern.len();
        let n = n.max(pattern.len());
        out.write_all(&chunk.as_bytes()[..n]).unwrap();
        left = left.saturating_sub(n);
    }
    out.write_all(tail.as_bytes()).unwrap();
    out.flush().unwrap();
    path
}

/// What a child run did: its exit code, stdout's lines, stderr, and peak RSS in KiB.
struct Ran {
    code: i32,
    lines: usize,
    stderr: String,
    peak_kib: u64,
}

/// Run the binary with `args` in `dir` (stdin piped from `cat PIPED`, or none), stdout and
/// stderr into files there; its peak RSS from `wait4`.
fn run(dir: &Path, args: &[&str], piped: Option<&Path>) -> Ran {
    let (out, err) = (dir.join("stdout"), dir.join("stderr"));
    let mut cat = piped.map(|p| {
        Command::new("cat")
            .arg(p)
            .stdout(Stdio::piped())
            .spawn()
            .unwrap()
    });
    let stdin = match cat.as_mut() {
        Some(cat) => Stdio::from(cat.stdout.take().unwrap()),
        None => Stdio::null(),
    };
    // Waited for by `wait4` (for its rusage), not `Child::wait`.
    #[allow(clippy::zombie_processes)]
    let child = Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
        .args(args)
        .current_dir(dir)
        .stdin(stdin)
        .stdout(File::create(&out).unwrap())
        .stderr(File::create(&err).unwrap())
        .spawn()
        .unwrap();
    let (code, peak_kib) = wait_with_peak(child.id());
    if let Some(mut cat) = cat {
        // It may have been stopped by the closed pipe.
        let _ = cat.wait();
    }
    Ran {
        code,
        lines: lines_with(&out, ""),
        stderr: std::fs::read_to_string(&err).unwrap(),
        peak_kib,
    }
}

/// The lines of file `path` that hold `text`, read line by line: this process must stay small,
/// since a child's peak RSS counts this one's from before the child's `exec` (the kernel
/// keeps the high-water mark across it).
fn lines_with(path: &Path, text: &str) -> usize {
    let mut file = std::io::BufReader::new(File::open(path).unwrap());
    let (mut line, mut count) = (Vec::new(), 0);
    while std::io::BufRead::read_until(&mut file, b'\n', &mut line).unwrap() > 0 {
        count += usize::from(
            line.windows(text.len().max(1))
                .any(|w| text.is_empty() || w == text.as_bytes()),
        );
        line.clear();
    }
    count
}

/// Wait for child `pid`: its exit code (128 + the signal that killed it) and peak RSS in KiB.
fn wait_with_peak(pid: u32) -> (i32, u64) {
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value; wait4 only writes into the two out
    // pointers, both to live locals.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let got = unsafe { libc::wait4(pid as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(got, pid as libc::pid_t, "wait4 failed");
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        128 + libc::WTERMSIG(status)
    };
    (code, usage.ru_maxrss as u64)
}

/// Run `args` over `input` as a file, and (when `pipe`) from a pipe, in `dir`: each within
/// the ceiling, with exit code `code`, `lines` output lines and `message` in stderr.
fn within_ceiling(dir: &Path, args: &[&str], input: &Path, expect: (i32, usize, &str), pipe: bool) {
    let name = input.file_name().unwrap().to_str().unwrap();
    let file_args: Vec<&str> = args.iter().copied().chain([name]).collect();
    let mut runs = vec![(run(dir, &file_args, None), "file")];
    if pipe {
        // A pipe, not a file: the stream path is taken.
        let args: Vec<&str> = args.iter().copied().chain(["-"]).collect();
        runs.push((run(dir, &args, Some(input)), "pipe"));
    }
    for (ran, how) in runs {
        eprintln!("{args:?} {name} ({how}): peak RSS {} KiB", ran.peak_kib);
        let (code, lines, message) = expect;
        assert!(
            ran.peak_kib < CEILING_KIB,
            "{args:?} {name} ({how}): peak RSS {} KiB",
            ran.peak_kib
        );
        assert_eq!(ran.code, code, "{args:?} {name} ({how}): {}", ran.stderr);
        assert_eq!(ran.lines, lines, "{args:?} {name} ({how}): {}", ran.stderr);
        assert!(
            ran.stderr.contains(message),
            "{args:?} {name} ({how}): {}",
            ran.stderr
        );
    }
}

/// The folder the tests write in.
fn workdir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

/// `rate --steps` writes ~17 KB per hard puzzle: 16,000 of them (~280 MB of steps, more than
/// the ceiling) go through within it, one rating object per record and its steps before it.
#[test]
fn rate_steps_on_a_large_input_stay_within_the_ceiling() {
    let dir = workdir();
    let hard = Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/generated-hard-1k.txt");
    let input = dir.path().join("hard16k.txt");
    let records = {
        // Dropped before the runs: the child's peak starts from this process's size.
        let text = std::fs::read_to_string(hard).unwrap();
        let mut file = File::create(&input).unwrap();
        for _ in 0..16 {
            file.write_all(text.as_bytes()).unwrap();
        }
        16 * text.lines().count()
    };
    for (args, piped) in [
        (&["rate", "-q", "--steps", "hard16k.txt"][..], None),
        (&["rate", "-q", "--steps", "-j", "8", "hard16k.txt"], None),
        (
            &["rate", "-q", "--steps", "--threads", "1", "-"],
            Some(input.as_path()),
        ),
    ] {
        let ran = run(dir.path(), args, piped);
        eprintln!("{args:?}: peak RSS {} KiB", ran.peak_kib);
        let ceiling = if args.contains(&"8") {
            RATE_STEPS_8_CEILING_KIB
        } else {
            CEILING_KIB
        };
        assert!(
            ran.peak_kib < ceiling,
            "{args:?}: peak RSS {} KiB",
            ran.peak_kib
        );
        assert_eq!(ran.code, 0, "{args:?}: {}", ran.stderr);
        let out = dir.path().join("stdout");
        let ratings = lines_with(&out, "\"kind\":\"rating\"");
        let steps = lines_with(&out, "\"kind\":\"step\"");
        assert_eq!(ratings, records, "{args:?}");
        assert_eq!(ran.lines, ratings + steps, "{args:?}");
        assert!(steps > 20 * records, "{steps} steps for {records} records");
        assert!(std::fs::metadata(&out).unwrap().len() > (CEILING_KIB << 10));
    }
}

#[test]
fn a_quote_that_never_closes_costs_no_memory_in_any_command() {
    let dir = workdir();
    let head = format!("puzzle\n{PUZZLE}\n{PUZZLE}\n\"{PUZZLE}");
    let input = hostile(
        dir.path(),
        "open.csv",
        &head,
        "text, \"\" more\n",
        HOSTILE,
        "",
    );
    let message = ":4: malformed: CSV record of";
    within_ceiling(dir.path(), &["solve"], &input, (1, 3, message), true);
    within_ceiling(dir.path(), &["verify"], &input, (1, 1, ""), false);
    within_ceiling(dir.path(), &["canon"], &input, (1, 3, "open.csv:4"), false);
    within_ceiling(
        dir.path(),
        &["shuffle"],
        &input,
        (1, 3, "open.csv:4"),
        false,
    );
    within_ceiling(dir.path(), &["rate"], &input, (1, 3, message), true);
    let ran = run(dir.path(), &["solve", "open.csv"], None);
    assert!(
        ran.stderr.contains("a quote that never closes?"),
        "{}",
        ran.stderr
    );
}

#[test]
fn a_header_of_millions_of_columns_is_refused_naming_file_and_line() {
    let dir = workdir();
    let input = hostile(
        dir.path(),
        "wide.csv",
        "puzzle",
        ",",
        HOSTILE,
        &format!("\n{PUZZLE}\n"),
    );
    let message = "wide.csv:1: the header is too long to be read: CSV record of 104857606 bytes";
    within_ceiling(dir.path(), &["solve"], &input, (2, 0, message), false);
    within_ceiling(
        dir.path(),
        &["verify"],
        &input,
        (2, 0, "wide.csv:1: the header"),
        false,
    );
    let ran = run(dir.path(), &["solve", "-"], Some(&input));
    assert_eq!(ran.code, 2, "{}", ran.stderr);
    assert!(
        ran.stderr.contains("<stdin>:1: the header is too long"),
        "{}",
        ran.stderr
    );
    assert!(ran.peak_kib < CEILING_KIB, "{} KiB", ran.peak_kib);
}

#[test]
fn lines_near_the_record_limit_keep_memory_flat_in_every_command() {
    let dir = workdir();
    let line = format!(
        "{PUZZLE} {}\n",
        "x".repeat(sudoku_batch::limits::MAX_RECORD - 100)
    );
    let input = hostile(dir.path(), "long.txt", "", &line, HOSTILE, "");
    let records = std::fs::metadata(&input).unwrap().len() as usize / line.len();
    for args in [
        &["solve", "-q"][..],
        &["solve", "-q", "--format", "csv", "--passthrough"],
        &[
            "solve",
            "-q",
            "--format",
            "jsonl",
            "--passthrough",
            "--threads",
            "1",
        ],
        // More batches in flight (a machine with more cores) must not take memory past it.
        &["solve", "-q", "--format", "csv", "--passthrough", "-j", "8"],
        &["verify", "-q", "--format", "csv"],
        &["canon", "-q"],
        &["shuffle", "-q"],
        &["rate", "-q"],
        &["rate", "-q", "--format", "csv", "--passthrough", "-j", "8"],
        &[
            "rate",
            "-q",
            "--format",
            "jsonl",
            "--passthrough",
            "--threads",
            "1",
        ],
    ] {
        let header = args[2..].contains(&"csv") && matches!(args[0], "solve" | "rate");
        let lines = records + usize::from(header);
        // verify reports nothing for them: every puzzle passes.
        let lines = if args[0] == "verify" { 1 } else { lines };
        within_ceiling(dir.path(), args, &input, (0, lines, ""), args.len() == 2);
    }
}

#[test]
fn blank_lines_a_giant_board_and_a_file_without_line_breaks_stay_within_the_ceiling() {
    let dir = workdir();
    let blanks = hostile(
        dir.path(),
        "blank.csv",
        "puzzle\n",
        "\n",
        HOSTILE,
        &format!("{PUZZLE}\n"),
    );
    within_ceiling(dir.path(), &["solve", "-q"], &blanks, (0, 1, ""), true);
    let board = hostile(dir.path(), "board.txt", "[[", " ", HOSTILE, "]]\n");
    let message = "LeetCode board of";
    within_ceiling(dir.path(), &["solve"], &board, (1, 1, message), false);
    // One line: shard 1 holds it whole (a malformed record), shard 2 holds nothing (its
    // start was looked for without reading the line into memory).
    let flat = hostile(dir.path(), "flat.txt", "", "5", HOSTILE, "");
    within_ceiling(
        dir.path(),
        &["solve", "--shard", "1/2"],
        &flat,
        (1, 1, "flat.txt:1"),
        false,
    );
    let message = "no puzzle records";
    within_ceiling(
        dir.path(),
        &["solve", "--shard", "2/2"],
        &flat,
        (0, 0, message),
        false,
    );
    within_ceiling(
        dir.path(),
        &["verify", "--shard", "1/2"],
        &flat,
        (1, 1, ""),
        false,
    );
}

#[test]
fn rows_with_too_many_fields_are_malformed_in_every_output_format() {
    let dir = workdir();
    let row = format!("{PUZZLE}{}\n", ",".repeat(5000));
    let input = hostile(
        dir.path(),
        "wide-rows.csv",
        "puzzle,a\n",
        &row,
        20 << 20,
        "",
    );
    let rows = (std::fs::metadata(&input).unwrap().len() as usize - 9) / row.len();
    for format in ["line", "csv", "jsonl"] {
        let args = ["solve", "-q", "--format", format, "wide-rows.csv"];
        let ran = run(dir.path(), &args, None);
        assert_eq!(ran.code, 1, "{format}: {}", ran.stderr);
        assert!(ran.peak_kib < CEILING_KIB, "{format}: {} KiB", ran.peak_kib);
        let malformed = lines_with(&dir.path().join("stdout"), "malformed");
        assert_eq!(malformed, rows, "{format}");
    }
}

#[test]
fn too_many_threads_are_refused_at_once_and_a_wild_environment_is_capped() {
    let dir = workdir();
    std::fs::write(dir.path().join("p.txt"), format!("{PUZZLE}\n").repeat(200)).unwrap();
    for n in ["10000", "100000000000"] {
        bin()
            .current_dir(dir.path())
            .args(["solve", "--threads", n, "p.txt"])
            .timeout(Duration::from_secs(60))
            .assert()
            .code(2)
            .stderr(predicates::str::contains(
                "far more than this machine can run",
            ));
    }
    for bad in ["0", "two"] {
        bin()
            .current_dir(dir.path())
            .args(["solve", "-j", bad, "p.txt"])
            .assert()
            .code(2)
            .stderr(predicates::str::contains("--threads"));
    }
    bin()
        .current_dir(dir.path())
        .args(["solve", "-q", "p.txt"])
        .env("RAYON_NUM_THREADS", "1000000")
        .timeout(Duration::from_secs(60))
        .assert()
        .success()
        .stderr(predicates::str::contains("RAYON_NUM_THREADS=1000000"));
}

#[test]
fn shard_bounds_and_counts_of_zero_get_a_clear_message() {
    let dir = workdir();
    std::fs::write(dir.path().join("p.txt"), format!("{PUZZLE}\n").repeat(3)).unwrap();
    let refused: [(&[&str], &str); 11] = [
        (
            &["solve", "--shard", "0/3", "p.txt"],
            "K must be from 1 to N",
        ),
        (
            &["solve", "--shard", "4/3", "p.txt"],
            "K must be from 1 to N",
        ),
        (
            &["solve", "--shard", "1/0", "p.txt"],
            "K must be from 1 to N",
        ),
        (
            &["solve", "--shard", "1/99999999999999", "p.txt"],
            "at most 1048576 shards",
        ),
        (
            &["solve", "--shard", "1/99999999999999999999", "p.txt"],
            "not a whole number",
        ),
        (&["solve", "--shard", "3", "p.txt"], "expected K/N"),
        (&["shuffle", "--copies", "0", "p.txt"], "--copies"),
        (&["shuffle", "--copies", "10001", "p.txt"], "--copies"),
        (&["generate", "--count", "0"], "at least 1"),
        (&["bench", "--seconds", "0", "p.txt"], "above 0"),
        (&["bench", "--seconds", "inf", "p.txt"], "above 0"),
    ];
    for (args, message) in refused {
        bin()
            .current_dir(dir.path())
            .args(args)
            .timeout(Duration::from_secs(60))
            .assert()
            .code(2)
            .stderr(predicates::str::contains(message));
    }
    // Many more shards than lines: each is a valid (mostly empty) range of the file.
    bin()
        .current_dir(dir.path())
        .args(["solve", "-q", "--shard", "1048576/1048576", "p.txt"])
        .assert()
        .success();
}

/// The names in `dir` other than `keep`.
fn others(dir: &Path, keep: &[&str]) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !keep.contains(&n.as_str()))
        .collect();
    names.sort();
    names
}

#[test]
fn a_summary_that_cannot_be_written_leaves_no_output_file() {
    if !Path::new("/dev/full").exists() {
        eprintln!("skipped: no /dev/full");
        return;
    }
    let dir = workdir();
    std::fs::write(dir.path().join("p.txt"), format!("{PUZZLE}\n").repeat(200)).unwrap();
    for command in ["solve", "verify", "rate"] {
        for out in ["out.txt", "out.txt.gz"] {
            let args = [
                command,
                "-q",
                "p.txt",
                "-o",
                out,
                "--stats-json",
                "/dev/full",
            ];
            bin()
                .current_dir(dir.path())
                .args(args)
                .assert()
                .code(2)
                .stderr(predicates::str::contains(
                    "/dev/full: cannot write: No space left on device",
                ));
            assert_eq!(
                others(dir.path(), &["p.txt"]),
                Vec::<String>::new(),
                "{args:?}"
            );
        }
    }
    // bench: every export or none.
    let args = [
        "bench",
        "--seconds",
        "0.05",
        "p.txt",
        "--export-json",
        "b.json",
    ];
    bin()
        .current_dir(dir.path())
        .args(args)
        .args(["--export-csv", "/dev/full"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("/dev/full"));
    assert_eq!(others(dir.path(), &["p.txt"]), Vec::<String>::new());
}

#[test]
fn a_full_disk_says_so_and_names_the_output() {
    if !Path::new("/dev/full").exists() {
        eprintln!("skipped: no /dev/full");
        return;
    }
    let dir = workdir();
    std::fs::write(
        dir.path().join("p.txt"),
        format!("{PUZZLE}\n").repeat(20_000),
    )
    .unwrap();
    for args in [
        &["solve", "-q", "p.txt"][..],
        &["solve", "-q", "--format", "csv", "p.txt"],
        &["verify", "-q", "--format", "csv", "--duplicates", "p.txt"],
        &["canon", "-q", "p.txt"],
        &["shuffle", "-q", "p.txt"],
        &["generate", "-q", "--count", "3000"],
        &["rate", "-q", "p.txt"],
        &["rate", "-q", "--format", "csv", "--passthrough", "p.txt"],
        &["rate", "-q", "--steps", "p.txt"],
    ] {
        bin()
            .current_dir(dir.path())
            .args(args)
            .args(["-o", "/dev/full"])
            .timeout(Duration::from_secs(120))
            .assert()
            .code(2)
            .stderr(predicates::str::contains(
                "/dev/full: cannot write: No space left on device",
            ));
    }
    assert_eq!(others(dir.path(), &["p.txt"]), Vec::<String>::new());
}
