//! Where output goes: devices, FIFOs and symlinks are never renamed over, replaced files keep
//! their permission bits, every output path is checked before the work, every command ends
//! quietly on a closed pipe, and `.gz` / `.zst` / `.xz` / `.bz2` names are written compressed
//! (still complete or absent). Devices and FIFOs are made in a temporary directory: no test
//! points an output at a real system path.

mod common;

use std::fs;
use std::io::Read;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::Path;
use std::process::Stdio;

use common::{bin, easy_csv, sh};

/// A temporary directory holding `in.csv` (20 easy puzzles with solutions).
fn workdir() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.csv");
    fs::write(&input, easy_csv(21)).unwrap();
    (dir, input)
}

/// The solutions `solve` writes for `input` on stdout.
fn expected_solutions(input: &Path) -> Vec<u8> {
    let out = bin().args(["solve", "-q"]).arg(input).output().unwrap();
    assert!(out.status.success());
    out.stdout
}

/// Every command that writes a file with `-o`, with arguments that make it write to `out`.
fn writing_commands(input: &Path, out: &Path) -> Vec<Vec<String>> {
    let (i, o) = (input.display().to_string(), out.display().to_string());
    let s = |v: &[&str]| v.iter().map(|a| a.to_string()).collect::<Vec<_>>();
    vec![
        s(&["solve", "-q", &i, "-o", &o]),
        s(&["rate", "-q", &i, "-o", &o]),
        s(&["verify", "-q", &i, "-o", &o]),
        s(&["shuffle", "-q", &i, "-o", &o]),
        s(&["generate", "-q", "--count", "5", "-o", &o]),
        s(&["canon", "-q", &i, "-o", &o]),
        s(&["solve", "-q", &i, "--stats-json", &o]),
        s(&["rate", "-q", &i, "--stats-json", &o]),
        s(&["verify", "-q", &i, "--stats-json", &o]),
    ]
}

#[test]
fn a_character_device_is_written_directly_not_replaced() {
    let (dir, input) = workdir();
    let null = dir.path().join("null");
    if !sh(&format!("mknod -m 666 '{}' c 1 3", null.display())) {
        eprintln!("skipped: mknod is not permitted here");
        return;
    }
    for args in writing_commands(&input, &null) {
        bin().args(&args).assert().success();
        let kind = fs::symlink_metadata(&null).unwrap().file_type();
        assert!(kind.is_char_device(), "{args:?} replaced the device");
    }
    // No temporary file was left beside it.
    let names: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

#[test]
fn a_fifo_is_written_directly_and_stays_a_fifo() {
    let (dir, input) = workdir();
    let fifo = dir.path().join("fifo");
    if !sh(&format!("mkfifo '{}'", fifo.display())) {
        eprintln!("skipped: mkfifo is not permitted here");
        return;
    }
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut text = Vec::new();
            fs::File::open(fifo)
                .unwrap()
                .read_to_end(&mut text)
                .unwrap();
            text
        })
    };
    bin()
        .args(["solve", "-q"])
        .arg(&input)
        .arg("-o")
        .arg(&fifo)
        .assert()
        .success();
    assert_eq!(reader.join().unwrap(), expected_solutions(&input));
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
}

#[test]
fn a_symlink_stays_and_its_target_is_replaced_keeping_its_mode() {
    let (dir, input) = workdir();
    let target = dir.path().join("sub/real.txt");
    fs::create_dir(dir.path().join("sub")).unwrap();
    fs::write(&target, "old\n").unwrap();
    fs::set_permissions(&target, fs::Permissions::from_mode(0o640)).unwrap();
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink("sub/real.txt", &link).unwrap();
    for args in writing_commands(&input, &link) {
        bin().args(&args).assert().success();
        assert!(
            fs::symlink_metadata(&link).unwrap().is_symlink(),
            "{args:?}"
        );
        let meta = fs::metadata(&target).unwrap();
        assert_eq!(meta.permissions().mode() & 0o777, 0o640, "{args:?}");
        assert_ne!(fs::read(&target).unwrap(), b"old\n", "{args:?}");
    }
    bin()
        .args(["solve", "-q"])
        .arg(&input)
        .arg("-o")
        .arg(&link)
        .assert()
        .success();
    assert_eq!(fs::read(&target).unwrap(), expected_solutions(&input));
    // The temporary file was made beside the target, and is gone.
    assert_eq!(fs::read_dir(dir.path().join("sub")).unwrap().count(), 1);
}

