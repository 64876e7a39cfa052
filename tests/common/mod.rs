//! Code shared by the integration test binaries (each uses a subset).
#![allow(dead_code)]

pub mod counting;
pub mod eureka;

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// The binary under test.
pub fn bin() -> Command {
    Command::cargo_bin("sudoku-batch").unwrap()
}

/// A file of `tests/fixtures`.
pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// The folder of public datasets (`../shared/datasets`, or the one `SUDOKU_BATCH_DATASETS`
/// named at build time). A test that calls this carries
/// `#[cfg_attr(not(shared_datasets), ignore = "needs ../shared/datasets")]` (build.rs sets
/// the cfg when the folder is there), so without it the test is listed as ignored; run anyway
/// (`--ignored`), it fails here rather than pass unrun.
pub fn datasets() -> PathBuf {
    let dir = PathBuf::from(env!("SUDOKU_BATCH_TEST_DATASETS"));
    assert!(
        dir.is_dir(),
        "{} is absent: this test needs the public datasets",
        dir.display()
    );
    dir
}

/// A public dataset of [`datasets`] (which see), by file name.
pub fn dataset(name: &str) -> PathBuf {
    let path = datasets().join(name);
    assert!(path.exists(), "{} is absent", path.display());
    path
}

/// The first `n` lines of the shipped 10k-puzzle CSV (header included), as text.
pub fn easy_csv(n: usize) -> String {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/generated-easy-10k.csv"),
    )
    .unwrap();
    text.lines().take(n).map(|l| format!("{l}\n")).collect()
}

/// A line file in `dir` of `n` copies of `puzzle` (one per line).
pub fn copies_file(dir: &Path, puzzle: &str, n: usize) -> sudoku_batch::io::Input {
    use std::io::Write;
    let path = dir.join(format!("in-{n}.txt"));
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    for _ in 0..n {
        writeln!(out, "{puzzle}").unwrap();
    }
    out.flush().unwrap();
    sudoku_batch::io::Input::Path(path)
}

/// Run a shell command (for mknod / mkfifo); true when it succeeded.
pub fn sh(command: &str) -> bool {
    std::process::Command::new("sh")
        .args(["-c", command])
        .status()
        .is_ok_and(|s| s.success())
}
