//! Output files that are either complete or absent, and the messages about bad records.
//!
//! The rules for every file the tool writes (`-o` of every command, `--stats-json`):
//! - `-o -` (or no `-o`) is stdout;
//! - a path that does not exist, or names a regular file, is written through a temporary file
//!   in the same directory (so the final rename stays on one file system), renamed over the
//!   path only when the command succeeds; a replaced file keeps its permission bits (and, as
//!   far as the system allows, its owner). If the command fails, the temporary file is
//!   deleted on the way out; if SIGINT, SIGTERM or SIGHUP arrives, a watcher thread deletes
//!   every pending temporary file, then lets the signal end the process as it would have (the
//!   shell sees 130 for Ctrl-C, 143 for SIGTERM);
//! - a symbolic link is followed: the link stays, its target is replaced as above;
//! - a character device (`/dev/null`, a terminal), a FIFO or a socket is opened and written
//!   directly: renaming over it would replace the device with a plain file;
//! - a directory or a block device is refused before any work starts;
//! - a name ending in `.gz`, `.zst`, `.xz` or `.bz2` is written compressed; the stream is
//!   finished before the rename, so a compressed file is complete or absent too.
//!
//! Every output is opened before the work starts, so a missing directory or a read-only
//! location is reported at once, not after a long run.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use anyhow::Context;
use sudoku_batch::pipeline::Halt;

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

/// Where a command writes: stdout, a device written directly, or a file that appears only
/// when [`Output::commit`] runs.
pub struct Output {
    /// The path as the user gave it, for messages (`None`: stdout).
    shown: Option<PathBuf>,
    /// The encoder shared with the writer handed out, finished by [`Output::commit`].
    sink: Option<Arc<Mutex<Option<Encoder>>>>,
    /// The temporary file and the path it replaces, when written through one.
    temp: Option<(tempfile::TempPath, PathBuf)>,
}

/// How a file is compressed, chosen by its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Compression {
    None,
    Gzip,
    Zstd,
    Xz,
    Bzip2,
}

impl Compression {
    fn from_name(path: &Path) -> Compression {
        match path.extension().and_then(|e| e.to_str()) {
            Some("gz") => Compression::Gzip,
            Some("zst") => Compression::Zstd,
            Some("xz") => Compression::Xz,
            Some("bz2") => Compression::Bzip2,
            _ => Compression::None,
        }
    }
}

/// The open output file, compressed or not.
enum Encoder {
    Plain(File),
    Gzip(flate2::write::GzEncoder<File>),
    Zstd(zstd::stream::write::Encoder<'static, File>),
    Xz(liblzma::write::XzEncoder<File>),
    Bzip2(bzip2::write::BzEncoder<File>),
}

impl Encoder {
    fn new(file: File, compression: Compression) -> io::Result<Encoder> {
        Ok(match compression {
            Compression::None => Encoder::Plain(file),
            Compression::Gzip => Encoder::Gzip(flate2::write::GzEncoder::new(
                file,
                flate2::Compression::default(),
            )),
            Compression::Zstd => Encoder::Zstd(zstd::stream::write::Encoder::new(file, 3)?),
            // Level 3, not xz's default 6: several times faster, the files barely larger.
            Compression::Xz => Encoder::Xz(liblzma::write::XzEncoder::new(file, 3)),
            Compression::Bzip2 => Encoder::Bzip2(bzip2::write::BzEncoder::new(
                file,
                bzip2::Compression::default(),
            )),
        })
    }

    fn writer(&mut self) -> &mut dyn Write {
        match self {
            Encoder::Plain(w) => w,
            Encoder::Gzip(w) => w,
            Encoder::Zstd(w) => w,
            Encoder::Xz(w) => w,
            Encoder::Bzip2(w) => w,
        }
    }

    /// Write the end of the compressed stream; errors here mean the file is incomplete.
    fn finish(self) -> io::Result<()> {
        let mut file = match self {
            Encoder::Plain(f) => f,
            Encoder::Gzip(w) => w.finish()?,
            Encoder::Zstd(w) => w.finish()?,
            Encoder::Xz(w) => w.finish()?,
            Encoder::Bzip2(w) => w.finish()?,
        };
        file.flush()
    }
}

/// The writer handed out: the encoder behind a lock, so [`Output::commit`] can finish it
/// after the writer (often moved into another thread) is done. Writes arrive in 64 KiB
/// chunks through a `BufWriter`, so the lock costs nothing measurable.
struct SharedSink(Arc<Mutex<Option<Encoder>>>);

impl Write for SharedSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut guard = self.0.lock().unwrap_or_else(|e| e.into_inner());
        match guard.as_mut() {
            Some(e) => e.writer().write(buf),
            None => Err(io::Error::other("output already finished")),
        }
    }

    /// A plain file's writes are already with the system; a compressor is not flushed (that
    /// would end a deflate block early and make the file larger): [`Output::commit`] ends the
    /// stream.
    fn flush(&mut self) -> io::Result<()> {
        let mut guard = self.0.lock().unwrap_or_else(|e| e.into_inner());
        match guard.as_mut() {
            Some(Encoder::Plain(file)) => file.flush(),
            _ => Ok(()),
        }
    }
}

