//! One module per subcommand; each turns validated arguments into library calls and output.

pub mod bench;
pub mod canon;
pub mod docs;
pub mod explain;
pub mod generate;
pub mod hint;
pub mod plot;
pub mod rate;
pub mod shuffle;
pub mod solve;
pub mod verify;

use std::io::Write;
use std::process::ExitCode;

use serde::Serialize;
use sudoku_batch::io::Input;

use crate::cli::{Cli, Command, RatingArgs};
use crate::job::Job;

/// Run the chosen subcommand.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Bench(args) => bench::run(&args),
        Command::Solve(args) => solve::run(&args),
        Command::Verify(args) => verify::run(&args),
        Command::Rate(args) => rate::run(&args),
        Command::Hint(args) => hint::run(&args),
        Command::Explain(args) => explain::run(&args),
        Command::Generate(args) => generate::run(&args),
        Command::Shuffle(args) => shuffle::run(&args),
        Command::Canon(args) => canon::run(&args),
        Command::Plot(args) => plot::run(&args),
        Command::Completions(args) => docs::completions(&args),
        Command::Man(args) => docs::man(&args),
    }
}

/// Write `bytes` to stdout (a closed pipe comes back as an error, which `main` ends quietly).
pub fn write_stdout(bytes: &[u8]) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// True when the error chain holds a closed-pipe write (`sudoku-batch ... | head`).
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// What the summaries of `hint` and `explain` open with (stderr and `--stats-json`).
#[derive(Debug, Serialize)]
pub struct RatingRun {
    inputs: Vec<String>,
    ladder: String,
    max_rating: Option<f64>,
    threads: usize,
    seconds: f64,
}

impl RatingRun {
    /// The run of `job`, rated as `rating` says, so far.
    pub fn new(job: &Job, rating: &RatingArgs) -> RatingRun {
        RatingRun {
            inputs: job.inputs.iter().map(Input::label).collect(),
            ladder: rating.ladder.to_string(),
            max_rating: rating.max_rating.map(|d| f64::from(d.0) / 10.0),
            threads: job.threads,
            seconds: job.seconds(),
        }
    }

    /// `sudoku-batch: N records in S s (T threads, ladder L): `, the summary line's start.
    pub fn opening(&self, records: u64) -> String {
        let plural = if self.threads == 1 { "" } else { "s" };
        format!(
            "sudoku-batch: {records} records in {:.2} s ({} thread{plural}, ladder {}): ",
            self.seconds, self.threads, self.ladder
        )
    }
}
