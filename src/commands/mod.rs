//! One module per subcommand; each turns validated arguments into library calls and output.

mod bench;
mod canon;
mod generate;
mod shuffle;
mod solve;
mod verify;

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
        Command::Canon(args) => canon::run(&args),
        Command::Completions { shell } => {
            let mut cmd = crate::cli::Cli::command();
            clap_complete::generate(shell, &mut cmd, "sudoku-batch", &mut std::io::stdout());
            Ok(ExitCode::SUCCESS)
        }
        Command::Man => {
            clap_mangen::Man::new(crate::cli::Cli::command()).render(&mut std::io::stdout())?;
            Ok(ExitCode::SUCCESS)
        }
    }
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