/// What an output path points at, after following symbolic links.
enum Target {
    /// Nothing yet, or a regular file (with its metadata): replace through a temporary file.
    Replace(PathBuf, Option<std::fs::Metadata>),
    /// A character device, FIFO or socket: open and write directly.
    Direct(PathBuf),
}

/// Follow `path` through symbolic links (at most 40, as the kernel does) and classify what
/// it names.
fn resolve(path: &Path) -> anyhow::Result<Target> {
    let mut target = path.to_path_buf();
    for _ in 0..40 {
        let meta = match std::fs::symlink_metadata(&target) {
            Ok(m) => m,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Ok(Target::Replace(target, None))
            }
            Err(e) => {
                return Err(anyhow::Error::new(e).context(format!(
                    "{}: cannot look at the output path",
                    path.display()
                )))
            }
        };
        let kind = meta.file_type();
        if kind.is_symlink() {
            let link = std::fs::read_link(&target)
                .with_context(|| format!("{}: cannot read the symbolic link", path.display()))?;
            target = match target.parent() {
                Some(dir) => dir.join(link),
                None => link,
            };
            continue;
        }
        if kind.is_dir() {
            anyhow::bail!("{}: is a directory, not an output file", path.display());
        }
        if kind.is_file() {
            return Ok(Target::Replace(target, Some(meta)));
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if kind.is_block_device() {
                anyhow::bail!(
                    "{}: is a block device; refusing to write puzzles onto a disk",
                    path.display()
                );
            }
        }
        return Ok(Target::Direct(target));
    }
    anyhow::bail!("{}: too many levels of symbolic links", path.display())
}

impl Output {
    /// Open `path` for writing (see the module doc for the rules), or stdout when `None` or
    /// `-`.
    pub fn create(path: Option<&Path>) -> anyhow::Result<(Output, Box<dyn Write + Send>)> {
        let path = match path {
            Some(p) if p.as_os_str() != "-" => p,
            _ => {
                let output = Output {
                    shown: None,
                    sink: None,
                    temp: None,
                };
                return Ok((output, Box::new(io::stdout())));
            }
        };
        let compression = Compression::from_name(path);
        let (file, temp) = match resolve(path)? {
            Target::Direct(target) => {
                let file = std::fs::OpenOptions::new()
                    .write(true)
                    .open(&target)
                    .with_context(|| format!("{}: cannot open for writing", path.display()))?;
                (file, None)
            }
            Target::Replace(target, existing) => {
                let (file, temp) = temp_beside(path, &target, existing.as_ref())?;
                (file, Some((temp, target)))
            }
        };
        let encoder = Encoder::new(file, compression)
            .with_context(|| format!("{}: cannot start compressing", path.display()))?;
        let sink = Arc::new(Mutex::new(Some(encoder)));
        let output = Output {
            shown: Some(path.to_path_buf()),
            sink: Some(sink.clone()),
            temp,
        };
        Ok((output, Box::new(SharedSink(sink))))
    }

    /// The output's name in messages.
    pub fn label(&self) -> String {
        self.shown
            .as_ref()
            .map_or("stdout".into(), |p| p.display().to_string())
    }

    /// Finish the file's content (the end of a compressed stream), not yet moving it into
    /// place: a run with several outputs finishes them all before it renames any, so that a
    /// failure in one (a full disk, `--stats-json /dev/full`) leaves none of them. Call after
    /// the writer was flushed.
    pub fn finish(&mut self) -> anyhow::Result<()> {
        let label = self.label();
        if let Some(sink) = self.sink.take() {
            let encoder = sink.lock().unwrap_or_else(|e| e.into_inner()).take();
            if let Some(encoder) = encoder {
                encoder
                    .finish()
                    .with_context(|| format!("{label}: cannot write"))?;
            }
        }
        Ok(())
    }