#[test]
fn a_replaced_file_keeps_its_permission_bits_and_a_new_one_gets_the_umask_default() {
    let (dir, input) = workdir();
    for mode in [0o600, 0o640, 0o664] {
        let out = dir.path().join(format!("out-{mode:o}.txt"));
        fs::write(&out, "old\n").unwrap();
        fs::set_permissions(&out, fs::Permissions::from_mode(mode)).unwrap();
        bin()
            .args(["solve", "-q"])
            .arg(&input)
            .arg("-o")
            .arg(&out)
            .assert()
            .success();
        let meta = fs::metadata(&out).unwrap();
        assert_eq!(meta.permissions().mode() & 0o777, mode);
        assert_eq!(fs::read(&out).unwrap(), expected_solutions(&input));
    }
    let new = dir.path().join("new.txt");
    bin()
        .args(["solve", "-q"])
        .arg(&input)
        .arg("-o")
        .arg(&new)
        .assert()
        .success();
    // 0666 less the umask: group/other read at least as the umask allows, never 0600 only
    // because a temporary file was used.
    let mode = fs::metadata(&new).unwrap().permissions().mode() & 0o777;
    assert_ne!(mode, 0o600, "new output got the temporary file's mode");
}

#[test]
fn dash_means_stdout() {
    let (dir, input) = workdir();
    bin()
        .current_dir(dir.path())
        .args(["solve", "-q", "in.csv", "-o", "-"])
        .assert()
        .success()
        .stdout(String::from_utf8(expected_solutions(&input)).unwrap());
    assert!(!dir.path().join("-").exists());
}

#[test]
fn directories_and_block_devices_are_refused_before_any_work() {
    let (dir, input) = workdir();
    let out = bin()
        .args(["solve", "-q"])
        .arg(&input)
        .arg("-o")
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is a directory"));
    let block = dir.path().join("disk");
    // A loop device's numbers; nothing is written to it (the run is refused first).
    if sh(&format!("mknod '{}' b 7 200", block.display())) {
        let out = bin()
            .args(["solve", "-q"])
            .arg(&input)
            .arg("-o")
            .arg(&block)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains("block device"));
        assert!(fs::symlink_metadata(&block)
            .unwrap()
            .file_type()
            .is_block_device());
    } else {
        eprintln!("skipped: mknod of a block device is not permitted here");
    }
}

