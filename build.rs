//! Records the git commit the crate is built from, for `bench` provenance and `--version`.
//!
//! `SUDOKU_BATCH_GIT_COMMIT` (set by packagers) wins; otherwise `git` is asked, but only when
//! the crate is the top of its own work tree: a crates.io tarball unpacked inside some other
//! repository must not borrow that repository's commit. Outside a work tree, the commit
//! `cargo package` recorded in `.cargo_vcs_info.json` is used (`cargo install` from
//! crates.io); failing that (a plain tarball, no git) it is "unknown". The build never fails
//! here.
//!
//! It also tells the tests whether the public datasets are there (see [`datasets`]).

use std::path::{Path, PathBuf};
use std::process::Command;

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    Some(text.trim().to_string())
}

/// The commit (12 hex digits, `-dirty` when the sources differ from it) and the files
/// whose change means it must be asked again.
fn commit(dir: &Path) -> Option<(String, Vec<PathBuf>)> {
    let top = PathBuf::from(git(dir, &["rev-parse", "--show-toplevel"])?);
    if top.canonicalize().ok()? != dir.canonicalize().ok()? {
        return None;
    }
    let hash = git(dir, &["rev-parse", "--short=12", "HEAD"])?;
    // Only what the binary is built from counts: an edited README does not change it.
    let sources = ["src", "build.rs", "Cargo.toml", "Cargo.lock"];
    let mut status = vec!["status", "--porcelain", "--untracked-files=no", "--"];
    status.extend(sources);
    let dirty = git(dir, &status).is_some_and(|s| !s.is_empty());
    // A work tree created by `git worktree` keeps HEAD in its own git dir and the branch
    // refs in the common one: watch both.
    let mut watch = Vec::new();
    for (flag, files) in [
        ("--git-dir", &["HEAD"][..]),
        ("--git-common-dir", &["packed-refs", "refs/heads"][..]),
    ] {
        if let Some(d) = git(dir, &["rev-parse", flag]) {
            let d = dir.join(d);
            watch.extend(files.iter().map(|f| d.join(f)));
        }
    }
    let suffix = if dirty { "-dirty" } else { "" };
    Some((format!("{hash}{suffix}"), watch))
}

/// The commit `cargo package` recorded in `.cargo_vcs_info.json` (a crates.io download:
/// `cargo install sudoku-batch`), first 12 hex digits.
fn packaged_commit(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join(".cargo_vcs_info.json")).ok()?;
    let after = &text[text.find("\"sha1\"")? + 6..];
    let start = after.find('"')? + 1;
    let hash: String = after[start..]
        .chars()
        .take_while(char::is_ascii_hexdigit)
        .collect();
    (hash.len() >= 12).then(|| hash[..12].to_string())
}

/// The public datasets the tests walk: the folder `SUDOKU_BATCH_DATASETS` names, else
/// `../shared/datasets` beside the crate. When it is a folder, `cfg(shared_datasets)` is set;
/// the tests that need it carry `#[cfg_attr(not(shared_datasets), ignore = "...")]`, so a
/// clone without it lists them as ignored instead of passing them unrun. Its path reaches the
/// tests as `SUDOKU_BATCH_TEST_DATASETS`.
fn datasets(dir: &Path) {
    println!("cargo:rustc-check-cfg=cfg(shared_datasets)");
    println!("cargo:rerun-if-env-changed=SUDOKU_BATCH_DATASETS");
    let path = match std::env::var_os("SUDOKU_BATCH_DATASETS") {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => dir.join("../shared/datasets"),
    };
    if path.is_dir() {
        println!("cargo:rustc-cfg=shared_datasets");
    }
    // Watch the folder, or its parent, when it exists: a path that does not exist would rerun
    // this script on every build. Nothing higher: cargo scans a watched folder whole, and the
    // crate's own parent may hold other checkouts and their build folders. So a datasets
    // folder laid where not even its parent was is seen at the next change of the sources.
    if let Some(watch) = [path.as_path(), path.parent().unwrap_or(&path)]
        .into_iter()
        .find(|p| p.is_dir())
    {
        println!("cargo:rerun-if-changed={}", watch.display());
    }
    println!(
        "cargo:rustc-env=SUDOKU_BATCH_TEST_DATASETS={}",
        path.display()
    );
}

fn main() {
    println!("cargo:rerun-if-env-changed=SUDOKU_BATCH_GIT_COMMIT");
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    datasets(&dir);
    let value = match std::env::var("SUDOKU_BATCH_GIT_COMMIT") {
        Ok(v) if !v.is_empty() => v,
        _ => match commit(&dir) {
            Some((hash, watch)) => {
                for path in watch.iter().filter(|p| p.exists()) {
                    println!("cargo:rerun-if-changed={}", path.display());
                }
                // The dirty mark follows the sources too.
                for path in ["src", "Cargo.toml", "build.rs"] {
                    println!("cargo:rerun-if-changed={path}");
                }
                hash
            }
            None => {
                println!("cargo:rerun-if-changed=build.rs");
                packaged_commit(&dir).unwrap_or_else(|| "unknown".to_string())
            }
        },
    };
    println!("cargo:rustc-env=SUDOKU_BATCH_GIT_COMMIT={value}");
}
