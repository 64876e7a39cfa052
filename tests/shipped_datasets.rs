//! The shipped `datasets/generated-*` files are what their documented commands make, byte for
//! byte: each command is read from `datasets/README.md`, run into a temporary folder and
//! compared with the file in the repository. This fails when generation changes (e.g. if it
//! followed a retuned default solver again); then regenerate the files with a release build
//! and update everything measured on them (see datasets/README.md).

use std::fs;
use std::path::Path;

mod common;
use common::bin;

/// The `generate` arguments `datasets/README.md` documents for `file` (without the leading
/// `sudoku-batch`), as written in the backticks of the file's table row.
fn documented_command(file: &str) -> Vec<String> {
    let readme = Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/README.md");
    let text = fs::read_to_string(&readme).unwrap();
    let row = text
        .lines()
        .find(|l| l.starts_with(&format!("| `{file}` |")))
        .unwrap_or_else(|| panic!("no row for {file} in {}", readme.display()));
    let command = row
        .split('`')
        .find(|cell| cell.starts_with("sudoku-batch generate "))
        .unwrap_or_else(|| panic!("no generate command in the row: {row}"));
    let words: Vec<String> = command
        .split_whitespace()
        .skip(1)
        .map(String::from)
        .collect();
    let output = format!("datasets/{file}");
    assert!(
        words.windows(2).any(|w| w[0] == "-o" && w[1] == output),
        "the command should write -o {output}: {command}"
    );
    words
}

/// Run `args` with its `-o datasets/…` redirected to `out`.
fn generate_into(args: &[String], out: &Path) {
    let mut args = args.to_vec();
    let at = args.iter().position(|a| a == "-o").unwrap() + 1;
    args[at] = out.to_str().unwrap().to_string();
    bin().args(&args).arg("-q").assert().success();
}

/// `file`'s documented command, run with `--count` lowered to `count` when given, compared
/// with the shipped file: all of it, or with a lowered count its beginning (puzzle `i`
/// depends only on the seed and `i`, so a shorter run is a prefix of a longer one).
fn check(file: &str, count: Option<u64>) {
    let mut args = documented_command(file);
    if let Some(n) = count {
        let at = args.iter().position(|a| a == "--count").unwrap() + 1;
        args[at] = n.to_string();
    }
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("datasets")
        .join(file);
    let shipped = fs::read_to_string(shipped).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join(file);
    generate_into(&args, &out);
    let made = fs::read_to_string(&out).unwrap();
    let same = match count {
        Some(_) => shipped.starts_with(&made),
        None => made == shipped,
    };
    if !same {
        let line = made
            .lines()
            .zip(shipped.lines())
            .position(|(a, b)| a != b)
            .map_or_else(
                || "the line count".to_string(),
                |i| format!("line {}", i + 1),
            );
        panic!(
            "datasets/{file} is not what `sudoku-batch {}` makes (first difference: {line})",
            args.join(" ")
        );
    }
}

#[test]
fn easy_10k_is_reproduced_by_its_documented_command() {
    check("generated-easy-10k.csv", None);
}

#[test]
fn hard_1k_is_reproduced_by_its_documented_command() {
    check("generated-hard-1k.txt", None);
}

#[test]
fn a_shorter_run_is_the_beginning_of_the_shipped_file() {
    check("generated-hard-1k.txt", Some(100));
}
