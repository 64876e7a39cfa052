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

/// The folder of public datasets, `../shared/datasets`, or `None` (with a message) when it is
/// absent.
pub fn datasets() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipped: {} is absent", dir.display());
        None
    }
}

/// A public dataset of `../shared/datasets`, or `None` (with a message) when it is absent.
pub fn dataset(name: &str) -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/datasets")
        .join(name);
    if p.exists() {
        Some(p)
    } else {
        eprintln!("skipped: {} is absent", p.display());
        None
    }
}

/// The first `n` lines of the shipped 10k-puzzle CSV (header included), as text.
pub fn easy_csv(n: usize) -> String {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/generated-easy-10k.csv"),
    )
    .unwrap();
    text.lines().take(n).map(|l| format!("{l}\n")).collect()
}

/// Run a shell command (for mknod / mkfifo); true when it succeeded.
pub fn sh(command: &str) -> bool {
    std::process::Command::new("sh")
        .args(["-c", command])
        .status()
        .is_ok_and(|s| s.success())
}
