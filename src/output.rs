//! Output files that are either complete or absent, and the messages about bad records.
//!
//! `-o FILE` writes to a temporary file in FILE's directory (so the final rename stays on one
//! file system) and renames it over FILE only when the command succeeds. If the command fails,
//! the temporary file is deleted on the way out; if SIGINT, SIGTERM or SIGHUP arrives, a
//! watcher thread deletes every pending temporary file, then lets the signal end the process
//! as it would have (the shell sees 130 for Ctrl-C, 143 for SIGTERM).

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::Context;

/// Temporary files not yet renamed into place. Global because the signal watcher must find
/// them from its own thread.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Start the signal watcher: on SIGINT, SIGTERM or SIGHUP, delete the pending temporary
/// files, say so, and die of the signal.
pub fn watch_signals() -> anyhow::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])
        .context("cannot install signal handlers")?;
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                // Held until the process ends: no rename can slip in after the cleanup.
                let pending = PENDING.lock().unwrap_or_else(|e| e.into_inner());
                for path in pending.iter() {
                    let _ = std::fs::remove_file(path);
                }
                let name = signal_hook::low_level::signal_name(signal).unwrap_or("a signal");
                if pending.is_empty() {
                    eprintln!("\nsudoku-batch: stopped by {name}");
                } else {
                    eprintln!(
                        "\nsudoku-batch: stopped by {name}; the unfinished output was removed"
                    );
                }
                let _ = signal_hook::low_level::emulate_default_handler(signal);
                std::process::exit(128 + signal);
            }
        })
        .context("cannot start the signal watcher")?;
    Ok(())
}

/// Where a command writes: stdout, or a file that appears only when [`Output::commit`] runs.
pub struct Output {
    /// The temporary file and the final path.
    file: Option<(tempfile::NamedTempFile, PathBuf)>,
}

impl Output {
    /// Open `path` for writing (through a temporary file), or stdout when `None`.
    pub fn create(path: Option<&Path>) -> anyhow::Result<(Output, Box<dyn Write + Send>)> {
        let Some(path) = path else {
            return Ok((Output { file: None }, Box::new(io::stdout())));
        };
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        if path.is_dir() {
            anyhow::bail!("{}: is a directory, not an output file", path.display());
        }
        if !dir.is_dir() {
            anyhow::bail!(
                "{}: cannot create the output file: no directory {}",
                path.display(),
                dir.display()
            );
        }
        let mut pending = PENDING.lock().unwrap_or_else(|e| e.into_inner());
        let mut builder = tempfile::Builder::new();
        builder.prefix(".sudoku-batch-").suffix(".partial");
        // The file becomes the user's output: the usual 0666 less the umask, not 0600.
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
        let temp = builder
            .tempfile_in(dir)
            .with_context(|| format!("{}: cannot create the output file", path.display()))?;
        pending.push(temp.path().to_path_buf());
        let writer = temp
            .reopen()
            .with_context(|| format!("{}: cannot write", path.display()))?;
        Ok((
            Output {
                file: Some((temp, path.to_path_buf())),
            },
            Box::new(writer),
        ))
    }

    /// The output's name in messages.
    pub fn label(&self) -> String {
        self.file
            .as_ref()
            .map_or("stdout".into(), |(_, p)| p.display().to_string())
    }

    /// Move the finished file into place (nothing to do for stdout). Call after the writer
    /// was flushed and dropped.
    pub fn commit(mut self) -> anyhow::Result<()> {
        let Some((temp, path)) = self.file.take() else {
            return Ok(());
        };
        let mut pending = PENDING.lock().unwrap_or_else(|e| e.into_inner());
        pending.retain(|p| p != temp.path());
        // No fsync: the promise is about errors and signals, not power loss, and syncing
        // gigabytes of output would cost more than the solving.
        temp.persist(&path).with_context(|| {
            format!(
                "{}: cannot move the finished output into place",
                path.display()
            )
        })?;
        Ok(())
    }
}

impl Drop for Output {
    /// Not committed: the temporary file is deleted and leaves the list, under the lock, so
    /// a signal arriving meanwhile cannot miss it.
    fn drop(&mut self) {
        if let Some((temp, _)) = self.file.take() {
            let mut pending = PENDING.lock().unwrap_or_else(|e| e.into_inner());
            pending.retain(|p| p != temp.path());
            drop(temp); // NamedTempFile deletes its file
        }
    }
}

/// Writes a small file (a JSON summary) through [`Output`], so it is complete or absent too.
pub fn write_file(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> anyhow::Result<()> {
    let (output, sink) = Output::create(Some(path))?;
    let mut w = io::BufWriter::new(sink);
    fill(&mut w)
        .and_then(|()| w.flush())
        .with_context(|| format!("{}: cannot write", path.display()))?;
    drop(w);
    output.commit()
}

/// The warning for an input without records (not an error: the exit code stays 0).
pub fn no_records(label: &str) -> String {
    format!("sudoku-batch: warning: {label}: no puzzle records (an empty file, or only a header or comments)")
}

/// Messages about bad records on stderr: the first [`Diagnostics::SHOWN`] in full, then a
/// count of the rest at the end.
#[derive(Default)]
pub struct Diagnostics {
    shown: u64,
    hidden: u64,
    quiet: bool,
}

impl Diagnostics {
    /// How many messages are printed before the rest are only counted.
    pub const SHOWN: u64 = 20;

    /// Messages on stderr unless `quiet`.
    pub fn new(quiet: bool) -> Diagnostics {
        Diagnostics {
            quiet,
            ..Diagnostics::default()
        }
    }

    /// Report one bad record.
    pub fn report(&mut self, print: impl FnOnce(&str), path: &str, line: u64, message: &str) {
        if self.quiet {
            return;
        }
        if self.shown < Self::SHOWN {
            self.shown += 1;
            print(&format!("sudoku-batch: {path}:{line}: {message}"));
        } else {
            self.hidden += 1;
        }
    }

    /// The closing line about messages not shown, if any.
    pub fn finish(&self, hint: &str) {
        if self.hidden > 0 {
            eprintln!(
                "sudoku-batch: ... and {} more bad records not shown ({hint})",
                self.hidden
            );
        }
    }
}
