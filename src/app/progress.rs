//! The indicatif progress bar on stderr: records done, records per second and, when the input
//! size is known, the estimated total and an ETA (the total is estimated from the bytes read
//! so far: records × total bytes / bytes read, so it firms up as the run goes). Shown only
//! when stderr is a terminal, and hidden when the output goes to that terminal too (the bar
//! and the output lines would tear each other).

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sudoku_batch::pipeline::Progress;

/// A progress bar for one run over one or more inputs.
pub struct Bar {
    bar: ProgressBar,
    /// Records and bytes of the inputs already finished.
    records_before: u64,
    bytes_before: u64,
    /// Raw bytes read from the current input.
    bytes: Arc<AtomicU64>,
    /// The size of all inputs, when known.
    total_bytes: Option<u64>,
}

impl Bar {
    /// A bar over inputs of `total_bytes` (None when unknown, e.g. stdin); hidden unless
    /// `show` and stderr is a terminal.
    pub fn new(total_bytes: Option<u64>, show: bool) -> Bar {
        let bar = match total_bytes {
            Some(_) => ProgressBar::new(0).with_style(
                ProgressStyle::with_template(
                    "{spinner} [{elapsed_precise}] {wide_bar} {human_pos}/~{human_len} records ({msg}) ETA {eta}",
                )
                .expect("valid template"),
            ),
            None => ProgressBar::new_spinner().with_style(
                ProgressStyle::with_template(
                    "{spinner} [{elapsed_precise}] {human_pos} records ({msg})",
                )
                .expect("valid template"),
            ),
        };
        let mut bar = Bar::shown_if(bar, show);
        bar.total_bytes = total_bytes;
        bar
    }

    /// A bar that never shows (for commands without one); its messages go to stderr.
    pub fn hidden() -> Bar {
        Bar::shown_if(ProgressBar::hidden(), false)
    }

    /// True when stdout is a terminal: output written there would tear a bar on the same
    /// screen, so commands writing to stdout pass `show && !Bar::stdout_is_terminal()`.
    pub fn stdout_is_terminal() -> bool {
        std::io::stdout().is_terminal()
    }

    /// A bar counting `total` items (`unit`, e.g. "puzzles"), hidden unless `show` and stderr
    /// is a terminal; advanced with [`Bar::add`], from any thread.
    pub fn counting(total: u64, unit: &str, show: bool) -> Bar {
        let template = format!(
            "{{spinner}} [{{elapsed_precise}}] {{wide_bar}} {{human_pos}}/{{human_len}} {unit} ({{msg}}) ETA {{eta}}"
        );
        let bar = ProgressBar::new(total)
            .with_style(ProgressStyle::with_template(&template).expect("valid template"));
        Bar::shown_if(bar, show)
    }

    fn shown_if(bar: ProgressBar, show: bool) -> Bar {
        if !(show && std::io::stderr().is_terminal()) {
            bar.set_draw_target(ProgressDrawTarget::hidden());
        } else {
            bar.enable_steady_tick(Duration::from_millis(200));
        }
        Bar {
            bar,
            records_before: 0,
            bytes_before: 0,
            bytes: Arc::new(AtomicU64::new(0)),
            total_bytes: None,
        }
    }

    /// Count `n` more items done.
    pub fn add(&self, n: u64) {
        self.bar.inc(n);
        let secs = self.bar.elapsed().as_secs_f64().max(1e-9);
        self.bar
            .set_message(format!("{:.0}/s", self.bar.position() as f64 / secs));
    }

    /// Start counting a new input whose raw bytes are counted by `bytes`.
    pub fn next_input(&mut self, bytes: Arc<AtomicU64>, records_so_far: u64) {
        self.bytes_before += self.bytes.load(Ordering::Relaxed);
        self.records_before = records_so_far;
        self.bytes = bytes;
    }

    /// Print a line on stderr without tearing the bar.
    pub fn println(&self, line: &str) {
        self.bar.suspend(|| eprintln!("{line}"));
    }

    /// Remove the bar from the terminal.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Drop for Bar {
    /// A run that ends early (an error) leaves no bar behind its message.
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

impl Progress for Bar {
    fn update(&self, records: u64) {
        let records = self.records_before + records;
        // The workers and the collecting thread report; a count that arrives late is stale.
        if records < self.bar.position() {
            return;
        }
        self.bar.set_position(records);
        let secs = self.bar.elapsed().as_secs_f64().max(1e-9);
        self.bar
            .set_message(format!("{:.0} puzzles/s", records as f64 / secs));
        if let Some(total) = self.total_bytes {
            let bytes = self.bytes_before + self.bytes.load(Ordering::Relaxed);
            if bytes > 0 {
                let estimate = (records as f64 * total as f64 / bytes as f64) as u64;
                self.bar.set_length(estimate.max(records));
            }
        }
    }
}