    /// Finish the file (see [`finish`](Self::finish)) and move it into place; nothing to
    /// do for stdout. Call after the writer was flushed.
    pub fn commit(mut self) -> anyhow::Result<()> {
        let label = self.label();
        self.finish()?;
        let Some((temp, target)) = self.temp.take() else {
            return Ok(());
        };
        let mut pending = PENDING.lock().unwrap_or_else(|e| e.into_inner());
        pending.retain(|p| p != &*temp);
        // No fsync: the promise is about errors and signals, not power loss, and syncing
        // gigabytes of output would cost more than the solving.
        temp.persist(&target)
            .map_err(|e| e.error)
            .with_context(|| format!("{label}: cannot move the finished output into place"))?;
        Ok(())
    }
}

/// A temporary file beside `target` (the resolved output path), with the permission bits
/// (and owner) of the file it will replace, or the usual 0666 less the umask for a new one.
fn temp_beside(
    shown: &Path,
    target: &Path,
    existing: Option<&std::fs::Metadata>,
) -> anyhow::Result<(File, tempfile::TempPath)> {
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        anyhow::bail!(
            "{}: cannot create the output file: no directory {}",
            shown.display(),
            dir.display()
        );
    }
    let mut pending = PENDING.lock().unwrap_or_else(|e| e.into_inner());
    let mut builder = tempfile::Builder::new();
    builder.prefix(".sudoku-batch-").suffix(".partial");
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let temp = builder
        .tempfile_in(dir)
        .with_context(|| format!("{}: cannot create the output file", shown.display()))?;
    pending.push(temp.path().to_path_buf());
    if let Some(meta) = existing {
        std::fs::set_permissions(temp.path(), meta.permissions())
            .with_context(|| format!("{}: cannot keep the file's permissions", shown.display()))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            // Best effort: only root may give a file away; others keep their own files.
            let _ = std::os::unix::fs::chown(temp.path(), Some(meta.uid()), Some(meta.gid()));
        }
    }
    Ok(temp.into_parts())
}

impl Drop for Output {
    /// Not committed: the temporary file is deleted and leaves the list, under the lock, so
    /// a signal arriving meanwhile cannot miss it.
    fn drop(&mut self) {
        if let Some((temp, _)) = self.temp.take() {
            let mut pending = PENDING.lock().unwrap_or_else(|e| e.into_inner());
            pending.retain(|p| p != &*temp);
            drop(temp); // TempPath deletes its file
        }
    }
}

/// A small file written at the end of a run (the JSON summary), opened at the start so a bad
/// path stops the run before the work, and complete or absent like any [`Output`].
pub struct LateFile {
    output: Output,
    sink: Box<dyn Write + Send>,
}

impl LateFile {
    /// Open `path` now (`None`: no file asked for).
    pub fn create(path: Option<&Path>) -> anyhow::Result<Option<LateFile>> {
        path.map(|p| {
            let (output, sink) = Output::create(Some(p))?;
            Ok(LateFile { output, sink })
        })
        .transpose()
    }

    /// Fill the file and finish it, not yet in place: the caller commits it
    /// ([`Output::commit`]) once every output of the run is written, so that a failure in
    /// any of them leaves none.
    pub fn fill(
        self,
        fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    ) -> anyhow::Result<Output> {
        let label = self.output.label();
        let mut w = io::BufWriter::new(self.sink);
        fill(&mut w)
            .and_then(|()| w.flush())
            .with_context(|| format!("{label}: cannot write"))?;
        drop(w);
        let mut output = self.output;
        output.finish()?;
        Ok(output)
    }
}

/// Move finished outputs into place, in order (see [`Output::finish`]).
pub fn commit_all(outputs: impl IntoIterator<Item = Output>) -> anyhow::Result<()> {
    outputs.into_iter().try_for_each(Output::commit)
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
    /// Every bad record reported, shown or not (also when quiet).
    pub reported: u64,
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
        self.reported += 1;
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

    /// A record that is not fine (`message`: its status and message): with `strict`, the
    /// halt that stops the run; else reported when `worth_a_message` (input errors and engine
    /// failures; `multiple` and `unsolvable` are answers, already in the output).
    pub fn not_fine(
        &mut self,
        print: impl FnOnce(&str),
        (path, line): (&str, u64),
        message: String,
        strict: bool,
        worth_a_message: bool,
    ) -> Result<(), Halt> {
        if strict {
            return Err(Halt {
                line,
                message: format!("{message} (stopped by --strict)"),
            });
        }
        if worth_a_message {
            self.report(print, path, line, &message);
        }
        Ok(())
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
