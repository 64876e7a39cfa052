//! The indicatif progress bar on stderr: records done, puzzles/s, bytes read of the total and
//! the ETA when the input size is known. Shown only when stderr is a terminal.

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
}

impl Bar {
    /// A bar for `total_bytes` (None when unknown, e.g. stdin); hidden unless `show` and
    /// stderr is a terminal.
    pub fn new(total_bytes: Option<u64>, show: bool) -> Bar {
        let bar = match total_bytes {
            Some(total) => ProgressBar::new(total).with_style(
                ProgressStyle::with_template(
                    "{spinner} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} {msg} ETA {eta}",
                )
                .expect("valid template"),
            ),
            None => ProgressBar::new_spinner().with_style(
                ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bytes} read {msg}")
                    .expect("valid template"),
            ),
        };
        Bar::shown_if(bar, show)
    }

    /// A bar counting `total` items (`unit`, e.g. "puzzles"), hidden unless `show` and stderr
    /// is a terminal; advanced with [`Bar::add`], from any thread.
    pub fn counting(total: u64, unit: &str, show: bool) -> Bar {
        let template = format!(
            "{{spinner}} [{{elapsed_precise}}] {{wide_bar}} {{pos}}/{{len}} {unit} ({{per_sec}}) ETA {{eta}}"
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
        }
    }

    /// Count `n` more items done.
    pub fn add(&self, n: u64) {
        self.bar.inc(n);
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

impl Progress for Bar {
    fn update(&self, records: u64) {
        let records = self.records_before + records;
        let secs = self.bar.elapsed().as_secs_f64().max(1e-9);
        self.bar
            .set_position(self.bytes_before + self.bytes.load(Ordering::Relaxed));
        self.bar.set_message(format!(
            "{records} records, {:.0} puzzles/s",
            records as f64 / secs
        ));
    }
}