#[test]
fn every_output_path_is_checked_before_the_work_starts() {
    let (dir, input) = workdir();
    let missing = dir.path().join("no/such/dir/stats.json");
    for command in ["solve", "verify", "rate"] {
        let out = bin()
            .arg(command)
            .arg(&input)
            .arg("--stats-json")
            .arg(&missing)
            .arg("-o")
            .arg(dir.path().join("out.txt"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{command}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("stats.json") && stderr.contains("no directory"),
            "{stderr}"
        );
        // Nothing was solved: no summary line, no output file.
        assert!(!stderr.contains("records in"), "{command}: {stderr}");
        assert!(!dir.path().join("out.txt").exists());
    }
}

/// Run `args` with stdout connected to a pipe whose reading end is already closed (a FIFO in
/// `dir`: opened for reading without blocking, then for writing, then the reader closed).
fn run_into_closed_pipe(dir: &Path, args: &[&str]) -> Option<std::process::Output> {
    use std::os::unix::fs::OpenOptionsExt;
    let fifo = dir.join("closed-pipe");
    if !fifo.exists() && !sh(&format!("mkfifo '{}'", fifo.display())) {
        return None;
    }
    const O_NONBLOCK: i32 = 0o4000; // Linux
    let reader = fs::OpenOptions::new()
        .read(true)
        .custom_flags(O_NONBLOCK)
        .open(&fifo)
        .unwrap();
    let writer = fs::OpenOptions::new().write(true).open(&fifo).unwrap();
    drop(reader);
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
        .args(args)
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    Some(child.wait_with_output().unwrap())
}

#[test]
fn every_command_ends_quietly_on_a_closed_pipe() {
    let (dir, input) = workdir();
    let i = input.to_str().unwrap();
    let commands: [&[&str]; 13] = [
        &["solve", "-q", i],
        &["rate", "-q", i],
        &["rate", "-q", "--steps", i],
        &["canon", "-q", i],
        &["man", "solve"],
        &["verify", "--format", "csv", "-q", i],
        &["generate", "-q", "--count", "2000"],
        &["shuffle", "-q", "--copies", "500", i],
        &["bench", "--seconds", "0.05", i],
        &["completions", "bash"],
        &["completions", "zsh"],
        &["man"],
        &["--help"],
    ];
    for args in commands {
        let Some(out) = run_into_closed_pipe(dir.path(), args) else {
            eprintln!("skipped: mkfifo is not permitted here");
            return;
        };
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_ne!(out.status.code(), Some(101), "{args:?}: {stderr}");
        assert!(
            matches!(out.status.code(), Some(0..=2)),
            "{args:?}: {:?} {stderr}",
            out.status
        );
        assert!(!stderr.contains("Broken pipe"), "{args:?}: {stderr}");
    }
}

/// Decompress `bytes` written as `ext`.
fn decompress(ext: &str, bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    match ext {
        "gz" => flate2::read::MultiGzDecoder::new(bytes).read_to_end(&mut out),
        "zst" => zstd::stream::read::Decoder::new(bytes)
            .unwrap()
            .read_to_end(&mut out),
        "xz" => liblzma::read::XzDecoder::new(bytes).read_to_end(&mut out),
        "bz2" => bzip2::read::BzDecoder::new(bytes).read_to_end(&mut out),
        _ => unreachable!(),
    }
    .unwrap();
    out
}

#[test]
fn compressed_names_are_written_compressed_and_complete() {
    let (dir, input) = workdir();
    let plain = bin()
        .args(["solve", "-q", "--format", "csv"])
        .arg(&input)
        .output()
        .unwrap()
        .stdout;
    let magic: [(&str, &[u8]); 4] = [
        ("gz", b"\x1f\x8b"),
        ("zst", b"\x28\xb5\x2f\xfd"),
        ("xz", b"\xfd7zXZ\x00"),
        ("bz2", b"BZh"),
    ];
    for (ext, magic) in magic {
        let out = dir.path().join(format!("out.csv.{ext}"));
        bin()
            .args(["solve", "-q", "--format", "csv"])
            .arg(&input)
            .arg("-o")
            .arg(&out)
            .assert()
            .success();
        let bytes = fs::read(&out).unwrap();
        assert!(bytes.starts_with(magic), "{ext}");
        assert_eq!(decompress(ext, &bytes), plain, "{ext}");
        // And the tool reads its own compressed output back.
        bin().arg("verify").arg(&out).assert().success();

        // A failing run leaves no compressed file behind either.
        let bad = dir.path().join(format!("bad.{ext}"));
        fs::write(&bad, "1234\n").unwrap();
        let failed = dir.path().join(format!("failed.txt.{ext}"));
        bin()
            .args(["solve", "-q", "--strict"])
            .arg(&bad)
            .arg("-o")
            .arg(&failed)
            .assert()
            .code(2);
        assert!(!failed.exists(), "{ext}");
    }
}

/// `producer | sudoku-batch solve -` with a producer that pauses: the answers to the puzzles
/// that have arrived come out at once (the batch is not held back for more records, nor the
/// output buffered), with the default batch size, for line and CSV output.
#[test]
fn answers_to_a_paused_stream_come_out_at_once() {
    use std::io::{BufRead, BufReader, Write};
    let puzzle =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    for format in ["line", "csv"] {
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoku-batch"))
            .args(["solve", "-q", "--threads", "2", "--format", format, "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        let stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                if tx.send(line.unwrap()).is_err() {
                    break;
                }
            }
        });
        let header = usize::from(format == "csv");
        let mut lines = Vec::new();
        for burst in [3, 2] {
            for _ in 0..burst {
                writeln!(stdin, "{puzzle}").unwrap();
            }
            stdin.flush().unwrap();
            // stdin stays open; the timeout is a watchdog against waiting for it to end.
            while lines.len() < header + if burst == 3 { 3 } else { 5 } {
                let line = rx
                    .recv_timeout(std::time::Duration::from_secs(30))
                    .unwrap_or_else(|_| panic!("{format}: only {lines:?} while stdin is open"));
                lines.push(line);
            }
        }
        drop(stdin);
        assert!(child.wait().unwrap().success());
        let answers = &lines[header..];
        assert_eq!(answers.len(), 5);
        assert!(
            answers.iter().all(|l| l.contains(
                "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
            )),
            "{format}: {answers:?}"
        );
    }
}
