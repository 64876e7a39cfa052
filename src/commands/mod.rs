//! One module per subcommand; each turns validated arguments into library calls and output.

mod bench;
mod generate;
mod solve;
mod verify;

use std::process::ExitCode;

use crate::cli::{Cli, Command};

/// Run the chosen subcommand.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Bench(args) => bench::run(&args),
        Command::Solve(args) => solve::run(&args),
        Command::Verify(args) => verify::run(&args),
        Command::Generate(args) => generate::run(&args),
    }
}

/// True when the error chain holds a closed-pipe write (`sudoku-batch ... | head`).
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
