//! One module per subcommand; each turns validated arguments into library calls and output.

mod bench;
mod generate;
mod shuffle;
mod solve;
mod verify;

use std::io::Write;
use std::process::ExitCode;

use clap::CommandFactory;

use crate::cli::{Cli, Command};

/// Run the chosen subcommand.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Bench(args) => bench::run(&args),
        Command::Solve(args) => solve::run(&args),
        Command::Verify(args) => verify::run(&args),
        Command::Generate(args) => generate::run(&args),
        Command::Shuffle(args) => shuffle::run(&args),
        Command::Completions { shell } => {
            // clap_complete panics on a failed write, so render first and write ourselves: a
            // closed pipe (`| head -1`) then ends quietly like every other command.
            let mut text = Vec::new();
            let mut cmd = crate::cli::Cli::command();
            clap_complete::generate(shell, &mut cmd, "sudoku-batch", &mut text);
            write_stdout(&text)
        }
        Command::Man => {
            let mut text = Vec::new();
            clap_mangen::Man::new(crate::cli::Cli::command()).render(&mut text)?;
            write_stdout(&text)
        }
    }
}

/// Write `bytes` to stdout (a closed pipe comes back as an error, which `main` ends quietly).
fn write_stdout(bytes: &[u8]) -> anyhow::Result<ExitCode> {
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

/// A pipeline error as the user should read it: write errors name the output.
pub fn output_error(
    e: sudoku_batch::pipeline::PipelineError,
    output: &crate::output::Output,
) -> anyhow::Error {
    match e {
        sudoku_batch::pipeline::PipelineError::Output(e) => {
            anyhow::Error::new(e).context(format!("{}: cannot write", output.label()))
        }
        e => e.into(),
    }
}
